package org.dpaccel.papara;

/** How a profile site's gap flag is derived (docs/papara.md). */
public enum GapModel {
    /** PaPaRa's default: 2-state gap likelihoods, flag = L(non-gap) &lt; L(gap). */
    PROB(0),
    /** PaPaRa's {@code -c}: parsimony-like gap flags ({@code pvec_cgap}). */
    CGAP(1);

    private final int code;

    GapModel(int code) {
        this.code = code;
    }

    /**
     * The C API's code.
     *
     * @return 0 for PROB, 1 for CGAP
     */
    public int code() {
        return code;
    }
}
