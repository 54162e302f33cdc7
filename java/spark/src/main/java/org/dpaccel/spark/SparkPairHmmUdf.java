package org.dpaccel.spark;

import java.nio.charset.StandardCharsets;

import org.apache.spark.sql.SparkSession;
import org.apache.spark.sql.api.java.UDF6;
import org.apache.spark.sql.types.DataTypes;
import org.dpaccel.pairhmm.PairHmm;
import org.dpaccel.pairhmm.PairHmmBatch;

/**
 * PairHMM as a Spark SQL function, for ad-hoc queries:
 * {@code dpaccel_pairhmm(haplotype, read, quals, ins, del, gcp)} returns the log10 likelihood
 * (DOUBLE) of one read against one haplotype, GATK's float-then-double semantics, on the
 * executor's context. Bases are strings; the four quality columns are phred+33 strings, as in SAM
 * (QUAL, and GATK's BI / BD tags). A NULL argument gives NULL; a bad value (a quality below 0 or
 * above 127, lengths that differ) fails the query with the library's message naming the field.
 * Each row is one library call: for whole regions use {@link SparkPairHmm} (one call per batch
 * of regions, which is what fills a GPU).
 */
public final class SparkPairHmmUdf {
    /** The function's name in SQL. */
    public static final String NAME = "dpaccel_pairhmm";

    private SparkPairHmmUdf() {
    }

    /**
     * Registers {@value #NAME} on a session.
     *
     * @param spark the session
     */
    public static void register(SparkSession spark) {
        spark.udf().register(NAME, (UDF6<String, String, String, String, String, String, Double>)
            SparkPairHmmUdf::likelihood, DataTypes.DoubleType);
    }

    /**
     * One pair's log10 likelihood on the executor's context.
     *
     * @param haplotype haplotype bases
     * @param read read bases
     * @param quals base qualities, phred+33
     * @param ins insertion gap-open qualities, phred+33
     * @param del deletion gap-open qualities, phred+33
     * @param gcp gap continuation qualities, phred+33
     * @return the log10 likelihood, or null when an argument is null
     */
    public static Double likelihood(String haplotype, String read, String quals, String ins, String del,
        String gcp) {
        if (haplotype == null || read == null || quals == null || ins == null || del == null || gcp == null) {
            return null;
        }
        PairHmmBatch b = PairHmmBatch.builder()
            .addRead(read.getBytes(StandardCharsets.US_ASCII), phred33("quals", quals), phred33("ins", ins),
                phred33("del", del), phred33("gcp", gcp))
            .addHaplotype(haplotype.getBytes(StandardCharsets.US_ASCII)).build();
        return PairHmm.compute(ExecutorContext.get(), b)[0];
    }

    private static byte[] phred33(String column, String s) {
        byte[] b = s.getBytes(StandardCharsets.US_ASCII);
        for (int i = 0; i < b.length; i++) {
            int q = (s.charAt(i) & 0xffff) - 33;
            if (q < 0 || q > 127) {
                throw new IllegalArgumentException(NAME + ": " + column + "[" + i + "] = '" + s.charAt(i)
                    + "' is not a phred+33 quality 0..127");
            }
            b[i] = (byte) q;
        }
        return b;
    }
}
