package org.dpaccel.distance;

/**
 * A rectangle of sample pairs: rows {@code [row0, row1)} x columns {@code [col0, col1)}, row-major
 * in the output, with the row sample as "sample 1" (HET1_HOM2 = row het, column hom). Rows and
 * columns may overlap; a pair of a sample with itself gives its own counts.
 *
 * @param row0 first row
 * @param row1 one past the last row
 * @param col0 first column
 * @param col1 one past the last column
 */
public record DistanceTile(int row0, int row1, int col0, int col1) {
    /**
     * Checks the ranges are ordered and not negative (the batch bounds are checked at compute).
     *
     * @param row0 first row
     * @param row1 one past the last row
     * @param col0 first column
     * @param col1 one past the last column
     * @throws IllegalArgumentException naming the range
     */
    public DistanceTile {
        if (row0 < 0 || row0 > row1) {
            throw new IllegalArgumentException("tile rows [" + row0 + ", " + row1 + ") must have 0 <= row0 <= row1");
        }
        if (col0 < 0 || col0 > col1) {
            throw new IllegalArgumentException("tile columns [" + col0 + ", " + col1 + ") must have 0 <= col0 <= col1");
        }
    }

    /**
     * Pairs in the tile.
     *
     * @return rows x columns
     */
    public long pairs() {
        return (long) (row1 - row0) * (col1 - col0);
    }
}
