package org.dpaccel.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * {@code dpaccel pdhmm}: GKL 0.9.1's own expected values (the carried test-data file, an
 * independent reference) through the command, a hand-derived value, --check passing and failing,
 * and every bad input (exit 2, file and line in the message, nothing on stdout, no -o file).
 */
class PdhmmCommandTest {
    static final String HEADER = "# hap-bases\thap-pd-bases\tread-bases\tread-qual\tread-ins-qual\tread-del-qual\tgcp"
        + "\texpected-result\n";

    /** GKL's file, committed in test-data/pdhmm (not an optional oracle: its absence is a failure). */
    static Path gklFile() {
        Path f = Path.of(System.getProperty("dpaccel.testdata.dir", "../../test-data"), "pdhmm",
            "pdhmm_syn_990_1_2.txt");
        assertTrue(Files.isRegularFile(f), f + " is part of the repository but missing");
        return f;
    }

    static Path write(Path dir, String name, String text) throws IOException {
        Path p = dir.resolve(name);
        Files.writeString(p, text, StandardCharsets.US_ASCII);
        return p;
    }

    @ParameterizedTest
    @ValueSource(strings = { "gatk", "gkl" })
    void gklExpectedValuesThroughTheCommand(String rows, @TempDir Path dir) throws IOException {
        Path f = gklFile();
        List<Double> want = new ArrayList<>();
        for (String line : Files.readAllLines(f, StandardCharsets.US_ASCII)) {
            if (!line.startsWith("#") && !line.isEmpty()) {
                String[] c = line.split("\t");
                want.add(Double.parseDouble(c[7]));
            }
        }
        assertEquals(990, want.size());
        Path out = dir.resolve("ll.tsv");
        Cli.Result r = Cli.run("pdhmm", "--rows", rows, "--threads", "2", "-o", out.toString(), f.toString());
        assertEquals(ExitCodes.OK, r.rc(), r.toString());
        List<String> got = Files.readAllLines(out);
        assertEquals(want.size(), got.size());
        double worst = 0;
        for (int i = 0; i < got.size(); i++) {
            double v = Double.parseDouble(got.get(i));
            double d = Math.abs(v - want.get(i));
            assertTrue(d <= 1e-5, "pair " + i + " (line " + (i + 2) + "): " + v + ", GKL " + want.get(i));
            worst = Math.max(worst, d);
        }
        System.out.println("pdhmm --rows " + rows + ": 990 GKL pairs, max |diff| " + worst);
        // --check agrees, and says so on stderr
        r = Cli.run("pdhmm", "--rows", rows, "--check", f.toString());
        assertEquals(ExitCodes.OK, r.rc(), r.toString());
        assertTrue(r.err().contains("check ok: 990 pairs"), r.toString());
        assertEquals(990, r.lines().length);
    }

    /**
     * The GPU backend gives the CPU's bits on GKL's file (docs/pdhmm.md: bit-identical kernels);
     * without a usable GPU it exits 1 with the library's reason and writes nothing.
     */
    @Test
    void gpuBackendGivesTheCpuBitsOrFailsCleanly(@TempDir Path dir) throws IOException {
        Path f = gklFile();
        Cli.Result cpu = Cli.run("pdhmm", "--backend", "cpu", f.toString());
        assertEquals(ExitCodes.OK, cpu.rc(), cpu.toString());
        Path out = dir.resolve("gpu.tsv");
        Cli.Result gpu = Cli.run("pdhmm", "--backend", "gpu", "--check", "-o", out.toString(), f.toString());
        if (gpu.rc() == ExitCodes.OK) {
            assertEquals(cpu.out(), Files.readString(out), "GPU values differ from the CPU's");
        } else {
            System.out.println("pdhmm --backend gpu: no GPU here: " + gpu.err().strip());
            assertEquals(ExitCodes.INTERNAL, gpu.rc(), gpu.toString());
            assertTrue(gpu.err().startsWith("dpaccel pdhmm: "), gpu.toString());
            assertEquals(0, Cli.strayFiles(dir), "no output file without a result");
        }
    }

    @Test
    void handDerivedSingleBase(@TempDir Path dir) throws IOException {
        // 'A' vs 'A', base quality 30 ('?'), gap penalties 30, gcp 10 ('+'): one match cell,
        // prior 1 - 10^-3 times gap -> match 1 - 10^-1 (the D start row): log10(0.999 x 0.9)
        Path f = write(dir, "one.txt", "A\t[0]\tA\t?\t?\t?\t+\n");
        Cli.Result r = Cli.run("pdhmm", f.toString());
        assertEquals(ExitCodes.OK, r.rc(), r.toString());
        assertEquals(1, r.lines().length);
        assertEquals(Math.log10(0.999 * 0.9), Double.parseDouble(r.lines()[0]), 1e-12);
        assertEquals("", r.err(), r.toString());
    }

