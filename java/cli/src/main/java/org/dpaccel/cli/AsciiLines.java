package org.dpaccel.cli;

import java.io.PrintStream;
import java.nio.charset.StandardCharsets;

/**
 * Builds large tab-separated text outputs as bytes: integers written digit by digit and
 * already-encoded names copied, flushed to the stream in 1 MB pieces. The distance command's
 * OUT.counts.tsv (two million lines of nine fields at 2,000 samples) took longer through
 * StringBuilder and PrintStream's per-call encoding than the counts themselves took to compute.
 */
final class AsciiLines {
    private final PrintStream out; // its errors surface in OutputFile.commit (checkError)
    private final byte[] buf = new byte[1 << 20];
    private int len;

    AsciiLines(PrintStream out) {
        this.out = out;
    }

    static byte[] encode(String s) {
        return s.getBytes(StandardCharsets.UTF_8);
    }

    private void room(int n) {
        if (len + n > buf.length) {
            flush();
        }
    }

    AsciiLines bytes(byte[] b) {
        if (b.length > buf.length) {
            flush();
            out.write(b, 0, b.length);
            return this;
        }
        room(b.length);
        System.arraycopy(b, 0, buf, len, b.length);
        len += b.length;
        return this;
    }

    /** b[from, from + n). */
    AsciiLines bytes(byte[] b, int from, int n) {
        if (n > buf.length) {
            flush();
            out.write(b, from, n);
            return this;
        }
        room(n);
        System.arraycopy(b, from, buf, len, n);
        len += n;
        return this;
    }

    AsciiLines ascii(String s) {
        return bytes(encode(s));
    }

    AsciiLines ch(char c) {
        room(1);
        buf[len++] = (byte) c;
        return this;
    }

    /** "00".."99", so a number is written two digits a step, right to left, in place. */
    private static final byte[] PAIRS = new byte[200];

    static {
        for (int k = 0; k < 100; k++) {
            PAIRS[2 * k] = (byte) ('0' + k / 10);
            PAIRS[2 * k + 1] = (byte) ('0' + k % 10);
        }
    }

    /** ASCII digits of k in the low bytes of text[k] (k < 10^8), and their count. */
    private long[] text = new long[0];
    private byte[] width = new byte[0];

    /**
     * Prepares the text of 0..max (at most 2^20 - 1) so that {@link #num} copies such a number's
     * bytes out of one table word: the counts file's two million lines of seven numbers cost
     * ~15 ns a number digit by digit. (Not a VarHandle store: a one-shot command runs much of
     * its text before C2 compiles it, and VarHandles are slow until then.)
     */
    AsciiLines numbersUpTo(long max) {
        int n = (int) Math.min(Math.max(max, 0), (1 << 20) - 1) + 1;
        text = new long[n];
        width = new byte[n];
        for (int k = 0; k < n; k++) {
            if (k < 10) {
                text[k] = '0' + k;
                width[k] = 1;
            } else {
                int w = width[k / 10];
                text[k] = text[k / 10] | (long) ('0' + k % 10) << (8 * w);
                width[k] = (byte) (w + 1);
            }
        }
        return this;
    }

    /** A non-negative long in decimal (the counts are unsigned 32-bit values). */
    AsciiLines num(long v) {
        if (v < text.length) {
            room(8);
            long t = text[(int) v];
            int w = width[(int) v];
            for (int k = 0; k < w; k++, t >>>= 8) {
                buf[len + k] = (byte) t;
            }
            len += w;
            return this;
        }
        room(20);
        int nd = 1;
        for (long p = 10; nd < 19 && v >= p; p *= 10) {
            nd++;
        }
        int k = len + nd;
        len = k;
        while (v >= 100) {
            int t = (int) (v % 100);
            v /= 100;
            buf[--k] = PAIRS[2 * t + 1];
            buf[--k] = PAIRS[2 * t];
        }
        if (v >= 10) {
            buf[--k] = PAIRS[2 * (int) v + 1];
            buf[--k] = PAIRS[2 * (int) v];
        } else {
            buf[--k] = (byte) ('0' + v);
        }
        return this;
    }

    /** {@code CFormat.g(v, precision)}'s text (precision 1..17), written in place. */
    AsciiLines g(double v, int precision) {
        room(CFormat.MAX_CHARS);
        len = CFormat.put(v, precision, buf, len);
        return this;
    }

    void flush() {
        out.write(buf, 0, len);
        len = 0;
    }
}
