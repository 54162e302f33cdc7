package org.dpaccel.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Random;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code dpaccel distance}: counts against an independent count written here from the .bed
 * codes, PLINK 1.9's matrices when plink1.9 is installed (skipped loudly otherwise), the
 * %g formatter, and bad filesets (exit 2, the file named, nothing written).
 */
class DistanceCommandTest {
    static final int N = 23;
    static final int M = 700;

    @TempDir
    Path dir;

    /** Random codes with 10% missing; the last 40 variants on X, Y and MT. */
    private String write(Random rnd) throws IOException {
        String prefix = dir.resolve("c").toString();
        StringBuilder fam = new StringBuilder(), bim = new StringBuilder();
        for (int k = 0; k < N; k++) {
            fam.append("f").append(k).append(" s").append(k).append(" 0 0 0 -9\n");
        }
        int rb = (N + 3) / 4;
        byte[] bed = new byte[3 + M * rb];
        bed[0] = 0x6c;
        bed[1] = 0x1b;
        bed[2] = 0x01;
        for (int v = 0; v < M; v++) {
            String chrom = v < M - 40 ? String.valueOf(1 + v * 22 / (M - 40)) : v < M - 20 ? "X" : v < M - 10 ? "Y" : "MT";
            bim.append(chrom).append("\tv").append(v).append("\t0\t").append(v + 1).append("\tA\tG\n");
            double p = rnd.nextDouble();
            for (int k = 0; k < N; k++) {
                int code;
                if (rnd.nextDouble() < 0.1) {
                    code = 1;
                } else {
                    int a1 = (rnd.nextDouble() < p ? 1 : 0) + (rnd.nextDouble() < p ? 1 : 0);
                    code = a1 == 2 ? 0 : a1 == 1 ? 2 : 3;
                }
                bed[3 + v * rb + k / 4] |= (byte) (code << (2 * (k % 4)));
            }
        }
        Files.writeString(Path.of(prefix + ".fam"), fam);
        Files.writeString(Path.of(prefix + ".bim"), bim);
        Files.write(Path.of(prefix + ".bed"), bed);
        return prefix;
    }

    /** The seven counts of (i, j), variant by variant, over the autosomal variants. */
    private static long[] expected(byte[] bed, int i, int j) {
        int rb = (N + 3) / 4;
        long[] c = new long[7];
        for (int v = 0; v < M - 40; v++) {
            int x = (bed[3 + v * rb + i / 4] >> (2 * (i % 4))) & 3, y = (bed[3 + v * rb + j / 4] >> (2 * (j % 4))) & 3;
            if (x == 1 || y == 1) {
                continue;
            }
            c[0]++;
            c[x == y ? 3 : (x == 2 || y == 2) ? 2 : 1]++;
            c[4] += x == 2 && y == 2 ? 1 : 0;
            c[5] += x == 2 && y != 2 ? 1 : 0;
            c[6] += x != 2 && y == 2 ? 1 : 0;
        }
        return c;
    }

    @Test
    void countsEqualAnIndependentCount() throws IOException {
        String prefix = write(new Random(7));
        String out = dir.resolve("o").toString();
        Cli.Result r = Cli.run("distance", "--bfile", prefix, "--out", out, "--counts", "--tile", "8");
        assertEquals(0, r.rc(), r.toString());
        assertTrue(r.err().contains("40 non-autosomal skipped"), r.err());
        List<String> lines = Files.readAllLines(Path.of(out + ".counts.tsv"));
        assertEquals("#IID1\tIID2\tNSNP\tIBS0\tIBS1\tIBS2\tHETHET\tHET1_HOM2\tHET2_HOM1", lines.get(0));
        assertEquals(N * (N - 1) / 2 + 1, lines.size());
        byte[] bed = Files.readAllBytes(Path.of(prefix + ".bed"));
        int row = 1;
        for (int i = 0; i < N; i++) {
            for (int j = i + 1; j < N; j++, row++) {
                StringBuilder want = new StringBuilder("s" + i + "\ts" + j);
                for (long x : expected(bed, i, j)) {
                    want.append('\t').append(x);
                }
                assertEquals(want.toString(), lines.get(row));
            }
        }
        assertEquals("f0\ts0", Files.readAllLines(Path.of(out + ".id")).get(0));
    }

