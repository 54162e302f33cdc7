package org.dpaccel;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.logging.Handler;
import java.util.logging.LogRecord;
import java.util.logging.Logger;

import org.broadinstitute.gatk.nativebindings.pairhmm.HaplotypeDataHolder;
import org.broadinstitute.gatk.nativebindings.pairhmm.PairHMMNativeArguments;
import org.broadinstitute.gatk.nativebindings.pairhmm.ReadDataHolder;

import org.dpaccel.gatk.DpaPairHmm;
import org.dpaccel.gatk.DpaSmithWaterman;
import org.dpaccel.pairhmm.PairHmm;
import org.dpaccel.pairhmm.PairHmmBatch;
import org.dpaccel.pairhmm.Precision;
import org.dpaccel.sw.SmithWaterman;
import org.dpaccel.sw.SwAlignment;
import org.dpaccel.sw.SwBatch;
import org.dpaccel.sw.SwOverhang;
import org.dpaccel.sw.SwParameters;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;

/**
 * Issue 8 rows the other suites do not cover: many JVM threads mixing every kind of call on one
 * context (docs/RELIABILITY.md, "Concurrency"), totals that would overflow a Java array,
 * loading twice, and the one start-up line.
 */
class ReliabilityTest {
    private static PairHmmBatch regions(Random rng) {
        PairHmmBatch.Builder b = PairHmmBatch.builder();
        for (int g = 0; g < 6; g++) {
            byte[] ref = TestData.bases(rng, 200 + rng.nextInt(200));
            int nr = 1 + rng.nextInt(12), nh = 1 + rng.nextInt(4);
            for (int r = 0; r < nr; r++) {
                TestData.addRead(b, TestData.gatkRead(rng, ref, 120));
            }
            for (int h = 0; h < nh; h++) {
                byte[] hap = ref.clone();
                hap[rng.nextInt(hap.length)] = 'C';
                b.addHaplotype(hap);
            }
            b.endGroup();
        }
        return b.build();
    }

    private static SwBatch pairs(Random rng) {
        SwBatch.Builder b = SwBatch.builder();
        for (int i = 0; i < 40; i++) {
            byte[] ref = TestData.bases(rng, 50 + rng.nextInt(300));
            int from = rng.nextInt(ref.length / 2);
            byte[] alt = java.util.Arrays.copyOfRange(ref, from, Math.min(ref.length, from + 30 + rng.nextInt(60)));
            alt[rng.nextInt(alt.length)] = 'T';
            b.add(ref, alt);
        }
        return b.build();
    }

