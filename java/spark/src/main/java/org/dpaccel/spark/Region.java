package org.dpaccel.spark;

import java.io.Serializable;
import java.util.List;
import java.util.Objects;

/**
 * One PairHMM region (what GATK's HaplotypeCaller computes per active region): reads with their
 * base, insertion, deletion and gap-continuation qualities (phred 0..127; GATK floors base
 * qualities at 6 before this), and the haplotypes they are scored against. Its likelihoods are
 * read-major: read r against haplotype h at {@code r * haplotypes + h}. A class rather than a
 * record: the serialized form of a public record cannot carry the comments the javadoc gate asks for.
 */
public final class Region implements Serializable {
    private static final long serialVersionUID = 1L;

    /** @serial the reads */
    private final List<Read> reads;
    /** @serial the haplotype bases */
    private final List<byte[]> haplotypes;

    /**
     * A region.
     *
     * @param reads the reads, at least one
     * @param haplotypes the haplotype bases, at least one
     * @throws IllegalArgumentException if a list is empty
     */
    public Region(List<Read> reads, List<byte[]> haplotypes) {
        Objects.requireNonNull(reads, "reads");
        Objects.requireNonNull(haplotypes, "haplotypes");
        if (reads.isEmpty() || haplotypes.isEmpty()) {
            throw new IllegalArgumentException("a region needs at least one read and one haplotype ("
                + reads.size() + " reads, " + haplotypes.size() + " haplotypes)");
        }
        this.reads = List.copyOf(reads);
        this.haplotypes = List.copyOf(haplotypes);
    }

    /**
     * The reads.
     *
     * @return the reads, unmodifiable
     */
    public List<Read> reads() {
        return reads;
    }

    /**
     * The haplotypes.
     *
     * @return the haplotype bases, unmodifiable
     */
    public List<byte[]> haplotypes() {
        return haplotypes;
    }

    /**
     * Likelihoods of this region.
     *
     * @return reads x haplotypes
     */
    public int resultCount() {
        return reads.size() * haplotypes.size();
    }

    /** A read: five arrays of one length (checked by the batch builder, which names the field). */
    public static final class Read implements Serializable {
        private static final long serialVersionUID = 1L;

        /** @serial read bases */
        private final byte[] bases;
        /** @serial base qualities */
        private final byte[] quals;
        /** @serial insertion gap-open qualities */
        private final byte[] insertionGop;
        /** @serial deletion gap-open qualities */
        private final byte[] deletionGop;
        /** @serial gap-continuation qualities */
        private final byte[] gcp;

        /**
         * A read; the arrays are referenced, not copied.
         *
         * @param bases read bases
         * @param quals base qualities
         * @param insertionGop insertion gap-open qualities
         * @param deletionGop deletion gap-open qualities
         * @param gcp gap-continuation qualities
         */
        public Read(byte[] bases, byte[] quals, byte[] insertionGop, byte[] deletionGop, byte[] gcp) {
            this.bases = bases;
            this.quals = quals;
            this.insertionGop = insertionGop;
            this.deletionGop = deletionGop;
            this.gcp = gcp;
        }

        /** @return read bases */
        public byte[] bases() {
            return bases;
        }

        /** @return base qualities */
        public byte[] quals() {
            return quals;
        }

        /** @return insertion gap-open qualities */
        public byte[] insertionGop() {
            return insertionGop;
        }

        /** @return deletion gap-open qualities */
        public byte[] deletionGop() {
            return deletionGop;
        }

        /** @return gap-continuation qualities */
        public byte[] gcp() {
            return gcp;
        }
    }
}
