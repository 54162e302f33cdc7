package org.dpaccel.sw.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.Arrays;
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

import com.intel.gkl.smithwaterman.IntelSmithWaterman;

/**
 * Single-thread speed of one-pair-per-call Smith-Waterman on HaplotypeCaller shapes, as GATK
 * calls it: dpaccel's {@code DpaSmithWaterman} (the kernel the context picks; its ISA is
 * printed), GKL 0.8.11's {@code IntelSmithWaterman} (with GATK's exact-substring shortcut in
 * front, as SWNativeAlignerWrapper does) and GATK's Java aligner. dpaccel and GKL passes are
 * interleaved and reported as medians (-Ddpaccel.sw.speed.reps, default 7). Prints the timings
 * ("SWSPEED" lines); asserts only correctness (dpaccel equals GATK on every timed pair). Seeded
 * (-Ddpaccel.sw.seed), a few seconds.
 *
 * <p>A bench tool, not a test (timings do not belong in tests; surefire does not run it):
 * <pre>
 * mvn -q -B install -DskipTests
 * cd java/sw-it &amp;&amp; mvn -q -B -o test-compile org.codehaus.mojo:exec-maven-plugin:3.1.0:java \
 *     -Dexec.classpathScope=test -Dexec.mainClass=org.dpaccel.sw.it.SwSpeedBench
 * </pre>
 */
public final class SwSpeedBench {
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
            best = Math.min(best, pass(pairs, a));
        }
        return best;
    }

    /** One pass over all pairs, in microseconds per pair. */
    static double pass(List<byte[][]> pairs, Aligner a) {
        long t0 = System.nanoTime();
        for (byte[][] p : pairs) {
            a.align(p);
        }
        return (System.nanoTime() - t0) / 1e3 / pairs.size();
    }

    static double median(double[] v) {
        double[] s = v.clone();
        Arrays.sort(s);
        return s.length % 2 == 1 ? s[s.length / 2] : (s[s.length / 2 - 1] + s[s.length / 2]) / 2;
    }

    /** Number of interleaved dpaccel / GKL passes (-Ddpaccel.sw.speed.reps, default 7). */
    static final int REPS = Integer.getInteger("dpaccel.sw.speed.reps", 7);

    public static void main(String[] args) {
        new SwSpeedBench().speedOnHaplotypeCallerShapes();
    }

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
                // dpaccel and GKL passes interleaved (alternating which goes first), so load from
                // other processes hits both alike; medians, and the median of the per-pass ratios
                Aligner aDpa = p -> dpa.align(p[0], p[1], sp, s.strategy()).cigar;
                Aligner aGkl = p -> gkl(intel, p, sp, s.strategy());
                double[] dpaRuns = new double[REPS], gklRuns = new double[REPS], ratios = new double[REPS];
                for (int r = 0; r < REPS; r++) {
                    if (r % 2 == 0) {
                        dpaRuns[r] = pass(s.pairs(), aDpa);
                        gklRuns[r] = haveGkl ? pass(s.pairs(), aGkl) : Double.NaN;
                    } else {
                        gklRuns[r] = haveGkl ? pass(s.pairs(), aGkl) : Double.NaN;
                        dpaRuns[r] = pass(s.pairs(), aDpa);
                    }
                    ratios[r] = gklRuns[r] / dpaRuns[r];
                }
                double tDpa = median(dpaRuns);
                double tGkl = median(gklRuns);
                double tJava = time(s.pairs(), 1, p -> show(java.align(p[0], p[1], sp, s.strategy())));
                System.out.printf("SWSPEED %s: %d pairs, %.0f cells/pair, 1 thread%n", s.name(), s.pairs().size(), cells);
                System.out.printf("SWSPEED   dpaccel DpaSmithWaterman (batch API ran isa=%s): %8.1f us/pair  %.2f GCUPS%n",
                    batch.isa(), tDpa, cells / tDpa / 1e3);
                System.out.printf("SWSPEED   GKL IntelSmithWaterman:                       %8.1f us/pair  %.2f GCUPS%n",
                    tGkl, cells / tGkl / 1e3);
                System.out.printf("SWSPEED   GATK SmithWatermanJavaAligner:                %8.1f us/pair  %.2f GCUPS%n",
                    tJava, cells / tJava / 1e3);
                System.out.printf("SWSPEED   dpaccel / GKL speed-up: %.2fx (median of %d interleaved passes each;"
                    + " median of the per-pass ratios %.2fx, range %.2f-%.2f)%n", tGkl / tDpa, REPS, median(ratios),
                    Arrays.stream(ratios).min().orElse(Double.NaN),
                    Arrays.stream(ratios).max().orElse(Double.NaN));
            }
        } finally {
            dpa.close();
        }
    }
}
