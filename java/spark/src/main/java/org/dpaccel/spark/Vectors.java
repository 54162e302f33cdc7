package org.dpaccel.spark;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * The PairHMM vectors format of test-data/pairhmm (written by {@code dpaccel bench gen-vectors}):
 * tab-separated group, haplotype, read, base/insertion/deletion/gap-continuation qualities
 * (phred+33), optional expected value; '#' lines are comments. One region per row (1 read x 1
 * haplotype): the job batches regions per partition anyway.
 */
final class Vectors {
    private Vectors() {
    }

    static List<Region> read(Path file, List<String> rows) throws IOException {
        if (!Files.isRegularFile(file)) {
            throw new IllegalArgumentException(file + ": no such file");
        }
        List<Region> regions = new ArrayList<>();
        int no = 0;
        for (String l : Files.readAllLines(file, StandardCharsets.US_ASCII)) {
            no++;
            if (l.isEmpty() || l.startsWith("#")) {
                continue;
            }
            String[] t = l.split("\t");
            if (t.length < 7) {
                throw new IllegalArgumentException(file + " line " + no + ": " + t.length
                    + " columns, expected at least 7 (group, haplotype, read, quals, ins, del, gcp)");
            }
            int len = t[2].length();
            for (int c = 3; c <= 6; c++) {
                if (t[c].length() != len) {
                    throw new IllegalArgumentException(file + " line " + no + ": column " + (c + 1) + " has "
                        + t[c].length() + " qualities, the read has " + len + " bases");
                }
            }
            try {
                regions.add(new Region(List.of(new Region.Read(bytes(t[2]), phred(t[3], file, no), phred(t[4], file, no),
                    phred(t[5], file, no), phred(t[6], file, no))), List.of(bytes(t[1]))));
            } catch (IllegalArgumentException e) {
                throw new IllegalArgumentException(file + " line " + no + ": " + e.getMessage(), e);
            }
            rows.add(String.join("\t", List.of(t).subList(0, 7)));
        }
        if (regions.isEmpty()) {
            throw new IllegalArgumentException(file + ": no vectors");
        }
        return regions;
    }

    private static byte[] bytes(String s) {
        return s.getBytes(StandardCharsets.US_ASCII);
    }

    private static byte[] phred(String s, Path file, int no) {
        byte[] b = bytes(s);
        for (int i = 0; i < b.length; i++) {
            int q = b[i] - 33;
            if (q < 0 || q > 127) {
                throw new IllegalArgumentException(file + " line " + no + ": quality character '" + s.charAt(i)
                    + "' at " + (i + 1) + " is not phred+33 0..127");
            }
            b[i] = (byte) q;
        }
        return b;
    }
}
