package org.dpaccel.gatk.trace;

import java.io.BufferedOutputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.time.Duration;
import java.time.Instant;
import java.util.zip.GZIPOutputStream;

/**
 * Writes a trace (format: {@link TraceFormat}). Thread-safe: each record is written whole under
 * the writer's lock, on the caller's thread. The file appears under its name only at
 * {@link #close}, so a trace that exists is complete; until then it is {@code NAME.partial}.
 */
public final class TraceWriter implements AutoCloseable {
    private final Path path;
    private final Path partial;
    private final DataOutputStream out;
    private final long t0 = System.nanoTime();
    private long traceNanos;
    private long skipped;
    private boolean closed;

    /**
     * Opens {@code path}'s partial file and writes the header.
     *
     * @param path where the finished trace goes
     * @param origin who wrote it (versions, engine, processors), for the replay's report
     * @throws IOException if the file cannot be created
     */
    public TraceWriter(Path path, String origin) throws IOException {
        this.path = path;
        this.partial = path.resolveSibling(path.getFileName() + ".partial");
        OutputStream f = Files.newOutputStream(partial);
        DataOutputStream d = null;
        try {
            d = new DataOutputStream(new BufferedOutputStream(new GZIPOutputStream(f, 1 << 16), 1 << 16));
            d.write(TraceFormat.MAGIC);
            d.writeInt(TraceFormat.VERSION);
            d.writeUTF(origin.length() > 1000 ? origin.substring(0, 1000) : origin);
        } catch (IOException | RuntimeException e) {
            (d != null ? d : f).close();
            Files.deleteIfExists(partial);
            throw e;
        }
        out = d;
    }

    /**
     * Closes the file and deletes it: the recording is given up (a write error).
     */
    public synchronized void abandon() {
        if (closed) {
            return;
        }
        closed = true;
        try {
            out.close();
        } catch (IOException e) {
            // giving up anyway
        }
        try {
            Files.deleteIfExists(partial);
        } catch (IOException e) {
            // nothing more to do
        }
    }

    private static boolean fits(byte[] b) {
        return b != null && b.length <= TraceFormat.MAX_ARRAY;
    }

    /**
     * Nanoseconds since the trace opened, for a record's {@code at}.
     *
     * @param nanoTime a {@code System.nanoTime()} value
     * @return the offset
     */
    public long at(long nanoTime) {
        return nanoTime - t0;
    }

    /**
     * Records a PairHMM initialize.
     *
     * @param r the record
     * @throws IOException on a write error
     */
    public synchronized void write(TraceRecord.PairHmmInit r) throws IOException {
        long s = System.nanoTime();
        check();
        if (r.maxThreads() < 1 || r.gklClass().length() > TraceFormat.MAX_UTF / 3) {
            skipped++; // beyond the format's limits: counted in the End record, not written
            return;
        }
        out.writeByte(TraceFormat.PAIRHMM_INIT);
        out.writeLong(r.thread());
        out.writeLong(r.at());
        out.writeUTF(r.gklClass());
        out.writeInt(r.maxThreads());
        out.writeBoolean(r.doublePrecision());
        traceNanos += System.nanoTime() - s;
    }

    /**
     * Records a computeLikelihoods call.
     *
     * @param r the record
     * @throws IOException on a write error
     */
    public synchronized void write(TraceRecord.PairHmm r) throws IOException {
        long s = System.nanoTime();
        check();
        // validated before the kind byte, so a call the reader would refuse never half-writes
        long rb = groupBytes(r.reads(), 5), hb = 0;
        boolean ok = rb >= 0 && r.haps().length <= TraceFormat.MAX_COUNT
            && r.out().length == (long) r.reads().length * r.haps().length
            && r.out().length <= TraceFormat.MAX_RESULTS;
        for (int h = 0; ok && h < r.haps().length; h++) {
            ok = fits(r.haps()[h]);
            hb += ok ? r.haps()[h].length : 0;
        }
        if (!ok || rb + hb > TraceFormat.MAX_RECORD_BYTES) {
            skipped++; // beyond the format's limits: counted in the End record, not written
            traceNanos += System.nanoTime() - s;
            return;
        }
        out.writeByte(TraceFormat.PAIRHMM);
        out.writeLong(r.thread());
        out.writeLong(r.at());
        out.writeLong(r.nanos());
        out.writeInt(r.reads().length);
        out.writeInt(r.haps().length);
        for (byte[][] read : r.reads()) {
            for (int k = 0; k < 5; k++) {
                bytes(read[k]);
            }
        }
        for (byte[] h : r.haps()) {
            bytes(h);
        }
        for (double d : r.out()) {
            out.writeDouble(d);
        }
        traceNanos += System.nanoTime() - s;
    }

