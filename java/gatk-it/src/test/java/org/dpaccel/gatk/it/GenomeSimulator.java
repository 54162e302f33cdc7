package org.dpaccel.gatk.it;

import java.io.BufferedWriter;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Random;
import java.util.TreeMap;

/**
 * Seeded simulator of a small diploid genome sequencing run, for the HaplotypeCaller test:
 * <ul>
 * <li>reference: contigs of random sequence (GC 41%) with segmental duplications (copies of 0.5-3 kb
 * with about 2% divergence), short tandem repeats (unit 1-6 bp, 6-30 copies) and homopolymers;</li>
 * <li>truth: SNPs (about 1 per 1,000 bp) and indels (about 1 per 8,000 bp, 1-12 bp, some inside
 * repeats), het (2/3) or hom-alt (1/3), at least 12 bp apart; indels left-normalised the way
 * GATK writes them; written as a VCF;</li>
 * <li>reads: pairs of 2 x 150 bp from fragments of Normal(350, 40) bp drawn uniformly from either
 * haplotype, to the requested depth; base qualities fall from about Q37 at the 5' end toward Q25 at
 * the 3' end with noise, plus 2% low-quality (Q2-Q12) bases; each base is wrong with exactly the
 * probability its quality states (so errors rise toward read ends), a few 1-bp indel errors
 * (1e-4 per base), rare N calls (Q2).</li>
 * </ul>
 */
public final class GenomeSimulator {
    public static final int READ_LEN = 150;

    /** One truth variant (0-based position on the reference). */
    public record Variant(String contig, int pos, String ref, String alt, boolean het) {
    }

    private final Random rng;
    private final String[] names;
    private final byte[][] ref;
    private final List<Variant> truth = new ArrayList<>();
    private final byte[][][] haps; // [contig][hap]

    public GenomeSimulator(long seed, String[] names, int[] lengths) {
        this.rng = new Random(seed);
        this.names = names.clone();
        this.ref = new byte[names.length][];
        this.haps = new byte[names.length][2][];
        for (int c = 0; c < names.length; c++) {
            ref[c] = reference(lengths[c]);
        }
        for (int c = 0; c < names.length; c++) {
            placeVariants(c);
        }
    }

    public List<Variant> truth() {
        return truth;
    }

    // ---------------------------------------------------------------- reference

    private byte randomBase() {
        double u = rng.nextDouble();
        return (byte) (u < 0.295 ? 'A' : u < 0.59 ? 'T' : u < 0.795 ? 'C' : 'G');
    }

    private byte otherBase(byte b) {
        byte o;
        do {
            o = (byte) "ACGT".charAt(rng.nextInt(4));
        } while (o == b);
        return o;
    }

    private byte[] reference(int len) {
        byte[] s = new byte[len];
        for (int i = 0; i < len; i++) {
            s[i] = randomBase();
        }
        // segmental duplications: one per ~40 kb
        for (int k = 0; k < Math.max(1, len / 40_000); k++) {
            int n = 500 + rng.nextInt(2500);
            int from = rng.nextInt(len - n), to = rng.nextInt(len - n);
            if (Math.abs(from - to) < n) {
                continue;
            }
            for (int i = 0; i < n; i++) {
                s[to + i] = rng.nextDouble() < 0.02 ? otherBase(s[from + i]) : s[from + i];
            }
        }
        // short tandem repeats: one per ~1.5 kb
        for (int k = 0; k < len / 1500; k++) {
            int unit = 1 + rng.nextInt(6);
            int copies = (unit == 1 ? 8 : 6) + rng.nextInt(unit == 1 ? 12 : 20);
            int at = rng.nextInt(len - unit * copies);
            byte[] u = new byte[unit];
            for (int i = 0; i < unit; i++) {
                u[i] = randomBase();
            }
            for (int i = 0; i < unit * copies; i++) {
                s[at + i] = u[i % unit];
            }
        }
        return s;
    }

    // ---------------------------------------------------------------- variants

