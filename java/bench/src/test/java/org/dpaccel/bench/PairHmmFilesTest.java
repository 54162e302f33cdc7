package org.dpaccel.bench;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;

import org.dpaccel.bench.data.PairHmmFiles;
import org.dpaccel.bench.data.Region;
import org.junit.jupiter.api.Test;

class PairHmmFilesTest {
    // Two groups in the 'R H' format: 2 reads x 1 haplotype, then 1 read x 2 haplotypes.
    static final String IN = """
        2 1
        ACGT +5?I IIII IIII ++++
        AGGT !'5N NNNN NNNN ++++
        TTACGTAA
        1 2
        CA II II II ++
        CCAA
        GCAT
        """;

    @Test
    void parsesGroupFormat() throws IOException {
        PairHmmFiles.Parsed p = PairHmmFiles.parse(IN);
        assertEquals("R H group format", p.format());
        assertEquals(2, p.regions().size());
        Region g = p.regions().get(0);
        assertEquals(2, g.reads().size());
        assertEquals(1, g.haps().size());
        assertArrayEquals(new byte[] {10, 20, 30, 40}, g.reads().get(0).quals());
        assertArrayEquals(new byte[] {40, 40, 40, 40}, g.reads().get(0).ins());
        assertArrayEquals(new byte[] {10, 10, 10, 10}, g.reads().get(0).gcp());
        // '!' = 0 and ''' = 6: base qualities below 6 are floored, as GATK does
        assertArrayEquals(new byte[] {6, 6, 20, 45}, g.reads().get(1).quals());
        assertEquals(1, p.flooredQuals());
        assertArrayEquals("TTACGTAA".getBytes(), g.haps().get(0));
        assertEquals(2, p.regions().get(1).haps().size());
        assertEquals(2 * 8 * 4, p.regions().get(0).cells());
    }

    @Test
    void parsesSevenColumnFormat() throws IOException {
        String txt = "# hap-bases read-bases read-qual read-ins-qual read-del-qual gcp expected-result\n"
            + "ACGTACGT CGTA II#I NNNN NNNN ++++ -1.5e+00\n"
            + "ACGT A I N N + -2.0\n";
        PairHmmFiles.Parsed p = PairHmmFiles.parse(txt);
        assertEquals(2, p.regions().size());
        Region g = p.regions().get(0);
        assertEquals(-1.5, g.expected()[0]);
        assertArrayEquals(new byte[] {40, 40, 6, 40}, g.reads().get(0).quals());
        assertEquals(1, p.flooredQuals());
    }

    @Test
    void rejectsBrokenInput() {
        assertThrows(IOException.class, () -> PairHmmFiles.parse("2 1\nACGT IIII IIII IIII ++++\n"));
        assertThrows(IOException.class, () -> PairHmmFiles.parse("1 1\nACGT III IIII IIII ++++\nACGT\n"));
        assertThrows(IOException.class, () -> PairHmmFiles.parse("a b c\n"));
    }

    @Test
    void headerCountsThatAreNotCountsNameTheLine() {
        for (String header : new String[] {"3000000000 1", "1 -2", "x 1", "1 0x10"}) {
            String group = "\nACGT IIII IIII IIII ++++\nACGT\n";
            IOException e = assertThrows(IOException.class, () -> PairHmmFiles.parse("1 1" + group + header + group));
            assertTrue(e.getMessage().contains("line 4") && e.getMessage().contains("must be a count"), e.getMessage());
        }
    }
}
