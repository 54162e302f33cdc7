package org.dpaccel.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * {@code dpaccel papara}: rows derived by hand (the same small case papara_core 2.5 gives in the
 * native oracle test), the side files, and every bad input (exit 2, nothing on stdout, the file,
 * line or item in the message).
 */
class PaparaCommandTest {
    static final String HEADER = "#read\tread_len\tbest_score\tbest_split\tn_tied\tref_start\tcigar";

    static Path write(Path dir, String name, String text) throws IOException {
        Path p = dir.resolve(name);
        Files.writeString(p, text, StandardCharsets.US_ASCII);
        return p;
    }

    // papara_core 2.5 on these files (prob model) gives scores r1: 9 9 9 12 9, r2: 6 6 6 9 8
    // over its edges {C,D} {C} {D} {A|B,C,D} {B}; best r1 12 at edge 3, r2 9 at edge 3.
    static final String TREE = "((A:0.1,B:0.2):0.3,(C:0.1,D:0.4):0.2);\n";
    static final String PHY = "4 8\nA ACGTAC-T\nB ACGTNCGT\nC AC-TACG-\nD ACGAAC-T\n";
    static final String READS = ">r1\nACGTAC\n>r2\nGTACGT\n";

    @Test
    void bestScoresMatrixAndProfiles(@TempDir Path dir) throws IOException {
        Path t = write(dir, "t.nwk", TREE);
        Path a = write(dir, "a.phy", PHY);
        Path q = write(dir, "q.fa", READS);
        Path scores = dir.resolve("scores.tsv");
        Path profiles = dir.resolve("profiles.tsv");
        Cli.Result r = Cli.run("papara", "--tree", t.toString(), "--ref", a.toString(), "--reads", q.toString(),
            "--scores", scores.toString(), "--profiles", profiles.toString());
        assertEquals(ExitCodes.OK, r.rc(), r.toString());
        // edge 3's profile is ACGTACGT with site 6 flagged: r1 matches sites 0-5 (6 x 2), r2 sites 2-7
        // (5 x 2 + the flagged site's 2 - 3)
        assertEquals(List.of(HEADER, "r1\t6\t12\tB,C,D\t1\t0\t6M", "r2\t6\t9\tB,C,D\t1\t2\t6M"),
            List.of(r.lines()));
        assertEquals(List.of("read\tC,D\tC\tD\tB,C,D\tB", "r1\t9\t9\t9\t12\t9", "r2\t6\t6\t6\t9\t8"),
            Files.readAllLines(scores));
        List<String> p = Files.readAllLines(profiles);
        assertEquals("#edge\tsplit\tstates\tcgap", p.get(0));
        assertEquals("0\tC,D\tACGTACGT\t00100011", p.get(1));
        assertEquals("2\tD\tACGWACGT\t00100011", p.get(3));
    }

    @Test
    void outDirWritesBestAndAlignment(@TempDir Path dir) throws IOException {
        Path out = dir.resolve("o");
        Cli.Result r = Cli.run("papara", "--tree", write(dir, "t.nwk", TREE).toString(), "--ref",
            write(dir, "a.phy", PHY).toString(), "--reads", write(dir, "q.fa", READS).toString(), "--out",
            out.toString(), "--scores");
        assertEquals(ExitCodes.OK, r.rc(), r.toString());
        assertEquals("", r.out());
        assertEquals(List.of(HEADER, "r1\t6\t12\tB,C,D\t1\t0\t6M", "r2\t6\t9\tB,C,D\t1\t2\t6M"),
            Files.readAllLines(out.resolve("best.tsv")));
        // no insertions: the tree rows as written, the reads over the sites they cover, names padded
        // to 1 + the longest (PaPaRa's papara_alignment layout)
        assertEquals("6 8\nA  ACGTAC-T\nB  ACGTNCGT\nC  AC-TACG-\nD  ACGAAC-T\nr1 ACGTAC--\nr2 --GTACGT\n",
            Files.readString(out.resolve("alignment.phy")));
        assertTrue(Files.exists(out.resolve("scores.tsv")));
        assertEquals(0, Cli.strayFiles(out, out.resolve("best.tsv"), out.resolve("alignment.phy"),
            out.resolve("scores.tsv")));
    }

