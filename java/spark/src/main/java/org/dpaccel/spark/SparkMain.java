package org.dpaccel.spark;

import java.io.BufferedWriter;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.Callable;

import org.apache.spark.SparkConf;
import org.apache.spark.api.java.JavaSparkContext;

import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/**
 * {@code dpaccel-spark}, the class spark-submit runs (docs/spark.md): {@code distance} and
 * {@code pairhmm} on a cluster or in local mode. Exit status 0 on success, 1 for a failed job or
 * I/O error, 2 for bad input or options (the message names the file, line or option).
 */
@Command(name = "dpaccel-spark", mixinStandardHelpOptions = true, subcommands = {SparkMain.Distance.class,
    SparkMain.PairHmmVectors.class}, description = "dpaccel workloads over Spark executors (docs/spark.md)")
public final class SparkMain implements Callable<Integer> {
    @Option(names = "--master", paramLabel = "URL",
        description = "Spark master (local[N], yarn, k8s://..., spark://...); default: spark-submit's, else local[*]")
    String master;

    private final PrintStream err;

    private SparkMain(PrintStream err) {
        this.err = err;
    }

    @Override
    public Integer call() {
        CommandLine.usage(this, err);
        return 2;
    }

    /**
     * Runs a command.
     *
     * @param args the command line
     */
    public static void main(String[] args) {
        System.exit(run(args, System.err));
    }

    static int run(String[] args, PrintStream err) {
        CommandLine cl = new CommandLine(new SparkMain(err));
        cl.setErr(new java.io.PrintWriter(err, true));
        cl.setExecutionExceptionHandler((e, cmd, parsed) -> {
            boolean badInput = e instanceof IllegalArgumentException
                || e.getClass().getSimpleName().equals("BadInputException");
            err.println("dpaccel-spark: " + (e.getMessage() != null ? e.getMessage() : e.toString()));
            return badInput ? 2 : 1;
        });
        return cl.execute(args);
    }

    JavaSparkContext spark(String app) {
        SparkConf conf = new SparkConf().setAppName(app);
        if (master != null) {
            conf.setMaster(master);
        } else if (!conf.contains("spark.master")) {
            conf.setMaster("local[*]");
        }
        return new JavaSparkContext(conf);
    }

    @Command(name = "distance", mixinStandardHelpOptions = true,
        description = {"All-pairs genotype distance counts of a PLINK 1 fileset as upper-triangle tiles over the "
            + "executors; OUT.counts.tsv equals `dpaccel distance --counts` (filtered with --min-kinship).",
            "Writes OUT.parts/tile-BI-BJ.tsv per tile, then OUT.counts.tsv and OUT.id unless --no-merge; with "
                + "--format parquet, OUT.parquet/tile=BI-BJ/part-0.parquet (one table, the counts.tsv columns plus "
                + "the 0-based indexes I and J) and OUT.id."})
    static final class Distance implements Callable<Integer> {
        @CommandLine.ParentCommand
        SparkMain top;

        @CommandLine.ArgGroup(exclusive = true, multiplicity = "1")
        Input input;

        static final class Input {
            @Option(names = "--bfile", paramLabel = "PREFIX",
                description = "PLINK 1 fileset, at the same path on the driver and every executor")
            String bfile;

            @Option(names = "--vcf", paramLabel = "FILE",
                description = "VCF (plain, gzip, bgzip; GT only, biallelic), read on the driver and broadcast")
            String vcf;
        }

        @Option(names = "--out", paramLabel = "OUT", required = true, description = "output prefix")
        String out;

        @Option(names = "--tile", paramLabel = "T", defaultValue = "1024",
            description = "samples per block; one task per pair of blocks (default 1024)")
        int tile;

        @Option(names = "--min-kinship", paramLabel = "X",
            description = "keep only pairs whose KING-robust kinship is >= X (default: all pairs)")
        Double minKinship;

        @Option(names = "--no-merge", description = "leave the result as OUT.parts/ only")
        boolean noMerge;