    /**
     * Records a Smith-Waterman align call.
     *
     * @param r the record
     * @throws IOException on a write error
     */
    public synchronized void write(TraceRecord.Sw r) throws IOException {
        long s = System.nanoTime();
        check();
        if (!fits(r.ref()) || !fits(r.alt()) || r.cigar() == null || r.scores().length != 4 || r.overhang() < 0
            || r.overhang() > 3 || r.cigar().length() > TraceFormat.MAX_UTF / 3
            || (long) r.ref().length + r.alt().length > TraceFormat.MAX_RECORD_BYTES) {
            skipped++; // beyond the format's limits: counted in the End record, not written
            traceNanos += System.nanoTime() - s;
            return;
        }
        out.writeByte(TraceFormat.SW);
        out.writeLong(r.thread());
        out.writeLong(r.at());
        out.writeLong(r.nanos());
        bytes(r.ref());
        bytes(r.alt());
        for (int k = 0; k < 4; k++) {
            out.writeInt(r.scores()[k]);
        }
        out.writeByte(r.overhang());
        out.writeUTF(r.cigar());
        out.writeInt(r.offset());
        traceNanos += System.nanoTime() - s;
    }

    /**
     * Records an IntelPDHMM computeLikelihoods call.
     *
     * @param r the record
     * @throws IOException on a write error
     */
    public synchronized void write(TraceRecord.Pdhmm r) throws IOException {
        long s = System.nanoTime();
        check();
        int rows = java.util.Arrays.asList(TraceRecord.Pdhmm.CARRIED_ROWS).indexOf(r.carriedRows());
        long rb = groupBytes(r.reads(), 5), hb = groupBytes(r.haps(), 2);
        if (rb < 0 || hb < 0 || rb + hb > TraceFormat.MAX_RECORD_BYTES || rows < 0 || r.batch() < 1 || r.lanes() < 0
            || r.out().length != (long) r.reads().length * r.haps().length
            || r.out().length > TraceFormat.MAX_RESULTS) {
            skipped++; // beyond the format's limits: counted in the End record, not written
            traceNanos += System.nanoTime() - s;
            return;
        }
        out.writeByte(TraceFormat.PDHMM);
        out.writeLong(r.thread());
        out.writeLong(r.at());
        out.writeLong(r.nanos());
        out.writeInt(r.batch());
        out.writeInt(r.lanes());
        out.writeByte(rows);
        out.writeInt(r.reads().length);
        out.writeInt(r.haps().length);
        for (byte[][] g : r.reads()) {
            for (byte[] a : g) {
                bytes(a);
            }
        }
        for (byte[][] g : r.haps()) {
            for (byte[] a : g) {
                bytes(a);
            }
        }
        for (double d : r.out()) {
            out.writeDouble(d);
        }
        traceNanos += System.nanoTime() - s;
    }

    /**
     * The bytes of {@code groups} (each {@code per} arrays of one length, as a read's bases and
     * qualities), or -1 when they break the format's limits.
     */
    private static long groupBytes(byte[][][] groups, int per) {
        if (groups.length > TraceFormat.MAX_COUNT) {
            return -1;
        }
        long bytes = 0;
        for (byte[][] g : groups) {
            if (g == null || g.length != per) {
                return -1;
            }
            for (byte[] a : g) {
                if (!fits(a) || a.length != g[0].length) {
                    return -1;
                }
                bytes += a.length;
            }
        }
        return bytes;
    }

    private void bytes(byte[] b) throws IOException {
        out.writeInt(b.length);
        out.write(b);
    }

    private void check() throws IOException {
        if (closed) {
            throw new IOException("trace " + path + " is closed");
        }
    }

    /**
     * Finishes the trace with engines "unknown" (see {@link #close(String, String)}).
     *
     * @throws IOException on a write error (the partial file stays, named so)
     */
    @Override
    public void close() throws IOException {
        close("unknown", "unknown");
    }

    /**
     * Writes the End record (the process's wall time so far, the engines that served the calls)
     * and moves the file to its name.
     *
     * @param pairHmmEngine the PairHMM engine: "dpaccel", "gkl" or "none"
     * @param swEngine the Smith-Waterman engine: "dpaccel", "gkl" or "none"
     * @throws IOException on a write error (the partial file stays, named so)
     */
    public synchronized void close(String pairHmmEngine, String swEngine) throws IOException {
        if (closed) {
            return;
        }
        closed = true;
        long processNanos = ProcessHandle.current().info().startInstant()
            .map(st -> Duration.between(st, Instant.now()).toNanos()).orElse(System.nanoTime() - t0);
        out.writeByte(TraceFormat.END);
        out.writeLong(System.nanoTime() - t0);
        out.writeLong(processNanos);
        out.writeLong(traceNanos);
        out.writeUTF(pairHmmEngine);
        out.writeUTF(swEngine);
        out.writeLong(skipped);
        out.close();
        Files.move(partial, path, StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
    }
}
