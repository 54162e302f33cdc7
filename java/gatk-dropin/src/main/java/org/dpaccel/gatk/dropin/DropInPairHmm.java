package org.dpaccel.gatk.dropin;

import java.io.File;
import java.lang.System.Logger;
import java.lang.System.Logger.Level;
import java.util.Locale;

import org.broadinstitute.gatk.nativebindings.pairhmm.HaplotypeDataHolder;
import org.broadinstitute.gatk.nativebindings.pairhmm.PairHMMNativeArguments;
import org.broadinstitute.gatk.nativebindings.pairhmm.PairHMMNativeBinding;
import org.broadinstitute.gatk.nativebindings.pairhmm.ReadDataHolder;
import org.dpaccel.Dpaccel;
import org.dpaccel.gatk.DpaPairHmm;

/**
 * What the GKL-named classes of the drop-in jar do. {@link #load} picks the engine, once:
 * <ol>
 * <li>dpaccel ({@link DpaPairHmm}), unless disabled by {@code -Ddpaccel.gatk.disable=true} or
 * {@code DPACCEL_GATK_DISABLE=1};</li>
 * <li>otherwise, or when dpaccel's native library cannot load, the real Intel GKL class of the
 * same name, found behind the drop-in on the class path (GATK bundles GKL) and loaded through a
 * private class loader ({@link ShadowedGkl});</li>
 * <li>if there is no GKL either, {@code load} returns false with a log line, and GATK does what it
 * does without GKL (see docs/GATK.md).</li>
 * </ol>
 * {@code load} never throws. Every call after it goes to the chosen engine, and is counted
 * ({@link DropInStats}); {@link #done} logs a summary line and, with
 * {@code -Ddpaccel.gatk.stats=FILE}, writes the counters to FILE.
 *
 * <p>Threads: for {@link Mode#OMP} (GATK's {@code AVX_LOGLESS_CACHING_OMP} and
 * {@code FASTEST_AVAILABLE}) dpaccel uses {@code maxNumberOfThreads}
 * ({@code --native-pair-hmm-threads}); for {@link Mode#AVX} ({@code AVX_LOGLESS_CACHING}) one
 * thread, because GKL's {@code IntelPairHmm} ignores the thread count too. {@code -Ddpaccel.threads=N}
 * overrides both.
 */
public final class DropInPairHmm implements PairHMMNativeBinding {
    /** System property that, when true, sends PairHMM to GKL instead of dpaccel. */
    public static final String DISABLE_PROPERTY = "dpaccel.gatk.disable";
    /** Environment twin of {@link #DISABLE_PROPERTY}. */
    public static final String DISABLE_ENV = "DPACCEL_GATK_DISABLE";
    /** System property naming a file the counters are written to. */
    public static final String STATS_PROPERTY = "dpaccel.gatk.stats";
    /** System property overriding the CPU thread count. */
    public static final String THREADS_PROPERTY = "dpaccel.threads";

    private static final Logger LOG = System.getLogger("org.dpaccel.gatk");

    /** Which GKL class this instance stands in for. */
    public enum Mode {
        /** {@code IntelPairHmm}: one thread. */
        AVX("com.intel.gkl.pairhmm.IntelPairHmm", "AVX_LOGLESS_CACHING", false),
        /** {@code IntelPairHmmOMP}: GATK's native PairHMM thread count. */
        OMP("com.intel.gkl.pairhmm.IntelPairHmmOMP", "AVX_LOGLESS_CACHING_OMP or FASTEST_AVAILABLE", true);

        final String gklClass;
        final String gatkModes;
        final boolean multiThreaded;

        Mode(String gklClass, String gatkModes, boolean multiThreaded) {
            this.gklClass = gklClass;
            this.gatkModes = gatkModes;
            this.multiThreaded = multiThreaded;
        }
    }

    private final Mode mode;
    private PairHMMNativeBinding delegate;
    private boolean onDpaccel;
    private boolean loadResult;

    /**
     * A stand-in with nothing loaded yet.
     *
     * @param mode the GKL class it stands in for
     */
    public DropInPairHmm(Mode mode) {
        this.mode = mode;
    }

    /**
     * Whether the drop-in is switched off for PairHMM.
     *
     * @return true when {@code -Ddpaccel.gatk.disable} (wins when set) or {@code DPACCEL_GATK_DISABLE} says so
     */
    public static boolean disabled() {
        return switchOn(DISABLE_PROPERTY, DISABLE_ENV);
    }

    /** A boolean switch: the system property when set (true/1/yes/on), else the environment variable. */
    static boolean switchOn(String property, String env) {
        String p = System.getProperty(property);
        if (p != null && !p.isBlank()) {
            return truthy(p);
        }
        String e = System.getenv(env);
        return e != null && truthy(e);
    }

    private static boolean truthy(String s) {
        String v = s.trim().toLowerCase(Locale.ROOT);
        return v.equals("true") || v.equals("1") || v.equals("yes") || v.equals("on");
    }

    /**
     * The engine {@link #load} chose.
     *
     * @return "dpaccel", "gkl" or "none" (not loaded, or nothing could load)
     */
    public synchronized String engine() {
        return delegate == null ? "none" : onDpaccel ? "dpaccel" : "gkl";
    }

