package org.dpaccel.spark;

import java.io.IOException;
import java.io.OutputStreamWriter;
import java.io.Writer;
import java.nio.charset.StandardCharsets;

import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;
import org.apache.spark.TaskContext;
import org.dpaccel.distance.DistanceCounts;
import org.dpaccel.distance.DistanceMetric;
import org.dpaccel.distance.DistanceTile;
import org.dpaccel.distance.GenotypeBatch;
import org.dpaccel.distance.GenotypeDistance;

/**
 * The executor side of the distance job: one upper-triangle tile (block bi x block bj, bi <= bj)
 * counted by the library's tile call on the executor's context, its pairs i &lt; j written as
 * counts.tsv lines (i outer) to the tile's part file, or as rows of a Parquet file
 * ({@link DistanceParquet}). The part is written under an attempt name
 * and renamed, so a retried or speculative task replaces it with the same bytes and a reader
 * never sees half a part.
 */
final class DistanceTiles {
    private DistanceTiles() {
    }

    /** Lines the tile wrote per row of block bi (the merge needs them to interleave tiles). */
    record Result(int bi, int bj, int[] linesPerRow, long pairs) implements java.io.Serializable {
    }

    static Result run(DistancePlan p, Configuration conf, int bi, int bj) throws IOException {
        int a0 = p.blockStart(bi), a1 = p.blockEnd(bi);
        int b0 = bi == bj ? 0 : p.blockStart(bj), b1 = bi == bj ? 0 : p.blockEnd(bj);
        GenotypeBatch batch = BedSlices.read(p, conf, a0, a1, b0, b1);
        int la = a1 - a0;
        int c0 = bi == bj ? 0 : la, c1 = bi == bj ? la : la + (b1 - b0);
        // A diagonal tile asks for its block's triangle: the square would count every pair twice.
        DistanceCounts c = bi == bj ? GenotypeDistance.counts(ExecutorContext.get(), batch)
            : GenotypeDistance.counts(ExecutorContext.get(), batch, new DistanceTile(0, la, c0, c1), null, 0);
        int cols = c1 - c0;
        int colStart = bi == bj ? a0 : b0;
        int[] lines = new int[la];
        long pairs = 0;
        Path dir = new Path(p.partsDir);
        FileSystem fs = HadoopFiles.of(dir, conf);
        TaskContext tc = TaskContext.get();
        Path tmp = new Path(dir, "_attempt-" + bi + "-" + bj + "-" + (tc != null ? tc.taskAttemptId() : 0));
        Path part = new Path(dir, p.partName(bi, bj));
        try {
            writePart(p, c, conf, fs, tmp, bi, bj, la, cols, colStart, a0, lines);
        } catch (IOException | RuntimeException e) {
            // a failed attempt (I/O error, killed executor thread) leaves no half part behind; the
            // retry writes its own attempt file
            try {
                fs.delete(tmp, false);
            } catch (IOException again) {
                e.addSuppressed(again);
            }
            throw e;
        }
        for (int n : lines) {
            pairs += n;
        }
        if (fs.exists(part)) {
            fs.delete(part, false); // an earlier attempt's identical bytes
        }
        fs.mkdirs(part.getParent()); // a Parquet part's partition folder
        if (!fs.rename(tmp, part)) {
            throw new IOException("cannot rename " + tmp + " to " + part);
        }
        return new Result(bi, bj, lines, pairs);
    }

    /** Receives the tile's kept pairs, i outer: global sample indexes and the pair's counts index. */
    interface PairSink {
        void pair(int i, int j, long pair) throws IOException;
    }

    /** Visits the tile's pairs i &lt; j, i outer, that pass the kinship filter; counts them per row. */
    static void forEachPair(DistancePlan p, DistanceCounts c, int bi, int bj, int la, int cols, int colStart, int a0,
        int[] lines, PairSink sink) throws IOException {
        for (int r = 0; r < la; r++) {
            int i = a0 + r;
            for (int k = bi == bj ? r + 1 : 0; k < cols; k++) {
                long pair = bi == bj ? DistanceCounts.triangleIndex(la, r, k) : (long) r * cols + k;
                if (!Double.isNaN(p.minKinship)
                    && !(DistanceMetric.KING.value(c, pair, c.variantsUsed()) >= p.minKinship)) {
                    continue;
                }
                sink.pair(i, colStart + k, pair);
                lines[r]++;
            }
        }
    }

    private static void writePart(DistancePlan p, DistanceCounts c, Configuration conf, FileSystem fs, Path tmp,
        int bi, int bj, int la, int cols, int colStart, int a0, int[] lines) throws IOException {
        if (p.parquet) {
            DistanceParquet.write(p, c, conf, tmp, bi, bj, la, cols, colStart, a0, lines);
            return;
        }
        try (Writer w = new OutputStreamWriter(fs.create(tmp, true), StandardCharsets.UTF_8)) {
            StringBuilder sb = new StringBuilder(1 << 16);
            forEachPair(p, c, bi, bj, la, cols, colStart, a0, lines, (i, j, pair) -> {
                sb.append(p.iids[i]).append('\t').append(p.iids[j]);
                for (int f = 0; f < DistanceCounts.FIELDS; f++) {
                    sb.append('\t').append(c.get(pair, f));
                }
                sb.append('\n');
                if (sb.length() > (1 << 16) - 512) {
                    w.append(sb);
                    sb.setLength(0);
                }
            });
            w.append(sb);
        }
    }
}
