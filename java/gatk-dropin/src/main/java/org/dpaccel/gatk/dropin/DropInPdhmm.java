package org.dpaccel.gatk.dropin;

import java.io.File;
import java.lang.System.Logger;
import java.lang.System.Logger.Level;
import java.lang.reflect.Array;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Method;
import java.util.Objects;
import java.util.concurrent.atomic.AtomicLong;

import org.broadinstitute.gatk.nativebindings.pdhmm.HaplotypeDataHolder;
import org.broadinstitute.gatk.nativebindings.pdhmm.PDHMMNativeArguments;
import org.broadinstitute.gatk.nativebindings.pdhmm.PDHMMNativeBinding;
import org.broadinstitute.gatk.nativebindings.pdhmm.ReadDataHolder;
import org.dpaccel.Config;
import org.dpaccel.DpaContext;
import org.dpaccel.Dpaccel;
import org.dpaccel.DpaccelException;
import org.dpaccel.pdhmm.Pdhmm;
import org.dpaccel.pdhmm.PdhmmBatch;
import org.dpaccel.pdhmm.PdhmmGklBatches;

/**
 * What the drop-in's {@code com.intel.gkl.pdhmm.IntelPDHMM} (GKL 0.9.1's class, which GATK 4.7's
 * {@code VectorLoglessPairPDHMM} calls) does. {@link #load} picks the engine once, as
 * {@link DropInPairHmm} does: dpaccel unless {@code -Ddpaccel.gatk.disable=true} or
 * {@code DPACCEL_GATK_DISABLE=1}; otherwise, or when dpaccel's native library cannot load, the real
 * GKL 0.9.1 {@code IntelPDHMM} found behind the drop-in on the class path; with neither, {@code load}
 * returns false with a log line (GATK then stops: its PDHMM has no Java fallback behind GKL).
 *
 * <p>Calls: GATK 4.7.0.0's VectorLoglessPairPDHMM calls {@code load}, {@code initialize},
 * {@code computeLikelihoods} (all reads x all haplotypes of a region) and {@code done};
 * {@code computePDHMM} (GKL's flat batch call) is served too. Threads: {@code initialize}'s
 * {@code maxNumberOfThreads}, or 1 before it; {@code -Ddpaccel.threads=N} overrides both.
 *
 * <p>Row semantics ({@code -Ddpaccel.pdhmm.rows=gkl|gatk}, default gkl): GATK's Java carries the
 * last column's deletion state into the next DP row; GKL 0.9.1's vector kernels start every row in
 * the NORMAL state, but only for pairs in whole groups of the vector width (8 with AVX-512, 4 with
 * AVX2) of each batch: the last {@code n mod width} pairs of a batch, and every pair when GKL was
 * never initialised in the JVM (its configuration then says SCALAR), run GKL's serial code, which
 * carries the state like GATK's Java. The results differ when a haplotype ends inside a deletion.
 * The default reproduces that pair by pair (the width GKL would pick on this CPU, GKL's batches of
 * {@code computeLikelihoods}); {@code gatk} gives GATK's Java values everywhere (docs/pdhmm.md).
 *
 * <p>Argument checks and their messages are GKL 0.9.1's ({@code checkArraySize}: "Array %s has size
 * %d, but expected size is %d."); an error from the native side keeps dpaccel's message (GKL
 * replaces it with "Ran into invalid argument issue").
 */
public final class DropInPdhmm implements PDHMMNativeBinding {
    static final String GKL_CLASS = "com.intel.gkl.pdhmm.IntelPDHMM";
    /** System property choosing the row semantics: gkl (default) or gatk. */
    public static final String ROWS_PROPERTY = "dpaccel.pdhmm.rows";
    private static final Logger LOG = System.getLogger("org.dpaccel.gatk");
    private static final AtomicLong PAIRS = new AtomicLong();
    private static final AtomicLong CELLS = new AtomicLong();
    private static final AtomicLong NANOS = new AtomicLong();

    /*
     * GKL 0.9.1's process-wide configuration (its ComputeConfig singleton), as far as it decides
     * results: SCALAR (0 lanes: every pair on the serial code) until some IntelPDHMM.initialize in
     * this JVM, then the vector width of the AVX level GKL picks, and the memory bound of its
     * computeLikelihoods batches.
     */
    private static volatile int gklLanes;
    private static volatile long gklMaxMemoryMb = 512;

