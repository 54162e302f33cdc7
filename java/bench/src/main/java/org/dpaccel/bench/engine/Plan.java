package org.dpaccel.bench.engine;

/**
 * A data set cut into calls for one engine, with inputs packed and outputs allocated up front,
 * so that {@link #run(int)} times only what a caller would pay per call.
 */
public interface Plan {
    int calls();

    long cells(int call);

    long pairs(int call);

    void run(int call);

    /** The likelihoods of region {@code region} from the latest run of its call, read-major. */
    double[] result(int region);
}
