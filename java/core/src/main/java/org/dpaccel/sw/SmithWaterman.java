package org.dpaccel.sw;

import java.util.Objects;

import org.dpaccel.Backend;
import org.dpaccel.DpaContext;
import org.dpaccel.internal.Natives;

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
        ctx.withHandle(h -> {
            Natives.swCompute(h, batch.refs, batch.refLengths, batch.alts, batch.altLengths, params, cigars,
                cigarLengths, offsets, stats);
            return null;
        });
        return new SwResults(cigars, cigarLengths, offsets, stats);
    }

    /** One pair. */
    public static SwAlignment align(DpaContext ctx, byte[] ref, byte[] alt, SwParameters parameters,
        SwOverhang overhang) {
        return align(ctx, SwBatch.of(ref, alt), parameters, overhang, null).get(0);
    }
}
