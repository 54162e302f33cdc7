package org.dpaccel.sw;

/**
 * Smith-Waterman scores, used exactly as GATK's {@code SWParameters}: every value is added as
 * given, so penalties are normally negative. Construction checks each value on its own
 * (|value| below {@link #MAX_ABS_VALUE}); the combination with sequence lengths is checked per
 * pair when a batch is aligned (see {@link SmithWaterman}).
 */
public final class SwParameters {
    /** Each |value| must be below this (DPA_SW_SCORE_BOUND / 4). */
    public static final int MAX_ABS_VALUE = 1 << 28;
    /** Scores are int32: (|match| + |mismatch| + |gapOpen| + |gapExtend|) * (refLength + altLength + 2) must be below this. */
    public static final long SCORE_BOUND = 1L << 30;

    /** GATK's haplotype-to-reference parameters (SmithWatermanAlignmentConstants.NEW_SW_PARAMETERS). */
    public static final SwParameters HAPLOTYPE_TO_REFERENCE = new SwParameters(200, -150, -260, -11);
    /** GATK's read-to-best-haplotype parameters (ALIGNMENT_TO_BEST_HAPLOTYPE_SW_PARAMETERS). */
    public static final SwParameters READ_TO_HAPLOTYPE = new SwParameters(10, -15, -30, -5);
    /** GATK's dangling-end parameters (STANDARD_NGS). */
    public static final SwParameters DANGLING_END = new SwParameters(25, -50, -110, -6);
    /** GATK's ORIGINAL_DEFAULT. */
    public static final SwParameters ORIGINAL_DEFAULT = new SwParameters(3, -1, -4, -3);

    private final int match, mismatch, gapOpen, gapExtend;

    /**
     * Scores as GATK's {@code SWParameters}.
     *
     * @param match added for a match (normally positive)
     * @param mismatch added for a mismatch (normally negative)
     * @param gapOpen added for a gap's first base (normally negative)
     * @param gapExtend added for each further gap base (normally negative)
     * @throws IllegalArgumentException if a |value| is not below {@link #MAX_ABS_VALUE}
     */
    public SwParameters(int match, int mismatch, int gapOpen, int gapExtend) {
        check("match", match);
        check("mismatch", mismatch);
        check("gapOpen", gapOpen);
        check("gapExtend", gapExtend);
        this.match = match;
        this.mismatch = mismatch;
        this.gapOpen = gapOpen;
        this.gapExtend = gapExtend;
    }

    private static void check(String name, int v) {
        if (Math.abs((long) v) >= MAX_ABS_VALUE) {
            throw new IllegalArgumentException("Smith-Waterman parameter " + name + " = " + v + ": |" + name
                + "| must be below " + MAX_ABS_VALUE);
        }
    }

    /**
     * The match score.
     *
     * @return the value
     */
    public int match() {
        return match;
    }

    /**
     * The mismatch score.
     *
     * @return the value
     */
    public int mismatch() {
        return mismatch;
    }

    /**
     * The gap-open score.
     *
     * @return the value
     */
    public int gapOpen() {
        return gapOpen;
    }

    /**
     * The gap-extend score.
     *
     * @return the value
     */
    public int gapExtend() {
        return gapExtend;
    }

    /**
     * The bound on any single step's score change.
     *
     * @return |match| + |mismatch| + |gapOpen| + |gapExtend|
     */
    public long weightSum() {
        return Math.abs((long) match) + Math.abs((long) mismatch) + Math.abs((long) gapOpen)
            + Math.abs((long) gapExtend);
    }

    /**
     * Throws IllegalArgumentException when a pair of these lengths could overflow the int32
     * scores.
     *
     * @param what names the pair in the message
     * @param refLength the reference length
     * @param altLength the alternate length
     * @throws IllegalArgumentException if {@link #weightSum()} * (refLength + altLength + 2) is
     *     not below {@link #SCORE_BOUND}
     */
    public void checkScoreBound(String what, int refLength, int altLength) {
        long bound = weightSum() * ((long) refLength + altLength + 2);
        if (bound >= SCORE_BOUND) {
            throw new IllegalArgumentException(what + ": (|match| + |mismatch| + |gapOpen| + |gapExtend|) = "
                + weightSum() + " times (refLength " + refLength + " + altLength " + altLength + " + 2) = " + bound
                + " could overflow the int32 scores; must be below " + SCORE_BOUND);
        }
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof SwParameters p && p.match == match && p.mismatch == mismatch && p.gapOpen == gapOpen
            && p.gapExtend == gapExtend;
    }

    @Override
    public int hashCode() {
        return ((match * 31 + mismatch) * 31 + gapOpen) * 31 + gapExtend;
    }

    @Override
    public String toString() {
        return "SwParameters(" + match + ", " + mismatch + ", " + gapOpen + ", " + gapExtend + ")";
    }
}
