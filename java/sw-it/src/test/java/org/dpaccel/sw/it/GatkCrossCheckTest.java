package org.dpaccel.sw.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

import org.broadinstitute.gatk.nativebindings.smithwaterman.SWNativeAlignerResult;
import org.broadinstitute.gatk.nativebindings.smithwaterman.SWOverhangStrategy;
import org.broadinstitute.gatk.nativebindings.smithwaterman.SWParameters;
import org.broadinstitute.hellbender.utils.smithwaterman.SWNativeAlignerWrapper;
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
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import com.intel.gkl.smithwaterman.IntelSmithWaterman;

/**
 * dpaccel's Smith-Waterman must give GATK 4.6.2.0's SmithWatermanJavaAligner CIGAR and offset,
 * byte for byte, on every generated pair. GKL's IntelSmithWaterman (wrapped as GATK wraps it,
 * with the exact-substring shortcut first) is compared with GATK where it is valid (both
 * lengths below 1024); its disagreements are counted and reported, never asserted (GATK wins).
 * Seed: -Ddpaccel.sw.seed=N reproduces a run; it is printed with every failure.
 */
class GatkCrossCheckTest {
    static final long SEED = Long.getLong("dpaccel.sw.seed", System.nanoTime());
    static final int GKL_MAX = 1024; // GKL 0.8.11 crashes (ref) or is wrong (alt) from 1024 on

    static DpaContext ctx;
    static IntelSmithWaterman gkl;
    static final Map<String, long[]> REPORT = new TreeMap<>(); // pairs, ours != GATK, GKL compared, GKL != GATK
    static final List<String> GKL_EXAMPLES = new ArrayList<>();

    record Pair(String ref, String alt) {
        byte[] r() {
            return ref.getBytes(StandardCharsets.US_ASCII);
        }

        byte[] a() {
            return alt.getBytes(StandardCharsets.US_ASCII);
        }
    }

    @BeforeAll
    static void setUp() {
        ctx = DpaContext.create(Config.builder().threads(2).build());
        IntelSmithWaterman g = new IntelSmithWaterman();
        if (g.load(null)) {
            gkl = g;
        } else {
            System.out.println("GKL IntelSmithWaterman could not be loaded here: GKL comparison skipped");
        }
        System.out.println("Smith-Waterman cross-check seed " + SEED + " (-Ddpaccel.sw.seed=" + SEED + ")");
    }

    @AfterAll
    static void tearDown() throws IOException {
        ctx.close();
        StringBuilder b = new StringBuilder("# scenario\tpairs\tdpaccel!=GATK\tGKL-compared\tGKL!=GATK   (seed " + SEED + ")\n");
        long[] total = new long[4];
        REPORT.forEach((k, v) -> {
            b.append(k).append('\t').append(v[0]).append('\t').append(v[1]).append('\t').append(v[2]).append('\t')
                .append(v[3]).append('\n');
            for (int i = 0; i < 4; i++) {
                total[i] += v[i];
            }
        });
        b.append("TOTAL\t").append(total[0]).append('\t').append(total[1]).append('\t').append(total[2]).append('\t')
            .append(total[3]).append('\n');
        for (String e : GKL_EXAMPLES) {
            b.append("# GKL != GATK: ").append(e).append('\n');
        }
        System.out.print(b);
        String path = System.getProperty("dpaccel.sw.it.report");
        if (path != null) {
            Files.writeString(Path.of(path), b.toString());
        }
    }

    static SWParameters gatkParams(SwParameters p) {
        return new SWParameters(p.match(), p.mismatch(), p.gapOpen(), p.gapExtend());
    }

    static String show(SmithWatermanAlignment a) {
        return a.getCigar().toString() + " @ " + a.getAlignmentOffset();
    }

