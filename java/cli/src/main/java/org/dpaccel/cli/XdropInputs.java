package org.dpaccel.cli;

import java.io.BufferedReader;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.function.IntPredicate;

import org.dpaccel.bench.data.InputFormatException;
import org.dpaccel.xdrop.XdropBatch;

/**
 * Readers for {@code dpaccel xdrop}: a FASTA file of sequences (name = the header up to the first
 * space, unique) and a seeds TSV ({@code id query qpos target tpos len strand}). Every problem is
 * an {@link InputFormatException} naming the file, the line and the field, read before any work.
 */
final class XdropInputs {
    private XdropInputs() {
    }

    /** Sequences by name, in file order. */
    record Fasta(List<String> names, List<byte[]> seqs, Map<String, Integer> index) {
    }

    /** One seed; query and target are indices into the FASTA's sequences. */
    record Seed(String id, int query, int qpos, int target, int tpos, int len, boolean reverse) {
    }

    /** X-drop's sequences: letters only, 1 to XdropBatch.MAX_LENGTH. */
    static Fasta readFasta(BufferedReader in, String source) throws IOException {
        return readFasta(in, source, c -> (c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z'), "is not a letter",
            XdropBatch.MAX_LENGTH, false);
    }

    /**
     * FASTA with the caller's rules (also used by {@code dpaccel hmm-filter}): {@code allowed}
     * accepts each sequence character (else "character N at column C " + {@code notAllowed}),
     * sequences hold at most {@code maxLength} characters, and empty ones are an error unless
     * {@code allowEmpty}.
     */
    static Fasta readFasta(BufferedReader in, String source, IntPredicate allowed, String notAllowed, int maxLength,
        boolean allowEmpty) throws IOException {
        List<String> names = new ArrayList<>();
        List<byte[]> seqs = new ArrayList<>();
        Map<String, Integer> index = new HashMap<>();
        Map<String, Integer> firstLine = new HashMap<>();
        ByteArrayOutputStream cur = null;
        int headerLine = 0;
        String line;
        for (int ln = 1; (line = in.readLine()) != null; ln++) {
            if (line.startsWith(">")) {
                if (cur != null) {
                    seqs.add(finish(cur, source, headerLine, names.get(names.size() - 1), allowEmpty));
                }
                String name = line.substring(1).strip().split("[ \t]", 2)[0];
                if (name.isEmpty()) {
                    throw new InputFormatException(source, ln, "name", "the header has no name");
                }
                if (index.containsKey(name)) {
                    throw new InputFormatException(source, ln, "name", "duplicate name '" + name + "' (first on line "
                        + firstLine.get(name) + ")");
                }
                index.put(name, names.size());
                firstLine.put(name, ln);
                names.add(name);
                cur = new ByteArrayOutputStream();
                headerLine = ln;
                continue;
            }
            String s = line.strip();
            if (s.isEmpty()) {
                continue;
            }
            if (cur == null) {
                throw new InputFormatException(source, ln, "sequence", "sequence data before the first '>' header");
            }
            for (int k = 0; k < s.length(); k++) {
                char c = s.charAt(k);
                if (!allowed.test(c)) {
                    throw new InputFormatException(source, ln, "sequence", "character " + (int) c + " at column "
                        + (k + 1) + " " + notAllowed);
                }
            }
            if (cur.size() + (long) s.length() > maxLength) {
                throw new InputFormatException(source, ln, "sequence", "sequence '" + names.get(names.size() - 1)
                    + "' is longer than the maximum " + maxLength);
            }
            cur.write(s.getBytes(StandardCharsets.ISO_8859_1));
        }
        if (cur != null) {
            seqs.add(finish(cur, source, headerLine, names.get(names.size() - 1), allowEmpty));
        }
        if (names.isEmpty()) {
            throw new InputFormatException(source, 0, null, "no sequences");
        }
        return new Fasta(names, seqs, index);
    }

    private static byte[] finish(ByteArrayOutputStream cur, String source, int line, String name, boolean allowEmpty)
        throws InputFormatException {
        if (cur.size() == 0 && !allowEmpty) {
            throw new InputFormatException(source, line, "sequence", "sequence '" + name + "' is empty");
        }
        return cur.toByteArray();
    }

    static List<Seed> readSeeds(BufferedReader in, String source, Fasta fa) throws IOException {
        List<Seed> out = new ArrayList<>();
        String line;
        for (int ln = 1; (line = in.readLine()) != null; ln++) {
            if (line.isBlank() || line.startsWith("#")) {
                continue;
            }
            String[] f = line.split("\t", -1);
            if (f.length != 7) {
                throw new InputFormatException(source, ln, null, "expected 7 tab-separated fields (id query qpos "
                    + "target tpos len strand), found " + f.length);
            }
            int q = sequence(fa, f[1], source, ln, "query");
            int t = sequence(fa, f[3], source, ln, "target");
            int qpos = number(f[2], source, ln, "qpos");
            int tpos = number(f[4], source, ln, "tpos");
            int len = number(f[5], source, ln, "len");
            boolean rev;
            if (f[6].equals("+")) {
                rev = false;
            } else if (f[6].equals("-")) {
                rev = true;
            } else {
                throw new InputFormatException(source, ln, "strand", "'" + f[6] + "' must be + or -");
            }
            int ql = fa.seqs().get(q).length, tl = fa.seqs().get(t).length;
            if ((long) qpos + len > ql) {
                throw new InputFormatException(source, ln, "qpos", "seed " + qpos + ".." + ((long) qpos + len)
                    + " runs past the end of query '" + f[1] + "' (length " + ql + ")");
            }
            if ((long) tpos + len > tl) {
                throw new InputFormatException(source, ln, "tpos", "seed " + tpos + ".." + ((long) tpos + len)
                    + " runs past the end of target '" + f[3] + "' (length " + tl + ")");
            }
            out.add(new Seed(f[0], q, qpos, t, tpos, len, rev));
        }
        return out;
    }

    private static int sequence(Fasta fa, String name, String source, int ln, String field)
        throws InputFormatException {
        Integer i = fa.index().get(name);
        if (i == null) {
            throw new InputFormatException(source, ln, field, "unknown sequence name '" + name + "'");
        }
        return i;
    }

    private static int number(String s, String source, int ln, String field) throws InputFormatException {
        int v;
        try {
            v = Integer.parseInt(s);
        } catch (NumberFormatException e) {
            throw new InputFormatException(source, ln, field, "'" + s + "' is not an integer");
        }
        if (v < 0) {
            throw new InputFormatException(source, ln, field, v + " is negative; must be >= 0");
        }
        return v;
    }
}
