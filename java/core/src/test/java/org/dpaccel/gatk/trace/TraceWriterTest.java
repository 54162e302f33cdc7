package org.dpaccel.gatk.trace;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;

import java.nio.file.Files;
import java.nio.file.Path;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The writer never writes what the reader would refuse: calls beyond the format's limits (a
 * likelihood array of the wrong size, a CIGAR past writeUTF's 64 KiB, reads whose quality arrays
 * do not match their bases) are counted in the End record and left out, and the records around
 * them read back intact; abandon() leaves no file.
 */
class TraceWriterTest {
    @TempDir
    Path dir;

    @Test
    void callsBeyondTheLimitsAreCountedNotWritten() throws Exception {
        Path f = dir.resolve("t.dpatrace");
        byte[][] read = { "ACGT".getBytes(), { 30, 30, 30, 30 }, { 45, 45, 45, 45 }, { 45, 45, 45, 45 },
            { 10, 10, 10, 10 } };
        byte[][] shortQuals = { "ACGT".getBytes(), { 30, 30 }, { 45, 45, 45, 45 }, { 45, 45, 45, 45 },
            { 10, 10, 10, 10 } };
        byte[][] hap = { "ACGTAC".getBytes() };
        TraceWriter w = new TraceWriter(f, "test");
        w.write(new TraceRecord.PairHmm(1, 0, 5, new byte[][][] { read }, hap, new double[] { -1.25 }));
        w.write(new TraceRecord.PairHmm(1, 1, 5, new byte[][][] { read }, hap, new double[] { -1, -2 }));
        w.write(new TraceRecord.PairHmm(1, 2, 5, new byte[][][] { shortQuals }, hap, new double[] { -1 }));
        w.write(new TraceRecord.Sw(1, 3, 5, hap[0], read[0], new int[] { 1, -1, -2, -1 }, 0, "9".repeat(70000), 0));
        w.write(new TraceRecord.Sw(1, 4, 5, hap[0], read[0], new int[] { 1, -1, -2, -1 }, 1, "4M", 2));
        assertFalse(Files.exists(f), "complete only when closed");
        w.close("dpaccel", "gkl");
        try (TraceReader r = TraceReader.open(f)) {
            TraceRecord.PairHmm p = (TraceRecord.PairHmm) r.next();
            assertArrayEquals(new double[] { -1.25 }, p.out());
            assertArrayEquals(read[1], p.reads()[0][1]);
            TraceRecord.Sw s = (TraceRecord.Sw) r.next();
            assertEquals("4M", s.cigar());
            assertEquals(2, s.offset());
            TraceRecord.End e = (TraceRecord.End) r.next();
            assertEquals(3, e.skipped());
            assertEquals("gkl", e.swEngine());
            assertNull(r.next());
        }
    }

    @Test
    void abandonLeavesNoFile() throws Exception {
        Path f = dir.resolve("a.dpatrace");
        TraceWriter w = new TraceWriter(f, "test");
        w.abandon();
        try (var s = Files.list(dir)) {
            assertEquals(0, s.count());
        }
    }
}
