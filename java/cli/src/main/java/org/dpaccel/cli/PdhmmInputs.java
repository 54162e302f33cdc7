package org.dpaccel.cli;

import java.io.BufferedReader;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;

import org.dpaccel.bench.data.InputFormatException;
import org.dpaccel.pdhmm.PdhmmBatch;

/**
 * The reader of {@code dpaccel pdhmm}: GKL 0.9.1's PDHMM test-vector format (test-data/pdhmm,
 * docs/cli.md). Tab-separated: haplotype bases, PD bytes as a signed decimal list
 * ({@code [-68, 16]}), read bases, then base, insertion, deletion and gap-continuation qualities
 * as phred+33 strings, and optionally GKL's expected log10 likelihood. Lines starting with
 * {@code #} (GKL's header) and empty lines are skipped. Every problem is an
 * {@link InputFormatException} naming the file, the line and the column, found before any work.
 */
final class PdhmmInputs {
    /** Column names, as GKL's header spells them. */
    static final String[] COLUMNS = { "hap-bases", "hap-pd-bases", "read-bases", "read-qual", "read-ins-qual",
        "read-del-qual", "gcp", "expected-result" };

    private PdhmmInputs() {
    }

    /** One pair: the seven arrays Pdhmm takes, the expected value (NaN when absent) and its line. */
    record Pair(byte[] hap, byte[] pd, byte[] read, byte[] qual, byte[] ins, byte[] del, byte[] gcp, double expected,
        int line) {
    }

    /**
     * Reads every pair.
     *
     * @param in the text
     * @param source the file name for messages
     * @param needExpected whether the 8th column is required (--check)
     * @return the pairs in file order
     * @throws InputFormatException on the first bad line
     */
    static List<Pair> read(BufferedReader in, String source, boolean needExpected) throws IOException {
        List<Pair> out = new ArrayList<>();
        int columns = -1;
        String line;
        for (int ln = 1; (line = in.readLine()) != null; ln++) {
            if (line.isEmpty() || line.startsWith("#")) {
                continue;
            }
            String[] c = line.split("\t", -1);
            if (c.length != 7 && c.length != 8) {
                throw new InputFormatException(source, ln, null, c.length + " tab-separated columns, expected 7 or 8 ("
                    + String.join(" ", COLUMNS) + ")");
            }
            if (columns >= 0 && c.length != columns) {
                throw new InputFormatException(source, ln, null, c.length + " columns, earlier lines have " + columns);
            }
            columns = c.length;
            if (needExpected && c.length != 8) {
                throw new InputFormatException(source, ln, COLUMNS[7], "--check needs the 8th column (GKL's expected "
                    + "log10 likelihood)");
            }
            byte[] hap = bases(c[0], source, ln, 0);
            byte[] pd = pdBytes(c[1], source, ln);
            if (pd.length != hap.length) {
                throw new InputFormatException(source, ln, COLUMNS[1], pd.length + " PD bytes, " + COLUMNS[0] + " has "
                    + hap.length + " bases");
            }
            byte[] read = bases(c[2], source, ln, 2);
            byte[][] q = new byte[4][];
            for (int k = 0; k < 4; k++) {
                q[k] = phred(c[3 + k], read.length, source, ln, 3 + k);
            }
            double expected = Double.NaN;
            if (c.length == 8) {
                expected = expected(c[7], source, ln);
            }
            out.add(new Pair(hap, pd, read, q[0], q[1], q[2], q[3], expected, ln));
        }
        if (out.isEmpty()) {
            throw new InputFormatException(source, 0, null, "no pairs (every line is empty or a # comment)");
        }
        return out;
    }

    private static byte[] bases(String s, String source, int ln, int col) throws InputFormatException {
        if (s.isEmpty() || s.length() > PdhmmBatch.MAX_LENGTH) {
            throw new InputFormatException(source, ln, COLUMNS[col], "length " + s.length() + ", must be in [1, "
                + PdhmmBatch.MAX_LENGTH + "]");
        }
        byte[] b = new byte[s.length()];
        for (int i = 0; i < b.length; i++) {
            char ch = s.charAt(i);
            // GATK's bytes are letters; anything printable passes here and the native check
            // applies GATK's one base rule (SNP positions)
            if (ch < 33 || ch > 126) {
                throw new InputFormatException(source, ln, COLUMNS[col], "character " + (int) ch + " at position "
                    + (i + 1) + " is not a printable ASCII base");
            }
            b[i] = (byte) ch;
        }
        return b;
    }

    private static byte[] pdBytes(String s, String source, int ln) throws InputFormatException {
        String t = s.strip();
        if (t.length() < 2 || t.charAt(0) != '[' || t.charAt(t.length() - 1) != ']') {
            throw new InputFormatException(source, ln, COLUMNS[1], "'" + abbrev(s) + "' is not a list like [-68, 16]");
        }
        String body = t.substring(1, t.length() - 1).strip();
        if (body.isEmpty()) {
            return new byte[0];
        }
        String[] f = body.split(",", -1);
        byte[] pd = new byte[f.length];
        for (int j = 0; j < f.length; j++) {
            String v = f[j].strip();
            int x;
            try {
                x = Integer.parseInt(v);
            } catch (NumberFormatException e) {
                throw new InputFormatException(source, ln, COLUMNS[1], "element " + (j + 1) + " '" + abbrev(v)
                    + "' is not an integer");
            }
            // GKL prints Java's signed bytes; 128..255 is the same byte written unsigned
            if (x < -128 || x > 255) {
                throw new InputFormatException(source, ln, COLUMNS[1], "element " + (j + 1) + " = " + x
                    + " is outside a byte [-128, 255]");
            }
            pd[j] = (byte) x;
        }
        return pd;
    }

    private static byte[] phred(String s, int readLength, String source, int ln, int col) throws InputFormatException {
        if (s.length() != readLength) {
            throw new InputFormatException(source, ln, COLUMNS[col], s.length() + " characters, " + COLUMNS[2]
                + " has " + readLength);
        }
        byte[] q = new byte[s.length()];
        for (int i = 0; i < q.length; i++) {
            int v = s.charAt(i) - 33;
            if (v < 0 || v > 127) {
                throw new InputFormatException(source, ln, COLUMNS[col], "character " + (int) s.charAt(i)
                    + " at position " + (i + 1) + " is phred " + v + ", must be in [0, 127] (phred+33)");
            }
            q[i] = (byte) v;
        }
        return q;
    }

    private static double expected(String s, String source, int ln) throws InputFormatException {
        double v;
        try {
            v = Double.parseDouble(s.strip());
        } catch (NumberFormatException e) {
            throw new InputFormatException(source, ln, COLUMNS[7], "'" + abbrev(s) + "' is not a number");
        }
        if (Double.isNaN(v) || v == Double.POSITIVE_INFINITY) {
            throw new InputFormatException(source, ln, COLUMNS[7], s.strip() + " is not a log10 likelihood");
        }
        return v;
    }

    private static String abbrev(String s) {
        return s.length() <= 40 ? s : s.substring(0, 37) + "...";
    }
}
