package org.dpaccel.cli;

import java.io.IOException;
import java.io.PrintStream;
import java.net.URL;
import java.net.URLClassLoader;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;

import org.broadinstitute.gatk.nativebindings.pairhmm.HaplotypeDataHolder;
import org.broadinstitute.gatk.nativebindings.pairhmm.PairHMMNativeArguments;
import org.broadinstitute.gatk.nativebindings.pairhmm.PairHMMNativeBinding;
import org.broadinstitute.gatk.nativebindings.pairhmm.ReadDataHolder;
import org.broadinstitute.gatk.nativebindings.smithwaterman.SWAlignerNativeBinding;
import org.broadinstitute.gatk.nativebindings.smithwaterman.SWNativeAlignerResult;
import org.broadinstitute.gatk.nativebindings.smithwaterman.SWOverhangStrategy;
import org.broadinstitute.gatk.nativebindings.smithwaterman.SWParameters;
import org.dpaccel.Config;
import org.dpaccel.DpaContext;
import org.dpaccel.gatk.DpaPairHmm;
import org.dpaccel.gatk.DpaSmithWaterman;
import org.dpaccel.gatk.trace.TraceFormatException;
import org.dpaccel.gatk.trace.TraceReader;
import org.dpaccel.gatk.trace.TraceRecord;
import org.dpaccel.pdhmm.Pdhmm;
import org.dpaccel.pdhmm.PdhmmGklBatches;

/**
 * {@code dpaccel bench trace}: replays a GATK drop-in trace (docs/GATK.md, "HaplotypeCaller
 * traces") on dpaccel and, given its jar, on Intel GKL: the same calls in the same order on one
 * replay thread per recorded caller thread, each result checked against the recorded one, and the
 * run's wall time projected for each engine as recorded wall - trace writing - recorded kernel
 * time + replayed kernel time, kernel times taken on the caller thread that spent the most time in
 * kernels (HaplotypeCaller has one).
 */
final class TraceReplay {
    /** log10 likelihoods may differ this much between engines (dpaccel vs GKL float: 1e-5, docs/GATK.md). */
    static final double TOLERANCE = 1e-4;

    private final Path file;
    private String origin;
    private final List<TraceRecord> calls = new ArrayList<>();
    private TraceRecord.PairHmmInit init;
    private TraceRecord.End end;
    private long pairs, cells, pairHmmCalls, swCalls, swCells, pdCalls, pdPairs, pdCells;

    TraceReplay(Path file) {
        this.file = file;
    }

    /** Reads the whole trace; a damaged one is a BadInputException naming record and field. */
    void load() throws IOException {
        try (TraceReader r = TraceReader.open(file)) {
            origin = r.origin();
            for (TraceRecord t; (t = r.next()) != null;) {
                if (t instanceof TraceRecord.PairHmmInit i) {
                    init = init == null ? i : init;
                } else if (t instanceof TraceRecord.End e) {
                    end = e;
                } else {
                    calls.add(t);
                    if (t instanceof TraceRecord.PairHmm p) {
                        pairHmmCalls++;
                        pairs += p.out().length;
                        long rl = 0, hl = 0;
                        for (byte[][] read : p.reads()) {
                            rl += read[0].length;
                        }
                        for (byte[] h : p.haps()) {
                            hl += h.length;
                        }
                        cells += rl * hl;
                    } else if (t instanceof TraceRecord.Sw s) {
                        swCalls++;
                        swCells += (long) s.ref().length * s.alt().length;
                    } else if (t instanceof TraceRecord.Pdhmm d) {
                        pdCalls++;
                        pdPairs += d.out().length;
                        long rl = 0, hl = 0;
                        for (byte[][] read : d.reads()) {
                            rl += read[0].length;
                        }
                        for (byte[][] h : d.haps()) {
                            hl += h[0].length;
                        }
                        pdCells += rl * hl;
                    }
                }
            }
        } catch (TraceFormatException e) {
            throw new BadInputException(e.getMessage());
        }
    }

    /**
     * The PairHMM and SW implementations one engine replays on, and for PDHMM records a context
     * (dpaccel's engines; null for GKL, whose 0.8.11 in GATK 4.6 has no PDHMM: those calls then
     * count with their recorded time).
     */
    record Engine(String name, PairHMMNativeBinding pairHmm, SWAlignerNativeBinding sw, boolean pdhmm) {
    }

