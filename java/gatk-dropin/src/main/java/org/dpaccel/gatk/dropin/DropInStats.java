package org.dpaccel.gatk.dropin;

import java.io.IOException;
import java.io.Writer;
import java.lang.System.Logger;
import java.lang.System.Logger.Level;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.nio.file.StandardCopyOption;
import java.util.Locale;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;

import org.broadinstitute.gatk.nativebindings.pairhmm.HaplotypeDataHolder;
import org.broadinstitute.gatk.nativebindings.pairhmm.ReadDataHolder;
import org.dpaccel.gatk.DpaPairHmm;
import org.dpaccel.gatk.DpaSmithWaterman;

/**
 * JVM-wide counters of the drop-in: how many computeLikelihoods batches, read x haplotype pairs
 * and DP cells (read length x haplotype length) went through it, and the wall time inside. The
 * summary line at {@code done()} and the optional stats file ({@code -Ddpaccel.gatk.stats=FILE},
 * java.util.Properties format, rewritten at every {@code done()} and at JVM exit) are how a run
 * proves it used dpaccel: {@code engine=dpaccel} and {@code dpaccel.calls} (from
 * {@link DpaPairHmm#callCount()}) above zero. Smith-Waterman ({@code IntelSmithWaterman}) has its
 * own counters: {@code sw.engine}, {@code sw.calls} (align calls through the drop-in, whoever
 * served them), {@code dpaccel.sw.calls} (from {@link DpaSmithWaterman#callCount()}), {@code sw.cells}
 * (ref length x alt length) and {@code sw.seconds}. GATK's {@code SWNativeAlignerWrapper} answers
 * exact substrings itself, so those never reach the drop-in.
 */
public final class DropInStats {
    private static final Logger LOG = System.getLogger("org.dpaccel.gatk");
    private static final AtomicLong BATCHES = new AtomicLong();
    private static final AtomicLong PAIRS = new AtomicLong();
    private static final AtomicLong CELLS = new AtomicLong();
    private static final AtomicLong NANOS = new AtomicLong();
    private static final AtomicBoolean HOOK = new AtomicBoolean();
    private static final AtomicBoolean EXIT_HOOK = new AtomicBoolean();
    private static final AtomicLong REPORTED_BATCHES = new AtomicLong();
    private static final AtomicLong REPORTED_SW = new AtomicLong();
    private static volatile String engine = "none";
    private static volatile String gklClass = "";
    private static volatile int threads;
    private static final AtomicLong SW_CALLS = new AtomicLong();
    private static final AtomicLong SW_CELLS = new AtomicLong();
    private static final AtomicLong SW_NANOS = new AtomicLong();
    private static volatile String swEngine = "none";

    private DropInStats() {
    }

    static void engine(String e, String cls) {
        engine = e;
        gklClass = cls;
    }

    static void swEngine(String e) {
        swEngine = e;
    }

    static void recordSw(int refLength, int altLength, long nanos) {
        SW_CALLS.incrementAndGet();
        SW_CELLS.addAndGet((long) refLength * altLength);
        SW_NANOS.addAndGet(nanos);
    }

    /**
     * Smith-Waterman calls so far.
     *
     * @return the count
     */
    public static long swCalls() {
        return SW_CALLS.get();
    }

    /**
     * The Smith-Waterman engine in use.
     *
     * @return "dpaccel", "gkl" or "none"
     */
    public static String swEngine() {
        return swEngine;
    }

    /**
     * One line for Smith-Waterman.
     *
     * @return engine, counts, time
     */
    public static String swSummary() {
        double s = SW_NANOS.get() * 1e-9;
        return String.format(Locale.ROOT,
            "dpaccel GATK drop-in Smith-Waterman summary: engine %s (com.intel.gkl.smithwaterman.IntelSmithWaterman),"
                + " %d align calls, DpaSmithWaterman.callCount() %d, %.4g cells, %.3f s inside align, %.3f GCUPS",
            swEngine, SW_CALLS.get(), DpaSmithWaterman.callCount(), (double) SW_CELLS.get(), s,
            s > 0 ? SW_CELLS.get() / s * 1e-9 : 0.0);
    }

    static void reportSw() {
        REPORTED_SW.set(SW_CALLS.get());
        LOG.log(Level.INFO, swSummary());
        writeStatsFile();
    }

    static void threads(int n) {
        threads = n;
    }

    static void record(ReadDataHolder[] reads, HaplotypeDataHolder[] haps, long nanos) {
        long readBases = 0;
        for (ReadDataHolder r : reads) {
            readBases += r.readBases.length;
        }
        long hapBases = 0;
        for (HaplotypeDataHolder h : haps) {
            hapBases += h.haplotypeBases.length;
        }
        BATCHES.incrementAndGet();
        PAIRS.addAndGet((long) reads.length * haps.length);
        CELLS.addAndGet(readBases * hapBases);
        NANOS.addAndGet(nanos);
    }

