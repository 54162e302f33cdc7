package org.dpaccel.gatk;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.function.Consumer;
import java.util.stream.Stream;

import org.broadinstitute.gatk.nativebindings.pairhmm.HaplotypeDataHolder;
import org.broadinstitute.gatk.nativebindings.pairhmm.PairHMMNativeArguments;
import org.broadinstitute.gatk.nativebindings.pairhmm.ReadDataHolder;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Every input that crashes or silently corrupts GKL's binding is a clear exception here,
 * naming the index and the field, and the binding keeps working afterwards.
 */
class DpaPairHmmBadInputTest {
    private DpaPairHmm hmm;

    @BeforeEach
    void setUp() {
        hmm = new DpaPairHmm();
        assertTrue(hmm.load(null));
        PairHMMNativeArguments a = new PairHMMNativeArguments();
        a.maxNumberOfThreads = 2;
        hmm.initialize(a);
    }

    @AfterEach
    void tearDown() {
        hmm.done();
    }

    static ReadDataHolder read(int n) {
        ReadDataHolder r = new ReadDataHolder();
        r.readBases = new byte[n];
        java.util.Arrays.fill(r.readBases, (byte) 'A');
        r.readQuals = filled(n, 30);
        r.insertionGOP = filled(n, 45);
        r.deletionGOP = filled(n, 45);
        r.overallGCP = filled(n, 10);
        return r;
    }

    static byte[] filled(int n, int v) {
        byte[] b = new byte[n];
        java.util.Arrays.fill(b, (byte) v);
        return b;
    }

    static HaplotypeDataHolder hap(String s) {
        HaplotypeDataHolder h = new HaplotypeDataHolder();
        h.haplotypeBases = s.getBytes();
        return h;
    }

    record Case(String name, Consumer<ReadDataHolder[]> mutateReads, Consumer<HaplotypeDataHolder[]> mutateHaps,
        int outDelta, Class<? extends Throwable> expected, String message) {
        @Override
        public String toString() {
            return name;
        }
    }

