package org.dpaccel.pdhmm;

import java.util.Objects;

import org.dpaccel.DpaContext;

/**
 * Every read against every haplotype with the row semantics of GKL 0.9.1's
 * {@code IntelPDHMM.computeLikelihoods} (docs/pdhmm.md, "GKL 0.9.1 pair by pair"): the pairs
 * read-major, in batches of {@code batch} pairs (GKL's memory bound); in each batch the whole
 * groups of {@code lanes} pairs take GKL's vector rows ({@link Pdhmm.Rows#GKL}) and the remainder
 * the {@code carried} rows; {@code lanes} 0 carries every pair. The GATK drop-in computes GATK 4.7's
 * PDHMM calls with it, and the trace replay repeats them with the same arguments.
 */
public final class PdhmmGklBatches {
    private PdhmmGklBatches() {
    }

    /**
     * Fills {@code out[read * haps + hap]}.
     *
     * @param ctx the context to run on
     * @param reads per read: bases, base qualities, insertion GOP, deletion GOP, GCP
     * @param haps per haplotype: bases and PD bases
     * @param batch pairs per GKL batch (>= 1)
     * @param lanes GKL's vector width in pairs (8 AVX-512, 4 AVX2), 0 for its serial code alone
     * @param carried the rows of the pairs outside whole vector groups
     * @param out reads x haplotypes results
     * @return the cells computed (haplotype x read lengths)
     * @throws org.dpaccel.DpaccelException if a pair is invalid or the native library fails
     */
    public static long compute(DpaContext ctx, byte[][][] reads, byte[][][] haps, int batch, int lanes,
        Pdhmm.Rows carried, double[] out) {
        Objects.requireNonNull(out, "out");
        if (batch < 1 || lanes < 0) {
            throw new IllegalArgumentException("batch = " + batch + " and lanes = " + lanes
                + ": batch must be >= 1, lanes >= 0");
        }
        int nh = haps.length, total = out.length;
        if ((long) reads.length * nh != total) {
            throw new IllegalArgumentException(reads.length + " reads x " + nh + " haplotypes != " + total
                + " results");
        }
        long cells = 0;
        for (int start = 0; start < total; start += batch) {
            int end = Math.min(total, start + batch);
            int split = lanes == 0 ? start : end - (end - start) % lanes;
            for (int part = 0; part < 2; part++) {
                int from = part == 0 ? start : split, to = part == 0 ? split : end;
                if (from == to) {
                    continue;
                }
                PdhmmBatch.Builder b = PdhmmBatch.builder();
                for (int k = from; k < to; k++) {
                    byte[][] r = reads[k / nh], h = haps[k % nh];
                    b.add(h[0], h[1], r[0], r[1], r[2], r[3], r[4]);
                    cells += (long) h[0].length * r[0].length;
                }
                double[] v = Pdhmm.compute(ctx, b.build(), part == 0 ? Pdhmm.Rows.GKL : carried, null, null);
                System.arraycopy(v, 0, out, from, v.length);
            }
        }
        return cells;
    }
}