    /** What one engine did: kernel nanos per recorded thread, and the check's outcome. */
    static final class Result {
        final Map<Long, long[]> nanos = new LinkedHashMap<>(); // thread -> {pairhmm, sw, pdhmm}
        final Tally pairHmm = new Tally(), pdhmm = new Tally();
        long swMismatch;
        String firstProblem;
        boolean pdReplayed;
    }

    /** Likelihoods checked against the recorded ones. */
    static final class Tally {
        long exact, differing;
        double maxDiff;
    }

    static Engine dpaccel(String name) {
        return new Engine(name, new DpaPairHmm(), new DpaSmithWaterman(), true);
    }

    /**
     * Intel GKL from a class path (GATK's local jar, which carries GKL and what it needs, or GKL's jar
     * with commons-logging): every {@code com.intel.gkl} class comes from there even where another
     * copy (the GATK drop-in's) is on this program's class path, the bindings interfaces from this
     * program, so GKL's objects are the bindings GATK would use.
     */
    static Engine gkl(String classPath, String pairHmmClass) throws IOException {
        List<URL> urls = new ArrayList<>();
        for (String e : classPath.split(java.io.File.pathSeparator)) {
            Path p = Path.of(e);
            if (!java.nio.file.Files.exists(p)) {
                throw new BadInputException("--gkl " + e + ": no such file");
            }
            urls.add(p.toUri().toURL());
        }
        String jar = classPath;
        URLClassLoader l = new GklLoader(urls.toArray(new URL[0]), TraceReplay.class.getClassLoader());
        try {
            Class<?> p = Class.forName(pairHmmClass, true, l);
            Class<?> s = Class.forName("com.intel.gkl.smithwaterman.IntelSmithWaterman", true, l);
            return new Engine("gkl", (PairHMMNativeBinding) p.getConstructor().newInstance(),
                (SWAlignerNativeBinding) s.getConstructor().newInstance(), false);
        } catch (ClassNotFoundException e) {
            throw new BadInputException("--gkl " + jar + ": no Intel GKL in it (" + e.getMessage() + " not found)");
        } catch (ReflectiveOperationException | ClassCastException e) {
            throw new BadInputException("--gkl " + jar + ": cannot instantiate Intel GKL: " + e);
        }
    }

    /**
     * Child-first for com.intel.gkl classes and resources (GKL's native libraries must come from the
     * same jar as its classes), parent-first for everything else.
     */
    private static final class GklLoader extends URLClassLoader {
        GklLoader(URL[] urls, ClassLoader parent) {
            super(urls, parent);
        }

        @Override
        protected Class<?> loadClass(String name, boolean resolve) throws ClassNotFoundException {
            if (!name.startsWith("com.intel.gkl.")) {
                return super.loadClass(name, resolve);
            }
            synchronized (getClassLoadingLock(name)) {
                Class<?> c = findLoadedClass(name);
                if (c == null) {
                    c = findClass(name);
                }
                if (resolve) {
                    resolveClass(c);
                }
                return c;
            }
        }

        @Override
        public URL getResource(String name) {
            URL u = name.startsWith("com/intel/gkl/") ? findResource(name) : null;
            return u != null ? u : super.getResource(name);
        }
    }

    /**
     * The PairHMM threads the recorded run used: GATK's --native-pair-hmm-threads for the OpenMP
     * class (capped at this machine's processors, as GKL and the drop-in do), one for
     * IntelPairHmm (AVX_LOGLESS_CACHING), which is single-threaded in both.
     */
    int recordedThreads() {
        if (init == null || !init.gklClass().endsWith("OMP")) {
            return 1;
        }
        return Math.min(init.maxThreads(), Runtime.getRuntime().availableProcessors());
    }

    String gklPairHmmClass() {
        return init == null ? "com.intel.gkl.pairhmm.IntelPairHmmOMP" : init.gklClass();
    }

