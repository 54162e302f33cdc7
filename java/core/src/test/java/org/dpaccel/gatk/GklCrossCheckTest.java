package org.dpaccel.gatk;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Random;

import org.broadinstitute.gatk.nativebindings.pairhmm.HaplotypeDataHolder;
import org.broadinstitute.gatk.nativebindings.pairhmm.PairHMMNativeArguments;
import org.broadinstitute.gatk.nativebindings.pairhmm.ReadDataHolder;
import org.dpaccel.TestData;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;

import com.intel.gkl.pairhmm.IntelPairHmm;

/**
 * Cross-check against the incumbent, Intel GKL's IntelPairHmm (from its Maven Central jar), on
 * thousands of generated GATK-shaped pairs: within 1e-5 log10 (GKL's float path itself stays
 * within 3.3e-6 of its double path on such data). GKL output is a cross-check, never a golden
 * value. Skipped with a message where GKL cannot load (no AVX, other OS).
 */
class GklCrossCheckTest {
    @Test
    void agreesWithGklOnGatkShapedRegions() {
        IntelPairHmm gkl = new IntelPairHmm();
        boolean gklLoaded;
        try {
            gklLoaded = gkl.load(null);
        } catch (Throwable t) {
            gklLoaded = false;
        }
        Assumptions.assumeTrue(gklLoaded, "SKIPPED: GKL IntelPairHmm cannot load on this machine");
        PairHMMNativeArguments args = new PairHMMNativeArguments();
        args.maxNumberOfThreads = 1;
        args.useDoublePrecision = false;
        gkl.initialize(args);
        DpaPairHmm ours = new DpaPairHmm();
        assertTrue(ours.load(null));
        args.maxNumberOfThreads = 2;
        ours.initialize(args);

        long seed = TestData.seed();
        Random rng = new Random(seed);
        int pairs = 0;
        double maxDiff = 0;
        try {
            for (int region = 0; region < 40; region++) {
                byte[] ref = TestData.bases(rng, 250 + rng.nextInt(251));
                int nh = 1 + rng.nextInt(4), nr = 10 + rng.nextInt(40);
                HaplotypeDataHolder[] haps = new HaplotypeDataHolder[nh];
                for (int h = 0; h < nh; h++) {
                    byte[] hap = ref.clone();
                    for (int k = 0; k < 3; k++) {
                        hap[rng.nextInt(hap.length)] = (byte) "ACGT".charAt(rng.nextInt(4));
                    }
                    haps[h] = new HaplotypeDataHolder();
                    haps[h].haplotypeBases = hap;
                }
                ReadDataHolder[] reads = new ReadDataHolder[nr];
                for (int r = 0; r < nr; r++) {
                    byte[][] rd = TestData.gatkRead(rng, ref, 150);
                    reads[r] = new ReadDataHolder();
                    reads[r].readBases = rd[0];
                    reads[r].readQuals = rd[1];
                    reads[r].insertionGOP = rd[2];
                    reads[r].deletionGOP = rd[3];
                    reads[r].overallGCP = rd[4];
                }
                double[] a = new double[nr * nh], b = new double[nr * nh];
                gkl.computeLikelihoods(reads, haps, a);
                ours.computeLikelihoods(reads, haps, b);
                for (int i = 0; i < a.length; i++) {
                    maxDiff = Math.max(maxDiff, Math.abs(a[i] - b[i]));
                    assertEquals(a[i], b[i], 1e-5, "seed " + seed + " region " + region + " result " + i);
                }
                pairs += a.length;
            }
        } finally {
            gkl.done();
            ours.done();
        }
        assertTrue(pairs > 1000, "only " + pairs + " pairs");
        System.out.printf("GKL cross-check: %d pairs, max |diff| = %.3g (seed %d)%n", pairs, maxDiff, seed);
    }
}
