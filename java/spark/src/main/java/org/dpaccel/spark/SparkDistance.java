package org.dpaccel.spark;

import java.io.BufferedOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.io.OutputStreamWriter;
import java.io.Writer;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;

import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FSDataInputStream;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;
import org.apache.spark.SerializableWritable;
import org.apache.spark.api.java.JavaSparkContext;
import org.apache.spark.broadcast.Broadcast;
import org.dpaccel.cli.BedFileset;
import org.dpaccel.cli.VcfGenotypes;

/**
 * All-pairs genotype distance counts of a PLINK 1 fileset as upper-triangle tiles over Spark
 * executors (docs/spark.md). The driver reads the .fam and .bim (the single-machine command's
 * reader), cuts the samples into blocks of {@code tile}, and runs one task per tile bi &lt;= bj;
 * each task reads its two blocks' rows of the .bed (broadcast when small, else by byte range)
 * and writes its pairs i &lt; j to {@code OUT.parts/tile-bi-bj.tsv}. The merge writes
 * {@code OUT.counts.tsv}, the same bytes as {@code dpaccel distance --counts} (with a kinship
 * filter: its lines whose KING-robust kinship is at least the bound), and {@code OUT.id}. With
 * {@link Options#parquet} the tiles are Parquet files in {@code OUT.parquet/tile=bi-bj/} (one
 * table; no merge) and {@code OUT.id} is written beside it.
 */
public final class SparkDistance {
    private SparkDistance() {
    }

    /** Job options; {@link #bfile} and {@link #out} are required. */
    public static final class Options {
        /** PLINK 1 fileset prefix, on storage every executor sees at the same path. */
        public String bfile;
        /** Or a VCF (plain, gzip, bgzip), read on the driver and broadcast as .bed rows. */
        public String vcf;
        /** Output prefix (a local path, or a Hadoop URI such as hdfs://...). */
        public String out;
        /** Samples per block (tile side), at least 1. */
        public int tile = 1024;
        /** Keep only pairs with KING-robust kinship at least this; NaN keeps all. */
        public double minKinship = Double.NaN;
        /** Write OUT.counts.tsv (tsv parts) and OUT.id. */
        public boolean merge = true;
        /**
         * Write the pairs as Parquet, OUT.parquet/tile=BI-BJ/part-0.parquet (DistanceParquet), instead
         * of tsv parts merged into OUT.counts.tsv.
         */
        public boolean parquet;
        /** Replace an earlier result instead of refusing. */
        public boolean overwrite;
        /** Broadcast the .bed body when it is at most this many bytes; else range reads. */
        public long broadcastMaxBytes = 64L << 20;
        /** Rows up to this many bytes are read whole (tests set 0 to force per-block ranges). */
        int wholeRowBytes = BedSlices.WHOLE_ROW_BYTES;

        /** Defaults: tile 1024, all pairs, merge, 64 MiB broadcast limit. */
        public Options() {
        }
    }

    /**
     * What a run did.
     *
     * @param samples samples in the fileset
     * @param variantsUsed autosomal variants counted
     * @param tiles tasks (upper-triangle tiles)
     * @param pairsWritten lines in the parts (all pairs, or those passing the filter)
     * @param countsFile the merged file, or null without merge
     * @param partsDir the folder of part files
     * @param broadcast whether the .bed body was broadcast
     * @param prepareSeconds driver time before the tasks: .fam/.bim, .bed check, broadcast read
     * @param tilesSeconds the tile stage (tasks computing and writing parts)
     * @param mergeSeconds writing OUT.counts.tsv and OUT.id (0 without merge)
     */
    public record Summary(int samples, int variantsUsed, int tiles, long pairsWritten, String countsFile,
        String partsDir, boolean broadcast, double prepareSeconds, double tilesSeconds, double mergeSeconds) {
    }