    private PDHMMNativeBinding gkl;
    private Method gklComputePdhmm;
    private boolean onDpaccel;
    private boolean loaded;
    private boolean loadResult;
    private int threads = 1;
    private Pdhmm.Rows rows = Pdhmm.Rows.GKL;
    private DpaContext ctx;

    /**
     * The engine {@link #load} chose.
     *
     * @return "dpaccel", "gkl" or "none"
     */
    public synchronized String engine() {
        return !loaded || !loadResult ? "none" : onDpaccel ? "dpaccel" : "gkl";
    }

    /**
     * Pairs computed on dpaccel by all instances so far.
     *
     * @return the count
     */
    public static long pairs() {
        return PAIRS.get();
    }

    @Override
    public synchronized boolean load(File tempDir) {
        if (loaded) {
            return loadResult;
        }
        loaded = true;
        try {
            String why;
            if (DropInPairHmm.disabled()) {
                why = "dpaccel drop-in disabled (-D" + DropInPairHmm.DISABLE_PROPERTY + "=true or "
                    + DropInPairHmm.DISABLE_ENV + "=1)";
            } else if (Dpaccel.tryLoad()) {
                onDpaccel = true;
                loadResult = true;
                threads = threadsFrom(1, "1, as GKL's computePDHMM");
                rows = rowsFromProperty();
                LOG.log(Level.INFO, "dpaccel GATK drop-in: " + GKL_CLASS + " (GATK PDHMM) runs on dpaccel "
                    + Dpaccel.nativeVersion() + " [native library: " + Dpaccel.loadStatus() + "], " + rows
                    + " row semantics (-D" + ROWS_PROPERTY + "=gkl|gatk)");
                return true;
            } else {
                why = "dpaccel native library could not load (" + Dpaccel.loadStatus() + ")";
            }
            return loadGkl(tempDir, why);
        } catch (Throwable t) {
            LOG.log(Level.WARNING, "dpaccel GATK drop-in: " + GKL_CLASS + " could not load (" + t
                + "); dpaccel is NOT in use");
            loadResult = false;
            return false;
        }
    }

    private boolean loadGkl(File tempDir, String why) throws ReflectiveOperationException {
        Object real = ShadowedGkl.newInstance(GKL_CLASS);
        if (real == null) {
            LOG.log(Level.WARNING, why + "; no Intel GKL " + GKL_CLASS + " (GKL 0.9.1) found behind the drop-in"
                + " on the class path: dpaccel is NOT in use and load() returns false");
            loadResult = false;
            return false;
        }
        gkl = (PDHMMNativeBinding) real;
        gklComputePdhmm = real.getClass().getMethod("computePDHMM", byte[].class, byte[].class, byte[].class,
            byte[].class, byte[].class, byte[].class, byte[].class, long[].class, long[].class, int.class, int.class,
            int.class);
        loadResult = gkl.load(tempDir);
        LOG.log(Level.WARNING, why + "; dpaccel is NOT in use: delegating to the real Intel GKL " + GKL_CLASS
            + " from " + ShadowedGkl.source(GKL_CLASS) + " (its load() returned " + loadResult + ")");
        return loadResult;
    }

    private static Pdhmm.Rows rowsFromProperty() {
        String p = System.getProperty(ROWS_PROPERTY);
        if (p == null || p.isBlank() || p.trim().equalsIgnoreCase("gkl")) {
            return Pdhmm.Rows.GKL;
        }
        if (p.trim().equalsIgnoreCase("gatk")) {
            return Pdhmm.Rows.GATK;
        }
        throw new IllegalArgumentException("-D" + ROWS_PROPERTY + "='" + p + "': must be gkl or gatk");
    }

    private static int threadsFrom(int dflt, String source) {
        String p = System.getProperty(DropInPairHmm.THREADS_PROPERTY);
        if (p == null || p.isBlank()) {
            LOG.log(Level.DEBUG, "dpaccel GATK drop-in: PDHMM on " + dflt + " thread(s) (" + source + ")");
            return dflt;
        }
        try {
            return Integer.parseInt(p.trim());
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException("-D" + DropInPairHmm.THREADS_PROPERTY + "='" + p + "': not an integer", e);
        }
    }

