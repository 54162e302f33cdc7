package org.dpaccel.hmm;

/**
 * Filter thresholds as hmmsearch's {@code --F1}, {@code --F2} and {@code --nobias}, and whether to
 * compute every stage for every pair. Construction checks each value and names it.
 */
public final class HmmFilterParams {
    /** hmmsearch's default F1 (MSV and bias filter P-value threshold). */
    public static final double DEFAULT_F1 = 0.02;
    /** hmmsearch's default F2 (Viterbi filter P-value threshold). */
    public static final double DEFAULT_F2 = 1e-3;

    private final double f1, f2;
    private final boolean biasFilter, allScores;

    /**
     * The parameters.
     *
     * @param f1 MSV and bias threshold, in (0, 1]
     * @param f2 Viterbi filter threshold, in (0, 1]
     * @param biasFilter false = hmmsearch {@code --nobias}
     * @param allScores compute every stage's score for every pair (the pass flags are unchanged)
     * @throws IllegalArgumentException naming F1 or F2 when it is outside (0, 1] or NaN
     */
    public HmmFilterParams(double f1, double f2, boolean biasFilter, boolean allScores) {
        check("F1", f1);
        check("F2", f2);
        this.f1 = f1;
        this.f2 = f2;
        this.biasFilter = biasFilter;
        this.allScores = allScores;
    }

    /**
     * hmmsearch's defaults: F1 0.02, F2 1e-3, bias filter on, scores only where the pipeline
     * computes them.
     *
     * @return the parameters
     */
    public static HmmFilterParams defaults() {
        return new HmmFilterParams(DEFAULT_F1, DEFAULT_F2, true, false);
    }

    private static void check(String name, double v) {
        if (!(v > 0 && v <= 1)) {
            throw new IllegalArgumentException("HMM filter parameter " + name + " = " + v + ", must be in (0, 1]");
        }
    }

    /**
     * F1.
     *
     * @return the value
     */
    public double f1() {
        return f1;
    }

    /**
     * F2.
     *
     * @return the value
     */
    public double f2() {
        return f2;
    }

    /**
     * Whether the bias filter runs (false = {@code --nobias}).
     *
     * @return the flag
     */
    public boolean biasFilter() {
        return biasFilter;
    }

    /**
     * Whether every stage is computed for every pair.
     *
     * @return the flag
     */
    public boolean allScores() {
        return allScores;
    }

    @Override
    public String toString() {
        return "HmmFilterParams[F1=" + f1 + ", F2=" + f2 + ", biasFilter=" + biasFilter + ", allScores=" + allScores
            + "]";
    }
}
