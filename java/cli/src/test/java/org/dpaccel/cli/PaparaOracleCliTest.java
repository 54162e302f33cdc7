package org.dpaccel.cli;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code dpaccel papara --out DIR} and {@code dpaccel papara-score} against PaPaRa 2.5 itself on
 * seeded generated data (the native generator dpa_papara_gen, native/tests/papara_gen.h: N, ?, .,
 * lower case, all-gap columns, rows outside the tree, reads with indels and IUPAC codes):
 * alignment.phy byte for byte against PaPaRa's papara_alignment, every read's best score and
 * best split against driver::calc_scores, and the whole score matrix against its
 * pvec_aligner_vec kernel. The oracle is the harness of docs/papara.md ("The oracle"), named by
 * DPA_PAPARA_ORACLE as for the native oracle test; with DPA_PAPARA_BIN (the papara binary) the
 * alignment is also compared with the real tool's papara_alignment file. Skips, saying why, when
 * the generator or the oracle is missing. A fresh seed per run, printed.
 */
class PaparaOracleCliTest {
    static final long SEED = Long.getLong("dpaccel.papara.seed", System.nanoTime() & 0xffffffL);

    record Oracle(int[][] matrix, int[] bestScore, int[] bestEdge) {
    }

    static String exec(Path dir, Path stdout, String... cmd) throws IOException, InterruptedException {
        ProcessBuilder pb = new ProcessBuilder(cmd).directory(dir.toFile()).redirectErrorStream(stdout == null);
        if (stdout != null) {
            pb.redirectOutput(stdout.toFile()).redirectError(ProcessBuilder.Redirect.DISCARD);
        } else {
            pb.redirectOutput(ProcessBuilder.Redirect.DISCARD);
        }
        Process p = pb.start();
        if (!p.waitFor(600, TimeUnit.SECONDS) || p.exitValue() != 0) {
            p.destroyForcibly();
            throw new AssertionError("failed: " + String.join(" ", cmd));
        }
        return "";
    }

    static Oracle parse(Path file) throws IOException {
        List<int[]> m = new ArrayList<>();
        List<int[]> b = new ArrayList<>();
        for (String line : Files.readAllLines(file)) {
            String[] f = line.trim().split("\\s+");
            if (f[0].equals("M")) {
                int[] row = new int[f.length - 2];
                for (int i = 0; i < row.length; i++) {
                    row[i] = Integer.parseInt(f[i + 2]);
                }
                m.add(row);
            } else if (f[0].equals("B")) {
                b.add(new int[] {Integer.parseInt(f[2]), Integer.parseInt(f[3])});
            }
        }
        int[] s = new int[b.size()];
        int[] e = new int[b.size()];
        for (int i = 0; i < s.length; i++) {
            s[i] = b.get(i)[0];
            e[i] = b.get(i)[1];
        }
        return new Oracle(m.toArray(new int[0][]), s, e);
    }

    static List<String[]> tsv(Path file) throws IOException {
        List<String[]> rows = new ArrayList<>();
        for (String line : Files.readAllLines(file, StandardCharsets.ISO_8859_1)) {
            rows.add(line.split("\t", -1));
        }
        return rows;
    }

