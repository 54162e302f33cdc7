package org.dpaccel.papara;

import java.io.IOException;
import java.nio.charset.Charset;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Objects;

import org.dpaccel.Backend;
import org.dpaccel.DpaContext;
import org.dpaccel.internal.ContextAccess;

/**
 * Scores reads against every profile of a {@link PaparaReference} with PaPaRa 2's free-shift DP
 * (papara_core 2.5; docs/papara.md). One JNI call per batch; the work runs on the context's CPU
 * threads or the CUDA kernel ({@link Backend#GPU} fails with {@code Status.NO_DEVICE} without a GPU).
 * {@link #traceback} aligns chosen (read, edge) pairs and {@link #writeAlignment} writes PaPaRa's
 * {@code papara_alignment} file from those alignments, byte for byte.
 */
public final class Papara {
    /** Largest read a traceback takes (DPA_PAPARA_MAX_READ_LENGTH). */
    public static final int MAX_READ_LENGTH = 1 << 20;
    /** Largest read length x sites of one traceback (DPA_PAPARA_MAX_TRACEBACK_CELLS). */
    public static final long MAX_TRACEBACK_CELLS = 1L << 32;

    private Papara() {
    }

    /**
     * Read base to state mask as PaPaRa's read filter sees it (widened to lower case and U).
     *
     * @param c a byte of a read
     * @return 1..14 for ACGTU and IUPAC MRWSYKVHDB, 0 for N ? . - (dropped), -1 for anything else
     */
    public static int readMask(int c) {
        switch (Character.toUpperCase((char) (c & 0xff))) {
            case 'A': return 1;
            case 'C': return 2;
            case 'M': return 3;
            case 'G': return 4;
            case 'R': return 5;
            case 'S': return 6;
            case 'V': return 7;
            case 'T': case 'U': return 8;
            case 'W': return 9;
            case 'Y': return 10;
            case 'H': return 11;
            case 'K': return 12;
            case 'D': return 13;
            case 'B': return 14;
            case 'N': case '?': case '.': case '-': return 0;
            default: return -1;
        }
    }

    /**
     * Scores every read against every edge.
     *
     * @param ctx the context
     * @param ref the profiles
     * @param reads state masks (1..15) per read, each non-empty
     * @param params scores
     * @param wantScores also return the full read x edge matrix
     * @param backend where to run; null for the context's
     * @return per read best score and edge (and the matrix when asked)
     * @throws IllegalArgumentException naming the read and base of a bad mask
     * @throws org.dpaccel.DpaccelException if the native library fails
     */
    public static PaparaResults score(DpaContext ctx, PaparaReference ref, byte[][] reads, PaparaParams params,
        boolean wantScores, Backend backend) {
        return score(ctx, ref, reads, params, wantScores, backend, ScoreModel.PAPARA2);
    }

