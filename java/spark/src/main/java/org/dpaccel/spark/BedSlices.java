package org.dpaccel.spark;

import java.io.IOException;

import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FSDataInputStream;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;
import org.dpaccel.distance.GenotypeBatch;

/**
 * The genotypes of two sample blocks as one small batch: the used .bed rows, each holding block
 * A's samples then block B's (B empty for a diagonal tile), in .bed coding. Rows come from the
 * broadcast body or from the .bed by positioned reads (any Hadoop file system: file://, hdfs://,
 * s3a://...): whole rows in chunks when the blocks cover a good part of a row, else only the
 * blocks' byte ranges of each row.
 */
final class BedSlices {
    /** Chunk of whole rows read at once. */
    static final int CHUNK_BYTES = 4 << 20;
    /** Rows this short are read whole whatever the blocks cover (one read beats two tiny ones). */
    static final int WHOLE_ROW_BYTES = 4096;

    private BedSlices() {
    }

    static GenotypeBatch read(DistancePlan p, Configuration conf, int a0, int a1, int b0, int b1) throws IOException {
        int la = a1 - a0, lb = b1 - b0, n = la + lb;
        int rb = GenotypeBatch.rowBytes(n), m = p.usedRows.length;
        byte[] rows = new byte[Math.multiplyExact(m, rb)];
        if (p.body != null) {
            for (int u = 0; u < m; u++) {
                long src = (long) p.usedRows[u] * p.rowBytes;
                slice(p.body, Math.toIntExact(src), a0, a1, b0, b1, rows, u * rb);
            }
        } else {
            Path path = new Path(p.bed);
            try (FSDataInputStream in = HadoopFiles.of(path, conf).open(path)) {
                long needed = (long) spanBytes(a0, a1) + spanBytes(b0, b1);
                if (needed * 4 >= p.rowBytes && p.wholeRowBytes > 0 || p.rowBytes <= p.wholeRowBytes) {
                    readWholeRows(p, in, a0, a1, b0, b1, rows, rb);
                } else {
                    readRanges(p, in, a0, a1, b0, b1, rows, rb);
                }
            }
        }
        return GenotypeBatch.of(n, m, rows, null);
    }

    private static int spanBytes(int s0, int s1) {
        return s1 > s0 ? ((s1 + 3) >> 2) - (s0 >> 2) : 0;
    }

    private static void readWholeRows(DistancePlan p, FSDataInputStream in, int a0, int a1, int b0, int b1,
        byte[] rows, int rb) throws IOException {
        int per = Math.max(1, CHUNK_BYTES / p.rowBytes);
        byte[] buf = new byte[Math.multiplyExact(per, p.rowBytes)];
        int m = p.usedRows.length;
        for (int u = 0; u < m;) {
            // a run of used rows within one chunk of consecutive .bed rows
            int first = p.usedRows[u];
            int end = u;
            while (end < m && p.usedRows[end] - first < per) {
                end++;
            }
            int count = p.usedRows[end - 1] - first + 1;
            in.readFully(3 + (long) first * p.rowBytes, buf, 0, count * p.rowBytes);
            for (; u < end; u++) {
                slice(buf, (p.usedRows[u] - first) * p.rowBytes, a0, a1, b0, b1, rows, u * rb);
            }
        }
    }

    private static void readRanges(DistancePlan p, FSDataInputStream in, int a0, int a1, int b0, int b1,
        byte[] rows, int rb) throws IOException {
        int sa = spanBytes(a0, a1), sb = spanBytes(b0, b1);
        byte[] ba = new byte[sa], bb = new byte[sb];
        int la = a1 - a0;
        for (int u = 0; u < p.usedRows.length; u++) {
            long row = 3 + (long) p.usedRows[u] * p.rowBytes;
            in.readFully(row + (a0 >> 2), ba, 0, sa);
            copyCodes(ba, 0, a0 & 3, (a0 & 3) + la, rows, u * rb, 0);
            if (sb > 0) {
                in.readFully(row + (b0 >> 2), bb, 0, sb);
                copyCodes(bb, 0, b0 & 3, (b0 & 3) + (b1 - b0), rows, u * rb, la);
            }
        }
    }

    /** Samples [a0, a1) then [b0, b1) of the full row at {@code src} into the row at {@code dst}. */
    static void slice(byte[] srcBuf, int src, int a0, int a1, int b0, int b1, byte[] dstBuf, int dst) {
        copyCodes(srcBuf, src, a0, a1, dstBuf, dst, 0);
        if (b1 > b0) {
            copyCodes(srcBuf, src, b0, b1, dstBuf, dst, a1 - a0);
        }
    }

    /**
     * Copies the 2-bit codes of samples [s0, s1) of the row at {@code src} to samples from
     * {@code d0} of the row at {@code dst}, which must be zero there. Whole bytes when both
     * starts fall on a byte; the bits past s1 in the last byte are cleared, so a segment that
     * follows can be OR-ed in.
     */
    static void copyCodes(byte[] srcBuf, int src, int s0, int s1, byte[] dstBuf, int dst, int d0) {
        int len = s1 - s0;
        if (len <= 0) {
            return;
        }
        if ((s0 & 3) == 0 && (d0 & 3) == 0) {
            int bytes = (len + 3) >> 2;
            System.arraycopy(srcBuf, src + (s0 >> 2), dstBuf, dst + (d0 >> 2), bytes);
            if ((len & 3) != 0) {
                dstBuf[dst + (d0 >> 2) + bytes - 1] &= (byte) ((1 << (2 * (len & 3))) - 1);
            }
            return;
        }
        for (int k = 0; k < len; k++) {
            int s = s0 + k, d = d0 + k;
            int code = (srcBuf[src + (s >> 2)] >> ((s & 3) << 1)) & 3;
            dstBuf[dst + (d >> 2)] |= (byte) (code << ((d & 3) << 1));
        }
    }
}
