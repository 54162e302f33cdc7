package org.dpaccel.gatk.dropin;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.io.Reader;
import java.lang.reflect.Method;
import java.lang.reflect.Modifier;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Properties;
import java.util.Random;

import org.broadinstitute.gatk.nativebindings.smithwaterman.SWAlignerNativeBinding;
import org.broadinstitute.gatk.nativebindings.smithwaterman.SWNativeAlignerResult;
import org.broadinstitute.gatk.nativebindings.smithwaterman.SWOverhangStrategy;
import org.broadinstitute.gatk.nativebindings.smithwaterman.SWParameters;
import org.dpaccel.gatk.DpaSmithWaterman;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import com.intel.gkl.smithwaterman.IntelSmithWaterman;

/**
 * The drop-in's {@code com.intel.gkl.smithwaterman.IntelSmithWaterman} runs on dpaccel (same
 * results as {@link DpaSmithWaterman}), counts its calls into the stats file, and with
 * {@code -Ddpaccel.gatk.sw.disable=true} or {@code -Ddpaccel.gatk.disable=true} hands over to the
 * real GKL (its Maven Central jar, behind target/classes on the test class path).
 */
class DropInSmithWatermanTest {
    private static final long SEED = Long.getLong("dpaccel.test.seed", System.nanoTime());
    /** GATK's haplotype-to-reference and read-to-haplotype parameters. */
    private static final SWParameters HAP_TO_REF = new SWParameters(200, -150, -260, -11);
    private static final SWParameters READ_TO_HAP = new SWParameters(10, -15, -30, -5);

    @TempDir
    Path tmp;

    record Case(byte[] ref, byte[] alt, SWParameters p, SWOverhangStrategy s) {
    }

    @Test
    void gklNamedClassRunsOnDpaccelAndCounts() throws IOException {
        Path stats = tmp.resolve("stats.properties");
        System.setProperty(DropInPairHmm.STATS_PROPERTY, stats.toString());
        try {
            List<Case> cases = cases(new Random(SEED), 60);
            DpaSmithWaterman ref = new DpaSmithWaterman();
            assertTrue(ref.load(null));
            List<SWNativeAlignerResult> expected = new ArrayList<>();
            for (Case c : cases) {
                expected.add(ref.align(c.ref, c.alt, c.p, c.s));
            }
            ref.close();

            long dpaBefore = DpaSmithWaterman.callCount();
            long swBefore = DropInStats.swCalls();
            IntelSmithWaterman shim = new IntelSmithWaterman();
            assertTrue(shim.load(null));
            assertEquals("dpaccel", DropInStats.swEngine());
            for (int i = 0; i < cases.size(); i++) {
                Case c = cases.get(i);
                SWNativeAlignerResult got = shim.align(c.ref, c.alt, c.p, c.s);
                assertEquals(expected.get(i).cigar, got.cigar, "seed " + SEED + " case " + i);
                assertEquals(expected.get(i).alignment_offset, got.alignment_offset, "seed " + SEED + " case " + i);
            }
            shim.close();
            assertEquals(dpaBefore + cases.size(), DpaSmithWaterman.callCount());
            assertEquals(swBefore + cases.size(), DropInStats.swCalls());
            assertThrows(IllegalStateException.class, () -> shim.align(cases.get(0).ref, cases.get(0).alt,
                HAP_TO_REF, SWOverhangStrategy.INDEL), "align after close");
            shim.close(); // idempotent

            Properties p = new Properties();
            try (Reader r = Files.newBufferedReader(stats)) {
                p.load(r);
            }
            assertEquals("dpaccel", p.getProperty("sw.engine"));
            assertTrue(Long.parseLong(p.getProperty("dpaccel.sw.calls")) >= cases.size(), p.toString());
            assertTrue(Long.parseLong(p.getProperty("sw.calls")) >= cases.size(), p.toString());
            assertTrue(Long.parseLong(p.getProperty("sw.cells")) > 0, p.toString());
            assertTrue(DropInStats.swSummary().contains("engine dpaccel"), DropInStats.swSummary());
        } finally {
            System.clearProperty(DropInPairHmm.STATS_PROPERTY);
        }
    }

    @Test
    void badArgumentsAreRefusedAsGatkExpects() {
        IntelSmithWaterman shim = new IntelSmithWaterman();
        assertTrue(shim.load(null));
        byte[] a = "ACGT".getBytes();
        assertThrows(NullPointerException.class, () -> shim.align(null, a, HAP_TO_REF, SWOverhangStrategy.INDEL));
        assertThrows(NullPointerException.class, () -> shim.align(a, null, HAP_TO_REF, SWOverhangStrategy.INDEL));
        assertThrows(NullPointerException.class, () -> shim.align(a, a, null, SWOverhangStrategy.INDEL));
        assertThrows(NullPointerException.class, () -> shim.align(a, a, HAP_TO_REF, null));
        assertThrows(IllegalArgumentException.class, () -> shim.align(new byte[0], a, HAP_TO_REF,
            SWOverhangStrategy.INDEL));
        shim.close();
    }

    @Test
    void publicSurfaceMirrorsGkl() throws Exception {
        IntelSmithWaterman shim = new IntelSmithWaterman();
        assertEquals(9, shim.getStrategy(SWOverhangStrategy.SOFTCLIP));
        assertEquals(10, shim.getStrategy(SWOverhangStrategy.INDEL));
        assertEquals(11, shim.getStrategy(SWOverhangStrategy.LEADING_INDEL));
        assertEquals(12, shim.getStrategy(SWOverhangStrategy.IGNORE));
        assertFalse(Modifier.isFinal(IntelSmithWaterman.class.getModifiers()));
        assertTrue(Modifier.isPublic(IntelSmithWaterman.class.getConstructor().getModifiers()));
        Method m = IntelSmithWaterman.class.getDeclaredMethod("setNativeLibraryName", String.class);
        assertFalse(Modifier.isPublic(m.getModifiers()) || Modifier.isPrivate(m.getModifiers())
            || Modifier.isProtected(m.getModifiers()), "package-private, as in GKL");
        assertTrue(SWAlignerNativeBinding.class.isAssignableFrom(IntelSmithWaterman.class));
    }

