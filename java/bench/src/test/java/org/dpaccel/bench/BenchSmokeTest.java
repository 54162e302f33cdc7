package org.dpaccel.bench;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** A tiny end-to-end run: two regions, scalar and the best ISA, no sweeps; every output file is written. */
class BenchSmokeTest {
    @Test
    void smallRunWritesEverything(@TempDir Path dir) throws Exception {
        ByteArrayOutputStream buf = new ByteArrayOutputStream();
        int rc = new PairHmmBench(new PrintStream(buf, true, StandardCharsets.UTF_8)).run(new String[] {"--regions", "2",
            "--backends", "scalar,avx2,avx512", "--reps", "1", "--warmup", "0", "--sweep-seconds", "0.01", "--out",
            dir.toString(), "--progress", "off"});
        String out = buf.toString(StandardCharsets.UTF_8);
        assertEquals(0, rc, out);
        assertTrue(out.contains("scalar"), out);
        for (String f : new String[] {"results.json", "results.csv", "report.html", "gcups_vs_length.png",
            "gcups_vs_batch.png"}) {
            assertTrue(Files.size(dir.resolve(f)) > 100, f);
        }
        assertTrue(Files.readString(dir.resolve("results.json")).contains("\"backend\": \"scalar\""));
    }
}
