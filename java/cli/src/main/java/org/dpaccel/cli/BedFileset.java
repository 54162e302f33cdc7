package org.dpaccel.cli;

import java.io.BufferedReader;
import java.io.IOException;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.ArrayList;
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
        List<Byte> flags = f.readBim(bim);
        f.use = new byte[flags.size()];
        for (int v = 0; v < f.use.length; v++) {
            f.use[v] = flags.get(v);
        }
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
                String[] f = line.trim().split("\\s+");
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

    private List<Byte> readBim(Path bim) throws IOException {
        List<Byte> flags = new ArrayList<>();
        try (BufferedReader in = open(bim)) {
            String line;
            int no = 0;
            while ((line = next(in, bim, no + 1)) != null) {
                no++;
                if (line.isBlank()) {
                    continue;
                }
                String[] f = line.trim().split("\\s+");
                if (f.length != 6) {
                    throw new BadInputException(bim + " line " + no + ": " + f.length + " fields, a .bim line has 6");
                }
                boolean autosome = autosome(f[0]);
                skipped += autosome ? 0 : 1;
                flags.add((byte) (autosome ? 1 : 0));
            }
        }
        if (flags.isEmpty()) {
            throw new BadInputException(bim + ": no variants");
        }
        return flags;
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
            if (in.readNBytes(rows, 0, rows.length) != rows.length) {
                throw new BadInputException(bed + ": shorter than its size while reading");
            }
            return rows;
        }
    }
}