    @Override
    public synchronized void initialize(PDHMMNativeArguments args) {
        if (!loaded) {
            load(null);
        }
        if (gkl != null) {
            gkl.initialize(args);
            return;
        }
        int requested = args == null ? 1 : args.maxNumberOfThreads;
        threads = threadsFrom(Math.max(1, requested), "PDHMMNativeArguments.maxNumberOfThreads");
        if (ctx != null) {
            ctx.close();
            ctx = null;
        }
        configureGkl(args);
    }

    /** What GKL 0.9.1's initialize makes of {@code args} (its ComputeConfig.initialize). */
    private static void configureGkl(PDHMMNativeArguments args) {
        PDHMMNativeArguments.AVXLevel level = args == null || args.avxLevel == null
            ? PDHMMNativeArguments.AVXLevel.FASTEST_AVAILABLE : args.avxLevel;
        long memory = args == null ? 512 : args.getMaxMemoryInMB();
        if (memory <= 0) {
            throw new IllegalArgumentException("Max memory should be greater than 0.");
        }
        int best = cpuLanes();
        int lanes;
        switch (level) {
            case AVX512 -> lanes = 8;
            case AVX2 -> lanes = 4;
            case SCALAR -> lanes = 0;
            default -> lanes = best;
        }
        if (lanes > best) {
            throw new IllegalStateException("Requested AVX level is not available on this system.");
        }
        gklLanes = lanes;
        gklMaxMemoryMb = Math.min(memory, freeMemoryMb(memory));
    }

    /* GKL's AVX-512 test is F+DQ+BW+VL with ZMM state enabled, dpaccel's the same bundle; its
     * AVX2 test (AVX, AVX2, SSE) is met by dpaccel's (which adds FMA and BMI). The CPU's own
     * best, whatever DPACCEL_CPU_DISABLE says. */
    private static int cpuLanes() {
        try (DpaContext probe = DpaContext.create(Config.builder().threads(1).cpuDisable("").gpuDisable(true)
            .build())) {
            return switch (probe.isa()) {
                case AVX512 -> 8;
                case AVX2 -> 4;
                default -> 0;
            };
        }
    }

    /* GKL bounds its memory by the free RAM at initialize (sysinfo freeram). */
    private static long freeMemoryMb(long dflt) {
        try {
            java.lang.management.OperatingSystemMXBean os = java.lang.management.ManagementFactory
                .getOperatingSystemMXBean();
            if (os instanceof com.sun.management.OperatingSystemMXBean sun) {
                return sun.getFreeMemorySize() / (1024 * 1024);
            }
        } catch (RuntimeException | LinkageError e) {
            LOG.log(Level.DEBUG, "dpaccel GATK drop-in: free memory unknown (" + e + ")");
        }
        return dflt;
    }

    /**
     * The pairs [from, to) of one GKL batch as GKL's row semantics split them: the whole groups of
     * its vector width first (rows start NORMAL), the rest on its serial code (state carried).
     *
     * @return the first pair of the carried part
     */
    private int carriedFrom(int from, int to) {
        if (rows == Pdhmm.Rows.GATK) {
            return from;
        }
        int lanes = gklLanes;
        return lanes == 0 ? from : to - (to - from) % lanes;
    }

    /**
     * The semantics of the carried part: GATK's Java (its Math.log10 included) in row mode gatk, GKL's
     * serial code (the C library's log10) in row mode gkl.
     */
    private Pdhmm.Rows carriedRows() {
        return rows == Pdhmm.Rows.GATK ? Pdhmm.Rows.GATK : Pdhmm.Rows.GKL_SERIAL;
    }

    private synchronized DpaContext context() {
        if (!loaded) {
            load(null);
        }
        if (!onDpaccel) {
            throw new IllegalStateException("dpaccel GATK drop-in: " + GKL_CLASS + " is not on dpaccel");
        }
        if (ctx == null) {
            ctx = DpaContext.create(Config.builder().threads(threads).build());
        }
        return ctx;
    }

    private static void checkArraySize(Object array, int expectedSize, String arrayName) {
        Objects.requireNonNull(array, arrayName + " must not be null.");
        if (Array.getLength(array) != expectedSize) {
            throw new IllegalArgumentException(String.format("Array %s has size %d, but expected size is %d.",
                arrayName, Array.getLength(array), expectedSize));
        }
    }

