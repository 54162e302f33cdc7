package org.dpaccel.bench.workload;

import org.dpaccel.Backend;
import org.dpaccel.DpaContext;

/**
 * One workload as the generic benchmark runner ({@link WorkloadBenchRunner}) sees it: a seeded
 * input of a given size, a run on a context, the work it represents and an exact comparison
 * with the scalar backend's result. A new workload's {@code dpaccel bench <name>} is one
 * implementation of this interface plus a picocli subcommand that names it (docs/bench.md).
 *
 * @param <I> the generated input (built once, before any timing)
 * @param <R> one run's result
 */
public interface WorkloadBench<I, R> {
    /** The subcommand's name, e.g. {@code xdrop}. */
    String name();

    /** What {@link #work} counts, e.g. {@code cells}. */
    String workUnit();

    /** The rate column's heading for work per second, e.g. {@code GCUPS} (work / s / 1e9). */
    String rateUnit();

    /** What {@link #items} counts, e.g. {@code alignments}. */
    String itemUnit();

    /**
     * Builds the input; the same seed and size give the same input on every machine.
     *
     * @param seed generator seed
     * @param size the workload's own size unit (seeds, samples, ...)
     * @return the input
     */
    I generate(long seed, int size);

    /** One line saying what the input holds (sizes, parameters). */
    String describe(I input);

    /**
     * Computes the input once.
     *
     * @param ctx a context configured for the backend under test
     * @param backend the per-call backend (CPU for the ISA rows, GPU, HYBRID)
     * @param input the input
     * @return the result
     */
    R run(DpaContext ctx, Backend backend, I input);

    /** Work units of the run (cells swept, pair-SNPs), from the scalar result. */
    long work(I input, R scalar);

    /** Items of the input (alignments, pairs). */
    long items(I input);

    /**
     * Compares a result with the scalar backend's, exactly.
     *
     * @return null when identical, else the first difference and how many there are
     */
    String firstDifference(R scalar, R got);

    /**
     * Rows for the incumbent tools run beside the backends on the same input (X-drop: SeqAn), each
     * checked against the scalar result; none by default.
     *
     * @param input the input
     * @param scalar the scalar backend's result
     * @param reps timed runs
     * @return the rows, in report order
     */
    default java.util.List<WorkloadBenchRunner.Row> peers(I input, R scalar, int reps) {
        return java.util.List.of();
    }
}
