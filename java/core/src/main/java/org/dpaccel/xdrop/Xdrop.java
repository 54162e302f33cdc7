package org.dpaccel.xdrop;

import java.util.Objects;

import org.dpaccel.Backend;
import org.dpaccel.DpaContext;
import org.dpaccel.DpaccelException;
import org.dpaccel.internal.ContextAccess;

/**
 * Gapped X-drop seed extension with SeqAn 2.x semantics for JVM callers: every result equals
 * {@code extendSeed(seed, target, query, EXTEND_BOTH, Score<int, Simple>(match, mismatch, gap), X,
 * GappedXDrop())}. One JNI call per batch; the seeds run on the context's CPU threads. See
 * docs/xdrop.md.
 */
public final class Xdrop {
    private Xdrop() {
    }

    /**
     * Extends every seed of the batch on the context's backend.
     *
     * @param ctx the context to run on
     * @param batch sequences and seeds
     * @param params scores and X
     * @return one result per seed, in seed order
     * @throws IllegalStateException if {@code ctx} is closed
     * @throws DpaccelException if the native library fails
     */
    public static XdropResults compute(DpaContext ctx, XdropBatch batch, XdropParams params) {
        return compute(ctx, batch, params, null);
    }

    /**
     * Extends every seed of the batch. {@code backend} null = the context's. Every backend gives
     * the same results; {@link Backend#GPU} fails with {@code Status.NO_DEVICE} when no GPU is
     * usable.
     *
     * @param ctx the context to run on
     * @param batch sequences and seeds
     * @param params scores and X
     * @param backend where to run; null for the context's backend
     * @return one result per seed, in seed order
     * @throws IllegalStateException if {@code ctx} is closed
     * @throws DpaccelException if the native library fails, e.g. {@link org.dpaccel.Status#NO_DEVICE}
     *     for {@link Backend#GPU}
     */
    public static XdropResults compute(DpaContext ctx, XdropBatch batch, XdropParams params, Backend backend) {
        Objects.requireNonNull(ctx, "ctx");
        Objects.requireNonNull(batch, "batch");
        Objects.requireNonNull(params, "params");
        int n = batch.size();
        int[] out = new int[7 * n];
        long[] stats = new long[4];
        int[] p = { params.match(), params.mismatch(), params.gap(), params.xdrop(),
            backend == null ? -1 : backend.code() };
        if (n == 0 && backend != Backend.GPU) {
            return new XdropResults(0, out, stats);
        }
        ContextAccess.of(ctx).xdropCompute(batch.bases, batch.seqLengths, batch.pairs, p, out, stats);
        return new XdropResults(n, out, stats);
    }
}
