package org.dpaccel.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.net.URISyntaxException;
import java.net.URL;
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
import org.dpaccel.Config;
import org.dpaccel.DpaContext;
import org.dpaccel.gatk.DpaPairHmm;
import org.dpaccel.gatk.DpaSmithWaterman;
import org.dpaccel.gatk.trace.TraceRecord;
import org.dpaccel.gatk.trace.TraceWriter;
import org.dpaccel.pdhmm.Pdhmm;
import org.dpaccel.pdhmm.PdhmmGklBatches;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code dpaccel bench trace}: a trace of HaplotypeCaller-shaped calls (results from dpaccel's CPU
 * engine) replayed on dpaccel and on the real Intel GKL 0.9.1 (the independent engine: its
 * likelihoods and alignments must agree with the recorded ones), a tampered trace failing the
 * check, and damaged traces refused with the record and field named.
 */
class TraceReplayTest {
    @TempDir
    Path dir;

    /** The GKL jar on the test class path (a test dependency of this module), and what it needs. */
    private static String gklJar() throws URISyntaxException {
        StringBuilder cp = new StringBuilder();
        for (String c : new String[] { "com/intel/gkl/pairhmm/IntelPairHmm.class",
            "org/apache/commons/logging/LogFactory.class" }) {
            URL u = ClassLoader.getSystemResource(c);
            if (u == null) {
                continue; // GKL 0.9.1 logs through log4j: commons-logging may be absent
            }
            String s = u.toString();
            cp.append(cp.length() == 0 ? "" : java.io.File.pathSeparator)
                .append(Path.of(new java.net.URI(s.substring("jar:".length(), s.indexOf("!/")))));
        }
        return cp.toString();
    }

    private static byte[] bases(Random r, int n) {
        byte[] b = new byte[n];
        for (int i = 0; i < n; i++) {
            b[i] = (byte) "ACGT".charAt(r.nextInt(4));
        }
        return b;
    }

    private static byte[] quals(Random r, int n, int lo, int hi) {
        byte[] b = new byte[n];
        for (int i = 0; i < n; i++) {
            b[i] = (byte) (lo + r.nextInt(hi - lo + 1));
        }
        return b;
    }

    /** Writes a trace of `calls` computeLikelihoods and as many align calls; returns its path. */
    private Path writeTrace(long seed, int calls, double tamper) throws IOException {
        Random r = new Random(seed);
        Path f = dir.resolve("t" + seed + "-" + tamper + ".dpatrace");
        DpaPairHmm hmm = new DpaPairHmm();
        DpaSmithWaterman sw = new DpaSmithWaterman();
        assertTrue(hmm.load(null) && sw.load(null));
        PairHMMNativeArguments a = new PairHMMNativeArguments();
        a.maxNumberOfThreads = 1;
        hmm.initialize(a);
        long thread = Thread.currentThread().getId();
        TraceWriter w = new TraceWriter(f, "TraceReplayTest seed " + seed);
        try {
            w.write(new TraceRecord.PairHmmInit(thread, 0, "com.intel.gkl.pairhmm.IntelPairHmmOMP", 1, false));
            for (int c = 0; c < calls; c++) {
                int nr = 3 + r.nextInt(12), nh = 1 + r.nextInt(4);
                ReadDataHolder[] reads = new ReadDataHolder[nr];
                byte[][][] rr = new byte[nr][][];
                for (int i = 0; i < nr; i++) {
                    int len = 60 + r.nextInt(92);
                    ReadDataHolder d = new ReadDataHolder();
                    d.readBases = bases(r, len);
                    d.readQuals = quals(r, len, 6, 40);
                    d.insertionGOP = quals(r, len, 40, 45);
                    d.deletionGOP = quals(r, len, 40, 45);
                    d.overallGCP = quals(r, len, 10, 10);
                    reads[i] = d;
                    rr[i] = new byte[][] { d.readBases, d.readQuals, d.insertionGOP, d.deletionGOP, d.overallGCP };
                }
                HaplotypeDataHolder[] haps = new HaplotypeDataHolder[nh];
                byte[][] hh = new byte[nh][];
                for (int h = 0; h < nh; h++) {
                    haps[h] = new HaplotypeDataHolder();
                    haps[h].haplotypeBases = hh[h] = bases(r, 150 + r.nextInt(300));
                }
                double[] out = new double[nr * nh];
                long t0 = System.nanoTime();
                hmm.computeLikelihoods(reads, haps, out);
                long dt = System.nanoTime() - t0;
                if (c == calls / 2) {
                    out[0] += tamper;
                }
                w.write(new TraceRecord.PairHmm(thread, w.at(t0), dt, rr, hh, out));
                byte[] ref = hh[0], alt = bases(r, 20 + r.nextInt(100));
                SWParameters p = new SWParameters(200, -150, -260, -11);
                SWOverhangStrategy s = SWOverhangStrategy.values()[c % 4];
                t0 = System.nanoTime();
                SWNativeAlignerResult res = sw.align(ref, alt, p, s);
                dt = System.nanoTime() - t0;
                w.write(new TraceRecord.Sw(thread, w.at(t0), dt, ref, alt, new int[] { 200, -150, -260, -11 },
                    s.ordinal(), res.cigar, res.alignment_offset));
            }
            w.close("dpaccel", "dpaccel");
        } finally {
            hmm.done();
            sw.close();
        }
        return f;
    }

