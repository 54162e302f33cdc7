package org.dpaccel.gatk.dropin;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.io.Reader;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Properties;
import java.util.Random;

import org.broadinstitute.gatk.nativebindings.pairhmm.HaplotypeDataHolder;
import org.broadinstitute.gatk.nativebindings.pairhmm.PairHMMNativeArguments;
import org.broadinstitute.gatk.nativebindings.pairhmm.PairHMMNativeBinding;
import org.broadinstitute.gatk.nativebindings.pairhmm.ReadDataHolder;
import org.dpaccel.gatk.DpaPairHmm;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import com.intel.gkl.pairhmm.IntelPairHmm;
import com.intel.gkl.pairhmm.IntelPairHmmOMP;

/**
 * The GKL-named classes run on dpaccel, count their calls, write the stats file, and with
 * {@code -Ddpaccel.gatk.disable=true} hand over to the real GKL (here from its Maven Central jar
 * behind target/classes on the test class path).
 */
class DropInPairHmmTest {
    private static final long SEED = Long.getLong("dpaccel.test.seed", System.nanoTime());

    @TempDir
    Path tmp;

    @Test
    void gklNamedClassesRunOnDpaccel() throws IOException {
        Path stats = tmp.resolve("stats.properties");
        System.setProperty(DropInPairHmm.STATS_PROPERTY, stats.toString());
        try {
            Random rng = new Random(SEED);
            ReadDataHolder[] reads = reads(rng, 300, 40);
            HaplotypeDataHolder[] haps = haps(rng, 300, 4);
            double[] expected = run(new DpaPairHmm(), 2, reads, haps);
            long before = DpaPairHmm.callCount();
            for (PairHMMNativeBinding shim : new PairHMMNativeBinding[] {new IntelPairHmm(), new IntelPairHmmOMP()}) {
                long b = DropInStats.batches();
                double[] got = run(shim, 2, reads, haps);
                assertEquals("dpaccel", DropInStats.engine());
                assertEquals(b + 1, DropInStats.batches());
                for (int i = 0; i < got.length; i++) {
                    assertEquals(expected[i], got[i], 1e-9, "seed " + SEED + " result " + i);
                }
            }
            assertEquals(before + 2, DpaPairHmm.callCount());
            Properties p = new Properties();
            try (Reader r = Files.newBufferedReader(stats)) {
                p.load(r);
            }
            assertEquals("dpaccel", p.getProperty("engine"));
            assertEquals("com.intel.gkl.pairhmm.IntelPairHmmOMP", p.getProperty("gkl.class"));
            assertTrue(Long.parseLong(p.getProperty("dpaccel.calls")) >= 2, p.toString());
            assertTrue(DropInStats.summary().contains("engine dpaccel"), DropInStats.summary());
        } finally {
            System.clearProperty(DropInPairHmm.STATS_PROPERTY);
        }
    }

    /** GKL's OMP class runs at most the processors it sees (with a warning): so does the drop-in. */
    @Test
    void ompThreadsCappedAtAvailableProcessorsAsGkl() throws IOException {
        Path stats = tmp.resolve("threads.properties");
        System.setProperty(DropInPairHmm.STATS_PROPERTY, stats.toString());
        try {
            Random rng = new Random(SEED + 7);
            int avail = Runtime.getRuntime().availableProcessors();
            run(new IntelPairHmmOMP(), avail + 3, reads(rng, 300, 8), haps(rng, 300, 2));
            Properties p = new Properties();
            try (Reader r = Files.newBufferedReader(stats)) {
                p.load(r);
            }
            assertEquals(String.valueOf(avail), p.getProperty("threads"), p.toString());
        } finally {
            System.clearProperty(DropInPairHmm.STATS_PROPERTY);
        }
    }

    @Test
    void disabledHandsOverToRealGkl() {
        Random rng = new Random(SEED + 1);
        ReadDataHolder[] reads = reads(rng, 200, 30);
        HaplotypeDataHolder[] haps = haps(rng, 200, 3);
        double[] ours = run(new DpaPairHmm(), 1, reads, haps);
        System.setProperty(DropInPairHmm.DISABLE_PROPERTY, "true");
        try {
            assertTrue(DropInPairHmm.disabled());
            IntelPairHmm shim = new IntelPairHmm();
            boolean loaded = shim.load(null);
            Assumptions.assumeTrue(loaded, "SKIPPED: the real GKL IntelPairHmm cannot load here (no AVX?)");
            assertEquals("gkl", DropInStats.engine());
            long before = DpaPairHmm.callCount();
            PairHMMNativeArguments a = new PairHMMNativeArguments();
            a.maxNumberOfThreads = 1;
            shim.initialize(a);
            double[] got = new double[reads.length * haps.length];
            shim.computeLikelihoods(reads, haps, got);
            shim.done();
            assertEquals(before, DpaPairHmm.callCount(), "disabled drop-in must not call dpaccel");
            for (int i = 0; i < got.length; i++) {
                assertEquals(ours[i], got[i], 1e-5, "seed " + SEED + " result " + i);
            }
        } finally {
            System.clearProperty(DropInPairHmm.DISABLE_PROPERTY);
        }
    }

    private static double[] run(PairHMMNativeBinding hmm, int threads, ReadDataHolder[] reads,
        HaplotypeDataHolder[] haps) {
        assertTrue(hmm.load(null));
        PairHMMNativeArguments a = new PairHMMNativeArguments();
        a.maxNumberOfThreads = threads;
        a.useDoublePrecision = false;
        hmm.initialize(a);
        double[] out = new double[reads.length * haps.length];
        hmm.computeLikelihoods(reads, haps, out);
        hmm.done();
        return out;
    }

    private static byte[] bases(Random rng, int n) {
        byte[] b = new byte[n];
        for (int i = 0; i < n; i++) {
            b[i] = (byte) "ACGT".charAt(rng.nextInt(4));
        }
        return b;
    }

    static HaplotypeDataHolder[] haps(Random rng, int len, int n) {
        byte[] ref = bases(new Random(SEED * 31), len);
        HaplotypeDataHolder[] h = new HaplotypeDataHolder[n];
        for (int i = 0; i < n; i++) {
            byte[] hap = ref.clone();
            hap[rng.nextInt(len)] = (byte) "ACGT".charAt(rng.nextInt(4));
            h[i] = new HaplotypeDataHolder();
            h[i].haplotypeBases = hap;
        }
        return h;
    }

    static ReadDataHolder[] reads(Random rng, int hapLen, int n) {
        byte[] ref = bases(new Random(SEED * 31), hapLen);
        ReadDataHolder[] r = new ReadDataHolder[n];
        for (int i = 0; i < n; i++) {
            int len = 50 + rng.nextInt(100);
            int start = rng.nextInt(hapLen - len);
            byte[] b = java.util.Arrays.copyOfRange(ref, start, start + len);
            if (rng.nextInt(3) == 0) {
                b[rng.nextInt(len)] = (byte) "ACGT".charAt(rng.nextInt(4));
            }
            byte[] q = new byte[len], ins = new byte[len], del = new byte[len], gcp = new byte[len];
            for (int k = 0; k < len; k++) {
                q[k] = (byte) (6 + rng.nextInt(35));
                ins[k] = 45;
                del[k] = 45;
                gcp[k] = 10;
            }
            r[i] = new ReadDataHolder();
            r[i].readBases = b;
            r[i].readQuals = q;
            r[i].insertionGOP = ins;
            r[i].deletionGOP = del;
            r[i].overallGCP = gcp;
        }
        return r;
    }
}
