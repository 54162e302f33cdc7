package org.dpaccel.spark;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Random;
import java.util.concurrent.TimeUnit;

import org.apache.spark.SparkConf;
import org.apache.spark.api.java.JavaSparkContext;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A GPU that fails inside Spark tasks. The executor (its own JVM, Spark's standalone cluster in
 * this JVM as in {@link SparkExecutorKillTest}) loads a stand-in CUDA library through
 * DPACCEL_CUDA_LIB ({@code native/tests/faulty_gpu_backend.c}, built here with the system's C
 * compiler): one device that looks usable and whose distance kernel fails every call with a
 * device error after scribbling over its unit's first pair. With the GPU backend forced, every
 * tile goes to that device first; the engine must recompute each tile on the CPU, warn once per
 * executor context, and the job's output must equal the single-machine command's byte for byte.
 * (The CUDA side of a real fault, the error a failed launch returns, is tested on GPUs by
 * test_cuda_faults.)
 */
class SparkGpuFaultTest {
    static final String WARNING = "recomputing on the CPU (logged once per context)";

    @Test
    void distanceTilesSurviveAFailingGpu(@TempDir Path dir) throws Exception {
        Path lib = buildFaultyBackend(dir);
        long seed = System.nanoTime();
        System.err.println("SparkGpuFaultTest seed " + seed);
        String prefix = dir.resolve("c").toString();
        SparkDistanceTest.write(prefix, new Random(seed));
        Path single = SparkDistanceTest.runSingleMachine(prefix, dir);

        SparkConf conf = LocalSpark.cluster("SparkGpuFaultTest", 1)
            .set("spark.executorEnv.DPACCEL_CUDA_LIB", lib.toString())
            .set("spark.executorEnv.DPACCEL_BACKEND", "gpu")
            .set("spark.task.maxFailures", "1"); // a failed task fails the job: no retry hides an error
        JavaSparkContext jsc = new JavaSparkContext(conf);
        Path logFile = dir.resolve("executor-dpaccel.log");
        SparkDistance.Summary s;
        try {
            // Spark sends java.util.logging to SLF4J, which has no binding here: a first job puts
            // a handler on the library's logger in the (one) executor, before its context exists
            String logPath = logFile.toString();
            jsc.parallelize(List.of(1), 1).foreach(x -> captureLibraryLog(logPath));
            SparkDistance.Options o = new SparkDistance.Options();
            o.bfile = prefix;
            o.out = dir.resolve("faulty").toString();
            o.tile = 10; // 45 samples: 15 tiles, each a GPU call that fails
            o.minKinship = Double.NaN;
            s = SparkDistance.run(jsc, o);
        } finally {
            jsc.stop();
        }
        int n = SparkDistanceTest.N;
        assertEquals(n * (n - 1) / 2, s.pairsWritten());
        assertArrayEquals(Files.readAllBytes(single), Files.readAllBytes(dir.resolve("faulty.counts.tsv")));
        assertEquals(Files.readString(dir.resolve("single.id")), Files.readString(dir.resolve("faulty.id")));

        // the executor's context opened the stand-in device, the tiles went to it, and it warned once
        String log = Files.readString(logFile);
        assertTrue(log.contains("faulty test device"), "the executor's context did not open the stand-in GPU:\n" + log);
        assertEquals(1, count(log, WARNING), "warnings from the executor's context:\n" + log);
        assertTrue(log.contains("injected device fault on device 0"), log);
    }

    /* Held so the logger (weakly referenced by java.util.logging) keeps its handler. */
    static java.util.logging.Logger libraryLogger;

    static synchronized void captureLibraryLog(String file) {
        if (libraryLogger != null) {
            return;
        }
        libraryLogger = java.util.logging.Logger.getLogger("org.dpaccel");
        libraryLogger.setLevel(java.util.logging.Level.ALL);
        libraryLogger.addHandler(new java.util.logging.Handler() {
            @Override
            public synchronized void publish(java.util.logging.LogRecord r) {
                try {
                    Files.writeString(Path.of(file), r.getLevel() + " " + r.getMessage() + "\n",
                        java.nio.file.StandardOpenOption.CREATE, java.nio.file.StandardOpenOption.APPEND);
                } catch (IOException e) {
                    throw new java.io.UncheckedIOException(e);
                }
            }

            @Override
            public void flush() {
            }

            @Override
            public void close() {
            }
        });
    }

    /** Compiles the stand-in CUDA library; skips (reported as skipped) where there is no cc. */
    static Path buildFaultyBackend(Path dir) throws IOException, InterruptedException {
        Path root = Path.of(System.getProperty("user.dir")).resolve("../..").normalize();
        Path src = root.resolve("native/tests/faulty_gpu_backend.c");
        assertTrue(Files.isRegularFile(src), "missing " + src);
        Path lib = dir.resolve("libfaulty_gpu.so");
        List<String> cmd = List.of("cc", "-std=c11", "-shared", "-fPIC", "-O1",
            "-I" + root.resolve("kernels/include"), "-I" + root.resolve("native/include"),
            "-I" + root.resolve("native/src"), src.toString(), "-o", lib.toString());
        Process p;
        try {
            p = new ProcessBuilder(cmd).redirectErrorStream(true).start();
        } catch (IOException e) {
            assumeTrue(false, "SKIPPED: no C compiler (cc) to build the stand-in CUDA library: " + e.getMessage());
            return null;
        }
        String out = new String(p.getInputStream().readAllBytes());
        assertTrue(p.waitFor(120, TimeUnit.SECONDS), "cc did not finish");
        assertEquals(0, p.exitValue(), String.join(" ", cmd) + "\n" + out);
        return lib;
    }

    static int count(String s, String what) {
        int c = 0;
        for (int i = s.indexOf(what); i >= 0; i = s.indexOf(what, i + 1)) {
            c++;
        }
        return c;
    }
}