    /**
     * 16 JVM threads x 25 calls on one 3-thread context: PairHMM in both precisions on every
     * per-call backend, Smith-Waterman with each overhang strategy, forced GPU, and bad input,
     * interleaved. Good calls must equal (bitwise) the same call alone on a fresh 1-thread
     * context; bad ones throw their own exception.
     */
    @Test
    void manyJavaThreadsMixEveryKindOfCallOnOneContext() throws Exception {
        long seed = TestData.seed();
        Random rng = new Random(seed);
        PairHmmBatch batch = regions(rng);
        SwBatch sw = pairs(rng);
        Config cpuOnly = Config.builder().threads(1).gpuDisable(true).build();
        double[][] want = new double[2][];
        SwAlignment[][] wantSw = new SwAlignment[SwOverhang.values().length][];
        try (DpaContext solo = DpaContext.create(cpuOnly)) {
            want[0] = PairHmm.compute(solo, batch, Precision.FLOAT_THEN_DOUBLE, Backend.CPU);
            want[1] = PairHmm.compute(solo, batch, Precision.DOUBLE, Backend.CPU);
            for (SwOverhang o : SwOverhang.values()) {
                wantSw[o.ordinal()] = SmithWaterman.align(solo, sw, SwParameters.READ_TO_HAPLOTYPE, o).toArray();
            }
        }
        Backend[] backends = {null, Backend.CPU, Backend.AUTO, Backend.HYBRID, Backend.GPU};
        ExecutorService pool = Executors.newFixedThreadPool(16);
        try (DpaContext ctx = DpaContext.create(Config.builder().threads(3).gpuDisable(true).build())) {
            List<Future<Integer>> fs = new ArrayList<>();
            for (int t = 0; t < 16; t++) {
                long s = seed * 31 + t;
                fs.add(pool.submit(() -> {
                    Random r = new Random(s);
                    int done = 0;
                    for (int c = 0; c < 25; c++) {
                        Backend be = backends[r.nextInt(backends.length)];
                        switch (r.nextInt(4)) {
                            case 0, 1 -> {
                                Precision p = r.nextBoolean() ? Precision.DOUBLE : Precision.FLOAT_THEN_DOUBLE;
                                if (be == Backend.GPU) {
                                    DpaccelException e = assertThrows(DpaccelException.class,
                                        () -> PairHmm.compute(ctx, batch, p, Backend.GPU));
                                    assertEquals(Status.NO_DEVICE, e.status());
                                } else {
                                    assertArrayEquals(want[p == Precision.DOUBLE ? 1 : 0],
                                        PairHmm.compute(ctx, batch, p, be), 0.0, "seed " + seed + " " + p + " " + be);
                                }
                            }
                            case 2 -> {
                                SwOverhang o = SwOverhang.values()[r.nextInt(SwOverhang.values().length)];
                                if (be == Backend.GPU) {
                                    DpaccelException e = assertThrows(DpaccelException.class,
                                        () -> SmithWaterman.align(ctx, sw, SwParameters.READ_TO_HAPLOTYPE, o, be));
                                    // no GPU here: NO_DEVICE once SW has a CUDA kernel, UNSUPPORTED before
                                    assertTrue(e.status() == Status.NO_DEVICE || e.status() == Status.UNSUPPORTED,
                                        e.getMessage());
                                } else {
                                    assertArrayEquals(wantSw[o.ordinal()],
                                        SmithWaterman.align(ctx, sw, SwParameters.READ_TO_HAPLOTYPE, o, be).toArray(),
                                        "seed " + seed + " " + o + " " + be);
                                }
                            }
                            default -> {
                                IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                                    () -> PairHmmBatch.builder().addRead(new byte[] {'A', 'C'}, new byte[] {30},
                                        new byte[] {45, 45}, new byte[] {45, 45}, new byte[] {10, 10}));
                                assertTrue(e.getMessage().contains("readQuals has length 1"), e.getMessage());
                            }
                        }
                        done++;
                    }
                    return done;
                }));
            }
            int total = 0;
            for (Future<Integer> f : fs) {
                total += f.get();
            }
            assertEquals(16 * 25, total);
            assertArrayEquals(want[0], PairHmm.compute(ctx, batch), 0.0, "after the storm");
        } finally {
            pool.shutdownNow();
        }
    }

    /** 46,341 x 46,341 one-base pairs are 2^31 + 4,850 results: rejected before any allocation. */
    @Test
    void resultCountBeyondAJavaArrayIsRejected() {
        PairHmmBatch.Builder b = PairHmmBatch.builder();
        byte[] one = {'A'}, q = {30}, gop = {45}, gcp = {10};
        for (int i = 0; i < 46341; i++) {
            b.addRead(one, q, gop, gop, gcp);
        }
        for (int h = 0; h < 46340; h++) {
            b.addHaplotype(one);
        }
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> b.addHaplotype(one));
        assertTrue(e.getMessage().contains("oversized batch: 2147488281 results"), e.getMessage());
    }

    /**
     * 2 GiB of haplotype bases: the builder refuses the haplotype that would take the packed
     * bases past a Java array, before copying it, naming the total and the limit. The builder
     * holds ~3 GiB while it grows, so a JVM with a smaller heap skips this (loudly).
     */
    @Test
    void basesBeyondAJavaArrayAreRejected() {
        long heap = Runtime.getRuntime().maxMemory();
        Assumptions.assumeTrue(heap >= (4L << 30),
            "SKIPPED: needs a heap of at least 4 GiB (-Xmx4g); this JVM has " + (heap >> 20) + " MiB");
        PairHmmBatch.Builder b = PairHmmBatch.builder();
        b.addRead(new byte[] {'A'}, new byte[] {30}, new byte[] {45}, new byte[] {45}, new byte[] {10});
        byte[] hap = new byte[PairHmmBatch.MAX_LENGTH];
        java.util.Arrays.fill(hap, (byte) 'C');
        int added = 0;
        IllegalArgumentException refused = null;
        try {
            for (; added < 4096; added++) {
                b.addHaplotype(hap);
            }
        } catch (IllegalArgumentException e) {
            refused = e;
        }
        // 2047 x 2^20 = 2,146,435,072 bytes fit under Integer.MAX_VALUE - 16; the 2048th does not
        assertEquals(2047, added);
        assertTrue(refused != null && refused.getMessage().contains("oversized batch: 2147483648 haplotype bases"),
            String.valueOf(refused));
    }

    @Test
    void loadingTwiceIsHarmless() {
        assertTrue(new DpaPairHmm().load(null));
        assertTrue(new DpaPairHmm().load(null));
        assertTrue(new DpaSmithWaterman().load(null));
        assertTrue(new DpaSmithWaterman().load(null));
        try (DpaContext ctx = DpaContext.create(Config.builder().threads(1).backend(Backend.CPU).build())) {
            assertTrue(ctx.describe().startsWith("dpaccel "), ctx.describe());
        }
    }

    /**
     * At start-up GATK's log gets one line saying what runs: version, ISA, threads, backend and
     * the GPUs or why there are none (System.Logger goes to java.util.logging here).
     */
    @Test
    void startUpLineSaysWhatWasLoaded() {
        List<String> lines = new java.util.concurrent.CopyOnWriteArrayList<>();
        Handler h = new Handler() {
            @Override
            public void publish(LogRecord r) {
                lines.add(r.getMessage());
            }

            @Override
            public void flush() {
            }

            @Override
            public void close() {
            }
        };
        Logger jul = Logger.getLogger("org.dpaccel.gatk");
        jul.addHandler(h);
        DpaPairHmm hmm = new DpaPairHmm();
        try {
            assertTrue(hmm.load(null));
            PairHMMNativeArguments a = new PairHMMNativeArguments();
            a.maxNumberOfThreads = 2;
            hmm.initialize(a);
        } finally {
            hmm.done();
            jul.removeHandler(h);
        }
        List<String> using = lines.stream().filter(l -> l.startsWith("Using dpaccel PairHMM: ")).toList();
        assertEquals(1, using.size(), lines.toString());
        String line = using.get(0);
        assertTrue(line.matches("Using dpaccel PairHMM: dpaccel \\d+\\.\\d+\\.\\d+: isa=(scalar|avx2|avx512) "
            + "threads=2 backend=\\w+; .*(GPU|gpu).*, precision FLOAT_THEN_DOUBLE"), line);
    }

    /**
     * GATK's forward recurrence in plain Java doubles, one row at a time (O(haplotype)
     * memory): an independent reference for the binding's answers on shapes GKL cannot run.
     */
    static double gatkLog10(ReadDataHolder r, byte[] hap) {
        int n = hap.length;
        double init = Math.scalb(1.0, 1020);
        double[] m = new double[n + 1], ins = new double[n + 1], del = new double[n + 1];
        double[] m2 = new double[n + 1], ins2 = new double[n + 1], del2 = new double[n + 1];
        java.util.Arrays.fill(del, init / n);
        for (int i = 0; i < r.readBases.length; i++) {
            double ei = Math.pow(10, -r.insertionGOP[i] / 10.0), ed = Math.pow(10, -r.deletionGOP[i] / 10.0);
            double eg = Math.pow(10, -r.overallGCP[i] / 10.0), e = Math.pow(10, -r.readQuals[i] / 10.0);
            double mm = 1 - Math.min(1, ei + ed);
            m2[0] = ins2[0] = del2[0] = 0;
            for (int j = 1; j <= n; j++) {
                byte x = r.readBases[i], y = hap[j - 1];
                double prior = x == y || x == 'N' || y == 'N' ? 1 - e : e / 3;
                m2[j] = prior * (m[j - 1] * mm + (ins[j - 1] + del[j - 1]) * (1 - eg));
                ins2[j] = m[j] * ei + ins[j] * eg;
                del2[j] = m2[j - 1] * ed + del2[j - 1] * eg;
            }
            double[] t = m; m = m2; m2 = t;
            t = ins; ins = ins2; ins2 = t;
            t = del; del = del2; del2 = t;
        }
        double sum = 0;
        for (int j = 1; j <= n; j++) {
            sum += m[j] + ins[j];
        }
        return Math.log10(sum) - Math.log10(init);
    }

    /**
     * Issue 8: GKL crashes the JVM on a 60 kb haplotype in double mode. Through the GATK
     * binding, in double and in float-then-double, 60,000- and 60,007-base haplotypes against
     * 150-base reads give GATK's answer (the Java reference above; 1e-8 double, 1e-5 float).
     */
    @Test
    void sixtyKbHaplotypesInDoubleModeGiveGatksAnswer() {
        long seed = TestData.seed();
        Random rng = new Random(seed);
        byte[] h0 = TestData.bases(rng, 60000);
        byte[] h1 = new byte[60007];
        System.arraycopy(h0, 0, h1, 0, 30000);
        System.arraycopy(TestData.bases(rng, 7), 0, h1, 30000, 7);
        System.arraycopy(h0, 30000, h1, 30007, 30000);
        ReadDataHolder[] reads = new ReadDataHolder[2];
        for (int k = 0; k < 2; k++) {
            byte[][] f = TestData.gatkRead(rng, java.util.Arrays.copyOfRange(h0, 29900 + 50 * k, 30100 + 50 * k), 150);
            ReadDataHolder r = new ReadDataHolder();
            r.readBases = f[0];
            r.readQuals = f[1];
            r.insertionGOP = f[2];
            r.deletionGOP = f[3];
            r.overallGCP = f[4];
            reads[k] = r;
        }
        HaplotypeDataHolder[] haps = new HaplotypeDataHolder[2];
        for (int h = 0; h < 2; h++) {
            haps[h] = new HaplotypeDataHolder();
            haps[h].haplotypeBases = h == 0 ? h0 : h1;
        }
        for (boolean dbl : new boolean[] {true, false}) {
            DpaPairHmm hmm = new DpaPairHmm();
            assertTrue(hmm.load(null));
            PairHMMNativeArguments a = new PairHMMNativeArguments();
            a.maxNumberOfThreads = 2;
            a.useDoublePrecision = dbl;
            hmm.initialize(a);
            double[] out = new double[4];
            try {
                hmm.computeLikelihoods(reads, haps, out);
            } finally {
                hmm.done();
            }
            for (int r = 0; r < 2; r++) {
                for (int h = 0; h < 2; h++) {
                    double want = gatkLog10(reads[r], haps[h].haplotypeBases);
                    assertEquals(want, out[r * 2 + h], dbl ? 1e-8 : 1e-5,
                        "read " + r + " hap " + h + (dbl ? " double" : " float") + ", seed " + seed);
                }
            }
        }
    }
}
