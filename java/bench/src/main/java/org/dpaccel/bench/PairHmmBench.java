package org.dpaccel.bench;

import java.io.IOException;
import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.time.LocalDateTime;
import java.time.format.DateTimeFormatter;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;

import org.dpaccel.bench.data.Dataset;
import org.dpaccel.bench.data.PairHmmFiles;
import org.dpaccel.bench.data.PairHmmGenerator;
import org.dpaccel.bench.data.Region;
import org.dpaccel.bench.engine.DpaApiEngine;
import org.dpaccel.bench.engine.Engine;
import org.dpaccel.bench.engine.Engines;
import org.dpaccel.bench.engine.Plan;
import org.dpaccel.bench.report.Report;

/**
 * The {@code pairhmm} subcommand: every available backend on one data set, side by side,
 * with a correctness check against the scalar double reference in every run.
 */
public final class PairHmmBench {
    /** read = haplotype lengths of the length sweep (the paper's grid, then GATK-like and long). */
    static final int[] SWEEP_LENGTHS = {24, 48, 72, 96, 120, 144, 200, 300, 500};
    static final int[] SWEEP_BATCHES = {1, 2, 4, 8, 16, 32, 64, 128, 256};

    private final PrintStream out;
    private Progress progress;

    public PairHmmBench(PrintStream out) {
        this.out = out;
    }

    static Dataset dataset(String spec, int regions, long seed) throws IOException {
        PairHmmGenerator g = new PairHmmGenerator(seed);
        if (spec.startsWith("file:")) {
            Path p = Paths.get(spec.substring(5));
            if (!Files.isRegularFile(p)) {
                throw new IllegalArgumentException("--dataset " + spec + ": no such file");
            }
            return PairHmmFiles.read(p).limit(regions);
        }
        return switch (spec) {
            case "default" -> g.defaultDataset(regions > 0 ? regions : PairHmmGenerator.DEFAULT_REGIONS);
            case "gatk" -> g.gatkDataset(regions > 0 ? regions : 100);
            case "paper-grid" -> g.paperGrid(regions > 0 ? regions : 1);
            case "edge" -> g.edgeCases();
            default -> throw new IllegalArgumentException("--dataset '" + spec
                + "': expected default, gatk, paper-grid, edge or file:<path>");
        };
    }

    /** Regions checked against the reference: all, or an even spread within {@code maxCells}. */
    static int[] sample(List<Region> regions, long maxCells) {
        long total = 0;
        for (Region r : regions) {
            total += r.cells();
        }
        if (maxCells <= 0 || total <= maxCells) {
            int[] all = new int[regions.size()];
            Arrays.setAll(all, i -> i);
            return all;
        }
        int stride = (int) Math.max(1, Math.ceil((double) total / maxCells));
        List<Integer> pick = new ArrayList<>();
        long cells = 0;
        for (int off = 0; off < stride && cells < maxCells; off++) {
            for (int i = off; i < regions.size() && cells < maxCells; i += stride) {
                pick.add(i);
                cells += regions.get(i).cells();
            }
        }
        return pick.stream().mapToInt(Integer::intValue).sorted().toArray();
    }

