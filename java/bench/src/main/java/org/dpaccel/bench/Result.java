package org.dpaccel.bench;

import java.util.TreeMap;

/** What one backend did in one run: timings over reps, per-call latencies, its correctness check, sweeps. */
public final class Result {
    public final String backend;
    public final int threads;
    public String detail = "";
    public boolean dpaccel;
    /** Why the backend did not run (absent on this machine), or null. */
    public String skipped;
    /** Why the backend failed while running (an exception), or null. */
    public String error;
    public double[] repSeconds = new double[0];
    public double[] latencyMs = new double[0];
    public long cells, pairs;
    public int calls;
    /** Java threads that issued the calls at once. */
    public int callers = 1;
    public Correctness.Check check;
    /** GCUPS by read = haplotype length, and by regions per call. */
    public final TreeMap<Integer, Double> byLength = new TreeMap<>(), byBatch = new TreeMap<>();
    public double speedup = Double.NaN;

    public Result(String backend, int threads) {
        this.backend = backend;
        this.threads = threads;
    }

    public boolean ran() {
        return skipped == null && error == null && repSeconds.length > 0;
    }

    public double seconds() {
        return Stats.median(repSeconds);
    }

    public double gcups() {
        return cells / seconds() / 1e9;
    }

    public double pairsPerSecond() {
        return pairs / seconds();
    }

    public double p50() {
        return Stats.percentile(latencyMs, 50);
    }

    public double p99() {
        return Stats.percentile(latencyMs, 99);
    }

    /** "avx512", "avx512 x2" style label for plots. */
    public String label() {
        return backend + " x" + threads;
    }

    public boolean failedCheck() {
        return error != null || (check != null && !check.ok());
    }
}
