package org.dpaccel.internal;

import java.util.Objects;
import java.util.concurrent.locks.Lock;
import java.util.concurrent.locks.ReentrantReadWriteLock;

/**
 * Owner of one native context handle; the only code that passes a handle to native code. The
 * handle never leaves this object: every native call takes the read lock, checks the context
 * is still open and uses the handle only while holding the lock; {@link #close()} takes the
 * write lock, so it waits for calls in flight and later calls throw IllegalStateException
 * instead of handing freed memory to the engine.
 *
 * <p>Not part of the API (the module does not export this package); {@code org.dpaccel.DpaContext}
 * wraps it. Array arguments are checked for null here because the native side would dereference
 * them; their contents and sizes are checked by the callers and again by the native side.
 */
public final class NativeContext implements AutoCloseable {
    private final ReentrantReadWriteLock lock = new ReentrantReadWriteLock();
    private long handle; // guarded by lock; 0 once closed
    private final int[] info = new int[4];

    private NativeContext(long handle) {
        this.handle = handle;
        Natives.info(handle, info);
    }

    /**
     * Loads the native library if needed and creates a context.
     *
     * @param threads CPU threads including the caller, 0 for the default
     * @param backend {@code dpa_backend} code, -1 for the default
     * @param cpuDisable comma list of ISAs not to use, null for the default
     * @param gpuDisable 1 to disable GPUs, 0 to allow them, -1 for the default
     * @param gpuDevices comma list of CUDA device ordinals to use, null for the default
     * @return the open context
     * @throws org.dpaccel.DpaccelException if the library cannot load or the engine refuses
     */
    public static NativeContext create(int threads, int backend, String cpuDisable, int gpuDisable,
        String gpuDevices) {
        NativeLoader.ensureLoaded();
        long h = Natives.createContext(threads, backend, cpuDisable, gpuDisable, gpuDevices);
        try {
            return new NativeContext(h);
        } catch (RuntimeException | Error e) {
            Natives.destroyContext(h);
            throw e;
        }
    }

    /**
     * The context's fixed facts, read once at creation.
     *
     * @param field 0 = ISA code, 1 = threads, 2 = backend code, 3 = GPU count
     * @return the value
     */
    public int info(int field) {
        return info[field];
    }

    /*
     * Holds the read lock and returns the live handle; the caller must call exit() in a
     * finally block. A closed context throws with the lock released.
     */
    private long enter() {
        Lock r = lock.readLock();
        r.lock();
        if (handle == 0) {
            r.unlock();
            throw new IllegalStateException("dpaccel context is closed");
        }
        return handle;
    }

    private void exit() {
        lock.readLock().unlock();
    }

    /**
     * One line: version, ISA, threads, backend, GPUs or why none.
     *
     * @return the description
     * @throws IllegalStateException if the context is closed
     */
    public String describe() {
        long h = enter();
        try {
            return Natives.describe(h);
        } finally {
            exit();
        }
    }

    /**
     * PairHMM on a packed batch (see {@code PairHmmBatch} for the layout).
     *
     * @param readBases concatenated read bases
     * @param baseQuals base qualities, same layout
     * @param insQuals insertion gap-open qualities, same layout
     * @param delQuals deletion gap-open qualities, same layout
     * @param gcpQuals gap-continuation qualities, same layout
     * @param readLengths length of each read
     * @param hapBases concatenated haplotype bases
     * @param hapLengths length of each haplotype
     * @param groupReads reads per group
     * @param groupHaps haplotypes per group
     * @param precision {@code dpa_precision} code
     * @param backend {@code dpa_backend} code, -1 for the context's
     * @param out log10 likelihoods, one per (read, haplotype) pair of each group
     * @param stats filled with pairs, cells, double recomputes, GPU pairs, ISA code
     * @throws IllegalStateException if the context is closed
     */
    public void pairhmmCompute(byte[] readBases, byte[] baseQuals, byte[] insQuals, byte[] delQuals,
        byte[] gcpQuals, int[] readLengths, byte[] hapBases, int[] hapLengths, int[] groupReads,
        int[] groupHaps, int precision, int backend, double[] out, long[] stats) {
        nonNull(readBases, baseQuals, insQuals, delQuals, gcpQuals, hapBases);
        nonNull(readLengths, hapLengths, groupReads, groupHaps);
        Objects.requireNonNull(out, "out");
        Objects.requireNonNull(stats, "stats");
        if (stats.length < 5) {
            throw new IllegalArgumentException("stats needs 5 elements, has " + stats.length);
        }
        long h = enter();
        try {
            Natives.pairhmmCompute(h, readBases, baseQuals, insQuals, delQuals, gcpQuals, readLengths,
                hapBases, hapLengths, groupReads, groupHaps, precision, backend, out, stats);
        } finally {
            exit();
        }
    }