    @Test
    void replaysOnDpaccelAndGklWithResultsChecked() throws Exception {
        long seed = System.nanoTime();
        System.out.println("[trace replay] seed " + seed);
        Path f = writeTrace(seed, 40, 0);
        Cli.Result res = Cli.run("bench", "trace", "--engines", "cpu,gkl", "--gkl", gklJar(), f.toString());
        assertEquals(0, res.rc(), res.toString());
        assertTrue(res.out().contains("40 PairHMM calls") && res.out().contains("40 Smith-Waterman calls"), res.out());
        List<String> engines = new ArrayList<>();
        for (String line : res.lines()) {
            String t = line.trim();
            if (t.startsWith("dpaccel-cpu") || t.startsWith("gkl ")) {
                engines.add(t.split("\\s+")[0]);
                assertTrue(t.contains(" ok: "), line);
                if (t.startsWith("dpaccel")) {
                    assertTrue(t.contains(" 0 SW mismatches"), line);
                }
            }
        }
        assertEquals(List.of("dpaccel-cpu", "gkl"), engines, res.out());
        // dpaccel replays its own recorded results to the bit
        assertTrue(res.out().matches("(?s).*dpaccel-cpu [^\\n]* ok: (\\d+) of \\1 likelihoods identical.*"), res.out());
    }

    /**
     * The committed trace of a real HaplotypeCaller run whose calls all ran on Intel GKL 0.8.11
     * (test-data/README.md): dpaccel's CPU replays GATK's real call shapes within 1e-4 of GKL's
     * likelihoods. Its Smith-Waterman results are GKL's native aligner's, which may differ from
     * dpaccel's (GATK's Java aligner's) on ties: reported, not failed.
     */
    @Test
    void committedHaplotypeCallerTraceAgreesWithGkl() throws Exception {
        Path f = Path.of(System.getProperty("dpaccel.testdata.dir", "../../test-data"), "gatk",
            "hc-gkl-0.8.11.dpatrace");
        assertTrue(Files.isRegularFile(f), f + " is part of the repository but missing");
        Cli.Result res = Cli.run("bench", "trace", "--engines", "cpu", "--repeat", "0", f.toString());
        assertEquals(0, res.rc(), res.toString());
        assertTrue(res.out().contains("206 PairHMM calls (17459 pairs") && res.out().contains("PairHMM on gkl"),
            res.out());
        assertTrue(res.out().matches("(?s).*dpaccel-cpu .* ok: \\d+ of 17459 likelihoods identical, max \\|diff\\| "
            + "[0-9.e-]+; \\d+ SW mismatches.*"), res.out());
        System.out.println(res.out());
    }

