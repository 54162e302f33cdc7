package org.dpaccel;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

import org.broadinstitute.gatk.nativebindings.pairhmm.HaplotypeDataHolder;
import org.broadinstitute.gatk.nativebindings.pairhmm.PairHMMNativeArguments;
import org.broadinstitute.gatk.nativebindings.pairhmm.ReadDataHolder;
import org.dpaccel.gatk.DpaPairHmm;
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
 * A closed context never hands its freed native memory to the engine: every call after close,
 * from any thread, is IllegalStateException, and a close racing with calls in flight lets each
 * call either finish with the right answer or throw IllegalStateException. A crash here would
 * take the whole test JVM down, which is the failure this guards against.
 */
class ContextLifecycleTest {
    private static final Config CPU1 = Config.builder().threads(1).backend(Backend.CPU).gpuDisable(true).build();

    private static PairHmmBatch hmmBatch(Random rng, int reads, int haps, int readLen, int hapLen) {
        PairHmmBatch.Builder b = PairHmmBatch.builder();
        byte[][] hs = new byte[haps][];
        for (int h = 0; h < haps; h++) {
            hs[h] = TestData.bases(rng, hapLen);
        }
        for (int r = 0; r < reads; r++) {
            TestData.addRead(b, TestData.gatkRead(rng, hs[r % haps], readLen));
        }
        for (byte[] h : hs) {
            b.addHaplotype(h);
        }
        return b.build();
    }

    private static SwBatch swBatch(Random rng, int pairs, int len) {
        SwBatch.Builder b = SwBatch.builder();
        for (int i = 0; i < pairs; i++) {
            b.add(TestData.bases(rng, len), TestData.bases(rng, len / 2 + 1));
        }
        return b.build();
    }

    @Test
    void everyCallAfterCloseThrowsOnAnyThread() throws Exception {
        Random rng = new Random(7);
        PairHmmBatch hmm = hmmBatch(rng, 2, 2, 20, 40);
        SwBatch sw = swBatch(rng, 2, 30);
        DpaContext ctx = DpaContext.create(CPU1);
        Isa isa = ctx.isa();
        ctx.close();
        assertTrue(ctx.isClosed());
        ExecutorService other = Executors.newSingleThreadExecutor();
        try {
            Future<?> f = other.submit(() -> {
                assertThrows(IllegalStateException.class, () -> PairHmm.compute(ctx, hmm));
                assertThrows(IllegalStateException.class,
                    () -> PairHmm.compute(ctx, hmm, Precision.DOUBLE, Backend.CPU, new double[hmm.resultCount()]));
                assertThrows(IllegalStateException.class,
                    () -> SmithWaterman.align(ctx, sw, SwParameters.READ_TO_HAPLOTYPE, SwOverhang.SOFTCLIP));
                assertThrows(IllegalStateException.class, ctx::describe);
                ctx.close(); // idempotent from any thread
            });
            f.get(60, TimeUnit.SECONDS);
        } finally {
            other.shutdownNow();
        }
        // the fixed facts stay readable
        assertEquals(isa, ctx.isa());
        assertEquals(1, ctx.threads());
    }

    /**
     * Four threads compute on one context while the main thread closes it; repeated so the
     * close lands before, during and after calls. Each call's outcome must be the right answer
     * or IllegalStateException, and once close() returns every further call must throw.
     */
    @Test
    void closeRacingWithComputeNeverCrashes() throws Exception {
        Random rng = new Random(11);
        PairHmmBatch hmm = hmmBatch(rng, 12, 4, 100, 200);
        SwBatch sw = swBatch(rng, 8, 300);
        double[] wantHmm;
        SwAlignment[] wantSw;
        try (DpaContext solo = DpaContext.create(CPU1)) {
            wantHmm = PairHmm.compute(solo, hmm);
            wantSw = SmithWaterman.align(solo, sw, SwParameters.READ_TO_HAPLOTYPE, SwOverhang.SOFTCLIP).toArray();
        }
        ExecutorService pool = Executors.newFixedThreadPool(4);
        AtomicInteger completed = new AtomicInteger(), refused = new AtomicInteger();
        try {
            for (int round = 0; round < 12; round++) {
                DpaContext ctx = DpaContext.create(Config.builder().threads(2).gpuDisable(true).build());
                CountDownLatch started = new CountDownLatch(4);
                List<Future<?>> fs = new ArrayList<>();
                for (int t = 0; t < 4; t++) {
                    final boolean useSw = t % 2 == 1;
                    fs.add(pool.submit(() -> {
                        started.countDown();
                        for (int c = 0; c < 200; c++) {
                            try {
                                if (useSw) {
                                    assertArrayEquals(wantSw, SmithWaterman.align(ctx, sw,
                                        SwParameters.READ_TO_HAPLOTYPE, SwOverhang.SOFTCLIP).toArray());
                                } else {
                                    assertArrayEquals(wantHmm, PairHmm.compute(ctx, hmm), 0.0);
                                }
                                completed.incrementAndGet();
                            } catch (IllegalStateException e) {
                                assertTrue(e.getMessage().contains("closed"), e.getMessage());
                                refused.incrementAndGet();
                                return null;
                            }
                        }
                        return null;
                    }));
                }
                started.await();
                Thread.sleep(round % 4); // close at different points of the calls
                ctx.close();
                assertThrows(IllegalStateException.class, () -> PairHmm.compute(ctx, hmm));
                for (Future<?> f : fs) {
                    f.get(120, TimeUnit.SECONDS); // rethrows a wrong result or an unexpected exception
                }
            }
        } finally {
            pool.shutdownNow();
        }
        assertTrue(refused.get() > 0, "close never overlapped a caller (completed " + completed + ")");
    }

