package org.dpaccel.bench.workload;

import java.util.SplittableRandom;

import org.dpaccel.Backend;
import org.dpaccel.DpaContext;
import org.dpaccel.distance.DistanceCounts;
import org.dpaccel.distance.GenotypeBatch;
import org.dpaccel.distance.GenotypeDistance;

/**
 * {@code dpaccel bench distance}: all-pairs genotype counts (docs/distance.md) of {@code size}
 * samples over a fixed number of variants. Genotypes: per variant an allele frequency (30% rare,
 * 0.001-0.02, else uniform), Hardy-Weinberg calls, per-sample missingness 0.5-5%, 2% of the
 * variants unused (as non-autosomal ones are). Work = pair-SNPs, N(N-1)/2 x variants used.
 */
public final class DistanceBench implements WorkloadBench<GenotypeBatch, DistanceCounts> {
    private final int variants;

    public DistanceBench(int variants) {
        if (variants < 1) {
            throw new IllegalArgumentException("--variants " + variants + ": must be at least 1");
        }
        this.variants = variants;
    }

    @Override
    public String name() {
        return "distance";
    }

    @Override
    public String workUnit() {
        return "pair-SNPs";
    }

    @Override
    public String rateUnit() {
        return "G_pairSNP/s";
    }

    @Override
    public String itemUnit() {
        return "pairs";
    }

    @Override
    public GenotypeBatch generate(long seed, int samples) {
        SplittableRandom rng = new SplittableRandom(seed);
        int rb = GenotypeBatch.rowBytes(samples);
        byte[] rows = new byte[Math.multiplyExact(rb, variants)];
        byte[] use = new byte[variants];
        double[] miss = new double[samples];
        for (int s = 0; s < samples; s++) {
            miss[s] = 0.005 + 0.045 * rng.nextDouble();
        }
        for (int v = 0; v < variants; v++) {
            use[v] = (byte) (rng.nextInt(50) == 0 ? 0 : 1);
            double p = rng.nextInt(10) < 3 ? 0.001 + 0.019 * rng.nextDouble() : rng.nextDouble();
            for (int s = 0; s < samples; s++) {
                int code;
                if (rng.nextDouble() < miss[s]) {
                    code = 1; // missing
                } else {
                    int a1 = (rng.nextDouble() < p ? 1 : 0) + (rng.nextDouble() < p ? 1 : 0);
                    code = a1 == 2 ? 0 : a1 == 1 ? 2 : 3; // .bed: 00 hom A1, 10 het, 11 hom A2
                }
                rows[v * rb + s / 4] |= (byte) (code << (2 * (s % 4)));
            }
        }
        return GenotypeBatch.of(samples, variants, rows, use);
    }

    @Override
    public String describe(GenotypeBatch in) {
        return in.samples() + " samples x " + in.variants() + " variants (" + in.variantsUsed() + " used), the triangle";
    }

    @Override
    public DistanceCounts run(DpaContext ctx, Backend backend, GenotypeBatch in) {
        return GenotypeDistance.counts(ctx, in, null, backend, 0);
    }

    @Override
    public long work(GenotypeBatch in, DistanceCounts scalar) {
        return items(in) * in.variantsUsed();
    }

    @Override
    public long items(GenotypeBatch in) {
        return (long) in.samples() * (in.samples() - 1) / 2;
    }

    @Override
    public String firstDifference(DistanceCounts want, DistanceCounts got) {
        if (want.pairs() != got.pairs()) {
            return got.pairs() + " pairs, scalar " + want.pairs();
        }
        String first = null;
        long bad = 0;
        for (long p = 0; p < want.pairs(); p++) {
            for (int f = 0; f < DistanceCounts.FIELDS; f++) {
                if (want.get(p, f) != got.get(p, f)) {
                    if (first == null) {
                        first = "pair " + p + " count " + f + ": " + got.get(p, f) + ", scalar " + want.get(p, f);
                    }
                    bad++;
                    break;
                }
            }
        }
        return first == null ? null : first + "; " + bad + " pairs differ";
    }
}
