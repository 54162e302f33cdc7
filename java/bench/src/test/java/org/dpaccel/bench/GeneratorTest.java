package org.dpaccel.bench;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Arrays;
import java.util.List;

import org.dpaccel.bench.data.Dataset;
import org.dpaccel.bench.data.PairHmmGenerator;
import org.dpaccel.bench.data.Read;
import org.dpaccel.bench.data.Region;
import org.junit.jupiter.api.Test;

class GeneratorTest {
    static void assertSame(List<Region> a, List<Region> b) {
        assertEquals(a.size(), b.size());
        for (int i = 0; i < a.size(); i++) {
            Region x = a.get(i), y = b.get(i);
            assertEquals(x.reads().size(), y.reads().size(), "region " + i);
            assertEquals(x.haps().size(), y.haps().size(), "region " + i);
            for (int r = 0; r < x.reads().size(); r++) {
                assertTrue(x.reads().get(r).sameAs(y.reads().get(r)), "region " + i + " read " + r);
            }
            for (int h = 0; h < x.haps().size(); h++) {
                assertArrayEquals(x.haps().get(h), y.haps().get(h), "region " + i + " hap " + h);
            }
        }
    }

    @Test
    void sameSeedSameData() {
        assertSame(new PairHmmGenerator(7).gatkRegions(5, 10, 100), new PairHmmGenerator(7).gatkRegions(5, 10, 100));
        assertSame(new PairHmmGenerator(7).edgeCases().regions(), new PairHmmGenerator(7).edgeCases().regions());
        assertSame(new PairHmmGenerator(7).paperGrid(1).regions(), new PairHmmGenerator(7).paperGrid(1).regions());
    }

    @Test
    void regionDependsOnlyOnSeedAndIndex() {
        List<Region> five = new PairHmmGenerator(3).gatkRegions(5, 10, 100);
        assertSame(five.subList(0, 2), new PairHmmGenerator(3).gatkRegions(2, 10, 100));
    }

    @Test
    void otherSeedOtherData() {
        byte[] a = new PairHmmGenerator(1).gatkRegions(1, 10, 100).get(0).haps().get(0);
        byte[] b = new PairHmmGenerator(2).gatkRegions(1, 10, 100).get(0).haps().get(0);
        assertFalse(Arrays.equals(a, b));
    }

    @Test
    void gatkShapes() {
        Dataset d = new PairHmmGenerator(11).gatkDataset(30);
        for (Region g : d.regions()) {
            assertTrue(g.haps().size() >= 1 && g.haps().size() <= 8, "haplotypes " + g.haps().size());
            assertTrue(g.reads().size() >= 10 && g.reads().size() <= 300, "reads " + g.reads().size());
            for (byte[] h : g.haps()) {
                assertTrue(h.length >= 200 && h.length <= 560, "haplotype length " + h.length);
            }
            for (Read r : g.reads()) {
                assertTrue(r.length() >= 60 && r.length() <= 150, "read length " + r.length());
                for (int k = 0; k < r.length(); k++) {
                    assertTrue(r.quals()[k] >= 6 && r.quals()[k] <= 41, "base qual " + r.quals()[k]);
                    assertTrue(r.ins()[k] >= 40 && r.ins()[k] <= 50);
                    assertTrue(r.del()[k] >= 40 && r.del()[k] <= 50);
                    assertEquals(10, r.gcp()[k]);
                }
            }
        }
    }

    @Test
    void paperGridHasEveryShape() {
        Dataset d = new PairHmmGenerator(1).paperGrid(1);
        assertEquals(6 + 4 * 8, d.regions().size());
        Region last = d.regions().get(d.regions().size() - 1);
        assertEquals(128, last.reads().get(0).length());
        assertEquals(256, last.haps().get(0).length);
    }
}
