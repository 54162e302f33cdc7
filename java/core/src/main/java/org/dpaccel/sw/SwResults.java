package org.dpaccel.sw;

import java.nio.charset.StandardCharsets;

import org.dpaccel.Isa;

/** The results of one batch, in pair order: CIGAR strings and alignment offsets, plus what the call did. */
public final class SwResults {
    private final byte[] cigars;
    private final int[] cigarStarts, cigarLengths, alignmentOffsets;
    private final long cells, exactMatches, gpuPairs;
    private final Isa isa;

    SwResults(byte[] cigars, int[] cigarLengths, int[] alignmentOffsets, long[] stats) {
        this.cigars = cigars;
        this.cigarLengths = cigarLengths;
        this.alignmentOffsets = alignmentOffsets;
        this.cigarStarts = new int[cigarLengths.length];
        int pos = 0;
        for (int i = 0; i < cigarLengths.length; i++) {
            cigarStarts[i] = pos;
            pos += cigarLengths[i];
        }
        cells = stats[1];
        exactMatches = stats[2];
        isa = Isa.fromCode((int) stats[4]);
        gpuPairs = stats.length > 5 ? stats[5] : 0;
    }

    /**
     * Pairs in the batch.
     *
     * @return the count
     */
    public int size() {
        return cigarLengths.length;
    }

    /**
     * The CIGAR of a pair.
     *
     * @param i the pair index
     * @return e.g. "10S90M2I48M"
     */
    public String cigar(int i) {
        return new String(cigars, cigarStarts[i], cigarLengths[i], StandardCharsets.US_ASCII);
    }

    /**
     * The alignment offset of a pair.
     *
     * @param i the pair index
     * @return the offset
     */
    public int alignmentOffset(int i) {
        return alignmentOffsets[i];
    }

    /**
     * The result of a pair.
     *
     * @param i the pair index
     * @return CIGAR and offset
     */
    public SwAlignment get(int i) {
        return new SwAlignment(cigar(i), alignmentOffset(i));
    }

    /**
     * Every result.
     *
     * @return CIGAR and offset of each pair, in pair order
     */
    public SwAlignment[] toArray() {
        SwAlignment[] a = new SwAlignment[size()];
        for (int i = 0; i < a.length; i++) {
            a[i] = get(i);
        }
        return a;
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
     * Pairs answered by GATK's exact-substring shortcut (SOFTCLIP and IGNORE only).
     *
     * @return the count
     */
    public long exactMatches() {
        return exactMatches;
    }

    /**
     * Pairs aligned on a GPU (the rest ran on the CPU).
     *
     * @return the count
     */
    public long gpuPairs() {
        return gpuPairs;
    }

    /**
     * The CPU kernel variant used.
     *
     * @return the ISA
     */
    public Isa isa() {
        return isa;
    }
}
