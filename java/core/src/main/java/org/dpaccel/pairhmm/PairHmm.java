package org.dpaccel.pairhmm;

import java.util.Objects;

import org.dpaccel.Backend;
import org.dpaccel.DpaContext;
import org.dpaccel.internal.Natives;

/** PairHMM forward likelihoods (GATK semantics) for JVM callers; see {@link PairHmmBatch}. */
public final class PairHmm {
    private PairHmm() {
    }

    /** Computes log10 likelihoods; returns a new array of {@link PairHmmBatch#resultCount()}. */
    public static double[] compute(DpaContext ctx, PairHmmBatch batch, Precision precision, Backend backend) {
        Objects.requireNonNull(batch, "batch");
        double[] out = new double[batch.resultCount()];
        compute(ctx, batch, precision, backend, out);
        return out;
    }

    public static double[] compute(DpaContext ctx, PairHmmBatch batch) {
        return compute(ctx, batch, Precision.FLOAT_THEN_DOUBLE, null);
    }

    /**
     * Computes into {@code out}, which must have exactly {@link PairHmmBatch#resultCount()}
     * elements. {@code backend} null = the context's.
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
        ctx.withHandle(h -> {
            Natives.pairhmmCompute(h, batch.readBases, batch.baseQuals, batch.insQuals, batch.delQuals,
                batch.gcpQuals, batch.readLengths, batch.hapBases, batch.hapLengths, batch.groupReads,
                batch.groupHaps, precision.ordinal(), backend == null ? -1 : backend.code(), out, stats);
            return null;
        });
        return PairHmmStats.of(stats);
    }
}
