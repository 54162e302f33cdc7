package org.dpaccel.spark;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Random;

import org.dpaccel.cli.Main;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The spark-submit entry point: its output files, log line and exit codes. */
class SparkMainTest {
    @TempDir
    Path dir;

    record Result(int rc, String err) {
    }

    static Result run(String... args) {
        ByteArrayOutputStream err = new ByteArrayOutputStream();
        int rc = SparkMain.run(args, new PrintStream(err, true, StandardCharsets.UTF_8));
        return new Result(rc, err.toString(StandardCharsets.UTF_8));
    }

    @Test
    void distanceEqualsTheSingleMachineCommand() throws IOException {
        String prefix = dir.resolve("c").toString();
        SparkDistanceTest.write(prefix, new Random(7));
        assertEquals(0, Main.run(new String[] {"distance", "--bfile", prefix, "--out", dir.resolve("one").toString(),
            "-q"}, new PrintStream(new ByteArrayOutputStream()), new PrintStream(new ByteArrayOutputStream())));
        String out = dir.resolve("s").toString();
        Result r = run("--master", "local[2]", "distance", "--bfile", prefix, "--out", out, "--tile", "10");
        assertEquals(0, r.rc(), r.err());
        assertTrue(r.err().contains("tiles=15"), r.err());
        assertArrayEquals(Files.readAllBytes(dir.resolve("one.counts.tsv")), Files.readAllBytes(Path.of(out + ".counts.tsv")));

        r = run("--master", "local[2]", "distance", "--bfile", prefix, "--out", out);
        assertEquals(2, r.rc(), r.err());
        assertTrue(r.err().contains("already exists"), r.err());
        r = run("--master", "local[2]", "distance", "--bfile", prefix, "--out", out, "--tile", "0");
        assertEquals(2, r.rc(), r.err());
        assertTrue(r.err().contains("--tile 0"), r.err());
        r = run("--master", "local[2]", "distance", "--bfile", prefix, "--out", dir.resolve("f").toString(),
            "--format", "csv");
        assertEquals(2, r.rc(), r.err());
        assertTrue(r.err().contains("--format csv: must be tsv or parquet"), r.err());
        r = run("--master", "local[2]", "distance", "--bfile", prefix, "--out", dir.resolve("pq").toString(),
            "--format", "parquet", "--tile", "10");
        assertEquals(0, r.rc(), r.err());
        assertTrue(r.err().contains("tiles=15"), r.err());
        assertTrue(Files.exists(dir.resolve("pq.parquet").resolve("_SUCCESS")), "OUT.parquet/_SUCCESS");
        assertTrue(Files.exists(dir.resolve("pq.parquet").resolve("tile=0-1").resolve("part-0.parquet")));
        assertFalse(Files.exists(dir.resolve("pq.counts.tsv")));
        r = run("--master", "local[2]", "distance", "--bfile", dir.resolve("nope").toString(), "--out",
            dir.resolve("n").toString());
        assertEquals(2, r.rc(), r.err());
        assertTrue(r.err().contains("nope.fam: no such file"), r.err());
        r = run("--master", "nonsense://x", "distance", "--bfile", prefix, "--out", dir.resolve("m").toString());
        assertNotEquals(0, r.rc());
        assertTrue(r.err().contains("nonsense://x"), r.err());
        assertFalse(Files.exists(dir.resolve("m.counts.tsv")));
    }

    @Test
    void pairhmmWritesOneLinePerVector() throws IOException {
        Path vectors = Path.of(System.getProperty("dpaccel.testdata.dir", "../../test-data"), "pairhmm",
            "gatk_regions.snapshot.tsv");
        Path out = dir.resolve("p.tsv");
        Result r = run("--master", "local[2]", "pairhmm", "--vectors", vectors.toString(), "--out", out.toString(),
            "--partitions", "3");
        assertEquals(0, r.rc(), r.err());
        List<String> in = Files.readAllLines(vectors).stream().filter(l -> !l.startsWith("#")).toList();
        List<String> got = Files.readAllLines(out);
        assertEquals(in.size(), got.size());
        for (int i = 0; i < in.size(); i++) {
            String[] a = in.get(i).split("\t"), b = got.get(i).split("\t");
            assertEquals(String.join("\t", List.of(a).subList(0, 7)), String.join("\t", List.of(b).subList(0, 7)));
            assertEquals(Double.parseDouble(a[7]), Double.parseDouble(b[7]), 1e-5, "row " + i);
        }
        Path bad = dir.resolve("bad.tsv");
        Files.writeString(bad, "0\tACGT\tACG\t+++\t+++\t+++\t++\n");
        r = run("--master", "local[1]", "pairhmm", "--vectors", bad.toString(), "--out", dir.resolve("q.tsv").toString());
        assertEquals(2, r.rc(), r.err());
        assertTrue(r.err().contains("bad.tsv line 1: column 7 has 2 qualities"), r.err());
    }
}