    /** The GATK binding's one-array path is guarded the same way: done() during computeLikelihoods. */
    @Test
    void gatkBindingDoneRacingWithCompute() throws Exception {
        Random rng = new Random(13);
        int reads = 8, haps = 3;
        ReadDataHolder[] rd = new ReadDataHolder[reads];
        HaplotypeDataHolder[] hd = new HaplotypeDataHolder[haps];
        for (int h = 0; h < haps; h++) {
            hd[h] = new HaplotypeDataHolder();
            hd[h].haplotypeBases = TestData.bases(rng, 250);
        }
        for (int r = 0; r < reads; r++) {
            byte[][] x = TestData.gatkRead(rng, hd[r % haps].haplotypeBases, 120);
            rd[r] = new ReadDataHolder();
            rd[r].readBases = x[0];
            rd[r].readQuals = x[1];
            rd[r].insertionGOP = x[2];
            rd[r].deletionGOP = x[3];
            rd[r].overallGCP = x[4];
        }
        PairHMMNativeArguments args = new PairHMMNativeArguments();
        args.maxNumberOfThreads = 2;
        DpaPairHmm ref = new DpaPairHmm();
        assertTrue(ref.load(null));
        ref.initialize(args);
        double[] want = new double[reads * haps];
        ref.computeLikelihoods(rd, hd, want);
        ref.done();
        ExecutorService pool = Executors.newFixedThreadPool(3);
        try {
            for (int round = 0; round < 8; round++) {
                DpaPairHmm hmm = new DpaPairHmm();
                hmm.initialize(args);
                List<Future<?>> fs = new ArrayList<>();
                for (int t = 0; t < 3; t++) {
                    fs.add(pool.submit(() -> {
                        double[] out = new double[reads * haps];
                        for (int c = 0; c < 200; c++) {
                            try {
                                hmm.computeLikelihoods(rd, hd, out);
                            } catch (IllegalStateException e) {
                                return null;
                            }
                            assertArrayEquals(want, out, 0.0);
                        }
                        return null;
                    }));
                }
                Thread.sleep(round % 3);
                hmm.done();
                for (Future<?> f : fs) {
                    f.get(120, TimeUnit.SECONDS);
                }
            }
        } finally {
            pool.shutdownNow();
        }
    }

    @Test
    void createFailsWithDpaccelExceptionNotLinkageErrors() {
        // A configuration the engine refuses: the loader is fine, the engine says no.
        DpaccelException e = assertThrows(DpaccelException.class,
            () -> DpaContext.create(Config.builder().cpuDisable("no-such-isa").build()));
        assertEquals(Status.INVALID_ARG, e.status());
        assertFalse(Dpaccel.loadStatus().startsWith("failed"), Dpaccel.loadStatus());
    }

    @Test
    void gpuDeviceListsAreCheckedAndReachTheEngine() {
        for (String bad : new String[] {"x", "1,", ",1", "-1", "1024", "0,0", "1 ,2", "+1"}) {
            IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> Config.builder().gpuDevices(bad));
            assertTrue(e.getMessage().startsWith("gpuDevices = '" + bad + "': expected distinct CUDA device"),
                e.getMessage());
        }
        assertEquals("1,3", Config.builder().gpuDevices("1,3").build().gpuDevices());
        assertNull(Config.builder().build().gpuDevices());
        // the list travels through JNI into options.gpu_devices: a context with GPUs off opens
        try (DpaContext ctx = DpaContext.create(Config.builder().threads(1).gpuDisable(true).gpuDevices("2,0")
            .build())) {
            assertEquals(1, ctx.threads());
        }
        // and a device that is not visible (no GPU here, or fewer than 1,000) means no GPU
        DpaccelException e = assertThrows(DpaccelException.class, () -> DpaContext.create(
            Config.builder().threads(1).backend(Backend.GPU).gpuDevices("999").build()));
        assertEquals(Status.NO_DEVICE, e.status());
    }
}
