package org.dpaccel.bench;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.List;

import org.dpaccel.bench.data.PairHmmGenerator;
import org.dpaccel.bench.data.Read;
import org.dpaccel.bench.data.Region;
import org.junit.jupiter.api.Test;

class VectorsWriterTest {
    static Region tiny() {
        byte[] q = {30, 20}, g = {45, 45}, c = {10, 10};
        return new Region(List.of(new Read("AC".getBytes(), q, g, g, c), new Read("AG".getBytes(), q, g, g, c)),
            List.of("ACGT".getBytes(), "TTT".getBytes()));
    }

    @Test
    void headerAndRows() throws IOException {
        StringWriter w = new StringWriter();
        double[][] exp = {{-1.0, -2.0, -3.0, -4.0}};
        VectorsWriter.write(w, List.of(tiny()), exp, "# generator: test --seed 1", false);
        String[] lines = w.toString().split("\n");
        assertEquals("# group hap-bases read-bases read-qual ins-qual del-qual gcp expected-log10", lines[0]);
        assertTrue(lines[1].startsWith("# generator: "), lines[1]);
        assertEquals("# quals: phred+33 ASCII, one character per base", lines[2]);
        assertEquals(3 + 4, lines.length);
        String[] f = lines[3].split("\t");
        assertEquals(8, f.length);
        assertEquals("0", f[0]);
        assertEquals("ACGT", f[1]);
        assertEquals("AC", f[2]);
        assertEquals("?5", f[3]);
        assertEquals("NN", f[4]);
        assertEquals("++", f[6]);
        assertEquals(-1.0, Double.parseDouble(f[7]));
        // read-major: row 2 is read 0 x hap 1, row 3 read 1 x hap 0
        assertEquals("TTT", lines[4].split("\t")[1]);
        assertEquals("AG", lines[5].split("\t")[2]);
        assertEquals(-3.0, Double.parseDouble(lines[5].split("\t")[7]));
    }

    @Test
    void decimalQuals() throws IOException {
        StringWriter w = new StringWriter();
        VectorsWriter.write(w, List.of(tiny()), new double[][] {{0, 0, 0, 0}}, "# generator: x", true);
        String[] lines = w.toString().split("\n");
        assertEquals("# quals: decimal phred values, comma separated", lines[2]);
        assertEquals("30,20", lines[3].split("\t")[3]);
    }

    @Test
    void rejectsDuplicateReads() {
        Read r = tiny().reads().get(0);
        Region dup = new Region(List.of(r, r), List.of("ACGT".getBytes()));
        assertThrows(IllegalStateException.class,
            () -> VectorsWriter.write(new StringWriter(), List.of(dup), new double[][] {{0, 0}}, "# generator: x", false));
    }

    @Test
    void committedVectorsHaveTheHeader() throws IOException {
        Path dir = Paths.get(System.getProperty("dpaccel.testdata.dir", "../../test-data"), "pairhmm");
        for (String f : new String[] {"gatk_regions.snapshot.tsv", "edge_cases.snapshot.tsv"}) {
            Path p = dir.resolve(f);
            assertTrue(Files.isRegularFile(p), p + " is committed: it must be there");
            List<String> lines = Files.readAllLines(p);
            assertEquals("# " + VectorsWriter.COLUMNS, lines.get(0));
            // files written before the runner became `dpaccel bench` name it dpaccel-bench
            String seed = " gen-vectors --seed " + PairHmmGenerator.DEFAULT_SEED;
            assertTrue(lines.get(1).startsWith("# generator: dpaccel bench" + seed)
                || lines.get(1).startsWith("# generator: dpaccel-bench" + seed), lines.get(1));
            assertTrue(Files.size(p) < 200_000, f + " is " + Files.size(p) + " bytes");
        }
    }
}