    /**
     * GKL 0.9.1's {@code IntelPDHMM.computePDHMM}: {@code batchSize} pairs, pair {@code i} in slot
     * {@code i} of {@code maxHapLength} (haplotype arrays) and {@code maxReadLength} (read arrays) bytes.
     *
     * @param hapBases haplotype bases
     * @param hapPdBases PD bytes
     * @param readBases read bases
     * @param readQual base qualities
     * @param readInsQual insertion gap-open penalties
     * @param readDelQual deletion gap-open penalties
     * @param gcp gap-continuation penalties
     * @param hapLengths one per pair
     * @param readLengths one per pair
     * @param batchSize pairs
     * @param maxHapLength haplotype slot size
     * @param maxReadLength read slot size
     * @return one log10 likelihood per pair
     */
    public double[] computePDHMM(byte[] hapBases, byte[] hapPdBases, byte[] readBases, byte[] readQual,
        byte[] readInsQual, byte[] readDelQual, byte[] gcp, long[] hapLengths, long[] readLengths, int batchSize,
        int maxHapLength, int maxReadLength) {
        PDHMMNativeBinding g;
        synchronized (this) {
            if (!loaded) {
                load(null);
            }
            g = gkl;
        }
        if (g != null) {
            try {
                return (double[]) gklComputePdhmm.invoke(g, hapBases, hapPdBases, readBases, readQual, readInsQual,
                    readDelQual, gcp, hapLengths, readLengths, batchSize, maxHapLength, maxReadLength);
            } catch (InvocationTargetException e) {
                Throwable c = e.getCause();
                if (c instanceof RuntimeException) {
                    throw (RuntimeException) c;
                }
                if (c instanceof Error) {
                    throw (Error) c;
                }
                throw new RuntimeException(c);
            } catch (IllegalAccessException e) {
                throw new IllegalStateException(e);
            }
        }
        int hapArrayLength = maxHapLength * batchSize;
        int readArrayLength = maxReadLength * batchSize;
        checkArraySize(hapBases, hapArrayLength, "hap_bases");
        checkArraySize(hapPdBases, hapArrayLength, "hap_pdbases");
        checkArraySize(readBases, readArrayLength, "read_bases");
        checkArraySize(readQual, readArrayLength, "read_qual");
        checkArraySize(readInsQual, readArrayLength, "read_ins_qual");
        checkArraySize(readDelQual, readArrayLength, "read_del_qual");
        checkArraySize(gcp, readArrayLength, "gcp");
        checkArraySize(hapLengths, batchSize, "hap_lengths");
        checkArraySize(readLengths, batchSize, "read_lengths");
        if (batchSize <= 0) {
            throw new IllegalArgumentException("batchSize must be greater than 0.");
        }
        if (maxHapLength <= 0) {
            throw new IllegalArgumentException("maxHapLength must be greater than 0. Cannot perform PDHMM on empty sequence");
        }
        if (maxReadLength <= 0) {
            throw new IllegalArgumentException("maxReadLength must be greater than 0. Cannot perform PDHMM on empty sequence");
        }
        long t0 = System.nanoTime();
        double[] out = new double[batchSize];
        int carried = carriedFrom(0, batchSize);
        try {
            for (int part = 0; part < 2; part++) {
                int from = part == 0 ? 0 : carried, to = part == 0 ? carried : batchSize;
                if (from == to) {
                    continue;
                }
                PdhmmBatch b = from == 0 && to == batchSize
                    ? PdhmmBatch.ofSlots(hapBases, hapPdBases, readBases, readQual, readInsQual, readDelQual, gcp,
                        hapLengths, readLengths, maxHapLength, maxReadLength)
                    : PdhmmBatch.ofSlots(slots(hapBases, from, to, maxHapLength), slots(hapPdBases, from, to,
                        maxHapLength), slots(readBases, from, to, maxReadLength), slots(readQual, from, to,
                        maxReadLength), slots(readInsQual, from, to, maxReadLength), slots(readDelQual, from, to,
                        maxReadLength), slots(gcp, from, to, maxReadLength), java.util.Arrays.copyOfRange(hapLengths,
                        from, to), java.util.Arrays.copyOfRange(readLengths, from, to), maxHapLength, maxReadLength);
                double[] r = Pdhmm.compute(context(), b, part == 0 ? Pdhmm.Rows.GKL : carriedRows(), null, null);
                System.arraycopy(r, 0, out, from, r.length);
            }
        } catch (DpaccelException e) {
            throw new IllegalArgumentException("dpaccel PDHMM: " + e.getMessage(), e);
        }
        NANOS.addAndGet(System.nanoTime() - t0);
        PAIRS.addAndGet(batchSize);
        long cells = 0;
        for (int i = 0; i < batchSize; i++) {
            cells += hapLengths[i] * readLengths[i];
        }
        CELLS.addAndGet(cells);
        return out;
    }

