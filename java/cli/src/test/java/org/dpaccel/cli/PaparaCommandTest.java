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
    static final String HEADER = "#read\tread_len\tbest_score\tbest_split\tn_tied";

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
        assertEquals(List.of(HEADER, "r1\t6\t12\tB,C,D\t1", "r2\t6\t9\tB,C,D\t1"), List.of(r.lines()));
        assertEquals(List.of("read\tC,D\tC\tD\tB,C,D\tB", "r1\t9\t9\t9\t12\t9", "r2\t6\t6\t6\t9\t8"),
            Files.readAllLines(scores));
        List<String> p = Files.readAllLines(profiles);
        assertEquals("#edge\tsplit\tstates\tcgap", p.get(0));
        assertEquals("0\tC,D\tACGTACGT\t00100011", p.get(1));
        assertEquals("2\tD\tACGWACGT\t00100011", p.get(3));
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
