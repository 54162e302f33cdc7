package org.dpaccel.cli;

import java.nio.file.Path;
import java.util.List;
import java.util.logging.Level;
import java.util.logging.Logger;

import org.dpaccel.Backend;
import org.dpaccel.Config;
import org.dpaccel.bench.Progress;

import picocli.CommandLine.ITypeConverter;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.Spec;

/** The options every subcommand takes (docs/cli.md, "Common options"). */
final class CommonOptions {
    @Spec(Spec.Target.MIXEE)
    CommandSpec spec;

    @Option(names = "--backend", paramLabel = "auto|cpu|gpu|hybrid", converter = BackendConverter.class,
        description = "where the work runs (default: auto = the GPU when present and the batch is large enough)")
    Backend backend;

    @Option(names = "--threads", paramLabel = "N", split = ",",
        description = "CPU threads (default: all cores)")
    List<Integer> threads;

    @Option(names = "--device", paramLabel = "LIST", defaultValue = Devices.ALL, converter = Devices.Converter.class,
        description = "GPUs to use: all (default) or a comma list of CUDA indices, e.g. 0,2")
    String device;

    @Option(names = "--double", description = "double precision only (default: float, then double where float underflows)")
    boolean doublePrecision;

    @Option(names = {"-o", "--output"}, paramLabel = "FILE",
        description = "write results to FILE (replaced only when the command succeeds) instead of stdout")
    Path output;

    @Option(names = {"-q", "--quiet"}, description = "no progress and no notes on stderr; errors only")
    boolean quiet;

    /** The one --threads value of a workload subcommand (the bench takes a list); 0 = unset. */
    int singleThreads() {
        if (threads == null || threads.isEmpty()) {
            return 0;
        }
        if (threads.size() > 1) {
            throw new ParameterException(spec.commandLine(), "--threads " + joined(threads)
                + ": this command takes one value");
        }
        return checkThreads(threads.get(0));
    }

    int checkThreads(int n) {
        if (n < 1) {
            throw new ParameterException(spec.commandLine(), "--threads " + n + ": must be at least 1");
        }
        return n;
    }

    /** A context configuration from --backend and --threads (system properties fill the rest). */
    Config config() {
        Config.Builder b = Config.builder();
        int t = singleThreads();
        if (t > 0) {
            b.threads(t);
        }
        if (backend != null) {
            b.backend(backend);
        }
        return b.build();
    }

    /** A progress bar on stderr when it is a terminal and --quiet is off. */
    Progress progress(java.io.PrintStream err) {
        return new Progress(err, !quiet && System.console() != null);
    }

    /** dpaccel's and GKL's INFO lines would mix with results on a terminal. */
    void quietLogs() {
        Logger.getLogger("").setLevel(quiet ? Level.SEVERE : Level.WARNING);
    }

    private static String joined(List<Integer> v) {
        StringBuilder sb = new StringBuilder();
        for (int x : v) {
            sb.append(sb.length() > 0 ? "," : "").append(x);
        }
        return sb.toString();
    }

    static final class BackendConverter implements ITypeConverter<Backend> {
        @Override
        public Backend convert(String value) {
            return Backend.parse(value, "--backend");
        }
    }
}
