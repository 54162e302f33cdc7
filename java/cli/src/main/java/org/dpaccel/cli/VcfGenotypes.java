package org.dpaccel.cli;

import java.io.BufferedInputStream;
import java.io.BufferedReader;
import java.io.EOFException;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.zip.GZIPInputStream;
import java.util.zip.ZipException;

import org.dpaccel.distance.GenotypeBatch;

/**
 * A VCF (plain or gzip/bgzip) read into .bed rows: the GT of each sample of each record, ALT
 * count 0 -> hom (11), 1 -> het (10), 2 -> hom (00), {@code ./.}, {@code .} and half-missing calls
 * -> missing (01); phased {@code |} is fine. Records on chromosomes other than 1-22 are skipped
 * and counted, and their calls not read (haploid X and Y calls need no checks). Errors name the
 * file and line: a record with the wrong column count, a multi-allelic record, a bad GT (with
 * the sample), no FORMAT/GT, no samples, no usable records. Public for dpaccel-spark, whose
 * driver reads a VCF here once and broadcasts its rows.
 */
public final class VcfGenotypes {
    final List<String> iids = new ArrayList<>();
    byte[] use;
    int skipped;
    GenotypeBatch batch;
    private byte[] rows;

    private VcfGenotypes() {
    }

    /**
     * Reads a VCF.
     *
     * @param vcf plain, gzip or bgzip
     * @return the samples, use flags and .bed rows
     * @throws IOException if the file cannot be read
     * @throws RuntimeException (BadInputException) naming the file, line and sample
     */
    public static VcfGenotypes read(Path vcf) throws IOException {
        VcfGenotypes r = new VcfGenotypes();
        try (BufferedReader in = open(vcf)) {
            r.parse(in, vcf.toString());
        }
        return r;
    }

    private static BufferedReader open(Path vcf) throws IOException {
        InputStream raw;
        try {
            raw = new BufferedInputStream(Files.newInputStream(vcf), 1 << 16);
        } catch (NoSuchFileException e) {
            throw new BadInputException(vcf + ": no such file");
        }
        raw.mark(2);
        int b0 = raw.read(), b1 = raw.read();
        raw.reset();
        // bgzip is gzip members back to back, which GZIPInputStream reads through
        InputStream in = raw;
        if (b0 == 0x1f && b1 == 0x8b) {
            try {
                in = new GZIPInputStream(raw, 1 << 16);
            } catch (ZipException | EOFException e) {
                raw.close();
                throw new BadInputException(vcf + ": damaged or truncated gzip header (" + e.getMessage() + ")");
            }
        }
        return new BufferedReader(new InputStreamReader(in, StandardCharsets.UTF_8), 1 << 16);
    }

    /** The next line; a damaged or cut gzip stream is bad input at that line, not an I/O error. */
    private static String next(BufferedReader in, String name, long lineNo) throws IOException {
        try {
            return in.readLine();
        } catch (ZipException | EOFException e) {
            throw new BadInputException(name + " line " + lineNo + ": damaged or truncated gzip data ("
                + e.getMessage() + ")");
        }
    }

