package org.dpaccel.pairhmm;

import org.dpaccel.Isa;

/** What one PairHMM call did. */
public record PairHmmStats(long pairs, long cells, long doubleRecomputes, long gpuPairs, Isa isa) {
    static PairHmmStats of(long[] s) {
        return new PairHmmStats(s[0], s[1], s[2], s[3], Isa.fromCode((int) s[4]));
    }
}
