package org.dpaccel.pairhmm;

import java.util.Arrays;
import java.util.Objects;

/**
 * An immutable, validated PairHMM batch packed as structure-of-arrays, ready to cross JNI in
 * one call. Reads and haplotypes are added to groups (a group = one GATK region); every read
 * of a group is scored against every haplotype of that group, and results come back read-major
 * within a group, groups in order: {@code out[groupBase + r * groupHaps + h]}.
 *
 * <p>Validation happens as data is added, so a bad input is reported with its read or
 * haplotype index and field before anything reaches native code. Field names follow GATK's
 * {@code ReadDataHolder}: readBases, readQuals, insertionGOP, deletionGOP, overallGCP.
 */
public final class PairHmmBatch {
    /** Longest read or haplotype accepted (matches DPA_PAIRHMM_MAX_LENGTH). */
    public static final int MAX_LENGTH = 1 << 20;
    /** Largest phred value accepted in any quality array. */
    public static final int MAX_QUAL = 127;
    /** Java arrays stop a little short of Integer.MAX_VALUE. */
    static final int MAX_ARRAY = Integer.MAX_VALUE - 16;

    final byte[] readBases, baseQuals, insQuals, delQuals, gcpQuals, hapBases;
    final int[] readLengths, hapLengths, groupReads, groupHaps;
    final int resultCount;
    final long cells;

