package org.dpaccel.cli;

import java.nio.file.Path;

import org.dpaccel.bench.data.PairHmmGenerator;

import picocli.CommandLine.Option;

/** The PairHMM benchmark's own options (docs/bench.md); shared by {@code bench} and {@code bench pairhmm}. */
final class BenchOptions {
    @Option(names = "--dataset", paramLabel = "default|gatk|paper-grid|edge|file:<path>", defaultValue = "default",
        description = "data set (default: default, embedded and seeded); file: reads the 'R H' group format (*.in) or "
            + "GKL's 7-column format")
    String dataset;

    @Option(names = "--regions", paramLabel = "N", defaultValue = "0",
        description = "number of regions (gatk: 100, default: 64; paper-grid: groups per shape; file: first N)")
    int regions;

    @Option(names = "--seed", paramLabel = "S", defaultValue = "" + PairHmmGenerator.DEFAULT_SEED,
        description = "generator seed (default: ${DEFAULT-VALUE})")
    long seed;

    @Option(names = "--backends", paramLabel = "LIST",
        description = "comma list of scalar,avx2,avx512,cuda,hybrid,gkl,gkl-omp, or cpu, gpu, all (default: all; "
            + "--backend cpu|gpu|hybrid picks a group)")
    String backends;

    @Option(names = "--batch", paramLabel = "N", defaultValue = "1",
        description = "regions per call (default: 1 = one GATK region per call, like HaplotypeCaller)")
    int batch;

    @Option(names = "--callers", paramLabel = "N", defaultValue = "1",
        description = "Java threads issuing calls at once on one context (dpaccel backends; GKL always 1)")
    int callers;

    @Option(names = "--mode", paramLabel = "api|gatk", defaultValue = "api",
        description = "api: PairHmmBatch API; gatk: org.dpaccel.gatk.DpaPairHmm, one region per call")
    String mode;

    @Option(names = "--reps", paramLabel = "N", defaultValue = "3", description = "timed passes (default: 3); medians reported")
    int reps;

    @Option(names = "--warmup", paramLabel = "N", defaultValue = "1", description = "untimed passes first (default: 1)")
    int warmup;

    @Option(names = "--baseline", paramLabel = "NAME", description = "speed-up reference (default: gkl when it runs, else scalar)")
    String baseline;

    @Option(names = "--out", paramLabel = "DIR",
        description = "results folder: report.html, results.json, results.csv, plots (default: dpaccel-bench-results/<date-time>)")
    Path out;

    @Option(names = "--no-sweeps", description = "skip the GCUPS-vs-length and GCUPS-vs-batch sweeps (and their plots)")
    boolean noSweeps;

    @Option(names = "--sweep-seconds", paramLabel = "S", defaultValue = "0.1", description = "time per sweep point (default: 0.1)")
    double sweepSeconds;

    @Option(names = "--check-cells", paramLabel = "N", defaultValue = "2e8",
        description = "cells checked against the double reference (default: 2e8; 0 = all)")
    double checkCells;

    @Option(names = "--progress", paramLabel = "auto|on|off", defaultValue = "auto",
        description = "progress bar on stderr (auto: when stderr is a terminal; --quiet turns it off)")
    String progress;

    @Option(names = "--verbose", description = "keep dpaccel's and GKL's INFO log lines")
    boolean verbose;
}
