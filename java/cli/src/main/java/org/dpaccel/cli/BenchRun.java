package org.dpaccel.cli;

import java.io.IOException;
import java.util.List;
import java.util.Locale;

import org.dpaccel.Backend;
import org.dpaccel.bench.BenchSettings;
import org.dpaccel.bench.PairHmmBench;

import picocli.CommandLine.ParameterException;

/** Turns the command line of {@code dpaccel bench [pairhmm]} into a benchmark run. */
final class BenchRun {
    private BenchRun() {
    }

    static int run(DpaccelCommand top, CommonOptions common, BenchOptions o) throws IOException {
        Integer child = Devices.restartIfNeeded(common, top);
        if (child != null) {
            return child;
        }
        BenchSettings s = settings(common, o, top.args);
        if (s.verbose) {
            java.util.logging.Logger.getLogger("").setLevel(java.util.logging.Level.INFO);
        }
        try (OutputFile out = OutputFile.open(common.output, top.out)) {
            int rc = new PairHmmBench(out.stream()).run(s);
            out.commit();
            // 1 = a backend failed the correctness check: the run itself completed
            return rc == 0 ? ExitCodes.OK : ExitCodes.INTERNAL;
        }
    }

    static BenchSettings settings(CommonOptions common, BenchOptions o, String[] args) {
        BenchSettings s = new BenchSettings();
        s.dataset = o.dataset;
        s.regions = o.regions;
        s.seed = o.seed;
        s.backends = backends(common, o);
        if (common.threads != null) {
            for (int t : common.threads) {
                common.checkThreads(t);
            }
            s.threads = List.copyOf(common.threads);
        }
        s.batch = o.batch;
        s.reps = o.reps;
        s.warmup = o.warmup;
        s.callers = o.callers;
        s.mode = o.mode;
        s.baseline = o.baseline;
        s.out = o.out;
        s.sweeps = !o.noSweeps;
        s.sweepSeconds = o.sweepSeconds;
        s.checkCells = (long) o.checkCells;
        s.progress = common.quiet ? "off" : o.progress;
        s.verbose = o.verbose && !common.quiet;
        s.doublePrecision = common.doublePrecision;
        s.commandLine = String.join(" ", args);
        try {
            s.check();
        } catch (IllegalArgumentException e) {
            throw new ParameterException(common.spec.commandLine(), e.getMessage());
        }
        return s;
    }

    /** --backends wins; else --backend names a group (auto = every backend, as before). */
    private static String backends(CommonOptions common, BenchOptions o) {
        if (o.backends != null) {
            if (common.backend != null) {
                throw new ParameterException(common.spec.commandLine(), "give --backend or --backends, not both");
            }
            return o.backends;
        }
        if (common.backend == null || common.backend == Backend.AUTO) {
            return "all";
        }
        return common.backend == Backend.GPU ? "cuda" : common.backend.name().toLowerCase(Locale.ROOT);
    }
}
