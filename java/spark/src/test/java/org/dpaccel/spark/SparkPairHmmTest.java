package org.dpaccel.spark;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;

import org.apache.spark.api.java.JavaSparkContext;
import org.dpaccel.Config;
import org.dpaccel.DpaContext;
import org.dpaccel.pairhmm.PairHmm;
import org.dpaccel.pairhmm.PairHmmBatch;
import org.dpaccel.pairhmm.Precision;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * PairHMM on partitions in local mode: identical doubles to the same regions as one batch
 * through the Java API on one machine, in input order across partitions and batches; the
 * golden vectors also against their expected values (1e-5, as the core's snapshot test).
 */
class SparkPairHmmTest {
    static JavaSparkContext jsc;

    @BeforeAll
    static void setUp() {
        jsc = LocalSpark.start("SparkPairHmmTest");
    }

    @AfterAll
    static void tearDown() {
        if (jsc != null) {
            jsc.stop();
        }
    }

    static double[] singleMachine(List<Region> regions, Precision precision) {
        PairHmmBatch.Builder b = PairHmmBatch.builder();
        for (Region r : regions) {
            for (Region.Read read : r.reads()) {
                b.addRead(read.bases(), read.quals(), read.insertionGop(), read.deletionGop(), read.gcp());
            }
            r.haplotypes().forEach(b::addHaplotype);
            b.endGroup();
        }
        try (DpaContext ctx = DpaContext.create(Config.builder().threads(2).build())) {
            return PairHmm.compute(ctx, b.build(), precision, null);
        }
    }

    static void assertSame(double[] want, List<double[]> got, List<Region> regions) {
        assertEquals(regions.size(), got.size());
        int at = 0;
        for (int g = 0; g < got.size(); g++) {
            assertEquals(regions.get(g).resultCount(), got.get(g).length, "region " + g);
            for (double v : got.get(g)) {
                assertEquals(Double.doubleToRawLongBits(want[at]), Double.doubleToRawLongBits(v),
                    "region " + g + " result " + at + ": " + want[at] + " vs " + v);
                at++;
            }
        }
    }

    private static byte[] phred33(String s) {
        byte[] b = s.getBytes(StandardCharsets.US_ASCII);
        for (int i = 0; i < b.length; i++) {
            b[i] -= 33;
        }
        return b;
    }

    @Test
    void goldenVectorsEqualTheJavaApiAndTheirExpectedValues() throws IOException {
        Path p = Path.of(System.getProperty("dpaccel.testdata.dir", "../../test-data"), "pairhmm",
            "gatk_regions.snapshot.tsv");
        List<Region> regions = new ArrayList<>();
        List<Double> expected = new ArrayList<>();
        for (String l : Files.readAllLines(p, StandardCharsets.US_ASCII)) {
            if (l.isEmpty() || l.startsWith("#")) {
                continue;
            }
            String[] t = l.split("\t");
            // one pair per region: order across regions and partitions is what is checked
            regions.add(new Region(List.of(new Region.Read(t[2].getBytes(StandardCharsets.US_ASCII), phred33(t[3]),
                phred33(t[4]), phred33(t[5]), phred33(t[6]))), List.of(t[1].getBytes(StandardCharsets.US_ASCII))));
            expected.add(Double.parseDouble(t[7]));
        }
        assertTrue(regions.size() > 100);
        List<double[]> got = SparkPairHmm.likelihoods(jsc.parallelize(regions, 5)).collect();
        assertSame(singleMachine(regions, Precision.FLOAT_THEN_DOUBLE), got, regions);
        for (int i = 0; i < got.size(); i++) {
            assertEquals(expected.get(i), got.get(i)[0], 1e-5, "row " + i);
        }
    }

    /**
     * The typed Dataset entry point: generated GATK-shaped regions (several reads and
     * haplotypes each) in small batches across partitions, every double identical to the same
     * regions as one batch through the Java API, in input order.
     */
    @Test
    void typedDatasetEqualsTheJavaApiInOrder() {
        long seed = System.nanoTime();
        System.out.println("[spark dataset] seed " + seed);
        Random rng = new Random(seed);
        List<Region> regions = new ArrayList<>();
        for (int g = 0; g < 23; g++) {
            List<Region.Read> reads = new ArrayList<>();
            List<byte[]> haps = new ArrayList<>();
            for (int r = 1 + rng.nextInt(4); r > 0; r--) {
                int n = 40 + rng.nextInt(100);
                reads.add(new Region.Read(bases(rng, n), quals(rng, n, 6, 40), quals(rng, n, 40, 45),
                    quals(rng, n, 40, 45), quals(rng, n, 10, 10)));
            }
            for (int h = 1 + rng.nextInt(3); h > 0; h--) {
                haps.add(bases(rng, 100 + rng.nextInt(200)));
            }
            regions.add(new Region(reads, haps));
        }
        org.apache.spark.sql.SparkSession spark = org.apache.spark.sql.SparkSession.builder().sparkContext(jsc.sc())
            .getOrCreate();
        // four partitions in input order, and batches of a few regions inside each
        org.apache.spark.sql.Dataset<Region> ds = spark.createDataset(jsc.parallelize(regions, 4).rdd(),
            SparkPairHmm.REGIONS);
        List<double[]> got = SparkPairHmm.likelihoods(ds, Precision.FLOAT_THEN_DOUBLE, null, 200_000)
            .collectAsList();
        assertSame(singleMachine(regions, Precision.FLOAT_THEN_DOUBLE), got, regions);
    }

    private static byte[] bases(Random r, int n) {
        byte[] b = new byte[n];
        for (int i = 0; i < n; i++) {
            b[i] = (byte) "ACGT".charAt(r.nextInt(4));
        }
        return b;
    }

    private static byte[] quals(Random r, int n, int lo, int hi) {
        byte[] b = new byte[n];
        for (int i = 0; i < n; i++) {
            b[i] = (byte) (lo + r.nextInt(hi - lo + 1));
        }
        return b;
    }

    /**
     * The SQL function on GATK's PairHMM test vectors (test-data/pairhmm/gkl-pairhmm-testdata.txt,
     * GATK's Java values): every row within 1e-5 of its expected value (GKL's tolerance; base
     * qualities floored at 6 as GATK's caller does) and bit-identical to the Java API on one
     * machine; NULL in, NULL out; a bad quality fails the query naming the column.
     */
    @Test
    void sqlFunctionOnGatksVectors() throws IOException {
        Path p = Path.of(System.getProperty("dpaccel.testdata.dir", "../../test-data"), "pairhmm",
            "gkl-pairhmm-testdata.txt");
        List<org.apache.spark.sql.Row> rows = new ArrayList<>();
        List<Double> expected = new ArrayList<>();
        for (String l : Files.readAllLines(p, StandardCharsets.US_ASCII)) {
            if (l.isBlank() || l.startsWith("#")) {
                continue;
            }
            String[] t = l.trim().split("\\s+");
            StringBuilder q = new StringBuilder();
            for (char c : t[2].toCharArray()) {
                q.append((char) Math.max(c, 33 + 6));
            }
            rows.add(org.apache.spark.sql.RowFactory.create(rows.size(), t[0], t[1], q.toString(), t[3], t[4], t[5]));
            expected.add(Double.parseDouble(t[6]));
        }
        assertEquals(104, rows.size());
        org.apache.spark.sql.SparkSession spark = org.apache.spark.sql.SparkSession.builder().sparkContext(jsc.sc())
            .getOrCreate();
        SparkPairHmmUdf.register(spark);
        org.apache.spark.sql.types.StructType schema = new org.apache.spark.sql.types.StructType()
            .add("n", "int").add("hap", "string").add("read", "string").add("q", "string").add("i", "string")
            .add("d", "string").add("c", "string");
        spark.createDataFrame(rows, schema).repartition(4).createOrReplaceTempView("vectors");
        List<org.apache.spark.sql.Row> got = spark.sql("SELECT n, dpaccel_pairhmm(hap, read, q, i, d, c) AS lk "
            + "FROM vectors ORDER BY n").collectAsList();
        assertEquals(rows.size(), got.size());
        for (int k = 0; k < got.size(); k++) {
            org.apache.spark.sql.Row in = rows.get(k);
            double lk = got.get(k).getDouble(1);
            assertEquals(expected.get(k), lk, 1e-5, "row " + k);
            double api = SparkPairHmmUdf.likelihood(in.getString(1), in.getString(2), in.getString(3),
                in.getString(4), in.getString(5), in.getString(6));
            assertEquals(Double.doubleToRawLongBits(api), Double.doubleToRawLongBits(lk), "row " + k);
        }
        assertTrue(spark.sql("SELECT dpaccel_pairhmm('ACGT', 'ACGT', NULL, 'IIII', 'IIII', '++++')").first()
            .isNullAt(0));
        Exception e = org.junit.jupiter.api.Assertions.assertThrows(Exception.class,
            () -> spark.sql("SELECT dpaccel_pairhmm('ACGT', 'ACGT', 'II I', 'IIII', 'IIII', '++++')").first());
        StringBuilder chain = new StringBuilder();
        for (Throwable t = e; t != null; t = t.getCause()) {
            chain.append(t.getMessage()).append('\n');
        }
        assertTrue(chain.toString().contains("dpaccel_pairhmm: quals[2] = ' ' is not a phred+33 quality"),
            chain.toString());
    }

    @Test
    void generatedRegionsKeepOrderAcrossPartitionsAndBatches() {
        long seed = System.nanoTime();
        System.err.println("SparkPairHmmTest seed " + seed);
        Random rnd = new Random(seed);
        List<Region> regions = new ArrayList<>();
        byte[] acgt = "ACGT".getBytes(StandardCharsets.US_ASCII);
        for (int g = 0; g < 37; g++) {
            List<byte[]> haps = new ArrayList<>();
            byte[] ref = new byte[100 + rnd.nextInt(250)];
            for (int i = 0; i < ref.length; i++) {
                ref[i] = acgt[rnd.nextInt(4)];
            }
            int nh = 1 + rnd.nextInt(4);
            for (int h = 0; h < nh; h++) {
                byte[] hap = ref.clone();
                for (int k = 0; k < 3 * h; k++) {
                    hap[rnd.nextInt(hap.length)] = acgt[rnd.nextInt(4)];
                }
                haps.add(hap);
            }
            List<Region.Read> reads = new ArrayList<>();
            int nr = 1 + rnd.nextInt(8);
            for (int r = 0; r < nr; r++) {
                int len = 20 + rnd.nextInt(Math.min(131, ref.length - 20));
                int start = rnd.nextInt(ref.length - len + 1);
                byte[] bases = new byte[len], q = new byte[len], ins = new byte[len], del = new byte[len],
                    gcp = new byte[len];
                for (int i = 0; i < len; i++) {
                    bases[i] = rnd.nextInt(50) == 0 ? acgt[rnd.nextInt(4)] : haps.get(r % nh)[start + i];
                    q[i] = (byte) (6 + rnd.nextInt(35));
                    ins[i] = (byte) (40 + rnd.nextInt(6));
                    del[i] = (byte) (40 + rnd.nextInt(6));
                    gcp[i] = 10;
                }
                reads.add(new Region.Read(bases, q, ins, del, gcp));
            }
            regions.add(new Region(reads, haps));
        }
        for (Precision precision : Precision.values()) {
            double[] want = singleMachine(regions, precision);
            // 60,000 cells per call: several calls per partition, some regions alone
            List<double[]> got = SparkPairHmm.likelihoods(jsc.parallelize(regions, 4), precision, null, 60_000)
                .collect();
            assertSame(want, got, regions);
        }
    }
}
