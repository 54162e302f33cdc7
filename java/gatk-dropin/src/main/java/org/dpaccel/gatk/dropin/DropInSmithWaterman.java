package org.dpaccel.gatk.dropin;

import java.io.File;
import java.lang.System.Logger;
import java.lang.System.Logger.Level;

import org.broadinstitute.gatk.nativebindings.smithwaterman.SWAlignerNativeBinding;
import org.broadinstitute.gatk.nativebindings.smithwaterman.SWNativeAlignerResult;
import org.broadinstitute.gatk.nativebindings.smithwaterman.SWOverhangStrategy;
import org.broadinstitute.gatk.nativebindings.smithwaterman.SWParameters;
import org.dpaccel.Dpaccel;
import org.dpaccel.gatk.DpaSmithWaterman;

/**
 * What the drop-in's {@code com.intel.gkl.smithwaterman.IntelSmithWaterman} does. {@link #load}
 * picks the engine, once, like {@link DropInPairHmm}:
 * <ol>
 * <li>dpaccel ({@link DpaSmithWaterman}: GATK's Java aligner's CIGARs, byte for byte), unless the
 * whole drop-in is disabled ({@code -Ddpaccel.gatk.disable=true} / {@code DPACCEL_GATK_DISABLE=1})
 * or only its Smith-Waterman is ({@code -Ddpaccel.gatk.sw.disable=true} /
 * {@code DPACCEL_GATK_SW_DISABLE=1});</li>
 * <li>otherwise, or when dpaccel's native library cannot load, the real Intel GKL
 * {@code IntelSmithWaterman} behind the drop-in on the class path ({@link ShadowedGkl});</li>
 * <li>if there is no GKL either, {@code load} returns false with a log line; GATK then uses its
 * Java aligner for {@code --smith-waterman FASTEST_AVAILABLE} and stops for {@code AVX_ENABLED}.</li>
 * </ol>
 * {@code load} never throws. Every {@code align} is timed and counted ({@link DropInStats}:
 * {@code sw.*} keys of the stats file); {@link #close} logs a summary line and rewrites the stats file.
 */
public final class DropInSmithWaterman implements SWAlignerNativeBinding {
    /** The GKL class this stands in for. */
    public static final String GKL_CLASS = "com.intel.gkl.smithwaterman.IntelSmithWaterman";
    /** System property that, when true, sends Smith-Waterman to GKL instead of dpaccel. */
    public static final String SW_DISABLE_PROPERTY = "dpaccel.gatk.sw.disable";
    /** Environment twin of {@link #SW_DISABLE_PROPERTY}. */
    public static final String SW_DISABLE_ENV = "DPACCEL_GATK_SW_DISABLE";

    private static final Logger LOG = System.getLogger("org.dpaccel.gatk");

    private SWAlignerNativeBinding delegate;
    private boolean onDpaccel;
    private boolean loadResult;
    private boolean closed;

    /**
     * Whether the drop-in is switched off for Smith-Waterman.
     *
     * @return true when {@code -Ddpaccel.gatk.sw.disable} (wins when set) or {@code DPACCEL_GATK_SW_DISABLE} says so
     */
    public static boolean swDisabled() {
        return DropInPairHmm.switchOn(SW_DISABLE_PROPERTY, SW_DISABLE_ENV);
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
            if (DropInPairHmm.disabled()) {
                why = "dpaccel drop-in disabled (-D" + DropInPairHmm.DISABLE_PROPERTY + "=true or "
                    + DropInPairHmm.DISABLE_ENV + "=1)";
            } else if (swDisabled()) {
                why = "dpaccel Smith-Waterman disabled (-D" + SW_DISABLE_PROPERTY + "=true or " + SW_DISABLE_ENV + "=1)";
            } else {
                DpaSmithWaterman d = new DpaSmithWaterman();
                if (d.load(tempDir)) {
                    delegate = d;
                    onDpaccel = true;
                    loadResult = true;
                    DropInStats.swEngine("dpaccel");
                    LOG.log(Level.INFO, "dpaccel GATK drop-in: " + GKL_CLASS + " (GATK --smith-waterman"
                        + " FASTEST_AVAILABLE or AVX_ENABLED) runs on dpaccel " + Dpaccel.nativeVersion()
                        + " (GATK Java aligner's CIGARs; the 'Using dpaccel Smith-Waterman:' line at first use"
                        + " names the ISA) [native library: " + Dpaccel.loadStatus() + "]");
                    return true;
                }
                why = "dpaccel native library could not load (" + Dpaccel.loadStatus() + ")";
            }
            return loadGkl(tempDir, why);
        } catch (Throwable t) {
            LOG.log(Level.WARNING, "dpaccel GATK drop-in: " + GKL_CLASS + " could not load (" + t
                + "); dpaccel is NOT in use");
            return false;
        }
    }

    private boolean loadGkl(File tempDir, String why) {
        SWAlignerNativeBinding gkl;
        try {
            gkl = ShadowedGkl.newSmithWaterman(GKL_CLASS);
        } catch (Throwable t) {
            gkl = null;
            why += "; the real Intel GKL could not be instantiated: " + t;
        }
        if (gkl == null) {
            LOG.log(Level.WARNING, why + "; no Intel GKL " + GKL_CLASS + " found behind the drop-in on the class"
                + " path: dpaccel is NOT in use for Smith-Waterman, load() returns false, and GATK falls back to its"
                + " Java aligner for --smith-waterman FASTEST_AVAILABLE or stops for AVX_ENABLED");
            DropInStats.swEngine("none");
            loadResult = false;
            return false;
        }
        boolean ok = gkl.load(tempDir);
        delegate = gkl;
        onDpaccel = false;
        loadResult = ok;
        DropInStats.swEngine(ok ? "gkl" : "none");
        LOG.log(Level.WARNING, why + "; dpaccel is NOT in use for Smith-Waterman: delegating to the real Intel GKL "
            + GKL_CLASS + " from " + ShadowedGkl.source(GKL_CLASS) + " (its load() returned " + ok + ")");
        return ok;
    }

    @Override
    public SWNativeAlignerResult align(byte[] ref, byte[] alt, SWParameters parameters,
        SWOverhangStrategy overhangStrategy) {
        SWAlignerNativeBinding d;
        synchronized (this) {
            if (delegate == null && !closed) {
                load(null);
            }
            d = delegate;
        }
        if (d == null) {
            throw new IllegalStateException("dpaccel GATK drop-in: " + GKL_CLASS
                + " has neither dpaccel nor Intel GKL to run on (see the log line of load())");
        }
        long t0 = System.nanoTime();
        SWNativeAlignerResult r = d.align(ref, alt, parameters, overhangStrategy);
        long dt = System.nanoTime() - t0;
        DropInStats.recordSw(ref.length, alt.length, dt);
        DropInTrace.sw(ref, alt, parameters, overhangStrategy, r, t0, dt);
        return r;
    }

    @Override
    public void close() {
        SWAlignerNativeBinding d;
        synchronized (this) {
            d = delegate;
            closed = true;
        }
        if (d != null) {
            d.close();
        }
        DropInStats.reportSw();
    }
}
