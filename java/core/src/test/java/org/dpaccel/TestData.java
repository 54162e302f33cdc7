package org.dpaccel;

import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.Random;

import org.dpaccel.pairhmm.PairHmmBatch;

/** Shared test helpers: seeds, data locations, random GATK-shaped reads. */
public final class TestData {
    private TestData() {
    }

    /** -Ddpaccel.test.seed or a fresh one; tests print it in their failure messages. */
    public static long seed() {
        String s = System.getProperty("dpaccel.test.seed");
        return s != null ? Long.parseLong(s) : System.nanoTime();
    }

    /** The repository's test-data/ (committed data: tests that read it never skip). */
    public static Path testData(String rel) {
        return Paths.get(System.getProperty("dpaccel.testdata.dir", "../../test-data")).resolve(rel);
    }

    /** ../shared/data beside the clone: large public files that are not committed. */
    public static Path sharedData(String rel) {
        return Paths.get(System.getProperty("dpaccel.shared.data", "../../../shared/data")).resolve(rel);
    }

    public static boolean exists(Path p) {
        return Files.isRegularFile(p);
    }

    public static byte[] bases(Random rng, int n) {
        byte[] b = new byte[n];
        for (int i = 0; i < n; i++) {
            b[i] = (byte) "ACGT".charAt(rng.nextInt(4));
        }
        return b;
    }

    /** A read drawn from hap with ~1% substitutions, quals 6..40, GOP 40..50, GCP 10. */
    public static byte[][] gatkRead(Random rng, byte[] hap, int len) {
        byte[][] r = new byte[5][len];
        int start = hap.length > len ? rng.nextInt(hap.length - len + 1) : 0;
        for (int i = 0; i < len; i++) {
            byte c = start + i < hap.length ? hap[start + i] : (byte) "ACGT".charAt(rng.nextInt(4));
            if (rng.nextInt(100) == 0) {
                c = (byte) "ACGT".charAt(rng.nextInt(4));
            }
            r[0][i] = c;
            r[1][i] = (byte) (6 + rng.nextInt(35));
            r[2][i] = (byte) (40 + rng.nextInt(11));
            r[3][i] = (byte) (40 + rng.nextInt(11));
            r[4][i] = 10;
        }
        return r;
    }

    public static PairHmmBatch.Builder addRead(PairHmmBatch.Builder b, byte[][] r) {
        return b.addRead(r[0], r[1], r[2], r[3], r[4]);
    }
}