    @Override
    public synchronized boolean load(File tempDir) {
        if (delegate != null) {
            return loadResult;
        }
        try {
            DropInStats.registerShutdownWriter();
            DropInStats.registerExitSummary();
            String why;
            if (disabled()) {
                why = "dpaccel drop-in disabled (-D" + DISABLE_PROPERTY + "=true or " + DISABLE_ENV + "=1)";
            } else {
                DpaPairHmm d = new DpaPairHmm();
                if (d.load(tempDir)) {
                    delegate = d;
                    onDpaccel = true;
                    loadResult = true;
                    DropInStats.engine("dpaccel", mode.gklClass);
                    LOG.log(Level.INFO, "dpaccel GATK drop-in: " + mode.gklClass + " (GATK " + mode.gatkModes
                        + ") runs on dpaccel " + Dpaccel.nativeVersion() + " [native library: "
                        + Dpaccel.loadStatus() + "]");
                    return true;
                }
                why = "dpaccel native library could not load (" + Dpaccel.loadStatus() + ")";
            }
            return loadGkl(tempDir, why);
        } catch (Throwable t) {
            LOG.log(Level.WARNING, "dpaccel GATK drop-in: " + mode.gklClass + " could not load (" + t
                + "); dpaccel is NOT in use");
            return false;
        }
    }

    private boolean loadGkl(File tempDir, String why) {
        PairHMMNativeBinding gkl;
        try {
            gkl = ShadowedGkl.newPairHmm(mode.gklClass);
        } catch (Throwable t) {
            gkl = null;
            why += "; the real Intel GKL could not be instantiated: " + t;
        }
        if (gkl == null) {
            LOG.log(Level.WARNING, why + "; no Intel GKL " + mode.gklClass + " found behind the drop-in on"
                + " the class path: dpaccel is NOT in use, load() returns false, and GATK "
                + (mode == Mode.AVX ? "stops for AVX_LOGLESS_CACHING or" : "stops for AVX_LOGLESS_CACHING_OMP or")
                + " falls back to its Java LOGLESS_CACHING for FASTEST_AVAILABLE");
            DropInStats.engine("none", mode.gklClass);
            loadResult = false;
            return false;
        }
        boolean ok = gkl.load(tempDir);
        delegate = gkl;
        onDpaccel = false;
        loadResult = ok;
        DropInStats.engine(ok ? "gkl" : "none", mode.gklClass);
        LOG.log(Level.WARNING, why + "; dpaccel is NOT in use: delegating to the real Intel GKL " + mode.gklClass
            + " from " + ShadowedGkl.source(mode.gklClass) + " (its load() returned " + ok + ")");
        return ok;
    }

    @Override
    public void initialize(PairHMMNativeArguments args) {
        PairHMMNativeBinding d;
        boolean dpa;
        synchronized (this) {
            if (delegate == null) {
                load(null);
            }
            d = delegate;
            dpa = onDpaccel;
        }
        if (d == null) {
            throw new IllegalStateException("dpaccel GATK drop-in: " + mode.gklClass
                + " has neither dpaccel nor Intel GKL to run on (see the log line of load())");
        }
        if (!dpa) {
            DropInTrace.pairHmmInit(mode.gklClass, args);
            d.initialize(args);
            return;
        }
        int requested = args == null ? 1 : args.maxNumberOfThreads;
        boolean dbl = args != null && args.useDoublePrecision;
        int threads = mode.multiThreaded ? requested : 1;
        String source = mode.multiThreaded ? "--native-pair-hmm-threads " + requested
            : "1 for AVX_LOGLESS_CACHING, as GKL; --native-pair-hmm-threads " + requested + " ignored";
        // as GKL's OMP class: at most the processors this JVM sees, with GKL's warning
        int avail = Runtime.getRuntime().availableProcessors();
        if (mode.multiThreaded && requested > avail) {
            threads = avail;
            source = "--native-pair-hmm-threads " + requested + ", capped at the " + avail + " available processors"
                + " as GKL does";
            LOG.log(Level.WARNING, String.format("Using %d available threads, but %d were requested", avail,
                requested));
        }
        String p = System.getProperty(THREADS_PROPERTY);
        if (p != null && !p.isBlank()) {
            try {
                threads = Integer.parseInt(p.trim());
                source = "-D" + THREADS_PROPERTY + "=" + threads + " (overrides --native-pair-hmm-threads "
                    + requested + ")";
            } catch (NumberFormatException e) {
                throw new IllegalArgumentException("-D" + THREADS_PROPERTY + "='" + p + "': not an integer", e);
            }
        }
        PairHMMNativeArguments mine = new PairHMMNativeArguments();
        mine.maxNumberOfThreads = threads;
        mine.useDoublePrecision = dbl;
        DropInStats.threads(threads);
        DropInTrace.pairHmmInit(mode.gklClass, mine); // the threads this run really uses
        LOG.log(Level.INFO, "dpaccel GATK drop-in: " + mode.gklClass + " initialize: " + threads + " CPU thread(s) ("
            + source + "), double precision " + dbl + ", backend "
            + orDefault(System.getProperty("dpaccel.backend"), "auto (set -Ddpaccel.backend=cpu|gpu|hybrid)"));
        d.initialize(mine);
    }

    private static String orDefault(String v, String def) {
        return v == null || v.isBlank() ? def : v;
    }

    @Override
    public void computeLikelihoods(ReadDataHolder[] readDataArray, HaplotypeDataHolder[] haplotypeDataArray,
        double[] likelihoodArray) {
        PairHMMNativeBinding d;
        synchronized (this) {
            d = delegate;
        }
        if (d == null) {
            throw new IllegalStateException("dpaccel GATK drop-in: computeLikelihoods before a successful load()");
        }
        long t0 = System.nanoTime();
        d.computeLikelihoods(readDataArray, haplotypeDataArray, likelihoodArray);
        long dt = System.nanoTime() - t0;
        DropInStats.record(readDataArray, haplotypeDataArray, dt);
        DropInTrace.pairHmm(readDataArray, haplotypeDataArray, likelihoodArray, t0, dt);
    }

    @Override
    public void done() {
        PairHMMNativeBinding d;
        synchronized (this) {
            d = delegate;
        }
        if (d != null) {
            d.done();
        }
        DropInStats.report();
    }
}
