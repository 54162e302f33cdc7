package org.dpaccel.cli;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStream;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

import org.dpaccel.distance.GenotypeBatch;

/**
 * A PLINK 1 binary fileset read whole: PREFIX.fam (sample IDs), PREFIX.bim (chromosome per
 * variant: 1-22, with or without "chr", are used; X, Y, XY, MT, 23-26, 0 and any other contig are
 * skipped and counted, as PLINK skips non-autosomes), PREFIX.bed (magic 6c 1b 01, SNP-major;
 * size checked exactly). Every error names the file and the line or the expected and actual bytes.
 * Public for dpaccel-spark, whose driver reads the .fam/.bim and checks the .bed here
 * ({@link #readLayout}) while its executors read the .bed rows by byte range.
 */
public final class BedFileset {
    final List<String> fids = new ArrayList<>();
    final List<String> iids = new ArrayList<>();
    byte[] use;
    int skipped;
    GenotypeBatch batch;

    private BedFileset() {
    }

    static BedFileset read(String prefix) throws IOException {
        return read(prefix, true);
    }

    /**
     * Reads PREFIX.fam and PREFIX.bim and checks PREFIX.bed's magic, mode and exact size without
     * reading its rows ({@link #batch()} is null).
     *
     * @param prefix the fileset prefix
     * @return sample IDs, use flags and skipped count
     * @throws IOException if a file cannot be read
     * @throws RuntimeException (BadInputException) naming the file and line for bad input
     */
    public static BedFileset readLayout(String prefix) throws IOException {
        return read(prefix, false);
    }

    private static BedFileset read(String prefix, boolean rowsToo) throws IOException {
        BedFileset f = new BedFileset();
        Path fam = Path.of(prefix + ".fam"), bim = Path.of(prefix + ".bim"), bed = Path.of(prefix + ".bed");
        f.readFam(fam);
        f.use = f.readBim(bim);
        byte[] rows = readBed(bed, f.iids.size(), f.use.length, rowsToo);
        if (f.use.length - f.skipped == 0) {
            throw new BadInputException(bim + ": no autosomal variants (" + f.skipped + " skipped)");
        }
        f.batch = rows == null ? null : GenotypeBatch.of(f.iids.size(), f.use.length, rows, f.use);
        return f;
    }

    /** @return family IDs in .fam order */
    public List<String> fids() {
        return fids;
    }

    /** @return sample IDs in .fam order */
    public List<String> iids() {
        return iids;
    }

    /** @return one flag per .bim variant: 1 autosomal (used), 0 skipped */
    public byte[] use() {
        return use;
    }

    /** @return variants skipped as non-autosomal */
    public int skipped() {
        return skipped;
    }

    /** @return the genotypes, or null after {@link #readLayout} */
    public GenotypeBatch batch() {
        return batch;
    }

    /** The next line; bytes that are not UTF-8 are bad input at that line, not an I/O error. */
    private static String next(BufferedReader in, Path p, int lineNo) throws IOException {
        try {
            return in.readLine();
        } catch (CharacterCodingException e) {
            throw new BadInputException(p + " line " + lineNo + ": not UTF-8 text");
        }
    }

    private static InputStream openBytes(Path p) throws IOException {
        try {
            return Files.newInputStream(p);
        } catch (NoSuchFileException e) {
            throw new BadInputException(p + ": no such file");
        }
    }

    private static BufferedReader open(Path p) throws IOException {
        try {
            return Files.newBufferedReader(p, StandardCharsets.UTF_8);
        } catch (NoSuchFileException e) {
            throw new BadInputException(p + ": no such file");
        }
    }

    private void readFam(Path fam) throws IOException {
        try (BufferedReader in = open(fam)) {
            String line;
            int no = 0;
            while ((line = next(in, fam, no + 1)) != null) {
                no++;
                String[] f = fields(line);
                if (line.isBlank()) {
                    continue;
                }
                if (f.length != 6) {
                    throw new BadInputException(fam + " line " + no + ": " + f.length + " fields, a .fam line has 6");
                }
                fids.add(f[0]);
                iids.add(f[1]);
            }
        }
        if (iids.isEmpty()) {
            throw new BadInputException(fam + ": no samples");
        }
        if (iids.size() > GenotypeBatch.MAX_SAMPLES) {
            throw new BadInputException(fam + ": " + iids.size() + " samples, more than the limit "
                + GenotypeBatch.MAX_SAMPLES);
        }
    }

