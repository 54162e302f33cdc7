package org.dpaccel.pdhmm;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

import org.dpaccel.Backend;
import org.dpaccel.Config;
import org.dpaccel.DpaContext;
import org.dpaccel.DpaccelException;
import org.dpaccel.Status;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;

/**
 * org.dpaccel.pdhmm through JNI: GKL's carried expected-value file (test-data/pdhmm, within its
 * printed 7 significant digits), a hand-derived value, both row modes, and the errors.
 */
class PdhmmApiTest {
    private static byte[] phred(String fastq) {
        byte[] b = fastq.getBytes(StandardCharsets.US_ASCII);
        for (int i = 0; i < b.length; i++) {
            b[i] -= 33;
        }
        return b;
    }

    @Test
    void gklExpectedValuesFile() throws IOException {
        Path f = Path.of(System.getProperty("dpaccel.testdata.dir", "../../test-data"), "pdhmm",
            "pdhmm_syn_990_1_2.txt");
        Assumptions.assumeTrue(Files.isRegularFile(f), "SKIPPED: " + f + " not found");
        List<String> lines = Files.readAllLines(f);
        PdhmmBatch.Builder b = PdhmmBatch.builder();
        double[] want = new double[lines.size() - 1];
        for (int k = 1; k < lines.size(); k++) {
            String[] c = lines.get(k).split("\t");
            String[] pdS = c[1].substring(1, c[1].length() - 1).split(",");
            byte[] pd = new byte[pdS.length];
            for (int j = 0; j < pd.length; j++) {
                pd[j] = Byte.parseByte(pdS[j].trim());
            }
            b.add(c[0].getBytes(StandardCharsets.US_ASCII), pd, c[2].getBytes(StandardCharsets.US_ASCII),
                phred(c[3]), phred(c[4]), phred(c[5]), phred(c[6]));
            want[k - 1] = Double.parseDouble(c[7]);
        }
        try (DpaContext ctx = DpaContext.create()) {
            double[] got = Pdhmm.compute(ctx, b.build());
            for (int k = 0; k < want.length; k++) {
                double halfUlp = 0.5e-6 * Math.pow(10, Math.floor(Math.log10(Math.abs(want[k]))));
                assertTrue(Math.abs(got[k] - want[k]) <= halfUlp * (1 + 1e-9),
                    "pair " + k + ": " + got[k] + " vs GKL's " + want[k]);
            }
        }
    }

    @Test
    void handDerivedAndRowModes() {
        byte[] q = { 30 };
        PdhmmBatch one = PdhmmBatch.builder().add(new byte[] { 'A' }, new byte[] { 0 }, new byte[] { 'A' }, q, q, q,
            new byte[] { 10 }).build();
        byte[] hap = "ACGTACGTAC".getBytes(StandardCharsets.US_ASCII);
        byte[] pd = new byte[10];
        pd[2] = Pdhmm.DEL_START;
        pd[4] = Pdhmm.DEL_END;
        pd[9] = Pdhmm.DEL_START; // the row ends inside a deletion: GATK and GKL rows differ
        byte[] read = "ACGTAC".getBytes(StandardCharsets.US_ASCII);
        byte[] rq = { 30, 30, 30, 30, 30, 30 }, gcp = { 10, 10, 10, 10, 10, 10 };
        PdhmmBatch del = PdhmmBatch.builder().add(hap, pd, read, rq, rq, rq, gcp).build();
        // the GPU is disabled: Backend.GPU must then fail with NO_DEVICE whatever the host has
        try (DpaContext ctx = DpaContext.create(Config.builder().threads(1).gpuDisable(true).build())) {
            assertEquals(Math.log10(0.999 * 0.9), Pdhmm.compute(ctx, one)[0], 1e-12);
            double gatk = Pdhmm.compute(ctx, del, Pdhmm.Rows.GATK, null, null)[0];
            double gkl = Pdhmm.compute(ctx, del, Pdhmm.Rows.GKL, Backend.CPU, null)[0];
            assertTrue(gatk != gkl, gatk + " " + gkl);
            long[] stats = new long[4];
            Pdhmm.compute(ctx, del, Pdhmm.Rows.GATK, null, stats);
            assertEquals(1, stats[0]);
            assertEquals(60, stats[1]);
            DpaccelException e = assertThrows(DpaccelException.class,
                () -> Pdhmm.compute(ctx, one, Pdhmm.Rows.GATK, Backend.GPU, null));
            assertEquals(Status.NO_DEVICE, e.status());
        }
    }

    @Test
    void errorsNameThePairAndField() {
        byte[] q = { 30 };
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> PdhmmBatch.builder()
            .add(new byte[] { 'A' }, new byte[] { 0 }, new byte[] { 'A' }, q, q, new byte[] { -3 }, q));
        assertEquals("PDHMM pair 0: delQuals[0] = -3, must be in [0, 127]", e.getMessage());
        assertThrows(IllegalArgumentException.class, () -> PdhmmBatch.builder().add(new byte[0], new byte[0],
            new byte[] { 'A' }, q, q, q, q));
        PdhmmBatch bad = PdhmmBatch.builder().add(new byte[] { 'G' }, new byte[] { Pdhmm.SNP | Pdhmm.A },
            new byte[] { 'R' }, q, q, q, q).build();
        try (DpaContext ctx = DpaContext.create()) {
            DpaccelException d = assertThrows(DpaccelException.class, () -> Pdhmm.compute(ctx, bad));
            assertTrue(d.getMessage().contains("read_bases[0] = 0x52"), d.getMessage());
            PdhmmBatch slots = PdhmmBatch.ofSlots(new byte[2], new byte[2], new byte[2], new byte[2], new byte[2],
                new byte[2], new byte[1], new long[] { 1, 1 }, new long[] { 1, 1 }, 1, 1);
            d = assertThrows(DpaccelException.class, () -> Pdhmm.compute(ctx, slots));
            assertTrue(d.getMessage().contains("gcpQuals has 1 bytes, expected 2"), d.getMessage());
        }
    }
}
