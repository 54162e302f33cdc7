package org.dpaccel.cli;

import java.io.IOException;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.Callable;

import org.dpaccel.bench.workload.DistanceBench;
import org.dpaccel.bench.workload.HmmFilterBench;
import org.dpaccel.bench.workload.PaparaBench;
import org.dpaccel.bench.workload.PdhmmBench;
import org.dpaccel.bench.workload.WorkloadBench;
import org.dpaccel.bench.workload.WorkloadBenchRunner;
import org.dpaccel.bench.workload.XdropBench;
import org.dpaccel.papara.GapModel;
import org.dpaccel.papara.PaparaParams;
import org.dpaccel.papara.ScoreModel;
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
        BenchCommand.Distance.class, BenchCommand.Pdhmm.class, BenchCommand.Papara.class,
        BenchCommand.HmmFilterBenchCommand.class, BenchCommand.Trace.class},
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

    @Command(name = "trace", mixinStandardHelpOptions = true, versionProvider = VersionInfo.class,
        description = {"Replays a GATK drop-in trace (-Ddpaccel.gatk.trace=FILE, docs/GATK.md) on dpaccel's CPU and "
            + "GPU and, with --gkl, on Intel GKL: the same calls, order and caller threads; every result checked "
            + "against the recorded one; the run's wall time projected for each engine.",
            "Exit status: 0 every engine's results within tolerance, 1 an engine differs or failed, 2 bad trace or "
            + "usage."})
    static final class Trace implements Callable<Integer> {
        @ParentCommand
        BenchCommand parent;

        @picocli.CommandLine.Parameters(index = "0", paramLabel = "TRACE", description = "the trace file")
        java.nio.file.Path file;

        @Option(names = "--engines", paramLabel = "LIST", split = ",", defaultValue = "cpu,gpu,gkl",
            description = "cpu, gpu (dpaccel's backends; gpu is left out with a note where no GPU is usable), gkl "
                + "(needs --gkl); default ${DEFAULT-VALUE}")
        List<String> engines;

        @Option(names = "--gkl", paramLabel = "CLASSPATH",
            description = "where Intel GKL comes from, to replay on it beside dpaccel: GATK's local jar "
                + "(gatk-package-*-local.jar carries GKL), or GKL's jar and commons-logging's, ':'-separated")
        String gkl;

        @Option(names = "--threads", paramLabel = "N", defaultValue = "0",
            description = "PairHMM threads per engine (default: what GATK asked for in the trace)")
        int threads;

        @Option(names = "--repeat", paramLabel = "R", defaultValue = "1",
            description = "timed passes after one warm-up pass; the fastest is reported (default ${DEFAULT-VALUE})")
        int repeat;

        @Override
        public Integer call() throws IOException {
            if (repeat < 0 || threads < 0) {
                throw new ParameterException(new picocli.CommandLine(this), "--repeat and --threads must be >= 0");
            }
            TraceReplay t = new TraceReplay(file);
            t.load();
            java.util.Map<String, TraceReplay.Result> results = new java.util.LinkedHashMap<>();
            String before = System.getProperty("dpaccel.backend");
            try {
                for (String e : engines) {
                    switch (e.trim().toLowerCase(Locale.ROOT)) {
                        case "cpu", "gpu" -> {
                            String be = e.trim().toLowerCase(Locale.ROOT);
                            System.setProperty("dpaccel.backend", be);
                            try {
                                results.put("dpaccel-" + be, t.replay(TraceReplay.dpaccel("dpaccel-" + be), threads,
                                    repeat));
                            } catch (org.dpaccel.DpaccelException | IOException ex) {
                                if (!be.equals("gpu")) {
                                    throw ex;
                                }
                                parent.top.err.println("note: dpaccel-gpu left out: " + ex.getMessage());
                            }
                        }
                        case "gkl" -> {
                            if (gkl == null) {
                                if (!engines.equals(List.of("cpu", "gpu", "gkl"))) {
                                    throw new ParameterException(new picocli.CommandLine(this),
                                        "--engines gkl needs --gkl CLASSPATH");
                                }
                                parent.top.err.println("note: gkl left out: no --gkl CLASSPATH given (GATK's local jar carries GKL)");
                                continue;
                            }
                            results.put("gkl", t.replay(TraceReplay.gkl(gkl, t.gklPairHmmClass()), threads, repeat));
                        }
                        default -> throw new ParameterException(new picocli.CommandLine(this),
                            "--engines: '" + e + "' is not cpu, gpu or gkl");
                    }
                }
            } finally {
                if (before == null) {
                    System.clearProperty("dpaccel.backend");
                } else {
                    System.setProperty("dpaccel.backend", before);
                }
            }
            return t.report(parent.top.out, results) ? ExitCodes.OK : ExitCodes.INTERNAL;
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

    /**
     * What every workload subcommand shares: the common and workload-bench options, the
     * parent's launcher arguments, turning a bad parameter into a usage error, and the run.
     * A subclass names its options, sizes the input and builds its bench.
     */
    abstract static class WorkloadSubcommand implements Callable<Integer> {
        @ParentCommand
        BenchCommand parent;

        @Mixin
        CommonOptions common;

        @Mixin
        WorkloadBenchOptions opts;

        /** The bench for these options; an IllegalArgumentException is a usage error. */
        abstract WorkloadBench<?, ?> bench() throws IOException;

        /** The --size value (each workload names and defaults it its own way). */
        abstract int size();

        /** Work before the run: exporting the input, leaving a backend out of the settings. */
        void before(WorkloadBench<?, ?> b, WorkloadBenchRunner.Settings s) throws IOException {
        }

        @Override
        public Integer call() throws IOException {
            WorkloadBenchRunner.Settings s = opts.settings(common, size(), parent.top.args);
            WorkloadBench<?, ?> b;
            try {
                b = bench();
            } catch (IllegalArgumentException e) {
                throw new ParameterException(common.spec.commandLine(), e.getMessage());
            }
            try {
                before(b, s);
                return runWorkload(parent.top, common, b, s);
            } finally {
                if (b instanceof AutoCloseable c) {
                    closeQuietly(c);
                }
            }
        }

        private static void closeQuietly(AutoCloseable c) throws IOException {
            try {
                c.close();
            } catch (IOException | RuntimeException e) {
                throw e;
            } catch (Exception e) {
                throw new IOException(e.getMessage(), e);
            }
        }
    }

    @Command(name = "xdrop", mixinStandardHelpOptions = true, versionProvider = VersionInfo.class,
        description = {"X-drop seed extension (docs/xdrop.md) on every backend: generated long-read seeds, every "
            + "result checked against the scalar backend; GCUPS = SeqAn's inner-loop cells per second.",
            "Exit status: 0 every backend equals scalar, 1 a backend differs, 2 usage error."})
    static final class Xdrop extends WorkloadSubcommand {

        @Option(names = "--size", paramLabel = "SEEDS", defaultValue = "2000", description = "seeds (default: 2000, about 3 G cells: the scalar reference takes ~10 s a call)")
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

        @Option(names = "--seqan", paramLabel = "PROGRAM",
            description = "also run SeqAn 2.x on the same seeds, one thread, and check its results against scalar's: "
                + "the oracle program native/tests/xdrop_seqan of a CMake build with libseqan2-dev installed "
                + "(e.g. build/native/native/tests/xdrop_seqan after mvn -B install)")
        java.nio.file.Path seqan;

        @Override
        WorkloadBench<?, ?> bench() {
            return new XdropBench(new XdropParams(match, mismatch, gap, xdrop), seqan);
        }

        @Override
        int size() {
            return size;
        }

        @Override
        void before(WorkloadBench<?, ?> b, WorkloadBenchRunner.Settings s) throws IOException {
            if (exportLogan == null) {
                return;
            }
            try (java.io.PrintStream w = new java.io.PrintStream(
                new java.io.BufferedOutputStream(java.nio.file.Files.newOutputStream(exportLogan)), false,
                java.nio.charset.StandardCharsets.US_ASCII)) {
                XdropBench.writeLogan(((XdropBench) b).generate(s.seed, s.size), w);
                if (w.checkError()) {
                    throw new IOException("writing " + exportLogan + " failed");
                }
            }
        }
    }

    @Command(name = "distance", mixinStandardHelpOptions = true, versionProvider = VersionInfo.class,
        description = {"All-pairs genotype distance counts (docs/distance.md) on every backend: a generated cohort, "
            + "every count checked against the scalar backend; rate = pair-SNPs per second (N(N-1)/2 x variants used).",
            "Exit status: 0 every backend equals scalar, 1 a backend differs, 2 usage error."})
    static final class Distance extends WorkloadSubcommand {

        @Option(names = "--size", paramLabel = "SAMPLES", defaultValue = "1000", description = "samples (default: 1000)")
        int size;

        @Option(names = "--variants", paramLabel = "M", defaultValue = "20000", description = "variants (default: 20000)")
        int variants;

        @Override
        WorkloadBench<?, ?> bench() {
            return new DistanceBench(variants);
        }

        @Override
        int size() {
            return size;
        }
    }

    @Command(name = "pdhmm", mixinStandardHelpOptions = true, versionProvider = VersionInfo.class,
        description = {"GATK's partially-determined PairHMM (docs/pdhmm.md) on every backend: generated GATK-shaped "
            + "regions (reads x haplotypes), every likelihood checked bit for bit against the scalar backend; GCUPS "
            + "= read x haplotype cells per second.",
            "Exit status: 0 every backend equals scalar, 1 a backend differs, 2 usage error."})
    static final class Pdhmm extends WorkloadSubcommand {

        @Option(names = "--size", paramLabel = "PAIRS", defaultValue = "20000", description = "pairs (default: 20000)")
        int size;

        @Option(names = "--rows", paramLabel = "gatk|gkl", defaultValue = "gatk",
            description = "row start semantics (docs/pdhmm.md; default gatk)")
        String rows;

        @Override
        WorkloadBench<?, ?> bench() {
            org.dpaccel.pdhmm.Pdhmm.Rows mode = switch (rows.toLowerCase(Locale.ROOT)) {
                case "gatk" -> org.dpaccel.pdhmm.Pdhmm.Rows.GATK;
                case "gkl" -> org.dpaccel.pdhmm.Pdhmm.Rows.GKL;
                default -> throw new IllegalArgumentException("--rows " + rows + ": must be gatk or gkl");
            };
            return new PdhmmBench(mode);
        }

        @Override
        int size() {
            return size;
        }
    }

    @Command(name = "papara", mixinStandardHelpOptions = true, versionProvider = VersionInfo.class,
        description = {"PaPaRa 2 read scoring (docs/papara.md) on every backend: a generated tree, alignment and "
            + "reads; profiles built once, the scoring timed and every result (best score, edge, ties and the whole score "
            + "matrix) checked against the scalar backend; GCUPS = profiles x sites x read bases per second.",
            "Exit status: 0 every backend equals scalar, 1 a backend differs, 2 usage error."})
    static final class Papara extends WorkloadSubcommand {

        @Option(names = "--size", paramLabel = "READS", defaultValue = "200", description = "reads (default: 200)")
        int size;

        @Option(names = "--taxa", paramLabel = "N", defaultValue = "50", description = "tree tips (default: 50)")
        int taxa;

        @Option(names = "--columns", paramLabel = "N", defaultValue = "1000",
            description = "alignment columns (default: 1000)")
        int columns;

        @Option(names = "--gap-model", paramLabel = "prob|cgap", defaultValue = "prob",
            description = "gap flags: prob (PaPaRa's default) or cgap (PaPaRa -c)")
        String gapModel;

        @Option(names = "--scoring", paramLabel = "O:E:M:C", defaultValue = "-3:-1:2:-3",
            description = "open:extend:match:match_cgap (PaPaRa -p; default -3:-1:2:-3)")
        String scoring;

        @Option(names = "--best-only", description = "return and compare only the per-read best (not the whole "
            + "read x edge score matrix)")
        boolean bestOnly;

        @Option(names = "--score-model", paramLabel = "papara2|paper2012", defaultValue = "papara2",
            description = "papara2 (papara_core 2.5, default) or paper2012 (the 2012 paper's min-plus kernel)")
        String scoreModel;

        @Override
        WorkloadBench<?, ?> bench() {
            GapModel model = switch (gapModel) {
                case "prob" -> GapModel.PROB;
                case "cgap" -> GapModel.CGAP;
                default -> throw new IllegalArgumentException("--gap-model must be prob or cgap");
            };
            ScoreModel sm;
            try {
                sm = ScoreModel.parse(scoreModel);
            } catch (IllegalArgumentException e) {
                throw new IllegalArgumentException("--score-model: " + e.getMessage(), e);
            }
            return new PaparaBench(taxa, columns, PaparaParams.parse(scoring), model, sm, !bestOnly);
        }

        @Override
        int size() {
            return size;
        }
    }

    @Command(name = "hmm-filter", mixinStandardHelpOptions = true, versionProvider = VersionInfo.class,
        description = {"HMMER3 filters (MSV, bias, Viterbi filter; docs/hmm-filter.md) on every CPU backend: "
            + "generated models x generated proteins, every result checked bit for bit against the scalar "
            + "backend; rate = model nodes x residues per second. The cuda and hybrid rows need a usable GPU. One model "
            + "against many residues (the GPU's shape): --models 1 --model-length 400 --size 100000.",
            "Exit status: 0 every backend equals scalar, 1 a backend differs, 2 usage error."})
    static final class HmmFilterBenchCommand extends WorkloadSubcommand {

        @Option(names = "--size", paramLabel = "SEQS", defaultValue = "2000", description = "target proteins (default: 2000)")
        int size;

        @Option(names = "--models", paramLabel = "N", defaultValue = "20", description = "generated models, M 50..600 "
            + "(default: 20)")
        int models;

        @Option(names = "--model-length", paramLabel = "M", defaultValue = "0", description = "nodes of every "
            + "model, 1..100000 (default: 50..600 at random)")
        int modelLength;

        @Option(names = "--F1", paramLabel = "P", defaultValue = "0.02", description = "MSV / bias threshold (default 0.02)")
        double f1;

        @Option(names = "--F2", paramLabel = "P", defaultValue = "1e-3", description = "Viterbi threshold (default 1e-3)")
        double f2;

        @Option(names = "--nobias", description = "no bias filter")
        boolean nobias;

        @Override
        WorkloadBench<?, ?> bench() {
            return new HmmFilterBench(models, modelLength, new org.dpaccel.hmm.HmmFilterParams(f1, f2, !nobias, false));
        }

        @Override
        int size() {
            return size;
        }
    }
}
