package org.dpaccel.bench;

import java.nio.file.Path;
import java.util.List;

import org.dpaccel.bench.data.PairHmmGenerator;

/**
 * Everything one PairHMM benchmark run needs, with the runner's defaults. The command line
 * (java/cli, {@code dpaccel bench}) fills it; tests fill it directly.
 */
public final class BenchSettings {
    public String dataset = "default";
    /** 0 = the data set's own default. */
    public int regions;
    public long seed = PairHmmGenerator.DEFAULT_SEED;
    public String backends = "all";
    /** Empty = all cores. */
    public List<Integer> threads = List.of();
    public int batch = 1;
    public int reps = 3;
    public int warmup = 1;
    public int callers = 1;
    public String mode = "api";
    /** Null = gkl when it ran, else scalar. */
    public String baseline;
    /** Null = dpaccel-bench-results/date-time. */
    public Path out;
    public boolean sweeps = true;
    public double sweepSeconds = 0.1;
    public long checkCells = 200_000_000L;
    /** auto (stderr is a terminal), on or off. */
    public String progress = "auto";
    public boolean verbose;
    /** dpaccel backends and GKL in double precision instead of float-then-double. */
    public boolean doublePrecision;
    /** The command line as typed, recorded in the report. */
    public String commandLine = "";

    /** Throws IllegalArgumentException naming the first setting out of range. */
    public void check() {
        atLeast("--regions", regions, 0);
        atLeast("--batch", batch, 1);
        atLeast("--reps", reps, 1);
        atLeast("--warmup", warmup, 0);
        atLeast("--callers", callers, 1);
        for (int t : threads) {
            atLeast("--threads", t, 1);
        }
        if (!mode.equals("api") && !mode.equals("gatk")) {
            throw new IllegalArgumentException("--mode '" + mode + "': expected api or gatk");
        }
        if (!List.of("auto", "on", "off").contains(progress)) {
            throw new IllegalArgumentException("--progress '" + progress + "': expected auto, on or off");
        }
        if (!(sweepSeconds > 0)) {
            throw new IllegalArgumentException("--sweep-seconds " + sweepSeconds + ": must be positive");
        }
        if (checkCells < 0) {
            throw new IllegalArgumentException("--check-cells " + checkCells + ": must be 0 (all) or positive");
        }
    }

    private static void atLeast(String name, long v, long min) {
        if (v < min) {
            throw new IllegalArgumentException(name + " " + v + ": must be at least " + min);
        }
    }
}
