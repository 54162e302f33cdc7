package org.dpaccel.distance;

import java.util.Objects;

import org.dpaccel.Backend;
import org.dpaccel.DpaContext;
import org.dpaccel.DpaccelException;
import org.dpaccel.internal.ContextAccess;

/**
 * All-pairs genotype distance counts with PLINK's flat-missing semantics (docs/distance.md):
 * for each pair, over the used variants called in both samples, NSNP, IBS0, IBS1, IBS2, HETHET,
 * HET1_HOM2, HET2_HOM1. One JNI call per request; the pairs run in tiles on the context's CPU
 * threads with the fastest bit-plane kernel (AVX-512, AVX2 or scalar: the same counts).
 */
public final class GenotypeDistance {
    /** Largest count array one call may return (Java's array limit). */
    static final long MAX_INTS = Integer.MAX_VALUE - 16;

    private GenotypeDistance() {
    }

    /**
     * Counts every pair i &lt; j (the triangle, i outer; {@link DistanceCounts#triangleIndex}).
     *
     * @param ctx the context to run on
     * @param batch the genotypes
     * @return the counts
     * @throws IllegalArgumentException when the triangle needs more than a Java array holds
     * @throws IllegalStateException if {@code ctx} is closed
     * @throws DpaccelException if the native library fails
     */
    public static DistanceCounts counts(DpaContext ctx, GenotypeBatch batch) {
        return counts(ctx, batch, null, null, 0);
    }

    /**
     * Counts the triangle ({@code tile} null) or a tile (row-major).
     *
     * @param ctx the context to run on
     * @param batch the genotypes
     * @param tile the pairs, or null for the triangle
     * @param backend where to run, null for the context's ({@link Backend#GPU} fails with
     *     {@code Status.NO_DEVICE} when no GPU is usable)
     * @param block samples per side of a scheduler task, 8..4096, or 0 for the default
     * @return the counts
     * @throws IllegalArgumentException for a tile outside the batch, a bad block, or more counts
     *     than a Java array holds
     * @throws IllegalStateException if {@code ctx} is closed
     * @throws DpaccelException if the native library fails
     */
    public static DistanceCounts counts(DpaContext ctx, GenotypeBatch batch, DistanceTile tile, Backend backend,
        int block) {
        Objects.requireNonNull(ctx, "ctx");
        Objects.requireNonNull(batch, "batch");
        int n = batch.samples;
        if (tile != null && (tile.row1() > n || tile.col1() > n)) {
            throw new IllegalArgumentException("tile " + tile + " reaches beyond the batch's " + n + " samples");
        }
        if (block != 0 && (block < 8 || block > 4096)) {
            throw new IllegalArgumentException("block = " + block + ", must be 0 or 8..4096");
        }
        long pairs = tile != null ? tile.pairs() : (long) n * (n - 1) / 2;
        if (pairs * DistanceCounts.FIELDS > MAX_INTS) {
            throw new IllegalArgumentException(pairs + " pairs x 7 counts exceed a Java array ("
                + MAX_INTS + "); ask for tiles");
        }
        int[] out = new int[(int) (pairs * DistanceCounts.FIELDS)];
        long[] stats = new long[6];
        int[] t = tile == null ? null : new int[] {tile.row0(), tile.row1(), tile.col0(), tile.col1()};
        ContextAccess.of(ctx).distanceCounts(n, batch.variants, batch.rows, batch.use, t,
            backend == null ? -1 : backend.code(), block, out, stats);
        return new DistanceCounts(out, stats);
    }
}
