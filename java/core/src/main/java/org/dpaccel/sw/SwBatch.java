package org.dpaccel.sw;

import java.util.Arrays;
import java.util.Objects;

/**
 * An immutable, validated batch of (reference, alternate) pairs packed as
 * structure-of-arrays, ready to cross JNI in one call: concatenated references, concatenated
 * alternates, and their lengths. Every pair is checked as it is added (null, empty,
 * {@link #MAX_LENGTH}, {@link #MAX_CELLS}, Java array limits), and the message names the pair
 * index and the field. Bases are compared as bytes (GATK expects upper case).
 */
public final class SwBatch {
    /** Longest reference or alternate (DPA_SW_MAX_LENGTH). */
    public static final int MAX_LENGTH = 65536;
    /** Largest refLength * altLength of one pair (DPA_SW_MAX_CELLS; one traceback byte per cell). */
    public static final long MAX_CELLS = 1L << 30;
    static final int MAX_ARRAY = Integer.MAX_VALUE - 16;

    final byte[] refs, alts;
    final int[] refLengths, altLengths;
    final int cigarCapacity;
    final long cells;
    private final int widestPair;

    private SwBatch(Builder b) {
        refs = Arrays.copyOf(b.refs, b.refBytes);
        alts = Arrays.copyOf(b.alts, b.altBytes);
        refLengths = Arrays.copyOf(b.refLengths, b.n);
        altLengths = Arrays.copyOf(b.altLengths, b.n);
        cigarCapacity = (int) b.cigarCapacity;
        cells = b.cells;
        widestPair = b.widestPair;
    }

    /**
     * An empty builder.
     *
     * @return a new builder
     */
    public static Builder builder() {
        return new Builder();
    }

    /**
     * A batch of one pair.
     *
     * @param ref the reference
     * @param alt the alternate
     * @return the batch
     * @throws NullPointerException if a sequence is null
     * @throws IllegalArgumentException for an empty or too long sequence
     */
    public static SwBatch of(byte[] ref, byte[] alt) {
        return builder().add(ref, alt).build();
    }

    /**
     * Pairs in the batch.
     *
     * @return the count
     */
    public int size() {
        return refLengths.length;
    }

    /**
     * Reference length of a pair.
     *
     * @param i the pair index
     * @return the length
     */
    public int refLength(int i) {
        return refLengths[i];
    }

    /**
     * Alternate length of a pair.
     *
     * @param i the pair index
     * @return the length
     */
    public int altLength(int i) {
        return altLengths[i];
    }

    /**
     * Dynamic-programming cells.
     *
     * @return the sum of refLength * altLength over the pairs
     */
    public long cells() {
        return cells;
    }

    /**
     * Bytes the packed CIGARs can take at most.
     *
     * @return 2 * (refLength + altLength) summed over the pairs
     */
    public int cigarCapacity() {
        return cigarCapacity;
    }

    /** Throws IllegalArgumentException when {@code p} with some pair could overflow int32 scores. */
    void checkScoreBound(SwParameters p) {
        if (widestPair >= 0) {
            p.checkScoreBound("pair " + widestPair, refLengths[widestPair], altLengths[widestPair]);
        }
    }

    /** Collects pairs, validating each as it is added. */
    public static final class Builder {
        private byte[] refs = new byte[1024], alts = new byte[1024];
        private int[] refLengths = new int[16], altLengths = new int[16];
        private int n, refBytes, altBytes, widestPair = -1;
        private long cigarCapacity, cells;
        private boolean built;

        /**
         * Adds one pair; the arrays are copied.
         *
         * @param ref the reference
         * @param alt the alternate
         * @return this builder
         * @throws NullPointerException if a sequence is null (the message names the pair)
         * @throws IllegalArgumentException for an empty or too long sequence, more than
         *     {@link #MAX_CELLS} cells, or a batch beyond Java's array limits
         * @throws IllegalStateException if the builder has been built
         */
        public Builder add(byte[] ref, byte[] alt) {
            if (built) {
                throw new IllegalStateException("SwBatch.Builder already built");
            }
            Objects.requireNonNull(ref, () -> "ref of pair " + n + " is null");
            Objects.requireNonNull(alt, () -> "alt of pair " + n + " is null");
            checkLength("ref", ref.length);
            checkLength("alt", alt.length);
            long c = (long) ref.length * alt.length;
            if (c > MAX_CELLS) {
                throw new IllegalArgumentException("pair " + n + ": ref length " + ref.length + " x alt length "
                    + alt.length + " = " + c + " cells, more than the maximum " + MAX_CELLS);
            }
            long cap = 2L * (ref.length + (long) alt.length);
            if ((long) refBytes + ref.length > MAX_ARRAY || (long) altBytes + alt.length > MAX_ARRAY
                || cigarCapacity + cap > MAX_ARRAY || n == MAX_ARRAY) {
                throw new IllegalArgumentException("pair " + n + ": the batch would exceed a Java array ("
                    + MAX_ARRAY + " bytes of references, alternates or CIGARs); split it");
            }
            refs = ensure(refs, refBytes + ref.length);
            alts = ensure(alts, altBytes + alt.length);
            System.arraycopy(ref, 0, refs, refBytes, ref.length);
            System.arraycopy(alt, 0, alts, altBytes, alt.length);
            refBytes += ref.length;
            altBytes += alt.length;
            if (n == refLengths.length) {
                int len = (int) Math.min(MAX_ARRAY, 2L * n);
                refLengths = Arrays.copyOf(refLengths, len);
                altLengths = Arrays.copyOf(altLengths, len);
            }
            refLengths[n] = ref.length;
            altLengths[n] = alt.length;
            if (widestPair < 0 || ref.length + alt.length > refLengths[widestPair] + altLengths[widestPair]) {
                widestPair = n;
            }
            cigarCapacity += cap;
            cells += c;
            n++;
            return this;
        }

        private void checkLength(String field, int len) {
            if (len == 0) {
                throw new IllegalArgumentException(field + " of pair " + n + " is empty; Smith-Waterman needs "
                    + "non-empty sequences");
            }
            if (len > MAX_LENGTH) {
                throw new IllegalArgumentException(field + " of pair " + n + " has length " + len
                    + ", more than the maximum " + MAX_LENGTH);
            }
        }

        private static byte[] ensure(byte[] a, int need) {
            if (need <= a.length) {
                return a;
            }
            return Arrays.copyOf(a, (int) Math.min(MAX_ARRAY, Math.max(need, 2L * a.length)));
        }

        /**
         * Pairs added so far.
         *
         * @return the count
         */
        public int size() {
            return n;
        }

        /**
         * The batch. The builder cannot be used afterwards.
         *
         * @return the batch
         */
        public SwBatch build() {
            built = true;
            return new SwBatch(this);
        }
    }
}
