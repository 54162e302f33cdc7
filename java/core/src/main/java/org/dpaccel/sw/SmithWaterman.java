package org.dpaccel.sw;

import java.util.Objects;

import org.dpaccel.Backend;
import org.dpaccel.DpaContext;
import org.dpaccel.DpaccelException;
import org.dpaccel.internal.ContextAccess;

/**
 * Smith-Waterman alignment with GATK 4.6 semantics for JVM callers: results are byte-identical
 * to {@code SmithWatermanJavaAligner.align(ref, alt, parameters, strategy)} (CIGAR and
 * alignment offset, exact-substring shortcut included). One JNI call per batch; the pairs run
 * on the context's CPU threads (AVX-512, AVX2 or scalar kernels) or its GPUs, as the backend
 * says (see the five-argument align). See docs/sw.md.
 */
public final class SmithWaterman {
    private SmithWaterman() {
    }

    /**
     * Aligns every pair of the batch on the context's backend.
     *
     * @param ctx the context to run on
     * @param batch the pairs
     * @param parameters the scores
     * @param overhang what happens to overhanging ends
     * @return the CIGARs and offsets, in pair order
     * @throws IllegalArgumentException when the parameters with a pair's lengths could overflow the
     *     int32 scores (the message names the pair)
     * @throws IllegalStateException if {@code ctx} is closed
     * @throws DpaccelException if the native library fails
     */
    public static SwResults align(DpaContext ctx, SwBatch batch, SwParameters parameters, SwOverhang overhang) {
        return align(ctx, batch, parameters, overhang, null);
    }

    /**
     * Aligns every pair of the batch. {@code backend} null = the context's. {@link Backend#GPU}
     * aligns on the GPUs (CUDA, docs/sw-cuda.md; {@code Status.NO_DEVICE} when none is usable),
     * {@link Backend#AUTO} uses them only for batches large enough to win, {@link Backend#HYBRID}
     * shares the batch between GPUs and CPU threads; the CIGARs and offsets are identical on
     * every backend ({@link SwResults#gpuPairs()} says how many pairs ran on a GPU). Throws
     * IllegalArgumentException (naming the pair) when the parameters with a pair's lengths could
     * overflow the int32 scores.
     *
     * @param ctx the context to run on
     * @param batch the pairs
     * @param parameters the scores
     * @param overhang what happens to overhanging ends
     * @param backend where to run; null for the context's backend
     * @return the CIGARs and offsets, in pair order
     * @throws IllegalArgumentException when the parameters with a pair's lengths could overflow the
     *     int32 scores (the message names the pair)
     * @throws IllegalStateException if {@code ctx} is closed
     * @throws DpaccelException if the native library fails, e.g. {@link org.dpaccel.Status#NO_DEVICE}
     *     for {@link Backend#GPU} without a usable GPU
     */
    public static SwResults align(DpaContext ctx, SwBatch batch, SwParameters parameters, SwOverhang overhang,
        Backend backend) {
        Objects.requireNonNull(ctx, "ctx");
        Objects.requireNonNull(batch, "batch");
        Objects.requireNonNull(parameters, "parameters");
        Objects.requireNonNull(overhang, "overhang");
        batch.checkScoreBound(parameters);
        int n = batch.size();
        byte[] cigars = new byte[batch.cigarCapacity()];
        int[] cigarLengths = new int[n];
        int[] offsets = new int[n];
        long[] stats = new long[6];
        if (n == 0) {
            return new SwResults(cigars, cigarLengths, offsets, stats);
        }
        int[] params = { parameters.match(), parameters.mismatch(), parameters.gapOpen(), parameters.gapExtend(),
            overhang.code(), backend == null ? -1 : backend.code() };
        ContextAccess.of(ctx).swCompute(batch.refs, batch.refLengths, batch.alts, batch.altLengths, params, cigars,
            cigarLengths, offsets, stats);
        return new SwResults(cigars, cigarLengths, offsets, stats);
    }

    /**
     * Aligns one pair on the context's backend.
     *
     * @param ctx the context to run on
     * @param ref the reference
     * @param alt the alternate
     * @param parameters the scores
     * @param overhang what happens to overhanging ends
     * @return the CIGAR and offset
     * @throws IllegalArgumentException for an empty or too long sequence, or scores that could overflow
     * @throws IllegalStateException if {@code ctx} is closed
     * @throws DpaccelException if the native library fails
     */
    public static SwAlignment align(DpaContext ctx, byte[] ref, byte[] alt, SwParameters parameters,
        SwOverhang overhang) {
        return align(ctx, SwBatch.of(ref, alt), parameters, overhang, null).get(0);
    }
}