    /** KING-robust from the independent count, as issue 27 writes it. */
    private static double king(long[] c) {
        return 0.5 - (4.0 * c[1] + c[5] + c[6]) / (4.0 * (c[4] + Math.min(c[5], c[6])));
    }

    /** The square matrix with its mirrored half copied (the default) and with every value
     * formatted twice: the same text, equal to an independent count at the exact formatter. */
    @Test
    void squareMatrixMirrorsEqualDirectFormatting() throws IOException {
        String prefix = write(new Random(17));
        byte[] bed = Files.readAllBytes(Path.of(prefix + ".bed"));
        BedFileset f = BedFileset.read(prefix);
        org.dpaccel.distance.DistanceCounts c;
        try (org.dpaccel.DpaContext ctx = org.dpaccel.DpaContext.create()) {
            c = org.dpaccel.distance.GenotypeDistance.counts(ctx, f.batch);
        }
        for (int digits : new int[] {6, 17}) {
            String[] text = new String[2];
            for (int k = 0; k < 2; k++) {
                java.io.ByteArrayOutputStream bytes = new java.io.ByteArrayOutputStream();
                java.io.PrintStream ps = new java.io.PrintStream(bytes, false, StandardCharsets.US_ASCII);
                DistanceCommand.writeSquare(ps, org.dpaccel.distance.DistanceMetric.KING, c, N, digits,
                    k == 0 ? DistanceCommand.MIRROR_BUDGET : 0);
                ps.flush();
                text[k] = bytes.toString(StandardCharsets.US_ASCII);
            }
            assertEquals(text[1], text[0], "mirrored and direct text, %." + digits + "g");
            String[] rows = text[0].split("\n");
            assertEquals(N, rows.length);
            for (int i = 0; i < N; i++) {
                String[] v = rows[i].split("\t");
                assertEquals(N, v.length);
                assertEquals("0.5", v[i]);
                for (int j = 0; j < N; j++) {
                    if (j != i) {
                        double want = king(expected(bed, Math.min(i, j), Math.max(i, j)));
                        assertEquals(CFormat.slow(want, digits), v[j], "(" + i + ", " + j + ")");
                    }
                }
            }
        }
    }

    /** The .fam field splitter equals trim() + split("\\s+") on random lines of spaces, tabs,
     * control characters, letters and non-ASCII letters. */
    @Test
    void famFieldsSplitAsTheRegexDid() {
        Random rnd = new Random(23);
        char[] alphabet = {' ', '\t', '\u000b', '\f', '\r', '\u0001', 'a', 'b', '0', '-', '\u00e9', '\u00a0'};
        for (int i = 0; i < 20_000; i++) {
            char[] line = new char[rnd.nextInt(12)];
            for (int k = 0; k < line.length; k++) {
                line[k] = alphabet[rnd.nextInt(alphabet.length)];
            }
            String l = new String(line);
            org.junit.jupiter.api.Assertions.assertArrayEquals(l.trim().split("\\s+"), BedFileset.fields(l),
                "'" + l + "'");
        }
    }

