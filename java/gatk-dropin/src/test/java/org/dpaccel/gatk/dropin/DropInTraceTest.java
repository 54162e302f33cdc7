package org.dpaccel.gatk.dropin;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;

import org.broadinstitute.gatk.nativebindings.pairhmm.HaplotypeDataHolder;
import org.broadinstitute.gatk.nativebindings.pairhmm.PairHMMNativeArguments;
import org.broadinstitute.gatk.nativebindings.pairhmm.ReadDataHolder;
import org.broadinstitute.gatk.nativebindings.smithwaterman.SWNativeAlignerResult;
import org.broadinstitute.gatk.nativebindings.smithwaterman.SWOverhangStrategy;
import org.broadinstitute.gatk.nativebindings.smithwaterman.SWParameters;
import org.dpaccel.gatk.trace.TraceReader;
import org.dpaccel.gatk.trace.TraceRecord;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import com.intel.gkl.pairhmm.IntelPairHmmOMP;
import com.intel.gkl.smithwaterman.IntelSmithWaterman;

/**
 * -Ddpaccel.gatk.trace: the drop-in records every call GATK makes, inputs and results as the
 * caller saw them, with the caller's thread and the engines in the End record; without the
 * property nothing is written.
 */
class DropInTraceTest {
    @TempDir
    Path dir;

    @Test
    void recordsEveryCallAsGatkMadeIt() throws Exception {
        Path f = dir.resolve("hc-%p.dpatrace");
        Path real = dir.resolve("hc-" + ProcessHandle.current().pid() + ".dpatrace");
        System.setProperty(DropInTrace.PROPERTY, f.toString());
        DropInTrace.reset();
        List<Object[]> calls = new ArrayList<>();
        try {
            Random rng = new Random(11);
            IntelPairHmmOMP hmm = new IntelPairHmmOMP();
            assertTrue(hmm.load(null));
            PairHMMNativeArguments a = new PairHMMNativeArguments();
            a.maxNumberOfThreads = 2;
            hmm.initialize(a);
            IntelSmithWaterman sw = new IntelSmithWaterman();
            assertTrue(sw.load(null));
            for (int c = 0; c < 5; c++) {
                ReadDataHolder[] reads = DropInPairHmmTest.reads(rng, 200, 3 + c);
                HaplotypeDataHolder[] haps = DropInPairHmmTest.haps(rng, 200, 1 + c % 3);
                double[] out = new double[reads.length * haps.length];
                hmm.computeLikelihoods(reads, haps, out);
                calls.add(new Object[] { reads, haps, out });
                byte[] alt = java.util.Arrays.copyOfRange(haps[0].haplotypeBases, 10, 90);
                alt[40] = (byte) (alt[40] == 'A' ? 'C' : 'A');
                SWParameters p = new SWParameters(200, -150, -260, -11);
                SWNativeAlignerResult r = sw.align(haps[0].haplotypeBases, alt, p, SWOverhangStrategy.SOFTCLIP);
                calls.add(new Object[] { haps[0].haplotypeBases, alt, r });
            }
            hmm.done();
            sw.close();
            assertFalse(Files.exists(real), "the trace appears only when finished");
            DropInTrace.close();
        } finally {
            System.clearProperty(DropInTrace.PROPERTY);
            DropInTrace.reset();
        }
        assertTrue(Files.exists(real), "%p becomes the process id");
        long me = Thread.currentThread().getId();
        try (TraceReader r = TraceReader.open(real)) {
            assertTrue(r.origin().startsWith("dpaccel-gatk-dropin"), r.origin());
            TraceRecord.PairHmmInit init = (TraceRecord.PairHmmInit) r.next();
            assertEquals("com.intel.gkl.pairhmm.IntelPairHmmOMP", init.gklClass());
            assertEquals(2, init.maxThreads());
            assertEquals(me, init.thread());
            for (Object[] c : calls) {
                TraceRecord t = r.next();
                assertEquals(me, c[0] instanceof ReadDataHolder[] ? ((TraceRecord.PairHmm) t).thread()
                    : ((TraceRecord.Sw) t).thread());
                if (c[0] instanceof ReadDataHolder[] reads) {
                    TraceRecord.PairHmm p = (TraceRecord.PairHmm) t;
                    assertEquals(reads.length, p.reads().length);
                    for (int i = 0; i < reads.length; i++) {
                        assertArrayEquals(reads[i].readBases, p.reads()[i][0]);
                        assertArrayEquals(reads[i].readQuals, p.reads()[i][1]);
                        assertArrayEquals(reads[i].insertionGOP, p.reads()[i][2]);
                        assertArrayEquals(reads[i].deletionGOP, p.reads()[i][3]);
                        assertArrayEquals(reads[i].overallGCP, p.reads()[i][4]);
                    }
                    HaplotypeDataHolder[] haps = (HaplotypeDataHolder[]) c[1];
                    for (int h = 0; h < haps.length; h++) {
                        assertArrayEquals(haps[h].haplotypeBases, p.haps()[h]);
                    }
                    assertArrayEquals((double[]) c[2], p.out());
                    assertTrue(p.nanos() > 0);
                } else {
                    TraceRecord.Sw s = (TraceRecord.Sw) t;
                    SWNativeAlignerResult res = (SWNativeAlignerResult) c[2];
                    assertArrayEquals((byte[]) c[0], s.ref());
                    assertArrayEquals((byte[]) c[1], s.alt());
                    assertArrayEquals(new int[] { 200, -150, -260, -11 }, s.scores());
                    assertEquals(SWOverhangStrategy.SOFTCLIP.ordinal(), s.overhang());
                    assertEquals(res.cigar, s.cigar());
                    assertEquals(res.alignment_offset, s.offset());
                }
            }
            TraceRecord.End end = (TraceRecord.End) r.next();
            assertEquals("dpaccel", end.pairHmmEngine());
            assertEquals("dpaccel", end.swEngine());
            assertTrue(end.processNanos() >= end.at() && end.traceNanos() > 0);
            assertNull(r.next());
        }
    }

