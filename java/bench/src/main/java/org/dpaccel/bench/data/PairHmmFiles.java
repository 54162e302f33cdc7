package org.dpaccel.bench.data;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.StringReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * Readers for the two public PairHMM text formats, detected from the first data line.
 * <ul>
 * <li>Group format ({@code *.in}, MauricioCarneiro/PairHMM): a line {@code R H}, then R read
 * lines {@code bases quals ins del gcp} (phred+33), then H haplotype lines; repeated.</li>
 * <li>7-column format (GKL {@code pairhmm-testdata.txt}): {@code hap read quals ins del gcp
 * expected} per line, phred+33, {@code #} lines are comments; every line becomes its own
 * 1 x 1 region carrying the expected value.</li>
 * </ul>
 * Base qualities below 6 are raised to 6, as GATK does before it calls native code;
 * {@link Parsed#flooredQuals()} counts them.
 */
public final class PairHmmFiles {
    /** GATK's floor for base qualities (QualityUtils / PairHMM.MIN_USABLE_Q_SCORE). */
    public static final int BASE_QUAL_FLOOR = 6;
    /** Column names of the 7-column format, as GKL's file header spells them. */
    public static final String SEVEN_COLUMNS = "hap-bases read-bases read-qual read-ins-qual read-del-qual gcp "
        + "expected-result";

    private PairHmmFiles() {
    }

    public record Parsed(List<Region> regions, String format, long flooredQuals) {
    }

    public static Dataset read(Path file) throws IOException {
        Parsed p;
        try (BufferedReader in = Files.newBufferedReader(file, StandardCharsets.ISO_8859_1)) {
            p = parse(in, file.toString());
        }
        String desc = file.getFileName() + " (" + p.format() + ", " + p.regions().size() + " regions"
            + (p.flooredQuals() > 0 ? ", " + p.flooredQuals() + " base quals floored at 6" : "") + ")";
        return new Dataset("file:" + file.getFileName(), desc, p.regions(), true);
    }

    public static Parsed parse(String text) throws IOException {
        return parse(new BufferedReader(new StringReader(text)), "<text>");
    }

    public static Parsed parse(BufferedReader in, String source) throws IOException {
        List<String> lines = new ArrayList<>();
        for (String l; (l = in.readLine()) != null;) {
            lines.add(l);
        }
        int first = 0;
        while (first < lines.size() && (lines.get(first).isBlank() || lines.get(first).startsWith("#"))) {
            first++;
        }
        if (first == lines.size()) {
            throw new InputFormatException(source, Math.max(1, lines.size()), null, "no data lines");
        }
        String[] t = lines.get(first).trim().split("\\s+");
        if (t.length == 2 && t[0].matches("\\d+") && t[1].matches("\\d+")) {
            return parseGroups(lines, first, source);
        }
        if (t.length == 7) {
            return parseSeven(lines, source);
        }
        throw new InputFormatException(source, first + 1, null, "expected an 'R H' header (group format) or 7 "
            + "columns (hap read quals ins del gcp expected), found " + t.length + " fields");
    }

    /** A group header count: a non-negative int, else an IOException naming the line. */
    private static int count(String text, String what, String source, int line) throws IOException {
        try {
            int v = Integer.parseInt(text);
            if (v >= 0) {
                return v;
            }
        } catch (NumberFormatException e) {
            // reported below with the line
        }
        throw new InputFormatException(source, line, what, "must be a count in [0, " + Integer.MAX_VALUE
            + "], found '" + text + "'");
    }

    private static Parsed parseGroups(List<String> lines, int i, String source) throws IOException {
        List<Region> regions = new ArrayList<>();
        long[] floored = {0};
        while (i < lines.size()) {
            String header = lines.get(i).trim();
            if (header.isEmpty()) {
                i++;
                continue;
            }
            String[] t = header.split("\\s+");
            if (t.length != 2) {
                throw new InputFormatException(source, i + 1, null, "expected a group header 'R H', found '" + header
                    + "'");
            }
            int nr = count(t[0], "R", source, i + 1), nh = count(t[1], "H", source, i + 1);
            i++;
            if (i + nr + nh > lines.size()) {
                throw new InputFormatException(source, i, null, "group of " + nr + " reads and " + nh
                    + " haplotypes runs past the end of the file (" + (lines.size() - i) + " lines left)");
            }
            List<Read> reads = new ArrayList<>(nr);
            for (int r = 0; r < nr; r++, i++) {
                String[] f = lines.get(i).trim().split("\\s+");
                if (f.length != 5) {
                    throw new InputFormatException(source, i + 1, null, "expected a read line of 5 fields (bases quals "
                        + "ins del gcp), found " + f.length);
                }
                reads.add(read(f[0], f[1], f[2], f[3], f[4], floored, source, i + 1));
            }
            List<byte[]> haps = new ArrayList<>(nh);
            for (int h = 0; h < nh; h++, i++) {
                haps.add(haplotype(lines.get(i).trim(), source, i + 1));
            }
            regions.add(new Region(reads, haps));
        }
        return new Parsed(regions, "R H group format", floored[0]);
    }

    private static Parsed parseSeven(List<String> lines, String source) throws IOException {
        List<Region> regions = new ArrayList<>();
        long[] floored = {0};
        for (int i = 0; i < lines.size(); i++) {
            String l = lines.get(i).trim();
            if (l.isEmpty() || l.startsWith("#")) {
                continue;
            }
            String[] f = l.split("\\s+");
            if (f.length != 7) {
                throw new InputFormatException(source, i + 1, null, "expected 7 fields (" + SEVEN_COLUMNS + "), found "
                    + f.length);
            }
            Read r = read(f[1], f[2], f[3], f[4], f[5], floored, source, i + 1);
            double expected;
            try {
                expected = Double.parseDouble(f[6]);
            } catch (NumberFormatException e) {
                expected = Double.NaN;
            }
            if (!Double.isFinite(expected)) {
                throw new InputFormatException(source, i + 1, "expected-result", "'" + f[6] + "' is not a finite number");
            }
            regions.add(new Region(List.of(r), List.of(haplotype(f[0], source, i + 1)),
                new double[] {expected}));
        }
        return new Parsed(regions, "7-column hap/read/quals/expected format", floored[0]);
    }

    private static Read read(String bases, String q, String ins, String del, String gcp, long[] floored, String source,
        int line) throws IOException {
        int n = bases.length();
        String[][] quals = {{"read-qual", q}, {"read-ins-qual", ins}, {"read-del-qual", del}, {"gcp", gcp}};
        for (String[] f : quals) {
            if (f[1].length() != n) {
                throw new InputFormatException(source, line, f[0], "length " + f[1].length()
                    + " differs from the read length " + n);
            }
        }
        byte[] bq = phred33(q, source, line, "read-qual");
        for (int k = 0; k < n; k++) {
            if (bq[k] < BASE_QUAL_FLOOR) {
                bq[k] = BASE_QUAL_FLOOR;
                floored[0]++;
            }
        }
        return new Read(bases.getBytes(StandardCharsets.ISO_8859_1), bq, phred33(ins, source, line, "read-ins-qual"),
            phred33(del, source, line, "read-del-qual"), phred33(gcp, source, line, "gcp"));
    }

    /** A haplotype line: one token of bases. */
    private static byte[] haplotype(String text, String source, int line) throws IOException {
        if (text.isEmpty() || text.split("\\s+").length != 1) {
            throw new InputFormatException(source, line, "hap-bases", "expected one word of bases, found '" + text + "'");
        }
        return text.getBytes(StandardCharsets.ISO_8859_1);
    }

    /** Phred+33 ASCII to phred values; {@code field} names the column in errors. */
    public static byte[] phred33(String s, String source, int line, String field) throws IOException {
        byte[] b = new byte[s.length()];
        for (int k = 0; k < b.length; k++) {
            int v = s.charAt(k) - 33;
            if (v < 0 || v > 127) {
                throw new InputFormatException(source, line, field, "quality character '" + s.charAt(k)
                    + "' at position " + (k + 1) + " is outside phred+33 [0, 127]");
            }
            b[k] = (byte) v;
        }
        return b;
    }
}