    /**
     * Replays every call on {@code e}: one warm-up pass, then {@code repeats} timed passes (the
     * fastest kept per thread); results checked on the first timed pass.
     */
    Result replay(Engine e, int threads, int repeats) throws IOException {
        if (!e.pairHmm().load(null) && pairHmmCalls > 0) {
            throw new IOException(e.name() + ": PairHMM load() returned false");
        }
        if (swCalls > 0 && !e.sw().load(null)) {
            throw new IOException(e.name() + ": Smith-Waterman load() returned false");
        }
        PairHMMNativeArguments a = new PairHMMNativeArguments();
        a.maxNumberOfThreads = threads > 0 ? threads : recordedThreads();
        a.useDoublePrecision = init != null && init.doublePrecision();
        e.pairHmm().initialize(a);
        Map<Long, List<Object[]>> byThread = new LinkedHashMap<>();
        for (TraceRecord t : calls) {
            byThread.computeIfAbsent(thread(t), k -> new ArrayList<>()).add(prepare(t));
        }
        Result res = new Result();
        res.pdReplayed = e.pdhmm() && pdCalls > 0;
        // PDHMM on one context for the whole replay, as the drop-in holds one (its threads: the
        // recorded PairHMM threads, as GATK passes --native-pair-hmm-threads to both)
        DpaContext pd = res.pdReplayed ? DpaContext.create(Config.builder().threads(threads > 0 ? threads
            : recordedThreads()).build()) : null;
        ExecutorService pool = Executors.newFixedThreadPool(Math.max(1, byThread.size()));
        try {
            for (int pass = 0; pass <= repeats; pass++) {
                boolean check = pass == 1 || repeats == 0;
                List<Future<long[]>> fs = new ArrayList<>();
                for (List<Object[]> list : byThread.values()) {
                    fs.add(pool.submit(() -> run(e, pd, list, check ? res : null)));
                }
                int k = 0;
                for (Map.Entry<Long, List<Object[]>> en : byThread.entrySet()) {
                    long[] t = fs.get(k++).get();
                    if (pass > 0 || repeats == 0) {
                        res.nanos.merge(en.getKey(), t, (o, n) -> o[0] + o[1] + o[2] <= n[0] + n[1] + n[2] ? o : n);
                    }
                }
            }
        } catch (ExecutionException ex) {
            throw new IOException(e.name() + ": a replayed call failed: " + ex.getCause(), ex.getCause());
        } catch (InterruptedException ex) {
            Thread.currentThread().interrupt();
            throw new IOException("interrupted", ex);
        } finally {
            pool.shutdownNow();
            e.pairHmm().done();
            e.sw().close();
            if (pd != null) {
                pd.close();
            }
        }
        return res;
    }

    private static long thread(TraceRecord t) {
        return t instanceof TraceRecord.PairHmm p ? p.thread()
            : t instanceof TraceRecord.Pdhmm d ? d.thread() : ((TraceRecord.Sw) t).thread();
    }

    private static long nanos(TraceRecord t) {
        return t instanceof TraceRecord.PairHmm p ? p.nanos()
            : t instanceof TraceRecord.Pdhmm d ? d.nanos() : ((TraceRecord.Sw) t).nanos();
    }

    private static long at(TraceRecord t) {
        return t instanceof TraceRecord.PairHmm p ? p.at()
            : t instanceof TraceRecord.Pdhmm d ? d.at() : ((TraceRecord.Sw) t).at();
    }

    /** A call's arguments as the bindings take them, and its recorded result. */
    private static Object[] prepare(TraceRecord t) {
        if (t instanceof TraceRecord.Pdhmm d) {
            return new Object[] { d };
        }
        if (t instanceof TraceRecord.PairHmm p) {
            ReadDataHolder[] reads = new ReadDataHolder[p.reads().length];
            for (int i = 0; i < reads.length; i++) {
                byte[][] r = p.reads()[i];
                ReadDataHolder d = new ReadDataHolder();
                d.readBases = r[0];
                d.readQuals = r[1];
                d.insertionGOP = r[2];
                d.deletionGOP = r[3];
                d.overallGCP = r[4];
                reads[i] = d;
            }
            HaplotypeDataHolder[] haps = new HaplotypeDataHolder[p.haps().length];
            for (int i = 0; i < haps.length; i++) {
                haps[i] = new HaplotypeDataHolder();
                haps[i].haplotypeBases = p.haps()[i];
            }
            return new Object[] { reads, haps, p.out() };
        }
        TraceRecord.Sw s = (TraceRecord.Sw) t;
        int[] sc = s.scores();
        return new Object[] { s.ref(), s.alt(), new SWParameters(sc[0], sc[1], sc[2], sc[3]),
            SWOverhangStrategy.values()[s.overhang()], s.cigar(), s.offset() };
    }

