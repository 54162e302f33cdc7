package org.dpaccel.xdrop;

/**
 * X-drop scores: SeqAn's {@code Score<int, Simple>(match, mismatch, gap)} and the drop-off X.
 * Construction checks every value against its limit and names it.
 */
public final class XdropParams {
    /** Largest |match|, |mismatch| and |gap| (DPA_XDROP_MAX_SCORE). */
    public static final int MAX_SCORE = 1000;
    /** Largest X (DPA_XDROP_MAX_X). */
    public static final int MAX_XDROP = 1 << 30;

    private final int match, mismatch, gap, xdrop;

    /**
     * Scores and drop-off.
     *
     * @param match added for equal bases, 1..1000
     * @param mismatch added for different bases, -1000..-1
     * @param gap added for each gap base (linear), -1000..-1
     * @param xdrop the drop-off X, 0..2^30
     * @throws IllegalArgumentException naming the value and its limit when one is out of range
     */
    public XdropParams(int match, int mismatch, int gap, int xdrop) {
        check("match", match, 1, MAX_SCORE);
        check("mismatch", mismatch, -MAX_SCORE, -1);
        check("gap", gap, -MAX_SCORE, -1);
        check("xdrop", xdrop, 0, MAX_XDROP);
        this.match = match;
        this.mismatch = mismatch;
        this.gap = gap;
        this.xdrop = xdrop;
    }

    /**
     * Match 1, mismatch -1, gap -1 and the given X.
     *
     * @param xdrop the drop-off X, 0..2^30
     * @return the parameters
     * @throws IllegalArgumentException if {@code xdrop} is out of range
     */
    public static XdropParams unit(int xdrop) {
        return new XdropParams(1, -1, -1, xdrop);
    }

    private static void check(String name, int v, int lo, int hi) {
        if (v < lo || v > hi) {
            throw new IllegalArgumentException("X-drop parameter " + name + " = " + v + ", must be in [" + lo
                + ", " + hi + "]");
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
     * The linear gap score.
     *
     * @return the value
     */
    public int gap() {
        return gap;
    }

    /**
     * The drop-off X.
     *
     * @return the value
     */
    public int xdrop() {
        return xdrop;
    }

    @Override
    public String toString() {
        return "XdropParams[match=" + match + ", mismatch=" + mismatch + ", gap=" + gap + ", xdrop=" + xdrop + "]";
    }
}
