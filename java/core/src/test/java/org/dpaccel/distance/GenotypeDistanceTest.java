package org.dpaccel.distance;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.dpaccel.Backend;
import org.dpaccel.DpaContext;
import org.dpaccel.DpaccelException;
import org.dpaccel.Status;
import org.junit.jupiter.api.Test;

/**
 * The Java API on the hand-counted case of test_distance.cc (3 samples x 5 variants: codes per
 * variant s0 s1 s2 = A1 A2 het | het het miss | A2 A2 A1 | miss het het | het A1 A2), the
 * metrics written out from those counts, a tile, and every refused input.
 */
class GenotypeDistanceTest {
    static final int A1 = 0, MISS = 1, HET = 2, A2 = 3;
    static final int[][] CODES = {{A1, A2, HET}, {HET, HET, MISS}, {A2, A2, A1}, {MISS, HET, HET}, {HET, A1, A2}};

    static byte[] rows() {
        byte[] r = new byte[CODES.length];
        for (int v = 0; v < CODES.length; v++) {
            r[v] = (byte) (CODES[v][0] | CODES[v][1] << 2 | CODES[v][2] << 4 | 3 << 6);
        }
        return r;
    }

    static long[] pair(DistanceCounts c, long p) {
        long[] x = new long[DistanceCounts.FIELDS];
        for (int k = 0; k < x.length; k++) {
            x[k] = c.get(p, k);
        }
        return x;
    }

    @Test
    void triangleTileAndMetricsMatchHandCounts() {
        try (DpaContext ctx = DpaContext.create()) {
            GenotypeBatch b = GenotypeBatch.of(3, 5, rows(), null);
            DistanceCounts c = GenotypeDistance.counts(ctx, b);
            assertEquals(3, c.pairs());
            assertEquals(5, c.variantsUsed());
            assertArrayEquals(new long[] {4, 1, 1, 2, 1, 1, 0}, pair(c, DistanceCounts.triangleIndex(3, 0, 1)));
            assertArrayEquals(new long[] {3, 1, 2, 0, 0, 1, 1}, pair(c, DistanceCounts.triangleIndex(3, 0, 2)));
            assertArrayEquals(new long[] {4, 2, 1, 1, 1, 0, 1}, pair(c, DistanceCounts.triangleIndex(3, 1, 2)));
            long p01 = DistanceCounts.triangleIndex(3, 0, 1);
            // (0,1): NSNP 4, IBS0 1, IBS1 1, HETHET 1, HET1_HOM2 1, HET2_HOM1 0; M = 5
            assertEquals(1.0 - 3.0 / 8.0, DistanceMetric.IBS.value(c, p01, 5));
            assertEquals(3.0 / 8.0, DistanceMetric.ONE_MINUS_IBS.value(c, p01, 5));
            assertEquals((5.0 / 4.0) * 3.0, DistanceMetric.ALLELE_CT.value(c, p01, 5));
            assertEquals(0.5 - 5.0 / 4.0, DistanceMetric.KING.value(c, p01, 5));
            assertEquals(2.0, DistanceMetric.DIFFER.value(c, p01, 5));

            DistanceCounts t = GenotypeDistance.counts(ctx, b, new DistanceTile(2, 3, 0, 3), null, 0);
            assertEquals(3, t.pairs());
            assertArrayEquals(new long[] {3, 1, 2, 0, 0, 1, 1}, pair(t, 0));
            assertArrayEquals(new long[] {4, 2, 1, 1, 1, 1, 0}, pair(t, 1));
            assertArrayEquals(new long[] {4, 0, 0, 4, 2, 0, 0}, pair(t, 2));

            DistanceCounts skip = GenotypeDistance.counts(ctx, GenotypeBatch.of(3, 5, rows(), new byte[] {1, 1, 0, 1, 1}));
            assertEquals(1, skip.variantsSkipped());
            assertArrayEquals(new long[] {3, 1, 1, 1, 1, 1, 0}, pair(skip, 0));
        }
    }

    @Test
    void refusedInputsNameTheField() {
        assertThrows(NullPointerException.class, () -> GenotypeBatch.of(3, 5, null, null));
        assertTrue(assertThrows(IllegalArgumentException.class, () -> GenotypeBatch.of(0, 5, rows(), null))
            .getMessage().contains("samples = 0"));
        assertTrue(assertThrows(IllegalArgumentException.class, () -> GenotypeBatch.of(3, 6, rows(), null))
            .getMessage().contains("rows has 5 bytes"));
        assertTrue(assertThrows(IllegalArgumentException.class,
            () -> GenotypeBatch.of(3, 5, rows(), new byte[] {1, 1, 2, 1, 1})).getMessage().contains("use[2] = 2"));
        assertTrue(assertThrows(IllegalArgumentException.class,
            () -> GenotypeBatch.of(3, 5, rows(), new byte[4])).getMessage().contains("use has 4 flags"));
        assertThrows(IllegalArgumentException.class, () -> new DistanceTile(2, 1, 0, 1));
        assertThrows(IllegalArgumentException.class, () -> new DistanceTile(0, 1, -1, 1));
        assertThrows(IllegalArgumentException.class, () -> DistanceMetric.parse("ibd"));
        assertEquals(DistanceMetric.ONE_MINUS_IBS, DistanceMetric.parse("1-ibs"));
        GenotypeBatch b = GenotypeBatch.of(3, 5, rows(), null);
        try (DpaContext ctx = DpaContext.create()) {
            assertTrue(assertThrows(IllegalArgumentException.class,
                () -> GenotypeDistance.counts(ctx, b, new DistanceTile(0, 4, 0, 1), null, 0)).getMessage()
                .contains("beyond the batch's 3 samples"));
            assertThrows(IllegalArgumentException.class, () -> GenotypeDistance.counts(ctx, b, null, null, 7));
            DpaccelException e = assertThrows(DpaccelException.class,
                () -> GenotypeDistance.counts(ctx, b, null, Backend.GPU, 0));
            assertEquals(Status.NO_DEVICE, e.status());
        }
    }
}
