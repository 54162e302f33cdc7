package org.dpaccel.spark;

import java.io.Serializable;

/**
 * What every distance task needs, broadcast once: the fileset's shape, which .bed rows are used
 * (autosomal), the sample IDs for the output lines, the tile size, the filter and where the
 * parts go. {@code body} holds the whole .bed body when it was small enough to broadcast; null
 * means tasks read their rows from {@code bed} by byte range.
 */
final class DistancePlan implements Serializable {
    private static final long serialVersionUID = 1L;

    final String bed;
    final int samples;
    final int variants;
    final int rowBytes;
    final int[] usedRows;
    final String[] iids;
    final int tile;
    final double minKinship; // NaN: keep every pair
    final String partsDir;
    final byte[] body;
    final int wholeRowBytes;
    final boolean parquet; // parts are Parquet files (DistanceParquet), not counts.tsv lines

    DistancePlan(String bed, int samples, int variants, int[] usedRows, String[] iids, int tile,
        double minKinship, String partsDir, byte[] body, int wholeRowBytes, boolean parquet) {
        this.bed = bed;
        this.samples = samples;
        this.variants = variants;
        this.rowBytes = (int) (((long) samples + 3) / 4);
        this.usedRows = usedRows;
        this.iids = iids;
        this.tile = tile;
        this.minKinship = minKinship;
        this.partsDir = partsDir;
        this.body = body;
        this.wholeRowBytes = wholeRowBytes;
        this.parquet = parquet;
    }

    /** Blocks of {@code tile} samples; the last one may be shorter. */
    int blocks() {
        return (int) (((long) samples + tile - 1) / tile);
    }

    int blockStart(int b) {
        return (int) Math.min((long) b * tile, samples);
    }

    int blockEnd(int b) {
        return (int) Math.min((long) (b + 1) * tile, samples);
    }

    /** A tile's part: a file of the parts folder, or a Hive-style partition folder's one file. */
    String partName(int bi, int bj) {
        return parquet ? "tile=" + bi + "-" + bj + "/part-0.parquet" : "tile-" + bi + "-" + bj + ".tsv";
    }
}
