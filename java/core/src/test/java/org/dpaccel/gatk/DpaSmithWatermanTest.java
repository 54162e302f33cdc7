package org.dpaccel.gatk;

import static org.junit.jupiter.api.Assertions.assertDoesNotThrow;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.File;
import java.nio.charset.StandardCharsets;

import org.broadinstitute.gatk.nativebindings.smithwaterman.SWNativeAlignerResult;
import org.broadinstitute.gatk.nativebindings.smithwaterman.SWOverhangStrategy;
import org.broadinstitute.gatk.nativebindings.smithwaterman.SWParameters;
import org.junit.jupiter.api.Test;

/** GATK's SWAlignerNativeBinding contract on DpaSmithWaterman. */
class DpaSmithWatermanTest {
    static final SWParameters HAP = new SWParameters(200, -150, -260, -11);

    static byte[] b(String s) {
        return s.getBytes(StandardCharsets.US_ASCII);
    }

    @Test
    void loadNeverThrowsAndAligns() {
        DpaSmithWaterman sw = new DpaSmithWaterman();
        assertTrue(assertDoesNotThrow(() -> sw.load(null)));
        assertDoesNotThrow(() -> sw.load(new File("/nonexistent-dir-for-dpaccel")));
        SWNativeAlignerResult r = sw.align(b("AAACCCCC"), b("CCCCC"), new SWParameters(3, -1, -4, -3),
            SWOverhangStrategy.INDEL);
        assertEquals("3D5M", r.cigar);
        assertEquals(0, r.alignment_offset);
        r = sw.align(b("CC"), b("ACC"), new SWParameters(3, -1, -4, -3), SWOverhangStrategy.SOFTCLIP);
        assertEquals("1S2M", r.cigar);
        sw.close();
    }

    @Test
    void longerThanGklAllows() {
        DpaSmithWaterman sw = new DpaSmithWaterman();
        assertTrue(sw.load(null));
        StringBuilder ref = new StringBuilder();
        java.util.Random rng = new java.util.Random(5);
        for (int i = 0; i < 4096; i++) {
            ref.append("ACGT".charAt(rng.nextInt(4)));
        }
        StringBuilder alt = new StringBuilder(ref.substring(500, 2548));
        alt.setCharAt(1000, alt.charAt(1000) == 'A' ? 'C' : 'A');
        SWNativeAlignerResult r = sw.align(b(ref.toString()), b(alt.toString()), HAP, SWOverhangStrategy.SOFTCLIP);
        assertEquals("2048M", r.cigar);
        assertEquals(500, r.alignment_offset);
        sw.close();
    }

    @Test
    void badInputs() {
        DpaSmithWaterman sw = new DpaSmithWaterman();
        sw.load(null);
        assertTrue(assertThrows(NullPointerException.class, () -> sw.align(null, b("A"), HAP, SWOverhangStrategy.INDEL))
            .getMessage().contains("ref"));
        assertTrue(assertThrows(NullPointerException.class, () -> sw.align(b("A"), null, HAP, SWOverhangStrategy.INDEL))
            .getMessage().contains("alt"));
        assertThrows(NullPointerException.class, () -> sw.align(b("A"), b("A"), null, SWOverhangStrategy.INDEL));
        assertThrows(NullPointerException.class, () -> sw.align(b("A"), b("A"), HAP, null));
        assertThrows(IllegalArgumentException.class, () -> sw.align(new byte[0], b("A"), HAP, SWOverhangStrategy.INDEL));
        assertThrows(IllegalArgumentException.class, () -> sw.align(b("A"), new byte[0], HAP, SWOverhangStrategy.INDEL));
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
            () -> sw.align(new byte[70000], b("A"), HAP, SWOverhangStrategy.INDEL));
        assertTrue(e.getMessage().contains("65536"), e.getMessage());
        e = assertThrows(IllegalArgumentException.class, () -> sw.align(b("ACGT"), b("AC"),
            new SWParameters(Integer.MAX_VALUE, -1, -1, -1), SWOverhangStrategy.SOFTCLIP));
        assertTrue(e.getMessage().contains("match"), e.getMessage());
        e = assertThrows(IllegalArgumentException.class, () -> sw.align(new byte[60000], new byte[10000],
            new SWParameters(20000, -1, -1, -1), SWOverhangStrategy.SOFTCLIP));
        assertTrue(e.getMessage().contains("overflow") && e.getMessage().contains("1073741824"), e.getMessage());
        sw.close();
    }

    @Test
    void useAfterCloseThrowsAndCloseIsIdempotent() {
        DpaSmithWaterman sw = new DpaSmithWaterman();
        sw.load(null);
        sw.align(b("ACGT"), b("AGT"), HAP, SWOverhangStrategy.SOFTCLIP);
        sw.close();
        assertDoesNotThrow(sw::close);
        assertThrows(IllegalStateException.class, () -> sw.align(b("ACGT"), b("AGT"), HAP, SWOverhangStrategy.SOFTCLIP));
        DpaSmithWaterman never = new DpaSmithWaterman();
        never.close();
        assertThrows(IllegalStateException.class, () -> never.align(b("A"), b("A"), HAP, SWOverhangStrategy.IGNORE));
    }
}