    public int run(BenchSettings s) throws IOException {
        s.check();
        if (!s.verbose) {
            java.util.logging.Logger.getLogger("").setLevel(java.util.logging.Level.WARNING);
        }
        long seed = s.seed;
        Dataset ds = dataset(s.dataset, s.regions, seed);
        List<String> wanted = Engines.parseList(s.backends);
        int nproc = Runtime.getRuntime().availableProcessors();
        List<Integer> threadList = s.threads.isEmpty() ? List.of(nproc) : s.threads;
        int batch = s.batch;
        int reps = s.reps;
        int warmup = s.warmup;
        callers = s.callers;
        String mode = s.mode;
        boolean gatkMode = mode.equals("gatk");
        if (gatkMode && batch != 1) {
            out.println("note: --mode gatk calls computeLikelihoods once per region; --batch " + batch
                + " groups " + batch + " such calls per timed call");
        }
        long checkCells = s.checkCells;
        double sweepSeconds = s.sweepSeconds;
        boolean sweeps = s.sweeps;
        progress = Progress.auto(s.progress);
        String stamp = LocalDateTime.now().format(DateTimeFormatter.ofPattern("yyyyMMdd-HHmmss"));
        Path outDir = s.out != null ? s.out : Paths.get("dpaccel-bench-results/" + stamp);
        List<Region> regions = ds.regions();

        Machine m = Machine.probe();
        out.println("dpaccel bench " + BuildInfo.version() + " pairhmm   " + m.summary());
        out.printf(Locale.ROOT, "data set: %s: %s%n          %d regions, %,d pairs, %.3f Gcells; mode %s, %d region(s) per call, "
            + "%d warm-up + %d timed reps%n", ds.name(), ds.description(), regions.size(), ds.pairs(), ds.cells() / 1e9,
            mode, batch, warmup, reps);

        // The reference on a sample, before anything else touches the FPU mode of this thread.
        int[] sample = sample(regions, checkCells);
        List<Region> sampled = new ArrayList<>();
        long sampleCells = 0;
        for (int i : sample) {
            sampled.add(regions.get(i));
            sampleCells += regions.get(i).cells();
        }
        double[][] reference = new double[sample.length][];
        String refDetail;
        long t0 = System.nanoTime();
        try (DpaApiEngine ref = Engines.reference()) {
            refDetail = ref.detail();
            Plan p = ref.plan(sampled, 8);
            progress.start("reference (scalar double)", p.calls());
            for (int c = 0; c < p.calls(); c++) {
                p.run(c);
                progress.step(1);
            }
            progress.finish();
            for (int i = 0; i < sample.length; i++) {
                reference[i] = p.result(i);
            }
        }
        out.printf(Locale.ROOT, "reference: %s; %d of %d regions (%.0f%% of cells) in %.1f s%n", refDetail, sample.length,
            regions.size(), 100.0 * sampleCells / Math.max(1, ds.cells()), (System.nanoTime() - t0) / 1e9);
        double expectedDiff = expectedCheck(regions, sample, reference);
        if (!Double.isNaN(expectedDiff)) {
            out.printf(Locale.ROOT, "reference vs the file's expected values: max |diff| %.3g (log10)%n", expectedDiff);
        }

        List<Result> results = new ArrayList<>();
        for (String name : wanted) {
            List<Integer> tl = name.equals("gkl") ? List.of(1) : threadList;
            for (int threads : tl) {
                Result r = new Result(name, threads);
                results.add(r);
                Engine e;
                try {
                    e = Engines.create(name, threads, gatkMode, s.doublePrecision);
                } catch (Engines.Unavailable u) {
                    r.skipped = u.getMessage();
                    out.println("skip " + name + ": " + u.getMessage());
                    break;
                } catch (RuntimeException ex) {
                    r.error = ex.toString();
                    out.println("FAIL " + name + ": could not create (" + ex + ")");
                    break;
                }
                try (e) {
                    r.detail = e.detail();
                    r.dpaccel = e.isDpaccel();
                    measure(e, r, regions, batch, warmup, reps);
                    r.check = Correctness.check(regions, sample, reference, lastResults, Correctness.tolerance(
                        e.isDpaccel(), ds.gatkShaped()));
                    if (sweeps) {
                        sweep(e, r, regions, batch, seed, sweepSeconds);
                    }
                } catch (RuntimeException ex) {
                    r.error = ex.toString();
                    out.println("FAIL " + name + " x" + threads + ": " + ex);
                } finally {
                    progress.finish();
                }
            }
        }

        String baseline = s.baseline;
        Result base = pickBaseline(results, baseline);
        if (baseline != null && (base == null || !base.backend.equals(baseline))) {
            out.println("note: baseline '" + baseline + "' did not run; speed-ups are relative to "
                + (base == null ? "nothing" : base.backend));
        }
        for (Result r : results) {
            if (r.ran() && base != null) {
                r.speedup = r.gcups() / base.gcups();
            }
        }
        out.println();
        Report.printTable(out, results, base);
        boolean failed = Report.printFailures(out, results, ds);
        Report.Meta meta = new Report.Meta(m, ds, mode, batch, reps, warmup, seed, s.commandLine,
            refDetail, sample.length, sampleCells, base == null ? "" : base.backend, LocalDateTime.now().toString(),
            expectedDiff);
        Files.createDirectories(outDir);
        Report.write(outDir, meta, results);
        out.println();
        StringBuilder files = new StringBuilder("results.json, results.csv");
        for (String png : new String[] {"gcups_vs_length.png", "gcups_vs_batch.png"}) {
            if (Files.exists(outDir.resolve(png))) {
                files.append(", ").append(png);
            }
        }
        out.println("results: " + outDir.resolve("report.html") + " (also " + files + ")");
        out.println(failed ? "CORRECTNESS CHECK FAILED" : "correctness: every backend within tolerance of the scalar "
            + "double reference");
        return failed ? 1 : 0;
    }

