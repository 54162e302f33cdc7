package org.dpaccel.xdrop;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.charset.StandardCharsets;

import org.dpaccel.Backend;
import org.dpaccel.Config;
import org.dpaccel.DpaContext;
import org.dpaccel.DpaccelException;
import org.dpaccel.Status;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * The X-drop batch API on cases derived by hand from SeqAn's rules (docs/xdrop.md; the native
 * suite compares the same kernels with SeqAn itself), result order, and every bad input.
 */
class XdropApiTest {
    static DpaContext ctx;

    @BeforeAll
    static void open() {
        ctx = DpaContext.create(Config.builder().threads(2).build());
    }

    @AfterAll
    static void close() {
        ctx.close();
    }

    static byte[] b(String s) {
        return s.getBytes(StandardCharsets.US_ASCII);
    }

    static int[] row(XdropResults r, int i) {
        return new int[] { r.score(i), r.qbeg(i), r.qend(i), r.tbeg(i), r.tend(i), r.left(i), r.right(i) };
    }

    @Test
    void handDerivedCases() {
        XdropBatch.Builder bb = XdropBatch.builder();
        int acgt = bb.addSequence(b("ACGTACGT"));
        int a = bb.addSequence(b("A"));
        int longT = bb.addSequence(b("A" + "C".repeat(100)));
        int q = bb.addSequence(b("AACCGT"));
        int t = bb.addSequence(b("ACGGTT"));
        int nq = bb.addSequence(b("NNNN"));
        int nt = bb.addSequence(b("nnnn"));
        bb.addSeed(acgt, 2, acgt, 2, 2, false);   // both ends reached: left 2, right 4
        bb.addSeed(a, 0, longT, 0, 0, false);     // ends at -99 = best - X, both ends reached
        bb.addSeed(q, 2, t, 2, 2, true);          // reverse complement of t equals q
        bb.addSeed(nq, 0, nt, 0, 0, false);       // N against N is a match
        XdropResults r = Xdrop.compute(ctx, bb.build(), XdropParams.unit(100));
        assertEquals(4, r.size());
        assertArrayEquals(new int[] { 8, 0, 8, 0, 8, 2, 4 }, row(r, 0));
        assertArrayEquals(new int[] { -99, 0, 1, 0, 101, 0, -99 }, row(r, 1));
        assertArrayEquals(new int[] { 6, 0, 6, 0, 6, 2, 2 }, row(r, 2));
        assertArrayEquals(new int[] { 4, 0, 4, 0, 4, 0, 4 }, row(r, 3));
        assertTrue(r.cells() > 0);
        assertEquals(0, r.gpuPairs());
    }

    @Test
    void zeroXStopsAtMismatch() {
        XdropBatch.Builder bb = XdropBatch.builder();
        int q = bb.addSequence(b("AC"));
        int t = bb.addSequence(b("AG"));
        bb.addSeed(q, 0, t, 0, 1, false);
        XdropResults r = Xdrop.compute(ctx, bb.build(), new XdropParams(1, -1, -1, 0));
        assertArrayEquals(new int[] { 1, 0, 1, 0, 1, 0, 0 }, row(r, 0));
    }

    @Test
    void resultsInSeedOrderAcrossThreads() {
        XdropBatch.Builder bb = XdropBatch.builder();
        StringBuilder s = new StringBuilder();
        java.util.Random rng = new java.util.Random(5);
        for (int i = 0; i < 3000; i++) {
            s.append("ACGT".charAt(rng.nextInt(4)));
        }
        int g = bb.addSequence(b(s.toString()));
        // seed k on identical sequences at k*10: the whole sequence is reached both ways
        for (int k = 0; k < 200; k++) {
            bb.addSeed(g, k * 10, g, k * 10, 5, false);
        }
        XdropResults r = Xdrop.compute(ctx, bb.build(), XdropParams.unit(20));
        for (int k = 0; k < 200; k++) {
            assertArrayEquals(new int[] { 3000, 0, 3000, 0, 3000, k * 10, 3000 - k * 10 - 5 }, row(r, k),
                "seed " + k);
        }
    }

    @Test
    void badParamsNameTheField() {
        assertMessage(() -> new XdropParams(0, -1, -1, 10), "match = 0, must be in [1, 1000]");
        assertMessage(() -> new XdropParams(1, 0, -1, 10), "mismatch = 0, must be in [-1000, -1]");
        assertMessage(() -> new XdropParams(1, -1, 1, 10), "gap = 1, must be in [-1000, -1]");
        assertMessage(() -> new XdropParams(1, -1, -1, -5), "xdrop = -5, must be in [0, 1073741824]");
        assertMessage(() -> new XdropParams(1, -1001, -1, 5), "mismatch = -1001");
    }

    @Test
    void badSequencesAndSeedsNameIndexFieldAndLimit() {
        XdropBatch.Builder bb = XdropBatch.builder();
        assertMessage(() -> bb.addSequence(new byte[0]), "sequence 0: length = 0, must be in [1, 1048575]");
        assertMessage(() -> bb.addSequence(b("AC-T")), "sequence 0: byte 2 = 0x2d is not a letter");
        int q = bb.addSequence(b("ACGT"));
        assertMessage(() -> bb.addSeed(q, 3, q, 0, 2, false), "seed 0: qpos = 3 with length 2, must be in [0, 2]");
        assertMessage(() -> bb.addSeed(q, 0, q, -1, 0, false), "seed 0: tpos = -1");
        assertMessage(() -> bb.addSeed(q, 0, 7, 0, 0, false), "seed 0: target = 7, must be in [0, 0]");
        assertMessage(() -> bb.addSeed(-1, 0, q, 0, 0, false), "seed 0: query = -1");
        assertMessage(() -> bb.addSeed(q, 0, q, 0, -1, false), "seed 0: length = -1, must be >= 0");
        assertEquals(0, bb.addSeed(q, 0, q, 0, 4, true));
    }

    @Test
    void gpuForcedFailsAndTheContextStaysUsable() {
        XdropBatch.Builder bb = XdropBatch.builder();
        int q = bb.addSequence(b("ACGT"));
        bb.addSeed(q, 0, q, 0, 2, false);
        XdropBatch batch = bb.build();
        DpaccelException e = assertThrows(DpaccelException.class,
            () -> Xdrop.compute(ctx, batch, XdropParams.unit(10), Backend.GPU));
        assertEquals(Status.NO_DEVICE, e.status());
        assertTrue(e.getMessage().contains("xdrop"), e.getMessage());
        assertEquals(4, Xdrop.compute(ctx, batch, XdropParams.unit(10), Backend.AUTO).score(0));
        assertEquals(4, Xdrop.compute(ctx, batch, XdropParams.unit(10), Backend.HYBRID).score(0));
        assertEquals(0, Xdrop.compute(ctx, XdropBatch.builder().build(), XdropParams.unit(10)).size());
    }

    static void assertMessage(org.junit.jupiter.api.function.Executable f, String part) {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, f);
        assertTrue(e.getMessage().contains(part), "message: " + e.getMessage() + "\nexpected: " + part);
    }
}
