package org.dpaccel.gatk.dropin;

import org.broadinstitute.gatk.nativebindings.pdhmm.HaplotypeDataHolder;
import org.broadinstitute.gatk.nativebindings.pdhmm.PDHMMNativeArguments;
import org.broadinstitute.gatk.nativebindings.pdhmm.ReadDataHolder;

import com.intel.gkl.pdhmm.IntelPDHMM;

/**
 * One-thread PDHMM speed: the drop-in's IntelPDHMM on dpaccel against the real GKL 0.9.1 IntelPDHMM
 * (its off switch), on the same GATK-shaped regions, through computeLikelihoods as GATK 4.7 calls
 * it. A program, not a test (timings do not belong in tests). Run from java/gatk-dropin after
 * {@code mvn test-compile}:
 * {@code java -cp target/test-classes:target/classes:$(cat cp) org.dpaccel.gatk.dropin.PdhmmSpeed [regions] [seed] [gatk]}
 * ({@code gatk}: GATK-shaped pairs only, no "wild" ones).
 * Prints cells per second of each and their ratio; checks that the two agree within 1e-5.
 */
public final class PdhmmSpeed {
    private PdhmmSpeed() {
    }

    public static void main(String[] args) throws Exception {
        int regions = args.length > 0 ? Integer.parseInt(args[0]) : 40;
        long seed = args.length > 1 ? Long.parseLong(args[1]) : 20261125L;
        // "gatk": GATK-shaped pairs only; default: every fourth read and haplotype "wild" (PdhmmCases)
        boolean wilds = args.length <= 2 || !args[2].equals("gatk");
        // a HaplotypeCaller region: 40 reads against 8 haplotypes
        ReadDataHolder[][] reads = new ReadDataHolder[regions][];
        HaplotypeDataHolder[][] haps = new HaplotypeDataHolder[regions][];
        long cells = 0;
        for (int g = 0; g < regions; g++) {
            // reads 100-150 bp (trimmed), haplotypes 300-400 bp, as in a HaplotypeCaller region
            PdhmmCases c = PdhmmCases.generate(seed + g, 40, 300, 400, 100, 150, wilds);
            PdhmmCases hc = PdhmmCases.generate(seed + 1000 + g, 8, 300, 400, 100, 150, wilds);
            reads[g] = new ReadDataHolder[40];
            haps[g] = new HaplotypeDataHolder[8];
            for (int r = 0; r < 40; r++) {
                reads[g][r] = PdhmmCases.readHolder(c.pairs.get(r));
            }
            for (int h = 0; h < 8; h++) {
                byte[][] p = hc.pairs.get(h);
                haps[g][h] = PdhmmCases.hapHolder(p);
                for (ReadDataHolder r : reads[g]) {
                    cells += (long) p[0].length * r.readBases.length;
                }
            }
        }
        PDHMMNativeArguments a = new PDHMMNativeArguments();
        a.maxNumberOfThreads = 1;
        a.avxLevel = PDHMMNativeArguments.AVXLevel.FASTEST_AVAILABLE;
        a.openMPSetting = PDHMMNativeArguments.OpenMPSetting.DISABLE;
        a.setMaxMemoryInMB(512);
        IntelPDHMM ours = new IntelPDHMM();
        ours.load(null);
        ours.initialize(a);
        System.setProperty(DropInPairHmm.DISABLE_PROPERTY, "true");
        IntelPDHMM gkl = new IntelPDHMM();
        gkl.load(null);
        gkl.initialize(a);
        System.clearProperty(DropInPairHmm.DISABLE_PROPERTY);
        double[][] o1 = new double[regions][320], o2 = new double[regions][320];
        double best1 = 1e99, best2 = 1e99;
        for (int rep = 0; rep < 5; rep++) {
            long t0 = System.nanoTime();
            for (int g = 0; g < regions; g++) {
                ours.computeLikelihoods(reads[g], haps[g], o1[g]);
            }
            long t1 = System.nanoTime();
            for (int g = 0; g < regions; g++) {
                gkl.computeLikelihoods(reads[g], haps[g], o2[g]);
            }
            long t2 = System.nanoTime();
            best1 = Math.min(best1, (t1 - t0) * 1e-9);
            best2 = Math.min(best2, (t2 - t1) * 1e-9);
        }
        double maxd = 0;
        for (int g = 0; g < regions; g++) {
            for (int k = 0; k < 320; k++) {
                double d = o1[g][k] == o2[g][k] ? 0 : Math.abs(o1[g][k] - o2[g][k]);
                maxd = Math.max(maxd, d);
            }
        }
        System.out.printf("PDHMM %d regions x 320 pairs (%s), %.3g cells, best of 5, 1 thread:%n", regions,
            wilds ? "a quarter of reads and haplotypes wild" : "GATK-shaped only", (double) cells);
        System.out.printf("  dpaccel  %.4f s  %.3g cells/s%n", best1, cells / best1);
        System.out.printf("  GKL 0.9.1 %.4f s  %.3g cells/s%n", best2, cells / best2);
        System.out.printf("  speed-up %.2fx; max |dpaccel - GKL| %.3g%n", best2 / best1, maxd);
    }
}
