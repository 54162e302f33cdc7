package org.dpaccel.gatk;

import java.io.File;
import java.lang.System.Logger;
import java.lang.System.Logger.Level;
import java.util.Objects;
import java.util.concurrent.atomic.AtomicLong;

import org.broadinstitute.gatk.nativebindings.pairhmm.HaplotypeDataHolder;
import org.broadinstitute.gatk.nativebindings.pairhmm.PairHMMNativeArguments;
import org.broadinstitute.gatk.nativebindings.pairhmm.PairHMMNativeBinding;
import org.broadinstitute.gatk.nativebindings.pairhmm.ReadDataHolder;
import org.dpaccel.Config;
import org.dpaccel.DpaContext;
import org.dpaccel.pairhmm.PairHmm;
import org.dpaccel.pairhmm.PairHmmBatch;
import org.dpaccel.pairhmm.Precision;

/**
 * GATK's {@link PairHMMNativeBinding} on dpaccel. Contract, as GATK expects it:
 * {@link #load(File)} never throws (false + a log line saying dpaccel is not in use);
 * {@link #initialize} honours {@code maxNumberOfThreads} and {@code useDoublePrecision};
 * {@link #computeLikelihoods} fills read-major log10 likelihoods
 * ({@code out[r * haplotypes + h]}); {@link #done()} frees native resources and is idempotent.
 * Every invalid input is an exception naming the read or haplotype index and the field.
 *
 * <p>Backend and CPU ISA come from the usual configuration ({@code -Ddpaccel.backend=gpu}, ...).
 */
public class DpaPairHmm implements PairHMMNativeBinding {
    private static final Logger LOG = System.getLogger("org.dpaccel.gatk");
    private static final AtomicLong CALLS = new AtomicLong();

    private DpaContext ctx;
    private Precision precision = Precision.FLOAT_THEN_DOUBLE;
    private final AtomicLong instanceCalls = new AtomicLong();

    /** computeLikelihoods calls that reached dpaccel in this JVM (for checks that it is in use). */
    public static long callCount() {
        return CALLS.get();
    }

    /** computeLikelihoods calls that reached dpaccel through this instance. */
    public long instanceCallCount() {
        return instanceCalls.get();
    }

    /** The context's one-line description (version, ISA, threads, backend, GPUs), or why none. */
    public synchronized String describe() {
        return ctx == null ? "dpaccel PairHMM not initialized" : ctx.describe();
    }

    @Override
    public boolean load(File tmpDir) {
        return GatkLoading.load(tmpDir, LOG, "PairHMM");
    }

    @Override
    public synchronized void initialize(PairHMMNativeArguments args) {
        int threads = args == null ? 1 : args.maxNumberOfThreads;
        if (threads < 1) {
            throw new IllegalArgumentException("PairHMMNativeArguments.maxNumberOfThreads = " + threads
                + ": must be at least 1");
        }
        precision = args != null && args.useDoublePrecision ? Precision.DOUBLE : Precision.FLOAT_THEN_DOUBLE;
        if (ctx != null) {
            ctx.close();
        }
        ctx = DpaContext.create(Config.builder().threads(threads).build());
        LOG.log(Level.INFO, "Using dpaccel PairHMM: " + ctx.describe() + ", precision " + precision);
    }

    @Override
    public void computeLikelihoods(ReadDataHolder[] readDataArray, HaplotypeDataHolder[] haplotypeDataArray,
        double[] likelihoodArray) {
        DpaContext c;
        Precision p;
        synchronized (this) {
            c = ctx;
            p = precision;
        }
        if (c == null) {
            throw new IllegalStateException("computeLikelihoods called before initialize (or after done)");
        }
        Objects.requireNonNull(readDataArray, "readDataArray is null");
        Objects.requireNonNull(haplotypeDataArray, "haplotypeDataArray is null");
        Objects.requireNonNull(likelihoodArray, "likelihoodArray is null");
        long expected = (long) readDataArray.length * haplotypeDataArray.length;
        if (likelihoodArray.length != expected) {
            throw new IllegalArgumentException("likelihoodArray has length " + likelihoodArray.length + " but "
                + readDataArray.length + " reads x " + haplotypeDataArray.length + " haplotypes need " + expected);
        }
        long readBases = 0, hapBases = 0;
        for (ReadDataHolder rd : readDataArray) {
            readBases += rd != null && rd.readBases != null ? rd.readBases.length : 0;
        }
        for (HaplotypeDataHolder hd : haplotypeDataArray) {
            hapBases += hd != null && hd.haplotypeBases != null ? hd.haplotypeBases.length : 0;
        }
        PairHmmBatch.Builder b = PairHmmBatch.builder(readBases, hapBases, readDataArray.length,
            haplotypeDataArray.length);
        for (int r = 0; r < readDataArray.length; r++) {
            ReadDataHolder rd = readDataArray[r];
            if (rd == null) {
                throw new NullPointerException("readDataArray[" + r + "] is null");
            }
            b.addRead(rd.readBases, rd.readQuals, rd.insertionGOP, rd.deletionGOP, rd.overallGCP);
        }
        for (int h = 0; h < haplotypeDataArray.length; h++) {
            HaplotypeDataHolder hd = haplotypeDataArray[h];
            if (hd == null) {
                throw new NullPointerException("haplotypeDataArray[" + h + "] is null");
            }
            b.addHaplotype(hd.haplotypeBases);
        }
        PairHmmBatch batch = b.build();
        if (batch.resultCount() == 0) {
            return;
        }
        PairHmm.compute(c, batch, p, null, likelihoodArray);
        CALLS.incrementAndGet();
        instanceCalls.incrementAndGet();
    }

    @Override
    public synchronized void done() {
        if (ctx != null) {
            ctx.close();
            ctx = null;
        }
    }
}
