package org.dpaccel.spark;

import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;

import org.apache.spark.api.java.JavaRDD;
import org.dpaccel.Backend;
import org.dpaccel.pairhmm.PairHmm;
import org.dpaccel.pairhmm.PairHmmBatch;
import org.dpaccel.pairhmm.Precision;

/**
 * PairHMM likelihoods of an RDD of regions on the executors: each partition is cut into batches
 * of whole regions (up to {@code maxCells} read x haplotype cells, at least one region), each
 * batch is one library call on the executor's context ({@link ExecutorContext}), and the results
 * come back one array per region in the input's order (partitions and elements keep their order).
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
        if (maxCells < 1) {
            throw new IllegalArgumentException("maxCells = " + maxCells + ": must be at least 1");
        }
        return regions.mapPartitions(it -> new Batches(it, precision, backend, maxCells), true);
    }

    /** Batches a partition lazily: one library call per batch, results handed out per region. */
    private static final class Batches implements Iterator<double[]> {
        private final Iterator<Region> in;
        private final Precision precision;
        private final Backend backend;
        private final long maxCells;
        private final List<double[]> ready = new ArrayList<>();
        private int next;
        private Region pending;

        Batches(Iterator<Region> in, Precision precision, Backend backend, long maxCells) {
            this.in = in;
            this.precision = precision;
            this.backend = backend;
            this.maxCells = maxCells;
        }

        @Override
        public boolean hasNext() {
            if (next < ready.size()) {
                return true;
            }
            ready.clear();
            next = 0;
            List<Region> batch = new ArrayList<>();
            long cells = 0;
            while (pending != null || in.hasNext()) {
                Region r = pending != null ? pending : in.next();
                pending = null;
                long c = cells(r);
                if (!batch.isEmpty() && cells + c > maxCells) {
                    pending = r;
                    break;
                }
                batch.add(r);
                cells += c;
            }
            if (batch.isEmpty()) {
                return false;
            }
            compute(batch);
            return true;
        }

        @Override
        public double[] next() {
            if (!hasNext()) {
                throw new java.util.NoSuchElementException();
            }
            return ready.get(next++);
        }

        private static long cells(Region r) {
            long rb = 0, hb = 0;
            for (Region.Read read : r.reads()) {
                rb += read.bases().length;
            }
            for (byte[] h : r.haplotypes()) {
                hb += h.length;
            }
            return rb * hb;
        }

        private void compute(List<Region> batch) {
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
            int at = 0;
            for (Region r : batch) {
                double[] mine = new double[r.resultCount()];
                System.arraycopy(all, at, mine, 0, mine.length);
                at += mine.length;
                ready.add(mine);
            }
        }
    }
}