    private PairHmmBatch(Builder b) {
        readBases = b.rb.toArray();
        baseQuals = b.bq.toArray();
        insQuals = b.iq.toArray();
        delQuals = b.dq.toArray();
        gcpQuals = b.gq.toArray();
        hapBases = b.hb.toArray();
        readLengths = exact(b.readLengths, b.numReads);
        hapLengths = exact(b.hapLengths, b.numHaps);
        groupReads = Arrays.copyOf(b.groupReads, b.numGroups);
        groupHaps = Arrays.copyOf(b.groupHaps, b.numGroups);
        resultCount = (int) b.results;
        cells = b.cells;
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
     * A builder sized for the given totals (read bases, haplotype bases, reads, haplotypes), so
     * a caller that knows them (the GATK binding) packs each byte once and build() copies
     * nothing. The hints are capacities, not limits.
     *
     * @param readBases total read bases expected
     * @param hapBases total haplotype bases expected
     * @param reads reads expected
     * @param haplotypes haplotypes expected
     * @return a new builder
     */
    public static Builder builder(long readBases, long hapBases, int reads, int haplotypes) {
        Builder b = new Builder();
        int rb = (int) Math.max(16, Math.min(MAX_ARRAY, readBases));
        int hb = (int) Math.max(16, Math.min(MAX_ARRAY, hapBases));
        b.rb.ensure(rb);
        b.bq.ensure(rb);
        b.iq.ensure(rb);
        b.dq.ensure(rb);
        b.gq.ensure(rb);
        b.hb.ensure(hb);
        b.readLengths = new int[Math.max(1, reads)];
        b.hapLengths = new int[Math.max(1, haplotypes)];
        return b;
    }

    /**
     * Reads in the batch, over all groups.
     *
     * @return the count
     */
    public int readCount() {
        return readLengths.length;
    }

    /**
     * Haplotypes in the batch, over all groups.
     *
     * @return the count
     */
    public int haplotypeCount() {
        return hapLengths.length;
    }

    /**
     * Groups in the batch.
     *
     * @return the count
     */
    public int groupCount() {
        return groupReads.length;
    }

    /**
     * Number of likelihoods the batch produces: the sum over groups of reads x haplotypes.
     *
     * @return the count
     */
    public int resultCount() {
        return resultCount;
    }

    /**
     * Dynamic-programming cells: the sum of read length x haplotype length over all pairs.
     *
     * @return the count
     */
    public long cells() {
        return cells;
    }

    /** Adds reads and haplotypes group by group; {@link #endGroup()} closes one. */
    public static final class Builder {
        private final Bytes rb = new Bytes(), bq = new Bytes(), iq = new Bytes(), dq = new Bytes(),
            gq = new Bytes(), hb = new Bytes();
        private int[] readLengths = new int[16], hapLengths = new int[8], groupReads = new int[4],
            groupHaps = new int[4];
        private int numReads, numHaps, numGroups;
        private int curReads, curHaps;
        private long curReadBases, curHapBases;
        private long results, cells;
        private boolean built;

        private Builder() {
        }

        /**
         * Adds a read to the current group. All five arrays must have the same, non-zero length;
         * qualities are phred values 0..127 (GATK floors base qualities at 6 before this).
         * The arrays are copied.
         *
         * @param readBases the bases
         * @param readQuals base qualities
         * @param insertionGOP insertion gap-open qualities
         * @param deletionGOP deletion gap-open qualities
         * @param overallGCP gap-continuation qualities
         * @return this builder
         * @throws NullPointerException if an array is null (the message names read and field)
         * @throws IllegalArgumentException for an empty or too long read, mismatched lengths, a
         *     quality above {@link #MAX_QUAL}, or a batch beyond Java's array limits
         * @throws IllegalStateException if the builder has been built
         */
        public Builder addRead(byte[] readBases, byte[] readQuals, byte[] insertionGOP,
            byte[] deletionGOP, byte[] overallGCP) {
            checkOpen();
            int i = numReads;
            Objects.requireNonNull(readBases, () -> "read " + i + ": readBases is null");
            Objects.requireNonNull(readQuals, () -> "read " + i + ": readQuals is null");
            Objects.requireNonNull(insertionGOP, () -> "read " + i + ": insertionGOP is null");
            Objects.requireNonNull(deletionGOP, () -> "read " + i + ": deletionGOP is null");
            Objects.requireNonNull(overallGCP, () -> "read " + i + ": overallGCP is null");
            int n = readBases.length;
            checkLength("read", i, "readBases", n);
            sameLength(i, "readQuals", readQuals.length, n);
            sameLength(i, "insertionGOP", insertionGOP.length, n);
            sameLength(i, "deletionGOP", deletionGOP.length, n);
            sameLength(i, "overallGCP", overallGCP.length, n);
            checkQuals(i, "readQuals", readQuals);
            checkQuals(i, "insertionGOP", insertionGOP);
            checkQuals(i, "deletionGOP", deletionGOP);
            checkQuals(i, "overallGCP", overallGCP);
            checkBytes(rb.size() + (long) n, "read bases");
            checkPairs(curReads + 1L, curHaps, curReadBases + n, curHapBases);
            rb.add(readBases);
            bq.add(readQuals);
            iq.add(insertionGOP);
            dq.add(deletionGOP);
            gq.add(overallGCP);
            readLengths = grow(readLengths, numReads);
            readLengths[numReads++] = n;
            curReads++;
            curReadBases += n;
            return this;
        }

        /**
         * Adds a haplotype to the current group; the array is copied.
         *
         * @param haplotypeBases the bases
         * @return this builder
         * @throws NullPointerException if the array is null
         * @throws IllegalArgumentException for an empty or too long haplotype, or a batch beyond
         *     Java's array limits
         * @throws IllegalStateException if the builder has been built
         */
        public Builder addHaplotype(byte[] haplotypeBases) {
            checkOpen();
            int i = numHaps;
            Objects.requireNonNull(haplotypeBases, () -> "haplotype " + i + ": haplotypeBases is null");
            checkLength("haplotype", i, "haplotypeBases", haplotypeBases.length);
            checkBytes(hb.size() + (long) haplotypeBases.length, "haplotype bases");
            checkPairs(curReads, curHaps + 1L, curReadBases, curHapBases + haplotypeBases.length);
            hb.add(haplotypeBases);
            hapLengths = grow(hapLengths, numHaps);
            hapLengths[numHaps++] = haplotypeBases.length;
            curHaps++;
            curHapBases += haplotypeBases.length;
            return this;
        }

        /**
         * Closes the current group (a group with no reads or no haplotypes yields no results).
         *
         * @return this builder
         * @throws IllegalStateException if the builder has been built
         */
        public Builder endGroup() {
            checkOpen();
            results += (long) curReads * curHaps;
            cells += curReadBases * curHapBases;
            groupReads = grow(groupReads, numGroups);
            groupHaps = grow(groupHaps, numGroups);
            groupReads[numGroups] = curReads;
            groupHaps[numGroups++] = curHaps;
            curReads = curHaps = 0;
            curReadBases = curHapBases = 0;
            return this;
        }

        /**
         * The batch; an open group is closed first. The builder cannot be used afterwards.
         *
         * @return the batch
         * @throws IllegalStateException if the builder has been built
         */
        public PairHmmBatch build() {
            checkOpen();
            if (curReads > 0 || curHaps > 0 || numGroups == 0) {
                endGroup();
            }
            built = true;
            return new PairHmmBatch(this);
        }

        private void checkOpen() {
            if (built) {
                throw new IllegalStateException("PairHmmBatch.Builder already built");
            }
        }

        private static void checkLength(String kind, int i, String field, int n) {
            if (n < 1) {
                throw new IllegalArgumentException(kind + " " + i + ": " + field + " is empty (length must be in [1, " + MAX_LENGTH + "])");
            }
            if (n > MAX_LENGTH) {
                throw new IllegalArgumentException(kind + " " + i + ": " + field + " length " + n + " exceeds the limit " + MAX_LENGTH);
            }
        }

        private static void sameLength(int i, String field, int len, int n) {
            if (len != n) {
                throw new IllegalArgumentException("read " + i + ": " + field + " has length " + len
                    + " but readBases has length " + n);
            }
        }

        private static void checkQuals(int i, String field, byte[] q) {
            for (int k = 0; k < q.length; k++) {
                if (q[k] < 0) { // bytes 128..255 arrive as negative: GKL would mask them with &127
                    throw new IllegalArgumentException("read " + i + ": " + field + "[" + k + "] = "
                        + (q[k] & 0xff) + " is outside the quality range [0, " + MAX_QUAL + "]");
                }
            }
        }

        private static void checkBytes(long total, String what) {
            if (total > MAX_ARRAY) {
                throw new IllegalArgumentException("oversized batch: " + total + " " + what
                    + " exceed the limit " + MAX_ARRAY + "; split the batch");
            }
        }

        private void checkPairs(long reads, long haps, long readBases, long hapBases) {
            long r = results + reads * haps;
            if (r > MAX_ARRAY) {
                throw new IllegalArgumentException("oversized batch: " + r + " results exceed the limit "
                    + MAX_ARRAY + " of a Java array; split the batch");
            }
            if (cells > Long.MAX_VALUE / 2 || readBases * hapBases < 0) {
                throw new IllegalArgumentException("oversized batch: cell count overflows");
            }
        }

        private static int[] grow(int[] a, int n) {
            return n < a.length ? a : Arrays.copyOf(a, Math.max(8, a.length * 2));
        }
    }

    private static int[] exact(int[] a, int n) {
        return a.length == n ? a : Arrays.copyOf(a, n);
    }

    /** A growable byte array. */
    static final class Bytes {
        private byte[] a = new byte[256];
        private int n;

        void ensure(int capacity) {
            if (capacity > a.length) {
                a = Arrays.copyOf(a, capacity);
            }
        }

        void add(byte[] b) {
            if (n + b.length > a.length) {
                a = Arrays.copyOf(a, (int) Math.min(MAX_ARRAY, Math.max(a.length * 2L, (long) n + b.length)));
            }
            System.arraycopy(b, 0, a, n, b.length);
            n += b.length;
        }

        int size() {
            return n;
        }

        /** The packed bytes; the backing array itself when it is exactly full (no copy). */
        byte[] toArray() {
            return n == a.length ? a : Arrays.copyOf(a, n);
        }
    }
}
