package org.dpaccel.distance;

import java.util.Objects;

/**
 * A validated genotype batch: the body of a PLINK 1 .bed file in SNP-major order, as is
 * ({@code variants} rows of {@code (samples + 3) / 4} bytes; sample k in bits {@code 2*(k%4)} of
 * byte {@code k/4}; codes 00 hom A1, 01 missing, 10 het, 11 hom A2), plus an optional per-variant
 * use flag (the caller marks non-autosomal variants 0, as PLINK skips them). The arrays are
 * referenced, not copied: do not change them while a computation runs.
 */
public final class GenotypeBatch {
    /** Most samples (DPA_DISTANCE_MAX_SAMPLES). */
    public static final int MAX_SAMPLES = 1 << 24;

    final int samples;
    final int variants;
    final byte[] rows;
    final byte[] use;
    private final int used;

    private GenotypeBatch(int samples, int variants, byte[] rows, byte[] use, int used) {
        this.samples = samples;
        this.variants = variants;
        this.rows = rows;
        this.use = use;
        this.used = used;
    }

    /**
     * Bytes of one .bed row for {@code samples} samples.
     *
     * @param samples the sample count
     * @return {@code (samples + 3) / 4}
     */
    public static int rowBytes(int samples) {
        return (int) (((long) samples + 3) / 4);
    }

    /**
     * Wraps .bed rows.
     *
     * @param samples samples per row, 1 to {@link #MAX_SAMPLES}
     * @param variants rows, at least 0
     * @param rows exactly {@code variants * rowBytes(samples)} bytes
     * @param use null (every variant counts) or one byte per variant, 1 = use, 0 = skip
     * @return the batch
     * @throws NullPointerException if {@code rows} is null
     * @throws IllegalArgumentException naming the field, the value and the limit
     */
    public static GenotypeBatch of(int samples, int variants, byte[] rows, byte[] use) {
        Objects.requireNonNull(rows, "rows");
        if (samples < 1 || samples > MAX_SAMPLES) {
            throw new IllegalArgumentException("samples = " + samples + ", must be in [1, " + MAX_SAMPLES + "]");
        }
        if (variants < 0) {
            throw new IllegalArgumentException("variants = " + variants + ", must be >= 0");
        }
        long expected = (long) variants * rowBytes(samples);
        if (rows.length != expected) {
            throw new IllegalArgumentException("rows has " + rows.length + " bytes, " + variants + " variants x "
                + rowBytes(samples) + " bytes per row need " + expected);
        }
        int used = variants;
        if (use != null) {
            if (use.length != variants) {
                throw new IllegalArgumentException("use has " + use.length + " flags, must have one per variant ("
                    + variants + ")");
            }
            used = 0;
            for (int v = 0; v < variants; v++) {
                if (use[v] != 0 && use[v] != 1) {
                    throw new IllegalArgumentException("use[" + v + "] = " + use[v] + ", must be 0 or 1");
                }
                used += use[v];
            }
        }
        return new GenotypeBatch(samples, variants, rows, use, used);
    }

    /**
     * Samples.
     *
     * @return the count
     */
    public int samples() {
        return samples;
    }

    /**
     * Variants (rows), used or not.
     *
     * @return the count
     */
    public int variants() {
        return variants;
    }

    /**
     * Variants whose use flag is 1 (all without flags): PLINK's M in allele-ct.
     *
     * @return the count
     */
    public int variantsUsed() {
        return used;
    }
}
