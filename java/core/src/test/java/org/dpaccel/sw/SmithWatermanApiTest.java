package org.dpaccel.sw;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.charset.StandardCharsets;
import java.util.Random;

import org.dpaccel.Backend;
import org.dpaccel.Config;
import org.dpaccel.DpaContext;
import org.dpaccel.DpaccelException;
import org.dpaccel.Status;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/** The batch API: GATK's published cases, order and packing on threads, every bad input. */
class SmithWatermanApiTest {
    static DpaContext ctx;

    @BeforeAll
    static void open() {
        ctx = DpaContext.create(Config.builder().threads(3).build());
    }

    @AfterAll
    static void close() {
        ctx.close();
    }

    static byte[] b(String s) {
        return s.getBytes(StandardCharsets.US_ASCII);
    }

    static SwAlignment one(String ref, String alt, SwParameters p, SwOverhang o) {
        return SmithWaterman.align(ctx, b(ref), b(alt), p, o);
    }

    @Test
    void gatkPublishedCases() {
        SwParameters d = SwParameters.ORIGINAL_DEFAULT;
        assertEquals(new SwAlignment("12M", 1), one("AAAGGACTGACTG", "ACTGACTGACTG", d, SwOverhang.SOFTCLIP));
        assertEquals(new SwAlignment("2M2I3M1D4M", 1),
            one("AAAGACTACTG", "AACGGACACTG", new SwParameters(50, -100, -220, -12), SwOverhang.SOFTCLIP));
        assertEquals(new SwAlignment("5M3S", 3), one("AAACCCCC", "CCCCCGGG", d, SwOverhang.SOFTCLIP));
        assertEquals(new SwAlignment("31M20S", 14), one("TGTGTGTGTGTGTGACAGAGAGAGAGAGAGAGAGAGAGAGAGAGA",
            "ACAGAGAGAGAGAGAGAGAGAGAGAGAGAGAGAGAGAGAGAGAGAGAGAGA", SwParameters.DANGLING_END, SwOverhang.SOFTCLIP));
        assertEquals(new SwAlignment("3D5M", 0), one("AAACCCCC", "CCCCC", d, SwOverhang.INDEL));
        assertEquals(new SwAlignment("3D5M", 0), one("AAACCCCC", "CCCCC", d, SwOverhang.LEADING_INDEL));
        assertEquals(new SwAlignment("5M", 3), one("AAACCCCC", "CCCCC", d, SwOverhang.IGNORE));
        assertEquals(new SwAlignment("3M", -1), one("CC", "ACC", d, SwOverhang.IGNORE));
        assertEquals(new SwAlignment("1I2M", 0), one("CC", "ACC", d, SwOverhang.INDEL));
    }

    @Test
    void batchKeepsOrderAndMatchesSinglePairs() {
        Random rng = new Random(11);
        SwBatch.Builder bb = SwBatch.builder();
        String[] refs = new String[300], alts = new String[300];
        for (int i = 0; i < refs.length; i++) {
            StringBuilder r = new StringBuilder();
            int n = 5 + rng.nextInt(i % 30 == 0 ? 1200 : 200);
            for (int k = 0; k < n; k++) {
                r.append("ACGT".charAt(rng.nextInt(4)));
            }
            refs[i] = r.toString();
            StringBuilder a = new StringBuilder(refs[i].substring(rng.nextInt(n / 2 + 1)));
            a.setCharAt(a.length() / 2, 'T');
            if (rng.nextBoolean()) {
                a.insert(a.length() / 3, "GGA");
            }
            alts[i] = a.toString();
            bb.add(b(refs[i]), b(alts[i]));
        }
        SwBatch batch = bb.build();
        for (SwOverhang o : SwOverhang.values()) {
            SwResults res = SmithWaterman.align(ctx, batch, SwParameters.READ_TO_HAPLOTYPE, o);
            assertEquals(refs.length, res.size());
            for (int i = 0; i < refs.length; i++) {
                SwAlignment single = SmithWaterman.align(ctx, SwBatch.of(b(refs[i]), b(alts[i])),
                    SwParameters.READ_TO_HAPLOTYPE, o, Backend.CPU).get(0);
                assertEquals(single, res.get(i), "pair " + i + " " + o);
            }
        }
        SwResults empty = SmithWaterman.align(ctx, SwBatch.builder().build(), SwParameters.DANGLING_END,
            SwOverhang.SOFTCLIP);
        assertEquals(0, empty.size());
    }

    @Test
    void badInputsNameTheField() {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
            () -> SwBatch.builder().add(b("ACGT"), b("AC")).add(b(""), b("A")));
        assertTrue(e.getMessage().contains("ref of pair 1 is empty"), e.getMessage());
        NullPointerException npe = assertThrows(NullPointerException.class,
            () -> SwBatch.builder().add(b("A"), null));
        assertTrue(npe.getMessage().contains("alt of pair 0"), npe.getMessage());
        e = assertThrows(IllegalArgumentException.class,
            () -> SwBatch.builder().add(new byte[SwBatch.MAX_LENGTH + 1], b("A")));
        assertTrue(e.getMessage().contains("65537") && e.getMessage().contains("65536"), e.getMessage());
        e = assertThrows(IllegalArgumentException.class,
            () -> SwBatch.builder().add(new byte[SwBatch.MAX_LENGTH], new byte[16385]));
        assertTrue(e.getMessage().contains("cells"), e.getMessage());
        e = assertThrows(IllegalArgumentException.class, () -> new SwParameters(1 << 28, -1, -1, -1));
        assertTrue(e.getMessage().contains("match = 268435456"), e.getMessage());
        e = assertThrows(IllegalArgumentException.class, () -> new SwParameters(1, -1, -1, Integer.MIN_VALUE));
        assertTrue(e.getMessage().contains("gapExtend"), e.getMessage());
        SwParameters huge = new SwParameters(1 << 27, -(1 << 20), -(1 << 20), -1);
        SwBatch batch = SwBatch.builder().add(b("ACGT"), b("ACG")).add(b("A".repeat(100)), b("C")).build();
        e = assertThrows(IllegalArgumentException.class,
            () -> SmithWaterman.align(ctx, batch, huge, SwOverhang.SOFTCLIP));
        assertTrue(e.getMessage().contains("pair 1") && e.getMessage().contains("overflow"), e.getMessage());
        if (ctx.deviceCount() == 0) {
            DpaccelException de = assertThrows(DpaccelException.class,
                () -> SmithWaterman.align(ctx, batch, SwParameters.DANGLING_END, SwOverhang.SOFTCLIP, Backend.GPU));
            assertEquals(Status.NO_DEVICE, de.status());
        } else {
            SwResults gpu = SmithWaterman.align(ctx, batch, SwParameters.DANGLING_END, SwOverhang.SOFTCLIP, Backend.GPU);
            SwResults cpu = SmithWaterman.align(ctx, batch, SwParameters.DANGLING_END, SwOverhang.SOFTCLIP, Backend.CPU);
            assertEquals(2, gpu.gpuPairs());
            assertEquals(0, cpu.gpuPairs());
            for (int i = 0; i < 2; i++) {
                assertEquals(cpu.get(i), gpu.get(i));
            }
        }
        assertThrows(NullPointerException.class, () -> SmithWaterman.align(ctx, batch, null, SwOverhang.INDEL));
        assertThrows(NullPointerException.class,
            () -> SmithWaterman.align(ctx, batch, SwParameters.DANGLING_END, null));
    }
}