    @Test
    void paper2012ScoresWithoutTraceback(@TempDir Path dir) throws IOException {
        // edge 3's profile ACGTACGT, site 6 flagged: r1 ACGTAC matches sites 0-5 at cost 0 (band 2);
        // r2 GTACGT on sites 2-7 would pay CG = 3 on site 6, on sites 0-5 four mismatches: 3 it is
        Path out = dir.resolve("o");
        Cli.Result r = Cli.run("papara", "--tree", write(dir, "t.nwk", TREE).toString(), "--ref",
            write(dir, "a.phy", PHY).toString(), "--reads", write(dir, "q.fa", READS).toString(), "--out",
            out.toString(), "--score-model", "paper2012", "--scores");
        assertEquals(ExitCodes.OK, r.rc(), r.toString());
        List<String> best = Files.readAllLines(out.resolve("best.tsv"));
        assertEquals(HEADER, best.get(0));
        assertTrue(best.get(1).startsWith("r1\t6\t0\t"), best.get(1));
        assertTrue(best.get(1).endsWith("\t-\t-"), best.get(1));
        assertEquals("3", best.get(2).split("\t")[2], best.get(2));
        assertTrue(!Files.exists(out.resolve("alignment.phy")));
        Cli.Result bad = Cli.run("papara-score", "--profiles", out.resolve("best.tsv").toString(), "--reads",
            dir.resolve("q.fa").toString(), "--score-model", "paper3");
        assertEquals(ExitCodes.BAD_INPUT, bad.rc(), bad.toString());
        assertTrue(bad.err().contains("--score-model: score model 'paper3' is not papara2 or paper2012"), bad.err());
    }

    @Test
    void sideFileWithoutNameNeedsOut(@TempDir Path dir) throws IOException {
        Cli.Result r = Cli.run("papara", "--tree", write(dir, "t.nwk", TREE).toString(), "--ref",
            write(dir, "a.phy", PHY).toString(), "--reads", write(dir, "q.fa", READS).toString(), "--scores");
        assertEquals(ExitCodes.BAD_INPUT, r.rc(), r.toString());
        assertTrue(r.err().contains("--scores without FILE needs --out DIR"), r.err());
    }

    @Test
    void scoreGivenProfiles(@TempDir Path dir) throws IOException {
        // the profiles of bestScoresMatrixAndProfiles, scored without the tree: the same matrix
        Path p = write(dir, "p.tsv", "#edge\tsplit\tstates\tcgap\n0\tC,D\tACGTACGT\t00100011\n"
            + "1\tB,C,D\tACGTACGT\t00000010\n");
        Path s = dir.resolve("s.tsv");
        Cli.Result r = Cli.run("papara-score", "--profiles", p.toString(), "--reads", write(dir, "q.fa", READS)
            .toString(), "--out", s.toString());
        assertEquals(ExitCodes.OK, r.rc(), r.toString());
        assertEquals(List.of("read\tC,D\tB,C,D", "r1\t9\t12", "r2\t6\t9"), Files.readAllLines(s));
    }

