package org.dpaccel.bench;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;

import org.dpaccel.bench.data.PairHmmGenerator;
import org.dpaccel.bench.data.Region;
import org.junit.jupiter.api.Test;

class CorrectnessTest {
    final List<Region> regions = new PairHmmGenerator(5).gatkRegions(3, 10, 20);

    double[][] fake() {
        double[][] ref = new double[regions.size()][];
        for (int i = 0; i < ref.length; i++) {
            ref[i] = new double[regions.get(i).pairs()];
            for (int k = 0; k < ref[i].length; k++) {
                ref[i][k] = -10.0 - k;
            }
        }
        return ref;
    }

    @Test
    void exactResultsPass() {
        double[][] ref = fake();
        Correctness.Check c = Correctness.check(regions, new int[] {0, 1, 2}, ref, i -> ref[i].clone(), 1e-5);
        assertTrue(c.ok());
        assertEquals(0.0, c.maxDiff());
    }

    @Test
    void perturbedResultFailsAndNamesThePair() {
        double[][] ref = fake();
        int nh = regions.get(1).haps().size();
        int k = Math.min(ref[1].length - 1, 2 * nh + (nh - 1)); // read 2, last haplotype
        Correctness.Check c = Correctness.check(regions, new int[] {0, 1, 2}, ref, i -> {
            double[] v = ref[i].clone();
            if (i == 1) {
                v[k] += 3e-5;
            }
            return v;
        }, 1e-5);
        assertFalse(c.ok());
        assertEquals(1, c.failures());
        Correctness.Offender o = c.offenders().get(0);
        assertEquals(1, o.region());
        assertEquals(k / nh, o.read());
        assertEquals(k % nh, o.hap());
        assertEquals(3e-5, o.diff(), 1e-9);
        // the same deviation is within the looser stress tolerance
        assertTrue(Correctness.check(regions, new int[] {1}, new double[][] {ref[1]}, i -> {
            double[] v = ref[i].clone();
            v[k] += 3e-5;
            return v;
        }, Correctness.TOL_STRESS).ok());
    }

    @Test
    void nanFailsAndEqualInfinitiesPass() {
        double[][] ref = fake();
        ref[0][0] = Double.NEGATIVE_INFINITY;
        assertTrue(Correctness.check(regions, new int[] {0}, new double[][] {ref[0]}, i -> ref[0].clone(), 1e-5).ok());
        Correctness.Check c = Correctness.check(regions, new int[] {0}, new double[][] {ref[0]}, i -> {
            double[] v = ref[0].clone();
            v[1] = Double.NaN;
            return v;
        }, 1e-5);
        assertFalse(c.ok());
        assertEquals(Double.POSITIVE_INFINITY, c.maxDiff());
    }

    @Test
    void tolerances() {
        assertEquals(1e-5, Correctness.tolerance(true, true));
        assertEquals(1e-4, Correctness.tolerance(true, false));
        assertEquals(1e-4, Correctness.tolerance(false, true));
    }
}
