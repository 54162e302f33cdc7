package org.dpaccel.gatk.trace;

/**
 * The trace file, version 2 (version 1, without kind 5, is still read): a gzip stream of
 * big-endian {@code DataOutput} values.
 *
 * <pre>
 * "DPATRACE" int version UTF origin
 * then records, each a kind byte and its fields:
 *   1 PairHmmInit  long thread, long at, UTF gklClass, int maxThreads, boolean double
 *   2 PairHmm      long thread, long at, long nanos, int reads, int haps,
 *                  reads x 5 byte arrays (bases, quals, ins, del, gcp), haps x 1 byte array,
 *                  reads x haps doubles (read-major)
 *   3 Sw           long thread, long at, long nanos, byte array ref, byte array alt,
 *                  int match, mismatch, open, extend, byte overhang, UTF cigar, int offset
 *   4 End          long at, long processNanos, long traceNanos, UTF pairHmmEngine, UTF swEngine,
 *                  long skipped (calls not recorded: beyond the limits below)
 *   5 Pdhmm        long thread, long at, long nanos, int batch, int lanes, byte carriedRows
 *                  (0 GATK, 1 GKL_SERIAL), int reads, int haps, reads x 5 byte arrays (as
 *                  PairHmm), haps x 2 byte arrays (bases, PD bases), reads x haps doubles
 * byte array: int length, then the bytes.
 * </pre>
 *
 * The limits below keep a damaged file from asking for unbounded memory; GATK's calls stay far
 * inside them.
 */
final class TraceFormat {
    static final byte[] MAGIC = { 'D', 'P', 'A', 'T', 'R', 'A', 'C', 'E' };
    static final int VERSION = 2;
    /** the oldest version this dpaccel reads */
    static final int FIRST_VERSION = 1;
    static final byte PAIRHMM_INIT = 1;
    static final byte PAIRHMM = 2;
    static final byte SW = 3;
    static final byte END = 4;
    static final byte PDHMM = 5;
    /** bytes in one sequence or quality array */
    static final int MAX_ARRAY = 1 << 24;
    /** reads or haplotypes in one computeLikelihoods call */
    static final int MAX_COUNT = 1 << 20;
    /** results in one computeLikelihoods call */
    static final long MAX_RESULTS = 1L << 28;
    /** bytes of sequence and quality arrays in one record */
    static final long MAX_RECORD_BYTES = 1L << 30;
    /** bytes of a CIGAR or origin string (DataOutput.writeUTF's own limit) */
    static final int MAX_UTF = 65535;

    private TraceFormat() {
    }
}
