package org.dpaccel.bench.workload;

import java.util.SplittableRandom;

import org.dpaccel.Backend;
import org.dpaccel.DpaContext;
import org.dpaccel.pdhmm.Pdhmm;
import org.dpaccel.pdhmm.PdhmmBatch;

/**
 * {@code dpaccel bench pdhmm}: GATK-shaped partially-determined PairHMM pairs (docs/pdhmm.md).
 * Active regions as HaplotypeCaller's {@code --use-pdhmm} sees them: per region a 300-400 bp
 * reference, 2-8 haplotypes that share its undetermined sites (SNP sites with the reference
 * letter and one or two alternatives in the PD bits, about one per 60 bp; deletions of 1-8 bases,
 * DEL_START before the run and DEL_END on its last base, about one per 200 bp) and differ at a
 * few determined SNPs, and 10-40 reads of 100-150 bp drawn from them, taking either allele at
 * the undetermined sites, with 1% of bases redrawn at random and 0.2% N; base qualities 20-40 (one in 20:
 * 2-19), insertion and deletion penalties 45 (GATK's default), gap continuation 10. Every read
 * is paired with every haplotype of its region, as GATK does, until {@code size} pairs. Work =
 * read x haplotype cells. The kernels are documented bit-identical on every backend, so the
 * comparison is on the bits of each double.
 */
public final class PdhmmBench implements WorkloadBench<PdhmmBench.Input, double[]> {
    /** The batch, its parameters and its shape. */
    public record Input(PdhmmBatch batch, Pdhmm.Rows rows, int regions, long cells) {
    }

    private static final byte[] ACGT = { 'A', 'C', 'G', 'T' };
    private static final byte[] BIT = { Pdhmm.A, Pdhmm.C, Pdhmm.G, Pdhmm.T };

    private final Pdhmm.Rows rows;

    public PdhmmBench(Pdhmm.Rows rows) {
        this.rows = java.util.Objects.requireNonNull(rows, "rows");
    }

    @Override
    public String name() {
        return "pdhmm";
    }

    @Override
    public String workUnit() {
        return "cells";
    }

    @Override
    public String rateUnit() {
        return "GCUPS";
    }

    @Override
    public String itemUnit() {
        return "pairs";
    }

    private static int base(byte b) {
        return switch (b) {
            case 'A' -> 0;
            case 'C' -> 1;
            case 'G' -> 2;
            default -> 3;
        };
    }

    /** One region's haplotypes: bases and PD bytes. */
    private static byte[][][] haplotypes(SplittableRandom rng) {
        int len = 300 + rng.nextInt(101);
        byte[] ref = new byte[len];
        for (int j = 0; j < len; j++) {
            ref[j] = ACGT[rng.nextInt(4)];
        }
        byte[] pd = new byte[len];
        for (int j = 0; j < len; j++) {
            int roll = rng.nextInt(1000);
            if (roll < 16) { // an undetermined SNP: the reference letter and 1-2 alternatives
                int b = base(ref[j]);
                int bits = BIT[b] | BIT[(b + 1 + rng.nextInt(3)) & 3];
                if (rng.nextInt(3) == 0) {
                    bits |= BIT[(b + 1 + rng.nextInt(3)) & 3];
                }
                pd[j] = (byte) (Pdhmm.SNP | bits);
            } else if (roll < 21 && j + 2 < len) { // an undetermined deletion of the next 1-8 bases
                int end = Math.min(len - 1, j + 1 + rng.nextInt(8));
                pd[j] |= Pdhmm.DEL_START;
                pd[end] |= Pdhmm.DEL_END;
                j = end;
            }
        }
        int n = 2 + rng.nextInt(7);
        byte[][][] haps = new byte[n][][];
        for (int h = 0; h < n; h++) {
            byte[] bases = ref.clone();
            for (int d = 0; d < h % 4; d++) { // determined SNPs tell the haplotypes apart
                int j = rng.nextInt(len);
                if (pd[j] == 0) {
                    bases[j] = ACGT[(base(bases[j]) + 1 + rng.nextInt(3)) & 3];
                }
            }
            haps[h] = new byte[][] { bases, pd };
        }
        return haps;
    }

