package org.dpaccel.sw.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;

import org.broadinstitute.gatk.nativebindings.smithwaterman.SWNativeAlignerResult;
import org.broadinstitute.gatk.nativebindings.smithwaterman.SWOverhangStrategy;
import org.broadinstitute.gatk.nativebindings.smithwaterman.SWParameters;
import org.broadinstitute.hellbender.utils.smithwaterman.SmithWatermanAlignment;
import org.broadinstitute.hellbender.utils.smithwaterman.SmithWatermanJavaAligner;
import org.dpaccel.Config;
import org.dpaccel.DpaContext;
import org.dpaccel.gatk.DpaSmithWaterman;
import org.dpaccel.sw.SmithWaterman;
import org.dpaccel.sw.SwBatch;
import org.dpaccel.sw.SwOverhang;
import org.dpaccel.sw.SwParameters;
import org.dpaccel.sw.SwResults;
import org.junit.jupiter.api.Test;

import com.intel.gkl.smithwaterman.IntelSmithWaterman;

/**
 * Single-thread speed of one-pair-per-call Smith-Waterman on HaplotypeCaller shapes, as GATK
 * calls it: dpaccel's {@code DpaSmithWaterman} (the kernel the context picks; its ISA is
 * printed), GKL 0.8.11's {@code IntelSmithWaterman} (with GATK's exact-substring shortcut in
 * front, as SWNativeAlignerWrapper does) and GATK's Java aligner. Prints the timings ("SWSPEED"
 * lines); asserts only correctness (dpaccel equals GATK on every timed pair). Seeded
 * (-Ddpaccel.sw.seed), a few seconds.
 */
class SwSpeedTest {
    static final long SEED = Long.getLong("dpaccel.sw.seed", 20261122L);

    record Shape(String name, List<byte[][]> pairs, SWParameters params, SWOverhangStrategy strategy) {
    }

    static String show(SmithWatermanAlignment a) {
        return a.getCigar().toString() + " @ " + a.getAlignmentOffset();
    }

    static String gkl(IntelSmithWaterman g, byte[][] p, SWParameters sp, SWOverhangStrategy s) {
        if (s == SWOverhangStrategy.SOFTCLIP || s == SWOverhangStrategy.IGNORE) {
            int idx = new String(p[0]).lastIndexOf(new String(p[1]));
            if (idx >= 0) {
                return p[1].length + "M @ " + idx;
            }
        }
        SWNativeAlignerResult r = g.align(p[0], p[1], sp, s);
        return r.cigar + " @ " + r.alignment_offset;
    }

    interface Aligner {
        String align(byte[][] p);
    }

    /** Best of reps passes over all pairs, in microseconds per pair. */
    static double time(List<byte[][]> pairs, int reps, Aligner a) {
        double best = Double.MAX_VALUE;
        for (int r = 0; r < reps; r++) {
            long t0 = System.nanoTime();
            for (byte[][] p : pairs) {
                a.align(p);
            }
            best = Math.min(best, (System.nanoTime() - t0) / 1e3 / pairs.size());
        }
        return best;
    }

    @Test
    void speedOnHaplotypeCallerShapes() {
        SwGenerator g = new SwGenerator(SEED);
        List<byte[][]> hap = new ArrayList<>();
        for (int i = 0; i < 120; i++) {
            String ref = g.genome(g.between(300, 1000));
            String h = g.mutate(ref, g.between(1, 6), g.chance(0.2) ? 60 : 12);
            hap.add(new byte[][] { (SwGenerator.PAD + ref + SwGenerator.PAD).getBytes(),
                (SwGenerator.PAD + h + SwGenerator.PAD).getBytes() });
        }
        List<byte[][]> reads = new ArrayList<>();
        for (int i = 0; i < 1500; i++) {
            String h = g.genome(300);
            int start = g.between(0, 150);
            reads.add(new byte[][] { h.getBytes(), g.sequencingErrors(h.substring(start, start + 150), 0.02).getBytes() });
        }
        List<Shape> shapes = List.of(
            new Shape("haplotype-to-reference 320-1020 bp, INDEL", hap,
                new SWParameters(200, -150, -260, -11), SWOverhangStrategy.INDEL),
            new Shape("read 150 bp to haplotype 300 bp, SOFTCLIP", reads,
                new SWParameters(10, -15, -30, -5), SWOverhangStrategy.SOFTCLIP));

        IntelSmithWaterman intel = new IntelSmithWaterman();
        boolean haveGkl = intel.load(null);
        DpaSmithWaterman dpa = new DpaSmithWaterman();
        assertTrue(dpa.load(null));
        SmithWatermanJavaAligner java = SmithWatermanJavaAligner.getInstance();
        try (DpaContext one = DpaContext.create(Config.builder().threads(1).build())) {
            for (Shape s : shapes) {
                SWParameters sp = s.params();
                // correctness first (also the JIT warm-up): dpaccel == GATK on every pair
                List<String> expected = new ArrayList<>();
                int differ = 0;
                for (byte[][] p : s.pairs()) {
                    String want = show(java.align(p[0], p[1], sp, s.strategy()));
                    expected.add(want);
                    SWNativeAlignerResult r = dpa.align(p[0], p[1], sp, s.strategy());
                    if (!want.equals(r.cigar + " @ " + r.alignment_offset)) {
                        differ++;
                    }
                }
                assertEquals(0, differ, s.name() + ": dpaccel != GATK (seed " + SEED + ")");
                SwBatch.Builder b = SwBatch.builder();
                s.pairs().forEach(p -> b.add(p[0], p[1]));
                SwResults batch = SmithWaterman.align(one, b.build(),
                    new SwParameters(sp.getMatchValue(), sp.getMismatchPenalty(), sp.getGapOpenPenalty(),
                        sp.getGapExtendPenalty()), SwOverhang.valueOf(s.strategy().name()));
                for (int i = 0; i < s.pairs().size(); i++) {
                    assertEquals(expected.get(i), batch.get(i).toString(), s.name() + " batch pair " + i);
                }
                double cells = 0;
                for (byte[][] p : s.pairs()) {
                    cells += (double) p[0].length * p[1].length;
                }
                cells /= s.pairs().size();
                double tDpa = time(s.pairs(), 5, p -> {
                    SWNativeAlignerResult r = dpa.align(p[0], p[1], sp, s.strategy());
                    return r.cigar;
                });
                double tGkl = haveGkl ? time(s.pairs(), 5, p -> gkl(intel, p, sp, s.strategy())) : Double.NaN;
                double tJava = time(s.pairs(), 1, p -> show(java.align(p[0], p[1], sp, s.strategy())));
                System.out.printf("SWSPEED %s: %d pairs, %.0f cells/pair, 1 thread%n", s.name(), s.pairs().size(), cells);
                System.out.printf("SWSPEED   dpaccel DpaSmithWaterman (batch API ran isa=%s): %8.1f us/pair  %.2f GCUPS%n",
                    batch.isa(), tDpa, cells / tDpa / 1e3);
                System.out.printf("SWSPEED   GKL IntelSmithWaterman:                       %8.1f us/pair  %.2f GCUPS%n",
                    tGkl, cells / tGkl / 1e3);
                System.out.printf("SWSPEED   GATK SmithWatermanJavaAligner:                %8.1f us/pair  %.2f GCUPS%n",
                    tJava, cells / tJava / 1e3);
                System.out.printf("SWSPEED   dpaccel / GKL speed-up: %.2fx%n", tGkl / tDpa);
            }
        } finally {
            dpa.close();
        }
    }
}
