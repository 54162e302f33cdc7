package org.dpaccel.spark;

import java.util.ArrayList;
import java.util.List;

import org.apache.spark.api.java.JavaRDD;
import org.apache.spark.api.java.function.MapPartitionsFunction;
import org.apache.spark.sql.Dataset;
import org.apache.spark.sql.Encoder;
import org.apache.spark.sql.Encoders;
import org.dpaccel.Backend;
import org.dpaccel.pairhmm.PairHmm;
import org.dpaccel.pairhmm.PairHmmBatch;
import org.dpaccel.pairhmm.Precision;

/**
 * PairHMM likelihoods of an RDD of regions on the executors: each partition is cut into batches
 * of whole regions (up to {@code maxCells} read x haplotype cells, at least one region), each
 * batch is one library call on the executor's context ({@link ExecutorContext}), and the results
 * come back one array per region in the input's order (partitions and elements keep their order).
 * The same for a typed {@code Dataset<Region>} ({@link #likelihoods(Dataset)}; Java-serialized
 * elements, {@link #REGIONS} and {@link #LIKELIHOODS} are the encoders).
 */
public final class SparkPairHmm {
    /** Default cells per library call: large enough to fill a GPU, small enough for memory. */
    public static final long DEFAULT_MAX_CELLS = 1L << 28;

    private SparkPairHmm() {
    }

    /**
     * Log10 likelihoods per region, float then double below GATK's threshold (GATK's semantics),
     * on the executors' configured backend.
     *
     * @param regions the regions
     * @return one array per region, read-major, same order as {@code regions}
     */
    public static JavaRDD<double[]> likelihoods(JavaRDD<Region> regions) {
        return likelihoods(regions, Precision.FLOAT_THEN_DOUBLE, null, DEFAULT_MAX_CELLS);
    }

    /**
     * Log10 likelihoods per region.
     *
     * @param regions the regions
     * @param precision float then double, or double only
     * @param backend where to run, null for the executor context's backend
     * @param maxCells cells per library call (a region larger than this goes alone)
     * @return one array per region, read-major, same order as {@code regions}
     * @throws IllegalArgumentException if {@code maxCells} is below 1
     */
    public static JavaRDD<double[]> likelihoods(JavaRDD<Region> regions, Precision precision, Backend backend,
        long maxCells) {
        checkMaxCells(maxCells);
        return regions.mapPartitions(it -> new PartitionBatches<Region, double[]>(it, SparkPairHmm::cells,
            batch -> compute(batch, precision, backend), maxCells), true);
    }

    /** The encoder of a {@code Dataset<Region>} (Java serialization: Region is a class of lists and byte arrays). */
    public static final Encoder<Region> REGIONS = Encoders.javaSerialization(Region.class);
    /** The encoder of the likelihoods, one {@code double[]} per region. */
    public static final Encoder<double[]> LIKELIHOODS = Encoders.javaSerialization(double[].class);

    /**
     * Log10 likelihoods per region of a typed Dataset, as {@link #likelihoods(JavaRDD)}.
     *
     * @param regions the regions (encoder {@link #REGIONS})
     * @return one array per region, read-major, same order as {@code regions} (encoder {@link #LIKELIHOODS})
     */
    public static Dataset<double[]> likelihoods(Dataset<Region> regions) {
        return likelihoods(regions, Precision.FLOAT_THEN_DOUBLE, null, DEFAULT_MAX_CELLS);
    }

    /**
     * Log10 likelihoods per region of a typed Dataset, as
     * {@link #likelihoods(JavaRDD, Precision, Backend, long)}: the same batches, one library call
     * each, results in the input's order.
     *
     * @param regions the regions (encoder {@link #REGIONS})
     * @param precision float then double, or double only
     * @param backend where to run, null for the executor context's backend
     * @param maxCells cells per library call (a region larger than this goes alone)
     * @return one array per region, read-major, same order as {@code regions}
     * @throws IllegalArgumentException if {@code maxCells} is below 1
     */
    public static Dataset<double[]> likelihoods(Dataset<Region> regions, Precision precision, Backend backend,
        long maxCells) {
        checkMaxCells(maxCells);
        return regions.mapPartitions((MapPartitionsFunction<Region, double[]>) it -> new PartitionBatches<Region,
            double[]>(it, SparkPairHmm::cells, batch -> compute(batch, precision, backend), maxCells), LIKELIHOODS);
    }

    private static void checkMaxCells(long maxCells) {
        if (maxCells < 1) {
            throw new IllegalArgumentException("maxCells = " + maxCells + ": must be at least 1");
        }
    }

    static long cells(Region r) {
        long rb = 0, hb = 0;
        for (Region.Read read : r.reads()) {
            rb += read.bases().length;
        }
        for (byte[] h : r.haplotypes()) {
            hb += h.length;
        }
        return rb * hb;
    }

    /** One library call for the batch's regions (one group each); one array per region. */
    private static List<double[]> compute(List<Region> batch, Precision precision, Backend backend) {
        PairHmmBatch.Builder b = PairHmmBatch.builder();
        for (Region r : batch) {
            for (Region.Read read : r.reads()) {
                b.addRead(read.bases(), read.quals(), read.insertionGop(), read.deletionGop(), read.gcp());
            }
            for (byte[] h : r.haplotypes()) {
                b.addHaplotype(h);
            }
            b.endGroup();
        }
        double[] all = PairHmm.compute(ExecutorContext.get(), b.build(), precision, backend);
        List<double[]> out = new ArrayList<>(batch.size());
        int at = 0;
        for (Region r : batch) {
            double[] mine = new double[r.resultCount()];
            System.arraycopy(all, at, mine, 0, mine.length);
            at += mine.length;
            out.add(mine);
        }
        return out;
    }
}
