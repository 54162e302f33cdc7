package org.dpaccel.bench.workload;

import java.io.PrintStream;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

import org.dpaccel.Backend;
import org.dpaccel.Config;
import org.dpaccel.DpaContext;
import org.dpaccel.bench.Machine;
import org.dpaccel.bench.Stats;

/**
 * Runs one {@link WorkloadBench} on every requested backend of this machine: the input is built
 * once, the scalar backend computes the reference, and each backend runs {@code warmup} untimed
 * and {@code reps} timed passes; every pass's result is compared with the reference. Prints one
 * table (median / min / max wall time per call, the work rate, items per second, the check) and
 * returns 1 when a backend's result differs from the scalar one. Peers (an incumbent tool on the
 * same input, {@link WorkloadBench#peers}) follow the backends in the table, checked the same way.
 */
public final class WorkloadBenchRunner {
    /** Backends in report order. */
    public static final List<String> ALL = List.of("scalar", "avx2", "avx512", "cuda", "hybrid");

    /** What one run needs; the command line fills it, tests fill it directly. */
    public static final class Settings {
        public long seed = 1;
        public int size;
        public String backends = "all";
        /** 0 = all cores. */
        public int threads;
        public int reps = 3;
        public int warmup = 1;
        public String commandLine = "";

        /** Throws IllegalArgumentException naming the first setting out of range. */
        public void check() {
            if (size < 1) {
                throw new IllegalArgumentException("--size " + size + ": must be at least 1");
            }
            if (reps < 1) {
                throw new IllegalArgumentException("--reps " + reps + ": must be at least 1");
            }
            if (warmup < 0) {
                throw new IllegalArgumentException("--warmup " + warmup + ": must be at least 0");
            }
            if (threads < 0) {
                throw new IllegalArgumentException("--threads " + threads + ": must be at least 1");
            }
            parseBackends(backends);
        }
    }

    /** One table row. */
    public record Row(String backend, String status, double medianMs, double minMs, double maxMs, double rate,
        double itemsPerSecond, String detail) {
    }

    private WorkloadBenchRunner() {
    }

    /** Parses a comma list of backend names, "cpu" (the three ISAs), "gpu" (cuda, hybrid) or "all". */
    public static List<String> parseBackends(String list) {
        List<String> out = new ArrayList<>();
        for (String s : list.split(",")) {
            String v = s.trim().toLowerCase(Locale.ROOT);
            if (v.isEmpty()) {
                continue;
            }
            List<String> add = switch (v) {
                case "all" -> ALL;
                case "cpu" -> List.of("scalar", "avx2", "avx512");
                case "gpu" -> List.of("cuda", "hybrid");
                default -> {
                    if (!ALL.contains(v)) {
                        throw new IllegalArgumentException("--backends: unknown backend '" + s.trim() + "'; expected "
                            + String.join(", ", ALL) + ", cpu, gpu or all");
                    }
                    yield List.of(v);
                }
            };
            for (String a : add) {
                if (!out.contains(a)) {
                    out.add(a);
                }
            }
        }
        out.sort((a, b) -> Integer.compare(ALL.indexOf(a), ALL.indexOf(b)));
        return out;
    }

    private static String cpuDisable(String isa) {
        return switch (isa) {
            case "scalar" -> "avx512,avx2";
            case "avx2" -> "avx512";
            default -> "";
        };
    }

    private static int threads(Settings s) {
        return s.threads > 0 ? s.threads : Math.max(1, Runtime.getRuntime().availableProcessors());
    }

    /** The context of a backend, or null with the reason in why[0]. */
    static DpaContext context(String name, int threads, String[] why) {
        switch (name) {
            case "scalar", "avx2", "avx512" -> {
                DpaContext ctx = DpaContext.create(Config.builder().threads(threads).backend(Backend.CPU)
                    .cpuDisable(cpuDisable(name)).gpuDisable(true).build());
                if (!ctx.isa().id().equals(name)) {
                    why[0] = "this CPU has no " + name + " (best available: " + ctx.isa().id() + ")";
                    ctx.close();
                    return null;
                }
                return ctx;
            }
            default -> {
                // the context's own backend stays AUTO (a GPU-forced context without a GPU fails at
                // creation); each call names GPU or HYBRID
                DpaContext ctx = DpaContext.create(Config.builder().threads(threads).gpuDisable(false).build());
                if (ctx.deviceCount() == 0) {
                    String desc = ctx.describe();
                    int at = desc.indexOf("no GPU: ");
                    why[0] = at >= 0 ? desc.substring(at + 8) : "no usable GPU (" + desc + ")";
                    ctx.close();
                    return null;
                }
                return ctx;
            }
        }
    }