    private void placeVariants(int c) {
        byte[] r = ref[c];
        TreeMap<Integer, Variant> placed = new TreeMap<>();
        int snps = r.length / 1000, indels = Math.max(2, r.length / 8000);
        int tries = 0;
        while ((snps > 0 || indels > 0) && tries++ < 100_000) {
            boolean indel = indels > 0 && (snps == 0 || rng.nextInt(snps + indels) < indels);
            int p = 500 + rng.nextInt(r.length - 1000);
            Variant v;
            boolean het = rng.nextInt(3) != 0;
            if (!indel) {
                v = new Variant(names[c], p, String.valueOf((char) r[p]), String.valueOf((char) otherBase(r[p])), het);
            } else {
                int n = rng.nextInt(10) < 7 ? 1 + rng.nextInt(3) : 4 + rng.nextInt(9);
                v = rng.nextBoolean() ? deletion(r, c, p, n, het) : insertion(r, c, p, n, het);
            }
            int lo = v.pos - 12, hi = v.pos + v.ref.length() + 12;
            Integer before = placed.floorKey(hi);
            if (before != null && placed.get(before).pos + placed.get(before).ref.length() + 12 > lo) {
                continue;
            }
            placed.put(v.pos, v);
            if (indel) {
                indels--;
            } else {
                snps--;
            }
        }
        truth.addAll(placed.values());
        // haplotypes: hap 0 carries every variant, hap 1 only the hom-alt ones
        for (int h = 0; h < 2; h++) {
            StringBuilder sb = new StringBuilder(r.length + 1000);
            int at = 0;
            for (Variant v : placed.values()) {
                sb.append(new String(r, at, v.pos - at, StandardCharsets.US_ASCII));
                sb.append(h == 0 || !v.het ? v.alt : v.ref);
                at = v.pos + v.ref.length();
            }
            sb.append(new String(r, at, r.length - at, StandardCharsets.US_ASCII));
            haps[c][h] = sb.toString().getBytes(StandardCharsets.US_ASCII);
        }
    }

    /** Deletion of n bases after the anchor p, shifted left as far as the sequence allows. */
    private Variant deletion(byte[] r, int c, int p, int n, boolean het) {
        while (p > 1 && r[p] == r[p + n]) { // deleting r[p+1..p+n] == deleting r[p..p+n-1]
            p--;
        }
        String refAllele = new String(r, p, n + 1, StandardCharsets.US_ASCII);
        return new Variant(names[c], p, refAllele, refAllele.substring(0, 1), het);
    }

    /** Insertion of n bases after the anchor p, shifted left as far as the sequence allows. */
    private Variant insertion(byte[] r, int c, int p, int n, boolean het) {
        byte[] ins = new byte[n];
        if (rng.nextBoolean() && p >= n) { // duplicate the preceding bases (repeat expansion)
            System.arraycopy(r, p - n + 1, ins, 0, n);
        } else {
            for (int i = 0; i < n; i++) {
                ins[i] = randomBase();
            }
        }
        // shift left: inserting ins after p == inserting rot(ins) after p-1 when ins ends with r[p]
        while (p > 1 && ins[n - 1] == r[p]) {
            byte last = ins[n - 1];
            System.arraycopy(ins, 0, ins, 1, n - 1);
            ins[0] = last;
            p--;
        }
        String anchor = String.valueOf((char) r[p]);
        return new Variant(names[c], p, anchor, anchor + new String(ins, StandardCharsets.US_ASCII), het);
    }

    // ---------------------------------------------------------------- output

    public void writeFasta(Path fa) throws IOException {
        try (BufferedWriter w = Files.newBufferedWriter(fa, StandardCharsets.US_ASCII)) {
            for (int c = 0; c < names.length; c++) {
                w.write(">" + names[c] + "\n");
                for (int i = 0; i < ref[c].length; i += 60) {
                    w.write(new String(ref[c], i, Math.min(60, ref[c].length - i), StandardCharsets.US_ASCII));
                    w.write('\n');
                }
            }
        }
    }

