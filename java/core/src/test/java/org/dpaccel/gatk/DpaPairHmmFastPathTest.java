package org.dpaccel.gatk;

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

import org.broadinstitute.gatk.nativebindings.pairhmm.HaplotypeDataHolder;
import org.broadinstitute.gatk.nativebindings.pairhmm.PairHMMNativeArguments;
import org.broadinstitute.gatk.nativebindings.pairhmm.ReadDataHolder;
import org.dpaccel.Config;
import org.dpaccel.DpaContext;
import org.dpaccel.TestData;
import org.dpaccel.pairhmm.PairHmm;
import org.dpaccel.pairhmm.PairHmmBatch;
import org.dpaccel.pairhmm.Precision;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * The binding's per-region path (one packed array, qualities checked in native code while
 * copied, buffers reused across calls and per thread) gives bit for bit what the batch API
 * gives for the same region on a context of the same configuration, whatever the order of
 * region sizes and with several threads calling at once; qualities 0 and 127 pass, 128
 * anywhere in a large region is reported by read, field and position.
 */
class DpaPairHmmFastPathTest {
    private DpaPairHmm hmm;
    private DpaContext api;

    @BeforeEach
    void setUp() {
        hmm = new DpaPairHmm();
        assertTrue(hmm.load(null));
        PairHMMNativeArguments a = new PairHMMNativeArguments();
        a.maxNumberOfThreads = 2;
        hmm.initialize(a);
        api = DpaContext.create(Config.builder().threads(2).build());
    }

    @AfterEach
    void tearDown() {
        hmm.done();
        api.close();
    }

    record Region(ReadDataHolder[] reads, HaplotypeDataHolder[] haps) {
    }

    static Region region(Random rng, int nr, int nh) {
        byte[] ref = TestData.bases(rng, 200 + rng.nextInt(300));
        HaplotypeDataHolder[] haps = new HaplotypeDataHolder[nh];
        for (int h = 0; h < nh; h++) {
            byte[] hap = ref.clone();
            hap[rng.nextInt(hap.length)] = (byte) "ACGT".charAt(rng.nextInt(4));
            haps[h] = new HaplotypeDataHolder();
            haps[h].haplotypeBases = h % 3 == 2 ? java.util.Arrays.copyOf(hap, hap.length - 17) : hap;
        }
        ReadDataHolder[] reads = new ReadDataHolder[nr];
        for (int r = 0; r < nr; r++) {
            byte[][] x = TestData.gatkRead(rng, ref, 30 + rng.nextInt(121));
            if (r % 5 == 0) {
                x[1][0] = 0;
                x[2][x[2].length - 1] = 127;
            }
            reads[r] = new ReadDataHolder();
            reads[r].readBases = x[0];
            reads[r].readQuals = x[1];
            reads[r].insertionGOP = x[2];
            reads[r].deletionGOP = x[3];
            reads[r].overallGCP = x[4];
        }
        return new Region(reads, haps);
    }

    double[] viaApi(Region g) {
        PairHmmBatch.Builder b = PairHmmBatch.builder();
        for (ReadDataHolder r : g.reads) {
            b.addRead(r.readBases, r.readQuals, r.insertionGOP, r.deletionGOP, r.overallGCP);
        }
        for (HaplotypeDataHolder h : g.haps) {
            b.addHaplotype(h.haplotypeBases);
        }
        return PairHmm.compute(api, b.build(), Precision.FLOAT_THEN_DOUBLE, null); // the context's backend, as the binding
    }

    double[] viaBinding(Region g) {
        double[] out = new double[g.reads.length * g.haps.length];
        hmm.computeLikelihoods(g.reads, g.haps, out);
        return out;
    }

    @Test
    void sameBitsAsTheBatchApiAcrossGrowingAndShrinkingRegions() {
        Random rng = new Random(TestData.seed());
        int[][] shapes = {{3, 1}, {120, 6}, {1, 1}, {40, 3}, {250, 8}, {7, 2}};
        long before = hmm.instanceCallCount();
        for (int[] s : shapes) {
            Region g = region(rng, s[0], s[1]);
            assertArrayEquals(viaApi(g), viaBinding(g), 0.0, s[0] + " reads x " + s[1] + " haplotypes");
        }
        assertEquals(before + shapes.length, hmm.instanceCallCount());
    }

    @Test
    void concurrentCallersGetTheirOwnResults() throws Exception {
        Random rng = new Random(TestData.seed() + 1);
        List<Region> regions = new ArrayList<>();
        List<double[]> want = new ArrayList<>();
        for (int i = 0; i < 24; i++) {
            Region g = region(rng, 5 + rng.nextInt(80), 1 + rng.nextInt(5));
            regions.add(g);
            want.add(viaApi(g));
        }
        ExecutorService pool = Executors.newFixedThreadPool(4);
        try {
            List<Future<Boolean>> done = new ArrayList<>();
            for (int t = 0; t < 4; t++) {
                final int first = t;
                done.add(pool.submit(() -> {
                    for (int rep = 0; rep < 3; rep++) {
                        for (int i = first; i < regions.size(); i += 2) {
                            assertArrayEquals(want.get(i), viaBinding(regions.get(i)), 0.0, "region " + i);
                        }
                    }
                    return true;
                }));
            }
            for (Future<Boolean> f : done) {
                assertTrue(f.get());
            }
        } finally {
            pool.shutdownNow();
        }
    }

    @Test
    void aQualityAbove127DeepInALargeRegionIsNamed() {
        Region g = region(new Random(TestData.seed() + 2), 200, 4);
        g.reads[187].deletionGOP[g.reads[187].deletionGOP.length - 1] = (byte) 200;
        Throwable t = assertThrows(IllegalArgumentException.class, () -> viaBinding(g));
        int last = g.reads[187].deletionGOP.length - 1;
        assertTrue(t.getMessage().contains("read 187: deletionGOP[" + last + "] = 200"), t.getMessage());
        // the same binding (and this thread's reused buffers) still computes correctly
        Region ok = region(new Random(TestData.seed() + 3), 30, 2);
        assertArrayEquals(viaApi(ok), viaBinding(ok), 0.0);
    }
}
