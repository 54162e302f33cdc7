package org.dpaccel.hmm;

import java.util.Objects;

import org.dpaccel.Backend;
import org.dpaccel.DpaContext;
import org.dpaccel.DpaccelException;
import org.dpaccel.internal.ContextAccess;

/**
 * hmmsearch's pipeline up to the Viterbi filter (HMMER 3.4: MSV with SSV first, bias filter,
 * Viterbi filter; bit scores, Gumbel P-values and pass decisions) for every (model, sequence)
 * pair, bit-identical to HMMER. One JNI call per batch; the pairs run on the context's CPU
 * threads. See docs/hmm-filter.md.
 */
public final class HmmFilter {
    private HmmFilter() {
    }

    /**
     * Filters every sequence against every model on the context's backend.
     *
     * @param ctx the context to run on
     * @param profiles the models
     * @param batch the target sequences
     * @param params thresholds
     * @return one result per (model, sequence)
     * @throws IllegalStateException if {@code ctx} or {@code profiles} is closed
     * @throws IllegalArgumentException if models x sequences exceeds (2^31 - 9) / 4 pairs (split the batch)
     * @throws DpaccelException if the native library fails
     */
    public static HmmFilterResults compute(DpaContext ctx, HmmProfiles profiles, HmmSeqBatch batch,
        HmmFilterParams params) {
        return compute(ctx, profiles, batch, params, null);
    }

    /**
     * Filters every sequence against every model. {@code backend} null = the context's. There are
     * no GPU kernels yet: {@link Backend#GPU} fails with {@link org.dpaccel.Status#NO_DEVICE}, AUTO
     * and HYBRID run on the CPU.
     *
     * @param ctx the context to run on
     * @param profiles the models
     * @param batch the target sequences
     * @param params thresholds
     * @param backend where to run; null for the context's backend
     * @return one result per (model, sequence)
     * @throws IllegalStateException if {@code ctx} or {@code profiles} is closed
     * @throws IllegalArgumentException if models x sequences exceeds (2^31 - 9) / 4 pairs (split the batch)
     * @throws DpaccelException if the native library fails
     */
    public static HmmFilterResults compute(DpaContext ctx, HmmProfiles profiles, HmmSeqBatch batch,
        HmmFilterParams params, Backend backend) {
        Objects.requireNonNull(ctx, "ctx");
        Objects.requireNonNull(profiles, "profiles");
        Objects.requireNonNull(batch, "batch");
        Objects.requireNonNull(params, "params");
        long pairs = (long) profiles.size() * batch.size();
        if (4 * pairs > Integer.MAX_VALUE - 8) { // the flags array holds 4 bytes per pair
            throw new IllegalArgumentException("HMM filter: " + profiles.size() + " models x " + batch.size()
                + " sequences = " + pairs + " pairs, at most " + (Integer.MAX_VALUE - 8) / 4 + " per call");
        }
        int r = (int) pairs;
        float[] bits = new float[3 * r];
        double[] pvalues = new double[3 * r];
        byte[] flags = new byte[4 * r];
        long[] stats = new long[7];
        double[] dp = { params.f1(), params.f2() };
        int[] ip = { params.biasFilter() ? 1 : 0, params.allScores() ? 1 : 0, backend == null ? -1 : backend.code() };
        ContextAccess.of(ctx).hmmFilterCompute(profiles.nat, batch.residues, batch.lengths, dp, ip, bits, pvalues,
            flags, stats);
        return new HmmFilterResults(profiles.size(), batch.size(), bits, pvalues, flags, stats);
    }
}
