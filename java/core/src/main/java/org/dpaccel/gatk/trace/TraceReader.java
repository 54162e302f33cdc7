package org.dpaccel.gatk.trace;

import java.io.BufferedInputStream;
import java.io.DataInputStream;
import java.io.EOFException;
import java.io.IOException;
import java.io.InputStream;
import java.io.UTFDataFormatException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.zip.GZIPInputStream;
import java.util.zip.ZipException;

/**
 * Reads a trace (format: {@link TraceFormat}) record by record. Every problem is a
 * {@link TraceFormatException} naming the source, the record number (1-based) and the field;
 * sizes are checked against the format's limits before anything is allocated.
 */
public final class TraceReader implements AutoCloseable {
    private final String source;
    private final DataInputStream in;
    private final String origin;
    private long index;
    private boolean ended;
    private int version;
    private String field = "header";

    /**
     * Opens a trace file and reads its header.
     *
     * @param path the file
     * @return the reader
     * @throws IOException if the file cannot be read or is not a trace
     */
    public static TraceReader open(Path path) throws IOException {
        return new TraceReader(path.toString(), Files.newInputStream(path));
    }

    /**
     * Reads a trace from a stream (gzip, as the writer makes it) and its header.
     *
     * @param source the name errors give
     * @param raw the gzip stream; closed by {@link #close}
     * @throws IOException if it is not a trace
     */
    public TraceReader(String source, InputStream raw) throws IOException {
        this.source = source;
        DataInputStream d;
        try {
            d = new DataInputStream(new BufferedInputStream(new GZIPInputStream(raw, 1 << 16), 1 << 16));
        } catch (ZipException | EOFException e) {
            raw.close();
            throw new TraceFormatException(source + ": not a dpaccel trace (not a gzip stream: " + e.getMessage()
                + ")", e);
        }
        in = d;
        try {
            byte[] magic = new byte[TraceFormat.MAGIC.length];
            in.readFully(magic);
            if (!Arrays.equals(magic, TraceFormat.MAGIC)) {
                throw new TraceFormatException(source + ": not a dpaccel trace (no DPATRACE header)");
            }
            field = "version";
            int v = in.readInt();
            if (v < TraceFormat.FIRST_VERSION || v > TraceFormat.VERSION) {
                throw new TraceFormatException(source + ": trace format version " + v + "; this dpaccel reads "
                    + TraceFormat.FIRST_VERSION + " to " + TraceFormat.VERSION);
            }
            version = v;
            field = "origin";
            origin = in.readUTF();
        } catch (TraceFormatException e) {
            in.close();
            throw e;
        } catch (IOException e) {
            in.close();
            throw wrap(e);
        }
    }

    /**
     * Who wrote the trace.
     *
     * @return the writer's origin line
     */
    public String origin() {
        return origin;
    }

    /**
     * The next record.
     *
     * @return the record, or null after the End record
     * @throws IOException if the trace is damaged, truncated or has data after its End record
     */
    public TraceRecord next() throws IOException {
        if (ended) {
            return null;
        }
        index++;
        try {
            field = "kind";
            int kind = in.read();
            if (kind < 0) {
                throw new TraceFormatException(where() + ": the trace ends without its End record (the process"
                    + " that wrote it did not close it)");
            }
            switch (kind) {
                case TraceFormat.PAIRHMM_INIT:
                    return new TraceRecord.PairHmmInit(readLong("thread"), readLong("at"), readUtf("gklClass"),
                        readInt("maxThreads", 1, Integer.MAX_VALUE), readBoolean("doublePrecision"));
                case TraceFormat.PAIRHMM:
                    return pairHmm();
                case TraceFormat.SW:
                    return sw();
                case TraceFormat.PDHMM:
                    if (version < 2) {
                        throw new TraceFormatException(where() + ": a PDHMM record in a version " + version
                            + " trace");
                    }
                    return pdhmm();
                case TraceFormat.END:
                    TraceRecord.End e = new TraceRecord.End(readLong("at"), readLong("processNanos"),
                        readLong("traceNanos"), readUtf("pairHmmEngine"), readUtf("swEngine"),
                        readLong("skipped"));
                    ended = true;
                    field = "after End";
                    if (in.read() >= 0) {
                        throw new TraceFormatException(where() + ": data after the End record");
                    }
                    return e;
                default:
                    throw new TraceFormatException(where() + ": unknown record kind " + kind + " (1-5)");
            }
        } catch (TraceFormatException e) {
            throw e;
        } catch (IOException e) {
            throw wrap(e);
        }
    }

    private TraceRecord.PairHmm pairHmm() throws IOException {
        long thread = readLong("thread"), at = readLong("at"), nanos = readNanos();
        int[] n = counts();
        int nr = n[0], nh = n[1];
        long[] bytes = { 0 };
        byte[][][] reads = groups(nr, "read", new String[] { "bases", "quals", "insGop", "delGop", "gcp" }, bytes);
        byte[][] haps = new byte[nh][];
        for (int h = 0; h < nh; h++) {
            haps[h] = readBytes("haplotype " + h);
            bytes[0] += haps[h].length;
            recordBytes(bytes[0]);
        }
        double[] out = doubles(nr * nh);
        return new TraceRecord.PairHmm(thread, at, nanos, reads, haps, out);
    }

