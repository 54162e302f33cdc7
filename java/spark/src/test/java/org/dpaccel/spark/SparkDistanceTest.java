package org.dpaccel.spark;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;

import org.apache.spark.api.java.JavaSparkContext;
import org.dpaccel.cli.Main;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * The Spark distance job in local mode against the single-machine {@code dpaccel distance
 * --counts} (byte for byte), against counts written here from the .bed codes, and against PLINK
 * 1.9 {@code --genome full} when plink1.9 is installed (skipped loudly otherwise); tiles that do
 * and do not divide N, T = 1 and T >= N, broadcast and byte-range reads.
 */
class SparkDistanceTest {
    static final int N = 45;
    static final int M = 300;
    static final int NON_AUTOSOMAL = 30;
    /** The rows the counts use: the first M - NON_AUTOSOMAL (the rest are on X, Y and MT). */
    static final int[] AUTOSOMAL = java.util.stream.IntStream.range(0, M - NON_AUTOSOMAL).toArray();
    static JavaSparkContext jsc;
    static Path data;
    static String prefix;
    static byte[] bed;
    static Path single;

    @BeforeAll
    static void setUp(@TempDir Path dir) throws IOException {
        data = dir;
        long seed = System.nanoTime();
        System.err.println("SparkDistanceTest seed " + seed);
        prefix = dir.resolve("c").toString();
        bed = write(prefix, new Random(seed));
        single = runSingleMachine(prefix, dir);
        jsc = LocalSpark.start("SparkDistanceTest");
    }

    @AfterAll
    static void tearDown() {
        if (jsc != null) {
            jsc.stop();
        }
    }

    /**
     * The single-machine {@code dpaccel distance --counts} on PREFIX, written to DIR/single.*
     * (the reference the Spark jobs must equal); returns DIR/single.counts.tsv.
     */
    static Path runSingleMachine(String prefix, Path dir) {
        return runSingleMachine(prefix, dir, "single");
    }

    /** The same, written to DIR/NAME.*; returns DIR/NAME.counts.tsv. */
    static Path runSingleMachine(String prefix, Path dir, String name) {
        ByteArrayOutputStream out = new ByteArrayOutputStream(), err = new ByteArrayOutputStream();
        int rc = Main.run(new String[] {"distance", "--bfile", prefix, "--out", dir.resolve(name).toString(),
            "--counts", "-q"}, new PrintStream(out, true, StandardCharsets.UTF_8),
            new PrintStream(err, true, StandardCharsets.UTF_8));
        assertEquals(0, rc, err.toString(StandardCharsets.UTF_8));
        return dir.resolve(name + ".counts.tsv");
    }

    /**
     * Random codes, 10% missing, the last 30 variants on X, Y and MT; samples 40.. are near
     * duplicates of samples 0.. (1% of calls changed), so some pairs are related.
     */
    static byte[] write(String prefix, Random rnd) throws IOException {
        StringBuilder fam = new StringBuilder(), bim = new StringBuilder();
        for (int k = 0; k < N; k++) {
            fam.append("f").append(k).append(" s").append(k).append(" 0 0 0 -9\n");
        }
        int rb = (N + 3) / 4;
        byte[] b = new byte[3 + M * rb];
        b[0] = 0x6c;
        b[1] = 0x1b;
        b[2] = 0x01;
        for (int v = 0; v < M; v++) {
            int auto = M - NON_AUTOSOMAL;
            String chrom = v < auto ? String.valueOf(1 + v * 22 / auto) : v < auto + 10 ? "X" : v < auto + 20 ? "Y" : "MT";
            bim.append(chrom).append("\tv").append(v).append("\t0\t").append(v + 1).append("\tA\tG\n");
            double p = rnd.nextDouble();
            int[] codes = new int[N];
            for (int k = 0; k < N; k++) {
                if (k >= 40 && rnd.nextDouble() >= 0.01) {
                    codes[k] = codes[k - 40];
                } else if (rnd.nextDouble() < 0.1) {
                    codes[k] = 1;
                } else {
                    int a1 = (rnd.nextDouble() < p ? 1 : 0) + (rnd.nextDouble() < p ? 1 : 0);
                    codes[k] = a1 == 2 ? 0 : a1 == 1 ? 2 : 3;
                }
                b[3 + v * rb + k / 4] |= (byte) (codes[k] << (2 * (k % 4)));
            }
        }
        Files.writeString(Path.of(prefix + ".fam"), fam);
        Files.writeString(Path.of(prefix + ".bim"), bim);
        Files.write(Path.of(prefix + ".bed"), b);
        return b;
    }

