package org.dpaccel.hmm;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

import org.junit.jupiter.api.Assumptions;

/**
 * Test data for the hmm package: a hand-written two-node model, and seeded models + targets from
 * the repository's generator (tools/hmm/gen_hmm_testdata.py: pyhmmer's hmmbuild on random
 * alignments). Without python3 + pyhmmer the tests that need generated data are aborted with
 * the reason (reported as skipped, never as passed).
 */
final class HmmTestData {
    private HmmTestData() {
    }

    /** A valid model of {@code leng} nodes with uniform emissions (-ln 1/20), written by hand. */
    static String tinyModel(String name, int leng) {
        StringBuilder emis = new StringBuilder();
        for (int i = 0; i < 20; i++) {
            emis.append(" 2.99573");
        }
        StringBuilder s = new StringBuilder("HMMER3/f [3.4 | Aug 2023]\nNAME  " + name + "\nLENG  " + leng
            + "\nALPH  amino\nSTATS LOCAL MSV       -9.0  0.7\nSTATS LOCAL VITERBI   -9.5  0.7\n"
            + "STATS LOCAL FORWARD   -4.0  0.7\nHMM          A        C        D        E        F        G        H"
            + "        I        K        L        M        N        P        Q        R        S        T        V"
            + "        W        Y\n            m->m     m->i     m->d     i->m     i->i     d->m     d->d\n");
        s.append("  COMPO").append(emis).append('\n');
        s.append("       ").append(emis).append("\n          0.1 2.5 3.0 0.6 0.8 0.0 *\n");
        for (int k = 1; k <= leng; k++) {
            s.append("      ").append(k).append(emis).append(' ').append(k).append(" a - - -\n");
            s.append("       ").append(emis).append('\n');
            s.append(k < leng ? "          0.1 2.5 3.0 0.6 0.8 0.5 0.9\n" : "          0.1 2.5 * 0.6 0.8 0.0 *\n");
        }
        return s.append("//\n").toString();
    }

    static Path repoRoot() {
        Path p = Path.of("").toAbsolutePath();
        while (p != null && !Files.exists(p.resolve("tools/hmm/gen_hmm_testdata.py"))) {
            p = p.getParent();
        }
        Assumptions.assumeTrue(p != null, "tools/hmm/gen_hmm_testdata.py not found above " + Path.of("").toAbsolutePath());
        return p;
    }

    static String python() {
        String py = System.getenv("DPACCEL_PYTHON");
        return py == null || py.isEmpty() ? "python3" : py;
    }

    /**
     * Runs a command and returns its stdout. A missing tool (cannot start, or {@code skip} and a
     * non-zero exit) aborts the test with the reason (reported as skipped); any other failure
     * fails it.
     */
    static String run(String what, List<String> cmd, Path dir, boolean skip) throws IOException, InterruptedException {
        Path out = Files.createTempFile(dir, "out", ".txt");
        Path err = Files.createTempFile(dir, "err", ".txt");
        Process p;
        try {
            p = new ProcessBuilder(cmd).redirectOutput(out.toFile()).redirectError(err.toFile()).start();
        } catch (IOException e) {
            Assumptions.abort(what + ": cannot start " + cmd.get(0) + ": " + e.getMessage());
            throw e;
        }
        if (!p.waitFor(600, TimeUnit.SECONDS)) {
            p.destroyForcibly();
            throw new IllegalStateException(what + " timed out");
        }
        String stderr = Files.readString(err);
        if (p.exitValue() != 0) {
            String msg = what + " failed (exit " + p.exitValue() + "): " + stderr.strip();
            if (skip) {
                Assumptions.abort(msg);
            }
            throw new IllegalStateException(msg);
        }
        return Files.readString(out);
    }

    /** Models and targets from gen_hmm_testdata.py SEED; aborts (skip) without python3 + pyhmmer. */
    static Path[] generate(Path dir, long seed, int models, int seqs, int maxLen) throws Exception {
        Path root = repoRoot();
        run(python() + " with pyhmmer (pip install pyhmmer)", List.of(python(), "-c", "import pyhmmer"), dir, true);
        Path hmm = dir.resolve("gen.hmm"), fa = dir.resolve("gen.fa");
        run("gen_hmm_testdata.py", List.of(python(), root.resolve("tools/hmm/gen_hmm_testdata.py").toString(),
            Long.toString(seed), hmm.toString(), fa.toString(), Integer.toString(models), Integer.toString(seqs),
            Integer.toString(maxLen)), dir, false);
        return new Path[] { hmm, fa };
    }

    /** The generator's FASTA (one '>' header, then 60-column lines; empty sequences allowed). */
    static HmmSeqBatch readFasta(Path fa) throws IOException {
        HmmSeqBatch.Builder b = HmmSeqBatch.builder();
        String name = null;
        StringBuilder seq = new StringBuilder();
        for (String line : Files.readAllLines(fa, StandardCharsets.US_ASCII)) {
            if (line.startsWith(">")) {
                if (name != null) {
                    b.add(name, seq);
                }
                name = line.substring(1).split("\\s+")[0];
                seq.setLength(0);
            } else {
                seq.append(line.strip());
            }
        }
        if (name != null) {
            b.add(name, seq);
        }
        return b.build();
    }

    /** One row of native/tests/oracles/hmm_oracle.c (HMMER 3.4 run stage by stage). */
    record OracleRow(int model, int seq, int length, float usc, float nullsc, float filtersc, float vfsc, double msvP,
        double biasP, double vitP, double vitPNobias) {
        /** hmmsearch's bit score of a raw score against a null score, as p7_Pipeline computes it. */
        static float bits(float sc, float nullsc) {
            return (float) ((double) (sc - nullsc) / 0.69314718055994529);
        }
    }

    static double hex(String s) {
        if (s.equals("inf")) {
            return Double.POSITIVE_INFINITY;
        }
        if (s.equals("-inf")) {
            return Double.NEGATIVE_INFINITY;
        }
        return Double.parseDouble(s);
    }

    /** Oracle rows, or aborts (skip) when DPACCEL_HMM_ORACLE is unset. */
    static List<OracleRow> oracle(Path dir, Path hmm, Path fa) throws Exception {
        String bin = System.getenv("DPACCEL_HMM_ORACLE");
        Assumptions.assumeTrue(bin != null && !bin.isEmpty(),
            "DPACCEL_HMM_ORACLE unset (build it: tools/hmm/build_hmm_oracle.sh DIR)");
        String out = run("hmm_oracle", List.of(bin, hmm.toString(), fa.toString()), dir, false);
        List<OracleRow> rows = new ArrayList<>();
        for (String line : out.split("\n")) {
            if (line.isBlank()) {
                continue;
            }
            String[] t = line.split("\t");
            if (t.length == 3) { // length 0: no scores
                rows.add(new OracleRow(Integer.parseInt(t[0]), Integer.parseInt(t[1]), 0, 0, 0, 0, 0, 0, 0, 0, 0));
                continue;
            }
            // mi si L usc nullsc filtersc vfsc msvP biasP vitP vitP_nobias
            rows.add(new OracleRow(Integer.parseInt(t[0]), Integer.parseInt(t[1]), Integer.parseInt(t[2]),
                (float) hex(t[3]), (float) hex(t[4]), (float) hex(t[5]), (float) hex(t[6]), hex(t[7]), hex(t[8]), hex(t[9]),
                hex(t[10])));
        }
        return rows;
    }
}
