package org.dpaccel.sw;

/**
 * What happens to the parts of the alternate sequence that overhang the reference; mirrors
 * GATK's {@code SWOverhangStrategy} (same names, same order) and {@code dpa_sw_overhang}.
 */
public enum SwOverhang {
    /** Overhangs become soft clips (S); offset = first aligned reference base. */
    SOFTCLIP(0),
    /** Traceback from the bottom-right corner; leading overhangs become I or D; offset 0. */
    INDEL(1),
    /** Best cell of the last column; a leading overhang becomes I or D; offset 0. */
    LEADING_INDEL(2),
    /** Overhangs are counted into the adjacent element; offset may be negative. */
    IGNORE(3);

    private final int code;

    SwOverhang(int code) {
        this.code = code;
    }

    /**
     * The native {@code dpa_sw_overhang} value.
     *
     * @return the code
     */
    public int code() {
        return code;
    }
}
