package org.dpaccel.gatk;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

import org.broadinstitute.gatk.nativebindings.pairhmm.HaplotypeDataHolder;
import org.broadinstitute.gatk.nativebindings.pairhmm.PairHMMNativeArguments;
import org.broadinstitute.gatk.nativebindings.pairhmm.ReadDataHolder;
import org.dpaccel.TestData;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * GKL's conformance vectors (104 pairs with GATK's expected log10 likelihoods), through the
 * GATK binding exactly as HaplotypeCaller calls it: base qualities floored at 6 by the caller
 * (as GATK does), tolerance 1e-5 (GKL's own test), float and double modes.
 */
class DpaPairHmmConformanceTest {
    record Row(String hap, String read, byte[] q, byte[] ins, byte[] del, byte[] gcp, double expected) {
    }

    static List<Row> rows() throws IOException {
        Path f = TestData.testData("pairhmm/gkl-pairhmm-testdata.txt");
        assertTrue(TestData.exists(f), f + " is committed (test-data/pairhmm/README.md): it must be there");
        List<Row> rows = new ArrayList<>();
        for (String line : Files.readAllLines(f, StandardCharsets.US_ASCII)) {
            if (line.isBlank() || line.startsWith("#")) {
                continue;
            }
            String[] t = line.trim().split("\\s+");
            rows.add(new Row(t[0], t[1], phred(t[2], 6), phred(t[3], 0), phred(t[4], 0), phred(t[5], 0),
                Double.parseDouble(t[6])));
        }
        return rows;
    }

    static byte[] phred(String s, int floor) {
        byte[] b = new byte[s.length()];
        for (int i = 0; i < b.length; i++) {
            b[i] = (byte) Math.max(floor, s.charAt(i) - 33);
        }
        return b;
    }

    @ParameterizedTest
    @ValueSource(booleans = {false, true})
    void matchesGatkExpectedValues(boolean useDouble) throws IOException {
        List<Row> rows = rows();
        assertTrue(rows.size() > 100);
        DpaPairHmm hmm = new DpaPairHmm();
        assertTrue(hmm.load(null));
        PairHMMNativeArguments args = new PairHMMNativeArguments();
        args.maxNumberOfThreads = 2;
        args.useDoublePrecision = useDouble;
        hmm.initialize(args);
        try {
            for (int i = 0; i < rows.size(); i++) {
                Row r = rows.get(i);
                ReadDataHolder rd = new ReadDataHolder();
                rd.readBases = r.read.getBytes(StandardCharsets.US_ASCII);
                rd.readQuals = r.q;
                rd.insertionGOP = r.ins;
                rd.deletionGOP = r.del;
                rd.overallGCP = r.gcp;
                HaplotypeDataHolder hd = new HaplotypeDataHolder();
                hd.haplotypeBases = r.hap.getBytes(StandardCharsets.US_ASCII);
                double[] out = new double[1];
                hmm.computeLikelihoods(new ReadDataHolder[] {rd}, new HaplotypeDataHolder[] {hd}, out);
                assertEquals(r.expected, out[0], 1e-5, "line " + (i + 2) + " of gkl-pairhmm-testdata.txt");
            }
        } finally {
            hmm.done();
            hmm.done(); // idempotent
        }
    }
}
