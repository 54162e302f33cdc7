package org.dpaccel.gatk.trace;

/**
 * One record of a trace. {@code thread} is the caller's {@code Thread.getId()}, {@code at} the
 * call's start in nanoseconds after the trace was opened, {@code nanos} the time the call took as
 * recorded (the trace's own writing excluded).
 */
public sealed interface TraceRecord {
    /**
     * {@code PairHMMNativeBinding.initialize}: the implementation's class (GKL's name for it), the
     * thread count and precision GATK asked for.
     *
     * @param thread caller thread id
     * @param at start, nanoseconds after the trace opened
     * @param gklClass the GKL class GATK loaded (e.g. com.intel.gkl.pairhmm.IntelPairHmmOMP)
     * @param maxThreads PairHMMNativeArguments.maxNumberOfThreads
     * @param doublePrecision PairHMMNativeArguments.useDoublePrecision
     */
    record PairHmmInit(long thread, long at, String gklClass, int maxThreads, boolean doublePrecision)
        implements TraceRecord {
    }

    /**
     * {@code PairHMMNativeBinding.computeLikelihoods}: every read against every haplotype, results
     * read-major ({@code out[r * haps + h]}).
     *
     * @param thread caller thread id
     * @param at start, nanoseconds after the trace opened
     * @param nanos time in the call
     * @param reads per read: bases, base qualities, insertion GOP, deletion GOP, GCP
     * @param haps haplotype bases
     * @param out the log10 likelihoods the call returned
     */
    record PairHmm(long thread, long at, long nanos, byte[][][] reads, byte[][] haps, double[] out)
        implements TraceRecord {
    }

    /**
     * {@code SWAlignerNativeBinding.align}.
     *
     * @param thread caller thread id
     * @param at start, nanoseconds after the trace opened
     * @param nanos time in the call
     * @param ref reference bases
     * @param alt alternate bases
     * @param scores match, mismatch, gap open, gap extend (SWParameters)
     * @param overhang the SWOverhangStrategy's ordinal (SOFTCLIP, INDEL, LEADING_INDEL, IGNORE)
     * @param cigar the result's CIGAR
     * @param offset the result's alignment offset
     */
    record Sw(long thread, long at, long nanos, byte[] ref, byte[] alt, int[] scores, int overhang, String cigar,
        int offset) implements TraceRecord {
    }

    /**
     * GKL 0.9.1's {@code IntelPDHMM.computeLikelihoods} (GATK 4.7's PDHMM path): every read against
     * every haplotype, results read-major, with the row semantics the drop-in used
     * ({@code org.dpaccel.pdhmm.PdhmmGklBatches}: batches of {@code batch} pairs, whole groups of
     * {@code lanes} pairs with GKL's vector rows, the rest {@code carriedRows}), so a replay asks
     * the library for the same values.
     *
     * @param thread caller thread id
     * @param at start, nanoseconds after the trace opened
     * @param nanos time in the call
     * @param batch pairs per GKL batch
     * @param lanes GKL's vector width in pairs, 0 for none
     * @param carriedRows the other pairs' rows, {@code Pdhmm.Rows} by name: "GATK" or "GKL_SERIAL"
     * @param reads per read: bases, base qualities, insertion GOP, deletion GOP, GCP
     * @param haps per haplotype: bases, PD bases
     * @param out the log10 likelihoods the call returned
     */
    record Pdhmm(long thread, long at, long nanos, int batch, int lanes, String carriedRows, byte[][][] reads,
        byte[][][] haps, double[] out) implements TraceRecord {
        /** The carried rows as the trace stores them (their index). */
        static final String[] CARRIED_ROWS = { "GATK", "GKL_SERIAL" };
    }

    /**
     * The last record, written when the process exits: the process's wall time so far, the time the
     * trace itself cost the callers, and which engines served the calls.
     *
     * @param at when, nanoseconds after the trace opened
     * @param processNanos wall time since the process started
     * @param traceNanos time spent writing records
     * @param pairHmmEngine "dpaccel", "gkl" or "none"
     * @param swEngine "dpaccel", "gkl" or "none"
     * @param skipped calls not recorded because they exceed the format's limits
     */
    record End(long at, long processNanos, long traceNanos, String pairHmmEngine, String swEngine, long skipped)
        implements TraceRecord {
    }
}