    @Test
    void swDisableSwitchHandsOverToRealGkl() {
        handsOverToGkl(DropInSmithWaterman.SW_DISABLE_PROPERTY);
    }

    @Test
    void globalDisableSwitchHandsOverToRealGkl() {
        handsOverToGkl(DropInPairHmm.DISABLE_PROPERTY);
    }

    private void handsOverToGkl(String property) {
        // GKL agrees with GATK's Java aligner (and so with dpaccel) except for IGNORE and lengths >= 1024
        // (docs/sw.md).
        List<Case> cases = new ArrayList<>();
        for (Case c : cases(new Random(SEED + 1), 40)) {
            // GATK's SWNativeAlignerWrapper answers exact substrings before any native call; dpaccel does too.
            boolean substring = new String(c.ref, java.nio.charset.StandardCharsets.US_ASCII)
                .contains(new String(c.alt, java.nio.charset.StandardCharsets.US_ASCII));
            if (c.s != SWOverhangStrategy.IGNORE && !substring) {
                cases.add(c);
            }
        }
        DpaSmithWaterman ours = new DpaSmithWaterman();
        assertTrue(ours.load(null));
        List<SWNativeAlignerResult> expected = new ArrayList<>();
        for (Case c : cases) {
            expected.add(ours.align(c.ref, c.alt, c.p, c.s));
        }
        ours.close();
        System.setProperty(property, "true");
        try {
            assertTrue(DropInPairHmm.disabled() || DropInSmithWaterman.swDisabled());
            IntelSmithWaterman shim = new IntelSmithWaterman();
            boolean loaded = shim.load(null);
            Assumptions.assumeTrue(loaded, "SKIPPED: the real GKL IntelSmithWaterman cannot load here (no AVX?)");
            assertEquals("gkl", DropInStats.swEngine());
            long before = DpaSmithWaterman.callCount();
            long swBefore = DropInStats.swCalls();
            for (int i = 0; i < cases.size(); i++) {
                Case c = cases.get(i);
                SWNativeAlignerResult got = shim.align(c.ref, c.alt, c.p, c.s);
                assertEquals(expected.get(i).cigar, got.cigar, "seed " + SEED + " case " + i + " " + c.s);
                assertEquals(expected.get(i).alignment_offset, got.alignment_offset, "seed " + SEED + " case " + i);
            }
            shim.close();
            assertEquals(before, DpaSmithWaterman.callCount(), "disabled drop-in must not call dpaccel");
            assertEquals(swBefore + cases.size(), DropInStats.swCalls(), "GKL calls are counted too");
        } finally {
            System.clearProperty(property);
        }
    }

    /** Haplotype-vs-reference (INDEL), read-vs-haplotype (SOFTCLIP), dangling ends (all four), below 1024 bases. */
    private static List<Case> cases(Random rng, int n) {
        List<Case> out = new ArrayList<>();
        SWOverhangStrategy[] all = SWOverhangStrategy.values();
        for (int i = 0; i < n; i++) {
            switch (i % 3) {
                case 0: {
                    byte[] ref = bases(rng, 300 + rng.nextInt(400));
                    out.add(new Case(ref, mutate(rng, ref, 6), HAP_TO_REF, SWOverhangStrategy.INDEL));
                    break;
                }
                case 1: {
                    byte[] hap = bases(rng, 300);
                    int start = rng.nextInt(200) - 20;
                    byte[] read = new byte[150];
                    for (int k = 0; k < read.length; k++) {
                        int j = start + k;
                        read[k] = j >= 0 && j < hap.length ? hap[j] : (byte) "ACGT".charAt(rng.nextInt(4));
                    }
                    out.add(new Case(hap, mutate(rng, read, 3), READ_TO_HAP, SWOverhangStrategy.SOFTCLIP));
                    break;
                }
                default: {
                    byte[] ref = bases(rng, 10 + rng.nextInt(110));
                    byte[] alt = mutate(rng, java.util.Arrays.copyOfRange(ref, rng.nextInt(5), ref.length), 2);
                    out.add(new Case(ref, alt, new SWParameters(25, -50, -110, -6), all[rng.nextInt(all.length)]));
                    break;
                }
            }
        }
        return out;
    }

    private static byte[] bases(Random rng, int n) {
        byte[] b = new byte[n];
        for (int i = 0; i < n; i++) {
            b[i] = (byte) "ACGT".charAt(rng.nextInt(4));
        }
        return b;
    }

    /** Up to k SNPs and short indels. */
    private static byte[] mutate(Random rng, byte[] s, int k) {
        StringBuilder b = new StringBuilder(new String(s, java.nio.charset.StandardCharsets.US_ASCII));
        for (int e = rng.nextInt(k + 1); e > 0 && b.length() > 12; e--) {
            int at = rng.nextInt(b.length() - 10) + 5;
            switch (rng.nextInt(3)) {
                case 0 -> b.setCharAt(at, "ACGT".charAt(rng.nextInt(4)));
                case 1 -> b.delete(at, at + 1 + rng.nextInt(4));
                default -> b.insert(at, new String(bases(rng, 1 + rng.nextInt(4)), java.nio.charset.StandardCharsets.US_ASCII));
            }
        }
        return b.toString().getBytes(java.nio.charset.StandardCharsets.US_ASCII);
    }
}
