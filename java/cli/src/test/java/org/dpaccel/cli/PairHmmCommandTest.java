package org.dpaccel.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.ArrayList;
import java.util.List;

import org.dpaccel.bench.VectorsWriter;
import org.dpaccel.bench.data.PairHmmFiles;
import org.dpaccel.bench.data.Region;
import org.dpaccel.bench.engine.Engine;
import org.dpaccel.bench.engine.Engines;
import org.dpaccel.bench.engine.Plan;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code dpaccel pairhmm}: a committed .in file against Intel GKL's PairHMM (an independent
 * implementation, in double precision), GKL's own conformance file against its expected
 * column, and bad files.
 */
class PairHmmCommandTest {
    /** GKL's conformance file: the shared copy, or test-data/ once it is committed there. */
    static Path conformanceFile() {
        for (String p : new String[] {System.getProperty("dpaccel.shared.data", "") + "/pairhmm/gkl-pairhmm-testdata.txt",
            System.getProperty("dpaccel.testdata.dir", "") + "/pairhmm/gkl-pairhmm-testdata.txt"}) {
            if (Files.isRegularFile(Paths.get(p))) {
                return Paths.get(p);
            }
        }
        return null;
    }

    /** Every pair of the file in file order, from GKL's IntelPairHmm in double precision; skips without GKL. */
    static List<Double> gkl(Path file) throws IOException {
        Engine e;
        try {
            e = Engines.create("gkl", 1, false, true);
        } catch (Engines.Unavailable u) {
            Assumptions.abort("SKIPPED: GKL unavailable here: " + u.getMessage());
            return null;
        }
        List<Double> out = new ArrayList<>();
        try (e) {
            List<Region> regions = PairHmmFiles.read(file).regions();
            Plan p = e.plan(regions, 1);
            for (int c = 0; c < p.calls(); c++) {
                p.run(c);
                for (double v : p.result(c)) {
                    out.add(v);
                }
            }
        }
        return out;
    }

    @Test
    void inFileMatchesGkl(@TempDir Path dir) throws IOException {
        Path in = Cli.resource(dir, "small.in");
        List<Double> expected = gkl(in);
        List<Double> reference = new ArrayList<>();
        for (double[] region : VectorsWriter.reference(PairHmmFiles.read(in).regions())) {
            for (double v : region) {
                reference.add(v);
            }
        }
        for (String[] extra : new String[][] {{}, {"--double"}, {"--backend", "cpu", "--threads", "1"}}) {
            List<String> args = new ArrayList<>(List.of("pairhmm"));
            args.addAll(List.of(extra));
            args.add(in.toString());
            Cli.Result r = Cli.run(args.toArray(new String[0]));
            assertEquals(ExitCodes.OK, r.rc(), r.toString());
            String[] lines = r.lines();
            assertEquals(2 * 2 + 1 * 3, lines.length, r.toString());
            assertEquals(expected.size(), lines.length);
            for (int i = 0; i < lines.length; i++) {
                // GKL's double path builds its probability tables its own way: 1e-9-scale differences
                double tol = extra.length == 1 ? 1e-7 : 1e-5;
                assertEquals(expected.get(i), Double.parseDouble(lines[i]), tol, "pair " + i + " " + List.of(extra));
                if (extra.length == 1) { // --double is exactly dpaccel's scalar double reference
                    assertEquals(reference.get(i), Double.parseDouble(lines[i]), 1e-12, "pair " + i);
                }
            }
            // small.in has one base quality below 6 ('#' = 2); GATK floors it before the PairHMM
            assertTrue(r.err().contains("base qualities below 6 raised to 6"), r.toString());
        }
    }

