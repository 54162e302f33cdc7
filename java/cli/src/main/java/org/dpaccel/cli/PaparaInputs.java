package org.dpaccel.cli;

import java.io.BufferedReader;
import java.io.IOException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

import org.dpaccel.papara.Papara;

/**
 * Readers of PaPaRa's inputs for {@code dpaccel papara}, with the semantics of the native
 * readers (native/src/io/papara_io.h, docs/papara.md): Newick (ivy_mike's grammar, preorder
 * node ids), relaxed PHYLIP (sequential or interleaved), FASTA reads (PaPaRa's read filter,
 * widened to lower case and U). Every rejection names file, line and field.
 */
final class PaparaInputs {
    private PaparaInputs() {
    }

    /** Preorder nodes: parent (-1 root), branch length (1.0 when missing), tip name or null. */
    record Tree(int[] parent, double[] length, String[] name, int[] subtreeEnd) {
    }

    record Alignment(List<String> names, byte[][] rows) {
    }

    record Reads(List<String> names, List<byte[]> masks) {
    }

    static String readAll(BufferedReader in) throws IOException {
        StringBuilder sb = new StringBuilder();
        char[] buf = new char[1 << 16];
        int n;
        while ((n = in.read(buf)) > 0) {
            sb.append(buf, 0, n);
        }
        return sb.toString();
    }

    private static boolean blank(char c) {
        return c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == 0x0b || c == '\f';
    }

    private static int lineOf(String t, int pos) {
        int line = 1;
        for (int i = 0; i < pos && i < t.length(); i++) {
            if (t.charAt(i) == '\n') {
                line++;
            }
        }
        return line;
    }

    private static BadInputException bad(String what, String t, int pos, String msg) {
        return new BadInputException(what + " line " + lineOf(t, pos) + ": " + msg);
    }

    static Tree parseNewick(String t, String what) {
        List<Integer> parent = new ArrayList<>();
        List<Double> length = new ArrayList<>();
        List<String> name = new ArrayList<>();
        int[] stackId = new int[16];
        int[] stackKids = new int[16];
        int sp = 0;
        int pos = 0;
        int n = t.length();
        while (pos < n && blank(t.charAt(pos))) {
            pos++;
        }
        if (pos >= n || t.charAt(pos) != '(') {
            throw bad(what, t, pos, "a tree starts with '('");
        }
        while (true) {
            while (pos < n && blank(t.charAt(pos))) {
                pos++;
            }
            if (pos >= n) {
                throw bad(what, t, pos, "end of input inside the tree (missing ')' or ';')");
            }
            int top = sp > 0 ? stackId[sp - 1] : -1;
            if (sp > 0 && ++stackKids[sp - 1] > 3) {
                throw bad(what, t, pos, "inner node with more than 3 children: the tree must be binary");
            }
            if (t.charAt(pos) == '(') {
                pos++;
                if (sp == stackId.length) {
                    stackId = Arrays.copyOf(stackId, 2 * sp);
                    stackKids = Arrays.copyOf(stackKids, 2 * sp);
                }
                stackId[sp] = parent.size();
                stackKids[sp++] = 0;
                parent.add(top);
                length.add(1.0);
                name.add(null);
                continue;
            }
            int e = pos;
            while (e < n && ":,)".indexOf(t.charAt(e)) < 0) {
                e++;
            }
            int ne = e;
            while (ne > pos && blank(t.charAt(ne - 1))) {
                ne--;
            }
            if (ne == pos) {
                throw bad(what, t, pos, "empty taxon name");
            }
            for (int k = pos; k < ne; k++) {
                char c = t.charAt(k);
                if (blank(c) || "(;[]".indexOf(c) >= 0 || c == 0) {
                    throw bad(what, t, k, String.format("byte not allowed in a taxon name: 0x%02x", (int) c));
                }
            }
            int node = parent.size();
            parent.add(top);
            length.add(1.0);
            name.add(t.substring(pos, ne));
            pos = suffix(t, e, node, length, what);
            while (true) {
                if (pos >= n) {
                    throw bad(what, t, pos, "end of input inside the tree (missing ')' or ';')");
                }
                char c = t.charAt(pos);
                if (c == ',') {
                    pos++;
                    break;
                }
                if (c != ')') {
                    throw bad(what, t, pos, "expected ',' or ')', found '" + c + "'");
                }
                pos++;
                int closed = stackId[--sp];
                int kids = stackKids[sp];
                boolean root = sp == 0;
                if (kids != 2 && !(root && kids == 3)) {
                    throw bad(what, t, pos, "inner node with " + kids + " children: the tree must be binary");
                }
                while (pos < n && ":,);[{".indexOf(t.charAt(pos)) < 0) {
                    pos++;
                }
                pos = suffix(t, pos, closed, length, what);
                if (root) {
                    if (pos >= n || t.charAt(pos) != ';') {
                        throw bad(what, t, pos, "expected ';' after the tree");
                    }
                    pos++;
                    while (pos < n && blank(t.charAt(pos))) {
                        pos++;
                    }
                    if (pos != n) {
                        throw bad(what, t, pos, "text after the tree's ';' (one tree per file)");
                    }
                    int m = parent.size();
                    int[] p = new int[m];
                    double[] l = new double[m];
                    int[] end = new int[m];
                    for (int v = 0; v < m; v++) {
                        p[v] = parent.get(v);
                        l[v] = length.get(v);
                        end[v] = v + 1;
                    }
                    for (int v = m - 1; v > 0; v--) {
                        end[p[v]] = Math.max(end[p[v]], end[v]);
                    }
                    return new Tree(p, l, name.toArray(new String[0]), end);
                }
            }
        }
    }

