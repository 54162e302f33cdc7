package org.dpaccel.spark;

import java.io.Serializable;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.NoSuchElementException;

/**
 * Cuts a partition, lazily, into batches of consecutive elements of at most {@code maxCells}
 * cells (an element larger than that goes alone), runs one library call per batch, and hands the
 * results out one per element in the input's order. Shared by the PairHMM and Smith-Waterman
 * partition functions, so both batch the same way.
 *
 * @param <T> the element
 * @param <R> its result
 */
final class PartitionBatches<T, R> implements Iterator<R> {
    /** An element's cells, the batching cost. */
    interface Cells<T> extends Serializable {
        long of(T element);
    }

    /** One library call: a result per element, in order. */
    interface Call<T, R> extends Serializable {
        List<R> run(List<T> batch);
    }

    private final Iterator<T> in;
    private final Cells<T> cells;
    private final Call<T, R> call;
    private final long maxCells;
    private List<R> ready = List.of();
    private int next;
    private T pending;

    /** {@code maxCells} >= 1: the public entry points check it on the driver, before any task. */
    PartitionBatches(Iterator<T> in, Cells<T> cells, Call<T, R> call, long maxCells) {
        this.in = in;
        this.cells = cells;
        this.call = call;
        this.maxCells = maxCells;
    }

    @Override
    public boolean hasNext() {
        if (next < ready.size()) {
            return true;
        }
        List<T> batch = new ArrayList<>();
        long total = 0;
        while (pending != null || in.hasNext()) {
            T e = pending != null ? pending : in.next();
            pending = null;
            long c = cells.of(e);
            if (!batch.isEmpty() && total + c > maxCells) {
                pending = e;
                break;
            }
            batch.add(e);
            total += c;
        }
        if (batch.isEmpty()) {
            return false;
        }
        ready = call.run(batch);
        if (ready.size() != batch.size()) {
            throw new IllegalStateException(ready.size() + " results for a batch of " + batch.size());
        }
        next = 0;
        return true;
    }

    @Override
    public R next() {
        if (!hasNext()) {
            throw new NoSuchElementException();
        }
        return ready.get(next++);
    }
}
