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

import org.broadinstitute.gatk.nativebindings.pairhmm.PairHMMNativeArguments;

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
}