    @Test
    void checkFailsOnAWrongExpectedValue(@TempDir Path dir) throws IOException {
        double v = Math.log10(0.999 * 0.9);
        Path f = write(dir, "c.txt", HEADER + "A\t[0]\tA\t?\t?\t?\t+\t" + v + "\n"
            + "A\t[0]\tA\t?\t?\t?\t+\t" + (v + 2e-5) + "\n" + "A\t[0]\tA\t?\t?\t?\t+\t" + (v - 5e-6) + "\n");
        Cli.Result r = Cli.run("pdhmm", "--check", f.toString());
        assertEquals(ExitCodes.INTERNAL, r.rc(), r.toString());
        assertTrue(r.err().contains("c.txt line 3:"), r.toString());
        assertTrue(!r.err().contains("line 2:") && !r.err().contains("line 4:"), r.toString());
        assertTrue(r.err().contains("check FAILED: 1 of 3 pairs"), r.toString());
        // the values were computed: they are written, the verdict is the exit status
        assertEquals(3, r.lines().length);
        // a wider tolerance accepts it
        r = Cli.run("pdhmm", "--check", "--tolerance", "3e-5", f.toString());
        assertEquals(ExitCodes.OK, r.rc(), r.toString());
        // the relative tolerance of a value near -0.046 is far below 1e-5
        r = Cli.run("pdhmm", "--check", "--tolerance", "0", "--rel-tolerance", "1e-4", f.toString());
        assertEquals(ExitCodes.INTERNAL, r.rc(), r.toString());
        assertTrue(r.err().contains("check FAILED: 2 of 3 pairs"), r.toString());
    }

    @Test
    void checkNeedsTheExpectedColumn(@TempDir Path dir) throws IOException {
        Path f = write(dir, "n.txt", "A\t[0]\tA\t?\t?\t?\t+\n");
        Cli.Result r = Cli.run("pdhmm", "--check", f.toString());
        assertEquals(ExitCodes.BAD_INPUT, r.rc(), r.toString());
        assertTrue(r.err().contains("n.txt line 1, field expected-result"), r.toString());
        assertEquals("", r.out());
    }

    @ParameterizedTest
    @ValueSource(strings = {
        "A\t[0]\tA\t?\t?\t?|line 1: 6 tab-separated columns",
        "AC\t[0]\tA\t?\t?\t?\t+|line 1, field hap-pd-bases: 1 PD bytes, hap-bases has 2",
        "A\t0\tA\t?\t?\t?\t+|line 1, field hap-pd-bases: '0' is not a list",
        "A\t[x]\tA\t?\t?\t?\t+|line 1, field hap-pd-bases: element 1 'x' is not an integer",
        "A\t[300]\tA\t?\t?\t?\t+|field hap-pd-bases: element 1 = 300 is outside a byte",
        "A\t[0]\tAC\t?\t??\t??\t++|line 1, field read-qual: 1 characters, read-bases has 2",
        "A\t[0]\tA\t \t?\t?\t+|field read-qual: character 32 at position 1 is phred -1",
        "A\t[0]\t\t\t\t\t|line 1, field read-bases: length 0",
        "A\t[0]\tA\t?\t?\t?\t+\tabc|line 1, field expected-result: 'abc' is not a number",
        "G\t[9]\tR\t?\t?\t?\t+|line 1, field read-bases: read_bases[0] = 0x52 is not A/C/G/T/N",
        "#only a header|line 0: no pairs",
    })
    void badInputNamesFileLineAndField(String c, @TempDir Path dir) throws IOException {
        String[] parts = c.split("\\|", 2);
        // a good line first, so the bad one is line 2 (or the file is only comments)
        String text = parts[0].startsWith("#") ? parts[0] + "\n" : "A\t[0]\tA\t?\t?\t?\t+\n" + parts[0] + "\n";
        String want = parts[1].startsWith("line 0") ? parts[1] : parts[1].replace("line 1", "line 2");
        if (parts[0].contains("\tabc")) { // a 7-column line then an 8-column one: the column count differs first
            text = parts[0] + "\n";
            want = parts[1];
        }
        Path f = write(dir, "bad.txt", text);
        Path out = dir.resolve("o.tsv");
        Cli.Result r = Cli.run("pdhmm", "-o", out.toString(), f.toString());
        assertEquals(ExitCodes.BAD_INPUT, r.rc(), r.toString());
        assertTrue(r.err().contains("bad.txt") && r.err().contains(want), "want '" + want + "'\n" + r);
        assertEquals("", r.out());
        assertEquals(0, Cli.strayFiles(dir, f), "no output file, no temporary left");
    }