    /** .bim lines end in LF, CRLF or CR, may be blank, longer than the reader's buffer, or
     * without a last line end: the same counts as the plain file, errors at the right line. */
    @Test
    void bimLineEndsAndLongLinesReadAsPlainLines() throws IOException {
        String prefix = write(new Random(19));
        String out = dir.resolve("o").toString();
        assertEquals(0, Cli.run("distance", "--bfile", prefix, "--out", out, "-q").rc());
        String want = Files.readString(Path.of(out + ".counts.tsv"));
        List<String> lines = Files.readAllLines(Path.of(prefix + ".bim"));
        String longId = "v".repeat(3 << 20); // spans several 1 MB reads
        StringBuilder odd = new StringBuilder();
        for (int v = 0; v < lines.size(); v++) {
            String line = lines.get(v);
            if (v == 5) {
                line = line.replaceFirst("\tv5\t", "\t" + longId + "\t");
            }
            if (v == 7) {
                line = "chr" + line;
            }
            if (v == 9) {
                odd.append("  \t\r\n");
            }
            odd.append(line).append(v == lines.size() - 1 ? "" : v % 3 == 0 ? "\r\n" : v % 3 == 1 ? "\r" : "\n");
        }
        Files.writeString(Path.of(prefix + ".bim"), odd);
        Cli.Result r = Cli.run("distance", "--bfile", prefix, "--out", out);
        assertEquals(0, r.rc(), r.toString());
        assertTrue(r.err().contains("40 non-autosomal skipped"), r.err());
        assertEquals(want, Files.readString(Path.of(out + ".counts.tsv")));

        Files.writeString(Path.of(prefix + ".bim"), "1 a 0 1 A G\r\n\r\n1 b 0 2 A\r\n");
        r = Cli.run("distance", "--bfile", prefix, "--out", out);
        assertEquals(ExitCodes.BAD_INPUT, r.rc(), r.toString());
        assertTrue(r.err().contains(prefix + ".bim line 3: 5 fields"), r.err());
        byte[] latin1 = "1 a 0 1 A G\n1 b\u00e9 0 2 A G\n".getBytes(StandardCharsets.ISO_8859_1);
        Files.write(Path.of(prefix + ".bim"), latin1);
        r = Cli.run("distance", "--bfile", prefix, "--out", out);
        assertEquals(ExitCodes.BAD_INPUT, r.rc(), r.toString());
        assertTrue(r.err().contains(prefix + ".bim line 2: not UTF-8"), r.err());
        Files.writeString(Path.of(prefix + ".bim"), "\n \r\n");
        r = Cli.run("distance", "--bfile", prefix, "--out", out);
        assertEquals(ExitCodes.BAD_INPUT, r.rc(), r.toString());
        assertTrue(r.err().contains(prefix + ".bim: no variants"), r.err());
    }

    @Test
    void plinkPrecisionMatricesEqualPlink19() throws IOException, InterruptedException {
        boolean have = new ProcessBuilder("sh", "-c", "command -v plink1.9").start().waitFor() == 0;
        if (!have) {
            System.err.println("PLINK ORACLE NOT RUN: plink1.9 is not installed (apt-get install plink1.9)");
        }
        assumeTrue(have, "plink1.9 not installed");
        String prefix = write(new Random(11));
        String out = dir.resolve("o").toString();
        Cli.Result r = Cli.run("distance", "--bfile", prefix, "--out", out, "--metric", "ibs", "--metric", "1-ibs",
            "--metric", "allele-ct", "--precision", "plink", "-q");
        assertEquals(0, r.rc(), r.toString());
        Process p = new ProcessBuilder("plink1.9", "--bfile", prefix, "--distance", "square", "ibs", "1-ibs",
            "allele-ct", "flat-missing", "--threads", "1", "--out", dir.resolve("p").toString())
            .redirectErrorStream(true).redirectOutput(dir.resolve("plink.out").toFile()).start();
        assertEquals(0, p.waitFor());
        int ties = 0;
        String[][] pairs = {{"ibs", "mibs"}, {"1-ibs", "mdist"}, {"allele-ct", "dist"}};
        for (String[] pr : pairs) {
            List<String> ours = Files.readAllLines(Path.of(out + "." + pr[0] + ".tsv"));
            List<String> plink = Files.readAllLines(dir.resolve("p." + pr[1]));
            assertEquals(plink.size(), ours.size());
            for (int i = 0; i < ours.size(); i++) {
                String[] a = ours.get(i).split("\t"), b = plink.get(i).split("\t");
                assertEquals(b.length, a.length);
                for (int j = 0; j < a.length; j++) {
                    if (!a[j].equals(b[j])) {
                        // only a 6th-digit rounding of an exact decimal tie may differ (issue 27)
                        double x = Double.parseDouble(a[j]), y = Double.parseDouble(b[j]);
                        assertTrue(Math.abs(x - y) <= 1.01e-5 * Math.abs(y), pr[0] + " " + i + "," + j + ": " + a[j]
                            + " vs PLINK " + b[j]);
                        ties++;
                    }
                }
            }
        }
        assertTrue(ties <= 3, ties + " values differ in the last digit");
        assertEquals(Files.readString(dir.resolve("p.mibs.id")), Files.readString(Path.of(out + ".id")));
    }

