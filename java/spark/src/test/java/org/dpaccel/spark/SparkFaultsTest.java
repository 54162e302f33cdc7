package org.dpaccel.spark;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Random;
import java.util.stream.Stream;

import org.apache.spark.SparkConf;
import org.apache.spark.api.java.JavaSparkContext;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Executor failures in local mode with retries ({@code local[2,3]}: up to three attempts a
 * task): parts written to shared storage that dies mid-write ({@link FlakyFileSystem}). A
 * transient failure is retried and the result is the single-machine bytes, with no attempt
 * file left behind; a permanent one fails the job with the storage error named, and leaves no
 * counts file, id file or _SUCCESS.
 */
class SparkFaultsTest {
    static JavaSparkContext jsc;
    static Path data;
    static String prefix;
    static byte[] single;

    @BeforeAll
    static void setUp(@TempDir Path dir) throws IOException {
        data = dir;
        long seed = System.nanoTime();
        System.err.println("SparkFaultsTest seed " + seed);
        prefix = dir.resolve("c").toString();
        SparkDistanceTest.write(prefix, new Random(seed));
        single = Files.readAllBytes(SparkDistanceTest.runSingleMachine(prefix, dir));
        SparkConf conf = new SparkConf().setMaster("local[2,3]").setAppName("SparkFaultsTest")
            .set("spark.ui.enabled", "false")
            .set("spark.driver.host", "127.0.0.1")
            .set("spark.driver.bindAddress", "127.0.0.1")
            .set("spark.hadoop.fs.flaky.impl", FlakyFileSystem.class.getName())
            .set("spark.hadoop.fs.flaky.impl.disable.cache", "true");
        jsc = new JavaSparkContext(conf);
    }

    @AfterAll
    static void tearDown() {
        if (jsc != null) {
            jsc.stop();
        }
    }

    @BeforeEach
    void reset() {
        FlakyFileSystem.failures.set(0);
        FlakyFileSystem.failed.set(0);
    }

    static SparkDistance.Options options(String out) {
        SparkDistance.Options o = new SparkDistance.Options();
        o.bfile = prefix;
        o.out = "flaky://" + data.resolve(out).toAbsolutePath();
        o.tile = 10; // 45 samples: 5 blocks, 15 tiles
        return o;
    }

    static List<String> attemptFiles(String out) throws IOException {
        try (Stream<Path> s = Files.list(data.resolve(out + ".parts"))) {
            return s.map(p -> p.getFileName().toString()).filter(n -> n.startsWith("_attempt-")).toList();
        }
    }

    @Test
    void aTileWhoseStorageFailsIsRetriedToTheSameBytes() throws IOException {
        FlakyFileSystem.failures.set(3);
        SparkDistance.Summary s = SparkDistance.run(jsc, options("retried"));
        assertEquals(3, FlakyFileSystem.failed.get(), "the injected failures did not happen");
        assertEquals(15, s.tiles());
        assertArrayEquals(single, Files.readAllBytes(data.resolve("retried.counts.tsv")));
        assertEquals(List.of(), attemptFiles("retried"), "a failed attempt left its file");
        assertTrue(Files.exists(data.resolve("retried.parts/_SUCCESS")));
    }

    @Test
    void storageThatKeepsFailingFailsTheJobWithNoResult() {
        FlakyFileSystem.failures.set(-1);
        Exception e = assertThrows(Exception.class, () -> SparkDistance.run(jsc, options("failed")));
        StringBuilder chain = new StringBuilder();
        for (Throwable t = e; t != null; t = t.getCause()) {
            chain.append(t.getMessage()).append('\n');
        }
        assertTrue(chain.toString().contains("injected: shared storage lost _attempt-"), chain.toString());
        assertTrue(FlakyFileSystem.failed.get() >= 3, "fewer attempts than local[2,3] allows");
        assertFalse(Files.exists(data.resolve("failed.counts.tsv")));
        assertFalse(Files.exists(data.resolve("failed.id")));
        assertFalse(Files.exists(data.resolve("failed.parts/_SUCCESS")));
    }
}