    private TraceRecord.Pdhmm pdhmm() throws IOException {
        long thread = readLong("thread"), at = readLong("at"), nanos = readNanos();
        int batch = readInt("batch", 1, Integer.MAX_VALUE), lanes = readInt("lanes", 0, 64);
        field = "carriedRows";
        int rows = in.readUnsignedByte();
        if (rows >= TraceRecord.Pdhmm.CARRIED_ROWS.length) {
            throw new TraceFormatException(where() + ": carried rows " + rows + " (0-"
                + (TraceRecord.Pdhmm.CARRIED_ROWS.length - 1) + ")");
        }
        int[] n = counts();
        int nr = n[0], nh = n[1];
        long[] bytes = { 0 };
        byte[][][] reads = groups(nr, "read", new String[] { "bases", "quals", "insGop", "delGop", "gcp" }, bytes);
        byte[][][] haps = groups(nh, "haplotype", new String[] { "bases", "pdBases" }, bytes);
        return new TraceRecord.Pdhmm(thread, at, nanos, batch, lanes, TraceRecord.Pdhmm.CARRIED_ROWS[rows], reads,
            haps, doubles(nr * nh));
    }

    /** The reads and haplotypes of a call, within the format's limits. */
    private int[] counts() throws IOException {
        int nr = readInt("reads", 0, TraceFormat.MAX_COUNT), nh = readInt("haps", 0, TraceFormat.MAX_COUNT);
        if ((long) nr * nh > TraceFormat.MAX_RESULTS) {
            throw new TraceFormatException(where() + ": " + nr + " reads x " + nh + " haplotypes exceed "
                + TraceFormat.MAX_RESULTS + " results");
        }
        return new int[] { nr, nh };
    }

    /** n groups of equally long byte arrays (a read's bases and qualities, a haplotype's two). */
    private byte[][][] groups(int n, String what, String[] names, long[] bytes) throws IOException {
        byte[][][] g = new byte[n][names.length][];
        for (int i = 0; i < n; i++) {
            for (int k = 0; k < names.length; k++) {
                g[i][k] = readBytes(what + " " + i + " " + names[k]);
                bytes[0] += g[i][k].length;
                if (g[i][k].length != g[i][0].length) {
                    throw new TraceFormatException(where() + ": " + g[i][k].length + " bytes, the " + what + "'s "
                        + names[0] + " " + g[i][0].length);
                }
            }
            recordBytes(bytes[0]);
        }
        return g;
    }

    /** n doubles, the array grown as they arrive: a damaged count must not allocate what the file does not hold. */
    private double[] doubles(int n) throws IOException {
        double[] out = new double[Math.min(n, 1 << 12)];
        field = "likelihoods";
        for (int i = 0; i < n; i++) {
            if (i == out.length) {
                out = Arrays.copyOf(out, (int) Math.min(n, 2L * out.length));
            }
            out[i] = in.readDouble();
        }
        return out;
    }

    private TraceRecord.Sw sw() throws IOException {
        long thread = readLong("thread"), at = readLong("at"), nanos = readNanos();
        byte[] ref = readBytes("ref"), alt = readBytes("alt");
        int[] scores = new int[4];
        String[] names = { "match", "mismatch", "open", "extend" };
        for (int k = 0; k < 4; k++) {
            scores[k] = readInt(names[k], Integer.MIN_VALUE, Integer.MAX_VALUE);
        }
        field = "overhang";
        int overhang = in.readUnsignedByte();
        if (overhang > 3) {
            throw new TraceFormatException(where() + ": overhang strategy " + overhang + " (0-3)");
        }
        return new TraceRecord.Sw(thread, at, nanos, ref, alt, scores, overhang, readUtf("cigar"),
            readInt("offset", Integer.MIN_VALUE, Integer.MAX_VALUE));
    }

    private void recordBytes(long bytes) throws TraceFormatException {
        if (bytes > TraceFormat.MAX_RECORD_BYTES) {
            throw new TraceFormatException(where() + ": the record's arrays exceed " + TraceFormat.MAX_RECORD_BYTES
                + " bytes");
        }
    }

    private long readNanos() throws IOException {
        long v = readLong("nanos");
        if (v < 0) {
            throw new TraceFormatException(where() + ": nanos = " + v + ", must be >= 0");
        }
        return v;
    }

    private long readLong(String f) throws IOException {
        field = f;
        return in.readLong();
    }

    private boolean readBoolean(String f) throws IOException {
        field = f;
        return in.readBoolean();
    }

    private String readUtf(String f) throws IOException {
        field = f;
        return in.readUTF();
    }

    private int readInt(String f, int min, int max) throws IOException {
        field = f;
        int v = in.readInt();
        if (v < min || v > max) {
            throw new TraceFormatException(where() + ": " + f + " = " + v + ", must be in [" + min + ", " + max + "]");
        }
        return v;
    }

    private byte[] readBytes(String f) throws IOException {
        int n = readInt(f + " length", 0, TraceFormat.MAX_ARRAY);
        byte[] b = new byte[n];
        in.readFully(b);
        return b;
    }

    private String where() {
        return source + ": record " + index + ", field " + field;
    }

    private TraceFormatException wrap(IOException e) {
        if (e instanceof EOFException) {
            return new TraceFormatException(where() + ": the trace ends inside this record (truncated)", e);
        }
        if (e instanceof UTFDataFormatException) {
            return new TraceFormatException(where() + ": not modified UTF-8 text", e);
        }
        return new TraceFormatException(where() + ": " + e.getMessage(), e);
    }

    @Override
    public void close() throws IOException {
        in.close();
    }
}