    /**
     * A read of about {@code len} bases from a haplotype: at an undetermined SNP it carries one of
     * the site's letters, across an undetermined deletion it takes either branch (the alleles
     * the PDHMM has to choose between); 1% of bases redrawn at random, 0.2% N.
     *
     * @return bases, base qualities, insertion, deletion and gap-continuation penalties
     */
    private static byte[][] read(SplittableRandom rng, byte[][] hap, int len) {
        byte[] src = hap[0], pd = hap[1];
        len = Math.min(len, src.length);
        int j = rng.nextInt(src.length - len + 1);
        byte[] read = new byte[len];
        int n = 0;
        for (; n < len && j < src.length; j++) {
            byte b = src[j];
            if ((pd[j] & Pdhmm.SNP) != 0 && rng.nextBoolean()) {
                int pick = rng.nextInt(4);
                while ((pd[j] & BIT[pick]) == 0) {
                    pick = (pick + 1) & 3;
                }
                b = ACGT[pick];
            }
            int roll = rng.nextInt(1000);
            read[n++] = roll < 10 ? ACGT[rng.nextInt(4)] : roll < 12 ? (byte) 'N' : b;
            if ((pd[j] & Pdhmm.DEL_START) != 0 && rng.nextBoolean()) {
                while (j + 1 < src.length && (pd[j + 1] & Pdhmm.DEL_END) == 0) {
                    j++;
                }
                j++; // the deleted run ends on the DEL_END base
            }
        }
        read = java.util.Arrays.copyOf(read, n);
        byte[] q = new byte[n], ins = new byte[n], del = new byte[n], gcp = new byte[n];
        for (int i = 0; i < n; i++) {
            q[i] = (byte) (rng.nextInt(20) == 0 ? 2 + rng.nextInt(18) : 20 + rng.nextInt(21));
            ins[i] = 45;
            del[i] = 45;
            gcp[i] = 10;
        }
        return new byte[][] { read, q, ins, del, gcp };
    }

    @Override
    public Input generate(long seed, int size) {
        SplittableRandom rng = new SplittableRandom(seed);
        PdhmmBatch.Builder b = PdhmmBatch.builder();
        int made = 0, regions = 0;
        long cells = 0;
        while (made < size) {
            regions++;
            byte[][][] haps = haplotypes(rng);
            int reads = 10 + rng.nextInt(31);
            for (int r = 0; r < reads && made < size; r++) {
                byte[][] read = read(rng, haps[rng.nextInt(haps.length)], 100 + rng.nextInt(51));
                int len = read[0].length;
                for (int h = 0; h < haps.length && made < size; h++) {
                    b.add(haps[h][0], haps[h][1], read[0], read[1], read[2], read[3], read[4]);
                    cells += (long) len * haps[h][0].length;
                    made++;
                }
            }
        }
        return new Input(b.build(), rows, regions, cells);
    }

    @Override
    public String describe(Input in) {
        return in.batch().size() + " pairs in " + in.regions()
            + " regions (reads of up to 100-150 bp x haplotypes of 300-400 bp), "
            + "rows=" + in.rows().name().toLowerCase(java.util.Locale.ROOT);
    }

    @Override
    public double[] run(DpaContext ctx, Backend backend, Input in) {
        return Pdhmm.compute(ctx, in.batch(), in.rows(), backend, null);
    }

    @Override
    public long work(Input in, double[] scalar) {
        return in.cells();
    }

    @Override
    public long items(Input in) {
        return in.batch().size();
    }

    @Override
    public String firstDifference(double[] want, double[] got) {
        if (want.length != got.length) {
            return got.length + " results, scalar " + want.length;
        }
        String first = null;
        long bad = 0;
        for (int i = 0; i < want.length; i++) {
            if (Double.doubleToLongBits(want[i]) != Double.doubleToLongBits(got[i])) {
                if (first == null) {
                    first = "pair " + i + ": " + got[i] + ", scalar " + want[i] + " (bit-identical expected)";
                }
                bad++;
            }
        }
        return first == null ? null : first + "; " + bad + " pairs differ";
    }
}