    private java.util.function.IntFunction<double[]> lastResults;
    /** Java threads issuing calls at once (dpaccel engines; GKL's bindings are not thread-safe). */
    private int callers = 1;

    private void measure(Engine e, Result r, List<Region> regions, int batch, int warmup, int reps) {
        Plan p = e.plan(regions, batch);
        int calls = p.calls();
        r.calls = calls;
        for (int c = 0; c < calls; c++) {
            r.cells += p.cells(c);
            r.pairs += p.pairs(c);
        }
        r.repSeconds = new double[reps];
        r.latencyMs = new double[reps * calls];
        progress.start(e.name() + " x" + e.threads(), (long) (warmup + reps) * calls);
        for (int w = 0; w < warmup; w++) {
            progress.label(e.name() + " x" + e.threads() + " warm-up");
            for (int c = 0; c < calls; c++) {
                p.run(c);
                progress.step(1);
            }
        }
        final int nc = e.isDpaccel() ? Math.min(callers, calls) : 1;
        r.callers = nc;
        for (int rep = 0; rep < reps; rep++) {
            progress.label(e.name() + " x" + e.threads() + " rep " + (rep + 1) + "/" + reps);
            final int base = rep * calls;
            long start = System.nanoTime();
            if (nc == 1) {
                for (int c = 0; c < calls; c++) {
                    long s = System.nanoTime();
                    p.run(c);
                    r.latencyMs[base + c] = (System.nanoTime() - s) / 1e6;
                    progress.step(1);
                }
            } else {
                // calls c, c + nc, c + 2 nc, ... on caller thread c: like nc HaplotypeCaller
                // threads (or JVMs' worth of regions) sharing one dpaccel context
                Thread[] ts = new Thread[nc];
                java.util.concurrent.atomic.AtomicReference<Throwable> err = new java.util.concurrent.atomic.AtomicReference<>();
                for (int t = 0; t < nc; t++) {
                    final int first = t;
                    ts[t] = new Thread(() -> {
                        try {
                            for (int c = first; c < calls; c += nc) {
                                long s = System.nanoTime();
                                p.run(c);
                                r.latencyMs[base + c] = (System.nanoTime() - s) / 1e6;
                            }
                        } catch (Throwable x) {
                            err.compareAndSet(null, x);
                        }
                    });
                    ts[t].start();
                }
                for (Thread t : ts) {
                    try {
                        t.join();
                    } catch (InterruptedException x) {
                        Thread.currentThread().interrupt();
                        throw new IllegalStateException(x);
                    }
                }
                if (err.get() != null) {
                    throw new IllegalStateException(e.name() + ": a caller thread failed", err.get());
                }
                progress.step(calls);
            }
            r.repSeconds[rep] = (System.nanoTime() - start) / 1e9;
        }
        progress.finish();
        lastResults = p::result;
        out.printf(Locale.ROOT, "ran  %-8s x%-3d %8.3f GCUPS   %s%s%n", e.name(), e.threads(), r.gcups(),
            nc > 1 ? "[" + nc + " Java caller threads] " : "", e.detail());
    }

