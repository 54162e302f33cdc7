package org.dpaccel.pdhmm;

import java.util.Arrays;
import java.util.Objects;

/**
 * Read x haplotype pairs for {@link Pdhmm#compute}, packed the way GKL 0.9.1's
 * {@code IntelPDHMM.computePDHMM} takes them: pair {@code i} owns bytes
 * {@code [i * hapStride, i * hapStride + hapLength)} of the haplotype arrays and
 * {@code [i * readStride, ...)} of the read arrays. The builder checks sizes and quality bytes as
 * pairs are added (messages name the pair and the field); the one data-dependent rule, GATK's
 * "unexpected base in alt alleles" at SNP positions, is checked natively (docs/pdhmm.md).
 */
public final class PdhmmBatch {
    /** Longest read or haplotype (DPA_PDHMM_MAX_LENGTH). */
    public static final int MAX_LENGTH = 65536;

    final byte[] hapBases, hapPdBases, readBases, readQuals, insQuals, delQuals, gcpQuals;
    final long[] hapLengths, readLengths;
    final int hapStride, readStride;

    PdhmmBatch(byte[] hapBases, byte[] hapPdBases, byte[] readBases, byte[] readQuals, byte[] insQuals,
        byte[] delQuals, byte[] gcpQuals, long[] hapLengths, long[] readLengths, int hapStride, int readStride) {
        this.hapBases = hapBases;
        this.hapPdBases = hapPdBases;
        this.readBases = readBases;
        this.readQuals = readQuals;
        this.insQuals = insQuals;
        this.delQuals = delQuals;
        this.gcpQuals = gcpQuals;
        this.hapLengths = hapLengths;
        this.readLengths = readLengths;
        this.hapStride = hapStride;
        this.readStride = readStride;
    }

    /**
     * A batch over arrays already in GKL's layout (not copied: do not change them while it is in
     * use). Sizes and lengths are checked natively, with messages naming the array and the pair.
     *
     * @param hapBases {@code n * hapStride} bytes
     * @param hapPdBases {@code n * hapStride} PD bytes
     * @param readBases {@code n * readStride} bytes, and the four quality arrays likewise
     * @param readQuals base qualities
     * @param insQuals insertion gap-open penalties
     * @param delQuals deletion gap-open penalties
     * @param gcpQuals gap-continuation penalties
     * @param hapLengths {@code n} lengths, each in [1, hapStride]
     * @param readLengths {@code n} lengths, each in [1, readStride]
     * @param hapStride bytes per pair in the haplotype arrays
     * @param readStride bytes per pair in the read arrays
     * @return the batch
     */
    public static PdhmmBatch ofSlots(byte[] hapBases, byte[] hapPdBases, byte[] readBases, byte[] readQuals,
        byte[] insQuals, byte[] delQuals, byte[] gcpQuals, long[] hapLengths, long[] readLengths, int hapStride,
        int readStride) {
        return new PdhmmBatch(Objects.requireNonNull(hapBases, "hapBases"),
            Objects.requireNonNull(hapPdBases, "hapPdBases"), Objects.requireNonNull(readBases, "readBases"),
            Objects.requireNonNull(readQuals, "readQuals"), Objects.requireNonNull(insQuals, "insQuals"),
            Objects.requireNonNull(delQuals, "delQuals"), Objects.requireNonNull(gcpQuals, "gcpQuals"),
            Objects.requireNonNull(hapLengths, "hapLengths"), Objects.requireNonNull(readLengths, "readLengths"),
            hapStride, readStride);
    }

    /**
     * A new, empty builder.
     *
     * @return the builder
     */
    public static Builder builder() {
        return new Builder();
    }

    /**
     * Number of pairs.
     *
     * @return the count
     */
    public int size() {
        return hapLengths.length;
    }

    /** Collects pairs; not thread-safe. */
    public static final class Builder {
        private byte[][][] pairs = new byte[16][][];
        private int n;
        private int maxHap = 1, maxRead = 1;

