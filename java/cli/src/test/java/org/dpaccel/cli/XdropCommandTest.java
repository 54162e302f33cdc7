package org.dpaccel.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;

import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * {@code dpaccel xdrop}: hand-derived rows, SeqAn's own results (the native oracle program, when
 * built) on generated reads for several X and scorings, and every bad input (exit 2, nothing on
 * stdout, file/line/field in the message).
 */
class XdropCommandTest {
    static final String HEADER = "id\tscore\tqbeg\tqend\ttbeg\ttend\tleft\tright";

    static Path write(Path dir, String name, String text) throws IOException {
        Path p = dir.resolve(name);
        Files.writeString(p, text, StandardCharsets.US_ASCII);
        return p;
    }

    @Test
    void handDerivedRows(@TempDir Path dir) throws IOException {
        Path fa = write(dir, "s.fa", ">acgt first\nACGT\nACGT\n>a\nA\n>longT\nA" + "C".repeat(100) + "\n>q\nAACCGT\n"
            + ">t\nACGGTT\n");
        Path seeds = write(dir, "s.tsv", "# id query qpos target tpos len strand\n"
            + "s1\tacgt\t2\tacgt\t2\t2\t+\ns2\ta\t0\tlongT\t0\t0\t+\ns3\tq\t2\tt\t2\t2\t-\n");
        Cli.Result r = Cli.run("xdrop", "--xdrop", "100", fa.toString(), seeds.toString());
        assertEquals(ExitCodes.OK, r.rc(), r.toString());
        assertEquals(List.of(HEADER, "s1\t8\t0\t8\t0\t8\t2\t4", "s2\t-99\t0\t1\t0\t101\t0\t-99", "s3\t6\t0\t6\t0\t6\t2\t2"),
            List.of(r.lines()));
    }

    static String dna(Random rng, int n) {
        StringBuilder s = new StringBuilder(n);
        for (int i = 0; i < n; i++) {
            s.append("ACGT".charAt(rng.nextInt(4)));
        }
        return s.toString();
    }

    static String revcomp(String s) {
        StringBuilder r = new StringBuilder(s.length());
        for (int i = s.length() - 1; i >= 0; i--) {
            char c = s.charAt(i);
            r.append(c == 'A' ? 'T' : c == 'C' ? 'G' : c == 'G' ? 'C' : c == 'T' ? 'A' : c);
        }
        return r.toString();
    }

    /** A noisy copy: 6% substitutions and 1-bp indels. */
    static String noisy(Random rng, String s) {
        StringBuilder r = new StringBuilder();
        for (int i = 0; i < s.length(); i++) {
            int u = rng.nextInt(100);
            if (u < 2) {
                r.append("ACGT".charAt(rng.nextInt(4)));
            } else if (u < 4) {
                continue;
            } else if (u < 6) {
                r.append("ACGT".charAt(rng.nextInt(4)));
                r.append(s.charAt(i));
            } else {
                r.append(s.charAt(i));
            }
        }
        return r.toString();
    }

    @ParameterizedTest
    @CsvSource({"10, 1, -1, -1", "100, 1, -1, -1", "1000, 1, -1, -1", "50, 1, -2, -2", "100, 2, -3, -3"})
    void equalsSeqAnOnGeneratedReads(int x, int match, int mismatch, int gap, @TempDir Path dir)
        throws IOException, InterruptedException {
        String oracle = System.getProperty("dpaccel.xdrop.oracle", "");
        Assumptions.assumeTrue(!oracle.isEmpty() && Files.isExecutable(Path.of(oracle)),
            "SKIPPED LOUDLY: the SeqAn oracle xdrop_seqan is not built (libseqan2-dev); nothing compared");
        Random rng = new Random(21 + x);
        String genome = dna(rng, 30000);
        List<String> names = new ArrayList<>();
        Map<String, String> seqs = new HashMap<>();
        StringBuilder fa = new StringBuilder();
        for (int i = 0; i < 8; i++) {
            int start = rng.nextInt(20000), len = 1000 + rng.nextInt(9000);
            String r = noisy(rng, genome.substring(start, Math.min(genome.length(), start + len)));
            if (rng.nextBoolean()) {
                r = revcomp(r);
            }
            names.add("r" + i);
            seqs.put("r" + i, r);
            fa.append(">r").append(i).append(" read ").append(i).append('\n').append(r).append('\n');
        }
        StringBuilder tsv = new StringBuilder(), in = new StringBuilder();
        in.append(match).append(' ').append(mismatch).append(' ').append(gap).append(' ').append(x).append('\n');
        int id = 0;
        for (String a : names) {
            for (String b : names) {
                for (boolean rev : new boolean[] {false, true}) {
                    String q = seqs.get(a), t = seqs.get(b), tt = rev ? revcomp(t) : t;
                    // a few shared 17-mers (true or repeat seeds) and a random one
                    Map<String, Integer> kmers = new HashMap<>();
                    for (int i = 0; i + 17 <= tt.length(); i += 5) {
                        kmers.putIfAbsent(tt.substring(i, i + 17), i);
                    }
                    int found = 0;
                    for (int i = 0; i + 17 <= q.length() && found < 2; i += 97) {
                        Integer j = kmers.get(q.substring(i, i + 17));
                        if (j != null && !(a.equals(b) && !rev && i == j)) {
                            found++;
                            add(tsv, in, "k" + id++, a, q, i, b, t, j, 17, rev);
                        }
                    }
                    add(tsv, in, "z" + id++, a, q, rng.nextInt(q.length() - 10), b, t, rng.nextInt(t.length() - 10),
                        rng.nextInt(10), rev);
                }
            }
        }
        Path faFile = write(dir, "reads.fa", fa.toString());
        Path seedFile = write(dir, "seeds.tsv", tsv.toString());
        Path oin = write(dir, "oracle.in", in.toString());
        Process p = new ProcessBuilder(oracle).redirectInput(oin.toFile()).start();
        List<String> want;
        try (InputStream o = p.getInputStream()) {
            want = List.of(new String(o.readAllBytes(), StandardCharsets.US_ASCII).split("\n"));
        }
        assertEquals(0, p.waitFor(), "oracle failed");
        Cli.Result r = Cli.run("xdrop", "--xdrop", "" + x, "--match", "" + match, "--mismatch", "" + mismatch,
            "--gap", "" + gap, "--threads", "2", faFile.toString(), seedFile.toString());
        assertEquals(ExitCodes.OK, r.rc(), r.toString());
        String[] got = r.lines();
        assertEquals(HEADER, got[0]);
        assertEquals(want.size(), got.length - 1);
        for (int i = 0; i < want.size(); i++) {
            String row = got[i + 1].substring(got[i + 1].indexOf('\t') + 1).replace('\t', ' ');
            assertEquals(want.get(i), row, "seed row " + (i + 1));
        }
    }

