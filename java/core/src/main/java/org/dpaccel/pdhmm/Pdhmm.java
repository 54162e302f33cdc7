package org.dpaccel.pdhmm;

import java.util.Objects;

import org.dpaccel.Backend;
import org.dpaccel.DpaContext;
import org.dpaccel.DpaccelException;
import org.dpaccel.Status;
import org.dpaccel.internal.ContextAccess;

/**
 * GATK's partially-determined PairHMM for JVM callers: with {@link Rows#GATK} every result is the
 * double GATK's {@code LoglessPDPairHMM} (4.6, 4.7) returns for the same pair on the same JVM, bit
 * for bit (docs/pdhmm.md). One JNI call per batch; the pairs run on the context's CPU threads with
 * the fastest ISA it allows, or on a GPU.
 */
public final class Pdhmm {
    /** PartiallyDeterminedHaplotype.SNP. */
    public static final byte SNP = 1;
    /** PartiallyDeterminedHaplotype.DEL_START. */
    public static final byte DEL_START = 2;
    /** PartiallyDeterminedHaplotype.DEL_END. */
    public static final byte DEL_END = 4;
    /** PartiallyDeterminedHaplotype.A. */
    public static final byte A = 8;
    /** PartiallyDeterminedHaplotype.C. */
    public static final byte C = 16;
    /** PartiallyDeterminedHaplotype.G. */
    public static final byte G = 32;
    /** PartiallyDeterminedHaplotype.T. */
    public static final byte T = 64;

    private Pdhmm() {
    }

    /**
     * Where a row starts in GATK's column state machine (see docs/pdhmm.md). The two differ only
     * when a row ends inside a deletion (the haplotype's last DEL_START has no DEL_END after it).
     */
    public enum Rows {
        /**
         * Carry the last column's state into the next row, and take the final log10 with this JVM's
         * {@code Math.log10}: GATK's Java LoglessPDPairHMM (4.6, 4.7).
         */
        GATK,
        /** Start every row NORMAL: GKL 0.9.1's native IntelPDHMM, which GATK 4.7 runs on AVX hosts. */
        GKL,
        /**
         * Carry the state as GATK's Java does, but take the final log10 with the C library's: GKL 0.9.1's
         * serial code (the pairs of a batch that fill no vector, and every pair before
         * {@code initialize}).
         */
        GKL_SERIAL
    }

    /** GATK's {@code INITIAL_CONDITION_LOG10}, computed as it does. */
    private static final double INITIAL_CONDITION_LOG10 = Math.log10(Math.pow(2, 1020));

    /**
     * The log10 likelihood of every pair, on the context's backend.
     *
     * @param ctx the context to run on
     * @param batch the pairs
     * @return one value per pair, in pair order
     * @throws IllegalStateException if {@code ctx} is closed
     * @throws DpaccelException if the batch is invalid (the message names the pair and the field) or
     *     the native library fails
     */
    public static double[] compute(DpaContext ctx, PdhmmBatch batch) {
        return compute(ctx, batch, Rows.GATK, null, null);
    }

    /**
     * The log10 likelihood of every pair. {@code backend} null = the context's; {@link Backend#GPU}
     * fails with {@code Status.NO_DEVICE} where no GPU is usable. Results are the same bits on
     * every backend. With {@link Rows#GATK} the native library returns each pair's scaled sum and
     * the log10 is taken here, with {@code Math.log10} as GATK's Java takes it: the C library's
     * log10 differs from it in the last bit on about 1 input in 2,000 (docs/pdhmm.md).
     *
     * @param ctx the context to run on
     * @param batch the pairs
     * @param rows GATK's Java semantics or GKL 0.9.1's native ones
     * @param backend where to run; null for the context's backend
     * @param stats null, or an array that receives pairs, cells, GPU pairs and the ISA code
     * @return one value per pair, in pair order
     * @throws IllegalStateException if {@code ctx} is closed
     * @throws DpaccelException if the batch is invalid or the native library fails
     */
    public static double[] compute(DpaContext ctx, PdhmmBatch batch, Rows rows, Backend backend, long[] stats) {
        Objects.requireNonNull(ctx, "ctx");
        Objects.requireNonNull(batch, "batch");
        Objects.requireNonNull(rows, "rows");
        int n = batch.size();
        double[] out = new double[n];
        if (n == 0 && backend != Backend.GPU) {
            return out;
        }
        ContextAccess.of(ctx).pdhmmCompute(batch.hapBases, batch.hapPdBases, batch.readBases, batch.readQuals,
            batch.insQuals, batch.delQuals, batch.gcpQuals, batch.hapLengths, batch.readLengths, batch.hapStride,
            batch.readStride, backend == null ? -1 : backend.code(), rows == Rows.GKL ? 1 : 0,
            rows == Rows.GATK ? 1 : 0, out, stats == null ? new long[4] : stats);
        if (rows == Rows.GATK) {
            for (int i = 0; i < n; i++) {
                double r = Math.log10(out[i]) - INITIAL_CONDITION_LOG10;
                // the native check took the C log10; GATK's check is on this value
                if (!(r <= 0.0)) {
                    throw new DpaccelException(Status.INVALID_ARG, "pdhmm batch: pair " + i + ": result " + r
                        + " is not a log10 probability (GATK throws \"PairHMM Log Probability cannot be greater"
                        + " than 0\")");
                }
                out[i] = r;
            }
        }
        return out;
    }
}
