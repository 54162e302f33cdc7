package org.dpaccel.papara;

/** Which recurrence scores a read against a profile (docs/papara.md). */
public enum ScoreModel {
    /** papara_core 2.5's ({@code pvec_aligner_vec}): max-plus with {@link PaparaParams}; the highest score wins. */
    PAPARA2(0),
    /**
     * The 2012 paper's kernel ({@code align_pvec_score}): min-plus with fixed costs (mismatch 3, flagged site 3,
     * gap open 3 + extend 1, insertion 3), the read banded inside the profile (shorter than it); the lowest score
     * wins. CPU scalar only; no traceback.
     */
    PAPER2012(1);

    private final int code;

    ScoreModel(int code) {
        this.code = code;
    }

    int code() {
        return code;
    }

    /**
     * @param name {@code papara2} or {@code paper2012}
     * @return the model
     * @throws IllegalArgumentException for any other name
     */
    public static ScoreModel parse(String name) {
        switch (name) {
            case "papara2": return PAPARA2;
            case "paper2012": return PAPER2012;
            default: throw new IllegalArgumentException("score model '" + name + "' is not papara2 or paper2012");
        }
    }
}
