package org.dpaccel.papara;

import java.util.Objects;

import org.dpaccel.Backend;
import org.dpaccel.DpaContext;
import org.dpaccel.internal.ContextAccess;

/**
 * Scores reads against every profile of a {@link PaparaReference} with PaPaRa 2's free-shift DP
 * (papara_core 2.5; docs/papara.md). One JNI call per batch; the work runs on the context's CPU
 * threads (no CUDA kernel yet: {@link Backend#GPU} fails with {@code Status.NO_DEVICE}).
 */
public final class Papara {
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
        Objects.requireNonNull(ctx, "ctx");
        Objects.requireNonNull(ref, "ref");
        Objects.requireNonNull(reads, "reads");
        Objects.requireNonNull(params, "params");
        long total = 0;
        int[] lengths = new int[reads.length];
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
        byte[] masks = new byte[Math.toIntExact(total)];
        int at = 0;
        for (byte[] m : reads) {
            System.arraycopy(m, 0, masks, at, m.length);
            at += m.length;
        }
        int n = reads.length;
        int[] best = new int[3 * n];
        int[] scores = wantScores ? new int[Math.multiplyExact(n, ref.numEdges())] : null;
        long[] stats = new long[3];
        int[] p = { params.gapOpen(), params.gapExtend(), params.match(), params.matchCgap(),
            backend == null ? -1 : backend.code() };
        if (n == 0 && backend != Backend.GPU) {
            return new PaparaResults(0, ref.numEdges(), best, scores, 0);
        }
        ContextAccess.of(ctx).paparaScore(ref.sites, ref.numEdges(), (int) ref.numSites(), masks, lengths, p, scores,
            best, stats);
        return new PaparaResults(n, ref.numEdges(), best, scores, stats[0]);
    }
}
