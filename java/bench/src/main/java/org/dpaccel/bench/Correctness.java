package org.dpaccel.bench;

import java.util.ArrayList;
import java.util.List;
import java.util.function.IntFunction;

import org.dpaccel.bench.data.Region;

/**
 * Compares a backend's log10 likelihoods with the scalar double-precision reference on a sample
 * of regions. A pair fails when |value - reference| exceeds the tolerance, or when exactly one
 * of them is not finite (NaN fails against anything).
 */
public final class Correctness {
    /** dpaccel on GATK-shaped data (ARCHITECTURE.md: GKL's own test tolerance). */
    public static final double TOL_GATK = 1e-5;
    /** Incumbents, and every backend on stress data. */
    public static final double TOL_STRESS = 1e-4;
    /** Offending pairs kept per backend for the report. */
    public static final int MAX_LISTED = 20;

    private Correctness() {
    }

    public record Offender(int region, int read, int hap, double value, double reference) {
        public double diff() {
            return Math.abs(value - reference);
        }
    }

    /**
     * @param maxDiff largest |diff| over finite pairs (Infinity when a non-finite value disagrees)
     * @param failures number of pairs over the tolerance; {@code offenders} lists the first ones
     */
    public record Check(double tolerance, long pairs, double maxDiff, long failures, List<Offender> offenders) {
        public boolean ok() {
            return failures == 0;
        }
    }

    public static double tolerance(boolean dpaccel, boolean gatkShaped) {
        return dpaccel && gatkShaped ? TOL_GATK : TOL_STRESS;
    }

    static double diff(double v, double ref) {
        if (Double.isNaN(v) || Double.isNaN(ref)) {
            return Double.POSITIVE_INFINITY;
        }
        if (Double.isInfinite(v) || Double.isInfinite(ref)) {
            return v == ref ? 0 : Double.POSITIVE_INFINITY;
        }
        return Math.abs(v - ref);
    }

    /**
     * Checks {@code sample} (region indices) of {@code regions}: {@code reference[i]} and
     * {@code results.apply(sample[i])} are read-major likelihood arrays of region sample[i].
     */
    public static Check check(List<Region> regions, int[] sample, double[][] reference, IntFunction<double[]> results,
        double tol) {
        long pairs = 0, failures = 0;
        double max = 0;
        List<Offender> off = new ArrayList<>();
        for (int i = 0; i < sample.length; i++) {
            Region g = regions.get(sample[i]);
            double[] ref = reference[i], got = results.apply(sample[i]);
            int nh = g.haps().size();
            for (int k = 0; k < ref.length; k++) {
                double d = diff(got[k], ref[k]);
                pairs++;
                max = Math.max(max, d);
                if (!(d <= tol)) {
                    failures++;
                    if (off.size() < MAX_LISTED) {
                        off.add(new Offender(sample[i], k / nh, k % nh, got[k], ref[k]));
                    }
                }
            }
        }
        return new Check(tol, pairs, max, failures, off);
    }
}
