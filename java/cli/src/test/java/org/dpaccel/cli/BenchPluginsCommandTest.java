package org.dpaccel.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** {@code dpaccel bench pdhmm} and {@code bench papara}: tiny runs end to end, and usage errors. */
class BenchPluginsCommandTest {
    @Test
    void pdhmmChecksEveryBackend(@TempDir Path dir) throws IOException {
        Path table = dir.resolve("p.txt");
        Cli.Result r = Cli.run("bench", "pdhmm", "--size", "150", "--backend", "cpu", "--threads", "1", "--reps", "1",
            "--warmup", "0", "--rows", "gkl", "-o", table.toString());
        assertEquals(ExitCodes.OK, r.rc(), r.toString());
        String t = Files.readString(table);
        assertTrue(t.contains("# dpaccel bench pdhmm") && t.contains("150 pairs in") && t.contains("rows=gkl"), t);
        assertTrue(t.contains("GCUPS") && t.contains("pairs/s") && t.contains("RESULT: every backend that ran equals "
            + "scalar"), t);
        assertEquals(0, Cli.strayFiles(dir, table));
        r = Cli.run("bench", "pdhmm", "--rows", "java");
        assertEquals(ExitCodes.BAD_INPUT, r.rc(), r.toString());
        assertTrue(r.err().contains("--rows java"), r.toString());
        r = Cli.run("bench", "pdhmm", "--size", "0");
        assertEquals(ExitCodes.BAD_INPUT, r.rc(), r.toString());
    }

    @Test
    void paparaChecksEveryBackend() {
        Cli.Result r = Cli.run("bench", "papara", "--size", "12", "--taxa", "8", "--columns", "200", "--backends",
            "scalar,avx2,cuda", "--threads", "1", "--reps", "1", "--gap-model", "cgap");
        assertEquals(ExitCodes.OK, r.rc(), r.toString());
        assertTrue(r.out().contains("12 reads (") && r.out().contains("13 edge profiles") && r.out().contains(
            "gap model cgap"), r.toString());
        // cuda is either checked or listed as skipped with its reason
        assertTrue(r.out().lines().anyMatch(l -> l.startsWith("cuda ")), r.toString());
        r = Cli.run("bench", "papara", "--size", "5", "--taxa", "5", "--columns", "50", "--best-only", "--backends",
            "scalar", "--reps", "1", "--warmup", "0");
        assertEquals(ExitCodes.OK, r.rc(), r.toString());
        assertTrue(r.out().contains("best scores compared"), r.toString());
        for (String[] bad : new String[][] { { "--taxa", "2" }, { "--columns", "0" }, { "--scoring", "1:2:3" },
            { "--gap-model", "x" }, { "--backend", "gpu", "--backends", "cuda" } }) {
            String[] args = new String[bad.length + 2];
            args[0] = "bench";
            args[1] = "papara";
            System.arraycopy(bad, 0, args, 2, bad.length);
            r = Cli.run(args);
            assertEquals(ExitCodes.BAD_INPUT, r.rc(), String.join(" ", bad) + "\n" + r);
        }
    }

    @Test
    void helpNamesTheOptions() {
        Cli.Result r = Cli.run("bench", "pdhmm", "--help");
        assertEquals(ExitCodes.OK, r.rc(), r.toString());
        assertTrue(r.out().startsWith("Usage: dpaccel bench pdhmm") && r.out().contains("--rows"), r.toString());
        r = Cli.run("bench", "papara", "--help");
        assertEquals(ExitCodes.OK, r.rc(), r.toString());
        assertTrue(r.out().contains("--taxa") && r.out().contains("--best-only"), r.toString());
        r = Cli.run("bench", "--help");
        assertTrue(r.out().contains("pdhmm") && r.out().contains("papara"), r.toString());
    }
}
