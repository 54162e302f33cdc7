package org.dpaccel.cli;

import java.io.IOException;
import java.util.concurrent.Callable;

import org.dpaccel.bench.workload.DistanceBench;
import org.dpaccel.bench.workload.HmmFilterBench;
import org.dpaccel.bench.workload.WorkloadBench;
import org.dpaccel.bench.workload.WorkloadBenchRunner;
import org.dpaccel.bench.workload.XdropBench;
import org.dpaccel.xdrop.XdropParams;

import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.ParentCommand;

/**
 * {@code dpaccel bench}: the PairHMM benchmark on every backend of this machine (docs/bench.md);
 * later workloads add their benchmark as a subcommand beside {@code pairhmm}.
 */
@Command(name = "bench", mixinStandardHelpOptions = true, versionProvider = VersionInfo.class,
    subcommands = {BenchCommand.PairHmm.class, GenVectorsCommand.class, BenchCommand.Xdrop.class,
        BenchCommand.Distance.class, BenchCommand.HmmFilterBenchCommand.class},
    description = {"What dpaccel does on this machine: the PairHMM benchmark (the default; same as 'bench pairhmm') on "
        + "every backend, with a correctness check against the scalar double reference; a table on stdout, "
        + "report.html, JSON, CSV and plots in --out.",
        "Exit status: 0 every backend within tolerance, 1 a backend failed the check, 2 usage error."})
final class BenchCommand implements Callable<Integer> {
    @ParentCommand
    DpaccelCommand top;

    @Mixin
    CommonOptions common;

    @Mixin
    BenchOptions bench;

    @Override
    public Integer call() throws IOException {
        return BenchRun.run(top, common, bench);
    }

    @Command(name = "pairhmm", mixinStandardHelpOptions = true, versionProvider = VersionInfo.class,
        description = "The PairHMM benchmark (what 'dpaccel bench' runs by default).")
    static final class PairHmm implements Callable<Integer> {
        @ParentCommand
        BenchCommand parent;

        @Mixin
        CommonOptions common;

        @Mixin
        BenchOptions bench;

        @Override
        public Integer call() throws IOException {
            return BenchRun.run(parent.top, common, bench);
        }
    }

    /** Runs a workload through the generic runner (java/bench, org.dpaccel.bench.workload). */
    static <I, R> int runWorkload(DpaccelCommand top, CommonOptions common, WorkloadBench<I, R> bench,
        WorkloadBenchRunner.Settings s) throws IOException {
        Integer child = Devices.restartIfNeeded(common, top);
        if (child != null) {
            return child;
        }
        common.quietLogs();
        try (OutputFile out = OutputFile.open(common.output, top.out)) {
            int rc = WorkloadBenchRunner.run(bench, s, out.stream());
            out.commit();
            // 1 = a backend differs from scalar: the run itself completed
            return rc == 0 ? ExitCodes.OK : ExitCodes.INTERNAL;
        }
    }

    @Command(name = "xdrop", mixinStandardHelpOptions = true, versionProvider = VersionInfo.class,
        description = {"X-drop seed extension (docs/xdrop.md) on every backend: generated long-read seeds, every "
            + "result checked against the scalar backend; GCUPS = SeqAn's inner-loop cells per second.",
            "Exit status: 0 every backend equals scalar, 1 a backend differs, 2 usage error."})
    static final class Xdrop implements Callable<Integer> {
        @ParentCommand
        BenchCommand parent;

        @Mixin
        CommonOptions common;

        @Mixin
        WorkloadBenchOptions opts;

        @Option(names = "--size", paramLabel = "SEEDS", defaultValue = "20000", description = "seeds (default: 20000)")
        int size;

        @Option(names = "--xdrop", paramLabel = "X", defaultValue = "100", description = "the drop-off X (default: 100)")
        int xdrop;

        @Option(names = "--match", paramLabel = "N", defaultValue = "1", description = "match score (default 1)")
        int match;

        @Option(names = "--mismatch", paramLabel = "N", defaultValue = "-1", description = "mismatch score (default -1)")
        int mismatch;

        @Option(names = "--gap", paramLabel = "N", defaultValue = "-1", description = "linear gap score (default -1)")
        int gap;

        @Option(names = "--export-logan", paramLabel = "FILE",
            description = "also write the generated seeds in LOGAN's demo input format (the GPU peer, "
                + "tools/peers/build-logan.sh); the benchmark still runs")
        java.nio.file.Path exportLogan;