    private static Backend backendOf(String name) {
        return switch (name) {
            case "cuda" -> Backend.GPU;
            case "hybrid" -> Backend.HYBRID;
            default -> Backend.CPU;
        };
    }

    /**
     * Runs the benchmark and prints its table on {@code out}.
     *
     * @return 0 when every backend that ran equals the scalar backend, 1 otherwise
     */
    public static <I, R> int run(WorkloadBench<I, R> bench, Settings s, PrintStream out) {
        s.check();
        List<Row> rows = runRows(bench, s, out);
        print(bench, rows, out);
        boolean bad = rows.stream().anyMatch(r -> r.status().startsWith("DIFFERS"));
        out.println(bad ? "RESULT: a backend differs from scalar (exit 1)" : "RESULT: every backend that ran equals scalar");
        return bad ? 1 : 0;
    }

    static <I, R> List<Row> runRows(WorkloadBench<I, R> bench, Settings s, PrintStream out) {
        int threads = threads(s);
        out.println("# dpaccel bench " + bench.name() + (s.commandLine.isEmpty() ? "" : " (" + s.commandLine + ")"));
        out.println("# machine: " + Machine.probe().summary());
        I input = bench.generate(s.seed, s.size);
        out.println("# input: " + bench.describe(input) + ", seed " + s.seed);
        R ref;
        String[] why = new String[1];
        try (DpaContext sc = context("scalar", threads, why)) {
            ref = bench.run(sc, Backend.CPU, input);
        }
        long work = bench.work(input, ref);
        long items = bench.items(input);
        out.println("# " + work + " " + bench.workUnit() + ", " + items + " " + bench.itemUnit() + "; " + s.warmup
            + " warm-up and " + s.reps + " timed calls per backend, " + threads + " CPU threads");
        List<Row> rows = new ArrayList<>();
        for (String name : parseBackends(s.backends)) {
            DpaContext ctx = context(name, threads, why);
            if (ctx == null) {
                rows.add(new Row(name, "skipped: " + why[0], Double.NaN, Double.NaN, Double.NaN, Double.NaN,
                    Double.NaN, ""));
                continue;
            }
            try (ctx) {
                Backend be = backendOf(name);
                String diff = null;
                for (int i = 0; i < s.warmup && diff == null; i++) {
                    diff = bench.firstDifference(ref, bench.run(ctx, be, input));
                }
                double[] ms = new double[s.reps];
                for (int i = 0; i < s.reps && diff == null; i++) {
                    long t0 = System.nanoTime();
                    R got = bench.run(ctx, be, input);
                    ms[i] = (System.nanoTime() - t0) / 1e6;
                    diff = bench.firstDifference(ref, got);
                }
                if (diff != null) {
                    rows.add(new Row(name, "DIFFERS: " + diff, Double.NaN, Double.NaN, Double.NaN, Double.NaN,
                        Double.NaN, ctx.describe()));
                    continue;
                }
                double med = Stats.median(ms), lo = Stats.percentile(ms, 0), hi = Stats.percentile(ms, 100);
                rows.add(new Row(name, "ok", med, lo, hi, work / (med / 1e3) / 1e9, items / (med / 1e3),
                    ctx.describe()));
            }
        }
        rows.addAll(bench.peers(input, ref, s.reps));
        return rows;
    }

    static <I, R> void print(WorkloadBench<I, R> bench, List<Row> rows, PrintStream out) {
        out.printf(Locale.ROOT, "%-8s %10s %10s %10s %12s %14s  %s%n", "backend", "median_ms", "min_ms", "max_ms",
            bench.rateUnit(), bench.itemUnit() + "/s", "check");
        for (Row r : rows) {
            if (!r.status().equals("ok")) {
                out.printf(Locale.ROOT, "%-8s %10s %10s %10s %12s %14s  %s%n", r.backend(), "-", "-", "-", "-", "-",
                    r.status());
                continue;
            }
            out.printf(Locale.ROOT, "%-8s %10.2f %10.2f %10.2f %12.3f %14.0f  %s%n", r.backend(), r.medianMs(),
                r.minMs(), r.maxMs(), r.rate(), r.itemsPerSecond(), "ok (= scalar)");
        }
        for (Row r : rows) {
            if (!r.detail().isEmpty()) {
                out.println("# " + r.backend() + ": " + r.detail());
            }
        }
        for (Row peer : rows) {
            if (ALL.contains(peer.backend()) || !peer.status().equals("ok")) {
                continue;
            }
            StringBuilder line = new StringBuilder("# rate against " + peer.backend() + ":");
            for (Row r : rows) {
                if (ALL.contains(r.backend()) && r.status().equals("ok")) {
                    line.append(String.format(Locale.ROOT, " %s %.2fx", r.backend(), r.rate() / peer.rate()));
                }
            }
            out.println(line + " (per core only with --threads 1)");
        }
    }
}
