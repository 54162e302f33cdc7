package org.dpaccel.bench.data;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Random;

/**
 * Seeded, reproducible PairHMM inputs shaped like GATK HaplotypeCaller regions, plus edge cases
 * and the seed paper's shape grids. Region {@code i} depends only on (seed, i), so the first N
 * regions are the same whatever N is.
 *
 * <p>GATK-shaped region: a reference window of 250-500 bp (GC ~41%, sometimes a homopolymer or
 * short tandem repeat), 1-8 haplotypes = the reference plus combinations of 1-4 SNP/indel
 * variants, and tens to hundreds of reads (mostly 150 bp, some clipped to 60-149) drawn from
 * the haplotypes with quality-driven substitutions and rare indel errors. Base qualities are
 * mostly 28-40 with a low tail, floored at 6 as GATK does before calling native code; gap-open
 * penalties 40-50 (45 = GATK's default), gap continuation 10.
 */
public final class PairHmmGenerator {
    public static final long DEFAULT_SEED = 20241122L;
    /** Regions of the embedded default data set (about 1 Gcells: ~30 s for every CPU backend on 2 cores). */
    public static final int DEFAULT_REGIONS = 64;
    private static final byte[] ACGT = {'A', 'C', 'G', 'T'};

    private final long seed;

    public PairHmmGenerator(long seed) {
        this.seed = seed;
    }

    public long seed() {
        return seed;
    }

    private Random rng(long stream, long index) {
        return new Random(seed * 0x9E3779B97F4A7C15L + stream * 1_000_003L + index);
    }

    /** {@code n} GATK-shaped regions with {@code minReads..maxReads} reads each (skewed low). */
    public List<Region> gatkRegions(int n, int minReads, int maxReads) {
        List<Region> out = new ArrayList<>(n);
        for (int i = 0; i < n; i++) {
            out.add(gatkRegion(rng(1, i), minReads, maxReads));
        }
        return out;
    }

    /** The embedded default data set: small GATK-shaped regions that a laptop finishes in seconds. */
    public Dataset defaultDataset(int regions) {
        return new Dataset("default", regions + " GATK-shaped regions (seed " + seed + ", 10-250 reads, 1-8 haplotypes)",
            gatkRegions(regions, 10, 250), true);
    }

    public Dataset gatkDataset(int regions) {
        return new Dataset("gatk", regions + " GATK-shaped regions (seed " + seed + ", 10-300 reads, 1-8 haplotypes)",
            gatkRegions(regions, 10, 300), true);
    }

    static Region gatkRegion(Random r, int minReads, int maxReads) {
        byte[] ref = referenceWindow(r, 250 + r.nextInt(241));
        int nh = haplotypeCount(r);
        List<int[]> pool = new ArrayList<>(); // {kind 0=SNP 1=ins 2=del, pos, len, base seed}
        int nv = Math.max(1, Math.min(4, nh == 1 ? 0 : 1 + r.nextInt(Math.min(4, nh))));
        for (int v = 0; v < nv; v++) {
            pool.add(randomVariant(r, ref.length));
        }
        List<byte[]> haps = new ArrayList<>();
        haps.add(ref);
        int guard = 0;
        while (haps.size() < nh && guard++ < 200) {
            List<int[]> chosen = new ArrayList<>();
            for (int[] v : pool) {
                if (r.nextBoolean()) {
                    chosen.add(v);
                }
            }
            if (chosen.isEmpty() || guard > 50) {
                int[] v = randomVariant(r, ref.length);
                pool.add(v);
                chosen.add(v);
            }
            byte[] h = applyVariants(ref, chosen, r.nextLong());
            if (h.length >= 1 && haps.stream().noneMatch(x -> Arrays.equals(x, h))) {
                haps.add(h);
            }
        }
        int span = maxReads - minReads;
        int nr = minReads + (int) Math.min(span, Math.floor(span * Math.pow(r.nextDouble(), 2.2)));
        List<Read> reads = new ArrayList<>(nr);
        boolean recalibratedIndels = r.nextBoolean();
        for (int i = 0; i < nr; i++) {
            byte[] src = haps.get(r.nextInt(10) < 4 ? 0 : r.nextInt(haps.size()));
            int len = r.nextInt(100) < 85 ? 150 : 60 + r.nextInt(90);
            reads.add(sequencedRead(r, src, Math.min(len, src.length), recalibratedIndels));
        }
        return new Region(reads, haps);
    }

    private static int haplotypeCount(Random r) {
        int p = r.nextInt(100);
        if (p < 15) {
            return 1;
        }
        if (p < 50) {
            return 2;
        }
        if (p < 65) {
            return 3;
        }
        if (p < 80) {
            return 4;
        }
        return 5 + r.nextInt(4);
    }

