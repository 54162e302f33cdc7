package org.dpaccel.spark;

import java.io.IOException;

import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.Path;
import org.apache.parquet.example.data.Group;
import org.apache.parquet.example.data.simple.SimpleGroupFactory;
import org.apache.parquet.hadoop.ParquetFileWriter;
import org.apache.parquet.hadoop.ParquetWriter;
import org.apache.parquet.hadoop.example.ExampleParquetWriter;
import org.apache.parquet.hadoop.metadata.CompressionCodecName;
import org.apache.parquet.hadoop.util.HadoopStreams;
import org.apache.parquet.io.OutputFile;
import org.apache.parquet.io.PositionOutputStream;
import org.apache.parquet.schema.MessageType;
import org.apache.parquet.schema.MessageTypeParser;
import org.dpaccel.distance.DistanceCounts;

/**
 * A tile's pairs as a Parquet file ({@code --format parquet}): one row per kept pair i &lt; j,
 * i outer, with the counts.tsv columns plus the 0-based sample indexes. Files sit in Hive-style
 * partition folders {@code tile=BI-BJ}, so Spark, pandas/pyarrow or DuckDB read the folder as
 * one table ({@code spark.read().parquet(OUT.parquet)}) and can skip tiles by name.
 */
final class DistanceParquet {
    /** Counts are unsigned 32-bit in the library: int64 columns keep every value exact. */
    static final MessageType SCHEMA = MessageTypeParser.parseMessageType("message dpaccel_distance_counts {"
        + " required binary IID1 (STRING); required binary IID2 (STRING);"
        + " required int32 I; required int32 J;"
        + " required int64 NSNP; required int64 IBS0; required int64 IBS1; required int64 IBS2;"
        + " required int64 HETHET; required int64 HET1_HOM2; required int64 HET2_HOM1; }");

    /** The count columns in DistanceCounts field order (NSNP first). */
    static final String[] COUNTS = {"NSNP", "IBS0", "IBS1", "IBS2", "HETHET", "HET1_HOM2", "HET2_HOM1"};

    private DistanceParquet() {
    }

    static void write(DistancePlan p, DistanceCounts c, Configuration conf, Path file, int bi, int bj, int la,
        int cols, int colStart, int a0, int[] lines) throws IOException {
        SimpleGroupFactory rows = new SimpleGroupFactory(SCHEMA);
        try (ParquetWriter<Group> w = ExampleParquetWriter.builder(outputFile(file, conf)).withConf(conf).withType(SCHEMA)
            .withWriteMode(ParquetFileWriter.Mode.OVERWRITE).withCompressionCodec(CompressionCodecName.SNAPPY)
            .build()) {
            DistanceTiles.forEachPair(p, c, bi, bj, la, cols, colStart, a0, lines, (i, j, pair) -> {
                Group g = rows.newGroup().append("IID1", p.iids[i]).append("IID2", p.iids[j]).append("I", i)
                    .append("J", j);
                for (int f = 0; f < COUNTS.length; f++) {
                    g.append(COUNTS[f], c.get(pair, f));
                }
                w.write(g);
            });
        }
    }

    /** The file on the raw local file system (HadoopFiles), so no .crc side file is left behind. */
    private static OutputFile outputFile(Path file, Configuration conf) throws IOException {
        org.apache.hadoop.fs.FileSystem fs = HadoopFiles.of(file, conf);
        return new OutputFile() {
            @Override
            public PositionOutputStream create(long blockSizeHint) throws IOException {
                return HadoopStreams.wrap(fs.create(file, false));
            }

            @Override
            public PositionOutputStream createOrOverwrite(long blockSizeHint) throws IOException {
                return HadoopStreams.wrap(fs.create(file, true));
            }

            @Override
            public boolean supportsBlockSize() {
                return false;
            }

            @Override
            public long defaultBlockSize() {
                return 0;
            }
        };
    }
}