    /** The seven counts of (i, j), variant by variant, over the autosomal variants. */
    static long[] expected(int i, int j) {
        return BedCounts.of(bed, (N + 3) / 4, AUTOSOMAL, i, j);
    }

    static SparkDistance.Summary run(String out, int tile, boolean broadcast, double minKinship) throws IOException {
        SparkDistance.Options o = new SparkDistance.Options();
        o.bfile = prefix;
        o.out = data.resolve(out).toString();
        o.tile = tile;
        o.minKinship = minKinship;
        o.broadcastMaxBytes = broadcast ? 1 << 20 : 0;
        o.wholeRowBytes = broadcast ? 4096 : 0; // 0: byte ranges of each row, not whole rows
        return SparkDistance.run(jsc, o);
    }

    @Test
    void singleMachineCountsMatchTheBedCodes() throws IOException {
        List<String> lines = Files.readAllLines(single);
        assertEquals(1 + N * (N - 1) / 2, lines.size());
        int at = 1;
        for (int i = 0; i < N; i++) {
            for (int j = i + 1; j < N; j++, at++) {
                StringBuilder sb = new StringBuilder("s" + i + "\ts" + j);
                for (long c : expected(i, j)) {
                    sb.append('\t').append(c);
                }
                assertEquals(sb.toString(), lines.get(at));
            }
        }
    }

    @ParameterizedTest(name = "tile {0}, broadcast {1}")
    @CsvSource({"1, true", "4, false", "7, true", "7, false", "8, false", "16, true", "44, false", "45, true",
        "100, false"})
    void countsEqualTheSingleMachineCommand(int tile, boolean broadcast) throws IOException {
        String out = "t" + tile + (broadcast ? "b" : "r");
        SparkDistance.Summary s = run(out, tile, broadcast, Double.NaN);
        int k = (N + tile - 1) / tile;
        assertEquals(k * (k + 1) / 2, s.tiles());
        assertEquals(broadcast, s.broadcast());
        assertEquals(N * (N - 1) / 2, s.pairsWritten());
        assertEquals(M - NON_AUTOSOMAL, s.variantsUsed());
        assertArrayEquals(Files.readAllBytes(single), Files.readAllBytes(data.resolve(out + ".counts.tsv")),
            "tile " + tile);
        assertEquals(Files.readString(data.resolve("single.id")), Files.readString(data.resolve(out + ".id")));
        assertTrue(Files.exists(data.resolve(out + ".parts").resolve("_SUCCESS")));
        try (var l = Files.list(data.resolve(out + ".parts"))) {
            assertEquals(k * (k + 1) / 2 + 1, l.count(), "parts and _SUCCESS only, no attempt files");
        }
    }

