package org.dpaccel.distance;

/**
 * The metrics derived from a pair's counts, each evaluated exactly as written here (so the
 * doubles, and their {@code %g} text, equal PLINK's). M is the number of variants used.
 */
public enum DistanceMetric {
    /** PLINK 1.9 {@code --distance ibs flat-missing}: {@code 1.0 - (IBS1 + 2*IBS0) / (2.0*NSNP)}. */
    IBS("ibs", 1.0),
    /** PLINK 1.9 {@code --distance 1-ibs flat-missing}: {@code (IBS1 + 2*IBS0) / (2.0*NSNP)}. */
    ONE_MINUS_IBS("1-ibs", 0.0),
    /** PLINK 1.9 {@code --distance allele-ct flat-missing}: {@code ((double)M / NSNP) * (IBS1 + 2*IBS0)}. */
    ALLELE_CT("allele-ct", 0.0),
    /**
     * KING-robust kinship (PLINK 2 {@code --make-king}):
     * {@code 0.5 - (4*IBS0 + HET1_HOM2 + HET2_HOM1) / (4.0*(HETHET + min(HET1_HOM2, HET2_HOM1)))}.
     */
    KING("king", 0.5),
    /** Genotype mismatches: {@code IBS0 + IBS1}. */
    DIFFER("differ", 0.0);

    private final String label;
    private final double diagonal;

    DistanceMetric(String label, double diagonal) {
        this.label = label;
        this.diagonal = diagonal;
    }

    /**
     * The name on the command line and in output file names ({@code ibs}, {@code 1-ibs}, ...).
     *
     * @return the label
     */
    public String label() {
        return label;
    }

    /**
     * The value of a sample with itself, as PLINK writes it on the diagonal.
     *
     * @return 1 for ibs, 0.5 for king, 0 otherwise
     */
    public double diagonal() {
        return diagonal;
    }

    /**
     * The metric by its label.
     *
     * @param label e.g. {@code "1-ibs"}
     * @return the metric
     * @throws IllegalArgumentException for an unknown label (the message lists the known ones)
     */
    public static DistanceMetric parse(String label) {
        for (DistanceMetric m : values()) {
            if (m.label.equals(label)) {
                return m;
            }
        }
        throw new IllegalArgumentException("unknown metric '" + label + "'; known: ibs, 1-ibs, allele-ct, king, differ");
    }

    /**
     * The metric of one pair of a counts result.
     *
     * @param c the counts
     * @param pair the pair's index in c
     * @param variantsUsed M
     * @return the value (NaN where PLINK's formula divides 0 by 0)
     */
    public double value(DistanceCounts c, long pair, long variantsUsed) {
        double nsnp = c.get(pair, DistanceCounts.NSNP);
        double ibs0 = c.get(pair, DistanceCounts.IBS0);
        double ibs1 = c.get(pair, DistanceCounts.IBS1);
        switch (this) {
            case IBS:
                return 1.0 - (ibs1 + 2 * ibs0) / (2.0 * nsnp);
            case ONE_MINUS_IBS:
                return (ibs1 + 2 * ibs0) / (2.0 * nsnp);
            case ALLELE_CT:
                return ((double) variantsUsed / nsnp) * (ibs1 + 2 * ibs0);
            case KING: {
                double hethet = c.get(pair, DistanceCounts.HETHET);
                double h12 = c.get(pair, DistanceCounts.HET1_HOM2);
                double h21 = c.get(pair, DistanceCounts.HET2_HOM1);
                return 0.5 - (4 * ibs0 + h12 + h21) / (4.0 * (hethet + Math.min(h12, h21)));
            }
            default:
                return ibs0 + ibs1;
        }
    }
}
