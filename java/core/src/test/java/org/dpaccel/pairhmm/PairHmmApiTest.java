package org.dpaccel.pairhmm;

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

import org.dpaccel.Backend;
import org.dpaccel.Config;
import org.dpaccel.DpaContext;
import org.dpaccel.DpaccelException;
import org.dpaccel.Status;
import org.dpaccel.TestData;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;

/** The batch API: groups, result order, precision, thread counts, concurrency, life cycle. */
class PairHmmApiTest {
    /** Builds `groups` GATK-shaped regions; also returns each region's own batch. */
    static List<PairHmmBatch> regions(Random rng, int groups, PairHmmBatch.Builder all) {
        List<PairHmmBatch> single = new ArrayList<>();
        for (int g = 0; g < groups; g++) {
            PairHmmBatch.Builder one = PairHmmBatch.builder();
            byte[] ref = TestData.bases(rng, 250 + rng.nextInt(251));
            int nh = 1 + rng.nextInt(4), nr = 1 + rng.nextInt(20);
            List<byte[][]> reads = new ArrayList<>();
            for (int r = 0; r < nr; r++) {
                reads.add(TestData.gatkRead(rng, ref, 150));
            }
            for (byte[][] r : reads) {
                TestData.addRead(one, r);
                TestData.addRead(all, r);
            }
            for (int h = 0; h < nh; h++) {
                byte[] hap = ref.clone();
                hap[rng.nextInt(hap.length)] = 'T';
                one.addHaplotype(hap);
                all.addHaplotype(hap);
            }
            all.endGroup();
            single.add(one.build());
        }
        return single;
    }

    @Test
    void groupedBatchEqualsRegionByRegionAndThreadCountsAgree() {
        long seed = TestData.seed();
        Random rng = new Random(seed);
        PairHmmBatch.Builder all = PairHmmBatch.builder();
        List<PairHmmBatch> single = regions(rng, 8, all);
        PairHmmBatch batch = all.build();
        assertEquals(8, batch.groupCount());
        try (DpaContext one = DpaContext.create(Config.builder().threads(1).backend(Backend.CPU).build());
            DpaContext two = DpaContext.create(Config.builder().threads(2).backend(Backend.CPU).build())) {
            double[] whole = PairHmm.compute(two, batch);
            assertArrayEquals(PairHmm.compute(one, batch), whole, 0.0, "seed " + seed); // bitwise
            int k = 0;
            for (PairHmmBatch b : single) {
                double[] part = PairHmm.compute(one, b);
                for (double v : part) {
                    assertEquals(v, whole[k++], 0.0, "seed " + seed);
                }
            }
            assertEquals(whole.length, k);
            double[] d = PairHmm.compute(two, batch, Precision.DOUBLE, Backend.CPU);
            for (int i = 0; i < d.length; i++) {
                assertEquals(d[i], whole[i], 1e-5, "seed " + seed + " result " + i);
            }
        }
    }

    /**
     * A batch of more than 1 MB crosses JNI through the parallel copy (critical arrays copied on
     * the context's threads); below that, or with one thread, through Get<Type>ArrayRegion. Both
     * give the same bits, and the same as each region alone.
     */
    @Test
    void largeBatchesCopiedInParallelGiveTheSameBits() {
        long seed = TestData.seed();
        Random rng = new Random(seed);
        PairHmmBatch.Builder all = PairHmmBatch.builder();
        List<PairHmmBatch> single = regions(rng, 220, all);
        PairHmmBatch batch = all.build();
        long bytes = 5L * batch.readBases.length + batch.hapBases.length;
        assertTrue(bytes >= 1 << 20, "the batch must take the parallel copy: " + bytes + " bytes (seed " + seed + ")");
        try (DpaContext one = DpaContext.create(Config.builder().threads(1).backend(Backend.CPU).build());
            DpaContext two = DpaContext.create(Config.builder().threads(2).backend(Backend.CPU).build())) {
            double[] parallel = PairHmm.compute(two, batch);
            assertArrayEquals(PairHmm.compute(one, batch), parallel, 0.0, "seed " + seed);
            int k = 0;
            for (PairHmmBatch b : single) {
                for (double v : PairHmm.compute(two, b)) {
                    assertEquals(v, parallel[k++], 0.0, "seed " + seed + " result " + (k - 1));
                }
            }
            assertEquals(parallel.length, k);
        }
    }

