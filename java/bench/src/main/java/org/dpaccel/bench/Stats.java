package org.dpaccel.bench;

import java.util.Arrays;

/** Medians and percentiles. */
public final class Stats {
    private Stats() {
    }

    public static double median(double[] v) {
        return percentile(v, 50);
    }

    /** Nearest-rank percentile (p in 0..100) of a copy of {@code v}; NaN when empty. */
    public static double percentile(double[] v, double p) {
        if (v.length == 0) {
            return Double.NaN;
        }
        double[] s = v.clone();
        Arrays.sort(s);
        if (p == 50 && s.length % 2 == 0) {
            return (s[s.length / 2 - 1] + s[s.length / 2]) / 2;
        }
        int rank = (int) Math.ceil(p / 100.0 * s.length);
        return s[Math.max(0, Math.min(s.length - 1, rank - 1))];
    }
}
