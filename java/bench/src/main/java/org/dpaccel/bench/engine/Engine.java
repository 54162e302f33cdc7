package org.dpaccel.bench.engine;

import java.util.List;

import org.dpaccel.bench.data.Region;

/** One backend under test (a dpaccel configuration or an incumbent library). */
public interface Engine extends AutoCloseable {
    /** scalar, avx2, avx512, cuda, hybrid, gkl, gkl-omp. */
    String name();

    int threads();

    /** What actually runs (dpaccel's describe() line, GKL's class). */
    String detail();

    /** dpaccel backends are held to the tighter tolerance on GATK-shaped data. */
    boolean isDpaccel();

    /** Packs {@code regions} into calls of {@code batch} regions each. */
    Plan plan(List<Region> regions, int batch);

    @Override
    void close();
}