    @Test
    void gklConformanceFileWithin1e5() throws IOException {
        Path f = conformanceFile();
        Assumptions.assumeTrue(f != null, "SKIPPED: gkl-pairhmm-testdata.txt not found");
        Cli.Result r = Cli.run("pairhmm", "--quiet", f.toString());
        assertEquals(ExitCodes.OK, r.rc(), r.toString());
        assertEquals("", r.err());
        List<String> rows = new ArrayList<>();
        for (String l : Files.readAllLines(f)) {
            if (!l.isBlank() && !l.startsWith("#")) {
                rows.add(l);
            }
        }
        String[] lines = r.lines();
        assertEquals(rows.size(), lines.length);
        double max = 0;
        for (int i = 0; i < lines.length; i++) {
            String[] cols = rows.get(i).trim().split("\\s+");
            double want = Double.parseDouble(cols[6]);
            double diff = Math.abs(want - Double.parseDouble(lines[i]));
            max = Math.max(max, diff);
            assertTrue(diff <= 1e-5, "row " + (i + 1) + ": " + lines[i] + " vs " + want);
        }
        System.out.printf("dpaccel pairhmm on %s: %d pairs, max |diff| %.3g%n", f, lines.length, max);
    }

    @Test
    void outputFileGetsTheResultsAndStdoutNothing(@TempDir Path dir) throws IOException {
        Path in = Cli.resource(dir, "small.in");
        Path out = dir.resolve("out.txt");
        Cli.Result r = Cli.run("pairhmm", "-q", "-o", out.toString(), in.toString());
        assertEquals(ExitCodes.OK, r.rc(), r.toString());
        assertEquals("", r.out());
        assertEquals("", r.err());
        assertEquals(7, Files.readAllLines(out).size());
        assertEquals(0, Cli.strayFiles(dir, in, out));
    }

    @Test
    void badQualityNamesFileLineAndFieldAndLeavesNoOutput(@TempDir Path dir) throws IOException {
        Path in = Cli.resource(dir, "bad-qual.in");
        Path out = dir.resolve("out.txt");
        Cli.Result r = Cli.run("pairhmm", "-o", out.toString(), in.toString());
        assertEquals(ExitCodes.BAD_INPUT, r.rc(), r.toString());
        assertTrue(r.err().contains("bad-qual.in line 3, field read-qual: "), r.toString());
        assertEquals(1, r.err().split("\n").length, "one message: " + r);
        assertFalse(Files.exists(out));
        assertEquals(0, Cli.strayFiles(dir, in), "no temporary file left");
    }

    @Test
    void failureKeepsAnExistingOutputFile(@TempDir Path dir) throws IOException {
        Path in = dir.resolve("truncated.in");
        Files.writeString(in, "1 2\nACGT IIII IIII IIII ++++\nACGT\n");
        Path out = dir.resolve("out.txt");
        Files.writeString(out, "previous\n");
        Cli.Result r = Cli.run("pairhmm", "-o", out.toString(), in.toString());
        assertEquals(ExitCodes.BAD_INPUT, r.rc(), r.toString());
        assertTrue(r.err().contains("truncated.in line 1: group of 1 reads and 2 haplotypes runs past the end"),
            r.toString());
        assertEquals("previous\n", Files.readString(out));
        assertEquals(0, Cli.strayFiles(dir, in, out));
    }

    @Test
    void badSevenColumnRowNamesTheField(@TempDir Path dir) throws IOException {
        Path in = dir.resolve("seven.txt");
        Files.writeString(in, "# hap read q i d g expected\nACGT ACGT IIII IIII IIII ++++ -1.5\n"
            + "ACGT ACGT IIII IIII IIII ++++ minus-one\n");
        Cli.Result r = Cli.run("pairhmm", in.toString());
        assertEquals(ExitCodes.BAD_INPUT, r.rc(), r.toString());
        assertTrue(r.err().contains("seven.txt line 3, field expected-result: "), r.toString());
        assertEquals("", r.out());
    }

    @Test
    void missingFileIsBadInput(@TempDir Path dir) {
        Cli.Result r = Cli.run("pairhmm", dir.resolve("nope.in").toString());
        assertEquals(ExitCodes.BAD_INPUT, r.rc(), r.toString());
        assertTrue(r.err().contains("nope.in: no such file"), r.toString());
    }
}
