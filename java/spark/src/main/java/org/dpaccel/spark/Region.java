package org.dpaccel.spark;

import java.io.Serializable;
import java.util.List;
import java.util.Objects;

/**
 * One PairHMM region (what GATK's HaplotypeCaller computes per active region): reads with their
 * base, insertion, deletion and gap-continuation qualities (phred 0..127; GATK floors base
 * qualities at 6 before this), and the haplotypes they are scored against. Its likelihoods are
 * read-major: read r against haplotype h at {@code r * haplotypes + h}.
 *
 * @param reads the reads, at least one
 * @param haplotypes the haplotype bases, at least one
 */
public record Region(List<Read> reads, List<byte[]> haplotypes) implements Serializable {
    /**
     * Checks both lists are non-empty.
     *
     * @param reads the reads
     * @param haplotypes the haplotypes
     * @throws IllegalArgumentException if a list is empty
     */
    public Region {
        Objects.requireNonNull(reads, "reads");
        Objects.requireNonNull(haplotypes, "haplotypes");
        if (reads.isEmpty() || haplotypes.isEmpty()) {
            throw new IllegalArgumentException("a region needs at least one read and one haplotype ("
                + reads.size() + " reads, " + haplotypes.size() + " haplotypes)");
        }
    }

    /**
     * Likelihoods of this region.
     *
     * @return reads x haplotypes
     */
    public int resultCount() {
        return reads.size() * haplotypes.size();
    }

    /**
     * A read: five arrays of one length (checked by the batch builder, which names the field).
     *
     * @param bases read bases
     * @param quals base qualities
     * @param insertionGop insertion gap-open qualities
     * @param deletionGop deletion gap-open qualities
     * @param gcp gap-continuation qualities
     */
    public record Read(byte[] bases, byte[] quals, byte[] insertionGop, byte[] deletionGop, byte[] gcp)
        implements Serializable {
    }
}
