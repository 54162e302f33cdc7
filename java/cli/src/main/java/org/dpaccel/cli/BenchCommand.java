package org.dpaccel.cli;

import java.io.IOException;
import java.util.concurrent.Callable;

import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.ParentCommand;

/**
 * {@code dpaccel bench}: the PairHMM benchmark on every backend of this machine (docs/bench.md);
 * later workloads add their benchmark as a subcommand beside {@code pairhmm}.
 */
@Command(name = "bench", mixinStandardHelpOptions = true, versionProvider = VersionInfo.class,
    subcommands = {BenchCommand.PairHmm.class, GenVectorsCommand.class},
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
}