    /**
     * PairHMM on one GATK region packed into one byte array and one int array: bytes = [read
     * bases | base quals | ins | del | gcp | haplotype bases], lens = [read lengths | haplotype
     * lengths].
     *
     * @param bytes the packed bytes
     * @param lens the packed lengths
     * @param reads number of reads
     * @param haplotypes number of haplotypes
     * @param readBases total read bases
     * @param hapBases total haplotype bases
     * @param precision {@code dpa_precision} code
     * @param backend {@code dpa_backend} code, -1 for the context's
     * @param out log10 likelihoods, read-major
     * @return 0, or 1 when a quality is above 127 (nothing computed)
     * @throws IllegalStateException if the context is closed
     */
    public int pairhmmComputeFlat(byte[] bytes, int[] lens, int reads, int haplotypes, int readBases,
        int hapBases, int precision, int backend, double[] out) {
        Objects.requireNonNull(bytes, "bytes");
        Objects.requireNonNull(lens, "lens");
        Objects.requireNonNull(out, "out");
        long h = enter();
        try {
            return Natives.pairhmmComputeFlat(h, bytes, lens, reads, haplotypes, readBases, hapBases,
                precision, backend, out);
        } finally {
            exit();
        }
    }

    /**
     * Smith-Waterman on a packed batch (see {@code SwBatch} for the layout).
     *
     * @param refs concatenated references
     * @param refLengths length of each reference
     * @param alts concatenated alternates
     * @param altLengths length of each alternate
     * @param params match, mismatch, gapOpen, gapExtend, overhang code, backend code (-1 = the context's)
     * @param cigars packed CIGAR bytes out
     * @param cigarLengths CIGAR length of each pair, out
     * @param alignmentOffsets alignment offset of each pair, out
     * @param stats filled with pairs, cells, exact matches, CIGAR bytes, ISA code, GPU pairs
     * @throws IllegalStateException if the context is closed
     */
    public void swCompute(byte[] refs, int[] refLengths, byte[] alts, int[] altLengths, int[] params,
        byte[] cigars, int[] cigarLengths, int[] alignmentOffsets, long[] stats) {
        nonNull(refs, alts, cigars);
        nonNull(refLengths, altLengths, params, cigarLengths, alignmentOffsets);
        Objects.requireNonNull(stats, "stats");
        long h = enter();
        try {
            Natives.swCompute(h, refs, refLengths, alts, altLengths, params, cigars, cigarLengths,
                alignmentOffsets, stats);
        } finally {
            exit();
        }
    }