    /**
     * Scores every read against every edge with the given model. With {@link ScoreModel#PAPER2012} the
     * scores are costs: the best is the lowest (ties to the lowest edge), {@code params} is checked but not
     * used, every read must be shorter than the profiles, and only the CPU computes it.
     *
     * @param ctx the context
     * @param ref the profiles
     * @param reads state masks (1..15) per read, each non-empty
     * @param params scores (PAPARA2)
     * @param wantScores also return the full read x edge matrix
     * @param backend where to run; null for the context's
     * @param model the recurrence
     * @return per read best score and edge (and the matrix when asked)
     * @throws IllegalArgumentException naming the read and base of a bad mask, or the read too long for
     *     PAPER2012
     * @throws org.dpaccel.DpaccelException if the native library fails
     */
    public static PaparaResults score(DpaContext ctx, PaparaReference ref, byte[][] reads, PaparaParams params,
        boolean wantScores, Backend backend, ScoreModel model) {
        Objects.requireNonNull(model, "model");
        Objects.requireNonNull(ctx, "ctx");
        Objects.requireNonNull(ref, "ref");
        Objects.requireNonNull(reads, "reads");
        Objects.requireNonNull(params, "params");
        int[] lengths = new int[reads.length];
        byte[] masks = pack(reads, lengths);
        int n = reads.length;
        int[] best = new int[3 * n];
        int[] scores = wantScores ? new int[Math.multiplyExact(n, ref.numEdges())] : null;
        long[] stats = new long[3];
        if (model == ScoreModel.PAPER2012) {
            for (int r = 0; r < n; r++) {
                if (lengths[r] >= ref.numSites()) {
                    throw new IllegalArgumentException("read " + r + " has " + lengths[r] + " bases, not fewer than the "
                        + ref.numSites() + " sites (paper2012 aligns the whole read inside the profile)");
                }
            }
        }
        int[] p = { params.gapOpen(), params.gapExtend(), params.match(), params.matchCgap(),
            backend == null ? -1 : backend.code(), model.code() };
        if (n == 0 && backend != Backend.GPU) {
            return new PaparaResults(0, ref.numEdges(), best, scores, 0);
        }
        ContextAccess.of(ctx).paparaScore(ref.sites, ref.numEdges(), (int) ref.numSites(), masks, lengths, p, scores,
            best, stats);
        return new PaparaResults(n, ref.numEdges(), best, scores, stats[0]);
    }

    /**
     * Aligns each read to its chosen edge with PaPaRa's traceback (docs/papara.md). Single-threaded
     * native work, one JNI call; scratch of read length x sites bytes per read.
     *
     * @param ctx the context (checked open)
     * @param ref the profiles
     * @param edges the edge per read (e.g. {@link PaparaResults#bestEdge})
     * @param reads state masks (1..15) per read, each non-empty
     * @param params scores
     * @return one placement per read, in order
     * @throws IllegalArgumentException naming the read (and base or edge) of a bad argument, or when
     *     the batch's operations exceed a Java array (split it)
     * @throws org.dpaccel.DpaccelException if the native library fails
     */
    public static PaparaPlacement[] traceback(DpaContext ctx, PaparaReference ref, int[] edges, byte[][] reads,
        PaparaParams params) {
        Objects.requireNonNull(ctx, "ctx");
        Objects.requireNonNull(ref, "ref");
        Objects.requireNonNull(edges, "edges");
        Objects.requireNonNull(reads, "reads");
        Objects.requireNonNull(params, "params");
        if (edges.length != reads.length) {
            throw new IllegalArgumentException(edges.length + " edges for " + reads.length + " reads");
        }
        int[] lengths = new int[reads.length];
        byte[] masks = pack(reads, lengths);
        long sites = ref.numSites();
        long total = 0;
        for (int r = 0; r < reads.length; r++) {
            if (edges[r] < 0 || edges[r] >= ref.numEdges()) {
                throw new IllegalArgumentException("read " + r + ": edge " + edges[r] + " outside [0, "
                    + ref.numEdges() + ")");
            }
            if (lengths[r] > MAX_READ_LENGTH) {
                throw new IllegalArgumentException("read " + r + " has " + lengths[r] + " bases, above "
                    + MAX_READ_LENGTH);
            }
            if (lengths[r] * sites > MAX_TRACEBACK_CELLS) {
                throw new IllegalArgumentException("read " + r + ": " + lengths[r] + " bases x " + sites
                    + " sites exceed " + MAX_TRACEBACK_CELLS + " traceback cells");
            }
            total += sites + lengths[r];
        }
        if (total > Integer.MAX_VALUE - 8) {
            throw new IllegalArgumentException("the batch's tracebacks need " + total
                + " bytes, more than a Java array holds: split the reads");
        }
        int n = reads.length;
        if (n == 0) {
            return new PaparaPlacement[0];
        }
        byte[] ops = new byte[(int) total];
        long[] info = new long[3 * n];
        int[] p = { params.gapOpen(), params.gapExtend(), params.match(), params.matchCgap(), -1 };
        byte[] cigars = ContextAccess.of(ctx).paparaTraceback(ref.sites, ref.numEdges(), (int) sites, edges.clone(),
            masks, lengths, p, ops, info);
        PaparaPlacement[] out = new PaparaPlacement[n];
        int at = 0;
        int c = 0;
        for (int r = 0; r < n; r++) {
            int end = c;
            while (cigars[end] != '\n') {
                end++;
            }
            String cigar = new String(cigars, c, end - c, StandardCharsets.US_ASCII);
            c = end + 1;
            byte[] o = java.util.Arrays.copyOfRange(ops, at, at + (int) info[3 * r]);
            at += (int) (sites + lengths[r]);
            out[r] = new PaparaPlacement(edges[r], (int) info[3 * r + 1], o, lengths[r], info[3 * r + 2], cigar);
        }
        return out;
    }