    /**
     * PairHMM calls (GATK regions) so far.
     *
     * @return the count
     */
    public static long batches() {
        return BATCHES.get();
    }

    /**
     * PairHMM (read, haplotype) pairs so far.
     *
     * @return the count
     */
    public static long pairs() {
        return PAIRS.get();
    }

    /**
     * PairHMM cells so far.
     *
     * @return the sum of read length x haplotype length
     */
    public static long cells() {
        return CELLS.get();
    }

    /**
     * The PairHMM engine in use.
     *
     * @return "dpaccel", "gkl" or "none"
     */
    public static String engine() {
        return engine;
    }

    /**
     * One line for PairHMM.
     *
     * @return engine, counts, time
     */
    public static String summary() {
        double s = NANOS.get() * 1e-9;
        return String.format(Locale.ROOT,
            "dpaccel GATK drop-in summary: engine %s (%s), %d computeLikelihoods batches, DpaPairHmm.callCount() %d,"
                + " %d read x haplotype pairs, %.4g cells, %.3f s inside computeLikelihoods, %.3f GCUPS",
            engine, gklClass, BATCHES.get(), DpaPairHmm.callCount(), PAIRS.get(), (double) CELLS.get(), s,
            s > 0 ? CELLS.get() / s * 1e-9 : 0.0);
    }

    static void report() {
        REPORTED_BATCHES.set(BATCHES.get());
        LOG.log(Level.INFO, summary());
        writeStatsFile();
    }

    /**
     * The summary lines a JVM owes at exit: those of calls made after the last {@code done()} /
     * {@code close()} report. GATK's Spark tools compute likelihoods on executors that never call
     * {@code done()}, so without this an executor would say nothing about the drop-in.
     *
     * @return the lines, or null when every call was reported
     */
    static String exitSummary() {
        boolean hmm = BATCHES.get() > REPORTED_BATCHES.get(), sw = SW_CALLS.get() > REPORTED_SW.get();
        if (!hmm && !sw) {
            return null;
        }
        String who = " [at exit of process " + ProcessHandle.current().pid() + "; calls after the last done()]";
        return (hmm ? summary() + who : "") + (hmm && sw ? System.lineSeparator() : "") + (sw ? swSummary() + who : "");
    }

    /** Once per JVM: print {@link #exitSummary} to stderr at exit (loggers may be shut down by then). */
    static void registerExitSummary() {
        if (EXIT_HOOK.compareAndSet(false, true)) {
            Runtime.getRuntime().addShutdownHook(new Thread(() -> {
                String s = exitSummary();
                if (s != null) {
                    System.err.println(s);
                }
            }, "dpaccel-gatk-summary"));
        }
    }

    static void registerShutdownWriter() {
        String f = System.getProperty(DropInPairHmm.STATS_PROPERTY);
        if (f != null && !f.isBlank() && HOOK.compareAndSet(false, true)) {
            Runtime.getRuntime().addShutdownHook(new Thread(DropInStats::writeStatsFile, "dpaccel-gatk-stats"));
        }
    }

    static synchronized void writeStatsFile() {
        String f = System.getProperty(DropInPairHmm.STATS_PROPERTY);
        if (f == null || f.isBlank()) {
            return;
        }
        Path target = Paths.get(f.trim()).toAbsolutePath();
        try {
            Path dir = target.getParent();
            if (dir != null) {
                Files.createDirectories(dir);
            }
            Path tmp = Files.createTempFile(dir, ".dpaccel-stats", ".tmp");
            try (Writer w = Files.newBufferedWriter(tmp, StandardCharsets.UTF_8)) {
                w.write("# dpaccel GATK drop-in counters (java.util.Properties)\n");
                w.write("engine=" + engine + "\n");
                w.write("gkl.class=" + gklClass + "\n");
                w.write("threads=" + threads + "\n");
                w.write("batches=" + BATCHES.get() + "\n");
                w.write("dpaccel.calls=" + DpaPairHmm.callCount() + "\n");
                w.write("pairs=" + PAIRS.get() + "\n");
                w.write("cells=" + CELLS.get() + "\n");
                w.write("seconds=" + String.format(Locale.ROOT, "%.6f", NANOS.get() * 1e-9) + "\n");
                w.write("sw.engine=" + swEngine + "\n");
                w.write("sw.calls=" + SW_CALLS.get() + "\n");
                w.write("dpaccel.sw.calls=" + DpaSmithWaterman.callCount() + "\n");
                w.write("sw.cells=" + SW_CELLS.get() + "\n");
                w.write("sw.seconds=" + String.format(Locale.ROOT, "%.6f", SW_NANOS.get() * 1e-9) + "\n");
            }
            Files.move(tmp, target, StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
        } catch (IOException | RuntimeException e) {
            LOG.log(Level.WARNING, "dpaccel GATK drop-in: cannot write -D" + DropInPairHmm.STATS_PROPERTY + "=" + f
                + ": " + e);
        }
    }
}