    /** Random bases at ~41% GC, sometimes with a homopolymer or a short tandem repeat. */
    static byte[] referenceWindow(Random r, int n) {
        byte[] b = new byte[n];
        for (int i = 0; i < n; i++) {
            b[i] = randomBase(r);
        }
        if (r.nextBoolean()) {
            int len = 5 + r.nextInt(11), at = r.nextInt(n - len);
            Arrays.fill(b, at, at + len, randomBase(r));
        }
        if (r.nextInt(3) == 0) {
            int unit = 2 + r.nextInt(3), copies = 4 + r.nextInt(7), at = r.nextInt(Math.max(1, n - unit * copies));
            for (int k = unit; k < unit * copies && at + k < n; k++) {
                b[at + k] = b[at + k % unit];
            }
        }
        return b;
    }

    private static byte randomBase(Random r) {
        int x = r.nextInt(1000);
        return x < 295 ? (byte) 'A' : x < 500 ? (byte) 'C' : x < 705 ? (byte) 'G' : (byte) 'T';
    }

    private static int[] randomVariant(Random r, int refLen) {
        int p = r.nextInt(100);
        int kind = p < 70 ? 0 : p < 85 ? 1 : 2;
        int len = kind == 0 ? 1 : 1 + (r.nextInt(4) == 0 ? r.nextInt(12) : r.nextInt(3));
        int pos = 20 + r.nextInt(Math.max(1, refLen - 40 - len));
        return new int[] {kind, pos, len, r.nextInt()};
    }

    private static byte[] applyVariants(byte[] ref, List<int[]> vars, long s) {
        List<int[]> sorted = new ArrayList<>(vars);
        sorted.sort((a, b) -> Integer.compare(b[1], a[1])); // right to left keeps positions valid
        byte[] h = ref;
        for (int[] v : sorted) {
            Random r = new Random(v[3]);
            int pos = Math.min(v[1], h.length - 1);
            if (v[0] == 0) {
                h = h.clone();
                byte old = h[pos];
                do {
                    h[pos] = ACGT[r.nextInt(4)];
                } while (h[pos] == old);
            } else if (v[0] == 1) {
                byte[] n = new byte[h.length + v[2]];
                System.arraycopy(h, 0, n, 0, pos);
                for (int k = 0; k < v[2]; k++) {
                    n[pos + k] = ACGT[r.nextInt(4)];
                }
                System.arraycopy(h, pos, n, pos + v[2], h.length - pos);
                h = n;
            } else {
                int len = Math.min(v[2], h.length - pos - 1);
                byte[] n = new byte[h.length - len];
                System.arraycopy(h, 0, n, 0, pos);
                System.arraycopy(h, pos + len, n, pos, h.length - pos - len);
                h = n;
            }
        }
        return h;
    }

    /**
     * A read of {@code len} bases from {@code src} with Illumina-like qualities; substitutions
     * happen with the probability its base quality states, indel errors at 2e-4 per base.
     */
    static Read sequencedRead(Random r, byte[] src, int len, boolean recalibratedIndels) {
        byte[] bases = new byte[len], q = new byte[len], ins = new byte[len], del = new byte[len], gcp = new byte[len];
        boolean goodRead = r.nextInt(100) < 85;
        double mean = goodRead ? 36 : 27;
        int start = src.length > len ? r.nextInt(src.length - len + 1) : 0;
        int s = start;
        for (int i = 0; i < len; i++) {
            double drop = i > 0.8 * len ? (i - 0.8 * len) / (0.2 * len) * 8 : 0;
            int qual = (int) Math.round(mean + r.nextGaussian() * 3.5 - drop);
            if (r.nextInt(100) < 3) {
                qual = 6 + r.nextInt(15);
            }
            qual = Math.max(6, Math.min(41, qual));
            double u = r.nextDouble();
            if (u < 2e-4 && s > 0) {
                s--; // insertion error: the read repeats a haplotype base
            } else if (u < 4e-4) {
                s++; // deletion error: skip a haplotype base
            }
            byte c = s < src.length ? src[s] : randomBase(r);
            s++;
            if (r.nextDouble() < Math.pow(10, -qual / 10.0)) {
                byte old = c;
                do {
                    c = ACGT[r.nextInt(4)];
                } while (c == old);
            }
            if (qual <= 8 && r.nextInt(20) == 0) {
                c = 'N';
                qual = 6; // GATK: N gets quality 2, floored to 6
            }
            bases[i] = c;
            q[i] = (byte) qual;
            int gop = recalibratedIndels ? (int) Math.round(45 + r.nextGaussian() * 2) : 45;
            ins[i] = (byte) Math.max(40, Math.min(50, gop));
            gop = recalibratedIndels ? (int) Math.round(45 + r.nextGaussian() * 2) : 45;
            del[i] = (byte) Math.max(40, Math.min(50, gop));
            gcp[i] = 10;
        }
        return new Read(bases, q, ins, del, gcp);
    }