        @Override
        public Integer call() throws IOException {
            XdropParams p;
            try {
                p = new XdropParams(match, mismatch, gap, xdrop);
            } catch (IllegalArgumentException e) {
                throw new ParameterException(common.spec.commandLine(), e.getMessage());
            }
            XdropBench bench = new XdropBench(p);
            WorkloadBenchRunner.Settings s = opts.settings(common, size, parent.top.args);
            if (exportLogan != null) {
                try (java.io.PrintStream w = new java.io.PrintStream(
                    new java.io.BufferedOutputStream(java.nio.file.Files.newOutputStream(exportLogan)), false,
                    java.nio.charset.StandardCharsets.US_ASCII)) {
                    XdropBench.writeLogan(bench.generate(s.seed, s.size), w);
                    if (w.checkError()) {
                        throw new java.io.IOException("writing " + exportLogan + " failed");
                    }
                }
            }
            return runWorkload(parent.top, common, bench, s);
        }
    }

    @Command(name = "distance", mixinStandardHelpOptions = true, versionProvider = VersionInfo.class,
        description = {"All-pairs genotype distance counts (docs/distance.md) on every backend: a generated cohort, "
            + "every count checked against the scalar backend; rate = pair-SNPs per second (N(N-1)/2 x variants used).",
            "Exit status: 0 every backend equals scalar, 1 a backend differs, 2 usage error."})
    static final class Distance implements Callable<Integer> {
        @ParentCommand
        BenchCommand parent;

        @Mixin
        CommonOptions common;

        @Mixin
        WorkloadBenchOptions opts;

        @Option(names = "--size", paramLabel = "SAMPLES", defaultValue = "1000", description = "samples (default: 1000)")
        int size;

        @Option(names = "--variants", paramLabel = "M", defaultValue = "20000", description = "variants (default: 20000)")
        int variants;

        @Override
        public Integer call() throws IOException {
            DistanceBench b;
            try {
                b = new DistanceBench(variants);
            } catch (IllegalArgumentException e) {
                throw new ParameterException(common.spec.commandLine(), e.getMessage());
            }
            return runWorkload(parent.top, common, b, opts.settings(common, size, parent.top.args));
        }
    }

    @Command(name = "hmm-filter", mixinStandardHelpOptions = true, versionProvider = VersionInfo.class,
        description = {"HMMER3 filters (MSV, bias, Viterbi filter; docs/hmm-filter.md) on every CPU backend: "
            + "generated models x generated proteins, every result checked bit for bit against the scalar "
            + "backend; rate = model nodes x residues per second. No CUDA kernels yet: the cuda row is left out.",
            "Exit status: 0 every backend equals scalar, 1 a backend differs, 2 usage error."})
    static final class HmmFilterBenchCommand implements Callable<Integer> {
        @ParentCommand
        BenchCommand parent;

        @Mixin
        CommonOptions common;

        @Mixin
        WorkloadBenchOptions opts;

        @Option(names = "--size", paramLabel = "SEQS", defaultValue = "2000", description = "target proteins (default: 2000)")
        int size;

        @Option(names = "--models", paramLabel = "N", defaultValue = "20", description = "generated models, M 50..600 "
            + "(default: 20)")
        int models;

        @Option(names = "--F1", paramLabel = "P", defaultValue = "0.02", description = "MSV / bias threshold (default 0.02)")
        double f1;

        @Option(names = "--F2", paramLabel = "P", defaultValue = "1e-3", description = "Viterbi threshold (default 1e-3)")
        double f2;

        @Option(names = "--nobias", description = "no bias filter")
        boolean nobias;

        @Override
        public Integer call() throws IOException {
            HmmFilterBench b;
            try {
                b = new HmmFilterBench(models, new org.dpaccel.hmm.HmmFilterParams(f1, f2, !nobias, false));
            } catch (IllegalArgumentException e) {
                throw new ParameterException(common.spec.commandLine(), e.getMessage());
            }
            WorkloadBenchRunner.Settings s = opts.settings(common, size, parent.top.args);
            // the workload has no CUDA kernels (a GPU-forced call is NO_DEVICE): leave the row out
            java.util.List<String> names = new java.util.ArrayList<>(WorkloadBenchRunner.parseBackends(s.backends));
            if (names.remove("cuda") && !common.quiet) {
                parent.top.err.println("dpaccel bench hmm-filter: no CUDA kernels for this workload yet: cuda left out");
            }
            if (names.isEmpty()) {
                throw new ParameterException(common.spec.commandLine(), "no backend left to run (hmm-filter has no "
                    + "CUDA kernels yet)");
            }
            s.backends = String.join(",", names);
            try (b) {
                return runWorkload(parent.top, common, b, s);
            }
        }
    }
}
