package org.dpaccel.papara;

import java.util.Objects;

/**
 * Per read: the best score, its edge (ties to the lowest index), how many edges tie; optionally every score.
 * The best is the highest score, or the lowest cost under {@link ScoreModel#PAPER2012}.
 */
public final class PaparaResults {
    private final int reads;
    private final int edges;
    private final int[] best;
    private final int[] scores;
    private final long cells;

    PaparaResults(int reads, int edges, int[] best, int[] scores, long cells) {
        this.reads = reads;
        this.edges = edges;
        this.best = best;
        this.scores = scores;
        this.cells = cells;
    }

    /** @return number of reads */
    public int size() {
        return reads;
    }

    /**
     * @param read read index
     * @return its best score
     */
    public int bestScore(int read) {
        return best[Objects.checkIndex(read, reads)];
    }

    /**
     * @param read read index
     * @return the lowest edge index with the best score
     */
    public int bestEdge(int read) {
        return best[reads + Objects.checkIndex(read, reads)];
    }

    /**
     * @param read read index
     * @return how many edges reach the best score
     */
    public int numTied(int read) {
        return best[2 * reads + Objects.checkIndex(read, reads)];
    }

    /** @return whether {@link #score} is available */
    public boolean hasScores() {
        return scores != null;
    }

    /**
     * @param read read index
     * @param edge edge index
     * @return the read's score against that edge's profile
     * @throws IllegalStateException if the matrix was not requested
     */
    public int score(int read, int edge) {
        if (scores == null) {
            throw new IllegalStateException("the score matrix was not requested");
        }
        return scores[Objects.checkIndex(read, reads) * edges + Objects.checkIndex(edge, edges)];
    }

    /** @return cells computed (edges x sites x read bases) */
    public long cells() {
        return cells;
    }
}
