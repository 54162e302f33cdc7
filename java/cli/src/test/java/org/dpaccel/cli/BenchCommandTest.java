package org.dpaccel.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** {@code dpaccel bench}: a tiny run end to end, the table into -o, and gen-vectors. */
class BenchCommandTest {
    @Test
    void tinyRunWritesTableAndResults(@TempDir Path dir) throws IOException {
        Path results = dir.resolve("results");
        Path table = dir.resolve("table.txt");
        Cli.Result r = Cli.run("bench", "--regions", "2", "--backend", "cpu", "--threads", "1", "--reps", "1",
            "--warmup", "0", "--no-sweeps", "--out", results.toString(), "-o", table.toString());
        assertEquals(ExitCodes.OK, r.rc(), r.toString());
        String t = Files.readString(table);
        assertTrue(t.startsWith("dpaccel bench "), t);
        assertTrue(t.contains("correctness: every backend within tolerance"), t);
        assertTrue(Files.size(results.resolve("results.json")) > 100);
        assertEquals(0, Cli.strayFiles(dir, results, table));
    }

    @Test
    void pairhmmSubcommandIsTheSameBenchmark(@TempDir Path dir) {
        Cli.Result r = Cli.run("bench", "pairhmm", "--regions", "1", "--backends", "scalar", "--reps", "1", "--warmup",
            "0", "--no-sweeps", "--double", "--out", dir.toString());
        assertEquals(ExitCodes.OK, r.rc(), r.toString());
        assertTrue(r.out().contains("precision double"), r.toString());
    }

    @Test
    void missingDatasetFileIsBadInput(@TempDir Path dir) {
        Cli.Result r = Cli.run("bench", "--dataset", "file:" + dir.resolve("none.in"), "--out", dir.toString());
        assertEquals(ExitCodes.BAD_INPUT, r.rc(), r.toString());
        assertTrue(r.err().contains("none.in"), r.toString());
    }

    @Test
    void genVectorsWritesBothFiles(@TempDir Path dir) throws IOException {
        Cli.Result r = Cli.run("bench", "gen-vectors", "--out-dir", dir.toString(), "--regions", "1");
        assertEquals(ExitCodes.OK, r.rc(), r.toString());
        assertTrue(Files.readString(dir.resolve("gatk_regions.snapshot.tsv")).contains("# generator: dpaccel bench gen-vectors"));
        assertTrue(Files.exists(dir.resolve("edge_cases.snapshot.tsv")));
    }

    @Test
    void xdropAndDistanceSubcommandsCheckEveryBackend(@TempDir Path dir) throws IOException {
        Path table = dir.resolve("x.txt");
        Cli.Result r = Cli.run("bench", "xdrop", "--size", "40", "--backend", "cpu", "--threads", "1", "--reps", "1",
            "--warmup", "0", "-o", table.toString());
        assertEquals(ExitCodes.OK, r.rc(), r.toString());
        String t = Files.readString(table);
        assertTrue(t.contains("GCUPS") && t.contains("RESULT: every backend that ran equals scalar"), t);
        r = Cli.run("bench", "distance", "--size", "33", "--variants", "700", "--backends", "scalar,avx2,cuda",
            "--threads", "1", "--reps", "1");
        assertEquals(ExitCodes.OK, r.rc(), r.toString());
        assertTrue(r.out().contains("G_pairSNP/s") && r.out().contains("cuda"), r.toString());
        r = Cli.run("bench", "distance", "--variants", "0");
        assertEquals(ExitCodes.BAD_INPUT, r.rc(), r.toString());
        r = Cli.run("bench", "xdrop", "--backend", "gpu", "--backends", "cuda");
        assertEquals(ExitCodes.BAD_INPUT, r.rc(), r.toString());
    }

    @Test
    void hmmFilterSubcommandChecksEveryBackend(@TempDir Path dir) throws IOException {
        Path table = dir.resolve("h.txt");
        Cli.Result r = Cli.run("bench", "hmm-filter", "--size", "30", "--models", "3", "--threads", "1", "--reps", "1",
            "--warmup", "0", "-o", table.toString());
        assertEquals(ExitCodes.OK, r.rc(), r.toString());
        String t = Files.readString(table);
        assertTrue(t.contains("Gcells/s") && t.contains("scalar") && t.contains("RESULT: every backend that ran equals "
            + "scalar") && t.contains("\ncuda"), t);
        r = Cli.run("bench", "hmm-filter", "--size", "20", "--models", "1", "--model-length", "7", "--backends",
            "scalar,cuda", "--threads", "1", "--reps", "1", "--warmup", "0");
        assertEquals(ExitCodes.OK, r.rc(), r.toString());
        assertTrue(r.out().contains("cuda"), r.toString());
        r = Cli.run("bench", "hmm-filter", "--model-length", "-1");
        assertEquals(ExitCodes.BAD_INPUT, r.rc(), r.toString());
        r = Cli.run("bench", "hmm-filter", "--models", "0");
        assertEquals(ExitCodes.BAD_INPUT, r.rc(), r.toString());
        r = Cli.run("bench", "hmm-filter", "--F1", "2");
        assertEquals(ExitCodes.BAD_INPUT, r.rc(), r.toString());
    }
}