    /** GCUPS vs read = haplotype length (16 reads x 4 haplotypes per region) and vs regions per call. */
    private void sweep(Engine e, Result r, List<Region> regions, int batch, long seed, double seconds) {
        PairHmmGenerator g = new PairHmmGenerator(seed);
        double gcups = r.gcups();
        int perCall = Math.min(batch, 64);
        progress.start(e.name() + " sweeps", SWEEP_LENGTHS.length + SWEEP_BATCHES.length);
        for (int len : SWEEP_LENGTHS) {
            List<Region> rs = new ArrayList<>();
            for (int k = 0; k < perCall; k++) {
                rs.add(g.shapeRegion(k, len, len, 16, 4));
            }
            Plan p = e.plan(rs, perCall);
            double gc = timed(p, seconds, gcups);
            if (!Double.isNaN(gc)) {
                r.byLength.put(len, gc);
            }
            progress.step(1);
        }
        // The same leading regions for every batch size: enough for about `seconds` per pass.
        int m = 0;
        for (long c = 0; m < regions.size() && c < seconds * gcups * 1e9; m++) {
            c += regions.get(m).cells();
        }
        for (int b : SWEEP_BATCHES) {
            if (b > regions.size()) {
                break;
            }
            int mb = Math.min(regions.size(), (Math.max(m, 1) + b - 1) / b * b);
            Plan p = e.plan(regions.subList(0, mb), b);
            double gc = timedPasses(p, seconds, gcups);
            if (!Double.isNaN(gc)) {
                r.byBatch.put(b, gc);
            }
            progress.step(1);
        }
        progress.finish();
    }

    /** Runs calls round-robin (one untimed first) for at least {@code seconds} and 2 calls; NaN if too slow. */
    private static double timed(Plan p, double seconds, double gcupsEstimate) {
        double est = p.cells(0) / (gcupsEstimate * 1e9);
        if (est > Math.max(1.0, 10 * seconds)) {
            return Double.NaN; // one call alone would take too long at this backend's speed
        }
        p.run(0);
        long cells = 0, start = System.nanoTime(), limit = (long) (seconds * 1e9);
        int n = 0;
        while (n < 2 || System.nanoTime() - start < limit) {
            int c = n % p.calls();
            p.run(c);
            cells += p.cells(c);
            n++;
        }
        return cells / ((System.nanoTime() - start) / 1e9) / 1e9;
    }

    /** Whole passes over the plan's calls (one untimed call first) for at least {@code seconds}. */
    private static double timedPasses(Plan p, double seconds, double gcupsEstimate) {
        long passCells = 0;
        for (int c = 0; c < p.calls(); c++) {
            passCells += p.cells(c);
        }
        if (passCells / (gcupsEstimate * 1e9) > Math.max(1.0, 10 * seconds)) {
            return Double.NaN;
        }
        p.run(0);
        long cells = 0, start = System.nanoTime(), limit = (long) (seconds * 1e9);
        do {
            for (int c = 0; c < p.calls(); c++) {
                p.run(c);
            }
            cells += passCells;
        } while (System.nanoTime() - start < limit);
        return cells / ((System.nanoTime() - start) / 1e9) / 1e9;
    }

    private static Result pickBaseline(List<Result> results, String name) {
        for (String want : name != null ? List.of(name, "gkl", "scalar") : List.of("gkl", "scalar")) {
            for (Result r : results) {
                if (r.ran() && r.backend.equals(want)) {
                    return r;
                }
            }
        }
        return results.stream().filter(Result::ran).findFirst().orElse(null);
    }

    /** Max |reference - expected| over sampled regions that carry expected values; NaN if none. */
    static double expectedCheck(List<Region> regions, int[] sample, double[][] reference) {
        double max = Double.NaN;
        for (int i = 0; i < sample.length; i++) {
            double[] exp = regions.get(sample[i]).expected();
            if (exp == null) {
                continue;
            }
            for (int k = 0; k < exp.length; k++) {
                double d = Correctness.diff(reference[i][k], exp[k]);
                max = Double.isNaN(max) ? d : Math.max(max, d);
            }
        }
        return max;
    }
}
