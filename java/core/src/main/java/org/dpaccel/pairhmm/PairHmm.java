package org.dpaccel.pairhmm;

import java.util.Objects;

import org.dpaccel.Backend;
import org.dpaccel.DpaContext;
import org.dpaccel.DpaccelException;
import org.dpaccel.internal.ContextAccess;

/** PairHMM forward likelihoods (GATK semantics) for JVM callers; see {@link PairHmmBatch}. */
public final class PairHmm {
    private PairHmm() {
    }

    /**
     * Computes log10 likelihoods into a new array.
     *
     * @param ctx the context to run on
     * @param batch the reads and haplotypes
     * @param precision float with double recompute, or double only
     * @param backend where to run; null for the context's backend
     * @return {@link PairHmmBatch#resultCount()} log10 likelihoods, in the batch's order
     * @throws IllegalStateException if {@code ctx} is closed
     * @throws DpaccelException if the native library fails, e.g. {@link org.dpaccel.Status#NO_DEVICE}
     *     for {@link Backend#GPU} without a usable GPU
     */
    public static double[] compute(DpaContext ctx, PairHmmBatch batch, Precision precision, Backend backend) {
        Objects.requireNonNull(batch, "batch");
        double[] out = new double[batch.resultCount()];
        compute(ctx, batch, precision, backend, out);
        return out;
    }

    /**
     * Computes log10 likelihoods with {@link Precision#FLOAT_THEN_DOUBLE} on the context's backend.
     *
     * @param ctx the context to run on
     * @param batch the reads and haplotypes
     * @return {@link PairHmmBatch#resultCount()} log10 likelihoods, in the batch's order
     * @throws IllegalStateException if {@code ctx} is closed
     * @throws DpaccelException if the native library fails
     */
    public static double[] compute(DpaContext ctx, PairHmmBatch batch) {
        return compute(ctx, batch, Precision.FLOAT_THEN_DOUBLE, null);
    }

    /**
     * Computes log10 likelihoods into {@code out}.
     *
     * @param ctx the context to run on
     * @param batch the reads and haplotypes
     * @param precision float with double recompute, or double only
     * @param backend where to run; null for the context's backend
     * @param out exactly {@link PairHmmBatch#resultCount()} elements, filled in the batch's order
     * @return what the call did
     * @throws IllegalArgumentException if {@code out} has the wrong length
     * @throws IllegalStateException if {@code ctx} is closed
     * @throws DpaccelException if the native library fails
     */
    public static PairHmmStats compute(DpaContext ctx, PairHmmBatch batch, Precision precision,
        Backend backend, double[] out) {
        Objects.requireNonNull(ctx, "ctx");
        Objects.requireNonNull(batch, "batch");
        Objects.requireNonNull(precision, "precision");
        Objects.requireNonNull(out, "out");
        if (out.length != batch.resultCount()) {
            throw new IllegalArgumentException("out has length " + out.length + " but the batch produces "
                + batch.resultCount() + " likelihoods");
        }
        long[] stats = new long[5];
        if (batch.resultCount() == 0) {
            return new PairHmmStats(0, 0, 0, 0, ctx.isa());
        }
        ContextAccess.of(ctx).pairhmmCompute(batch.readBases, batch.baseQuals, batch.insQuals, batch.delQuals,
            batch.gcpQuals, batch.readLengths, batch.hapBases, batch.hapLengths, batch.groupReads,
            batch.groupHaps, precision.ordinal(), backend == null ? -1 : backend.code(), out, stats);
        return PairHmmStats.of(stats);
    }
}