    /**
     * One flag per variant line. Parsed as bytes, not as decoded lines split by a regex: a .bim
     * has a line per variant (millions in a real panel) and only its first field matters here;
     * a line with a byte above 0x7f is decoded to check that it is UTF-8, as the other readers do.
     */
    private byte[] readBim(Path bim) throws IOException {
        byte[] flags = new byte[1 << 12];
        int count = 0;
        int no = 0;
        try (InputStream in = openBytes(bim)) {
            byte[] buf = new byte[1 << 20];
            byte[] line = new byte[256];
            int len = 0;
            boolean afterCr = false; // "\r\n" ends one line, as BufferedReader.readLine sees it
            for (int got; (got = in.read(buf)) > 0;) {
                int from = 0;
                for (int k = 0; k < got; k++) {
                    byte c = buf[k];
                    if (c != '\n' && c != '\r') {
                        continue;
                    }
                    boolean crlfTail = c == '\n' && afterCr && k == from && len == 0;
                    afterCr = c == '\r';
                    if (crlfTail) {
                        from = k + 1;
                        continue;
                    }
                    line = append(line, len, buf, from, k);
                    len += k - from;
                    from = k + 1;
                    int chrom = bimLine(bim, ++no, line, len);
                    len = 0;
                    if (chrom >= 0) {
                        if (count == flags.length) {
                            flags = Arrays.copyOf(flags, 2 * count);
                        }
                        flags[count++] = (byte) chrom;
                        skipped += 1 - chrom;
                    }
                }
                if (from < got) {
                    afterCr = false;
                }
                line = append(line, len, buf, from, got);
                len += got - from;
            }
            if (len > 0) {
                int chrom = bimLine(bim, ++no, line, len);
                if (chrom >= 0) {
                    flags = count == flags.length ? Arrays.copyOf(flags, count + 1) : flags;
                    flags[count++] = (byte) chrom;
                    skipped += 1 - chrom;
                }
            }
        }
        if (count == 0) {
            throw new BadInputException(bim + ": no variants");
        }
        return Arrays.copyOf(flags, count);
    }

    /** line with buf[from, to) appended after its first len bytes (grown when needed). */
    private static byte[] append(byte[] line, int len, byte[] buf, int from, int to) {
        if (len + to - from > line.length) {
            line = Arrays.copyOf(line, Math.max(2 * line.length, len + to - from));
        }
        System.arraycopy(buf, from, line, len, to - from);
        return line;
    }

    /** line.trim().split("\\s+") without a regex (its first use costs ~30 ms of class loading
     * and compiling in a one-shot command). */
    static String[] fields(String line) {
        List<String> f = new ArrayList<>(6);
        int n = line.length();
        int k = 0;
        while (k < n && line.charAt(k) <= ' ') {
            k++; // trim()
        }
        int end = n;
        while (end > k && line.charAt(end - 1) <= ' ') {
            end--;
        }
        if (k == end) {
            return new String[] {""};
        }
        while (k < end) {
            int start = k;
            while (k < end && !whitespace(line.charAt(k))) {
                k++;
            }
            f.add(line.substring(start, k));
            while (k < end && whitespace(line.charAt(k))) {
                k++;
            }
        }
        return f.toArray(new String[0]);
    }

    private static boolean whitespace(char c) {
        return c == ' ' || c == '\t' || c == '\n' || c == 0x0b || c == '\f' || c == '\r';
    }

    /** The separators of a .bim line: regex \\s without the line ends. */
    private static boolean space(byte b) {
        return b == ' ' || b == '\t' || b == 0x0b || b == '\f';
    }

