package org.dpaccel.papara;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.charset.StandardCharsets;

import org.dpaccel.Backend;
import org.dpaccel.Config;
import org.dpaccel.DpaContext;
import org.dpaccel.DpaccelException;
import org.dpaccel.Status;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * The PaPaRa API on a tree whose profiles and scores were derived by hand from papara_nt's rules
 * (the native suite compares the same code with papara_core 2.5 itself), and every bad input.
 */
class PaparaApiTest {
    static DpaContext ctx;

    @BeforeAll
    static void open() {
        ctx = DpaContext.create(Config.builder().threads(2).build());
    }

    @AfterAll
    static void close() {
        ctx.close();
    }

    static byte[] b(String s) {
        return s.getBytes(StandardCharsets.US_ASCII);
    }

    // (A,B,C) unrooted: node 0 root, tips 1..3 on rows 0..2
    static final int[] PARENT = { -1, 0, 0, 0 };
    static final double[] LENGTH = { 0, 1, 1, 1 };
    static final int[] ROW = { -1, 0, 1, 2 };
    static final byte[][] ROWS = { b("AC-N"), b("AG-n"), b("A-T-") };

    @Test
    void cgapProfilesByHand() {
        PaparaReference ref = PaparaReference.build(ctx, PARENT, LENGTH, ROW, ROWS, GapModel.CGAP);
        assertEquals(3, ref.numEdges());
        assertEquals(3, ref.numSites()); // column 3 is a gap in every row
        // edge order: the root's third child first (tip C = node 3), then A, then B
        assertEquals(3, ref.edgeNode(0, 0));
        assertEquals(1, ref.edgeNode(1, 0));
        // edge (A, root), derived in docs/papara.md / test_papara.cc CgapByHand
        assertEquals(1, ref.site(1, 0));
        assertEquals(6, ref.site(1, 1));
        assertEquals(8 | 16, ref.site(1, 2));
    }

    @Test
    void scoresBestAndTies() {
        PaparaReference ref = PaparaReference.build(ctx, PARENT, LENGTH, ROW, ROWS, GapModel.CGAP);
        // read "AT": A at site 0 (+2), the flagged T site 2 (+2 -3), gap over site 1 -3
        byte[][] reads = { { 1, 8 }, { 2 } };
        PaparaResults r = Papara.score(ctx, ref, reads, PaparaParams.defaults(), true, null);
        assertEquals(2, r.size());
        for (int i = 0; i < 2; i++) {
            int best = Integer.MIN_VALUE, edge = -1, tied = 0;
            for (int e = 0; e < ref.numEdges(); e++) {
                int s = r.score(i, e);
                if (s > best) {
                    best = s;
                    edge = e;
                    tied = 1;
                } else if (s == best) {
                    tied++;
                }
            }
            assertEquals(best, r.bestScore(i));
            assertEquals(edge, r.bestEdge(i));
            assertEquals(tied, r.numTied(i));
        }
        // read "C" matches site 1 (C|G) on every edge: 2, three edges tie, the lowest wins
        assertEquals(2, r.bestScore(1));
        assertEquals(0, r.bestEdge(1));
        assertEquals(3, r.numTied(1));
        assertEquals(27, r.cells()); // 3 edges x 3 sites x 3 read bases
    }

    @Test
    void badInput() {
        PaparaReference ref = PaparaReference.build(ctx, PARENT, LENGTH, ROW, ROWS, GapModel.PROB);
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
            () -> Papara.score(ctx, ref, new byte[][] { { 1, 0 } }, PaparaParams.defaults(), false, null));
        assertTrue(e.getMessage().contains("read 0 base 1"), e.getMessage());
        assertThrows(IllegalArgumentException.class,
            () -> Papara.score(ctx, ref, new byte[][] { {} }, PaparaParams.defaults(), false, null));
        assertThrows(IllegalArgumentException.class, () -> new PaparaParams(-3, -1, 3, -3));
        assertThrows(IllegalArgumentException.class, () -> PaparaParams.parse("-3:-1:2"));
        assertEquals(new PaparaParams(-4, -1, 2, -3), PaparaParams.parse("-4:-1:2:-3"));
        DpaccelException x = assertThrows(DpaccelException.class,
            () -> PaparaReference.build(ctx, new int[] { -1, 0, 0, 0, 0 }, new double[5], new int[] { -1, 0, 1, 2, 0 },
                ROWS, GapModel.PROB));
        assertTrue(x.getMessage().contains("binary"), x.getMessage());
        if (ctx.deviceCount() == 0) {
            DpaccelException g = assertThrows(DpaccelException.class,
                () -> Papara.score(ctx, ref, new byte[][] { { 1 } }, PaparaParams.defaults(), false, Backend.GPU));
            assertEquals(Status.NO_DEVICE, g.status());
        } else {
            PaparaResults g = Papara.score(ctx, ref, new byte[][] { { 1, 8 } }, PaparaParams.defaults(), true,
                Backend.GPU);
            PaparaResults c = Papara.score(ctx, ref, new byte[][] { { 1, 8 } }, PaparaParams.defaults(), true,
                Backend.CPU);
            for (int edge = 0; edge < ref.numEdges(); edge++) {
                assertEquals(c.score(0, edge), g.score(0, edge));
            }
        }
        assertArrayEquals(new long[] { 0 }, new long[] { Papara.score(ctx, ref, new byte[0][], PaparaParams.defaults(),
            false, null).cells() });
    }
}