    /** GKL as GATK uses it (SWNativeAlignerWrapper: exact-substring shortcut, then GKL). */
    static String gklAsGatk(Pair p, SWParameters sp, SWOverhangStrategy s) {
        if (s == SWOverhangStrategy.SOFTCLIP || s == SWOverhangStrategy.IGNORE) {
            int idx = p.ref.lastIndexOf(p.alt);
            if (idx >= 0) {
                return p.alt.length() + "M @ " + idx;
            }
        }
        SWNativeAlignerResult r = gkl.align(p.r(), p.a(), sp, s);
        return r.cigar + " @ " + r.alignment_offset;
    }

    /** Aligns all pairs with dpaccel (batches of 2000) and GATK, and compares; GKL counted. */
    static void check(String scenario, List<Pair> pairs, SwParameters params, SwOverhang overhang) {
        SWOverhangStrategy strategy = SWOverhangStrategy.valueOf(overhang.name());
        SWParameters sp = gatkParams(params);
        String key = scenario + " " + overhang + " " + params;
        long[] counts = REPORT.computeIfAbsent(key, k -> new long[4]);
        List<String> failures = new ArrayList<>();
        for (int from = 0; from < pairs.size(); from += 2000) {
            List<Pair> chunk = pairs.subList(from, Math.min(pairs.size(), from + 2000));
            SwBatch.Builder b = SwBatch.builder();
            for (Pair p : chunk) {
                b.add(p.r(), p.a());
            }
            SwResults ours = SmithWaterman.align(ctx, b.build(), params, overhang);
            for (int i = 0; i < chunk.size(); i++) {
                Pair p = chunk.get(i);
                String gatk = show(SmithWatermanJavaAligner.getInstance().align(p.r(), p.a(), sp, strategy));
                String mine = ours.get(i).toString();
                counts[0]++;
                if (!gatk.equals(mine)) {
                    counts[1]++;
                    if (failures.size() < 5) {
                        failures.add("ref " + p.ref + " alt " + p.alt + ": GATK " + gatk + ", dpaccel " + mine);
                    }
                }
                if (gkl != null && p.ref.length() < GKL_MAX && p.alt.length() < GKL_MAX) {
                    counts[2]++;
                    String g = gklAsGatk(p, sp, strategy);
                    if (!g.equals(gatk)) {
                        counts[3]++;
                        if (GKL_EXAMPLES.size() < 6 && p.ref.length() + p.alt.length() < 120) {
                            GKL_EXAMPLES.add(key + ": ref " + p.ref + " alt " + p.alt + ": GATK " + gatk + ", GKL " + g);
                        }
                    }
                }
            }
        }
        assertTrue(failures.isEmpty(), () -> scenario + " " + overhang + " " + params + ": " + counts[1] + " of "
            + counts[0] + " pairs differ from GATK (seed " + SEED + ", -Ddpaccel.sw.seed=" + SEED + "); first: "
            + String.join("; ", failures));
    }

    static long seed(int scenario) {
        return SEED * 31 + scenario;
    }

    @Test
    void haplotypeToReference() {
        SwGenerator g = new SwGenerator(seed(1));
        List<Pair> pairs = new ArrayList<>();
        for (int i = 0; i < 1200; i++) {
            String ref = g.genome(g.between(300, 1000));
            String hap = g.mutate(ref, g.between(0, 6), g.chance(0.2) ? 60 : 12);
            pairs.add(new Pair(SwGenerator.PAD + ref + SwGenerator.PAD, SwGenerator.PAD + hap + SwGenerator.PAD));
        }
        check("haplotype-to-reference", pairs, SwParameters.HAPLOTYPE_TO_REFERENCE, SwOverhang.INDEL);
    }

