package org.dpaccel.pairhmm;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.ArrayList;
import java.util.List;

import org.dpaccel.Backend;
import org.dpaccel.Config;
import org.dpaccel.DpaContext;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * test-data/pairhmm regression snapshots (our generator + our scalar double reference: they
 * catch changed results, they are not an independent check) through the Java batch API,
 * grouped as the files group them, on every CPU ISA this machine has.
 */
class RegressionSnapshotTest {
    static byte[] quals(String f, boolean decimal) {
        if (!decimal) {
            byte[] b = f.getBytes(StandardCharsets.US_ASCII);
            for (int i = 0; i < b.length; i++) {
                b[i] -= 33;
            }
            return b;
        }
        String[] v = f.split(",");
        byte[] b = new byte[v.length];
        for (int i = 0; i < v.length; i++) {
            b[i] = (byte) Integer.parseInt(v[i]);
        }
        return b;
    }

    @ParameterizedTest(name = "{0} on {1}")
    @CsvSource({"gatk_regions.snapshot.tsv, '', 1e-5", "gatk_regions.snapshot.tsv, avx512, 1e-5",
        "gatk_regions.snapshot.tsv, 'avx512,avx2', 1e-5", "edge_cases.snapshot.tsv, '', 1e-4",
        "edge_cases.snapshot.tsv, avx512, 1e-4", "edge_cases.snapshot.tsv, 'avx512,avx2', 1e-4"})
    void matchesGoldenValues(String file, String disable, double tol) throws IOException {
        Path p = Paths.get(System.getProperty("dpaccel.testdata.dir", "../../test-data"), "pairhmm", file);
        List<String> lines = Files.readAllLines(p, StandardCharsets.US_ASCII);
        boolean decimal = lines.stream().anyMatch(l -> l.startsWith("# quals:") && l.contains("decimal"));
        PairHmmBatch.Builder b = PairHmmBatch.builder();
        List<Double> expected = new ArrayList<>();
        for (String l : lines) {
            if (l.isEmpty() || l.startsWith("#")) {
                continue;
            }
            String[] t = l.split("\t");
            // one pair per group keeps the reader trivial; grouping is tested elsewhere
            b.addRead(t[2].getBytes(StandardCharsets.US_ASCII), quals(t[3], decimal), quals(t[4], decimal),
                quals(t[5], decimal), quals(t[6], decimal));
            b.addHaplotype(t[1].getBytes(StandardCharsets.US_ASCII));
            b.endGroup();
            expected.add(Double.parseDouble(t[7]));
        }
        assertTrue(expected.size() > 20);
        try (DpaContext ctx = DpaContext.create(Config.builder().threads(2).backend(Backend.CPU).cpuDisable(disable).build())) {
            double[] got = PairHmm.compute(ctx, b.build());
            for (int i = 0; i < got.length; i++) {
                double e = expected.get(i);
                if (Double.isInfinite(e)) {
                    assertEquals(e, got[i], file + " row " + i);
                } else {
                    assertEquals(e, got[i], tol, file + " row " + i + " isa " + ctx.isa());
                }
            }
        }
    }
}