    @Test
    void formatsLikeC() {
        assertEquals("0.798062", CFormat.g(0.79806249, 6));
        assertEquals("1", CFormat.g(1.0, 6));
        assertEquals("0", CFormat.g(0.0, 6));
        assertEquals("3795.12", CFormat.g(3795.12, 6));
        assertEquals("-0.0283813", CFormat.g(-0.02838126, 6));
        assertEquals("1.23457e+06", CFormat.g(1234567, 6));
        assertEquals("1e-05", CFormat.g(0.00001, 6));
        assertEquals("0.0001", CFormat.g(0.0001, 6));
        assertEquals("0.10000000000000001", CFormat.g(0.1, 17));
        assertEquals("nan", CFormat.g(Double.NaN, 6));
        assertEquals("-1.5e-07", CFormat.g(-1.5e-7, 6));
        assertEquals("100000", CFormat.g(100000, 6));
        assertEquals("1e+06", CFormat.g(999999.6, 6));
        assertEquals("0.5", CFormat.g(0.5, 17));
        assertEquals("1e-300", CFormat.g(1e-300, 6));
        assertEquals("-1.5e+200", CFormat.g(-1.5e200, 6));
        assertEquals("4.9406564584124654e-324", CFormat.g(Double.MIN_VALUE, 17));
        assertEquals("1.7976931348623157e+308", CFormat.g(Double.MAX_VALUE, 17));
        assertEquals("-0", CFormat.g(-0.0, 17));
        assertEquals("-inf", CFormat.g(Double.NEGATIVE_INFINITY, 6));
    }

    /** The in-place writer (what the square matrices use) against the exact String path at
     * every precision it takes, over the whole exponent range, written after other bytes. */
    @Test
    void inPlaceTextEqualsExactPathAtEveryPrecision() {
        Random rnd = new Random(99);
        byte[] b = new byte[7 + CFormat.MAX_CHARS];
        for (int i = 0; i < 40_000; i++) {
            double v = Math.scalb(1.0 + rnd.nextDouble(), rnd.nextInt(2100) - 1075) * (rnd.nextBoolean() ? 1 : -1);
            if (i % 3 == 0) {
                v = (rnd.nextInt(1000) - 500) / (double) (rnd.nextInt(999) + 1);
            }
            for (int p = 1; p <= 17; p++) {
                int end = CFormat.put(v, p, b, 7);
                assertEquals(CFormat.slow(v, p), new String(b, 7, end - 7, java.nio.charset.StandardCharsets.US_ASCII),
                    v + " at %." + p + "g");
            }
        }
    }

    @Test
    void fastPathEqualsExactPath() {
        Random rnd = new Random(42);
        for (int i = 0; i < 200_000; i++) {
            double v;
            switch (i % 4) {
                case 0 -> v = rnd.nextDouble();
                case 1 -> v = (rnd.nextInt(2_000_000) + 1) / (double) (rnd.nextInt(2_000_000) + 1);
                case 2 -> v = rnd.nextGaussian() * Math.pow(10, rnd.nextInt(30) - 15);
                default -> v = Math.round(rnd.nextDouble() * 1e7) / 1e7; // near ties at 6 digits
            }
            for (int p : new int[] {6, 10, 15, 16, 17}) {
                assertEquals(CFormat.exact(v, p), CFormat.g(v, p), v + " at %." + p + "g");
            }
        }
        // 17 digits near their rounding boundaries: decimal values with 17-18 significant
        // digits ending in 5 (the double nearest is just above or below the tie), the metrics'
        // own shapes (ratios of counts), and powers of two (exact ties are possible there)
        for (int i = 0; i < 200_000; i++) {
            double v = switch (i % 4) {
                case 0 -> Double.parseDouble("0." + (10_000_000_000_000_000L + (Math.abs(rnd.nextLong()) % 90_000_000_000_000_000L)) + "5");
                case 1 -> 1.0 - (rnd.nextInt(400_000) + 2 * rnd.nextInt(100_000)) / (2.0 * (rnd.nextInt(100_000) + 1));
                case 2 -> Math.scalb(1.0, rnd.nextInt(80) - 60) * (rnd.nextBoolean() ? 1 : -1);
                default -> (rnd.nextInt(97_000) + 1) / (double) (rnd.nextInt(97_000) + 1) * (rnd.nextInt(200_000) + 1);
            };
            for (int p : new int[] {16, 17}) {
                assertEquals(CFormat.exact(v, p), CFormat.g(v, p), v + " at %." + p + "g");
            }
        }
    }

