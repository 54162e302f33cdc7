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
import org.dpaccel.internal.ContextAccess;
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
    private final ThreadLocal<Scratch> scratch = ThreadLocal.withInitial(Scratch::new);

    /** A binding with no native context yet; {@link #initialize} creates it. */
    public DpaPairHmm() {
    }

    /**
     * computeLikelihoods calls that reached dpaccel in this JVM (for checks that it is in use).
     *
     * @return the count
     */
    public static long callCount() {
        return CALLS.get();
    }

    /**
     * computeLikelihoods calls that reached dpaccel through this instance.
     *
     * @return the count
     */
    public long instanceCallCount() {
        return instanceCalls.get();
    }

    /**
     * The context's one-line description.
     *
     * @return version, ISA, threads, backend and GPUs, or that the binding is not initialized
     */
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
        if (expected == 0) {
            computeChecked(c, p, readDataArray, haplotypeDataArray, likelihoodArray); // validates only
            return;
        }
        if (!computeFast(c, p, readDataArray, haplotypeDataArray, likelihoodArray)) {
            computeChecked(c, p, readDataArray, haplotypeDataArray, likelihoodArray);
        }
        CALLS.incrementAndGet();
        instanceCalls.incrementAndGet();
    }

    /**
     * The per-region path: every array copied once into this thread's reusable buffer and
     * handed over in one JNI call, which checks the qualities while copying them out. Returns
     * false (nothing computed) on any input this path does not accept as is: a null, an empty
     * or too long sequence, mismatched lengths, an oversized region, a quality above 127.
     * {@link #computeChecked} then throws the exception naming index and field.
     */
    private boolean computeFast(DpaContext c, Precision p, ReadDataHolder[] reads, HaplotypeDataHolder[] haps,
        double[] out) {
        final int nr = reads.length, nh = haps.length;
        long rb = 0, hb = 0;
        for (ReadDataHolder rd : reads) {
            if (rd == null || rd.readBases == null || rd.readQuals == null || rd.insertionGOP == null
                || rd.deletionGOP == null || rd.overallGCP == null) {
                return false;
            }
            int n = rd.readBases.length;
            if (n < 1 || n > PairHmmBatch.MAX_LENGTH || rd.readQuals.length != n || rd.insertionGOP.length != n
                || rd.deletionGOP.length != n || rd.overallGCP.length != n) {
                return false;
            }
            rb += n;
        }
        for (HaplotypeDataHolder hd : haps) {
            if (hd == null || hd.haplotypeBases == null) {
                return false;
            }
            int n = hd.haplotypeBases.length;
            if (n < 1 || n > PairHmmBatch.MAX_LENGTH) {
                return false;
            }
            hb += n;
        }
        if (5 * rb + hb > Integer.MAX_VALUE - 16) {
            return false;
        }
        final int r = (int) rb, total = (int) (5 * rb + hb);
        Scratch s = scratch.get();
        byte[] buf = s.bytes(total);
        int[] lens = s.ints(nr + nh);
        int pos = 0;
        for (int i = 0; i < nr; i++) {
            ReadDataHolder rd = reads[i];
            int n = rd.readBases.length;
            System.arraycopy(rd.readBases, 0, buf, pos, n);
            System.arraycopy(rd.readQuals, 0, buf, r + pos, n);
            System.arraycopy(rd.insertionGOP, 0, buf, 2 * r + pos, n);
            System.arraycopy(rd.deletionGOP, 0, buf, 3 * r + pos, n);
            System.arraycopy(rd.overallGCP, 0, buf, 4 * r + pos, n);
            lens[i] = n;
            pos += n;
        }
        pos = 5 * r;
        for (int k = 0; k < nh; k++) {
            byte[] h = haps[k].haplotypeBases;
            System.arraycopy(h, 0, buf, pos, h.length);
            lens[nr + k] = h.length;
            pos += h.length;
        }
        final int hbases = (int) hb;
        int status = ContextAccess.of(c).pairhmmComputeFlat(buf, lens, nr, nh, r, hbases, p.ordinal(), -1, out);
        return status == 0;
    }

    /** Validates and packs through {@link PairHmmBatch} (exceptions name index and field). */
    private static void computeChecked(DpaContext c, Precision p, ReadDataHolder[] readDataArray,
        HaplotypeDataHolder[] haplotypeDataArray, double[] likelihoodArray) {
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
        if (batch.resultCount() > 0) {
            PairHmm.compute(c, batch, p, null, likelihoodArray);
        }
    }

    /** A calling thread's packing buffers, grown only (kept up to KEEP bytes). */
    private static final class Scratch {
        private static final int KEEP = 64 << 20;
        private byte[] bytes = new byte[0];
        private int[] ints = new int[0];

        byte[] bytes(int n) {
            if (n <= bytes.length) {
                return bytes;
            }
            byte[] b = new byte[Math.max(n, (int) Math.min(Integer.MAX_VALUE - 16, 2L * bytes.length))];
            if (b.length <= KEEP) {
                bytes = b;
            }
            return b;
        }

        int[] ints(int n) {
            if (n > ints.length) {
                ints = new int[Math.max(n, 2 * ints.length)];
            }
            return ints;
        }
    }

    @Override
    public synchronized void done() {
        if (ctx != null) {
            ctx.close();
            ctx = null;
        }
    }
}
