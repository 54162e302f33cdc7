package org.dpaccel.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;

import org.broadinstitute.gatk.nativebindings.smithwaterman.SWNativeAlignerResult;
import org.broadinstitute.gatk.nativebindings.smithwaterman.SWOverhangStrategy;
import org.broadinstitute.gatk.nativebindings.smithwaterman.SWParameters;
import org.dpaccel.gatk.DpaSmithWaterman;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/** {@code dpaccel sw}: output equals the GATK binding's CIGARs and offsets; bad files exit 2. */
class SwCommandTest {
    /** ref/alt pairs of a TSV, skipping what the command skips. */
    static List<String[]> pairs(Path tsv) throws IOException {
        List<String[]> out = new ArrayList<>();
        for (String l : Files.readAllLines(tsv, StandardCharsets.ISO_8859_1)) {
            if (!l.isBlank() && !l.startsWith("#")) {
                out.add(l.split("\t"));
            }
        }
        return out;
    }

    /** "offset\tcigar" per pair from org.dpaccel.gatk.DpaSmithWaterman, the binding GATK calls. */
    static List<String> binding(List<String[]> pairs, SWParameters p, SWOverhangStrategy s) {
        DpaSmithWaterman b = new DpaSmithWaterman();
        assertTrue(b.load(null));
        List<String> out = new ArrayList<>();
        try {
            for (String[] pr : pairs) {
                SWNativeAlignerResult r = b.align(pr[0].getBytes(StandardCharsets.ISO_8859_1),
                    pr[1].getBytes(StandardCharsets.ISO_8859_1), p, s);
                out.add(r.alignment_offset + "\t" + r.cigar);
            }
        } finally {
            b.close();
        }
        return out;
    }

    @ParameterizedTest
    @CsvSource({"NEW_SW_PARAMETERS, 200, -150, -260, -11", "ALIGNMENT_TO_BEST_HAPLOTYPE_SW_PARAMETERS, 10, -15, -30, -5",
        "STANDARD_NGS, 25, -50, -110, -6", "ORIGINAL_DEFAULT, 3, -1, -4, -3"})
    void everySetAndStrategyMatchesTheBinding(String set, int match, int mismatch, int open, int extend,
        @TempDir Path dir) throws IOException {
        Path in = Cli.resource(dir, "pairs.tsv");
        List<String[]> pairs = pairs(in);
        for (SWOverhangStrategy s : SWOverhangStrategy.values()) {
            String name = s.name().toLowerCase().replace('_', '-');
            Cli.Result r = Cli.run("sw", "--params", set, "--strategy", name, in.toString());
            assertEquals(ExitCodes.OK, r.rc(), r.toString());
            assertEquals(binding(pairs, new SWParameters(match, mismatch, open, extend), s), List.of(r.lines()),
                set + " " + name);
        }
    }

    @Test
    void overridesReplaceSingleScores(@TempDir Path dir) throws IOException {
        Path in = Cli.resource(dir, "pairs.tsv");
        Cli.Result r = Cli.run("sw", "--parameters", "original_default", "--match", "5", "--gap-open", "-7",
            "--strategy", "INDEL", in.toString());
        assertEquals(ExitCodes.OK, r.rc(), r.toString());
        assertEquals(binding(pairs(in), new SWParameters(5, -1, -7, -3), SWOverhangStrategy.INDEL), List.of(r.lines()));
    }

    @Test
    void randomPairsOnEveryBackendOptionMatchTheBinding(@TempDir Path dir) throws IOException {
        Random rnd = new Random(20241125);
        StringBuilder sb = new StringBuilder("# random haplotype-like pairs\n");
        for (int i = 0; i < 300; i++) {
            String ref = randomBases(rnd, 20 + rnd.nextInt(300));
            sb.append(ref).append('\t').append(mutate(rnd, ref)).append('\n');
        }
        Path in = dir.resolve("random.tsv");
        Files.writeString(in, sb.toString());
        List<String> want = binding(pairs(in), new SWParameters(200, -150, -260, -11), SWOverhangStrategy.SOFTCLIP);
        for (String backend : new String[] {"auto", "cpu", "hybrid"}) {
            Path out = dir.resolve("out-" + backend + ".tsv");
            Cli.Result r = Cli.run("sw", "--backend", backend, "--threads", "2", "-o", out.toString(), in.toString());
            if (backend.equals("hybrid") && r.rc() == ExitCodes.INTERNAL) {
                continue; // no GPU on this machine: hybrid needs one
            }
            assertEquals(ExitCodes.OK, r.rc(), r.toString());
            assertEquals(want, Files.readAllLines(out), backend);
        }
    }

    @Test
    void wrongFieldCountNamesTheLine(@TempDir Path dir) throws IOException {
        Path in = Cli.resource(dir, "bad-fields.tsv");
        Path out = dir.resolve("out.tsv");
        Cli.Result r = Cli.run("sw", "-o", out.toString(), in.toString());
        assertEquals(ExitCodes.BAD_INPUT, r.rc(), r.toString());
        assertTrue(r.err().contains("bad-fields.tsv line 3: expected 2 tab-separated fields (ref, alt), found 3"),
            r.toString());
        assertFalse(Files.exists(out));
        assertEquals(0, Cli.strayFiles(dir, in));
    }

    @Test
    void emptyAltNamesLineAndField(@TempDir Path dir) throws IOException {
        Path in = Cli.resource(dir, "bad-empty.tsv");
        Cli.Result r = Cli.run("sw", in.toString());
        assertEquals(ExitCodes.BAD_INPUT, r.rc(), r.toString());
        assertTrue(r.err().contains("bad-empty.tsv line 2, field alt: is empty"), r.toString());
        assertEquals("", r.out(), "nothing on stdout when the input is bad");
    }

    @Test
    void scoreOverflowNamesTheLine(@TempDir Path dir) throws IOException {
        Path in = dir.resolve("long.tsv");
        Files.writeString(in, "ACGT\tACGT\n" + "A".repeat(60000) + "\t" + "A".repeat(60000) + "\n");
        Cli.Result r = Cli.run("sw", "--match", "10000", in.toString());
        assertEquals(ExitCodes.BAD_INPUT, r.rc(), r.toString());
        assertTrue(r.err().contains("long.tsv line 2, field alt: "), r.toString());
    }

    private static String randomBases(Random rnd, int n) {
        StringBuilder sb = new StringBuilder(n);
        for (int i = 0; i < n; i++) {
            sb.append("ACGT".charAt(rnd.nextInt(4)));
        }
        return sb.toString();
    }

    /** Substitutions, small indels and overhanging ends, as in haplotypes against a reference window. */
    private static String mutate(Random rnd, String ref) {
        StringBuilder sb = new StringBuilder();
        int start = rnd.nextInt(Math.max(1, ref.length() / 4)), end = ref.length() - rnd.nextInt(Math.max(1, ref.length() / 4));
        if (rnd.nextBoolean()) {
            sb.append(randomBases(rnd, rnd.nextInt(6)));
        }
        for (int i = start; i < end; i++) {
            int e = rnd.nextInt(100);
            if (e < 3) {
                sb.append("ACGT".charAt(rnd.nextInt(4)));
            } else if (e < 5) {
                sb.append(ref.charAt(i)).append(randomBases(rnd, 1 + rnd.nextInt(4)));
            } else if (e < 7) {
                i += rnd.nextInt(4);
            } else {
                sb.append(ref.charAt(i));
            }
        }
        if (sb.length() == 0) {
            sb.append('A');
        }
        return sb.toString();
    }
}