    @Test
    void truncatedBedIsBadInputNamingBytesAndWritesNothing() throws IOException {
        String prefix = write(new Random(3));
        byte[] bed = Files.readAllBytes(Path.of(prefix + ".bed"));
        Files.write(Path.of(prefix + ".bed"), java.util.Arrays.copyOf(bed, bed.length - 1));
        String out = dir.resolve("o").toString();
        Cli.Result r = Cli.run("distance", "--bfile", prefix, "--out", out, "--metric", "ibs");
        assertEquals(ExitCodes.BAD_INPUT, r.rc(), r.toString());
        assertTrue(r.err().contains(prefix + ".bed") && r.err().contains((bed.length - 1) + " bytes, expected "
            + bed.length), r.err());
        assertFalse(Files.exists(Path.of(out + ".id")));
        assertFalse(Files.exists(Path.of(out + ".ibs.tsv")));
    }

    @Test
    void sampleMajorOrForeignMagicIsBadInput() throws IOException {
        String prefix = write(new Random(4));
        byte[] bed = Files.readAllBytes(Path.of(prefix + ".bed"));
        bed[2] = 0;
        Files.write(Path.of(prefix + ".bed"), bed);
        Cli.Result r = Cli.run("distance", "--bfile", prefix, "--out", dir.resolve("o").toString());
        assertEquals(ExitCodes.BAD_INPUT, r.rc(), r.toString());
        assertTrue(r.err().contains("sample-major"), r.err());
        bed[0] = 0x41;
        Files.write(Path.of(prefix + ".bed"), bed);
        r = Cli.run("distance", "--bfile", prefix, "--out", dir.resolve("o").toString());
        assertEquals(ExitCodes.BAD_INPUT, r.rc(), r.toString());
        assertTrue(r.err().contains("magic"), r.err());
    }

    @Test
    void famThatDoesNotFitTheBedIsBadInput() throws IOException {
        String prefix = write(new Random(5));
        // two more samples need 7 bytes per row instead of 6 (one more would fit the padding, as in PLINK)
        Files.writeString(Path.of(prefix + ".fam"), "x y 0 0 0 -9\nx z 0 0 0 -9\n", StandardCharsets.UTF_8,
            java.nio.file.StandardOpenOption.APPEND);
        Cli.Result r = Cli.run("distance", "--bfile", prefix, "--out", dir.resolve("o").toString());
        assertEquals(ExitCodes.BAD_INPUT, r.rc(), r.toString());
        assertTrue(r.err().contains("25 samples from the .fam"), r.err());
        Files.writeString(Path.of(prefix + ".fam"), "x y 0 0\n");
        r = Cli.run("distance", "--bfile", prefix, "--out", dir.resolve("o").toString());
        assertEquals(ExitCodes.BAD_INPUT, r.rc(), r.toString());
        assertTrue(r.err().contains(".fam line 1: 4 fields"), r.err());
    }

    @Test
    void vcfFromPlinkGivesTheBfileCounts() throws IOException, InterruptedException {
        boolean have = new ProcessBuilder("sh", "-c", "command -v plink1.9").start().waitFor() == 0;
        if (!have) {
            System.err.println("VCF CHECK NOT RUN: plink1.9 (which writes the VCF) is not installed");
        }
        assumeTrue(have, "plink1.9 not installed");
        String prefix = write(new Random(13));
        Process p = new ProcessBuilder("plink1.9", "--bfile", prefix, "--recode", "vcf-iid", "bgz", "--out",
            dir.resolve("v").toString()).redirectErrorStream(true).redirectOutput(dir.resolve("v.out").toFile()).start();
        assertEquals(0, p.waitFor());
        String a = dir.resolve("a").toString(), b = dir.resolve("b").toString();
        assertEquals(0, Cli.run("distance", "--bfile", prefix, "--out", a, "-q").rc());
        Cli.Result r = Cli.run("distance", "--vcf", dir.resolve("v.vcf.gz").toString(), "--out", b, "--tile", "16");
        assertEquals(0, r.rc(), r.toString());
        assertTrue(r.err().contains("40 non-autosomal skipped"), r.err());
        assertEquals(Files.readString(Path.of(a + ".counts.tsv")), Files.readString(Path.of(b + ".counts.tsv")));
        assertEquals("s0\ts0", Files.readAllLines(Path.of(b + ".id")).get(0));
    }

