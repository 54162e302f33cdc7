package org.dpaccel.bench.data;

import java.util.List;

/**
 * One GATK region (one {@code computeLikelihoods} call): every read against every haplotype,
 * results read-major ({@code r * haps + h}). {@code expected} holds known log10 likelihoods
 * from a file (read-major, may be null).
 */
public record Region(List<Read> reads, List<byte[]> haps, double[] expected) {
    public Region(List<Read> reads, List<byte[]> haps) {
        this(reads, haps, null);
    }

    public Region {
        reads = List.copyOf(reads);
        haps = List.copyOf(haps);
        if (expected != null && expected.length != reads.size() * haps.size()) {
            throw new IllegalArgumentException("expected has " + expected.length + " values for "
                + reads.size() + " reads x " + haps.size() + " haplotypes");
        }
    }

    public int pairs() {
        return reads.size() * haps.size();
    }

    /** Sum of read length x haplotype length over all pairs. */
    public long cells() {
        long rl = 0, hl = 0;
        for (Read r : reads) {
            rl += r.length();
        }
        for (byte[] h : haps) {
            hl += h.length;
        }
        return rl * hl;
    }
}