    /**
     * Genotype distance counts (see {@code GenotypeDistance} for the layouts).
     *
     * @param samples samples per .bed row
     * @param variants .bed rows
     * @param genotypes the rows, {@code (samples + 3) / 4} bytes each
     * @param use one 0/1 byte per variant, or null for all
     * @param tile {row0, row1, col0, col1}, or null for the triangle
     * @param backend {@code dpa_backend} code, -1 for the context's
     * @param block samples per side of a task, 0 for the default
     * @param out 7 counts per pair (uint32 bits)
     * @param stats filled with pairs, variants used, variants skipped, pair-variants, ISA code, GPU pairs
     * @throws IllegalStateException if the context is closed
     */
    public void distanceCounts(int samples, int variants, byte[] genotypes, byte[] use, int[] tile, int backend,
        int block, int[] out, long[] stats) {
        Objects.requireNonNull(genotypes, "genotypes");
        Objects.requireNonNull(out, "out");
        Objects.requireNonNull(stats, "stats");
        long h = enter();
        try {
            Natives.distanceCounts(h, samples, variants, genotypes, use, tile, backend, block, out, stats);
        } finally {
            exit();
        }
    }

    /**
     * X-drop seed extension on a packed batch (see {@code XdropBatch} for the layout).
     *
     * @param bases the distinct sequences, concatenated
     * @param seqLengths length of each sequence
     * @param pairs 6 per seed: query index, target index, qpos, tpos, length, strand (1 = reverse)
     * @param params match, mismatch, gap, xdrop, backend code (-1 = the context's)
     * @param out 7 columns of one value per seed, out: score, qbeg, qend, tbeg, tend, left, right
     * @param stats filled with pairs, cells, GPU pairs, ISA code
     * @throws IllegalStateException if the context is closed
     */
    public void xdropCompute(byte[] bases, int[] seqLengths, int[] pairs, int[] params, int[] out,
        long[] stats) {
        nonNull(bases);
        nonNull(seqLengths, pairs, params, out);
        Objects.requireNonNull(stats, "stats");
        long h = enter();
        try {
            Natives.xdropCompute(h, bases, seqLengths, pairs, params, out, stats);
        } finally {
            exit();
        }
    }

    /**
     * PDHMM on a batch in GKL 0.9.1's slot layout (see {@code PdhmmBatch}).
     *
     * @param hap haplotype bases, hapStride per pair
     * @param pd PD bytes, same layout
     * @param read read bases, readStride per pair
     * @param bq base qualities, same layout
     * @param iq insertion gap-open penalties
     * @param dq deletion gap-open penalties
     * @param gq gap-continuation penalties
     * @param hapLengths one per pair
     * @param readLengths one per pair
     * @param hapStride bytes per pair in hap and pd
     * @param readStride bytes per pair in the read arrays
     * @param backend backend code, -1 = the context's
     * @param rows 0 = GATK's row-state carry, 1 = GKL's per-row reset (dpa_pdhmm_rows)
     * @param result 0 = log10 likelihoods from the C library's log10, 1 = the scaled sums
     *     (dpa_pdhmm_result: the caller takes the log10)
     * @param out one value per pair, as {@code result} asks
     * @param stats filled with pairs, cells, GPU pairs, ISA code
     * @throws IllegalStateException if the context is closed
     */
    public void pdhmmCompute(byte[] hap, byte[] pd, byte[] read, byte[] bq, byte[] iq, byte[] dq, byte[] gq,
        long[] hapLengths, long[] readLengths, int hapStride, int readStride, int backend, int rows,
        int result, double[] out, long[] stats) {
        nonNull(hap, pd, read, bq, iq, dq, gq);
        Objects.requireNonNull(hapLengths, "hapLengths");
        Objects.requireNonNull(readLengths, "readLengths");
        Objects.requireNonNull(out, "out");
        Objects.requireNonNull(stats, "stats");
        long h = enter();
        try {
            Natives.pdhmmCompute(h, hap, pd, read, bq, iq, dq, gq, hapLengths, readLengths, hapStride, readStride,
                backend, rows, result, out, stats);
        } finally {
            exit();
        }
    }