        @Option(names = "--format", paramLabel = "tsv|parquet", defaultValue = "tsv",
            description = "tsv: OUT.counts.tsv (default); parquet: OUT.parquet/, partitioned by tile")
        String format;

        @Option(names = "--overwrite", description = "replace an existing result")
        boolean overwrite;

        @Option(names = "--broadcast-max", paramLabel = "BYTES", defaultValue = "67108864",
            description = "broadcast the .bed body up to this size, else tasks read byte ranges (default 64 MiB)")
        long broadcastMax;

        @Override
        public Integer call() throws IOException {
            if (tile < 1) {
                throw new IllegalArgumentException("--tile " + tile + ": must be at least 1");
            }
            SparkDistance.Options o = new SparkDistance.Options();
            o.bfile = input.bfile;
            o.vcf = input.vcf;
            o.out = out;
            o.tile = tile;
            o.minKinship = minKinship == null ? Double.NaN : minKinship;
            o.merge = !noMerge;
            if (!format.equals("tsv") && !format.equals("parquet")) {
                throw new IllegalArgumentException("--format " + format + ": must be tsv or parquet");
            }
            o.parquet = format.equals("parquet");
            o.overwrite = overwrite;
            o.broadcastMaxBytes = broadcastMax;
            long t0 = System.nanoTime();
            try (JavaSparkContext jsc = top.spark("dpaccel-spark distance")) {
                SparkDistance.Summary s = SparkDistance.run(jsc, o);
                top.err.printf(Locale.ROOT, "distance: %d samples, %d variants used, tiles=%d, %d pairs written, "
                    + "%s; %.1f s in all (prepare %.1f, tiles %.1f, merge %.1f)%n", s.samples(), s.variantsUsed(),
                    s.tiles(), s.pairsWritten(), s.broadcast() ? "broadcast" : "byte-range reads",
                    (System.nanoTime() - t0) / 1e9, s.prepareSeconds(), s.tilesSeconds(), s.mergeSeconds());
            }
            return 0;
        }
    }

    @Command(name = "pairhmm", mixinStandardHelpOptions = true,
        description = "PairHMM log10 likelihoods of a vectors file (test-data/pairhmm/*.tsv: group, haplotype, read, "
            + "quals, ins, del, gcp[, expected]) on the executors; OUT has one line per input row: its first 7 "
            + "columns and the likelihood (%.16e).")
    static final class PairHmmVectors implements Callable<Integer> {
        @CommandLine.ParentCommand
        SparkMain top;

        @Option(names = "--vectors", paramLabel = "FILE", required = true, description = "vectors file")
        Path vectors;

        @Option(names = "--out", paramLabel = "OUT", required = true, description = "output file (local)")
        Path out;

        @Option(names = "--partitions", paramLabel = "P", defaultValue = "0",
            description = "partitions (default: Spark's default parallelism)")
        int partitions;

        @Override
        public Integer call() throws IOException {
            if (Files.exists(out)) {
                throw new IllegalArgumentException(out + " already exists");
            }
            List<String> rows = new ArrayList<>();
            List<Region> regions = Vectors.read(vectors, rows);
            try (JavaSparkContext jsc = top.spark("dpaccel-spark pairhmm")) {
                int p = partitions > 0 ? partitions : jsc.defaultParallelism();
                List<double[]> got = SparkPairHmm.likelihoods(jsc.parallelize(regions, p)).collect();
                Path tmp = out.resolveSibling("." + out.getFileName() + ".tmp");
                try (BufferedWriter w = Files.newBufferedWriter(tmp, StandardCharsets.UTF_8)) {
                    for (int i = 0; i < rows.size(); i++) {
                        w.write(rows.get(i));
                        w.write('\t');
                        w.write(String.format(Locale.ROOT, "%.16e", got.get(i)[0]));
                        w.write('\n');
                    }
                } catch (IOException | RuntimeException e) {
                    Files.deleteIfExists(tmp);
                    throw e;
                }
                Files.move(tmp, out, StandardCopyOption.ATOMIC_MOVE);
                top.err.println("pairhmm: " + rows.size() + " pairs, " + p + " partitions");
            }
            return 0;
        }
    }
}
