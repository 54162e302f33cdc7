package org.dpaccel.bench.engine;

/** A {@link Plan} whose per-call cell and pair counts are computed up front. */
abstract class CountedPlan implements Plan {
    private final long[] cells;
    private final long[] pairs;

    CountedPlan(long[] cells, long[] pairs) {
        this.cells = cells;
        this.pairs = pairs;
    }

    @Override
    public final int calls() {
        return cells.length;
    }

    @Override
    public final long cells(int call) {
        return cells[call];
    }

    @Override
    public final long pairs(int call) {
        return pairs[call];
    }
}