    private void parse(BufferedReader in, String name) throws IOException {
        String line;
        long no = 0;
        int n = -1, rowBytes = 0;
        byte[] rows = new byte[1 << 16];
        int variants = 0;
        List<Byte> flags = new ArrayList<>();
        while ((line = next(in, name, no + 1)) != null) {
            no++;
            if (line.startsWith("##")) {
                continue;
            }
            if (line.startsWith("#")) {
                String[] h = line.split("\t", -1);
                if (h.length < 10) {
                    throw new BadInputException(name + " line " + no + ": the header names no samples");
                }
                iids.addAll(Arrays.asList(h).subList(9, h.length));
                n = iids.size();
                rowBytes = GenotypeBatch.rowBytes(n);
                continue;
            }
            if (n < 0) {
                throw new BadInputException(name + " line " + no + ": a record before the #CHROM header line");
            }
            if (line.isEmpty()) {
                continue;
            }
            String[] f = line.split("\t", -1);
            if (f.length != 9 + n) {
                throw new BadInputException(name + " line " + no + ": " + f.length + " columns, the header has "
                    + (9 + n));
            }
            boolean autosome = BedFileset.autosome(f[0]);
            if ((long) (variants + 1) * rowBytes > Integer.MAX_VALUE - 16) {
                throw new BadInputException(name + " line " + no + ": more genotypes than one call takes (2^31 bytes)");
            }
            if ((long) (variants + 1) * rowBytes > rows.length) {
                rows = Arrays.copyOf(rows, (int) Math.min(Integer.MAX_VALUE - 16,
                    Math.max(2L * rows.length, (long) (variants + 1) * rowBytes)));
            }
            int base = variants * rowBytes;
            if (!autosome) {
                Arrays.fill(rows, base, base + rowBytes, (byte) 0x55); // all missing; skipped anyway
                skipped++;
            } else {
                if (f[4].indexOf(',') >= 0) {
                    throw new BadInputException(name + " line " + no + ": multi-allelic record (ALT " + f[4]
                        + "); split it first (bcftools norm -m-)");
                }
                int gt = gtIndex(f[8], name, no);
                for (int k = 0; k < n; k++) {
                    int code = code(f[9 + k], gt, name, no, iids.get(k));
                    rows[base + k / 4] |= (byte) (code << (2 * (k % 4)));
                }
            }
            flags.add((byte) (autosome ? 1 : 0));
            variants++;
        }
        if (n < 0) {
            throw new BadInputException(name + ": no #CHROM header line");
        }
        if (variants - skipped == 0) {
            throw new BadInputException(name + ": no autosomal records (" + skipped + " skipped)");
        }
        use = new byte[variants];
        for (int v = 0; v < variants; v++) {
            use[v] = flags.get(v);
        }
        this.rows = Arrays.copyOf(rows, variants * rowBytes);
        batch = GenotypeBatch.of(n, variants, this.rows, use);
    }

    /** @return sample IDs in header order (also the FIDs) */
    public List<String> iids() {
        return iids;
    }

    /** @return one flag per record: 1 autosomal (used), 0 skipped */
    public byte[] use() {
        return use;
    }

    /** @return records skipped as non-autosomal */
    public int skipped() {
        return skipped;
    }

    /** @return the .bed body: one row of (samples + 3) / 4 bytes per record, .bed coding */
    public byte[] rows() {
        return rows;
    }

    private static int gtIndex(String format, String name, long no) {
        String[] keys = format.split(":", -1);
        for (int k = 0; k < keys.length; k++) {
            if (keys[k].equals("GT")) {
                return k;
            }
        }
        throw new BadInputException(name + " line " + no + ": FORMAT " + format + " has no GT");
    }

    /** The .bed code of one sample's GT. */
    private static int code(String sample, int gt, String name, long no, String id) {
        int start = 0;
        for (int k = 0; k < gt; k++) {
            start = sample.indexOf(':', start) + 1;
            if (start == 0) {
                return 1; // GT absent from this sample's fields: missing
            }
        }
        int end = sample.indexOf(':', start);
        String g = end < 0 ? sample.substring(start) : sample.substring(start, end);
        if (g.equals(".") || g.isEmpty()) {
            return 1;
        }
        if (g.length() == 3 && (g.charAt(1) == '/' || g.charAt(1) == '|')) {
            char a = g.charAt(0), b = g.charAt(2);
            if ((a == '0' || a == '1' || a == '.') && (b == '0' || b == '1' || b == '.')) {
                if (a == '.' || b == '.') {
                    return 1;
                }
                int alt = (a - '0') + (b - '0');
                return alt == 0 ? 3 : alt == 1 ? 2 : 0;
            }
        }
        throw new BadInputException(name + " line " + no + ", sample " + id + ": GT '" + g
            + "' is not a biallelic diploid call (0/0, 0/1, 1/1, ./., phased or not)");
    }
}
