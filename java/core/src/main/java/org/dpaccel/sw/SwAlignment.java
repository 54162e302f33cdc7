package org.dpaccel.sw;

import java.util.Objects;

/** One result: the CIGAR string and the alignment offset, as GATK's SWNativeAlignerResult. */
public final class SwAlignment {
    private final String cigar;
    private final int alignmentOffset;

    public SwAlignment(String cigar, int alignmentOffset) {
        this.cigar = Objects.requireNonNull(cigar, "cigar");
        this.alignmentOffset = alignmentOffset;
    }

    public String cigar() {
        return cigar;
    }

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
