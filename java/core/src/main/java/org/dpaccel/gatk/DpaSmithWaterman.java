package org.dpaccel.gatk;

import java.io.File;
import java.lang.System.Logger;
import java.lang.System.Logger.Level;
import java.util.Objects;
import java.util.concurrent.atomic.AtomicLong;

import org.broadinstitute.gatk.nativebindings.smithwaterman.SWAlignerNativeBinding;
import org.broadinstitute.gatk.nativebindings.smithwaterman.SWNativeAlignerResult;
import org.broadinstitute.gatk.nativebindings.smithwaterman.SWOverhangStrategy;
import org.broadinstitute.gatk.nativebindings.smithwaterman.SWParameters;
import org.dpaccel.Config;
import org.dpaccel.DpaContext;
import org.dpaccel.sw.SmithWaterman;
import org.dpaccel.sw.SwAlignment;
import org.dpaccel.sw.SwBatch;
import org.dpaccel.sw.SwOverhang;
import org.dpaccel.sw.SwParameters;

/**
 * GATK's {@link SWAlignerNativeBinding} on dpaccel: {@link #align} returns the CIGAR and
 * alignment offset GATK 4.6's {@code SmithWatermanJavaAligner} computes, byte for byte, at any
 * length up to {@link SwBatch#MAX_LENGTH} (GKL's IntelSmithWaterman is limited to shorter
 * sequences). Contract: {@link #load(File)} never throws (false + a log line saying dpaccel is
 * not in use); {@link #align} validates everything first (NullPointerException naming a null
 * argument, IllegalArgumentException for empty sequences, lengths over the limits, or parameters
 * that with these lengths could overflow the int32 scores, naming the field and the limit);
 * after {@link #close()} (idempotent) {@link #align} throws IllegalStateException.
 *
 * <p>The native context is created on first use, with one CPU thread: GATK aligns one pair
 * per call, so a pool would only cost threads. Use {@link SmithWaterman} for batches.
 */
public class DpaSmithWaterman implements SWAlignerNativeBinding {
    private static final Logger LOG = System.getLogger("org.dpaccel.gatk");
    private static final AtomicLong CALLS = new AtomicLong();
    private static final SwOverhang[] OVERHANGS = new SwOverhang[SWOverhangStrategy.values().length];

    static {
        for (SWOverhangStrategy s : SWOverhangStrategy.values()) {
            OVERHANGS[s.ordinal()] = SwOverhang.valueOf(s.name());
        }
    }

    private DpaContext ctx;
    private boolean closed;

    /** A binding with no native context yet; the first {@link #align} creates it. */
    public DpaSmithWaterman() {
    }

    /**
     * align calls that reached dpaccel in this JVM (for checks that it is in use).
     *
     * @return the count
     */
    public static long callCount() {
        return CALLS.get();
    }

    @Override
    public boolean load(File tmpDir) {
        return GatkLoading.load(tmpDir, LOG, "Smith-Waterman");
    }

    private synchronized DpaContext context() {
        if (closed) {
            throw new IllegalStateException("DpaSmithWaterman.align called after close()");
        }
        if (ctx == null) {
            ctx = DpaContext.create(Config.builder().threads(1).build());
            LOG.log(Level.INFO, "Using dpaccel Smith-Waterman: " + ctx.describe());
        }
        return ctx;
    }

    @Override
    public SWNativeAlignerResult align(byte[] ref, byte[] alt, SWParameters parameters,
        SWOverhangStrategy overhangStrategy) {
        Objects.requireNonNull(ref, "ref is null");
        Objects.requireNonNull(alt, "alt is null");
        Objects.requireNonNull(parameters, "parameters is null");
        Objects.requireNonNull(overhangStrategy, "overhangStrategy is null");
        if (ref.length == 0 || alt.length == 0) {
            throw new IllegalArgumentException("Smith-Waterman needs non-empty sequences: ref length " + ref.length
                + ", alt length " + alt.length);
        }
        SwParameters p = new SwParameters(parameters.getMatchValue(), parameters.getMismatchPenalty(),
            parameters.getGapOpenPenalty(), parameters.getGapExtendPenalty());
        SwBatch batch = SwBatch.of(ref, alt);
        DpaContext c = context();
        SwAlignment a;
        try {
            a = SmithWaterman.align(c, batch, p, OVERHANGS[overhangStrategy.ordinal()]).get(0);
        } catch (IllegalStateException e) {
            throw new IllegalStateException("DpaSmithWaterman.align called after close()", e);
        }
        CALLS.incrementAndGet();
        return new SWNativeAlignerResult(a.cigar(), a.alignmentOffset());
    }

    @Override
    public synchronized void close() {
        closed = true;
        if (ctx != null) {
            ctx.close();
            ctx = null;
        }
    }
}