    /**
     * GATK 4.7's PDHMM calls in a trace (format version 2): replayed on dpaccel with the recorded
     * row semantics to the recorded bits (the values themselves are checked against GATK's Java in
     * the drop-in's PdhmmOracleTest), counted in the projection; GKL engines without PDHMM keep the
     * recorded time and say so; a tampered PDHMM result fails the check naming PDHMM.
     */
    @Test
    void pdhmmCallsReplayWithTheirRowSemantics() throws Exception {
        for (double tamper : new double[] { 0, 0.01 }) {
            Random r = new Random(31);
            Path f = dir.resolve("pd-" + tamper + ".dpatrace");
            long thread = Thread.currentThread().getId();
            TraceWriter w = new TraceWriter(f, "TraceReplayTest pdhmm");
            try (DpaContext ctx = DpaContext.create(Config.builder().threads(1).build())) {
                for (int c = 0; c < 6; c++) {
                    int nr = 2 + r.nextInt(5), nh = 1 + r.nextInt(4);
                    byte[][][] reads = new byte[nr][][], haps = new byte[nh][][];
                    for (int i = 0; i < nr; i++) {
                        int len = 40 + r.nextInt(60);
                        reads[i] = new byte[][] { bases(r, len), quals(r, len, 6, 40), quals(r, len, 40, 45),
                            quals(r, len, 40, 45), quals(r, len, 10, 10) };
                    }
                    for (int h = 0; h < nh; h++) {
                        int len = 80 + r.nextInt(80);
                        byte[] pd = new byte[len];
                        pd[len / 2] = (byte) (Pdhmm.SNP | Pdhmm.T);
                        haps[h] = new byte[][] { bases(r, len), pd };
                    }
                    double[] out = new double[nr * nh];
                    long t0 = System.nanoTime();
                    PdhmmGklBatches.compute(ctx, reads, haps, 5, c % 2 == 0 ? 4 : 0, Pdhmm.Rows.GKL_SERIAL, out);
                    long dt = System.nanoTime() - t0;
                    if (c == 3) {
                        out[out.length - 1] += tamper;
                    }
                    w.write(new TraceRecord.Pdhmm(thread, w.at(t0), dt, 5, c % 2 == 0 ? 4 : 0, "GKL_SERIAL", reads,
                        haps, out));
                }
                w.close("dpaccel", "none");
            }
            Cli.Result res = Cli.run("bench", "trace", "--engines", "cpu", "--repeat", "0", f.toString());
            assertTrue(res.out().contains("6 PDHMM calls"), res.out());
            if (tamper == 0) {
                assertEquals(0, res.rc(), res.toString());
                assertTrue(res.out().matches("(?s).*dpaccel-cpu [^\\n]* ok: [^\\n]*PDHMM [0-9.]+ s, (\\d+) of \\1 "
                    + "identical.*"), res.out());
            } else {
                assertEquals(ExitCodes.INTERNAL, res.rc(), res.toString());
                assertTrue(res.out().contains("FAILED") && res.out().contains("first: PDHMM"), res.out());
            }
        }
    }

    @Test
    void aTamperedResultFailsTheCheck() throws Exception {
        Path f = writeTrace(7, 6, 0.01);
        Cli.Result res = Cli.run("bench", "trace", "--engines", "cpu", "--repeat", "0", f.toString());
        assertEquals(ExitCodes.INTERNAL, res.rc(), res.toString());
        assertTrue(res.out().contains("FAILED") && res.out().contains("first: PairHMM"), res.out());
    }

    @Test
    void damagedTracesAreRefusedWithRecordAndField() throws Exception {
        Path f = writeTrace(3, 4, 0);
        byte[] gz = Files.readAllBytes(f);
        byte[] raw;
        try (var in = new java.util.zip.GZIPInputStream(new java.io.ByteArrayInputStream(gz))) {
            raw = in.readAllBytes();
        }
        // cut inside the last record: the End record is missing or short
        Path cut = dir.resolve("cut.dpatrace");
        try (var out = new java.util.zip.GZIPOutputStream(Files.newOutputStream(cut))) {
            out.write(raw, 0, raw.length - 5);
        }
        Cli.Result res = Cli.run("bench", "trace", "--engines", "cpu", cut.toString());
        assertEquals(ExitCodes.BAD_INPUT, res.rc(), res.toString());
        assertTrue(res.err().contains(cut.toString()) && res.err().contains("record 10, field")
            && res.err().contains("truncated"), res.err());
        // a huge read count in the first PairHmm record (kind byte after the 42-byte init record)
        byte[] bad = raw.clone();
        int hdr = 8 + 4 + 2 + ("TraceReplayTest seed 3").length();
        int init = 1 + 8 + 8 + 2 + "com.intel.gkl.pairhmm.IntelPairHmmOMP".length() + 4 + 1;
        int counts = hdr + init + 1 + 24;
        bad[counts] = 0x7f;
        Path big = dir.resolve("big.dpatrace");
        try (var out = new java.util.zip.GZIPOutputStream(Files.newOutputStream(big))) {
            out.write(bad);
        }
        res = Cli.run("bench", "trace", "--engines", "cpu", big.toString());
        assertEquals(ExitCodes.BAD_INPUT, res.rc(), res.toString());
        assertTrue(res.err().contains("record 2, field reads") && res.err().contains("must be in [0, 1048576]"),
            res.err());
        // not a trace at all
        Path txt = dir.resolve("x.txt");
        Files.writeString(txt, "hello");
        res = Cli.run("bench", "trace", txt.toString());
        assertEquals(ExitCodes.BAD_INPUT, res.rc(), res.toString());
        assertTrue(res.err().contains("not a dpaccel trace"), res.err());
    }
}