    @Test
    void readToHaplotype() {
        SwGenerator g = new SwGenerator(seed(2));
        List<Pair> pairs = new ArrayList<>();
        for (int h = 0; h < 300; h++) {
            String hap = g.genome(g.between(200, 600));
            for (int r = 0; r < 40; r++) {
                int start = g.between(-25, hap.length() - 125);
                String read = start < 0 ? g.bases(-start) + hap.substring(0, Math.min(hap.length(), 150 + start))
                    : hap.substring(start, Math.min(hap.length(), start + 150));
                if (read.length() < 150) {
                    read += g.bases(150 - read.length());
                }
                if (!g.chance(0.2)) {
                    read = g.sequencingErrors(read, 0.01 + 0.03 * g.random().nextDouble());
                }
                pairs.add(new Pair(hap, read));
            }
        }
        check("read-to-haplotype", pairs, SwParameters.READ_TO_HAPLOTYPE, SwOverhang.SOFTCLIP);
    }

    @Test
    void danglingEnds() {
        SwGenerator g = new SwGenerator(seed(3));
        List<Pair> pairs = new ArrayList<>();
        for (int i = 0; i < 1500; i++) {
            String ref = g.genome(g.between(10, 120));
            String alt = g.chance(0.5) ? g.mutate(ref.substring(0, g.between(1, ref.length())), g.between(0, 3), 5)
                : g.mutate(ref.substring(g.random().nextInt(ref.length())), g.between(0, 3), 5);
            if (g.chance(0.3)) {
                alt += g.bases(g.between(1, 20));
            }
            pairs.add(new Pair(ref, alt.isEmpty() ? "A" : alt));
        }
        for (SwOverhang o : SwOverhang.values()) {
            check("dangling-ends", pairs, SwParameters.DANGLING_END, o);
        }
    }

    @Test
    void allStrategiesMixedShapes() {
        SwGenerator g = new SwGenerator(seed(4));
        SwParameters[] sets = { SwParameters.HAPLOTYPE_TO_REFERENCE, SwParameters.READ_TO_HAPLOTYPE,
            SwParameters.DANGLING_END, SwParameters.ORIGINAL_DEFAULT, new SwParameters(50, -100, -220, -12) };
        for (SwParameters p : sets) {
            List<Pair> pairs = new ArrayList<>();
            for (int i = 0; i < 700; i++) {
                String ref = g.genome(g.between(1, 250));
                String alt = switch (i % 4) {
                    case 0 -> g.bases(g.between(1, 200));
                    case 1 -> g.mutate(ref, g.between(1, 5), 10);
                    case 2 -> {
                        int a = g.random().nextInt(ref.length());
                        yield g.bases(g.between(0, 15)) + g.mutate(ref.substring(a, g.between(a + 1, ref.length())),
                            g.between(0, 3), 6) + g.bases(g.between(0, 15));
                    }
                    default -> g.genome(g.between(1, 250));
                };
                pairs.add(new Pair(ref, alt.isEmpty() ? "C" : alt));
            }
            for (SwOverhang o : SwOverhang.values()) {
                check("mixed", pairs, p, o);
            }
        }
    }

    @Test
    void edgeCases() {
        SwGenerator g = new SwGenerator(seed(5));
        List<Pair> pairs = new ArrayList<>();
        for (int n : new int[] { 1, 2, 3, 5, 10, 50, 150, 300 }) {
            String s = g.genome(n);
            pairs.add(new Pair(s, s)); // identical
            pairs.add(new Pair("A".repeat(n), "C".repeat(n))); // all mismatches
            pairs.add(new Pair("A".repeat(n), "C".repeat(Math.max(1, n / 2 + 1))));
            pairs.add(new Pair(g.bases(1), s));
            pairs.add(new Pair(s, g.bases(1)));
            pairs.add(new Pair("A".repeat(n), "A"));
            pairs.add(new Pair("A", "A".repeat(n)));
            for (int k : new int[] { 1, 5, 20, 80 }) {
                String ref = g.genome(n + k + 100);
                String core = ref.substring(k, k + n + 50);
                pairs.add(new Pair(ref, core)); // long deletion at both ends
                pairs.add(new Pair(ref, ref.substring(k))); // at the start
                pairs.add(new Pair(ref, ref.substring(0, ref.length() - k))); // at the end
                pairs.add(new Pair(ref, g.bases(k) + ref)); // long insertion at the start
                pairs.add(new Pair(ref, ref + g.bases(k))); // at the end
                pairs.add(new Pair(ref.substring(k), ref)); // ref shorter
                pairs.add(new Pair(ref, ref.substring(0, 40) + g.bases(k) + ref.substring(40))); // middle
            }
        }
        pairs.add(new Pair("A", "A"));
        pairs.add(new Pair("A", "C"));
        pairs.add(new Pair("N", "N"));
        pairs.add(new Pair("ACGT", "ACGT".repeat(30)));
        SwParameters[] sets = { SwParameters.HAPLOTYPE_TO_REFERENCE, SwParameters.READ_TO_HAPLOTYPE,
            SwParameters.DANGLING_END, SwParameters.ORIGINAL_DEFAULT };
        for (SwParameters p : sets) {
            for (SwOverhang o : SwOverhang.values()) {
                check("edge-cases", pairs, p, o);
            }
        }
    }