        private Builder() {
        }

        /**
         * Adds a pair. Arrays are referenced until {@link #build()}, then copied.
         *
         * @param hapBases haplotype bases
         * @param hapPdBases GATK's PD bits per haplotype base (same length)
         * @param readBases read bases
         * @param readQuals base qualities, phred 0..127 (same length as the read)
         * @param insQuals insertion gap-open penalties
         * @param delQuals deletion gap-open penalties
         * @param gcpQuals gap-continuation penalties
         * @return this builder
         * @throws IllegalArgumentException if a length is outside [1, {@link #MAX_LENGTH}], the PD or
         *     a quality array's length differs, or a quality byte is negative (the message names the
         *     pair, the field and the index)
         */
        public Builder add(byte[] hapBases, byte[] hapPdBases, byte[] readBases, byte[] readQuals, byte[] insQuals,
            byte[] delQuals, byte[] gcpQuals) {
            byte[][] p = { hapBases, hapPdBases, readBases, readQuals, insQuals, delQuals, gcpQuals };
            String[] names = { "hapBases", "hapPdBases", "readBases", "readQuals", "insQuals", "delQuals",
                "gcpQuals" };
            for (int a = 0; a < 7; a++) {
                Objects.requireNonNull(p[a], "PDHMM pair " + n + ": " + names[a]);
            }
            length(hapBases.length, "hapBases");
            length(readBases.length, "readBases");
            if (hapPdBases.length != hapBases.length) {
                throw new IllegalArgumentException("PDHMM pair " + n + ": hapPdBases has " + hapPdBases.length
                    + " bytes, hapBases " + hapBases.length);
            }
            for (int a = 3; a < 7; a++) {
                if (p[a].length != readBases.length) {
                    throw new IllegalArgumentException("PDHMM pair " + n + ": " + names[a] + " has " + p[a].length
                        + " bytes, readBases " + readBases.length);
                }
                for (int i = 0; i < p[a].length; i++) {
                    if (p[a][i] < 0) {
                        throw new IllegalArgumentException("PDHMM pair " + n + ": " + names[a] + "[" + i + "] = "
                            + p[a][i] + ", must be in [0, 127]");
                    }
                }
            }
            if (n == pairs.length) {
                pairs = Arrays.copyOf(pairs, 2 * n);
            }
            pairs[n++] = p;
            maxHap = Math.max(maxHap, hapBases.length);
            maxRead = Math.max(maxRead, readBases.length);
            return this;
        }

        private void length(int len, String field) {
            if (len < 1 || len > MAX_LENGTH) {
                throw new IllegalArgumentException("PDHMM pair " + n + ": " + field + " length = " + len
                    + ", must be in [1, " + MAX_LENGTH + "]");
            }
        }

        /**
         * The batch, in the order pairs were added.
         *
         * @return the batch
         * @throws IllegalArgumentException if it would exceed 2^31 bytes per array
         */
        public PdhmmBatch build() {
            if ((long) n * Math.max(maxHap, maxRead) > Integer.MAX_VALUE - 8) {
                throw new IllegalArgumentException("PDHMM batch of " + n + " pairs x " + Math.max(maxHap, maxRead)
                    + " bytes per slot exceeds a Java array; split it");
            }
            byte[][] out = new byte[7][];
            for (int a = 0; a < 7; a++) {
                out[a] = new byte[n * (a < 2 ? maxHap : maxRead)];
            }
            long[] hl = new long[n], rl = new long[n];
            for (int i = 0; i < n; i++) {
                for (int a = 0; a < 7; a++) {
                    int stride = a < 2 ? maxHap : maxRead;
                    System.arraycopy(pairs[i][a], 0, out[a], i * stride, pairs[i][a].length);
                }
                hl[i] = pairs[i][0].length;
                rl[i] = pairs[i][2].length;
            }
            return new PdhmmBatch(out[0], out[1], out[2], out[3], out[4], out[5], out[6], hl, rl, maxHap, maxRead);
        }
    }
}