    @Test
    void badVcfRecordsNameTheLine() throws IOException {
        String head = "##fileformat=VCFv4.2\n#CHROM\tPOS\tID\tREF\tALT\tQUAL\tFILTER\tINFO\tFORMAT\ta\tb\n";
        String good = "1\t1\t.\tA\tG\t.\t.\t.\tGT:DP\t0/1:3\t1|1:4\nX\t2\t.\tA\tG\t.\t.\t.\tGT\t1\t0\n";
        Path vcf = dir.resolve("x.vcf");
        String out = dir.resolve("o").toString();
        Files.writeString(vcf, head + good);
        Cli.Result r = Cli.run("distance", "--vcf", vcf.toString(), "--out", out);
        assertEquals(0, r.rc(), r.toString());
        // a 0/1, b 1/1: one het-hom pair, IBS1
        assertEquals("a\tb\t1\t0\t1\t0\t0\t1\t0", Files.readAllLines(Path.of(out + ".counts.tsv")).get(1));
        String[][] bad = {
            {"1\t1\t.\tA\tG\t.\t.\t.\tGT\t0/1\n", "line 3: 10 columns, the header has 11"},
            {"1\t1\t.\tA\tG,T\t.\t.\t.\tGT\t0/1\t0/2\n", "line 3: multi-allelic"},
            {"1\t1\t.\tA\tG\t.\t.\t.\tGT\t0/1\t0/x\n", "line 3, sample b: GT '0/x'"},
            {"1\t1\t.\tA\tG\t.\t.\t.\tDP\t3\t4\n", "line 3: FORMAT DP has no GT"},
        };
        for (String[] c : bad) {
            Files.writeString(vcf, head + c[0]);
            r = Cli.run("distance", "--vcf", vcf.toString(), "--out", dir.resolve("bad").toString());
            assertEquals(ExitCodes.BAD_INPUT, r.rc(), r.toString());
            assertTrue(r.err().contains(vcf + " " + c[1]), r.err());
            assertFalse(Files.exists(Path.of(dir.resolve("bad") + ".id")));
        }
        Files.writeString(vcf, "#CHROM\tPOS\tID\tREF\tALT\tQUAL\tFILTER\tINFO\tFORMAT\n");
        r = Cli.run("distance", "--vcf", vcf.toString(), "--out", out);
        assertEquals(ExitCodes.BAD_INPUT, r.rc(), r.toString());
        assertTrue(r.err().contains("names no samples"), r.err());
        assertEquals(ExitCodes.BAD_INPUT, Cli.run("distance", "--vcf", vcf.toString(), "--bfile", "x", "--out", out).rc());
    }

    @Test
    void helpNamesTheOutputs() {
        Cli.Result r = Cli.run("distance", "--help");
        assertEquals(0, r.rc(), r.toString());
        assertTrue(r.out().contains("OUT.counts.tsv") && r.out().contains("--bfile"), r.out());
    }

    @Test
    void badOptionsAreUsageErrors() throws IOException {
        String prefix = write(new Random(6));
        String out = dir.resolve("o").toString();
        assertEquals(ExitCodes.BAD_INPUT, Cli.run("distance", "--bfile", prefix, "--out", out, "--metric", "foo").rc());
        assertEquals(ExitCodes.BAD_INPUT, Cli.run("distance", "--bfile", prefix, "--out", out, "--tile", "3").rc());
        assertEquals(ExitCodes.BAD_INPUT,
            Cli.run("distance", "--bfile", prefix, "--out", out, "--precision", "exact").rc());
        assertEquals(ExitCodes.BAD_INPUT, Cli.run("distance", "--bfile", dir.resolve("none").toString(), "--out",
            out).rc());
    }
}