    /**
     * Runs the job.
     *
     * @param jsc the Spark context
     * @param o the options
     * @return what was done
     * @throws IOException if a file cannot be read or written
     * @throws IllegalArgumentException for a bad option or an existing result without overwrite
     * @throws RuntimeException naming the file and line for a bad fileset (the command's messages)
     */
    public static Summary run(JavaSparkContext jsc, Options o) throws IOException {
        if ((o.bfile == null) == (o.vcf == null)) {
            throw new IllegalArgumentException("give exactly one input: bfile or vcf");
        }
        Objects.requireNonNull(o.out, "out");
        if (o.tile < 1) {
            throw new IllegalArgumentException("tile = " + o.tile + ": must be at least 1");
        }
        Configuration conf = jsc.hadoopConfiguration();
        Path counts = outPath(o.out + ".counts.tsv"), ids = outPath(o.out + ".id");
        Path parts = outPath(o.out + (o.parquet ? ".parquet" : ".parts"));
        FileSystem fs = HadoopFiles.of(parts, conf);
        for (Path p : o.parquet ? new Path[] {ids, parts} : new Path[] {counts, ids, parts}) {
            if (fs.exists(p)) {
                if (!o.overwrite) {
                    throw new IllegalArgumentException(p + " already exists (a result of an earlier run); "
                        + "remove it or pass --overwrite");
                }
                fs.delete(p, true);
            }
        }
        long t0 = System.nanoTime();
        List<String> fids, iids;
        byte[] use, body = null;
        int skipped;
        String bed = null;
        if (o.vcf != null) {
            VcfGenotypes v = VcfGenotypes.read(java.nio.file.Path.of(o.vcf));
            fids = iids = v.iids();
            use = v.use();
            skipped = v.skipped();
            body = v.rows();
        } else {
            BedFileset f = BedFileset.readLayout(o.bfile);
            fids = f.fids();
            iids = f.iids();
            use = f.use();
            skipped = f.skipped();
            bed = java.nio.file.Path.of(o.bfile + ".bed").toAbsolutePath().toUri().toString();
            long bodyBytes = (((long) iids.size() + 3) / 4) * use.length;
            if (bodyBytes <= o.broadcastMaxBytes && bodyBytes <= Integer.MAX_VALUE - 16) {
                body = new byte[(int) bodyBytes];
                Path bp = new Path(bed);
                try (FSDataInputStream in = HadoopFiles.of(bp, conf).open(bp)) {
                    in.readFully(3, body, 0, body.length);
                }
            }
        }
        int n = iids.size();
        int[] used = new int[use.length - skipped];
        for (int v = 0, u = 0; v < use.length; v++) {
            if (use[v] == 1) {
                used[u++] = v;
            }
        }
        fs.mkdirs(parts);
        DistancePlan plan = new DistancePlan(bed, n, use.length, used, iids.toArray(new String[0]), o.tile,
            o.minKinship, parts.toString(), body, o.wholeRowBytes, o.parquet);
        int k = plan.blocks();
        List<int[]> tiles = new ArrayList<>();
        for (int bi = 0; bi < k; bi++) {
            for (int bj = bi; bj < k; bj++) {
                tiles.add(new int[] {bi, bj});
            }
        }
        long t1 = System.nanoTime();
        Broadcast<DistancePlan> planB = jsc.broadcast(plan);
        Broadcast<SerializableWritable<Configuration>> confB = jsc.broadcast(new SerializableWritable<>(conf));
        List<DistanceTiles.Result> results = jsc.parallelize(tiles, tiles.size())
            .map(t -> DistanceTiles.run(planB.value(), confB.value().value(), t[0], t[1]))
            .collect();
        planB.destroy();
        confB.destroy();
        int[][][] lines = new int[k][k][];
        long pairs = 0;
        for (DistanceTiles.Result r : results) {
            lines[r.bi()][r.bj()] = r.linesPerRow();
            pairs += r.pairs();
        }
        fs.create(new Path(parts, "_SUCCESS"), true).close();
        long t2 = System.nanoTime();
        if (o.merge && !o.parquet) {
            merge(fs, plan, lines, counts);
        }
        if (o.merge) {
            writeIds(fs, fids, iids, ids);
        }
        long t3 = System.nanoTime();
        return new Summary(n, used.length, tiles.size(), pairs, o.merge && !o.parquet ? counts.toString() : null,
            parts.toString(), body != null, (t1 - t0) / 1e9, (t2 - t1) / 1e9, (t3 - t2) / 1e9);
    }

    /** A path without a scheme is a local file (not the cluster's default file system). */
    static Path outPath(String name) {
        if (name.contains("://") || name.startsWith("file:")) {
            return new Path(name);
        }
        return new Path(java.nio.file.Path.of(name).toAbsolutePath().toUri());
    }

    /**
     * Interleaves the parts into i-outer order: row i of block bi is its lines in tile (bi, bi),
     * then (bi, bi+1), ... Written under a temporary name, renamed when complete.
     */
    private static void merge(FileSystem fs, DistancePlan p, int[][][] lines, Path counts) throws IOException {
        Path tmp = new Path(counts.getParent(), "." + counts.getName() + ".tmp");
        int k = p.blocks();
        try (OutputStream w = new BufferedOutputStream(fs.create(tmp, true), 1 << 20)) {
            w.write("#IID1\tIID2\tNSNP\tIBS0\tIBS1\tIBS2\tHETHET\tHET1_HOM2\tHET2_HOM1\n"
                .getBytes(StandardCharsets.US_ASCII));
            for (int bi = 0; bi < k; bi++) {
                PartLines[] in = new PartLines[k];
                try {
                    for (int bj = bi; bj < k; bj++) {
                        in[bj] = new PartLines(fs.open(new Path(p.partsDir, p.partName(bi, bj))), p.partName(bi, bj));
                    }
                    int rows = p.blockEnd(bi) - p.blockStart(bi);
                    for (int r = 0; r < rows; r++) {
                        for (int bj = bi; bj < k; bj++) {
                            in[bj].copy(lines[bi][bj][r], w);
                        }
                    }
                } finally {
                    for (PartLines r : in) {
                        if (r != null) {
                            r.close();
                        }
                    }
                }
            }
        } catch (IOException | RuntimeException e) {
            fs.delete(tmp, false);
            throw e;
        }
        if (!fs.rename(tmp, counts)) {
            fs.delete(tmp, false);
            throw new IOException("cannot rename " + tmp + " to " + counts);
        }
    }

    private static void writeIds(FileSystem fs, List<String> fids, List<String> iids, Path ids) throws IOException {
        Path tmp = new Path(ids.getParent(), "." + ids.getName() + ".tmp");
        try (Writer w = new OutputStreamWriter(fs.create(tmp, true), StandardCharsets.UTF_8)) {
            for (int i = 0; i < iids.size(); i++) {
                w.write(fids.get(i) + "\t" + iids.get(i) + "\n");
            }
        }
        if (!fs.rename(tmp, ids)) {
            throw new IOException("cannot rename " + tmp + " to " + ids);
        }
    }
}
