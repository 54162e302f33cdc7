package org.dpaccel.gatk.it;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/** Just enough VCF for comparing single-sample HaplotypeCaller output: one record per line. */
public final class VcfRecords {
    /** One single-sample record; pl is null when absent. */
    public record Rec(String chrom, int pos, String ref, String alt, double qual, String gt, int gq, int[] pl,
        String line) {
        public String key() {
            return chrom + ":" + pos + ":" + ref + ">" + alt;
        }

        public boolean isSnp() {
            return ref.length() == 1 && !alt.contains(",") && alt.length() == 1;
        }
    }

    private VcfRecords() {
    }

    public static Map<String, Rec> read(Path vcf) throws IOException {
        Map<String, Rec> out = new LinkedHashMap<>();
        for (String line : Files.readAllLines(vcf, StandardCharsets.US_ASCII)) {
            if (line.isEmpty() || line.startsWith("#")) {
                continue;
            }
            String[] f = line.split("\t");
            double qual = f[5].equals(".") ? Double.NaN : Double.parseDouble(f[5]);
            String gt = ".";
            int gq = -1;
            int[] pl = null;
            if (f.length > 9) {
                String[] keys = f[8].split(":"), vals = f[9].split(":");
                for (int i = 0; i < keys.length && i < vals.length; i++) {
                    switch (keys[i]) {
                        case "GT" -> gt = vals[i].replace('|', '/');
                        case "GQ" -> gq = vals[i].equals(".") ? -1 : Integer.parseInt(vals[i]);
                        case "PL" -> {
                            if (!vals[i].equals(".")) {
                                String[] p = vals[i].split(",");
                                pl = new int[p.length];
                                for (int k = 0; k < p.length; k++) {
                                    pl[k] = Integer.parseInt(p[k]);
                                }
                            }
                        }
                        default -> {
                        }
                    }
                }
            }
            Rec r = new Rec(f[0], Integer.parseInt(f[1]), f[3], f[4], qual, gt, gq, pl, line);
            out.put(r.key(), r);
        }
        return out;
    }

    /** How two call sets of the same data differ, field by field. */
    public static final class Diff {
        public final List<String> onlyA = new ArrayList<>();
        public final List<String> onlyB = new ArrayList<>();
        public final List<String> gtDiffer = new ArrayList<>();
        public int common;
        public int identicalLines;
        public int qualDiffer;
        public double maxQualDiff;
        public int gqDiffer;
        public int maxGqDiff;
        public int plDiffer;
        public int maxPlDiff;

        public boolean sameSitesAllelesGenotypes() {
            return onlyA.isEmpty() && onlyB.isEmpty() && gtDiffer.isEmpty();
        }

        @Override
        public String toString() {
            return String.format(Locale.ROOT,
                "%d common records (%d byte-identical lines), only in first %d %s, only in second %d %s, "
                    + "GT differs %d %s; QUAL differs in %d (max |d| %.2f), GQ in %d (max |d| %d), PL in %d (max |d| %d)",
                common, identicalLines, onlyA.size(), head(onlyA), onlyB.size(), head(onlyB), gtDiffer.size(),
                head(gtDiffer), qualDiffer, maxQualDiff, gqDiffer, maxGqDiff, plDiffer, maxPlDiff);
        }

        private static String head(List<String> l) {
            return l.isEmpty() ? "" : l.subList(0, Math.min(5, l.size())).toString();
        }
    }

    public static Diff compare(Map<String, Rec> a, Map<String, Rec> b) {
        Diff d = new Diff();
        for (Map.Entry<String, Rec> e : a.entrySet()) {
            Rec y = b.get(e.getKey());
            if (y == null) {
                d.onlyA.add(e.getKey() + " QUAL " + e.getValue().qual);
                continue;
            }
            Rec x = e.getValue();
            d.common++;
            if (x.line.equals(y.line)) {
                d.identicalLines++;
            }
            if (!x.gt.equals(y.gt)) {
                d.gtDiffer.add(e.getKey() + " " + x.gt + " vs " + y.gt);
            }
            double dq = Math.abs(x.qual - y.qual);
            if (dq > 0) {
                d.qualDiffer++;
                d.maxQualDiff = Math.max(d.maxQualDiff, dq);
            }
            int dg = Math.abs(x.gq - y.gq);
            if (dg > 0) {
                d.gqDiffer++;
                d.maxGqDiff = Math.max(d.maxGqDiff, dg);
            }
            if (x.pl != null || y.pl != null) {
                int m = 0;
                if (x.pl == null || y.pl == null || x.pl.length != y.pl.length) {
                    m = Integer.MAX_VALUE;
                } else {
                    for (int i = 0; i < x.pl.length; i++) {
                        m = Math.max(m, Math.abs(x.pl[i] - y.pl[i]));
                    }
                }
                if (m > 0) {
                    d.plDiffer++;
                    d.maxPlDiff = Math.max(d.maxPlDiff, m);
                }
            }
        }
        for (String k : b.keySet()) {
            if (!a.containsKey(k)) {
                d.onlyB.add(k + " QUAL " + b.get(k).qual);
            }
        }
        return d;
    }
}