    static void add(StringBuilder tsv, StringBuilder in, String id, String a, String q, int qpos, String b, String t,
        int tpos, int len, boolean rev) {
        tsv.append(id).append('\t').append(a).append('\t').append(qpos).append('\t').append(b).append('\t').append(tpos)
            .append('\t').append(len).append('\t').append(rev ? '-' : '+').append('\n');
        in.append(q).append(' ').append(t).append(' ').append(qpos).append(' ').append(tpos).append(' ').append(len)
            .append(' ').append(rev ? '-' : '+').append('\n');
    }

    @ParameterizedTest
    @CsvSource(delimiter = '|', value = {
        ">a\\nACGT\\n>b\\nACGT\\n | s\\ta\\t0\\tc\\t0\\t2\\t+ | seeds.tsv line 1, field target: unknown sequence name 'c'",
        ">a\\nACGT\\n>b\\nACGT\\n | s\\ta\\t3\\tb\\t0\\t2\\t+ | seeds.tsv line 1, field qpos: seed 3..5 runs past the end",
        ">a\\nACGT\\n>b\\nACGT\\n | s\\ta\\t-1\\tb\\t0\\t2\\t+ | seeds.tsv line 1, field qpos: -1 is negative",
        ">a\\nACGT\\n>b\\nACGT\\n | s\\ta\\t0\\tb\\tx\\t2\\t+ | seeds.tsv line 1, field tpos: 'x' is not an integer",
        ">a\\nACGT\\n>b\\nACGT\\n | s\\ta\\t0\\tb\\t0\\t2\\t* | seeds.tsv line 1, field strand: '*' must be + or -",
        ">a\\nACGT\\n>b\\nACGT\\n | s\\ta\\t0\\tb\\t0\\t2 | seeds.tsv line 1: expected 7 tab-separated fields",
        ">a\\nACGT\\n>a x\\nACGT\\n | s\\ta\\t0\\ta\\t0\\t2\\t+ | reads.fa line 3, field name: duplicate name 'a' (first on line 1)",
        ">a\\nAC-T\\n | s\\ta\\t0\\ta\\t0\\t2\\t+ | reads.fa line 2, field sequence: character 45 at column 3 is not a letter",
        ">a\\n>b\\nACGT\\n | s\\ta\\t0\\tb\\t0\\t2\\t+ | reads.fa line 1, field sequence: sequence 'a' is empty",
        "ACGT\\n | s\\ta\\t0\\ta\\t0\\t2\\t+ | reads.fa line 1, field sequence: sequence data before the first"})
    void badInputExitsTwoNamingFileLineField(String fa, String seeds, String message, @TempDir Path dir)
        throws IOException {
        Path f = write(dir, "reads.fa", fa.replace("\\n", "\n"));
        Path s = write(dir, "seeds.tsv", seeds.replace("\\t", "\t") + "\n");
        Cli.Result r = Cli.run("xdrop", "--xdrop", "10", f.toString(), s.toString());
        assertEquals(ExitCodes.BAD_INPUT, r.rc(), r.toString());
        assertEquals("", r.out());
        assertTrue(r.err().contains(message), r.toString());
    }

    @Test
    void badOptionsExitTwo(@TempDir Path dir) throws IOException {
        Path f = write(dir, "reads.fa", ">a\nACGT\n");
        Path s = write(dir, "seeds.tsv", "s\ta\t0\ta\t0\t2\t+\n");
        for (String[] args : new String[][] {{"--xdrop", "-1"}, {"--xdrop", "10", "--gap", "0"},
            {"--xdrop", "10", "--mismatch", "-1001"}, {"--xdrop", "10", "--match", "0"}}) {
            List<String> a = new ArrayList<>(List.of("xdrop"));
            a.addAll(List.of(args));
            a.add(f.toString());
            a.add(s.toString());
            Cli.Result r = Cli.run(a.toArray(new String[0]));
            assertEquals(ExitCodes.BAD_INPUT, r.rc(), r.toString());
            assertEquals("", r.out());
        }
        Cli.Result gpu = Cli.run("xdrop", "--xdrop", "10", "--backend", "gpu", f.toString(), s.toString());
        assertTrue(gpu.rc() != ExitCodes.OK, gpu.toString());
        assertEquals("", gpu.out());
    }
}
