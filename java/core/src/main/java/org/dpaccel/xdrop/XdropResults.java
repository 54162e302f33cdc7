package org.dpaccel.xdrop;

import org.dpaccel.Isa;

/**
 * Results of {@link Xdrop#compute}, one per seed in the batch's order: the score
 * ({@code left + right +} the seed's own column sum), the extended seed (0-based, half-open,
 * target coordinates on the strand-oriented target) and the two sides' scores as SeqAn returns
 * them (0 for an empty side; negative values are possible: SeqAn ends at its longest-extension
 * cell, not at the maximum).
 */
public final class XdropResults {
    private final int n;
    private final int[] v; // 7 columns of n: score, qbeg, qend, tbeg, tend, left, right
    private final long cells;
    private final long gpuPairs;
    private final Isa isa;

    XdropResults(int n, int[] v, long[] stats) {
        this.n = n;
        this.v = v;
        this.cells = stats[1];
        this.gpuPairs = stats[2];
        this.isa = Isa.fromCode((int) stats[3]);
    }

    /**
     * Number of results.
     *
     * @return the count
     */
    public int size() {
        return n;
    }

    private int at(int column, int i) {
        if (i < 0 || i >= n) {
            throw new IndexOutOfBoundsException("seed " + i + " of " + n);
        }
        return v[column * n + i];
    }

    /**
     * Seed {@code i}'s score: left + right + the seed's own column sum.
     *
     * @param i seed index
     * @return the score
     * @throws IndexOutOfBoundsException if {@code i} is not a seed index
     */
    public int score(int i) {
        return at(0, i);
    }

    /**
     * Start of the extended seed in the query.
     *
     * @param i seed index
     * @return 0-based position
     * @throws IndexOutOfBoundsException if {@code i} is not a seed index
     */
    public int qbeg(int i) {
        return at(1, i);
    }

    /**
     * End (exclusive) of the extended seed in the query.
     *
     * @param i seed index
     * @return 0-based position
     * @throws IndexOutOfBoundsException if {@code i} is not a seed index
     */
    public int qend(int i) {
        return at(2, i);
    }

    /**
     * Start of the extended seed in the strand-oriented target.
     *
     * @param i seed index
     * @return 0-based position
     * @throws IndexOutOfBoundsException if {@code i} is not a seed index
     */
    public int tbeg(int i) {
        return at(3, i);
    }

    /**
     * End (exclusive) of the extended seed in the strand-oriented target.
     *
     * @param i seed index
     * @return 0-based position
     * @throws IndexOutOfBoundsException if {@code i} is not a seed index
     */
    public int tend(int i) {
        return at(4, i);
    }

    /**
     * The left extension's score.
     *
     * @param i seed index
     * @return the score, 0 for an empty side
     * @throws IndexOutOfBoundsException if {@code i} is not a seed index
     */
    public int left(int i) {
        return at(5, i);
    }

    /**
     * The right extension's score.
     *
     * @param i seed index
     * @return the score, 0 for an empty side
     * @throws IndexOutOfBoundsException if {@code i} is not a seed index
     */
    public int right(int i) {
        return at(6, i);
    }

    /**
     * Cells swept (SeqAn's inner loop: the sum over anti-diagonals of the band).
     *
     * @return the count
     */
    public long cells() {
        return cells;
    }

    /**
     * Seeds extended on a GPU (0 until X-drop has CUDA kernels).
     *
     * @return the count
     */
    public long gpuPairs() {
        return gpuPairs;
    }

    /**
     * The CPU kernel's instruction set.
     *
     * @return the ISA
     */
    public Isa isa() {
        return isa;
    }
}
