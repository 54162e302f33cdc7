package org.dpaccel.bench.workload;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;

import org.dpaccel.Backend;
import org.dpaccel.DpaContext;
import org.dpaccel.papara.GapModel;
import org.dpaccel.papara.PaparaParams;
import org.dpaccel.papara.ScoreModel;
import org.dpaccel.pdhmm.Pdhmm;
import org.junit.jupiter.api.Test;

/**
 * The PDHMM and PaPaRa plug-ins of the generic runner: every CPU backend of this machine equals
 * scalar (fresh seed, printed), the comparisons catch a one-bit or one-score difference, the
 * generators are deterministic and give inputs of the documented shape, bad settings are refused.
 */
class PdhmmPaparaBenchTest {
    private static String run(WorkloadBench<?, ?> b, WorkloadBenchRunner.Settings s, int[] rc) {
        ByteArrayOutputStream buf = new ByteArrayOutputStream();
        rc[0] = WorkloadBenchRunner.run(b, s, new PrintStream(buf, true, StandardCharsets.UTF_8));
        return buf.toString(StandardCharsets.UTF_8);
    }

    private static WorkloadBenchRunner.Settings settings(int size, String backends) {
        WorkloadBenchRunner.Settings s = new WorkloadBenchRunner.Settings();
        s.size = size;
        s.backends = backends;
        s.threads = 2;
        s.reps = 1;
        s.warmup = 1;
        s.seed = System.nanoTime();
        System.out.println("seed " + s.seed);
        return s;
    }

    @Test
    void pdhmmAgreesOnEveryCpuBackendBothRowModes() {
        for (Pdhmm.Rows rows : Pdhmm.Rows.values()) {
            int[] rc = new int[1];
            String out = run(new PdhmmBench(rows), settings(400, "cpu,cuda"), rc);
            assertEquals(0, rc[0], out);
            assertTrue(out.contains("400 pairs in ") && out.contains("rows=" + rows.name().toLowerCase()), out);
            assertTrue(out.contains("scalar ") && out.contains("ok (= scalar)"), out);
            assertTrue(out.contains("RESULT: every backend that ran equals scalar"), out);
        }
    }

    @Test
    void paparaAgreesOnEveryCpuBackendBothGapModels() {
        for (GapModel m : GapModel.values()) {
            int[] rc = new int[1];
            String out = run(new PaparaBench(12, 300, PaparaParams.defaults(), m, ScoreModel.PAPARA2, true), settings(40, "cpu,cuda"), rc);
            assertEquals(0, rc[0], out);
            assertTrue(out.contains("40 reads (") && out.contains("21 edge profiles"), out);
            assertTrue(out.contains("whole score matrix compared"), out);
            assertTrue(out.contains("RESULT: every backend that ran equals scalar"), out);
        }
    }

    @Test
    void paparaPaper2012AgreesOnEveryCpuBackend() {
        int[] rc = new int[1];
        String out = run(new PaparaBench(12, 400, PaparaParams.defaults(), GapModel.PROB, ScoreModel.PAPER2012, true),
            settings(30, "cpu,cuda"), rc);
        assertEquals(0, rc[0], out);
        assertTrue(out.contains("score model paper2012"), out);
        assertTrue(out.contains("RESULT: every backend that ran equals scalar"), out);
    }

    @Test
    void pdhmmInputsAreDeterministicAndPlausible() {
        PdhmmBench b = new PdhmmBench(Pdhmm.Rows.GATK);
        PdhmmBench.Input x = b.generate(11, 500), y = b.generate(11, 500), z = b.generate(12, 500);
        assertEquals(500, x.batch().size());
        assertEquals(x.cells(), y.cells());
        // 300-400 bp haplotypes x reads of at most 150 bp
        assertTrue(x.cells() >= 500L * 300 * 50 && x.cells() <= 500L * 400 * 150, "cells " + x.cells());
        try (DpaContext ctx = DpaContext.create()) {
            double[] rx = b.run(ctx, Backend.CPU, x), ry = b.run(ctx, Backend.CPU, y), rz = b.run(ctx, Backend.CPU, z);
            assertNull(b.firstDifference(rx, ry));
            assertNotNull(b.firstDifference(rx, rz));
            // reads drawn from the region's haplotypes: finite likelihoods, the best haplotype
            // of a read well above chance (a random 125-mer would be near -125 x log10(4/0.75))
            double[] sorted = rx.clone();
            Arrays.sort(sorted);
            assertTrue(Double.isFinite(sorted[0]) && sorted[sorted.length - 1] < 0, Arrays.toString(sorted));
            assertTrue(sorted[sorted.length - 1] > -40, "best " + sorted[sorted.length - 1]);
            // a one-bit difference is a difference
            double[] flip = rx.clone();
            flip[7] = Math.nextUp(flip[7]);
            String d = b.firstDifference(rx, flip);
            assertNotNull(d);
            assertTrue(d.startsWith("pair 7:") && d.endsWith("1 pairs differ"), d);
        }
    }

    @Test
    void paparaInputsAreDeterministicAndPlausible() {
        PaparaBench b = new PaparaBench(10, 400, PaparaParams.defaults(), GapModel.PROB, ScoreModel.PAPARA2, true);
        PaparaBench.Input x = b.generate(3, 30), y = b.generate(3, 30), z = b.generate(4, 30);
        assertEquals(17, x.ref().numEdges()); // 2 x 10 - 3 edges of an unrooted binary tree
        assertEquals(x.readBases(), y.readBases());
        try (DpaContext ctx = DpaContext.create()) {
            PaparaBench.Scored rx = b.run(ctx, Backend.CPU, x), ry = b.run(ctx, Backend.CPU, y);
            assertNull(b.firstDifference(rx, ry));
            assertNotNull(b.firstDifference(rx, b.run(ctx, Backend.CPU, z)));
            assertEquals(x.ref().numEdges() * x.ref().numSites() * x.readBases(), rx.results().cells());
            // reads are noisy copies of tips: most bases match (+2 each) the best profile
            for (int i = 0; i < 30; i++) {
                int len = x.reads()[i].length;
                assertTrue(rx.results().bestScore(i) > len, "read " + i + " of " + len + " bases scores "
                    + rx.results().bestScore(i));
            }
        }
        // best-only runs compare without a matrix
        PaparaBench best = new PaparaBench(10, 400, PaparaParams.defaults(), GapModel.PROB, ScoreModel.PAPARA2, false);
        try (DpaContext ctx = DpaContext.create()) {
            PaparaBench.Input in = best.generate(3, 30);
            assertNull(best.firstDifference(best.run(ctx, Backend.CPU, in), best.run(ctx, Backend.CPU, in)));
        }
    }

    @Test
    void badSettingsAreRefused() {
        assertThrows(IllegalArgumentException.class, () -> new PaparaBench(2, 100, PaparaParams.defaults(),
            GapModel.PROB, ScoreModel.PAPARA2, true));
        assertThrows(IllegalArgumentException.class, () -> new PaparaBench(5, 0, PaparaParams.defaults(),
            GapModel.PROB, ScoreModel.PAPARA2, true));
        assertThrows(NullPointerException.class, () -> new PdhmmBench(null));
    }
}