    /**
     * GATK 4.7's PDHMM calls (computeLikelihoods) are recorded with the row semantics the drop-in
     * used (GKL's batches and vector width), so the library repeats them to the same bits: the
     * replay's check. 5 reads x 7 haplotypes = 35 pairs, not a multiple of GKL's 4 or 8 lanes, so
     * both row semantics occur.
     */
    @Test
    void recordsPdhmmCallsThatReplayToTheSameBits() throws Exception {
        Path f = dir.resolve("pd.dpatrace");
        PdhmmCases c = PdhmmCases.generate(77, 12, 20, 120, 10, 90, false);
        var reads = new org.broadinstitute.gatk.nativebindings.pdhmm.ReadDataHolder[5];
        var haps = new org.broadinstitute.gatk.nativebindings.pdhmm.HaplotypeDataHolder[7];
        for (int i = 0; i < 5; i++) {
            reads[i] = PdhmmCases.readHolder(c.pairs.get(i));
        }
        for (int i = 0; i < 7; i++) {
            haps[i] = PdhmmCases.hapHolder(c.pairs.get(5 + i));
        }
        double[] out = new double[35];
        System.setProperty(DropInTrace.PROPERTY, f.toString());
        DropInTrace.reset();
        try {
            com.intel.gkl.pdhmm.IntelPDHMM h = new com.intel.gkl.pdhmm.IntelPDHMM();
            assertTrue(h.load(null));
            h.initialize(null);
            h.computeLikelihoods(reads, haps, out);
            h.done();
            DropInTrace.close();
        } finally {
            System.clearProperty(DropInTrace.PROPERTY);
            DropInTrace.reset();
        }
        try (TraceReader r = TraceReader.open(f)) {
            TraceRecord.Pdhmm p = (TraceRecord.Pdhmm) r.next();
            assertEquals(Thread.currentThread().getId(), p.thread());
            assertEquals("GKL_SERIAL", p.carriedRows()); // the default row mode, gkl
            assertTrue(p.lanes() == 0 || p.lanes() == 4 || p.lanes() == 8, "lanes " + p.lanes());
            for (int i = 0; i < 5; i++) {
                assertArrayEquals(reads[i].readBases, p.reads()[i][0]);
                assertArrayEquals(reads[i].overallGCP, p.reads()[i][4]);
            }
            for (int i = 0; i < 7; i++) {
                assertArrayEquals(haps[i].haplotypePDBases, p.haps()[i][1]);
            }
            assertArrayEquals(out, p.out());
            try (org.dpaccel.DpaContext ctx = org.dpaccel.DpaContext.create(org.dpaccel.Config.builder().threads(2)
                .build())) {
                double[] again = new double[35];
                org.dpaccel.pdhmm.PdhmmGklBatches.compute(ctx, p.reads(), p.haps(), p.batch(), p.lanes(),
                    org.dpaccel.pdhmm.Pdhmm.Rows.valueOf(p.carriedRows()), again);
                assertArrayEquals(out, again);
            }
            assertTrue(r.next() instanceof TraceRecord.End);
        }
    }

    /**
     * A JVM whose calls were not all reported by done() (a Spark executor) owes a summary at exit;
     * after done() it owes nothing.
     */
    @Test
    void exitSummaryCoversCallsAfterTheLastDone() throws Exception {
        PairHMMNativeArguments a = new PairHMMNativeArguments();
        a.maxNumberOfThreads = 1;
        IntelPairHmmOMP first = new IntelPairHmmOMP();
        assertTrue(first.load(null));
        first.initialize(a);
        first.done(); // reports every call other tests of this JVM made
        IntelSmithWaterman sw = new IntelSmithWaterman();
        assertTrue(sw.load(null));
        sw.close();
        assertNull(DropInStats.exitSummary());
        IntelPairHmmOMP hmm = new IntelPairHmmOMP();
        assertTrue(hmm.load(null));
        hmm.initialize(a);
        Random rng = new Random(5);
        hmm.computeLikelihoods(DropInPairHmmTest.reads(rng, 200, 2), DropInPairHmmTest.haps(rng, 200, 1),
            new double[2]);
        String s = DropInStats.exitSummary();
        assertTrue(s != null && s.contains("dpaccel GATK drop-in summary") && s.contains("at exit of process "
            + ProcessHandle.current().pid()), s);
        hmm.done();
        assertNull(DropInStats.exitSummary());
    }

    @Test
    void nothingIsWrittenWithoutTheProperty() throws Exception {
        System.clearProperty(DropInTrace.PROPERTY);
        DropInTrace.reset();
        IntelPairHmmOMP hmm = new IntelPairHmmOMP();
        assertTrue(hmm.load(null));
        PairHMMNativeArguments a = new PairHMMNativeArguments();
        a.maxNumberOfThreads = 1;
        hmm.initialize(a);
        Random rng = new Random(3);
        hmm.computeLikelihoods(DropInPairHmmTest.reads(rng, 200, 2), DropInPairHmmTest.haps(rng, 200, 1),
            new double[2]);
        hmm.done();
        assertNull(DropInTrace.writer(), "no property, no recording");
    }
}
