package org.dpaccel.spark;

import java.io.Serializable;
import java.util.List;

import org.apache.spark.api.java.JavaRDD;
import org.apache.spark.api.java.function.MapPartitionsFunction;
import org.apache.spark.sql.Dataset;
import org.apache.spark.sql.Encoder;
import org.apache.spark.sql.Encoders;
import org.dpaccel.Backend;
import org.dpaccel.sw.SmithWaterman;
import org.dpaccel.sw.SwAlignment;
import org.dpaccel.sw.SwBatch;
import org.dpaccel.sw.SwOverhang;
import org.dpaccel.sw.SwParameters;
import org.dpaccel.sw.SwResults;

/**
 * GATK Smith-Waterman (docs/sw.md) on the executors: each partition is cut into batches of
 * consecutive (reference, alternate) pairs of up to {@code maxCells} cells, each batch is one
 * library call on the executor's context, and the alignments ({@link SwAlignment}, the Java API's
 * own result type) come back in the input's order.
 */
public final class SparkSmithWaterman {
    /** Default cells per library call, as for PairHMM. */
    public static final long DEFAULT_MAX_CELLS = 1L << 28;

    private SparkSmithWaterman() {
    }

    /**
     * One pair to align: the alternate (read or haplotype) against the reference.
     */
    public static final class Pair implements Serializable {
        private static final long serialVersionUID = 1L;
        /** Reference bases. */
        private final byte[] ref;
        /** Alternate bases. */
        private final byte[] alt;

        /**
         * @param ref reference bases
         * @param alt alternate bases
         */
        public Pair(byte[] ref, byte[] alt) {
            this.ref = ref.clone();
            this.alt = alt.clone();
        }

        /** @return the reference bases (a copy) */
        public byte[] ref() {
            return ref.clone();
        }

        /** @return the alternate bases (a copy) */
        public byte[] alt() {
            return alt.clone();
        }
    }

    /**
     * Aligns every pair on the executors' configured backend.
     *
     * @param pairs the pairs
     * @param parameters match, mismatch, gap open and extend (GATK's sets are constants of
     *     {@link SwParameters})
     * @param overhang what happens to overhanging ends
     * @return one alignment per pair, same order as {@code pairs}
     */
    public static JavaRDD<SwAlignment> align(JavaRDD<Pair> pairs, SwParameters parameters, SwOverhang overhang) {
        return align(pairs, parameters, overhang, null, DEFAULT_MAX_CELLS);
    }

    /**
     * Aligns every pair.
     *
     * @param pairs the pairs
     * @param parameters the scores
     * @param overhang what happens to overhanging ends
     * @param backend where to run, null for the executor context's backend
     * @param maxCells cells per library call (a larger pair goes alone)
     * @return one alignment per pair, same order as {@code pairs}
     * @throws IllegalArgumentException if {@code maxCells} is below 1
     */
    public static JavaRDD<SwAlignment> align(JavaRDD<Pair> pairs, SwParameters parameters, SwOverhang overhang,
        Backend backend, long maxCells) {
        int[] s = scores(parameters, maxCells);
        return pairs.mapPartitions(it -> new PartitionBatches<Pair, SwAlignment>(it,
            p -> (long) p.ref.length * p.alt.length, batch -> compute(batch, s, overhang, backend), maxCells), true);
    }

    /** The encoder of a {@code Dataset<Pair>} (Java serialization). */
    public static final Encoder<Pair> PAIRS = Encoders.javaSerialization(Pair.class);
    /** The encoder of the alignments (Java serialization). */
    public static final Encoder<SwAlignment> ALIGNMENTS = Encoders.javaSerialization(SwAlignment.class);

    /**
     * Aligns every pair of a typed Dataset, as {@link #align(JavaRDD, SwParameters, SwOverhang, Backend, long)}.
     *
     * @param pairs the pairs (encoder {@link #PAIRS})
     * @param parameters the scores
     * @param overhang what happens to overhanging ends
     * @param backend where to run, null for the executor context's backend
     * @param maxCells cells per library call (a larger pair goes alone)
     * @return one alignment per pair, same order as {@code pairs} (encoder {@link #ALIGNMENTS})
     * @throws IllegalArgumentException if {@code maxCells} is below 1
     */
    public static Dataset<SwAlignment> align(Dataset<Pair> pairs, SwParameters parameters, SwOverhang overhang,
        Backend backend, long maxCells) {
        int[] s = scores(parameters, maxCells);
        return pairs.mapPartitions((MapPartitionsFunction<Pair, SwAlignment>) it -> new PartitionBatches<Pair,
            SwAlignment>(it, p -> (long) p.ref.length * p.alt.length, batch -> compute(batch, s, overhang, backend),
            maxCells), ALIGNMENTS);
    }

    /** SwParameters is not Serializable: a closure carries its four scores. */
    private static int[] scores(SwParameters parameters, long maxCells) {
        if (maxCells < 1) {
            throw new IllegalArgumentException("maxCells = " + maxCells + ": must be at least 1");
        }
        return new int[] {parameters.match(), parameters.mismatch(), parameters.gapOpen(), parameters.gapExtend()};
    }

    private static List<SwAlignment> compute(List<Pair> batch, int[] s, SwOverhang overhang, Backend backend) {
        SwBatch.Builder b = SwBatch.builder();
        for (Pair p : batch) {
            b.add(p.ref, p.alt);
        }
        SwResults r = SmithWaterman.align(ExecutorContext.get(), b.build(), new SwParameters(s[0], s[1], s[2], s[3]),
            overhang, backend);
        return List.of(r.toArray());
    }
}
