package org.dpaccel.pairhmm;

/** Mirrors {@code dpa_precision}. */
public enum Precision {
    /** Float with 2^120 scaling; pairs whose float sum is below 1e-28 recomputed in double (GATK/GKL). */
    FLOAT_THEN_DOUBLE,
    /** Double only (GATK's {@code useDoublePrecision}). */
    DOUBLE
}
