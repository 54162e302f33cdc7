package org.dpaccel.cli;

import org.dpaccel.bench.workload.WorkloadBenchRunner;

import picocli.CommandLine.Option;
import picocli.CommandLine.ParameterException;

/** Options every {@code dpaccel bench <workload>} of the generic runner takes (docs/bench.md). */
final class WorkloadBenchOptions {
    @Option(names = "--seed", paramLabel = "S", defaultValue = "1", description = "generator seed (default: 1)")
    long seed;

    @Option(names = "--backends", paramLabel = "LIST",
        description = "comma list of scalar,avx2,avx512,cuda,hybrid, or cpu, gpu, all (default: all; "
            + "--backend cpu|gpu|hybrid picks a group)")
    String backends;

    @Option(names = "--reps", paramLabel = "N", defaultValue = "3", description = "timed calls per backend (default: 3)")
    int reps;

    @Option(names = "--warmup", paramLabel = "N", defaultValue = "1", description = "untimed calls first (default: 1)")
    int warmup;

    /** The runner's settings; usage errors become picocli's (exit 2). */
    WorkloadBenchRunner.Settings settings(CommonOptions common, int size, String[] args) {
        WorkloadBenchRunner.Settings s = new WorkloadBenchRunner.Settings();
        s.seed = seed;
        s.size = size;
        s.reps = reps;
        s.warmup = warmup;
        s.threads = common.singleThreads();
        s.commandLine = String.join(" ", args);
        if (backends != null && common.backend != null) {
            throw new ParameterException(common.spec.commandLine(), "give --backend or --backends, not both");
        }
        s.backends = backends != null ? backends : common.backend == null ? "all" : switch (common.backend) {
            case CPU -> "cpu";
            case GPU -> "cuda";
            case HYBRID -> "hybrid";
            default -> "all";
        };
        try {
            s.check();
        } catch (IllegalArgumentException e) {
            throw new ParameterException(common.spec.commandLine(), e.getMessage());
        }
        return s;
    }
}