    @Test
    void longSequencesAround1024And4096() {
        SwGenerator g = new SwGenerator(seed(6));
        List<Pair> pairs = new ArrayList<>();
        for (int n : new int[] { 1023, 1024, 1025 }) {
            String ref = g.genome(n);
            String alt = g.mutate(ref, 6, 20);
            pairs.add(new Pair(ref, alt.length() >= n ? alt.substring(0, n) : alt + g.bases(n - alt.length())));
            pairs.add(new Pair(ref, g.mutate(ref.substring(n / 3, n / 3 + 150), 2, 3)));
            pairs.add(new Pair(g.genome(300), g.mutate(g.genome(n), 3, 5)));
        }
        String big = g.genome(4096);
        pairs.add(new Pair(big, g.mutate(big, 10, 30)));
        pairs.add(new Pair(big, g.mutate(big.substring(1000, 1150), 2, 3)));
        pairs.add(new Pair(g.genome(200), g.mutate(big, 5, 5)));
        for (SwOverhang o : SwOverhang.values()) {
            check("long", pairs, o == SwOverhang.SOFTCLIP ? SwParameters.READ_TO_HAPLOTYPE
                : SwParameters.HAPLOTYPE_TO_REFERENCE, o);
        }
    }

    /** The GATK binding inside GATK's own SWNativeAlignerWrapper, as HaplotypeCaller would use it. */
    @Test
    void bindingInsideGatkWrapper() {
        SwGenerator g = new SwGenerator(seed(7));
        DpaSmithWaterman binding = new DpaSmithWaterman();
        assertTrue(binding.load(null));
        SWNativeAlignerWrapper wrapper = new SWNativeAlignerWrapper(binding);
        long before = DpaSmithWaterman.callCount();
        int n = 0;
        for (int i = 0; i < 400; i++) {
            String ref = g.genome(g.between(50, 400));
            String alt = i % 3 == 0 ? ref.substring(10, 40) : g.mutate(ref, g.between(1, 4), 8);
            for (SWOverhangStrategy s : SWOverhangStrategy.values()) {
                SWParameters sp = gatkParams(i % 2 == 0 ? SwParameters.HAPLOTYPE_TO_REFERENCE : SwParameters.DANGLING_END);
                byte[] r = ref.getBytes(StandardCharsets.US_ASCII), a = alt.getBytes(StandardCharsets.US_ASCII);
                String gatk = show(SmithWatermanJavaAligner.getInstance().align(r, a, sp, s));
                String mine = show(wrapper.align(r, a, sp, s));
                assertEquals(gatk, mine, () -> "ref " + ref + " alt " + alt + " " + s + " (seed " + SEED + ")");
                n++;
            }
        }
        wrapper.close();
        assertTrue(DpaSmithWaterman.callCount() > before, "the wrapper reached dpaccel");
        long[] c = REPORT.computeIfAbsent("binding-in-SWNativeAlignerWrapper all", k -> new long[4]);
        c[0] += n;
    }
}
