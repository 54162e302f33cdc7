package org.dpaccel.xdrop;

import java.util.Arrays;
import java.util.Objects;

/**
 * Sequences and seeds for {@link Xdrop#compute}. Each sequence is stored once and named by its
 * index, since many seeds share a read; a seed names its query and target sequences, its start in
 * each and its length, and the strand. On the reverse strand the target is reverse-complemented
 * first, and {@code tpos} and the result's target coordinates refer to that reverse complement.
 * The builder checks everything as it is added (messages name the seed or sequence index, the
 * field and the limit), so a built batch never fails validation in native code.
 */
public final class XdropBatch {
    /** Longest sequence (DPA_XDROP_MAX_LENGTH). */
    public static final int MAX_LENGTH = (1 << 20) - 1;

    final byte[] bases;
    final int[] seqLengths;
    final int[] pairs; // 6 per seed: query, target, qpos, tpos, length, strand

    private XdropBatch(byte[] bases, int[] seqLengths, int[] pairs) {
        this.bases = bases;
        this.seqLengths = seqLengths;
        this.pairs = pairs;
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
     * Number of seeds.
     *
     * @return the count
     */
    public int size() {
        return pairs.length / 6;
    }

    /**
     * Number of sequences.
     *
     * @return the count
     */
    public int sequences() {
        return seqLengths.length;
    }

    /** Collects sequences and seeds; not thread-safe. */
    public static final class Builder {
        private byte[] bases = new byte[1024];
        private int used;
        private int[] lengths = new int[16];
        private int nseq;
        private int[] pairs = new int[96];
        private int npairs;

        private Builder() {
        }

        /**
         * Adds a sequence: letters only (A, C, G, T in either case, U = T, any other letter is N).
         *
         * @param seq the bases, copied
         * @return its index, for {@link #addSeed}
         * @throws IllegalArgumentException if it is empty, longer than {@link #MAX_LENGTH} or holds a
         *     byte that is not a letter (the message names the sequence index and the position)
         */
        public int addSequence(byte[] seq) {
            Objects.requireNonNull(seq, "seq");
            if (seq.length < 1 || seq.length > MAX_LENGTH) {
                throw new IllegalArgumentException("X-drop sequence " + nseq + ": length = " + seq.length
                    + ", must be in [1, " + MAX_LENGTH + "]");
            }
            for (int i = 0; i < seq.length; i++) {
                int c = seq[i] | 0x20;
                if (c < 'a' || c > 'z') {
                    throw new IllegalArgumentException("X-drop sequence " + nseq + ": byte " + i + " = 0x"
                        + Integer.toHexString(seq[i] & 0xff) + " is not a letter");
                }
            }
            if (used + (long) seq.length > Integer.MAX_VALUE - 8) {
                throw new IllegalArgumentException("X-drop batch: more than 2^31 - 9 bases in all");
            }
            if (used + seq.length > bases.length) {
                bases = Arrays.copyOf(bases, (int) Math.min(Integer.MAX_VALUE - 8,
                    Math.max((long) bases.length * 2, (long) used + seq.length)));
            }
            System.arraycopy(seq, 0, bases, used, seq.length);
            used += seq.length;
            if (nseq == lengths.length) {
                lengths = Arrays.copyOf(lengths, nseq * 2);
            }
            lengths[nseq] = seq.length;
            return nseq++;
        }

        /**
         * Adds a seed: {@code length} bases at {@code qpos} of the query and at {@code tpos} of the
         * (strand-oriented) target. The length may be 0, and the seed need not match exactly.
         *
         * @param query index of the query sequence
         * @param qpos 0-based start in the query
         * @param target index of the target sequence
         * @param tpos 0-based start in the target, or in its reverse complement when {@code reverse}
         * @param length seed length, 0 or more
         * @param reverse extend against the target's reverse complement
         * @return the seed's index (results come back in this order)
         * @throws IllegalArgumentException naming the seed index, the field and the limit when a
         *     sequence index is unknown or the seed does not lie inside both sequences
         */
        public int addSeed(int query, int qpos, int target, int tpos, int length, boolean reverse) {
            int i = npairs;
            if (query < 0 || query >= nseq) {
                throw new IllegalArgumentException("X-drop seed " + i + ": query = " + query + ", must be in [0, "
                    + (nseq - 1) + "]");
            }
            if (target < 0 || target >= nseq) {
                throw new IllegalArgumentException("X-drop seed " + i + ": target = " + target
                    + ", must be in [0, " + (nseq - 1) + "]");
            }
            if (length < 0) {
                throw new IllegalArgumentException("X-drop seed " + i + ": length = " + length + ", must be >= 0");
            }
            int ql = lengths[query], tl = lengths[target];
            if (qpos < 0 || (long) qpos + length > ql) {
                throw new IllegalArgumentException("X-drop seed " + i + ": qpos = " + qpos + " with length " + length
                    + ", must be in [0, " + (ql - length) + "] (query length " + ql + ")");
            }
            if (tpos < 0 || (long) tpos + length > tl) {
                throw new IllegalArgumentException("X-drop seed " + i + ": tpos = " + tpos + " with length " + length
                    + ", must be in [0, " + (tl - length) + "] (target length " + tl + ")");
            }
            if (6 * (npairs + 1) > pairs.length) {
                pairs = Arrays.copyOf(pairs, pairs.length * 2);
            }
            int o = 6 * npairs;
            pairs[o] = query;
            pairs[o + 1] = target;
            pairs[o + 2] = qpos;
            pairs[o + 3] = tpos;
            pairs[o + 4] = length;
            pairs[o + 5] = reverse ? 1 : 0;
            return npairs++;
        }

        /**
         * The batch so far; the builder stays usable.
         *
         * @return the batch
         */
        public XdropBatch build() {
            return new XdropBatch(Arrays.copyOf(bases, used), Arrays.copyOf(lengths, nseq),
                Arrays.copyOf(pairs, 6 * npairs));
        }
    }
}
