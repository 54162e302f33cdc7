package org.dpaccel.distance;

import org.dpaccel.Isa;

/**
 * Seven counts per pair, in the layout of the request: the triangle (pairs i &lt; j, i outer:
 * {@link #triangleIndex}) or a tile (row-major). Counts are unsigned 32-bit values, returned as
 * long.
 */
public final class DistanceCounts {
    /** Counts per pair. */
    public static final int FIELDS = 7;
    /** Called in both samples. */
    public static final int NSNP = 0;
    /** Opposite homozygotes. */
    public static final int IBS0 = 1;
    /** One het, one hom. */
    public static final int IBS1 = 2;
    /** Identical calls. */
    public static final int IBS2 = 3;
    /** Both het. */
    public static final int HETHET = 4;
    /** Sample 1 (i, the row) het, sample 2 hom. */
    public static final int HET1_HOM2 = 5;
    /** Sample 2 (j, the column) het, sample 1 hom. */
    public static final int HET2_HOM1 = 6;

    private final int[] counts;
    private final long pairs, variantsUsed, variantsSkipped, gpuPairs;
    private final Isa isa;

    DistanceCounts(int[] counts, long[] stats) {
        this.counts = counts;
        pairs = stats[0];
        variantsUsed = stats[1];
        variantsSkipped = stats[2];
        isa = Isa.fromCode((int) stats[4]);
        gpuPairs = stats[5];
    }

    /**
     * Position of pair (i, j), i &lt; j, in a triangle of n samples.
     *
     * @param n samples
     * @param i first sample
     * @param j second sample, greater than i
     * @return the pair's index
     */
    public static long triangleIndex(int n, int i, int j) {
        return (long) i * n - (long) i * (i + 1) / 2 + (j - i - 1);
    }

    /**
     * Pairs held.
     *
     * @return the count
     */
    public long pairs() {
        return pairs;
    }

    /**
     * One count of one pair.
     *
     * @param pair the pair's index in the layout
     * @param field {@link #NSNP} .. {@link #HET2_HOM1}
     * @return the count, 0 .. 2^32 - 1
     */
    public long get(long pair, int field) {
        return Integer.toUnsignedLong(counts[Math.toIntExact(pair * FIELDS + field)]);
    }

    /**
     * Variants counted (use flag 1).
     *
     * @return the count
     */
    public long variantsUsed() {
        return variantsUsed;
    }

    /**
     * Variants skipped (use flag 0), e.g. non-autosomal ones.
     *
     * @return the count
     */
    public long variantsSkipped() {
        return variantsSkipped;
    }

    /**
     * The CPU kernel's instruction set.
     *
     * @return the ISA
     */
    public Isa isa() {
        return isa;
    }

    /**
     * Pairs counted on a GPU (0 when the CPU counted them all).
     *
     * @return the count
     */
    public long gpuPairs() {
        return gpuPairs;
    }
}
