package org.dpaccel.papara;

import java.util.Objects;

/**
 * One read's alignment to one profile by PaPaRa's traceback ({@code align_freeshift_pvec}'s tie
 * rules; docs/papara.md): the score, the operations over every site and read base, and the CIGAR
 * form of {@code best.tsv}.
 */
public final class PaparaPlacement {
    /** A site aligned to a read base. */
    public static final byte OP_M = 0;
    /** A site without a read base (a gap in the read). */
    public static final byte OP_D = 1;
    /** A read base without a site (an insertion). */
    public static final byte OP_I = 2;

    private final int edge;
    private final int score;
    private final byte[] ops;
    private final int readLength;
    private final long refStart;
    private final String cigar;

    PaparaPlacement(int edge, int score, byte[] ops, int readLength, long refStart, String cigar) {
        this.edge = edge;
        this.score = score;
        this.ops = ops;
        this.readLength = readLength;
        this.refStart = refStart;
        this.cigar = cigar;
    }

    /** @return the profile (edge) index the read was aligned to */
    public int edge() {
        return edge;
    }

    /** @return the alignment's score, equal to {@link Papara#score}'s for the pair */
    public int score() {
        return score;
    }

    /** @return the read length (bases) the placement covers */
    public int readLength() {
        return readLength;
    }

    /** @return the number of operations (sites + read bases - matched pairs) */
    public int numOps() {
        return ops.length;
    }

    /**
     * @param k operation index, in forward order
     * @return {@link #OP_M}, {@link #OP_D} or {@link #OP_I}
     */
    public byte op(int k) {
        return ops[Objects.checkIndex(k, ops.length)];
    }

    /** @return a copy of the operations in forward order */
    public byte[] ops() {
        return ops.clone();
    }

    /** @return sites skipped before the first matched site (0-based start over profile sites) */
    public long refStart() {
        return refStart;
    }

    /** @return M/D/I runs from {@link #refStart()}, the outer D runs left out, read overhangs as I */
    public String cigar() {
        return cigar;
    }

    byte[] rawOps() {
        return ops;
    }
}