    /**
     * Writes PaPaRa 2.5's extended alignment ({@code papara_alignment}, reference gaps on; docs/papara.md)
     * to {@code file}: the tree rows as written, gap columns for the reads' insertions, then the reads
     * as placed. Names and characters are bytes (ISO-8859-1). On failure the file is deleted.
     *
     * @param ctx the context (checked open)
     * @param file the output (replaced)
     * @param ref the profiles the placements were made against (its site columns)
     * @param rowNames the alignment's row names, in file order
     * @param rows the alignment's rows (as passed to {@link PaparaReference#build}), equal lengths
     * @param treeRows the rows the tree's tips name (others are not written: PaPaRa scores them as reads)
     * @param readNames one name per read
     * @param reads state masks per read
     * @param placements one per read, from {@link #traceback} against {@code ref}
     * @throws IllegalArgumentException naming the row, read or name of a bad argument
     * @throws IOException if the file cannot be written or deleted
     * @throws org.dpaccel.DpaccelException if the native writer fails
     */
    public static void writeAlignment(DpaContext ctx, Path file, PaparaReference ref, List<String> rowNames,
        byte[][] rows, int[] treeRows, List<String> readNames, byte[][] reads, PaparaPlacement[] placements)
        throws IOException {
        Objects.requireNonNull(ctx, "ctx");
        Objects.requireNonNull(file, "file");
        Objects.requireNonNull(ref, "ref");
        Objects.requireNonNull(rowNames, "rowNames");
        Objects.requireNonNull(rows, "rows");
        Objects.requireNonNull(treeRows, "treeRows");
        Objects.requireNonNull(readNames, "readNames");
        Objects.requireNonNull(reads, "reads");
        Objects.requireNonNull(placements, "placements");
        if (rows.length == 0 || rowNames.size() != rows.length) {
            throw new IllegalArgumentException(rowNames.size() + " row names for " + rows.length + " rows");
        }
        int cols = Objects.requireNonNull(rows[0], "rows[0]").length;
        byte[] chars = new byte[Math.multiplyExact(rows.length, cols)];
        for (int i = 0; i < rows.length; i++) {
            byte[] x = Objects.requireNonNull(rows[i], "rows[" + i + "]");
            if (x.length != cols) {
                throw new IllegalArgumentException("alignment row " + i + " has " + x.length + " characters, row 0 "
                    + cols);
            }
            System.arraycopy(x, 0, chars, i * cols, cols);
        }
        boolean[] seen = new boolean[rows.length];
        for (int t : treeRows) {
            if (t < 0 || t >= rows.length || seen[t]) {
                throw new IllegalArgumentException("tree row " + t + " outside [0, " + rows.length + ") or repeated");
            }
            seen[t] = true;
        }
        int sites = (int) ref.numSites();
        long[] columns = new long[sites];
        for (int s = 0; s < sites; s++) {
            columns[s] = ref.column(s);
            if (columns[s] >= cols) {
                throw new IllegalArgumentException("site " + s + " comes from column " + columns[s]
                    + ", the rows have " + cols + ": not the alignment of ref");
            }
        }
        int n = reads.length;
        if (readNames.size() != n || placements.length != n) {
            throw new IllegalArgumentException(readNames.size() + " read names and " + placements.length
                + " placements for " + n + " reads");
        }
        int[] lengths = new int[n];
        byte[] masks = pack(reads, lengths);
        long[] numOps = new long[n];
        long total = 0;
        for (int r = 0; r < n; r++) {
            PaparaPlacement pl = Objects.requireNonNull(placements[r], "placements[" + r + "]");
            if (pl.readLength() != lengths[r] || pl.numOps() < sites || pl.edge() >= ref.numEdges()) {
                throw new IllegalArgumentException("read " + r + ": its placement covers " + pl.readLength()
                    + " bases of " + pl.numOps() + " ops, not this read (" + lengths[r] + " bases) against "
                    + sites + " sites");
            }
            numOps[r] = pl.numOps();
            total += pl.numOps();
        }
        if (total > Integer.MAX_VALUE - 8) {
            throw new IllegalArgumentException(total + " traceback ops exceed a Java array");
        }
        byte[] ops = new byte[(int) total];
        int at = 0;
        for (PaparaPlacement pl : placements) {
            System.arraycopy(pl.rawOps(), 0, ops, at, pl.numOps());
            at += pl.numOps();
        }
        byte[] rn = names(rowNames, "row");
        byte[] qn = names(readNames, "read");
        Charset fs = Charset.forName(System.getProperty("sun.jnu.encoding", "UTF-8"));
        byte[] path = file.toAbsolutePath().toString().getBytes(fs);
        boolean ok = false;
        try {
            ContextAccess.of(ctx).paparaWriteAlignment(path, treeRows.clone(), rows.length, cols, chars, rn, columns,
                masks, lengths, qn, ops, numOps);
            ok = true;
        } finally {
            if (!ok) {
                Files.deleteIfExists(file);
            }
        }
    }