    @ParameterizedTest(name = "{0} taxa x {1} columns, {2} reads, rooted {3}")
    @CsvSource({"5, 40, 30, 0", "12, 200, 60, 1", "30, 600, 150, 0", "64, 1500, 200, 1"})
    void equalsPapara(int taxa, int columns, int reads, int rooted, @TempDir Path dir) throws Exception {
        String gen = System.getProperty("dpaccel.papara.gen", "");
        Assumptions.assumeTrue(!gen.isEmpty() && Files.isExecutable(Path.of(gen)),
            "SKIPPED LOUDLY: the generator dpa_papara_gen is not built (" + gen + "); nothing compared");
        String oracle = System.getenv().getOrDefault("DPA_PAPARA_ORACLE", "");
        Assumptions.assumeTrue(!oracle.isEmpty() && Files.isExecutable(Path.of(oracle)),
            "SKIPPED LOUDLY: DPA_PAPARA_ORACLE is not set to PaPaRa 2.5's harness (docs/papara.md, 'The oracle'); "
                + "nothing compared");
        String bin = System.getenv().getOrDefault("DPA_PAPARA_BIN", "");
        long seed = SEED + taxa;
        System.err.println("PaparaOracleCliTest: seed " + seed + " (-Ddpaccel.papara.seed=" + SEED + " repeats)");
        exec(dir, null, gen, dir.toString(), Long.toString(seed), Integer.toString(taxa), Integer.toString(columns),
            Integer.toString(reads), Integer.toString(rooted));
        Path t = dir.resolve("tree.nwk");
        Path a = dir.resolve("ref.phy");
        Path q = dir.resolve("reads.fa");
        for (int cgap = 0; cgap <= 1; cgap++) {
            String what = "seed " + seed + (cgap == 1 ? " cgap" : " prob") + ": ";
            Path out = dir.resolve("out" + cgap);
            Cli.Result r = Cli.run("papara", "--tree", t.toString(), "--ref", a.toString(), "--reads", q.toString(),
                "--out", out.toString(), "--gap-model", cgap == 1 ? "cgap" : "prob", "--scores", "--profiles");
            assertEquals(ExitCodes.OK, r.rc(), what + r);
            Path oaln = dir.resolve("oracle" + cgap + ".phy");
            Path otxt = dir.resolve("oracle" + cgap + ".txt");
            exec(dir, otxt, oracle, t.toString(), a.toString(), q.toString(), Integer.toString(cgap), oaln.toString());
            Oracle o = parse(otxt);
            assertArrayEquals(Files.readAllBytes(oaln), Files.readAllBytes(out.resolve("alignment.phy")),
                what + "alignment.phy differs from PaPaRa's papara_alignment");
            if (!bin.isEmpty()) {
                String name = "run" + cgap;
                List<String> cmd = new ArrayList<>(List.of(bin, "-t", t.toString(), "-s", a.toString(), "-q",
                    q.toString(), "-n", name, "-j", "1"));
                if (cgap == 1) {
                    cmd.add("-c");
                }
                exec(dir, null, cmd.toArray(new String[0]));
                assertArrayEquals(Files.readAllBytes(dir.resolve("papara_alignment." + name)),
                    Files.readAllBytes(out.resolve("alignment.phy")), what + "differs from the papara binary's file");
            }
            List<String[]> best = tsv(out.resolve("best.tsv"));
            List<String[]> scores = tsv(out.resolve("scores.tsv"));
            String[] split = scores.get(0);
            assertEquals(o.bestScore().length + 1, best.size(), what + "rows of best.tsv");
            for (int i = 0; i < o.bestScore().length; i++) {
                String[] row = best.get(i + 1);
                assertEquals(o.bestScore()[i], Integer.parseInt(row[2]), what + "best score of read " + i);
                assertEquals(split[o.bestEdge()[i] + 1], row[3], what + "best split of read " + i);
                int[] mine = new int[split.length - 1];
                for (int e = 0; e < mine.length; e++) {
                    mine[e] = Integer.parseInt(scores.get(i + 1)[e + 1]);
                }
                assertArrayEquals(o.matrix()[i], mine, what + "scores of read " + i);
            }
            // papara-score on the profiles just written: the FASTA reads' rows of the same matrix
            Path s = dir.resolve("given" + cgap + ".tsv");
            Cli.Result ps = Cli.run("papara-score", "--profiles", out.resolve("profiles.tsv").toString(), "--reads",
                q.toString(), "--out", s.toString());
            assertEquals(ExitCodes.OK, ps.rc(), what + ps);
            List<String[]> given = tsv(s);
            assertArrayEquals(split, given.get(0), what + "papara-score header");
            for (int i = 1; i < given.size(); i++) {
                assertArrayEquals(scores.get(i), given.get(i), what + "papara-score row " + i);
            }
        }
    }

