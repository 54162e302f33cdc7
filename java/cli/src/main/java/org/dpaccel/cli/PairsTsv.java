package org.dpaccel.cli;

import java.io.BufferedReader;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;

import org.dpaccel.bench.data.InputFormatException;
import org.dpaccel.sw.SwBatch;
import org.dpaccel.sw.SwParameters;

/**
 * Reader for {@code dpaccel sw}'s input: one {@code ref<TAB>alt} pair per line; blank lines and
 * lines starting with {@code #} are skipped. Every limit the aligner has is checked here, so a bad
 * pair is reported with its line and field before anything is aligned.
 */
final class PairsTsv {
    /** One pair and the line it came from. */
    record Pair(byte[] ref, byte[] alt, int line) {
    }

    private PairsTsv() {
    }

    static List<Pair> read(BufferedReader in, String source, SwParameters params) throws IOException {
        List<Pair> pairs = new ArrayList<>();
        int line = 0;
        for (String l; (l = in.readLine()) != null;) {
            line++;
            if (l.isBlank() || l.startsWith("#")) {
                continue;
            }
            String[] f = l.split("\t", -1);
            if (f.length != 2) {
                throw new InputFormatException(source, line, null, "expected 2 tab-separated fields (ref, alt), found "
                    + f.length);
            }
            byte[] ref = bases(f[0], source, line, "ref");
            byte[] alt = bases(f[1], source, line, "alt");
            long cells = (long) ref.length * alt.length;
            if (cells > SwBatch.MAX_CELLS) {
                throw new InputFormatException(source, line, "alt", "ref length " + ref.length + " x alt length "
                    + alt.length + " = " + cells + " cells, more than the maximum " + SwBatch.MAX_CELLS);
            }
            try {
                params.checkScoreBound("this pair", ref.length, alt.length);
            } catch (IllegalArgumentException e) {
                throw new InputFormatException(source, line, "alt", e.getMessage());
            }
            pairs.add(new Pair(ref, alt, line));
        }
        return pairs;
    }

    /** Printable ASCII without spaces; compared as bytes, as GATK does (it expects upper case). */
    private static byte[] bases(String s, String source, int line, String field) throws IOException {
        if (s.isEmpty()) {
            throw new InputFormatException(source, line, field, "is empty; Smith-Waterman needs non-empty sequences");
        }
        if (s.length() > SwBatch.MAX_LENGTH) {
            throw new InputFormatException(source, line, field, "length " + s.length() + " exceeds the maximum "
                + SwBatch.MAX_LENGTH);
        }
        for (int k = 0; k < s.length(); k++) {
            char c = s.charAt(k);
            if (c <= ' ' || c >= 127) {
                throw new InputFormatException(source, line, field, "character " + (int) c + " at position " + (k + 1)
                    + " is not a base (printable ASCII expected)");
            }
        }
        return s.getBytes(StandardCharsets.ISO_8859_1);
    }
}