    static Stream<Arguments> badInputs() {
        return Stream.of(
            new Case("null read element", r -> r[1] = null, h -> { }, 0, NullPointerException.class, "readDataArray[1]"),
            new Case("null haplotype element", r -> { }, h -> h[0] = null, 0, NullPointerException.class, "haplotypeDataArray[0]"),
            new Case("null readBases", r -> r[2].readBases = null, h -> { }, 0, NullPointerException.class, "read 2: readBases"),
            new Case("null readQuals", r -> r[0].readQuals = null, h -> { }, 0, NullPointerException.class, "read 0: readQuals"),
            new Case("null insertionGOP", r -> r[0].insertionGOP = null, h -> { }, 0, NullPointerException.class, "insertionGOP"),
            new Case("null deletionGOP", r -> r[0].deletionGOP = null, h -> { }, 0, NullPointerException.class, "deletionGOP"),
            new Case("null overallGCP", r -> r[0].overallGCP = null, h -> { }, 0, NullPointerException.class, "overallGCP"),
            new Case("null haplotypeBases", r -> { }, h -> h[1].haplotypeBases = null, 0, NullPointerException.class, "haplotype 1: haplotypeBases"),
            new Case("empty read", r -> r[1] = read(0), h -> { }, 0, IllegalArgumentException.class, "read 1: readBases is empty"),
            new Case("empty haplotype", r -> { }, h -> h[1] = hap(""), 0, IllegalArgumentException.class, "haplotype 1: haplotypeBases is empty"),
            new Case("short quals", r -> r[2].readQuals = filled(9, 30), h -> { }, 0, IllegalArgumentException.class, "read 2: readQuals has length 9 but readBases has length 10"),
            new Case("short insertionGOP", r -> r[0].insertionGOP = filled(3, 30), h -> { }, 0, IllegalArgumentException.class, "insertionGOP has length 3"),
            new Case("long deletionGOP", r -> r[0].deletionGOP = filled(11, 30), h -> { }, 0, IllegalArgumentException.class, "deletionGOP has length 11"),
            new Case("short overallGCP", r -> r[0].overallGCP = filled(1, 10), h -> { }, 0, IllegalArgumentException.class, "overallGCP has length 1"),
            new Case("quality 128", r -> r[1].readQuals[3] = (byte) 128, h -> { }, 0, IllegalArgumentException.class, "read 1: readQuals[3] = 128"),
            new Case("quality 255", r -> r[0].overallGCP[0] = (byte) 255, h -> { }, 0, IllegalArgumentException.class, "overallGCP[0] = 255"),
            new Case("insertion GOP -1", r -> r[0].insertionGOP[5] = -1, h -> { }, 0, IllegalArgumentException.class, "insertionGOP[5] = 255"),
            new Case("output one short", r -> { }, h -> { }, -1, IllegalArgumentException.class, "likelihoodArray has length 5"),
            new Case("output one long", r -> { }, h -> { }, 1, IllegalArgumentException.class, "likelihoodArray has length 7"),
            new Case("read over the length limit", r -> r[0] = read((1 << 20) + 1), h -> { }, 0, IllegalArgumentException.class, "exceeds the limit 1048576")
        ).map(Arguments::of);
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("badInputs")
    void badInputIsAClearException(Case c) {
        ReadDataHolder[] reads = {read(10), read(10), read(10)};
        HaplotypeDataHolder[] haps = {hap("ACGTACGTAC"), hap("AAAAAAAAAAAA")};
        c.mutateReads.accept(reads);
        c.mutateHaps.accept(haps);
        double[] out = new double[reads.length * haps.length + c.outDelta];
        Throwable t = assertThrows(c.expected, () -> hmm.computeLikelihoods(reads, haps, out));
        assertTrue(t.getMessage().contains(c.message), "message '" + t.getMessage() + "' should contain '" + c.message + "'");
        // still works afterwards
        double[] ok = new double[6];
        hmm.computeLikelihoods(new ReadDataHolder[] {read(10), read(10), read(10)},
            new HaplotypeDataHolder[] {hap("ACGTACGTAC"), hap("AAAAAAAAAAAA")}, ok);
        assertTrue(Double.isFinite(ok[0]) && ok[0] < 0, "result " + ok[0]);
    }

    @Test
    void nullArraysAndEmptyOutput() {
        assertThrows(NullPointerException.class, () -> hmm.computeLikelihoods(null, new HaplotypeDataHolder[0], new double[0]));
        assertThrows(NullPointerException.class, () -> hmm.computeLikelihoods(new ReadDataHolder[0], null, new double[0]));
        assertThrows(NullPointerException.class, () -> hmm.computeLikelihoods(new ReadDataHolder[] {read(3)}, new HaplotypeDataHolder[] {hap("A")}, null));
        Throwable t = assertThrows(IllegalArgumentException.class,
            () -> hmm.computeLikelihoods(new ReadDataHolder[] {read(3)}, new HaplotypeDataHolder[] {hap("A")}, new double[0]));
        assertTrue(t.getMessage().contains("length 0"));
        // no reads: nothing to do, no exception
        hmm.computeLikelihoods(new ReadDataHolder[0], new HaplotypeDataHolder[] {hap("A")}, new double[0]);
    }

    @Test
    void lifeCycle() {
        DpaPairHmm fresh = new DpaPairHmm();
        assertTrue(fresh.load(null));
        double[] out = new double[1];
        assertThrows(IllegalStateException.class,
            () -> fresh.computeLikelihoods(new ReadDataHolder[] {read(3)}, new HaplotypeDataHolder[] {hap("AAA")}, out));
        PairHMMNativeArguments bad = new PairHMMNativeArguments();
        bad.maxNumberOfThreads = -1;
        Throwable t = assertThrows(IllegalArgumentException.class, () -> fresh.initialize(bad));
        assertTrue(t.getMessage().contains("maxNumberOfThreads = -1"));
        bad.maxNumberOfThreads = 0;
        assertThrows(IllegalArgumentException.class, () -> fresh.initialize(bad));
        PairHMMNativeArguments good = new PairHMMNativeArguments();
        good.maxNumberOfThreads = 3;
        assertTrue(fresh.describe().contains("not initialized"));
        fresh.initialize(good);
        assertTrue(fresh.describe().contains("threads=3"), fresh.describe());
        fresh.computeLikelihoods(new ReadDataHolder[] {read(3)}, new HaplotypeDataHolder[] {hap("AAA")}, out);
        assertEquals(1, fresh.instanceCallCount());
        fresh.done();
        fresh.done();
        assertThrows(IllegalStateException.class,
            () -> fresh.computeLikelihoods(new ReadDataHolder[] {read(3)}, new HaplotypeDataHolder[] {hap("AAA")}, out));
        fresh.initialize(good); // re-initialise after done works
        fresh.computeLikelihoods(new ReadDataHolder[] {read(3)}, new HaplotypeDataHolder[] {hap("AAA")}, out);
        fresh.done();
    }

    @Test
    void basesCompareAsGatkJavaDoes() {
        // lower case and X are not A (GKL maps them to A); N matches anything
        ReadDataHolder r = read(1);
        double[] out = new double[4];
        r.readBases = new byte[] {'a'};
        hmm.computeLikelihoods(new ReadDataHolder[] {r}, new HaplotypeDataHolder[] {hap("A"), hap("a"), hap("X"), hap("N")}, out);
        double match = Math.log10((1 - 1e-3) * 0.9), mismatch = Math.log10(1e-3 / 3 * 0.9);
        assertEquals(mismatch, out[0], 1e-6);
        assertEquals(match, out[1], 1e-6);
        assertEquals(mismatch, out[2], 1e-6);
        assertEquals(match, out[3], 1e-6);
    }
}