    private static long[] run(Engine e, DpaContext pd, List<Object[]> list, Result check) {
        long pairNanos = 0, swNanos = 0, pdNanos = 0;
        for (Object[] c : list) {
            if (c[0] instanceof TraceRecord.Pdhmm d) {
                if (pd == null) {
                    pdNanos += d.nanos(); // this engine cannot replay it: the recorded time stands
                    continue;
                }
                double[] got = new double[d.out().length];
                long t0 = System.nanoTime();
                PdhmmGklBatches.compute(pd, d.reads(), d.haps(), d.batch(), d.lanes(),
                    Pdhmm.Rows.valueOf(d.carriedRows()), got);
                pdNanos += System.nanoTime() - t0;
                if (check != null) {
                    compare(check, check.pdhmm, "PDHMM", d.out(), got);
                }
            } else if (c[0] instanceof ReadDataHolder[] reads) {
                double[] want = (double[]) c[2];
                double[] got = new double[want.length];
                long t0 = System.nanoTime();
                e.pairHmm().computeLikelihoods(reads, (HaplotypeDataHolder[]) c[1], got);
                pairNanos += System.nanoTime() - t0;
                if (check != null) {
                    compare(check, check.pairHmm, "PairHMM", want, got);
                }
            } else {
                long t0 = System.nanoTime();
                SWNativeAlignerResult r = e.sw().align((byte[]) c[0], (byte[]) c[1], (SWParameters) c[2],
                    (SWOverhangStrategy) c[3]);
                swNanos += System.nanoTime() - t0;
                if (check != null && (!r.cigar.equals(c[4]) || r.alignment_offset != (Integer) c[5])) {
                    synchronized (check) {
                        check.swMismatch++;
                        if (check.firstProblem == null) {
                            check.firstProblem = "Smith-Waterman: " + r.cigar + " at " + r.alignment_offset
                                + ", recorded " + c[4] + " at " + c[5];
                        }
                    }
                }
            }
        }
        return new long[] { pairNanos, swNanos, pdNanos };
    }

    /** The same tolerance for PDHMM as for PairHMM (GKL 0.9.1 and dpaccel agree to ~1e-14 there). */
    private static void compare(Result check, Tally t, String what, double[] want, double[] got) {
        synchronized (check) {
            for (int i = 0; i < want.length; i++) {
                if (Double.compare(want[i], got[i]) == 0) {
                    t.exact++;
                    continue;
                }
                double d = Math.abs(want[i] - got[i]);
                d = Double.isNaN(d) ? Double.POSITIVE_INFINITY : d;
                t.maxDiff = Math.max(t.maxDiff, d);
                if (d > TOLERANCE) {
                    t.differing++;
                    if (check.firstProblem == null) {
                        check.firstProblem = what + ": " + got[i] + ", recorded " + want[i];
                    }
                }
            }
        }
    }

    /** The recorded caller thread with the most kernel time, and that time {pairhmm, sw, pdhmm}. */
    Map.Entry<Long, long[]> busiestRecorded() {
        Map<Long, long[]> m = new LinkedHashMap<>();
        for (TraceRecord t : calls) {
            int k = t instanceof TraceRecord.PairHmm ? 0 : t instanceof TraceRecord.Sw ? 1 : 2;
            m.computeIfAbsent(thread(t), x -> new long[3])[k] += nanos(t);
        }
        Map.Entry<Long, long[]> best = Map.entry(-1L, new long[3]);
        for (Map.Entry<Long, long[]> en : m.entrySet()) {
            long[] v = en.getValue(), b = best.getValue();
            if (v[0] + v[1] + v[2] > b[0] + b[1] + b[2]) {
                best = en;
            }
        }
        return best;
    }