    /**
     * HMMER3 filters of every (model, sequence) pair (see {@code HmmFilter}). Both the context
     * and the profiles are held open for the whole call.
     *
     * @param profiles the loaded models
     * @param residues the sequences, concatenated
     * @param lengths length of each sequence
     * @param dparams F1, F2
     * @param iparams bias filter (1/0), all scores (1/0), backend code (-1 = the context's)
     * @param bits 3 per pair: MSV, bias, Viterbi bits
     * @param pvalues 3 per pair, same order
     * @param flags 4 per pair: pass MSV, pass bias, pass Viterbi, computed mask
     * @param stats filled with pairs, cells, GPU pairs, passed MSV / bias / Viterbi, ISA code
     * @throws IllegalStateException if the context or the profiles are closed
     */
    public void hmmFilterCompute(NativeHmmProfiles profiles, byte[] residues, int[] lengths, double[] dparams,
        int[] iparams, float[] bits, double[] pvalues, byte[] flags, long[] stats) {
        Objects.requireNonNull(profiles, "profiles");
        nonNull(residues, flags);
        nonNull(lengths, iparams);
        Objects.requireNonNull(dparams, "dparams");
        Objects.requireNonNull(bits, "bits");
        Objects.requireNonNull(pvalues, "pvalues");
        Objects.requireNonNull(stats, "stats");
        long h = enter();
        try {
            long p = profiles.enter();
            try {
                Natives.hmmFilterCompute(h, p, residues, lengths, dparams, iparams, bits, pvalues, flags, stats);
            } finally {
                profiles.exit();
            }
        } finally {
            exit();
        }
    }

    /**
     * PaPaRa profile shape: edges and sites (no context needed, but checked open like the rest).
     *
     * @param parent parent per node
     * @param length branch length per node
     * @param row alignment row per tip, -1 for inner nodes
     * @param rows alignment rows
     * @param cols alignment columns
     * @param chars rows x cols characters
     * @return {edges, sites}
     * @throws IllegalStateException if the context is closed
     */
    public long[] paparaShape(int[] parent, double[] length, int[] row, int rows, int cols, byte[] chars) {
        nonNull(parent, row);
        Objects.requireNonNull(length, "length");
        nonNull(chars);
        enter();
        try {
            return Natives.paparaShape(parent, length, row, rows, cols, chars);
        } finally {
            exit();
        }
    }

    /**
     * Builds the PaPaRa profiles (see {@code PaparaReference}).
     *
     * @param parent parent per node
     * @param length branch length per node
     * @param row alignment row per tip
     * @param rows alignment rows
     * @param cols alignment columns
     * @param chars the characters
     * @param model gap model code
     * @param sites out: edges x sites
     * @param edgeNodes out: 2 per edge
     * @param columns out: column per site
     * @throws IllegalStateException if the context is closed
     */
    public void paparaBuild(int[] parent, double[] length, int[] row, int rows, int cols, byte[] chars, int model,
        byte[] sites, int[] edgeNodes, long[] columns) {
        nonNull(parent, row, edgeNodes);
        Objects.requireNonNull(length, "length");
        nonNull(chars);
        nonNull(sites);
        Objects.requireNonNull(columns, "columns");
        long h = enter();
        try {
            Natives.paparaBuild(h, parent, length, row, rows, cols, chars, model, sites, edgeNodes, columns);
        } finally {
            exit();
        }
    }

    /**
     * PaPaRa scoring of a packed batch.
     *
     * @param profiles profiles x sites bytes
     * @param numProfiles profiles
     * @param numSites sites
     * @param masks reads concatenated
     * @param lengths read lengths
     * @param params open, extend, match, match_cgap, backend code, score model code
     * @param scores out: reads x profiles, or null
     * @param best out: 3 columns of n: score, profile, tied
     * @param stats out: cells, GPU tasks, ISA code
     * @throws IllegalStateException if the context is closed
     */
    public void paparaScore(byte[] profiles, int numProfiles, int numSites, byte[] masks, int[] lengths,
        int[] params, int[] scores, int[] best, long[] stats) {
        nonNull(profiles);
        nonNull(masks);
        nonNull(lengths, params, best);
        Objects.requireNonNull(stats, "stats");
        long h = enter();
        try {
            Natives.paparaScore(h, profiles, numProfiles, numSites, masks, lengths, params, scores, best, stats);
        } finally {
            exit();
        }
    }

