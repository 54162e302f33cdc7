package org.dpaccel.spark;

/** The seven counts of a pair straight from .bed codes: the Spark tests' independent expectation. */
final class BedCounts {
    private BedCounts() {
    }

    /**
     * NSNP, IBS0, IBS1, IBS2, HETHET, HET1_HOM2, HET2_HOM1 of samples (i, j) over {@code variants}.
     *
     * @param bed the whole .bed file, magic included
     * @param rowBytes bytes per variant row
     * @param variants the rows to count (the autosomal ones)
     */
    static long[] of(byte[] bed, int rowBytes, int[] variants, int i, int j) {
        long[] c = new long[7];
        for (int v : variants) {
            int at = 3 + v * rowBytes;
            int x = (bed[at + i / 4] >> (2 * (i % 4))) & 3, y = (bed[at + j / 4] >> (2 * (j % 4))) & 3;
            if (x == 1 || y == 1) {
                continue;
            }
            c[0]++;
            c[x == y ? 3 : (x == 2 || y == 2) ? 2 : 1]++;
            c[4] += x == 2 && y == 2 ? 1 : 0;
            c[5] += x == 2 && y != 2 ? 1 : 0;
            c[6] += x != 2 && y == 2 ? 1 : 0;
        }
        return c;
    }
}