    @ParameterizedTest
    @CsvSource(delimiter = '|', quoteCharacter = '\"', value = {
        "#edge split states cgap\\n|p.tsv line 1: expected the header",
        "#edge\tsplit\tstates\tcgap\\n0\tA\tACGT\\n|p.tsv line 2: 3 tab-separated fields",
        "#edge\tsplit\tstates\tcgap\\n1\tA\tACGT\t0000\\n|p.tsv line 2: field 'edge' = '1', expected 0",
        "#edge\tsplit\tstates\tcgap\\n0\tA\tACXT\t0000\\n|p.tsv line 2: field 'states' site 3: 'X'",
        "#edge\tsplit\tstates\tcgap\\n0\tA\tACGT\t0020\\n|p.tsv line 2: field 'cgap' site 3: '2'",
        "#edge\tsplit\tstates\tcgap\\n0\tA\tACGT\t000\\n|p.tsv line 2: field 'cgap' has 3 flags for 4",
        "#edge\tsplit\tstates\tcgap\\n0\tA\tACGT\t0000\\n1\tB\tACG\t000\\n|p.tsv line 3: field 'states' has 3",
        "#edge\tsplit\tstates\tcgap\\n0\t\tACGT\t0000\\n|p.tsv line 2: field 'split' is empty",
        "#edge\tsplit\tstates\tcgap\\n|p.tsv: no profiles after the header",
    })
    void badProfiles(String text, String message, @TempDir Path dir) throws IOException {
        Path s = dir.resolve("s.tsv");
        Cli.Result r = Cli.run("papara-score", "--profiles", write(dir, "p.tsv", text.replace("\\n", "\n"))
            .toString(), "--reads", write(dir, "q.fa", READS).toString(), "--out", s.toString());
        assertEquals(ExitCodes.BAD_INPUT, r.rc(), r.toString());
        assertTrue(r.err().contains(message), r.err());
        assertTrue(!Files.exists(s));
    }

    @ParameterizedTest
    @CsvSource(delimiter = '|', quoteCharacter = '\"', value = {
        "((A,B,C),D,E);|t.nwk line 1: inner node with 3 children: the tree must be binary",
        "((A,B),(C,X));|tree taxon 'X' has no row",
        "((A,B),(C,D);|t.nwk line 1: expected",
    })
    void badTrees(String tree, String message, @TempDir Path dir) throws IOException {
        Cli.Result r = Cli.run("papara", "--tree", write(dir, "t.nwk", tree + "\n").toString(), "--ref",
            write(dir, "a.phy", PHY).toString(), "--reads", write(dir, "q.fa", READS).toString());
        assertEquals(ExitCodes.BAD_INPUT, r.rc(), r.toString());
        assertEquals("", r.out());
        assertTrue(r.err().contains(message), r.err());
    }

    @ParameterizedTest
    @CsvSource(delimiter = '|', quoteCharacter = '\"', value = {
        "4 8\\nA ACGTAC-T\\nB ACGTNCGT\\nC AC-TACG\\nD ACGAAC-T\\n|row 3 ('C') has 7 characters",
        "4 8\\nA ACGTAC-T\\nB ACGTNCGT\\nC AC-TACG-\\nD ACGXAC-T\\n|alignment row 4 (tree node 6) column 4",
    })
    void badAlignments(String phy, String message, @TempDir Path dir) throws IOException {
        Cli.Result r = Cli.run("papara", "--tree", write(dir, "t.nwk", TREE).toString(), "--ref",
            write(dir, "a.phy", phy.replace("\\n", "\n")).toString(), "--reads", write(dir, "q.fa", READS).toString());
        assertEquals(ExitCodes.BAD_INPUT, r.rc(), r.toString());
        assertTrue(r.err().contains(message), r.err());
    }

    @ParameterizedTest
    @CsvSource(delimiter = '|', quoteCharacter = '\"', value = {
        ">r1\\nACGX\\n|q.fa line 2: read 'r1' base 4",
        ">r1\\nNN-?\\n|read 'r1' has no base left to align",
    })
    void badReads(String fa, String message, @TempDir Path dir) throws IOException {
        Cli.Result r = Cli.run("papara", "--tree", write(dir, "t.nwk", TREE).toString(), "--ref",
            write(dir, "a.phy", PHY).toString(), "--reads", write(dir, "q.fa", fa.replace("\\n", "\n")).toString());
        assertEquals(ExitCodes.BAD_INPUT, r.rc(), r.toString());
        assertTrue(r.err().contains(message), r.err());
    }

    @Test
    void badScoring(@TempDir Path dir) throws IOException {
        Cli.Result r = Cli.run("papara", "--tree", write(dir, "t.nwk", TREE).toString(), "--ref",
            write(dir, "a.phy", PHY).toString(), "--reads", write(dir, "q.fa", READS).toString(), "--scoring",
            "-3:-1:3:-3");
        assertEquals(ExitCodes.BAD_INPUT, r.rc(), r.toString());
        assertTrue(r.err().contains("match + matchCgap"), r.err());
    }
}