    private static byte[] slots(byte[] a, int from, int to, int slot) {
        return java.util.Arrays.copyOfRange(a, from * slot, to * slot);
    }

    /**
     * GKL 0.9.1's {@code computeLikelihoods} (what GATK 4.7.0.0's VectorLoglessPairPDHMM calls, after
     * {@code initialize}): every read against every haplotype, written to
     * {@code likelihoodArray[read * haplotypes + haplotype]} (checked against GKL in PdhmmOracleTest).
     */
    @Override
    public void computeLikelihoods(ReadDataHolder[] readDataArray, HaplotypeDataHolder[] haplotypeDataArray,
        double[] likelihoodArray) {
        if (readDataArray == null || haplotypeDataArray == null || likelihoodArray == null) {
            throw new NullPointerException("One or more input arrays are null. Please ensure readDataArray, "
                + "haplotypeDataArray, and likelihoodArray are properly initialized.");
        }
        if (likelihoodArray.length != readDataArray.length * haplotypeDataArray.length) {
            throw new IllegalArgumentException(
                "likelihoodArray length must be equal to readDataArray length * haplotypeDataArray length");
        }
        PDHMMNativeBinding g;
        synchronized (this) {
            if (!loaded) {
                load(null);
            }
            g = gkl;
        }
        if (likelihoodArray.length == 0 && g == null) {
            return;
        }
        long t0 = System.nanoTime();
        int total = likelihoodArray.length;
        // GKL's batches (JavaData): read-major pairs, as many as its memory bound allows
        int maxRead = 0, maxHap = 0;
        byte[][][] reads = new byte[readDataArray.length][][], haps = new byte[haplotypeDataArray.length][][];
        for (int i = 0; i < reads.length; i++) {
            ReadDataHolder r = readDataArray[i];
            reads[i] = new byte[][] { r.readBases, r.readQuals, r.insertionGOP, r.deletionGOP, r.overallGCP };
            maxRead = Math.max(maxRead, r.readBases.length);
        }
        for (int i = 0; i < haps.length; i++) {
            HaplotypeDataHolder h = haplotypeDataArray[i];
            haps[i] = new byte[][] { h.haplotypeBases, h.haplotypePDBases };
            maxHap = Math.max(maxHap, h.haplotypeBases.length);
        }
        long perPair = 5L * maxRead + 2L * maxHap + 8 + 16;
        int batch = (int) Math.max(1, Math.min(total, gklMaxMemoryMb * 1024 * 1024 / perPair));
        int lanes = rows == Pdhmm.Rows.GATK ? 0 : gklLanes;
        if (g != null) {
            g.computeLikelihoods(readDataArray, haplotypeDataArray, likelihoodArray);
            DropInTrace.pdhmm(reads, haps, batch, lanes, carriedRows().name(), likelihoodArray, t0,
                System.nanoTime() - t0);
            return;
        }
        long cells;
        try {
            cells = PdhmmGklBatches.compute(context(), reads, haps, batch, lanes, carriedRows(), likelihoodArray);
        } catch (DpaccelException e) {
            throw new IllegalArgumentException("dpaccel PDHMM: " + e.getMessage(), e);
        }
        long nanos = System.nanoTime() - t0;
        DropInTrace.pdhmm(reads, haps, batch, lanes, carriedRows().name(), likelihoodArray, t0, nanos);
        NANOS.addAndGet(nanos);
        PAIRS.addAndGet(total);
        CELLS.addAndGet(cells);
    }

    @Override
    public synchronized void done() {
        if (gkl != null) {
            gkl.done();
        }
        if (ctx != null) {
            ctx.close();
            ctx = null;
        }
        if (onDpaccel) {
            LOG.log(Level.INFO, String.format("dpaccel GATK drop-in: PDHMM %d pairs, %.3g cells, %.3f s in dpaccel",
                PAIRS.get(), (double) CELLS.get(), NANOS.get() * 1e-9));
        }
    }
}
