package org.dpaccel.pairhmm;

import org.dpaccel.Isa;

/**
 * What one PairHMM call did.
 *
 * @param pairs (read, haplotype) pairs computed
 * @param cells dynamic-programming cells computed
 * @param doubleRecomputes pairs whose float result underflowed and were recomputed in double
 * @param gpuPairs pairs computed on a GPU
 * @param isa the CPU kernel variant used for the pairs on the CPU
 */
public record PairHmmStats(long pairs, long cells, long doubleRecomputes, long gpuPairs, Isa isa) {
    static PairHmmStats of(long[] s) {
        return new PairHmmStats(s[0], s[1], s[2], s[3], Isa.fromCode((int) s[4]));
    }
}
