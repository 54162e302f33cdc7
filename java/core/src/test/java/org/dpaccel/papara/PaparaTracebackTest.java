package org.dpaccel.papara;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

import org.dpaccel.Config;
import org.dpaccel.DpaContext;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@link Papara#traceback} and {@link Papara#writeAlignment} on alignments derived by hand from
 * PaPaRa's rules (docs/papara.md; the CLI's oracle test compares whole files with PaPaRa 2.5),
 * and the validation: Java names the read, edge or row first; the native layer checks again.
 */
class PaparaTracebackTest {
    static DpaContext ctx;

    @BeforeAll
    static void open() {
        ctx = DpaContext.create(Config.builder().threads(1).build());
    }

    @AfterAll
    static void close() {
        ctx.close();
    }

    /** Site bytes / read masks of plain ACGT text (A=1 C=2 G=4 T=8). */
    static byte[] m(String s) {
        byte[] b = new byte[s.length()];
        for (int i = 0; i < b.length; i++) {
            b[i] = (byte) Papara.readMask(s.charAt(i));
        }
        return b;
    }

    @Test
    void freeShiftMatchAndOverhangByHand() {
        PaparaReference ref = PaparaReference.ofSites(new byte[][] {m("ACGT")});
        // profile 0 ACGT, read CG: sites 1-2 match (4), the outer sites are free gaps
        PaparaPlacement[] p = Papara.traceback(ctx, ref, new int[] {0}, new byte[][] {m("CG")},
            PaparaParams.defaults());
        assertEquals(4, p[0].score());
        assertArrayEquals(new byte[] {1, 0, 0, 1}, p[0].ops());
        assertEquals(1, p[0].refStart());
        assertEquals("2M", p[0].cigar());
        assertEquals(2, p[0].readLength());
    }

    @Test
    void overhangTieEndsAtTheFirstMaximumByHand() {
        // read AAAAGCCCC on AAAACCCC: the diagonal read 0-7 / sites 0-7 scores 8 + 0 + 6 = 14 and
        // ends at the last site with read base 8 left over (I); the shifted diagonal (read 1-8)
        // also scores 14 but ends later in PaPaRa's scan; the insertion path scores 16 - 3 = 13.
        PaparaReference ref = PaparaReference.ofSites(new byte[][] {m("AAAACCCC")});
        PaparaPlacement[] p = Papara.traceback(ctx, ref, new int[] {0}, new byte[][] {m("AAAAGCCCC")},
            PaparaParams.defaults());
        assertEquals(14, p[0].score());
        assertEquals(14, Papara.score(ctx, ref, new byte[][] {m("AAAAGCCCC")}, PaparaParams.defaults(), false,
            null).bestScore(0));
        assertEquals("8M1I", p[0].cigar());
        assertEquals(0, p[0].refStart());
    }

    @Test
    void validationNamesTheItem() {
        PaparaReference ref = PaparaReference.ofSites(new byte[][] {m("ACGT")});
        PaparaParams d = PaparaParams.defaults();
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
            () -> Papara.traceback(ctx, ref, new int[] {0, 1}, new byte[][] {m("AC"), m("CG")}, d));
        assertTrue(e.getMessage().contains("read 1: edge 1 outside [0, 1)"), e.getMessage());
        e = assertThrows(IllegalArgumentException.class,
            () -> Papara.traceback(ctx, ref, new int[] {0, 0}, new byte[][] {m("AC"), {1, 16}}, d));
        assertTrue(e.getMessage().contains("read 1 base 1 = 16"), e.getMessage());
        e = assertThrows(IllegalArgumentException.class,
            () -> Papara.traceback(ctx, ref, new int[] {0}, new byte[][] {{}}, d));
        assertTrue(e.getMessage().contains("read 0 is empty"), e.getMessage());
        e = assertThrows(IllegalArgumentException.class,
            () -> Papara.traceback(ctx, ref, new int[] {0}, new byte[][] {m("A"), m("C")}, d));
        assertTrue(e.getMessage().contains("1 edges for 2 reads"), e.getMessage());
        e = assertThrows(IllegalArgumentException.class, () -> PaparaReference.ofSites(new byte[][] {{1, 32}}));
        assertTrue(e.getMessage().contains("profile 0 site 1 = 32"), e.getMessage());
        assertEquals(0, Papara.traceback(ctx, ref, new int[0], new byte[0][], d).length);
    }

    @Test
    void alignmentFileByHand(@TempDir Path dir) throws IOException {
        // two tree rows written as given (case, N), a third row outside the tree (not written);
        // read1 inserts one base between sites 1 and 2, so one gap column goes there; names are
        // padded to 1 + the longest written name.
        byte[][] rows = {m("ACGT"), m("ACGT"), m("ACGT")};
        PaparaReference ref = PaparaReference.ofSites(new byte[][] {m("ACGT")});
        byte[][] reads = {m("CGT"), m("ACTGT")};
        PaparaPlacement[] p = Papara.traceback(ctx, ref, new int[] {0, 0}, reads, PaparaParams.defaults());
        assertEquals("3M", p[0].cigar());
        assertEquals(1, p[0].refStart());
        assertEquals("2M1I2M", p[1].cigar()); // 8 - 3 = 5 beats any shift without the insertion (4)
        Path f = dir.resolve("alignment.phy");
        List<String> names = List.of("ta", "tb", "out");
        byte[][] text = {"ACGT".getBytes(StandardCharsets.US_ASCII), "acgN".getBytes(StandardCharsets.US_ASCII),
            "ACGT".getBytes(StandardCharsets.US_ASCII)};
        Papara.writeAlignment(ctx, f, ref, names, text, new int[] {0, 1}, List.of("r0", "read1"), reads, p);
        assertEquals("4 5\nta    AC-GT\ntb    ac-gN\nr0    -C-GT\nread1 ACTGT\n", Files.readString(f));
        // a placement that does not belong to the read: refused before any native call, no file
        Path g = dir.resolve("bad.phy");
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> Papara.writeAlignment(ctx, g,
            ref, names, text, new int[] {0, 1}, List.of("r0", "read1"), new byte[][] {reads[1], reads[0]}, p));
        assertTrue(e.getMessage().startsWith("read 0:"), e.getMessage());
        assertFalse(Files.exists(g));
        e = assertThrows(IllegalArgumentException.class, () -> Papara.writeAlignment(ctx, g, ref, names, text,
            new int[] {0, 3}, List.of("r0", "read1"), reads, p));
        assertTrue(e.getMessage().contains("tree row 3"), e.getMessage());
    }
}