    public void writeTruthVcf(Path vcf, String sample) throws IOException {
        try (BufferedWriter w = Files.newBufferedWriter(vcf, StandardCharsets.US_ASCII)) {
            w.write("##fileformat=VCFv4.2\n");
            w.write("##source=dpaccel GenomeSimulator\n");
            for (int c = 0; c < names.length; c++) {
                w.write("##contig=<ID=" + names[c] + ",length=" + ref[c].length + ">\n");
            }
            w.write("##FORMAT=<ID=GT,Number=1,Type=String,Description=\"Genotype\">\n");
            w.write("#CHROM\tPOS\tID\tREF\tALT\tQUAL\tFILTER\tINFO\tFORMAT\t" + sample + "\n");
            for (Variant v : truth) {
                w.write(v.contig + "\t" + (v.pos + 1) + "\t.\t" + v.ref + "\t" + v.alt + "\t.\tPASS\t.\tGT\t"
                    + (v.het ? "0/1" : "1/1") + "\n");
            }
        }
    }

    /** Writes read pairs to depth {@code depth}; returns the number of pairs. */
    public long writeReads(Path fq1, Path fq2, double depth) throws IOException {
        long pairs = 0;
        try (BufferedWriter w1 = Files.newBufferedWriter(fq1, StandardCharsets.US_ASCII);
             BufferedWriter w2 = Files.newBufferedWriter(fq2, StandardCharsets.US_ASCII)) {
            for (int c = 0; c < names.length; c++) {
                long n = Math.round(depth * ref[c].length / (2.0 * READ_LEN));
                for (long i = 0; i < n; i++) {
                    byte[] h = haps[c][rng.nextInt(2)];
                    int frag = (int) Math.round(350 + 40 * rng.nextGaussian());
                    frag = Math.max(READ_LEN + 20, Math.min(frag, 600));
                    int start = rng.nextInt(h.length - frag);
                    byte[] f = Arrays.copyOfRange(h, start, start + frag);
                    if (rng.nextBoolean()) {
                        f = revComp(f);
                    }
                    String name = "sim" + pairs + "_" + names[c] + "_" + start;
                    writeRead(w1, name + "/1", f);
                    writeRead(w2, name + "/2", revComp(f));
                    pairs++;
                }
            }
        }
        return pairs;
    }

    private void writeRead(BufferedWriter w, String name, byte[] template) throws IOException {
        byte[] bases = new byte[READ_LEN];
        byte[] quals = new byte[READ_LEN];
        int t = 0;
        for (int i = 0; i < READ_LEN; i++) {
            // rare 1-bp indel errors in the sequencing
            if (rng.nextDouble() < 1e-4) {
                if (rng.nextBoolean()) {
                    t++; // deletion: skip a template base
                } else {
                    bases[i] = randomBase(); // insertion: an extra base
                    quals[i] = (byte) (20 + rng.nextInt(10));
                    continue;
                }
            }
            byte b = template[Math.min(t++, template.length - 1)];
            double x = i / (double) (READ_LEN - 1);
            int q;
            if (rng.nextDouble() < 0.02) {
                q = 2 + rng.nextInt(11);
            } else {
                q = (int) Math.round(37 - 12 * x * x - (i < 3 ? 3 : 0) + 3 * rng.nextGaussian());
                q = Math.max(2, Math.min(41, q));
            }
            if (rng.nextDouble() < 5e-4) {
                b = 'N';
                q = 2;
            } else if (rng.nextDouble() < Math.pow(10, -q / 10.0)) {
                b = otherBase(b);
            }
            bases[i] = b;
            quals[i] = (byte) q;
        }
        StringBuilder sb = new StringBuilder(2 * READ_LEN + name.length() + 8);
        sb.append('@').append(name).append('\n').append(new String(bases, StandardCharsets.US_ASCII)).append("\n+\n");
        for (byte q : quals) {
            sb.append((char) (q + 33));
        }
        sb.append('\n');
        w.write(sb.toString());
    }

    private static byte[] revComp(byte[] s) {
        byte[] r = new byte[s.length];
        for (int i = 0; i < s.length; i++) {
            byte b = s[s.length - 1 - i];
            r[i] = (byte) (b == 'A' ? 'T' : b == 'T' ? 'A' : b == 'C' ? 'G' : b == 'G' ? 'C' : 'N');
        }
        return r;
    }
}
