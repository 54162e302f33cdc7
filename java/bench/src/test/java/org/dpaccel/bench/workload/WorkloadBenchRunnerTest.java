package org.dpaccel.bench.workload;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.util.List;

import org.dpaccel.Backend;
import org.dpaccel.DpaContext;
import org.dpaccel.Isa;
import org.dpaccel.xdrop.XdropParams;
import org.dpaccel.xdrop.XdropResults;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;

/**
 * The generic workload runner: a backend that disagrees with scalar makes the run fail (exit 1),
 * the X-drop and distance plug-ins agree on every CPU backend of this machine and their
 * generators are deterministic, and bad settings are refused.
 */
class WorkloadBenchRunnerTest {
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
        s.warmup = 0;
        s.seed = System.nanoTime();
        return s;
    }

    /** A workload whose result is the context's ISA: every non-scalar backend "disagrees". */
    private static final class IsaEcho implements WorkloadBench<Integer, Isa> {
        public String name() { return "echo"; }
        public String workUnit() { return "units"; }
        public String rateUnit() { return "G/s"; }
        public String itemUnit() { return "items"; }
        public Integer generate(long seed, int size) { return size; }
        public String describe(Integer in) { return in + " units"; }
        public Isa run(DpaContext ctx, Backend backend, Integer in) { return ctx.isa(); }
        public long work(Integer in, Isa scalar) { return in; }
        public long items(Integer in) { return in; }
        public String firstDifference(Isa want, Isa got) { return want == got ? null : got + " != " + want; }
    }

    private static boolean has(String isa) {
        String[] why = new String[1];
        DpaContext c = WorkloadBenchRunner.context(isa, 1, why);
        if (c != null) {
            c.close();
        }
        return c != null;
    }

    @Test
    void aBackendThatDiffersFailsTheRun() {
        Assumptions.assumeTrue(has("avx2"), "this CPU has no AVX2: the disagreeing backend cannot run");
        int[] rc = new int[1];
        String out = run(new IsaEcho(), settings(10, "scalar,avx2"), rc);
        assertEquals(1, rc[0], out);
        assertTrue(out.contains("DIFFERS: AVX2 != SCALAR"), out);
        assertTrue(out.contains("RESULT: a backend differs from scalar"), out);
        rc[0] = -1;
        out = run(new IsaEcho(), settings(10, "scalar"), rc);
        assertEquals(0, rc[0], out);
    }

    @Test
    void xdropAgreesOnEveryCpuBackend() {
        int[] rc = new int[1];
        WorkloadBenchRunner.Settings s = settings(60, "cpu");
        String out = run(new XdropBench(XdropParams.unit(50)), s, rc);
        assertEquals(0, rc[0], out);
        assertTrue(out.contains("scalar ") && out.contains("ok (= scalar)"), out);
        assertTrue(out.contains("RESULT: every backend that ran equals scalar"), out);
    }

    /**
     * The SeqAn peer row: the oracle program of the Maven build (build/native/native/tests/xdrop_seqan,
     * built when libseqan2-dev is installed) on the same seeds must equal scalar; skipped loudly
     * without it.
     */
    @Test
    void xdropSeqanPeerEqualsScalar() {
        java.nio.file.Path prog = java.nio.file.Path.of("..", "..", "build", "native", "native", "tests", "xdrop_seqan")
            .toAbsolutePath().normalize();
        Assumptions.assumeTrue(java.nio.file.Files.isExecutable(prog),
            "SEQAN ORACLE NOT RUN: " + prog + " not built (install libseqan2-dev, rebuild)");
        int[] rc = new int[1];
        String out = run(new XdropBench(XdropParams.unit(50), prog), settings(60, "scalar"), rc);
        assertEquals(0, rc[0], out);
        assertTrue(out.matches("(?s).*\\nseqan +[0-9.]+ +[0-9.]+ +[0-9.]+ +[0-9.]+ +[0-9]+  ok \\(= scalar\\).*"), out);
        assertTrue(out.contains("# seqan: SeqAn 2.x extendSeed"), out);
        assertTrue(out.contains("# rate against seqan: scalar "), out);
    }

    /** A peer whose results differ fails the run like a backend does; a missing one is a skipped row. */
    @Test
    void xdropPeerThatDiffersFailsTheRun() throws Exception {
        java.nio.file.Path fake = java.nio.file.Files.createTempFile("fake-seqan", ".sh");
        try {
            java.nio.file.Files.writeString(fake, "#!/bin/sh\ncat > /dev/null\n"
                + "echo 'seqan: 60 seeds x 1 repeats: 0.5 s' >&2\n"
                + "i=0; while [ $i -lt 60 ]; do echo '0 0 0 0 0 0 0'; i=$((i+1)); done\n");
            fake.toFile().setExecutable(true);
            int[] rc = new int[1];
            String out = run(new XdropBench(XdropParams.unit(50), fake), settings(60, "scalar"), rc);
            assertEquals(1, rc[0], out);
            assertTrue(out.contains("DIFFERS: seed 0: SeqAn 0 0 0 0 0 0 0, scalar "), out);
            out = run(new XdropBench(XdropParams.unit(50), fake.resolveSibling("no-such-seqan")), settings(60, "scalar"),
                rc);
            assertEquals(0, rc[0], out);
            assertTrue(out.contains("skipped: ") && out.contains("no-such-seqan is not an executable file"), out);
        } finally {
            java.nio.file.Files.deleteIfExists(fake);
        }
    }

    @Test
    void distanceAgreesOnEveryCpuBackend() {
        int[] rc = new int[1];
        String out = run(new DistanceBench(3000), settings(70, "cpu"), rc);
        assertEquals(0, rc[0], out);
        assertTrue(out.contains("70 samples x 3000 variants"), out);
    }

    @Test
    void generatorsAreDeterministicAndSeedsValid() {
        XdropBench x = new XdropBench(XdropParams.unit(100));
        XdropBench.Input a = x.generate(5, 200), b = x.generate(5, 200);
        assertEquals(a.batch().size(), 200);
        assertEquals(a.bases(), b.bases());
        try (DpaContext ctx = DpaContext.create()) {
            XdropResults ra = x.run(ctx, Backend.CPU, a), rb = x.run(ctx, Backend.CPU, b);
            assertNull(x.firstDifference(ra, rb));
            // most seeds are true shared 17-mers: their extensions pass the seed by far
            int long_ = 0;
            for (int i = 0; i < ra.size(); i++) {
                long_ += ra.qend(i) - ra.qbeg(i) > 500 ? 1 : 0;
            }
            assertTrue(long_ > ra.size() / 2, long_ + " of " + ra.size() + " seeds extend past 500 bases");
        }
        DistanceBench d = new DistanceBench(100);
        assertEquals(d.generate(3, 9).variantsUsed(), d.generate(3, 9).variantsUsed());
    }

    @Test
    void badSettingsAreRefused() {
        assertThrows(IllegalArgumentException.class, () -> WorkloadBenchRunner.parseBackends("gkl"));
        assertEquals(List.of("scalar", "avx2", "avx512", "cuda", "hybrid"), WorkloadBenchRunner.parseBackends("all"));
        WorkloadBenchRunner.Settings s = settings(0, "all");
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, s::check);
        assertNotNull(e.getMessage());
        assertTrue(e.getMessage().contains("--size"), e.getMessage());
        assertThrows(IllegalArgumentException.class, () -> new DistanceBench(0));
    }
}