    /**
     * Mutated copies of GKL's lines (fresh seed, printed): the reader either returns pairs that
     * satisfy every rule it promises or throws InputFormatException, never anything else.
     */
    @Test
    void mutatedLinesGiveFormatErrorsOnly() throws IOException {
        List<String> lines = Files.readAllLines(gklFile(), StandardCharsets.US_ASCII).subList(0, 40);
        long seed = System.nanoTime();
        System.out.println("mutatedLinesGiveFormatErrorsOnly seed " + seed);
        java.util.Random rng = new java.util.Random(seed);
        String alphabet = "\t[],-0123456789 ACGTNacgtR!~#?+e.\u00ff";
        int ok = 0, refused = 0;
        for (int it = 0; it < 3000; it++) {
            StringBuilder text = new StringBuilder();
            int target = rng.nextInt(lines.size()); // one line mutated, 1-3 edits
            for (int k = 0; k < lines.size(); k++) {
                StringBuilder b = new StringBuilder(lines.get(k));
                for (int m = k == target ? 1 + rng.nextInt(3) : 0; m > 0 && b.length() > 0; m--) {
                    int at = rng.nextInt(b.length());
                    switch (rng.nextInt(3)) {
                        case 0 -> b.deleteCharAt(at);
                        case 1 -> b.insert(at, alphabet.charAt(rng.nextInt(alphabet.length())));
                        default -> b.setCharAt(at, alphabet.charAt(rng.nextInt(alphabet.length())));
                    }
                }
                text.append(b).append('\n');
            }
            boolean check = rng.nextBoolean();
            try {
                List<PdhmmInputs.Pair> pairs = PdhmmInputs.read(new java.io.BufferedReader(
                    new java.io.StringReader(text.toString())), "m.txt", check);
                for (PdhmmInputs.Pair p : pairs) {
                    assertEquals(p.hap().length, p.pd().length);
                    for (byte[] q : new byte[][] { p.qual(), p.ins(), p.del(), p.gcp() }) {
                        assertEquals(p.read().length, q.length);
                        for (byte x : q) {
                            assertTrue(x >= 0, "seed " + seed);
                        }
                    }
                    assertTrue(!check || !Double.isNaN(p.expected()), "seed " + seed);
                }
                ok++;
            } catch (org.dpaccel.bench.data.InputFormatException e) {
                assertTrue(e.getMessage().startsWith("m.txt line "), e.getMessage());
                refused++;
            }
        }
        System.out.println("mutated files: " + ok + " accepted, " + refused + " refused");
        assertTrue(ok > 0 && refused > 0, ok + " accepted, " + refused + " refused");
    }

    /** More pairs than one native call takes: order kept across chunks, errors on the right line. */
    @Test
    void chunksKeepOrderAndLines(@TempDir Path dir) throws IOException {
        int n = PdhmmCommand.CHUNK_PAIRS + 5000;
        StringBuilder text = new StringBuilder();
        for (int i = 0; i < n; i++) {
            // two kinds of pair, so a reordering would show
            text.append(i % 3 == 0 ? "A\t[0]\tA\t?\t?\t?\t+\n" : "C\t[0]\tA\t?\t?\t?\t+\n");
        }
        Path f = write(dir, "many.txt", text.toString());
        Cli.Result r = Cli.run("pdhmm", "-q", f.toString());
        assertEquals(ExitCodes.OK, r.rc(), r.err());
        String[] out = r.lines();
        assertEquals(n, out.length);
        double match = Double.parseDouble(out[0]), mismatch = Double.parseDouble(out[1]);
        assertTrue(match > mismatch, match + " " + mismatch);
        for (int i = 0; i < n; i++) {
            assertEquals(i % 3 == 0 ? out[0] : out[1], out[i], "pair " + i);
        }
        int badLine = PdhmmCommand.CHUNK_PAIRS + 1234;
        String[] lines = text.toString().split("\n");
        lines[badLine - 1] = "G\t[9]\tR\t?\t?\t?\t+";
        Path g = write(dir, "bad.txt", String.join("\n", lines) + "\n");
        r = Cli.run("pdhmm", g.toString());
        assertEquals(ExitCodes.BAD_INPUT, r.rc(), r.err());
        assertTrue(r.err().contains("bad.txt line " + badLine + ", field read-bases: read_bases[0] = 0x52"), r.err());
        assertEquals("", r.out());
    }

    @Test
    void optionsAndHelp(@TempDir Path dir) throws IOException {
        Path f = write(dir, "one.txt", "A\t[0]\tA\t?\t?\t?\t+\n");
        Cli.Result r = Cli.run("pdhmm", "--rows", "java", f.toString());
        assertEquals(ExitCodes.BAD_INPUT, r.rc(), r.toString());
        assertTrue(r.err().contains("--rows java: must be gatk or gkl"), r.toString());
        r = Cli.run("pdhmm", "--tolerance", "-1", f.toString());
        assertEquals(ExitCodes.BAD_INPUT, r.rc(), r.toString());
        r = Cli.run("pdhmm", dir.resolve("none.txt").toString());
        assertEquals(ExitCodes.BAD_INPUT, r.rc(), r.toString());
        assertTrue(r.err().contains("none.txt: no such file"), r.toString());
        r = Cli.run("pdhmm", "--help");
        assertEquals(ExitCodes.OK, r.rc(), r.toString());
        assertTrue(r.out().contains("--check") && r.out().contains("GKL 0.9.1"), r.toString());
    }
}