    /** -1 for a blank line, else 1 (autosome) or 0; bad lines throw naming the file and line. */
    private static int bimLine(Path bim, int no, byte[] line, int len) {
        for (int k = 0; k < len; k++) {
            if (line[k] < 0) {
                try {
                    StandardCharsets.UTF_8.newDecoder().decode(ByteBuffer.wrap(line, 0, len));
                } catch (CharacterCodingException e) {
                    throw new BadInputException(bim + " line " + no + ": not UTF-8 text");
                }
                break;
            }
        }
        int fields = 0;
        int c0 = -1, c1 = -1;
        for (int k = 0; k < len;) {
            while (k < len && space(line[k])) {
                k++;
            }
            if (k == len) {
                break;
            }
            int start = k;
            while (k < len && !space(line[k])) {
                k++;
            }
            if (fields++ == 0) {
                c0 = start;
                c1 = k;
            }
        }
        if (fields == 0) {
            return -1;
        }
        if (fields != 6) {
            throw new BadInputException(bim + " line " + no + ": " + fields + " fields, a .bim line has 6");
        }
        return autosome(line, c0, c1) ? 1 : 0;
    }

    /** {@link #autosome(String)} on the bytes [from, to) of a line. */
    private static boolean autosome(byte[] b, int from, int to) {
        if (to - from >= 3 && (b[from] | 0x20) == 'c' && (b[from + 1] | 0x20) == 'h' && (b[from + 2] | 0x20) == 'r') {
            from += 3;
        }
        int n = to - from;
        if (n < 1 || n > 2) {
            return false;
        }
        int v = 0;
        for (int k = from; k < to; k++) {
            if (b[k] < '0' || b[k] > '9') {
                return false;
            }
            v = 10 * v + b[k] - '0';
        }
        return v >= 1 && v <= 22;
    }

    static boolean autosome(String chrom) {
        String c = chrom.regionMatches(true, 0, "chr", 0, 3) ? chrom.substring(3) : chrom;
        if (c.isEmpty() || c.length() > 2) {
            return false;
        }
        for (int k = 0; k < c.length(); k++) {
            if (c.charAt(k) < '0' || c.charAt(k) > '9') {
                return false;
            }
        }
        int n = Integer.parseInt(c);
        return n >= 1 && n <= 22;
    }

    private static byte[] readBed(Path bed, int samples, int variants, boolean rowsToo) throws IOException {
        long size;
        try {
            size = Files.size(bed);
        } catch (NoSuchFileException e) {
            throw new BadInputException(bed + ": no such file");
        }
        long expected = 3 + (long) variants * GenotypeBatch.rowBytes(samples);
        if (rowsToo && expected - 3 > Integer.MAX_VALUE - 16) {
            throw new BadInputException(bed + ": " + variants + " variants x " + samples + " samples need "
                + expected + " bytes, more than one call takes (2^31 - 16); split the variants");
        }
        byte[] head = new byte[3];
        try (var in = Files.newInputStream(bed)) {
            int got = in.readNBytes(head, 0, 3);
            if (got < 3 || head[0] != 0x6c || head[1] != 0x1b) {
                throw new BadInputException(bed + ": not a PLINK 1 .bed file (magic bytes 6c 1b expected)");
            }
            if (head[2] == 0x00) {
                throw new BadInputException(bed + ": sample-major .bed (mode byte 00) is not supported; "
                    + "rewrite it with plink --make-bed");
            }
            if (head[2] != 0x01) {
                throw new BadInputException(bed + String.format(": unknown .bed mode byte %02x (01 expected)",
                    head[2] & 0xff));
            }
            if (size != expected) {
                throw new BadInputException(bed + ": " + size + " bytes, expected " + expected + " (3 + "
                    + variants + " variants from the .bim x " + GenotypeBatch.rowBytes(samples)
                    + " bytes for " + samples + " samples from the .fam)");
            }
            if (!rowsToo) {
                return null;
            }
            byte[] rows = new byte[(int) (expected - 3)];
            // 1 MB reads through the channel: one large read into a heap array goes through a
            // temporary native buffer of the whole size (faulted in page by page each run)
            try (FileChannel ch = FileChannel.open(bed)) {
                ch.position(3);
                for (int at = 0; at < rows.length;) {
                    int n = ch.read(ByteBuffer.wrap(rows, at, Math.min(1 << 20, rows.length - at)));
                    if (n < 0) {
                        throw new BadInputException(bed + ": shorter than its size while reading");
                    }
                    at += n;
                }
            }
            return rows;
        }
    }
}