    /**
     * --format parquet: Spark SQL reads OUT.parquet as one table (the tile folders become a
     * partition column) whose rows, ordered by I and J, are the single-machine counts.tsv lines;
     * every tile has its folder, no attempt file is left, and OUT.id is written.
     */
    @Test
    void parquetTilesHoldTheSingleMachineCounts() throws IOException {
        SparkDistance.Options o = new SparkDistance.Options();
        o.bfile = prefix;
        o.out = data.resolve("pq").toString();
        o.tile = 7;
        o.parquet = true;
        SparkDistance.Summary s = SparkDistance.run(jsc, o);
        int k = (N + 6) / 7;
        assertEquals(k * (k + 1) / 2, s.tiles());
        assertNull(s.countsFile(), "no counts.tsv with parquet");
        assertFalse(Files.exists(data.resolve("pq.counts.tsv")));
        Path dir = data.resolve("pq.parquet");
        assertTrue(Files.exists(dir.resolve("_SUCCESS")));
        try (var l = Files.list(dir)) {
            List<String> names = l.map(f -> f.getFileName().toString()).sorted().toList();
            assertEquals(k * (k + 1) / 2 + 1, names.size(), "one folder per tile and _SUCCESS, no attempt files: " + names);
        }
        org.apache.spark.sql.SparkSession spark = org.apache.spark.sql.SparkSession.builder().sparkContext(jsc.sc())
            .getOrCreate();
        List<org.apache.spark.sql.Row> rows = spark.read().parquet(dir.toString()).orderBy("I", "J").collectAsList();
        List<String> want = Files.readAllLines(single);
        assertEquals(want.size() - 1, rows.size());
        java.util.Set<String> tiles = new java.util.HashSet<>();
        for (int r = 0; r < rows.size(); r++) {
            org.apache.spark.sql.Row row = rows.get(r);
            StringBuilder sb = new StringBuilder(row.getString(row.fieldIndex("IID1")) + "\t"
                + row.getString(row.fieldIndex("IID2")));
            for (String c : DistanceParquet.COUNTS) {
                sb.append('\t').append(row.getLong(row.fieldIndex(c)));
            }
            assertEquals(want.get(r + 1), sb.toString(), "row " + r);
            int i = row.getInt(row.fieldIndex("I")), j = row.getInt(row.fieldIndex("J"));
            assertEquals("s" + i, row.getString(row.fieldIndex("IID1")));
            assertEquals("s" + j, row.getString(row.fieldIndex("IID2")));
            tiles.add(String.valueOf(row.get(row.fieldIndex("tile"))));
        }
        assertEquals(k * (k + 1) / 2, tiles.size(), "the partition column names every tile");
        assertEquals(Files.readString(data.resolve("single.id")), Files.readString(data.resolve("pq.id")));
    }

    @Test
    void minKinshipKeepsExactlyTheRelatedPairs() throws IOException {
        double bound = 0.2;
        SparkDistance.Summary s = run("kin", 6, false, bound);
        List<String> want = new ArrayList<>();
        List<String> all = Files.readAllLines(single);
        want.add(all.get(0));
        for (String l : all.subList(1, all.size())) {
            String[] t = l.split("\t");
            long ibs0 = Long.parseLong(t[3]), hethet = Long.parseLong(t[6]), h1 = Long.parseLong(t[7]),
                h2 = Long.parseLong(t[8]);
            // KING-robust as written in docs/distance.md
            double king = 0.5 - (4 * ibs0 + h1 + h2) / (4.0 * (hethet + Math.min(h1, h2)));
            if (king >= bound) {
                want.add(l);
            }
        }
        assertTrue(want.size() > 5 && want.size() < 40, "the near duplicates (and few others) pass: " + want.size());
        assertEquals(want.size() - 1, s.pairsWritten());
        assertEquals(want, Files.readAllLines(data.resolve("kin.counts.tsv")));
    }

    @Test
    void plink19GenomeIbsCountsEqual() throws IOException, InterruptedException {
        boolean have = new ProcessBuilder("sh", "-c", "command -v plink1.9").start().waitFor() == 0;
        if (!have) {
            System.err.println("PLINK ORACLE NOT RUN: plink1.9 is not installed (apt-get install plink1.9)");
        }
        assumeTrue(have, "plink1.9 not installed");
        run("pl", 8, false, Double.NaN);
        Process p = new ProcessBuilder("plink1.9", "--bfile", prefix, "--genome", "full", "--threads", "1",
            "--out", data.resolve("g").toString()).redirectErrorStream(true)
            .redirectOutput(data.resolve("g.stdout").toFile()).start();
        assertEquals(0, p.waitFor(), Files.readString(data.resolve("g.stdout")));
        Map<String, String[]> ours = new HashMap<>();
        for (String l : Files.readAllLines(data.resolve("pl.counts.tsv"))) {
            String[] t = l.split("\t");
            ours.put(t[0] + " " + t[1], t);
        }
        List<String> genome = Files.readAllLines(data.resolve("g.genome"));
        String[] head = genome.get(0).trim().split("\\s+");
        int c0 = List.of(head).indexOf("IBS0"), c1 = List.of(head).indexOf("IBS1"), c2 = List.of(head).indexOf("IBS2");
        assertTrue(c0 > 0 && c1 > 0 && c2 > 0, genome.get(0));
        assertEquals(N * (N - 1) / 2, genome.size() - 1);
        for (String l : genome.subList(1, genome.size())) {
            String[] g = l.trim().split("\\s+");
            String[] t = ours.get(g[1] + " " + g[3]);
            assertTrue(t != null, "pair " + g[1] + " " + g[3] + " missing");
            assertEquals(g[c0] + " " + g[c1] + " " + g[c2], t[3] + " " + t[4] + " " + t[5], l);
        }
    }