    private static byte[] fill(int n, int v) {
        byte[] b = new byte[n];
        Arrays.fill(b, (byte) v);
        return b;
    }

    private static Read gatkRead(Random r, byte[] src, int len) {
        return sequencedRead(r, src, len, false);
    }

    /**
     * The seed paper's shape grids: read = haplotype length in {24,...,144}, and read x haplotype
     * in {32,64,96,128} x {32,64,...,256}; {@code groupsPerShape} groups of 16 reads x 4
     * haplotypes per shape.
     */
    public Dataset paperGrid(int groupsPerShape) {
        List<Region> out = new ArrayList<>();
        int k = 0;
        for (int l : new int[] {24, 48, 72, 96, 120, 144}) {
            for (int g = 0; g < groupsPerShape; g++) {
                out.add(shapeRegion(rng(3, k++), l, l, 16, 4));
            }
        }
        for (int rl : new int[] {32, 64, 96, 128}) {
            for (int hl = 32; hl <= 256; hl += 32) {
                for (int g = 0; g < groupsPerShape; g++) {
                    out.add(shapeRegion(rng(3, k++), rl, hl, 16, 4));
                }
            }
        }
        return new Dataset("paper-grid", "seed paper shape grid: read=hap in {24..144} and {32..128}x{32..256}, "
            + groupsPerShape + " group(s) of 16 reads x 4 haplotypes per shape (seed " + seed + ")", out, true);
    }

    /** One group of {@code reads} reads of length {@code rl} and {@code haps} haplotypes of length {@code hl}. */
    public Region shapeRegion(long index, int rl, int hl, int reads, int haps) {
        return shapeRegion(rng(4, index * 100_000L + rl * 1000L + hl), rl, hl, reads, haps);
    }

    static Region shapeRegion(Random r, int rl, int hl, int reads, int haps) {
        byte[] base = referenceWindow(r, Math.max(hl, 30));
        List<byte[]> hs = new ArrayList<>();
        for (int h = 0; h < haps; h++) {
            byte[] x = Arrays.copyOf(base, hl);
            for (int k = 0; k < h; k++) {
                x[r.nextInt(hl)] = ACGT[r.nextInt(4)];
            }
            hs.add(x);
        }
        List<Read> rs = new ArrayList<>();
        for (int i = 0; i < reads; i++) {
            byte[] src = hs.get(r.nextInt(haps));
            if (rl <= src.length) {
                rs.add(gatkRead(r, src, rl));
            } else {
                byte[] longer = Arrays.copyOf(src, rl);
                for (int k = src.length; k < rl; k++) {
                    longer[k] = randomBase(r);
                }
                rs.add(gatkRead(r, longer, rl));
            }
        }
        return new Region(rs, hs);
    }