    @Test
    void manyJavaThreadsShareOneContext() throws Exception {
        Random rng = new Random(11);
        PairHmmBatch.Builder all = PairHmmBatch.builder();
        regions(rng, 6, all);
        PairHmmBatch batch = all.build();
        ExecutorService pool = Executors.newFixedThreadPool(8);
        try (DpaContext ctx = DpaContext.create(Config.builder().threads(2).backend(Backend.CPU).build())) {
            double[] want = PairHmm.compute(ctx, batch);
            List<Future<double[]>> fs = new ArrayList<>();
            for (int i = 0; i < 32; i++) {
                fs.add(pool.submit(() -> PairHmm.compute(ctx, batch)));
            }
            for (Future<double[]> f : fs) {
                assertArrayEquals(want, f.get(), 0.0);
            }
        } finally {
            pool.shutdownNow();
        }
    }

    @Test
    void gpuDisabledAndGpuForcedIsAClearError() {
        DpaccelException e = assertThrows(DpaccelException.class,
            () -> DpaContext.create(Config.builder().backend(Backend.GPU).gpuDisable(true).build()));
        assertEquals(Status.NO_DEVICE, e.status());
    }

    @Test
    void forcedGpuWithoutGpuIsAClearError() {
        try (DpaContext ctx = DpaContext.create(Config.builder().threads(1).build())) {
            Assumptions.assumeTrue(ctx.deviceCount() == 0,
                "this machine has a GPU: the no-GPU error path cannot be reached (the CUDA tests cover the GPU)");
            PairHmmBatch b = PairHmmBatch.builder().addRead(new byte[] {'A'}, new byte[] {30}, new byte[] {45},
                new byte[] {45}, new byte[] {10}).addHaplotype(new byte[] {'A'}).build();
            DpaccelException e = assertThrows(DpaccelException.class,
                () -> PairHmm.compute(ctx, b, Precision.FLOAT_THEN_DOUBLE, Backend.GPU));
            assertEquals(Status.NO_DEVICE, e.status());
            assertTrue(e.getMessage().contains("backend gpu requested"), e.getMessage());
        }
    }

    @Test
    void closedContextAndBadConfig() {
        DpaContext ctx = DpaContext.create(Config.builder().threads(1).backend(Backend.CPU).build());
        ctx.close();
        ctx.close();
        PairHmmBatch b = PairHmmBatch.builder().addRead(new byte[] {'A'}, new byte[] {30}, new byte[] {45},
            new byte[] {45}, new byte[] {10}).addHaplotype(new byte[] {'A'}).build();
        assertThrows(IllegalStateException.class, () -> PairHmm.compute(ctx, b));
        assertThrows(IllegalStateException.class, ctx::describe);
        assertThrows(IllegalArgumentException.class, () -> Config.builder().threads(0));
        DpaccelException e = assertThrows(DpaccelException.class,
            () -> DpaContext.create(Config.builder().cpuDisable("avx9").build()));
        assertEquals(Status.INVALID_ARG, e.status());
        assertTrue(e.getMessage().contains("avx9"), e.getMessage());
        assertThrows(IllegalArgumentException.class, () -> Backend.parse("tpu", "dpaccel.backend"));
        assertThrows(IllegalArgumentException.class, () -> PairHmm.compute(DpaContext.create(), b,
            Precision.DOUBLE, null, new double[2]));
    }
}
