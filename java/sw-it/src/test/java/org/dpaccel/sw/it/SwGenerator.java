package org.dpaccel.sw.it;

import java.nio.charset.StandardCharsets;
import java.util.Random;

/** Seeded generators of GATK-shaped Smith-Waterman inputs. */
final class SwGenerator {
    private static final byte[] ACGT = "ACGT".getBytes(StandardCharsets.US_ASCII);
    static final String PAD = "NNNNNNNNNN"; // GATK's SW_PAD around haplotype and reference

    private final Random rng;

    SwGenerator(long seed) {
        rng = new Random(seed);
    }

    int between(int lo, int hi) {
        return lo + rng.nextInt(hi - lo + 1);
    }

    boolean chance(double p) {
        return rng.nextDouble() < p;
    }

    Random random() {
        return rng;
    }

    String bases(int n) {
        StringBuilder b = new StringBuilder(n);
        for (int i = 0; i < n; i++) {
            b.append((char) ACGT[rng.nextInt(4)]);
        }
        return b.toString();
    }

    /** A reference with repeats: random stretches, homopolymers, STRs and copies of earlier parts. */
    String genome(int n) {
        StringBuilder b = new StringBuilder(n + 64);
        while (b.length() < n) {
            int kind = rng.nextInt(10);
            if (kind < 5 || b.length() < 20) {
                b.append(bases(between(5, 60)));
            } else if (kind < 7) {
                char c = (char) ACGT[rng.nextInt(4)];
                b.append(String.valueOf(c).repeat(between(3, 15)));
            } else if (kind < 9) {
                b.append(bases(between(2, 4)).repeat(between(3, 10)));
            } else {
                int start = rng.nextInt(b.length() - 10);
                b.append(b, start, Math.min(b.length(), start + between(10, 40)));
            }
        }
        return b.substring(0, n);
    }

    /** SNPs, insertions, deletions (1..maxIndel) and STR expansions/contractions. */
    String mutate(String s, int events, int maxIndel) {
        StringBuilder b = new StringBuilder(s);
        for (int e = 0; e < events && b.length() > 2; e++) {
            int pos = rng.nextInt(b.length());
            switch (rng.nextInt(5)) {
                case 0, 1 -> b.setCharAt(pos, (char) ACGT[(indexOf(b.charAt(pos)) + 1 + rng.nextInt(3)) & 3]);
                case 2 -> b.delete(pos, Math.min(b.length() - 1, pos + between(1, maxIndel)));
                case 3 -> b.insert(pos, bases(between(1, maxIndel)));
                default -> {
                    int unit = between(1, 4);
                    int end = Math.min(b.length(), pos + unit);
                    b.insert(pos, b.substring(pos, end).repeat(between(1, 3)));
                }
            }
        }
        return b.toString();
    }

    /** Sequencing errors at the given rate, and rarely a 1-3 base indel. */
    String sequencingErrors(String s, double rate) {
        StringBuilder b = new StringBuilder(s.length());
        for (int i = 0; i < s.length(); i++) {
            char c = s.charAt(i);
            if (chance(rate)) {
                b.append((char) ACGT[(indexOf(c) + 1 + rng.nextInt(3)) & 3]);
            } else {
                b.append(c);
            }
        }
        if (chance(0.15)) {
            return mutate(b.toString(), 1, 3);
        }
        return b.toString();
    }

    private static int indexOf(char c) {
        return switch (c) {
            case 'A' -> 0;
            case 'C' -> 1;
            case 'G' -> 2;
            default -> 3;
        };
    }
}