    private static int suffix(String t, int pos, int node, List<Double> length, String what) {
        int n = t.length();
        while (pos < n && blank(t.charAt(pos))) {
            pos++;
        }
        if (pos < n && t.charAt(pos) == ':') {
            pos++;
            while (pos < n && blank(t.charAt(pos))) {
                pos++;
            }
            int e = pos;
            while (e < n && "0123456789.eE+-".indexOf(t.charAt(e)) >= 0) {
                e++;
            }
            double v;
            try {
                v = Double.parseDouble(t.substring(pos, e));
            } catch (NumberFormatException x) {
                throw bad(what, t, pos, "branch length is not a number: '" + t.substring(pos, e) + "'");
            }
            if (e == pos || !Double.isFinite(v)) {
                throw bad(what, t, pos, "branch length is not a number: '" + t.substring(pos, e) + "'");
            }
            length.set(node, v);
            pos = e;
            while (pos < n && blank(t.charAt(pos))) {
                pos++;
            }
        }
        if (pos < n && (t.charAt(pos) == '[' || t.charAt(pos) == '{')) {
            int close = t.indexOf(t.charAt(pos) == '[' ? ']' : '}', pos);
            if (close < 0) {
                throw bad(what, t, pos, "branch label: no closing bracket");
            }
            pos = close + 1;
            while (pos < n && blank(t.charAt(pos))) {
                pos++;
            }
        }
        return pos;
    }

    static Alignment parsePhylip(BufferedReader in, String what) throws IOException {
        String line;
        int lineNo = 0;
        do {
            line = in.readLine();
            lineNo++;
        } while (line != null && line.isBlank());
        if (line == null) {
            throw new BadInputException(what + ": expected the header \"<taxa> <sites>\"");
        }
        String[] h = line.trim().split("\\s+");
        long taxa;
        long sites;
        try {
            if (h.length != 2) {
                throw new NumberFormatException();
            }
            taxa = Long.parseLong(h[0]);
            sites = Long.parseLong(h[1]);
        } catch (NumberFormatException e) {
            throw new BadInputException(what + " line " + lineNo + ": expected the header \"<taxa> <sites>\"");
        }
        if (taxa < 2 || taxa > (1 << 22) || sites < 1 || sites > Integer.MAX_VALUE - 8) {
            throw new BadInputException(what + " line " + lineNo + ": header " + taxa + " taxa x " + sites
                + " sites outside [2, 4194304] x [1, 2^31)");
        }
        int r = (int) taxa;
        List<String> names = new ArrayList<>();
        StringBuilder[] rows = new StringBuilder[r];
        for (int block = 0;; block++) {
            for (int i = 0; i < r; i++) {
                line = in.readLine();
                lineNo++;
                if (line == null) {
                    throw new BadInputException(what + ": end of file before row " + (i + 1) + " of block "
                        + (block + 1) + " (" + r + " rows expected)");
                }
                if (i == 0 && line.isBlank()) {
                    i--;
                    continue;
                }
                int k = 0;
                if (block == 0) {
                    if (line.isEmpty() || blank(line.charAt(0))) {
                        throw new BadInputException(what + " line " + lineNo + ": row " + (i + 1)
                            + " starts with a blank (the name comes first)");
                    }
                    while (k < line.length() && !blank(line.charAt(k))) {
                        k++;
                    }
                    if (k == line.length()) {
                        throw new BadInputException(what + " line " + lineNo + ": row " + (i + 1)
                            + ": no blank between name and sequence");
                    }
                    names.add(line.substring(0, k));
                    rows[i] = new StringBuilder();
                }
                for (; k < line.length(); k++) {
                    char c = line.charAt(k);
                    if (!blank(c)) {
                        if (rows[i].length() >= sites) {
                            throw new BadInputException(what + " line " + lineNo + ": row " + (i + 1) + " ('"
                                + names.get(i) + "') is longer than the header's " + sites + " sites");
                        }
                        rows[i].append(c);
                    }
                }
            }
            if (rows[0].length() >= sites) {
                break;
            }
        }
        byte[][] out = new byte[r][];
        for (int i = 0; i < r; i++) {
            if (rows[i].length() != sites) {
                throw new BadInputException(what + ": row " + (i + 1) + " ('" + names.get(i) + "') has "
                    + rows[i].length() + " characters, the header says " + sites + " (rows of unequal length)");
            }
            out[i] = rows[i].toString().getBytes(java.nio.charset.StandardCharsets.ISO_8859_1);
        }
        while ((line = in.readLine()) != null) {
            lineNo++;
            if (!line.isBlank()) {
                throw new BadInputException(what + " line " + lineNo + ": text after the " + r + " rows");
            }
        }
        return new Alignment(names, out);
    }