    /** The report: the trace, then one line per engine. */
    boolean report(PrintStream out, Map<String, Result> results) {
        Map.Entry<Long, long[]> busy = busiestRecorded();
        double wall = end.processNanos() * 1e-9, traced = end.traceNanos() * 1e-9;
        double recPair = busy.getValue()[0] * 1e-9, recSw = busy.getValue()[1] * 1e-9;
        double recPd = busy.getValue()[2] * 1e-9;
        out.printf(Locale.ROOT, "trace %s: %s%n", file, origin);
        out.printf(Locale.ROOT, "  %d PairHMM calls (%d pairs, %.3g cells), %d Smith-Waterman calls (%.3g cells), "
            + "%d caller thread(s)%n", pairHmmCalls, pairs, (double) cells, swCalls, (double) swCells,
            callerThreads());
        if (pdCalls > 0) {
            out.printf(Locale.ROOT, "  %d PDHMM calls (%d pairs, %.3g cells), %.3f s recorded on the busiest caller thread;"
                + " its time is in the projections below%n", pdCalls, pdPairs, (double) pdCells, recPd);
        }
        if (end.skipped() > 0) {
            out.printf(Locale.ROOT, "  NOTE: %d calls were not recorded (beyond the trace format's limits): their "
                + "time counts as GATK's own below%n", end.skipped());
        }
        out.printf(Locale.ROOT, "  recorded: process wall %.2f s, of which PairHMM %.3f s and Smith-Waterman %.3f s "
            + "on the busiest caller thread, trace writing %.3f s; PairHMM on %s (%s), Smith-Waterman on %s%n", wall,
            recPair, recSw, traced, end.pairHmmEngine(), init == null ? "no initialize recorded"
                : init.gklClass() + ", " + recordedThreads() + " thread(s)", end.swEngine());
        // the trace opens at the first call, so the process had run (processNanos - end.at) by then
        long first = Long.MAX_VALUE, last = 0;
        for (TraceRecord c : calls) {
            first = Math.min(first, at(c));
            last = Math.max(last, at(c) + nanos(c));
        }
        if (!calls.isEmpty()) {
            double startup = (end.processNanos() - end.at() + first) * 1e-9, span = (last - first) * 1e-9;
            double tail = (end.at() - last) * 1e-9;
            out.printf(Locale.ROOT, "  phases: start-up until the first kernel call %.2f s; first to last call %.2f s "
                + "(kernels %.3f s, trace writing %.3f s, the rest of GATK's work %.2f s); after the last call %.2f s%n",
                startup, span, recPair + recSw + recPd, traced, span - recPair - recSw - recPd - traced, tail);
        }
        double base = wall - traced - recPair - recSw - recPd;
        out.printf(Locale.ROOT, "  %-14s %10s %10s %12s %9s  %s%n", "engine", "PairHMM s", "SW s", "projected s",
            "kernels", "check");
        out.printf(Locale.ROOT, "  %-14s %10.3f %10.3f %12.2f %8.1f%%  %s%n", "recorded", recPair, recSw,
            wall - traced, 100 * (recPair + recSw + recPd) / Math.max(1e-9, wall - traced), "-");
        boolean ok = true;
        for (Map.Entry<String, Result> en : results.entrySet()) {
            Result r = en.getValue();
            long[] t = r.nanos.getOrDefault(busy.getKey(), new long[3]);
            double p = t[0] * 1e-9, s = t[1] * 1e-9, d = t[2] * 1e-9, projected = base + p + s + d;
            // dpaccel's SW gives GATK's Java aligner's CIGARs; GKL's native one breaks some ties
            // otherwise: alignments must match only where the same family recorded them
            boolean sameSw = en.getKey().startsWith(end.swEngine());
            boolean pass = r.pairHmm.differing == 0 && r.pdhmm.differing == 0 && (r.swMismatch == 0 || !sameSw);
            ok &= pass;
            String check = String.format(Locale.ROOT, "%s: %d of %d likelihoods identical, max |diff| %.3g; "
                + "%d SW mismatches%s", pass ? "ok" : "FAILED", r.pairHmm.exact, pairs, r.pairHmm.maxDiff, r.swMismatch,
                r.swMismatch > 0 && !sameSw ? " (allowed: recorded on " + end.swEngine() + ", whose aligner breaks "
                    + "some ties otherwise)" : "")
                + (pdCalls == 0 ? "" : r.pdReplayed ? String.format(Locale.ROOT, "; PDHMM %.3f s, %d of %d identical, "
                    + "max |diff| %.3g", d, r.pdhmm.exact, pdPairs, r.pdhmm.maxDiff) : "; PDHMM not replayed (recorded time)")
                + (r.firstProblem == null ? "" : " (first: " + r.firstProblem + ")");
            out.printf(Locale.ROOT, "  %-14s %10.3f %10.3f %12.2f %8.1f%%  %s%n", en.getKey(), p, s, projected,
                100 * (p + s + d) / Math.max(1e-9, projected), check);
        }
        return ok;
    }

    private long callerThreads() {
        return calls.stream().mapToLong(TraceReplay::thread).distinct().count();
    }
}
