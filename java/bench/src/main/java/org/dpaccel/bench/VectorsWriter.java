package org.dpaccel.bench;

import java.io.IOException;
import java.io.PrintStream;
import java.io.Writer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;

import org.dpaccel.Dpaccel;
import org.dpaccel.bench.data.Dataset;
import org.dpaccel.bench.data.PairHmmGenerator;
import org.dpaccel.bench.data.Read;
import org.dpaccel.bench.data.Region;
import org.dpaccel.bench.engine.DpaApiEngine;
import org.dpaccel.bench.engine.Engines;
import org.dpaccel.bench.engine.Plan;

/**
 * The {@code gen-vectors} subcommand: golden PairHMM vectors for the C and Java tests, expected
 * values from the scalar double-precision reference. See test-data/README.md for the format.
 */
public final class VectorsWriter {
    public static final String COLUMNS = "group hap-bases read-bases read-qual ins-qual del-qual gcp expected-log10";
    /** Regions and reads per region of gatk_regions.snapshot.tsv (kept small: the file is committed). */
    public static final int GATK_REGIONS = 6, MIN_READS = 4, MAX_READS = 10;

    private VectorsWriter() {
    }

    /** Writes gatk_regions.snapshot.tsv ({@code regions} regions) and edge_cases.snapshot.tsv into {@code dir}. */
    public static int run(Path dir, long seed, int regions, PrintStream out) throws IOException {
        if (regions < 1) {
            throw new IllegalArgumentException("--regions " + regions + ": must be at least 1");
        }
        java.util.logging.Logger.getLogger("").setLevel(java.util.logging.Level.WARNING);
        PairHmmGenerator g = new PairHmmGenerator(seed);
        Dataset gatk = new Dataset("gatk_regions", "GATK-shaped regions",
            g.gatkRegions(regions, MIN_READS, MAX_READS), true);
        Dataset edge = g.edgeCases();
        String cmd = "dpaccel bench gen-vectors --seed " + seed + (regions != GATK_REGIONS ? " --regions " + regions : "");
        String gen = "# generator: " + cmd + " (dpaccel " + BuildInfo.version() + ", libdpaccel "
            + Dpaccel.nativeVersion() + ", scalar double reference)";
        Files.createDirectories(dir);
        for (Object[] f : new Object[][] {{gatk, "gatk_regions.snapshot.tsv", false}, {edge, "edge_cases.snapshot.tsv", true}}) {
            Dataset ds = (Dataset) f[0];
            Path p = dir.resolve((String) f[1]);
            double[][] expected = reference(ds.regions());
            try (Writer w = Files.newBufferedWriter(p, StandardCharsets.US_ASCII)) {
                write(w, ds.regions(), expected, gen, (Boolean) f[2]);
            }
            out.printf(Locale.ROOT, "wrote %s: %d groups, %d pairs, %,d bytes%n", p, ds.regions().size(), ds.pairs(),
                Files.size(p));
        }
        return 0;
    }

    /** Likelihoods of every region from the scalar double reference. */
    public static double[][] reference(List<Region> regions) {
        try (DpaApiEngine ref = Engines.reference()) {
            Plan p = ref.plan(regions, regions.size());
            p.run(0);
            double[][] out = new double[regions.size()][];
            for (int i = 0; i < out.length; i++) {
                out[i] = p.result(i);
            }
            return out;
        }
    }

    /**
     * Writes the header lines and one row per pair, groups in order, read-major within a group
     * ({@code r * haps + h}). Reads (all five columns) and haplotypes are distinct within a group,
     * so a reader can rebuild each group's batch from its rows.
     */
    public static void write(Writer w, List<Region> regions, double[][] expected, String generatorLine,
        boolean decimalQuals) throws IOException {
        w.write("# " + COLUMNS + "\n");
        w.write(generatorLine + "\n");
        w.write(decimalQuals ? "# quals: decimal phred values, comma separated\n"
            : "# quals: phred+33 ASCII, one character per base\n");
        for (int gi = 0; gi < regions.size(); gi++) {
            Region g = regions.get(gi);
            checkDistinct(gi, g);
            int nh = g.haps().size();
            for (int r = 0; r < g.reads().size(); r++) {
                Read rd = g.reads().get(r);
                for (int h = 0; h < nh; h++) {
                    StringBuilder sb = new StringBuilder();
                    sb.append(gi).append('\t').append(ascii(g.haps().get(h))).append('\t').append(ascii(rd.bases()));
                    for (byte[] q : new byte[][] {rd.quals(), rd.ins(), rd.del(), rd.gcp()}) {
                        sb.append('\t').append(decimalQuals ? decimal(q) : phred33(q));
                    }
                    sb.append('\t').append(String.format(Locale.ROOT, "%.16e", expected[gi][r * nh + h])).append('\n');
                    w.write(sb.toString());
                }
            }
        }
    }

    private static void checkDistinct(int gi, Region g) {
        List<Read> rs = g.reads();
        for (int i = 0; i < rs.size(); i++) {
            for (int j = i + 1; j < rs.size(); j++) {
                if (rs.get(i).sameAs(rs.get(j))) {
                    throw new IllegalStateException("group " + gi + ": reads " + i + " and " + j + " are identical");
                }
            }
        }
        List<byte[]> hs = new ArrayList<>(g.haps());
        for (int i = 0; i < hs.size(); i++) {
            for (int j = i + 1; j < hs.size(); j++) {
                if (Arrays.equals(hs.get(i), hs.get(j))) {
                    throw new IllegalStateException("group " + gi + ": haplotypes " + i + " and " + j + " are identical");
                }
            }
        }
    }

    static String ascii(byte[] b) {
        for (byte x : b) {
            if (x <= ' ' || x >= 127) {
                throw new IllegalArgumentException("base byte " + (x & 0xff) + " cannot be written to a TSV line");
            }
        }
        return new String(b, StandardCharsets.US_ASCII);
    }

    static String phred33(byte[] q) {
        StringBuilder sb = new StringBuilder(q.length);
        for (byte x : q) {
            if (x > 93) {
                throw new IllegalArgumentException("quality " + x + " > 93 has no phred+33 ASCII character");
            }
            sb.append((char) (x + 33));
        }
        return sb.toString();
    }

    static String decimal(byte[] q) {
        StringBuilder sb = new StringBuilder(q.length * 3);
        for (int i = 0; i < q.length; i++) {
            sb.append(i > 0 ? "," : "").append(q[i]);
        }
        return sb.toString();
    }
}