    /** Names as NUL-terminated ISO-8859-1 bytes, the way the readers decoded them. */
    private static byte[] names(List<String> names, String what) {
        StringBuilder sb = new StringBuilder();
        for (int i = 0; i < names.size(); i++) {
            String s = Objects.requireNonNull(names.get(i), what + " name " + i);
            for (int k = 0; k < s.length(); k++) {
                char c = s.charAt(k);
                if (c == 0 || c > 0xff) {
                    throw new IllegalArgumentException(what + " name " + i + " ('" + s + "') character " + k
                        + " is NUL or outside ISO-8859-1");
                }
            }
            sb.append(s).append('\0');
        }
        return sb.toString().getBytes(StandardCharsets.ISO_8859_1);
    }

    /** Concatenates the reads, checking each base is a state mask; lengths gets each read's length. */
    private static byte[] pack(byte[][] reads, int[] lengths) {
        long total = 0;
        for (int r = 0; r < reads.length; r++) {
            byte[] m = Objects.requireNonNull(reads[r], "reads[" + r + "]");
            if (m.length == 0) {
                throw new IllegalArgumentException("read " + r + " is empty");
            }
            for (int j = 0; j < m.length; j++) {
                if (m[j] < 1 || m[j] > 15) {
                    throw new IllegalArgumentException("read " + r + " base " + j + " = " + m[j]
                        + " is not a state mask in [1, 15]");
                }
            }
            lengths[r] = m.length;
            total += m.length;
        }
        if (total > Integer.MAX_VALUE - 8) {
            throw new IllegalArgumentException("the reads hold " + total + " bases, more than one call takes: "
                + "split them");
        }
        byte[] masks = new byte[(int) total];
        int at = 0;
        for (byte[] m : reads) {
            System.arraycopy(m, 0, masks, at, m.length);
            at += m.length;
        }
        return masks;
    }
}