    @Test
    void vcfFromPlinkGivesTheBfileCounts() throws IOException, InterruptedException {
        boolean have = new ProcessBuilder("sh", "-c", "command -v plink1.9").start().waitFor() == 0;
        if (!have) {
            System.err.println("VCF CHECK NOT RUN: plink1.9 (which writes the VCF) is not installed");
        }
        assumeTrue(have, "plink1.9 not installed");
        Process p = new ProcessBuilder("plink1.9", "--bfile", prefix, "--recode", "vcf-iid", "bgz", "--out",
            data.resolve("v").toString()).redirectErrorStream(true).redirectOutput(data.resolve("v.stdout").toFile())
            .start();
        assertEquals(0, p.waitFor(), Files.readString(data.resolve("v.stdout")));
        SparkDistance.Options o = new SparkDistance.Options();
        o.vcf = data.resolve("v.vcf.gz").toString();
        o.out = data.resolve("vcf").toString();
        o.tile = 11;
        SparkDistance.Summary s = SparkDistance.run(jsc, o);
        assertTrue(s.broadcast());
        assertArrayEquals(Files.readAllBytes(single), Files.readAllBytes(data.resolve("vcf.counts.tsv")));
        o.bfile = prefix;
        assertTrue(assertThrows(IllegalArgumentException.class, () -> SparkDistance.run(jsc, o)).getMessage()
            .contains("exactly one input"));
    }

    @Test
    void refusesAnExistingResultUnlessOverwrite() throws IOException {
        run("again", 10, true, Double.NaN);
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
            () -> run("again", 10, true, Double.NaN));
        assertTrue(e.getMessage().contains("already exists"), e.getMessage());
        SparkDistance.Options o = new SparkDistance.Options();
        o.bfile = prefix;
        o.out = data.resolve("again").toString();
        o.tile = 9;
        o.overwrite = true;
        SparkDistance.run(jsc, o);
        assertArrayEquals(Files.readAllBytes(single), Files.readAllBytes(data.resolve("again.counts.tsv")));
    }

    @Test
    void badTileAndBadBedAreNamed(@TempDir Path dir) throws IOException {
        SparkDistance.Options o = new SparkDistance.Options();
        o.bfile = prefix;
        o.out = dir.resolve("o").toString();
        o.tile = 0;
        assertTrue(assertThrows(IllegalArgumentException.class, () -> SparkDistance.run(jsc, o)).getMessage()
            .contains("tile = 0"));
        String bad = dir.resolve("bad").toString();
        Files.copy(Path.of(prefix + ".fam"), Path.of(bad + ".fam"));
        Files.copy(Path.of(prefix + ".bim"), Path.of(bad + ".bim"));
        Files.write(Path.of(bad + ".bed"), java.util.Arrays.copyOf(bed, bed.length - 1));
        o.tile = 8;
        o.bfile = bad;
        RuntimeException e = assertThrows(RuntimeException.class, () -> SparkDistance.run(jsc, o));
        assertTrue(e.getMessage().contains(bad + ".bed") && e.getMessage().contains("expected " + bed.length),
            e.getMessage());
        assertFalse(Files.exists(dir.resolve("o.counts.tsv")));
        assertFalse(Files.exists(dir.resolve("o.parts")), "nothing written before the input is checked");
    }
}
