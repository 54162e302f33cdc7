package org.dpaccel.internal;

import java.lang.System.Logger;
import java.lang.System.Logger.Level;

/*
 * The JNI entry points, bound by RegisterNatives in JNI_OnLoad under this class name (the
 * native side looks it up as org/dpaccel/internal/Natives, so neither may move). Nothing here
 * is public: the only caller is NativeContext, which owns the handle and passes it only while
 * holding the context open, so no stale or forged handle can reach native code. Access modifiers
 * do not matter to RegisterNatives or to the log callback's GetStaticMethodID.
 */
final class Natives {
    private static final Logger LOG = System.getLogger("org.dpaccel");

    private Natives() {
    }

    static native long createContext(int threads, int backend, String cpuDisable, int gpuDisable,
        String gpuDevices);

    static native void destroyContext(long handle);

    static native String describe(long handle);

    /* Fills {isa, threads, backend, devices}. */
    static native void info(long handle, int[] out);

    static native String version();

    /* Arrays as packed by PairHmmBatch; stats: pairs, cells, recomputes, gpuPairs, isa. */
    static native void pairhmmCompute(long handle, byte[] readBases, byte[] baseQuals,
        byte[] insQuals, byte[] delQuals, byte[] gcpQuals, int[] readLengths, byte[] hapBases,
        int[] hapLengths, int[] groupReads, int[] groupHaps, int precision, int backend,
        double[] out, long[] stats);

    /*
     * One GATK region packed into one array: bytes = [read bases (readBases of them) | base
     * quals | ins | del | gcp | haplotype bases (hapBases)], lens = [read lengths | haplotype
     * lengths]; nulls and lengths checked by the caller, qualities checked here. Returns 0, or 1
     * when a quality is above 127 (nothing computed: the caller reports it).
     */
    static native int pairhmmComputeFlat(long handle, byte[] bytes, int[] lens, int reads,
        int haplotypes, int readBases, int hapBases, int precision, int backend, double[] out);

    /*
     * Arrays as packed by SwBatch; params: match, mismatch, gapOpen, gapExtend, overhang,
     * backend; cigars: packed CIGAR bytes out (capacity from SwBatch); stats: pairs, cells,
     * exactMatches, cigarBytes, isa, gpuPairs.
     */
    static native void swCompute(long handle, byte[] refs, int[] refLengths, byte[] alts,
        int[] altLengths, int[] params, byte[] cigars, int[] cigarLengths, int[] alignmentOffsets,
        long[] stats);

    /*
     * Genotype distance counts: genotypes = .bed SNP-major rows ((samples + 3) / 4 bytes each),
     * use = one 0/1 byte per variant or null (all), tile = {row0, row1, col0, col1} or null (the
     * triangle); out = 7 uint32 (as int) per pair; stats: pairs, variantsUsed, variantsSkipped,
     * pairVariants, isa, gpuPairs.
     */
    static native void distanceCounts(long handle, int samples, int variants, byte[] genotypes,
        byte[] use, int[] tile, int backend, int block, int[] out, long[] stats);

    /*
     * Arrays as packed by XdropBatch: bases = the distinct sequences concatenated, seqLengths
     * their lengths, pairs 6 per seed {query, target, qpos, tpos, length, strand}; params:
     * match, mismatch, gap, xdrop, backend; out: 7 columns of n {score, qbeg, qend, tbeg, tend,
     * left, right}; stats: pairs, cells, gpuPairs, isa.
     */
    static native void xdropCompute(long handle, byte[] bases, int[] seqLengths, int[] pairs,
        int[] params, int[] out, long[] stats);

    /*
     * PDHMM in GKL 0.9.1's layout: pair i owns hapStride bytes of hap/pd and readStride bytes of the
     * five read arrays; out: one log10 likelihood (result 0) or scaled sum (result 1) per pair;
     * stats: pairs, cells, gpuPairs, isa.
     */
    static native void pdhmmCompute(long handle, byte[] hap, byte[] pd, byte[] read, byte[] bq, byte[] iq,
        byte[] dq, byte[] gq, long[] hapLengths, long[] readLengths, int hapStride, int readStride, int backend,
        int rows, int result, double[] out, long[] stats);

    /*
     * PaPaRa: tree as parent/length/row per node, the alignment as rows x cols characters. Shape
     * returns {edges, sites}; build fills sites (edges x sites), edgeNodes (2 per edge) and
     * columns; score: params {open, extend, match, match_cgap, backend, model}, scores reads x
     * profiles or null, best 3 columns of n {score, profile, tied}, stats {cells, gpu, isa}.
     */
    static native long[] paparaShape(int[] parent, double[] length, int[] row, int rows, long cols,
        byte[] chars);

    static native void paparaBuild(long handle, int[] parent, double[] length, int[] row, int rows,
        long cols, byte[] chars, int model, byte[] sites, int[] edgeNodes, long[] columns);

    static native void paparaScore(long handle, byte[] profiles, int numProfiles, long numSites,
        byte[] masks, int[] lengths, int[] params, int[] scores, int[] best, long[] stats);

    /*
     * PaPaRa tracebacks: pairs = profile per read; ops out (num_sites + length per read, back to
     * back), info out {num_ops, score, ref_start} per read; returns the CIGARs, '\n' after each.
     * writeAlignment: PaPaRa's papara_alignment file at path (bytes); names NUL-terminated.
     */
    static native byte[] paparaTraceback(long handle, byte[] profiles, int numProfiles, long numSites,
        int[] pairs, byte[] masks, int[] lengths, int[] params, byte[] ops, long[] info);

    static native void paparaWriteAlignment(byte[] path, int[] treeRows, int rows, long cols, byte[] chars,
        byte[] rowNames, long[] columns, byte[] masks, int[] lengths, byte[] readNames, byte[] ops, long[] numOps);

    /*
     * HMMER3 filters. Profiles handles are owned by NativeHmmProfiles. describe returns the
     * NAMEs and fills lengths (LENG). compute: dparams {F1, F2}; iparams {bias, allScores,
     * backend}; per (model, sequence), model-major: bits and pvalues 3 each {msv, bias, vit},
     * flags 4 {passMsv, passBias, passVit, computed}; stats {pairs, cells, gpuPairs, passedMsv,
     * passedBias, passedVit, isa}.
     */
    static native long hmmLoadFile(String path);

    static native long hmmLoadBuffer(byte[] text);

    static native void hmmFree(long profiles);

    static native int hmmCount(long profiles);

    static native String[] hmmDescribe(long profiles, int[] lengths);

    static native void hmmFilterCompute(long handle, long profiles, byte[] residues, int[] lengths,
        double[] dparams, int[] iparams, float[] bits, double[] pvalues, byte[] flags, long[] stats);

    /* Called from native code, on the calling Java thread, with library log messages. */
    static void log(int level, String message) {
        Level l = level >= 3 ? Level.ERROR : level == 2 ? Level.WARNING : level == 1 ? Level.INFO : Level.DEBUG;
        LOG.log(l, message);
    }
}
