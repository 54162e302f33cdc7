package org.dpaccel;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.File;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

import org.dpaccel.pairhmm.PairHmm;
import org.dpaccel.pairhmm.PairHmmBatch;
import org.dpaccel.pairhmm.Precision;
import org.dpaccel.sw.SmithWaterman;
import org.dpaccel.sw.SwBatch;
import org.dpaccel.sw.SwOverhang;
import org.dpaccel.sw.SwParameters;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;

/**
 * Host out-of-memory seen from Java: a child JVM lowers its own address-space limit (prlimit)
 * to what it maps plus a little, then asks for work whose native memory cannot be had. It must
 * get an exception (DpaccelException with status OUT_OF_MEMORY, or OutOfMemoryError from the
 * JNI staging), not a crash, and the same context must compute correctly once the limit is
 * back. The native side of the same cases is test_reliability_oom.cc.
 */
class ReliabilityOomTest {
    /** Bytes this process maps (VmSize), or -1. */
    static long vmSize() throws Exception {
        for (String l : Files.readAllLines(Path.of("/proc/self/status"), StandardCharsets.ISO_8859_1)) {
            if (l.startsWith("VmSize:")) {
                return Long.parseLong(l.replaceAll("[^0-9]", "")) * 1024;
            }
        }
        return -1;
    }

    static void prlimit(String as) throws Exception {
        Process p = new ProcessBuilder("prlimit", "--pid", Long.toString(ProcessHandle.current().pid()), "--as=" + as)
            .redirectErrorStream(true).start();
        String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        if (p.waitFor() != 0) {
            throw new IllegalStateException("prlimit --as=" + as + ": " + out);
        }
    }

    static String outcome(Runnable call) {
        try {
            call.run();
            return "no exception";
        } catch (DpaccelException e) {
            return "DpaccelException " + e.status() + ": " + e.getMessage();
        } catch (OutOfMemoryError e) {
            return "OutOfMemoryError: " + e.getMessage();
        }
    }

    /** The child JVM: prints one line per case, then CHILD-DONE. */
    public static final class Child {
        public static void main(String[] args) throws Exception {
            try (DpaContext ctx = DpaContext.create(Config.builder().threads(2).backend(Backend.CPU).build())) {
                byte[] ref = new byte[30000], alt = new byte[30000];
                java.util.Random rng = new java.util.Random(7);
                for (int i = 0; i < ref.length; i++) {
                    ref[i] = (byte) "ACGT".charAt(rng.nextInt(4));
                    alt[i] = (byte) "ACGT".charAt(rng.nextInt(4));
                }
                SwBatch big = SwBatch.of(ref, alt); // 900 MB of traceback
                PairHmmBatch.Builder b = PairHmmBatch.builder();
                byte[] one = {'A'}, q = {30}, gop = {45}, gcp = {10};
                for (int i = 0; i < 2048; i++) {
                    b.addRead(one, q, gop, gop, gcp);
                }
                for (int h = 0; h < 4096; h++) {
                    b.addHaplotype(new byte[] {'C'});
                }
                PairHmmBatch many = b.build(); // 8.4 M pairs: staging and task list ~200 MB
                double[] out = new double[many.resultCount()];
                PairHmmBatch small = PairHmmBatch.builder()
                    .addRead(new byte[] {'A'}, new byte[] {30}, new byte[] {45}, new byte[] {45}, new byte[] {10})
                    .addHaplotype(new byte[] {'A'}).build();
                PairHmm.compute(ctx, small, Precision.FLOAT_THEN_DOUBLE, Backend.CPU); // warm: classes loaded

                prlimit((vmSize() + (256L << 20)) + ":");
                String sw = outcome(() -> SmithWaterman.align(ctx, big, SwParameters.READ_TO_HAPLOTYPE,
                    SwOverhang.SOFTCLIP));
                String ph = outcome(() -> PairHmm.compute(ctx, many, Precision.FLOAT_THEN_DOUBLE, Backend.CPU, out));
                prlimit("unlimited:");

                System.out.println("SW " + sw);
                System.out.println("PAIRHMM " + ph);
                // afterwards, hand-derived: log10((1 - 1e-3) * (1 - 0.1)) for a one-base match
                double r = PairHmm.compute(ctx, small, Precision.FLOAT_THEN_DOUBLE, Backend.CPU)[0];
                System.out.println("AFTER " + (Math.abs(r - Math.log10(0.999 * 0.9)) < 1e-6 ? "ok" : "wrong " + r));
                String cigar = SmithWaterman.align(ctx, "ACGTACGTACGTACGT".getBytes(StandardCharsets.US_ASCII),
                    "ACGTACGAACGTACGT".getBytes(StandardCharsets.US_ASCII), SwParameters.ORIGINAL_DEFAULT,
                    SwOverhang.SOFTCLIP).cigar();
                System.out.println("AFTER-SW " + cigar);
            }
            System.out.println("CHILD-DONE");
        }
    }

    @Test
    void nativeOutOfMemoryIsAJavaExceptionAndTheContextSurvives() throws Exception {
        Assumptions.assumeTrue(new File("/proc/self/status").exists(), "needs /proc (Linux): skipped");
        boolean havePrlimit = false;
        for (String dir : System.getenv().getOrDefault("PATH", "").split(File.pathSeparator)) {
            havePrlimit |= new File(dir, "prlimit").canExecute();
        }
        Assumptions.assumeTrue(havePrlimit, "prlimit (util-linux) not on PATH: the Java OOM test cannot lower "
            + "the child's address-space limit; the native OOM tests still run (test_reliability_oom.cc)");
        List<String> cmd = new ArrayList<>(List.of(Path.of(System.getProperty("java.home"), "bin", "java").toString(),
            "-Xms192m", "-Xmx192m", "-Xint", "-XX:+UseSerialGC", "-Xcheck:jni",
            "-cp", System.getProperty("java.class.path")));
        for (String key : new String[] {"dpaccel.native.path", "dpaccel.tmpdir"}) {
            if (System.getProperty(key) != null) {
                cmd.add("-D" + key + "=" + System.getProperty(key));
            }
        }
        cmd.add(Child.class.getName());
        Process p = new ProcessBuilder(cmd).redirectErrorStream(true).start();
        byte[] bytes = p.getInputStream().readAllBytes();
        assertTrue(p.waitFor(120, TimeUnit.SECONDS), "child JVM did not finish");
        String out = new String(bytes, StandardCharsets.UTF_8);
        assertEquals(0, p.exitValue(), out);
        assertTrue(out.contains("\nCHILD-DONE") || out.startsWith("CHILD-DONE"), out);
        String sw = line(out, "SW "), ph = line(out, "PAIRHMM ");
        assertTrue(sw.startsWith("DpaccelException OUT_OF_MEMORY"), out);
        assertTrue(ph.startsWith("DpaccelException OUT_OF_MEMORY") || ph.startsWith("OutOfMemoryError: dpaccel"), out);
        assertEquals("ok", line(out, "AFTER "), out);
        assertEquals("16M", line(out, "AFTER-SW "), out);
    }

    private static String line(String out, String prefix) {
        for (String l : out.split("\n")) {
            if (l.startsWith(prefix)) {
                return l.substring(prefix.length());
            }
        }
        return "(no line " + prefix.trim() + ")";
    }
}
