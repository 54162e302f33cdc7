package org.dpaccel.spark;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;

import org.apache.spark.api.java.JavaSparkContext;
import org.dpaccel.Config;
import org.dpaccel.DpaContext;
import org.dpaccel.sw.SmithWaterman;
import org.dpaccel.sw.SwAlignment;
import org.dpaccel.sw.SwBatch;
import org.dpaccel.sw.SwOverhang;
import org.dpaccel.sw.SwParameters;
import org.dpaccel.sw.SwResults;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * Smith-Waterman on partitions in local mode: hand-derived alignments, and generated pairs whose
 * alignments equal the Java API's on one machine, in input order across partitions and batches.
 */
class SparkSmithWatermanTest {
    static JavaSparkContext jsc;

    @BeforeAll
    static void setUp() {
        jsc = LocalSpark.start("SparkSmithWatermanTest");
    }

    @AfterAll
    static void tearDown() {
        if (jsc != null) {
            jsc.stop();
        }
    }

    private static byte[] b(String s) {
        return s.getBytes(StandardCharsets.US_ASCII);
    }

    @Test
    void handDerivedAlignments() {
        List<SparkSmithWaterman.Pair> pairs = List.of(new SparkSmithWaterman.Pair(b("ACGTACGTAC"), b("ACGTACGTAC")),
            new SparkSmithWaterman.Pair(b("TTTTACGTACGGGG"), b("ACGTAC")));
        List<SwAlignment> got = SparkSmithWaterman.align(jsc.parallelize(pairs, 2),
            SwParameters.ORIGINAL_DEFAULT, SwOverhang.SOFTCLIP).collect();
        assertEquals(new SwAlignment("10M", 0), got.get(0));
        assertEquals(new SwAlignment("6M", 4), got.get(1));
    }

    @Test
    void generatedPairsEqualTheJavaApiInOrder() {
        long seed = System.nanoTime();
        System.err.println("SparkSmithWatermanTest seed " + seed);
        Random rnd = new Random(seed);
        byte[] acgt = b("ACGT");
        List<SparkSmithWaterman.Pair> pairs = new ArrayList<>();
        SwBatch.Builder one = SwBatch.builder();
        for (int k = 0; k < 300; k++) {
            byte[] ref = new byte[50 + rnd.nextInt(400)];
            for (int i = 0; i < ref.length; i++) {
                ref[i] = acgt[rnd.nextInt(4)];
            }
            int len = 10 + rnd.nextInt(Math.min(150, ref.length - 10));
            int start = rnd.nextInt(ref.length - len + 1);
            StringBuilder alt = new StringBuilder();
            for (int i = start; i < start + len; i++) {
                int r = rnd.nextInt(100);
                if (r < 3) {
                    alt.append((char) acgt[rnd.nextInt(4)]); // substitution
                } else if (r < 4) {
                    continue; // deletion
                } else if (r < 5) {
                    alt.append((char) acgt[rnd.nextInt(4)]).append((char) ref[i]); // insertion
                } else {
                    alt.append((char) ref[i]);
                }
            }
            pairs.add(new SparkSmithWaterman.Pair(ref, b(alt.toString())));
            one.add(ref, b(alt.toString()));
        }
        SwResults want;
        try (DpaContext ctx = DpaContext.create(Config.builder().threads(2).build())) {
            want = SmithWaterman.align(ctx, one.build(), SwParameters.READ_TO_HAPLOTYPE, SwOverhang.SOFTCLIP);
        }
        // 20,000 cells per call: many batches per partition
        List<SwAlignment> got = SparkSmithWaterman.align(jsc.parallelize(pairs, 7),
            SwParameters.READ_TO_HAPLOTYPE, SwOverhang.SOFTCLIP, null, 20_000).collect();
        // and as a typed Dataset
        org.apache.spark.sql.SparkSession spark = org.apache.spark.sql.SparkSession.builder().sparkContext(jsc.sc())
            .getOrCreate();
        List<SwAlignment> typed = SparkSmithWaterman.align(spark.createDataset(jsc.parallelize(pairs, 5).rdd(),
            SparkSmithWaterman.PAIRS), SwParameters.READ_TO_HAPLOTYPE, SwOverhang.SOFTCLIP, null, 20_000)
            .collectAsList();
        assertEquals(pairs.size(), got.size());
        assertEquals(pairs.size(), typed.size());
        for (int i = 0; i < got.size(); i++) {
            assertEquals(want.get(i), got.get(i),
                "pair " + i + " (seed " + seed + ")");
            assertEquals(want.get(i), typed.get(i), "Dataset, pair " + i + " (seed " + seed + ")");
        }
    }
}
