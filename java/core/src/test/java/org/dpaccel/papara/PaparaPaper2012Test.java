package org.dpaccel.papara;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.dpaccel.Config;
import org.dpaccel.DpaContext;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * The 2012 paper's score model on costs derived by hand from align_pvec_score's recurrence
 * (docs/papara.md; the CLI's oracle test compares with papara_nt's own kernel), the lowest-wins
 * best, and its input rules.
 */
class PaparaPaper2012Test {
    static DpaContext ctx;

    @BeforeAll
    static void open() {
        ctx = DpaContext.create(Config.builder().threads(2).build());
    }

    @AfterAll
    static void close() {
        ctx.close();
    }

    static byte[] m(String s) {
        return PaparaTracebackTest.m(s);
    }

    @Test
    void costsByHand() {
        byte[] acgt = m("ACGT");
        byte[] flagged = m("ACGT");
        flagged[1] |= 16; // C flagged: a match there costs CG = 3, a gap over it is free
        // profile 3 repeats profile 1, for the tie rule
        PaparaReference ref = PaparaReference.ofSites(new byte[][] {acgt, flagged, m("TTTT"), flagged.clone()});
        byte[][] reads = {m("CG"), m("AT"), m("AG")};
        PaparaResults r = Papara.score(ctx, ref, reads, PaparaParams.defaults(), true, null, ScoreModel.PAPER2012);
        // CG on ACGT: C@1 G@2 = 0. On the flagged profile the C match costs CG = 3 (C@1 G@2 = 3; an
        // insertion or mismatch costs 3 as well). TTTT: two mismatches = 6.
        assertEquals(0, r.score(0, 0));
        assertEquals(3, r.score(0, 1));
        assertEquals(6, r.score(0, 2));
        // AT on ACGT (band 2): A@0 T@1 = 3; A@2 T@3 = 3; A@0, gap over 1-2 (4 + 1), T@3 = 5 -> 3
        assertEquals(3, r.score(1, 0));
        // AT on the flagged profile: A@0, a gap opened on the flagged C (free) and extended over G
        // (1), T@3 = 1
        assertEquals(1, r.score(1, 1));
        assertEquals(3, r.score(1, 2));
        // AG on the flagged profile: A@0, the gap over the flagged C free, G@2 = 0
        assertEquals(0, r.score(2, 1));
        // AG on ACGT: A@0, gap over C (4), G@2 = 4; A@0 G@1 = 3; A@1 G@2 = 3 -> 3
        assertEquals(3, r.score(2, 0));
        assertEquals(6, r.score(2, 2));
        // lowest wins, ties to the lowest edge
        assertEquals(0, r.bestScore(0));
        assertEquals(0, r.bestEdge(0));
        assertEquals(1, r.numTied(0));
        assertEquals(1, r.bestScore(1));
        assertEquals(1, r.bestEdge(1));
        assertEquals(2, r.numTied(1));
        assertEquals(0, r.bestScore(2));
        assertEquals(1, r.bestEdge(2));
        assertEquals(2, r.numTied(2));
    }

    @Test
    void readsMustBeShorterThanTheProfile() {
        PaparaReference ref = PaparaReference.ofSites(new byte[][] {m("ACGT")});
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> Papara.score(ctx, ref,
            new byte[][] {m("AC"), m("ACGT")}, PaparaParams.defaults(), false, null, ScoreModel.PAPER2012));
        assertTrue(e.getMessage().contains("read 1 has 4 bases, not fewer than the 4 sites"), e.getMessage());
        assertEquals(ScoreModel.PAPER2012, ScoreModel.parse("paper2012"));
        assertThrows(IllegalArgumentException.class, () -> ScoreModel.parse("paper"));
    }
}
