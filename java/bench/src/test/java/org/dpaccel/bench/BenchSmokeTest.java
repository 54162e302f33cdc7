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
        BenchSettings s = new BenchSettings();
        s.regions = 2;
        s.backends = "scalar,avx2,avx512";
        s.reps = 1;
        s.warmup = 0;
        s.sweepSeconds = 0.01;
        s.out = dir;
        s.progress = "off";
        int rc = new PairHmmBench(new PrintStream(buf, true, StandardCharsets.UTF_8)).run(s);
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
