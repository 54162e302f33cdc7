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

    /**
     * PDHMM records (format version 2) read back field for field; a bad one (a haplotype whose PD
     * bytes do not match its bases, an unknown carried-rows name) is counted, not written; a
     * version-1 trace still reads, and a PDHMM record inside one is refused.
     */
    @Test
    void pdhmmRecordsRoundTripAndVersionOneStillReads() throws Exception {
        Path f = dir.resolve("p.dpatrace");
        byte[][] read = { "ACGT".getBytes(), { 30, 30, 30, 30 }, { 45, 45, 45, 45 }, { 45, 45, 45, 45 },
            { 10, 10, 10, 10 } };
        byte[][] hap = { "ACGTAC".getBytes(), { 0, 17, 0, 2, 4, 0 } };
        byte[][] badHap = { "ACGTAC".getBytes(), { 0, 17 } };
        TraceWriter w = new TraceWriter(f, "test");
        w.write(new TraceRecord.Pdhmm(7, 1, 9, 100, 8, "GKL_SERIAL", new byte[][][] { read, read },
            new byte[][][] { hap }, new double[] { -2.5, -3.5 }));
        w.write(new TraceRecord.Pdhmm(7, 2, 9, 100, 8, "GKL_SERIAL", new byte[][][] { read },
            new byte[][][] { badHap }, new double[] { -1 }));
        w.write(new TraceRecord.Pdhmm(7, 3, 9, 100, 8, "ELSEWHERE", new byte[][][] { read },
            new byte[][][] { hap }, new double[] { -1 }));
        w.close("dpaccel", "dpaccel");
        try (TraceReader r = TraceReader.open(f)) {
            TraceRecord.Pdhmm p = (TraceRecord.Pdhmm) r.next();
            assertEquals(7, p.thread());
            assertEquals(100, p.batch());
            assertEquals(8, p.lanes());
            assertEquals("GKL_SERIAL", p.carriedRows());
            assertArrayEquals(hap[1], p.haps()[0][1]);
            assertArrayEquals(read[4], p.reads()[1][4]);
            assertArrayEquals(new double[] { -2.5, -3.5 }, p.out());
            assertEquals(2, ((TraceRecord.End) r.next()).skipped());
        }
        // version 1: the header's version field is at byte 8 of the gzip stream's content
        java.io.ByteArrayOutputStream raw = new java.io.ByteArrayOutputStream();
        try (java.io.InputStream in = new java.util.zip.GZIPInputStream(Files.newInputStream(f))) {
            in.transferTo(raw);
        }
        byte[] b = raw.toByteArray();
        assertEquals(2, b[11]);
        b[11] = 1;
        Path v1 = dir.resolve("v1.dpatrace");
        try (java.io.OutputStream out = new java.util.zip.GZIPOutputStream(Files.newOutputStream(v1))) {
            out.write(b);
        }
        try (TraceReader r = TraceReader.open(v1)) {
            TraceFormatException e = org.junit.jupiter.api.Assertions.assertThrows(TraceFormatException.class, r::next);
            org.junit.jupiter.api.Assertions.assertTrue(e.getMessage().contains("a PDHMM record in a version 1 trace"),
                e.getMessage());
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
