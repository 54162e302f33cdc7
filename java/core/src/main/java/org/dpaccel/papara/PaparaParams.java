package org.dpaccel.papara;

/**
 * PaPaRa's scoring scheme (its {@code -p open:extend:match:match_cgap}); defaults -3:-1:2:-3.
 *
 * @param gapOpen gap open, -1000..0
 * @param gapExtend gap extension, -1000..0
 * @param match match score, 0..1000
 * @param matchCgap score added on gap-flagged sites, -1000..-1, with match + matchCgap &lt; 0
 *     (PaPaRa finds flagged sites by that sign)
 */
public record PaparaParams(int gapOpen, int gapExtend, int match, int matchCgap) {
    /** Largest magnitude of any score. */
    public static final int MAX_SCORE = 1000;

    /**
     * Checks the ranges.
     *
     * @param gapOpen gap open, -1000..0
     * @param gapExtend gap extension, -1000..0
     * @param match match score, 0..1000
     * @param matchCgap score on gap-flagged sites, -1000..-1, match + matchCgap &lt; 0
     * @throws IllegalArgumentException naming the first bad value and its range
     */
    public PaparaParams {
        check("gapOpen", gapOpen, -MAX_SCORE, 0);
        check("gapExtend", gapExtend, -MAX_SCORE, 0);
        check("match", match, 0, MAX_SCORE);
        check("matchCgap", matchCgap, -MAX_SCORE, -1);
        if (match + matchCgap >= 0) {
            throw new IllegalArgumentException("match + matchCgap = " + (match + matchCgap)
                + " must be < 0 (PaPaRa's assumption)");
        }
    }

    /**
     * PaPaRa's defaults.
     *
     * @return -3:-1:2:-3
     */
    public static PaparaParams defaults() {
        return new PaparaParams(-3, -1, 2, -3);
    }

    /**
     * Parses {@code open:extend:match:match_cgap}.
     *
     * @param s the text, e.g. "-3:-1:2:-3"
     * @return the parameters
     * @throws IllegalArgumentException if the text is not four integers in range
     */
    public static PaparaParams parse(String s) {
        String[] f = s.split(":", -1);
        if (f.length != 4) {
            throw new IllegalArgumentException("scoring '" + s + "' is not open:extend:match:match_cgap");
        }
        int[] v = new int[4];
        for (int i = 0; i < 4; i++) {
            try {
                v[i] = Integer.parseInt(f[i].trim());
            } catch (NumberFormatException e) {
                throw new IllegalArgumentException("scoring '" + s + "': '" + f[i] + "' is not an integer");
            }
        }
        return new PaparaParams(v[0], v[1], v[2], v[3]);
    }

    private static void check(String name, int v, int lo, int hi) {
        if (v < lo || v > hi) {
            throw new IllegalArgumentException(name + " = " + v + " outside [" + lo + ", " + hi + "]");
        }
    }
}
