package org.dpaccel.spark;

import java.io.Closeable;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;

/**
 * A tsv part read by the merge: whole lines copied to the merged file as bytes. Decoding each
 * line to a String and encoding it again made the merge two thirds of a 20,000-sample job
 * (docs/BENCHMARKS.md, "Spark local mode, session 23").
 */
final class PartLines implements Closeable {
    private final InputStream in;
    private final String name;
    private final byte[] buf = new byte[1 << 16];
    private int pos;
    private int end;

    PartLines(InputStream in, String name) {
        this.in = in;
        this.name = name;
    }

    /** Copies the next {@code lines} lines, each with its '\n'. */
    void copy(int lines, OutputStream out) throws IOException {
        while (lines > 0) {
            if (pos == end) {
                int n = in.read(buf, 0, buf.length);
                if (n <= 0) {
                    throw new IOException(name + ": shorter than its task reported");
                }
                pos = 0;
                end = n;
            }
            int start = pos;
            while (pos < end && lines > 0) {
                if (buf[pos++] == '\n') {
                    lines--;
                }
            }
            out.write(buf, start, pos - start);
        }
    }

    @Override
    public void close() throws IOException {
        in.close();
    }
}