    static Reads parseFasta(BufferedReader in, String what) throws IOException {
        List<String> names = new ArrayList<>();
        List<byte[]> masks = new ArrayList<>();
        String line;
        int lineNo = 0;
        int recLine = 0;
        String name = null;
        byte[] cur = new byte[256];
        int len = 0;
        long base = 0;
        while (true) {
            line = in.readLine();
            lineNo++;
            if (line == null || line.startsWith(">")) {
                if (name != null) {
                    if (len == 0) {
                        throw new BadInputException(what + " line " + recLine + ": read '" + name
                            + "' has no base left to align (empty, or only N ? . -)");
                    }
                    names.add(name);
                    masks.add(Arrays.copyOf(cur, len));
                }
                if (line == null) {
                    break;
                }
                String h = line.substring(1).strip();
                int sp = 0;
                while (sp < h.length() && !blank(h.charAt(sp))) {
                    sp++;
                }
                if (sp == 0) {
                    throw new BadInputException(what + " line " + lineNo + ": read " + (names.size() + 1)
                        + ": empty name after '>'");
                }
                name = h.substring(0, sp);
                recLine = lineNo;
                len = 0;
                base = 0;
                continue;
            }
            if (name == null) {
                if (line.isBlank()) {
                    continue;
                }
                throw new BadInputException(what + " line " + lineNo + ": expected '>' (FASTA)");
            }
            for (int k = 0; k < line.length(); k++) {
                char c = line.charAt(k);
                if (blank(c)) {
                    continue;
                }
                base++;
                int m = Papara.readMask(c);
                if (m < 0 || c > 0xff) {
                    throw new BadInputException(String.format("%s line %d: read '%s' base %d: byte 0x%02x is not a "
                        + "base (ACGTU, IUPAC MRWSYKVHDB, or N ? . - which are dropped)", what, lineNo, name, base,
                        (int) c));
                }
                if (m > 0) {
                    if (len == cur.length) {
                        cur = Arrays.copyOf(cur, 2 * len);
                    }
                    cur[len++] = (byte) m;
                }
            }
        }
        if (names.isEmpty()) {
            throw new BadInputException(what + ": no reads");
        }
        return new Reads(names, masks);
    }

    /**
     * Row of each tip (by name); the rows no tip names, as reads (PaPaRa scores them after the
     * FASTA reads).
     */
    static int[] bind(Tree tree, Alignment aln, Reads extra) {
        Map<String, Integer> rowOf = new HashMap<>();
        for (int i = 0; i < aln.names().size(); i++) {
            Integer prev = rowOf.put(aln.names().get(i), i);
            if (prev != null) {
                throw new BadInputException("alignment: rows " + (prev + 1) + " and " + (i + 1) + " are both named '"
                    + aln.names().get(i) + "'");
            }
        }
        int[] row = new int[tree.parent().length];
        boolean[] used = new boolean[aln.names().size()];
        for (int v = 0; v < row.length; v++) {
            row[v] = -1;
            String nm = tree.name()[v];
            if (nm == null) {
                continue;
            }
            Integer r = rowOf.get(nm);
            if (r == null) {
                throw new BadInputException("tree taxon '" + nm + "' has no row in the alignment");
            }
            row[v] = r;
            used[r] = true;
        }
        for (int i = 0; i < used.length; i++) {
            if (used[i]) {
                continue;
            }
            byte[] src = aln.rows()[i];
            byte[] m = new byte[src.length];
            int len = 0;
            for (int c = 0; c < src.length; c++) {
                int k = Papara.readMask(src[c]);
                if (k < 0) {
                    throw new BadInputException(String.format("alignment row %d ('%s', not in the tree, so a read) "
                        + "column %d: byte 0x%02x is not a base", i + 1, aln.names().get(i), c + 1, src[c] & 0xff));
                }
                if (k > 0) {
                    m[len++] = (byte) k;
                }
            }
            if (len == 0) {
                throw new BadInputException("alignment row " + (i + 1) + " ('" + aln.names().get(i)
                    + "', not in the tree, so a read) has no base left to align");
            }
            extra.names().add(aln.names().get(i));
            extra.masks().add(Arrays.copyOf(m, len));
        }
        return row;
    }

    /** The split name of the edge below node a: sorted taxa, comma-joined, of the side without the smallest name. */
    static String splitName(Tree tree, List<Integer> sortedTips, int a) {
        int lo = a;
        int hi = tree.subtreeEnd()[a];
        int first = sortedTips.get(0);
        boolean smallestInside = first >= lo && first < hi;
        StringBuilder sb = new StringBuilder();
        for (int t : sortedTips) {
            boolean inside = t >= lo && t < hi;
            if (inside == smallestInside) {
                continue;
            }
            if (sb.length() > 0) {
                sb.append(',');
            }
            sb.append(tree.name()[t]);
        }
        return sb.toString();
    }
}
