package org.dpaccel.gatk.dropin;

import java.util.ArrayList;
import java.util.List;
import java.util.Random;

import org.broadinstitute.gatk.nativebindings.pdhmm.HaplotypeDataHolder;
import org.broadinstitute.gatk.nativebindings.pdhmm.ReadDataHolder;

/**
 * Seeded PDHMM inputs shaped like GATK's: haplotypes with SNP sites (alternative letters in the PD
 * bits) and deletions (DEL_START before the deleted run, DEL_END on its last base), reads drawn from
 * them with errors and the odd N, base qualities 6..40, GOP 40..50, GCP 10; with {@code wild}, any
 * phred 0..93 and arbitrary PD bytes (GKL's synthetic files' style). Packed as GATK 4.7's
 * VectorLoglessPairPDHMM packs a batch for IntelPDHMM.computePDHMM.
 */
final class PdhmmCases {
    final List<byte[][]> pairs = new ArrayList<>(); // hap, pd, read, q, ins, del, gcp
    int maxHap = 1, maxRead = 1;

    static PdhmmCases generate(long seed, int n, int maxHapLen, int maxReadLen) {
        return generate(seed, n, 1, maxHapLen, 1, maxReadLen);
    }

    /** Lengths uniform in [minHap, maxHap] and [minRead, maxRead]; every fourth pair "wild". */
    static PdhmmCases generate(long seed, int n, int minHapLen, int maxHapLen, int minReadLen, int maxReadLen) {
        return generate(seed, n, minHapLen, maxHapLen, minReadLen, maxReadLen, true);
    }

    /**
     * As above; {@code wilds} false makes every pair GATK-shaped (PD flags at SNP and deletion sites
     * only, base qualities 6-40, GOP 40-50, GCP 10) instead of every fourth one "wild" (any
     * qualities, random PD bytes on every base: correctness coverage, not data GATK makes).
     */
    static PdhmmCases generate(long seed, int n, int minHapLen, int maxHapLen, int minReadLen, int maxReadLen,
        boolean wilds) {
        Random r = new Random(seed);
        PdhmmCases c = new PdhmmCases();
        byte[] acgt = { 'A', 'C', 'G', 'T' };
        byte[] bits = { 8, 16, 32, 64 };
        for (int k = 0; k < n; k++) {
            boolean wild = wilds && k % 4 == 3;
            int h = minHapLen + r.nextInt(maxHapLen - minHapLen + 1);
            int len = minReadLen + r.nextInt(maxReadLen - minReadLen + 1);
            byte[] hap = new byte[h], pd = new byte[h];
            for (int j = 0; j < h; j++) {
                hap[j] = acgt[r.nextInt(4)];
            }
            for (int j = 0; j < h; j++) {
                if (wild) {
                    pd[j] = (byte) r.nextInt(256);
                    continue;
                }
                int roll = r.nextInt(100);
                if (roll < 6) {
                    pd[j] = (byte) (1 | bits[r.nextInt(4)] | (r.nextBoolean() ? bits[indexOf(acgt, hap[j])] : 0));
                } else if (roll < 10 && j + 1 < h) {
                    int end = Math.min(j + 1 + r.nextInt(6), h - 1);
                    pd[j] |= 2;
                    pd[end] |= 4;
                    j = end;
                }
            }
            if (r.nextInt(10) == 0) {
                pd[h - 1] |= (byte) (r.nextBoolean() ? 2 : 4);
            }
            int start = h > len ? r.nextInt(h - len + 1) : 0;
            byte[] read = new byte[len], q = new byte[len], ins = new byte[len], del = new byte[len], gcp = new byte[len];
            for (int i = 0; i < len; i++) {
                byte b = hap[(start + i) % h];
                int roll = r.nextInt(100);
                read[i] = roll < 3 ? acgt[r.nextInt(4)] : roll < 4 ? (byte) 'N' : b;
                q[i] = (byte) (wild ? r.nextInt(94) : 6 + r.nextInt(35));
                ins[i] = (byte) (40 + r.nextInt(11));
                del[i] = (byte) (40 + r.nextInt(11));
                // wild gap-open qualities that still make a model: error probabilities summing past
                // 1 (Q0 with anything) fail the call where GATK throws (docs/pdhmm.md)
                while (wild) {
                    int a = 1 + r.nextInt(93), d = 1 + r.nextInt(93);
                    if (Math.pow(10, a / -10.0) + Math.pow(10, d / -10.0) <= 1.0) {
                        ins[i] = (byte) a;
                        del[i] = (byte) d;
                        break;
                    }
                }
                gcp[i] = (byte) (wild ? r.nextInt(94) : 10);
            }
            c.pairs.add(new byte[][] { hap, pd, read, q, ins, del, gcp });
            c.maxHap = Math.max(c.maxHap, h);
            c.maxRead = Math.max(c.maxRead, len);
        }
        return c;
    }

    private static int indexOf(byte[] a, byte b) {
        for (int i = 0; i < a.length; i++) {
            if (a[i] == b) {
                return i;
            }
        }
        return 0;
    }

    /** A pair's read side as GKL's computeLikelihoods takes it. */
    static ReadDataHolder readHolder(byte[][] p) {
        ReadDataHolder d = new ReadDataHolder();
        d.readBases = p[2];
        d.readQuals = p[3];
        d.insertionGOP = p[4];
        d.deletionGOP = p[5];
        d.overallGCP = p[6];
        return d;
    }

    /** A pair's haplotype side as GKL's computeLikelihoods takes it. */
    static HaplotypeDataHolder hapHolder(byte[][] p) {
        HaplotypeDataHolder d = new HaplotypeDataHolder();
        d.haplotypeBases = p[0];
        d.haplotypePDBases = p[1];
        return d;
    }

    /** The 9 arrays of IntelPDHMM.computePDHMM (7 byte arrays, 2 long arrays), GATK's packing. */
    Object[] packed() {
        int n = pairs.size();
        byte[][] a = new byte[7][];
        for (int k = 0; k < 7; k++) {
            a[k] = new byte[n * (k < 2 ? maxHap : maxRead)];
        }
        long[] hl = new long[n], rl = new long[n];
        for (int i = 0; i < n; i++) {
            byte[][] p = pairs.get(i);
            for (int k = 0; k < 7; k++) {
                System.arraycopy(p[k], 0, a[k], i * (k < 2 ? maxHap : maxRead), p[k].length);
            }
            hl[i] = p[0].length;
            rl[i] = p[2].length;
        }
        return new Object[] { a[0], a[1], a[2], a[3], a[4], a[5], a[6], hl, rl };
    }
}