    /**
     * PaPaRa tracebacks of chosen (read, profile) pairs (no context state used, but checked open).
     *
     * @param profiles profiles x sites bytes
     * @param numProfiles profiles
     * @param numSites sites
     * @param pairs profile per read
     * @param masks reads concatenated
     * @param lengths read lengths
     * @param params open, extend, match, match_cgap, backend code (ignored)
     * @param ops out: numSites + length bytes per read, back to back
     * @param info out: {num_ops, score, ref_start} per read
     * @return the CIGARs, each followed by '\n'
     * @throws IllegalStateException if the context is closed
     */
    public byte[] paparaTraceback(byte[] profiles, int numProfiles, int numSites, int[] pairs, byte[] masks,
        int[] lengths, int[] params, byte[] ops, long[] info) {
        nonNull(profiles, masks, ops);
        nonNull(pairs, lengths, params);
        Objects.requireNonNull(info, "info");
        long h = enter();
        try {
            return Natives.paparaTraceback(h, profiles, numProfiles, numSites, pairs, masks, lengths, params, ops,
                info);
        } finally {
            exit();
        }
    }

    /**
     * Writes PaPaRa's extended alignment file (see {@code Papara.writeAlignment}).
     *
     * @param path the file, as bytes of the platform's file-name encoding
     * @param treeRows the alignment rows the tree's tips name
     * @param rows alignment rows
     * @param cols alignment columns
     * @param chars rows x cols characters
     * @param rowNames row names, each NUL-terminated
     * @param columns alignment column per site
     * @param masks reads concatenated
     * @param lengths read lengths
     * @param readNames read names, each NUL-terminated
     * @param ops traceback ops, numOps[r] per read, back to back
     * @param numOps ops per read
     * @throws IllegalStateException if the context is closed
     */
    public void paparaWriteAlignment(byte[] path, int[] treeRows, int rows, int cols, byte[] chars, byte[] rowNames,
        long[] columns, byte[] masks, int[] lengths, byte[] readNames, byte[] ops, long[] numOps) {
        nonNull(path, chars, rowNames, masks, readNames, ops);
        nonNull(treeRows, lengths);
        Objects.requireNonNull(columns, "columns");
        Objects.requireNonNull(numOps, "numOps");
        enter();
        try {
            Natives.paparaWriteAlignment(path, treeRows, rows, cols, chars, rowNames, columns, masks, lengths,
                readNames, ops, numOps);
        } finally {
            exit();
        }
    }

    /**
     * Whether {@link #close()} has run.
     *
     * @return true once closed
     */
    public boolean isClosed() {
        lock.readLock().lock();
        try {
            return handle == 0;
        } finally {
            lock.readLock().unlock();
        }
    }

    /** Waits for calls in flight, then frees the native context; idempotent. */
    @Override
    public void close() {
        lock.writeLock().lock();
        try {
            if (handle != 0) {
                long h = handle;
                handle = 0;
                Natives.destroyContext(h);
            }
        } finally {
            lock.writeLock().unlock();
        }
    }

    /**
     * The native library's version string; loads the library if needed.
     *
     * @return e.g. "0.1.0"
     * @throws org.dpaccel.DpaccelException if the library cannot load
     */
    public static String nativeVersion() {
        NativeLoader.ensureLoaded();
        return Natives.version();
    }

    private static void nonNull(byte[]... arrays) {
        for (int i = 0; i < arrays.length; i++) {
            if (arrays[i] == null) {
                throw new NullPointerException("byte array argument " + i + " is null");
            }
        }
    }

    private static void nonNull(int[]... arrays) {
        for (int i = 0; i < arrays.length; i++) {
            if (arrays[i] == null) {
                throw new NullPointerException("int array argument " + i + " is null");
            }
        }
    }
}