    /**
     * {@code --score-model paper2012} against papara_nt's own {@code align_pvec_score<short, 8>} (the 2012
     * kernel; a harness outside the repository, docs/papara.md, named by DPA_PAPER2012_ORACLE, taking the
     * profiles.tsv we write, whose bytes the test above checks against PaPaRa): every score of the FASTA
     * reads, each read's lowest score and its split (ties to the lowest edge), and papara-score's matrix.
     */
    @ParameterizedTest(name = "paper2012: {0} taxa x {1} columns, {2} reads, rooted {3}")
    @CsvSource({"6, 300, 40, 0", "20, 600, 120, 1", "48, 1200, 200, 0"})
    void paper2012EqualsPapara(int taxa, int columns, int reads, int rooted, @TempDir Path dir) throws Exception {
        String gen = System.getProperty("dpaccel.papara.gen", "");
        Assumptions.assumeTrue(!gen.isEmpty() && Files.isExecutable(Path.of(gen)),
            "SKIPPED LOUDLY: the generator dpa_papara_gen is not built (" + gen + "); nothing compared");
        String oracle = System.getenv().getOrDefault("DPA_PAPER2012_ORACLE", "");
        Assumptions.assumeTrue(!oracle.isEmpty() && Files.isExecutable(Path.of(oracle)),
            "SKIPPED LOUDLY: DPA_PAPER2012_ORACLE is not set to the align_pvec_score harness (docs/papara.md, "
                + "'The oracle'); nothing compared");
        long seed = SEED + 1000 + taxa;
        System.err.println("PaparaOracleCliTest paper2012: seed " + seed + " (-Ddpaccel.papara.seed=" + SEED
            + " repeats)");
        exec(dir, null, gen, dir.toString(), Long.toString(seed), Integer.toString(taxa), Integer.toString(columns),
            Integer.toString(reads), Integer.toString(rooted));
        Path q = dir.resolve("reads.fa");
        for (String gm : new String[] {"prob", "cgap"}) {
            String what = "seed " + seed + " " + gm + " paper2012: ";
            Path out = dir.resolve("out-" + gm);
            Cli.Result r = Cli.run("papara", "--tree", dir.resolve("tree.nwk").toString(), "--ref",
                dir.resolve("ref.phy").toString(), "--reads", q.toString(), "--out", out.toString(), "--gap-model", gm,
                "--score-model", "paper2012", "--scores", "--profiles");
            assertEquals(ExitCodes.OK, r.rc(), what + r);
            Path otxt = dir.resolve("oracle-" + gm + ".txt");
            exec(dir, otxt, oracle, out.resolve("profiles.tsv").toString(), q.toString());
            int[][] m = parse(otxt).matrix();
            List<String[]> best = tsv(out.resolve("best.tsv"));
            List<String[]> scores = tsv(out.resolve("scores.tsv"));
            String[] split = scores.get(0);
            for (int i = 0; i < m.length; i++) {
                int lo = 0;
                for (int e = 1; e < m[i].length; e++) {
                    if (m[i][e] < m[i][lo]) {
                        lo = e;
                    }
                }
                String[] row = best.get(i + 1);
                assertEquals(m[i][lo], Integer.parseInt(row[2]), what + "lowest score of read " + i);
                assertEquals(split[lo + 1], row[3], what + "best split of read " + i);
                assertEquals("-", row[5], what + "no traceback");
                int[] mine = new int[split.length - 1];
                for (int e = 0; e < mine.length; e++) {
                    mine[e] = Integer.parseInt(scores.get(i + 1)[e + 1]);
                }
                assertArrayEquals(m[i], mine, what + "scores of read " + i);
            }
            assertTrue(!Files.exists(out.resolve("alignment.phy")), what + "no alignment.phy without a traceback");
            Path s = dir.resolve("given-" + gm + ".tsv");
            Cli.Result ps = Cli.run("papara-score", "--profiles", out.resolve("profiles.tsv").toString(), "--reads",
                q.toString(), "--out", s.toString(), "--score-model", "paper2012");
            assertEquals(ExitCodes.OK, ps.rc(), what + ps);
            List<String[]> given = tsv(s);
            assertEquals(m.length + 1, given.size(), what + "papara-score rows");
            for (int i = 1; i < given.size(); i++) {
                assertArrayEquals(scores.get(i), given.get(i), what + "papara-score row " + i);
            }
        }
    }
}
