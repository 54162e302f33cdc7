package org.dpaccel.sw;

import java.io.Serializable;
import java.util.Objects;

/**
 * One result: the CIGAR string and the alignment offset, as GATK's SWNativeAlignerResult.
 * Serializable, so distributed callers (dpaccel-spark) can ship results between JVMs.
 */
public final class SwAlignment implements Serializable {
    private static final long serialVersionUID = 1L;
    /** The CIGAR string. */
    private final String cigar;
    /** Where the alignment starts in the reference. */
    private final int alignmentOffset;

    /**
     * A result.
     *
     * @param cigar the CIGAR string, e.g. "10S90M"
     * @param alignmentOffset where the alignment starts in the reference (GATK's meaning, per
     *     overhang strategy)
     */
    public SwAlignment(String cigar, int alignmentOffset) {
        this.cigar = Objects.requireNonNull(cigar, "cigar");
        this.alignmentOffset = alignmentOffset;
    }

    /**
     * The CIGAR string.
     *
     * @return e.g. "10S90M2I48M"
     */
    public String cigar() {
        return cigar;
    }

    /**
     * The alignment offset, as GATK's {@code SWNativeAlignerResult.alignment_offset}.
     *
     * @return the offset
     */
    public int alignmentOffset() {
        return alignmentOffset;
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof SwAlignment a && a.cigar.equals(cigar) && a.alignmentOffset == alignmentOffset;
    }

    @Override
    public int hashCode() {
        return cigar.hashCode() * 31 + alignmentOffset;
    }

    @Override
    public String toString() {
        return cigar + " @ " + alignmentOffset;
    }
}