    /**
     * Edge cases (one group each): length-1 reads and haplotypes, reads longer than haplotypes,
     * N bases, IUPAC and lower-case bytes, quality extremes (0 and 127 in ins/del/gcp, 6..127
     * base), ~1000 bp sequences, and pairs that underflow float (double recompute).
     */
    public Dataset edgeCases() {
        Random r = rng(2, 0);
        List<Region> out = new ArrayList<>();
        // 1. length-1 reads x length-1 haplotypes, N included
        List<Read> one = new ArrayList<>();
        for (byte b : new byte[] {'A', 'C', 'N'}) {
            one.add(new Read(new byte[] {b}, new byte[] {30}, new byte[] {45}, new byte[] {45}, new byte[] {10}));
        }
        out.add(new Region(one, List.of(new byte[] {'A'}, new byte[] {'C'}, new byte[] {'N'})));
        // 2. length-1 read vs long haplotype; 150 bp read vs length-1 haplotype
        byte[] h300 = referenceWindow(r, 300);
        out.add(new Region(List.of(new Read(new byte[] {h300[100]}, new byte[] {40}, new byte[] {45}, new byte[] {45},
            new byte[] {10}), gatkRead(r, h300, 150)), List.of(h300, new byte[] {'G'})));
        // 3. reads longer than haplotypes
        byte[] h180 = referenceWindow(r, 180);
        out.add(new Region(List.of(gatkRead(r, h180, 150), gatkRead(r, h180, 120)),
            List.of(Arrays.copyOf(h180, 20), Arrays.copyOfRange(h180, 10, 110), Arrays.copyOf(h180, 149))));
        // 4. N bases in reads and haplotypes
        byte[] hn = referenceWindow(r, 260);
        byte[] hn2 = hn.clone();
        for (int k = 100; k < 110; k++) {
            hn2[k] = 'N';
        }
        List<Read> nr = new ArrayList<>();
        for (int i = 0; i < 3; i++) {
            Read x = gatkRead(r, hn, 150);
            for (int k = 0; k < 150; k += 7 + i) {
                x.bases()[k] = 'N';
            }
            nr.add(x);
        }
        byte[] allN = fill(150, 'N');
        nr.add(new Read(allN, fill(150, 6), fill(150, 45), fill(150, 45), fill(150, 10)));
        out.add(new Region(nr, List.of(hn, hn2)));
        // 5. non-ACGT bytes: IUPAC codes, lower case, punctuation
        byte[] iupac = "RYKMSWBDHVacgtnX.-*".getBytes(java.nio.charset.StandardCharsets.US_ASCII);
        byte[] hi = referenceWindow(r, 250);
        byte[] hi2 = hi.clone();
        for (int k = 0; k < hi2.length; k += 5) {
            hi2[k] = iupac[r.nextInt(iupac.length)];
        }
        byte[] hlow = new String(hi, java.nio.charset.StandardCharsets.US_ASCII).toLowerCase()
            .getBytes(java.nio.charset.StandardCharsets.US_ASCII);
        List<Read> ir = new ArrayList<>();
        for (int i = 0; i < 3; i++) {
            Read x = gatkRead(r, hi, 150);
            for (int k = i; k < 150; k += 4) {
                x.bases()[k] = iupac[r.nextInt(iupac.length)];
            }
            ir.add(x);
        }
        out.add(new Region(ir, List.of(hi, hi2, hlow)));
        // 6. quality extremes
        byte[] hq = referenceWindow(r, 300);
        List<Read> qr = new ArrayList<>();
        // {base, ins, del, gcp}. gcp 0 at the first read base makes every path impossible: the
        // likelihood is exactly 0 and log10 gives -Infinity (kept once, as a case of its own).
        // ins and del are never both low: with ins = del = 0 the match-to-match
        // probability 1 - (e_ins + e_del) is negative and the likelihood is not a number.
        int[][] qs = {{6, 0, 127, 127}, {127, 127, 127, 127}, {6, 127, 127, 0}, {127, 127, 0, 10}, {40, 0, 127, 10},
            {6, 45, 45, 127}};
        for (int[] q : qs) {
            Read x = gatkRead(r, hq, 150);
            qr.add(new Read(x.bases(), fill(150, q[0]), fill(150, q[1]), fill(150, q[2]), fill(150, q[3])));
        }
        Read mixed = gatkRead(r, hq, 150);
        byte[] mq = new byte[150], mi = new byte[150], md = new byte[150], mg = new byte[150];
        for (int k = 0; k < 150; k++) {
            mq[k] = (byte) (6 + r.nextInt(122));
            mi[k] = (byte) (r.nextBoolean() ? 0 : 127);
            md[k] = (byte) (mi[k] == 0 ? 127 : r.nextInt(128));
            mg[k] = (byte) (k == 0 || r.nextBoolean() ? 127 : 0);
        }
        qr.add(new Read(mixed.bases(), mq, mi, md, mg));
        out.add(new Region(qr, List.of(hq)));
        // 7. long sequences (~1000 bp)
        byte[] h1000 = referenceWindow(r, 1000);
        byte[] h1010 = applyVariants(h1000, List.of(new int[] {1, 500, 10, 7}, new int[] {0, 800, 1, 9}), 1);
        out.add(new Region(List.of(gatkRead(r, h1000, 1000), gatkRead(r, h1010, 150)), List.of(h1000, h1010)));
        // 8. underflow: unrelated high-quality reads (float result below 1e-28 -> double path)
        byte[] hu = referenceWindow(r, 500);
        List<Read> ur = new ArrayList<>();
        for (int i = 0; i < 3; i++) {
            Read x = gatkRead(r, referenceWindow(r, 200), 150);
            ur.add(new Read(x.bases(), fill(150, 40), fill(150, 45), fill(150, 45), fill(150, 10)));
        }
        out.add(new Region(ur, List.of(hu)));
        // 9. all-low quality reads, homopolymer haplotype
        byte[] homo = fill(300, 'A');
        List<Read> lr = new ArrayList<>();
        for (int i = 0; i < 2; i++) {
            Read x = gatkRead(r, homo, 100 + 50 * i);
            lr.add(new Read(x.bases(), fill(x.length(), 6), x.ins(), x.del(), x.gcp()));
        }
        out.add(new Region(lr, List.of(homo, referenceWindow(r, 300))));
        return new Dataset("edge", "edge cases: length 1, read longer than haplotype, N, IUPAC/lower case, "
            + "quality extremes, ~1000 bp, float underflow (seed " + seed + ")", out, false);
    }
}
