package org.dpaccel.hmm;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.SplittableRandom;

import org.dpaccel.Backend;
import org.dpaccel.Config;
import org.dpaccel.DpaContext;
import org.dpaccel.DpaccelException;
import org.dpaccel.Isa;
import org.dpaccel.Status;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * org.dpaccel.hmm through JNI: on seeded models from pyhmmer's hmmbuild (fresh seed per run,
 * printed), every result of the context's SIMD kernels equals the scalar reference context's, and
 * (with DPACCEL_HMM_ORACLE) the bit scores and P-values equal HMMER 3.4's own, the pass flags follow from them by
 * hmmsearch's rules; bad input names index, name and field; closed handles throw.
 */
class HmmFilterApiTest {
    static DpaContext ctx;
    static DpaContext scalar;

    @BeforeAll
    static void open() {
        ctx = DpaContext.create(Config.builder().threads(2).backend(Backend.CPU).build());
        scalar = DpaContext.create(Config.builder().threads(2).backend(Backend.CPU).cpuDisable("avx2,avx512").build());
    }

    @AfterAll
    static void close() {
        ctx.close();
        scalar.close();
    }

    static long freshSeed(String test) {
        String fixed = System.getenv("DPA_TEST_SEED");
        long seed = fixed != null && !fixed.isEmpty() ? Long.parseLong(fixed) : 1 + Math.floorMod(System.nanoTime(), 4_000_000L);
        // gen_hmm_testdata.py seeds hmmbuild with seed * 1000 + m + 1, a uint32
        System.out.println(test + ": seed " + seed + " (DPA_TEST_SEED=" + seed + " repeats it)");
        return seed;
    }

    static final HmmFilterParams[] PARAMS = {
        HmmFilterParams.defaults(),
        new HmmFilterParams(0.02, 1e-3, false, false),
        new HmmFilterParams(0.2, 0.05, true, false),
        new HmmFilterParams(0.02, 1e-3, true, true),
        new HmmFilterParams(1.0, 1.0, false, true),
    };

    static void assertSame(HmmFilterResults e, HmmFilterResults g, String what) {
        assertEquals(e.models(), g.models());
        assertEquals(e.sequences(), g.sequences());
        for (int m = 0; m < e.models(); m++) {
            for (int s = 0; s < e.sequences(); s++) {
                String at = what + " model " + m + " seq " + s;
                assertEquals(Float.floatToRawIntBits(e.msvBits(m, s)), Float.floatToRawIntBits(g.msvBits(m, s)), at);
                assertEquals(Float.floatToRawIntBits(e.biasBits(m, s)), Float.floatToRawIntBits(g.biasBits(m, s)), at);
                assertEquals(Float.floatToRawIntBits(e.vitBits(m, s)), Float.floatToRawIntBits(g.vitBits(m, s)), at);
                assertEquals(Double.doubleToRawLongBits(e.msvPvalue(m, s)), Double.doubleToRawLongBits(g.msvPvalue(m, s)), at);
                assertEquals(Double.doubleToRawLongBits(e.biasPvalue(m, s)), Double.doubleToRawLongBits(g.biasPvalue(m, s)), at);
                assertEquals(Double.doubleToRawLongBits(e.vitPvalue(m, s)), Double.doubleToRawLongBits(g.vitPvalue(m, s)), at);
                assertEquals(e.passMsv(m, s), g.passMsv(m, s), at);
                assertEquals(e.passBias(m, s), g.passBias(m, s), at);
                assertEquals(e.passVit(m, s), g.passVit(m, s), at);
                assertEquals(e.hasMsv(m, s), g.hasMsv(m, s), at);
                assertEquals(e.hasBias(m, s), g.hasBias(m, s), at);
                assertEquals(e.hasVit(m, s), g.hasVit(m, s), at);
            }
        }
        assertEquals(e.pairs(), g.pairs(), what);
        assertEquals(e.cells(), g.cells(), what);
        assertEquals(e.passedMsv(), g.passedMsv(), what);
        assertEquals(e.passedBias(), g.passedBias(), what);
        assertEquals(e.passedVit(), g.passedVit(), what);
    }

    /** The statistics agree with the per-pair flags and the cumulative rule holds. */
    static void assertConsistent(HmmFilterResults r, HmmProfiles p, HmmSeqBatch b) {
        long pairs = 0, cells = 0, msv = 0, bias = 0, vit = 0;
        for (int m = 0; m < r.models(); m++) {
            for (int s = 0; s < r.sequences(); s++) {
                if (b.length(s) > 0) {
                    pairs++;
                    cells += (long) p.length(m) * b.length(s);
                    assertTrue(r.hasMsv(m, s));
                } else {
                    assertFalse(r.hasMsv(m, s) || r.passMsv(m, s));
                }
                msv += r.passMsv(m, s) ? 1 : 0;
                bias += r.passBias(m, s) ? 1 : 0;
                vit += r.passVit(m, s) ? 1 : 0;
                assertTrue(!r.passBias(m, s) || r.passMsv(m, s));
                assertTrue(!r.passVit(m, s) || r.passBias(m, s));
            }
        }
        assertEquals(pairs, r.pairs());
        assertEquals(cells, r.cells());
        assertEquals(msv, r.passedMsv());
        assertEquals(bias, r.passedBias());
        assertEquals(vit, r.passedVit());
    }

    @Test
    void simdContextEqualsScalarReferenceOnGeneratedModels(@TempDir Path dir) throws Exception {
        long seed = freshSeed("simdContextEqualsScalarReferenceOnGeneratedModels");
        Path[] data = HmmTestData.generate(dir, seed, 6, 50, 1500);
        assertEquals(Isa.SCALAR, scalar.isa());
        System.out.println("hmm: SIMD context ISA " + ctx.isa());
        try (HmmProfiles p = HmmProfiles.load(data[0])) {
            HmmSeqBatch b = HmmTestData.readFasta(data[1]);
            assertEquals(6, p.size());
            assertEquals(50, b.size());
            long passed = 0;
            // every ISA this CPU has: the best one, and AVX2 when the best is AVX-512
            try (DpaContext avx2 = DpaContext.create(Config.builder().threads(2).backend(Backend.CPU)
                .cpuDisable("avx512").build())) {
                if (ctx.isa() == Isa.SCALAR) {
                    System.out.println("hmm: this CPU has neither AVX2 nor AVX-512: only the scalar path runs");
                }
                for (HmmFilterParams prm : PARAMS) {
                    HmmFilterResults e = HmmFilter.compute(scalar, p, b, prm);
                    assertEquals(Isa.SCALAR, e.isa());
                    for (DpaContext c : new DpaContext[] { ctx, avx2 }) {
                        HmmFilterResults g = HmmFilter.compute(c, p, b, prm);
                        assertEquals(c.isa(), g.isa());
                        assertSame(e, g, prm + " isa " + c.isa() + " seed " + seed);
                        assertConsistent(g, p, b);
                        passed += g.passedVit();
                    }
                }
            }
            // the generator emits domains of every model: some pairs must pass every stage
            assertTrue(passed > 0, "no pair passed the Viterbi filter, seed " + seed);
        }
    }

    @Test
    void pvaluesAndFlagsEqualHmmer34Oracle(@TempDir Path dir) throws Exception {
        long seed = freshSeed("pvaluesAndFlagsEqualHmmer34Oracle");
        Path[] data = HmmTestData.generate(dir, seed, 5, 40, 1200);
        List<HmmTestData.OracleRow> rows = HmmTestData.oracle(dir, data[0], data[1]);
        try (HmmProfiles p = HmmProfiles.load(data[0])) {
            HmmSeqBatch b = HmmTestData.readFasta(data[1]);
            assertEquals((long) p.size() * b.size(), rows.size());
            for (HmmFilterParams prm : new HmmFilterParams[] { new HmmFilterParams(0.02, 1e-3, true, true),
                new HmmFilterParams(0.02, 1e-3, false, true), new HmmFilterParams(0.2, 0.05, true, true) }) {
                HmmFilterResults r = HmmFilter.compute(ctx, p, b, prm);
                int checked = 0;
                for (HmmTestData.OracleRow o : rows) {
                    int m = o.model(), s = o.seq();
                    String at = prm + " seed " + seed + " model " + m + " (" + p.name(m) + ") seq " + s + " ("
                        + b.name(s) + ")";
                    assertEquals(o.length(), b.length(s), at);
                    if (o.length() == 0) {
                        assertFalse(r.hasMsv(m, s), at);
                        continue;
                    }
                    double vitP = prm.biasFilter() ? o.vitP() : o.vitPNobias();
                    assertEquals(o.msvP(), r.msvPvalue(m, s), 0.0, at);
                    float nullVit = prm.biasFilter() ? o.filtersc() : o.nullsc();
                    assertEquals(HmmTestData.OracleRow.bits(o.usc(), o.nullsc()), r.msvBits(m, s), 0.0f, at);
                    assertEquals(HmmTestData.OracleRow.bits(o.vfsc(), nullVit), r.vitBits(m, s), 0.0f, at);
                    if (prm.biasFilter()) {
                        assertEquals(HmmTestData.OracleRow.bits(o.usc(), o.filtersc()), r.biasBits(m, s), 0.0f, at);
                    }
                    if (prm.biasFilter()) {
                        assertEquals(o.biasP(), r.biasPvalue(m, s), 0.0, at);
                    } else {
                        assertFalse(r.hasBias(m, s), at); // --nobias: no bias stage at all
                    }
                    assertEquals(vitP, r.vitPvalue(m, s), 0.0, at);
                    // hmmsearch's p7_Pipeline decisions, derived from the oracle's P-values
                    boolean msv = o.msvP() <= prm.f1();
                    boolean bias = msv && (!prm.biasFilter() || o.biasP() <= prm.f1());
                    double nullP = prm.biasFilter() ? o.biasP() : o.msvP();
                    boolean vit = bias && (nullP <= prm.f2() || vitP <= prm.f2());
                    assertEquals(msv, r.passMsv(m, s), at);
                    assertEquals(bias, r.passBias(m, s), at);
                    assertEquals(vit, r.passVit(m, s), at);
                    checked++;
                }
                assertTrue(checked > 100, "only " + checked + " pairs");
            }
        }
    }

    @Test
    void tinyModelNamesLengthsAndEmptyBatch() {
        byte[] text = (HmmTestData.tinyModel("first", 2) + HmmTestData.tinyModel("second", 5))
            .getBytes(StandardCharsets.US_ASCII);
        try (HmmProfiles p = HmmProfiles.load(text)) {
            assertEquals(2, p.size());
            assertEquals("first", p.name(0));
            assertEquals("second", p.name(1));
            assertEquals(2, p.length(0));
            assertEquals(5, p.length(1));
            assertThrows(IndexOutOfBoundsException.class, () -> p.name(2));
            HmmFilterResults r = HmmFilter.compute(ctx, p, HmmSeqBatch.builder().build(), HmmFilterParams.defaults());
            assertEquals(0, r.sequences());
            assertEquals(0, r.pairs());
            HmmSeqBatch.Builder bb = HmmSeqBatch.builder();
            bb.add("empty", "");
            bb.add("x", "ACDEFGHIKLMNPQRSTVWYbjzoux*~");
            r = HmmFilter.compute(ctx, p, bb.build(), new HmmFilterParams(1, 1, true, true));
            assertEquals(2, r.sequences());
            assertFalse(r.hasMsv(1, 0));
            assertTrue(r.hasMsv(1, 1) && r.hasBias(1, 1) && r.hasVit(1, 1));
            assertEquals(2, r.pairs());
            assertEquals(2L * 28 + 5L * 28, r.cells());
        }
    }

    @Test
    void nonAsciiNameBytesBecomeQuestionMarks() {
        byte[] text = HmmTestData.tinyModel("caf\u00e9", 2).getBytes(StandardCharsets.UTF_8); // 2 bytes: c3 a9
        try (HmmProfiles p = HmmProfiles.load(text)) {
            assertEquals("caf??", p.name(0));
        }
    }

    @Test
    void badInputNamesWhatAndWhere(@TempDir Path dir) throws Exception {
        HmmSeqBatch.Builder bb = HmmSeqBatch.builder();
        bb.add("ok", "ACD");
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> bb.add("seqB", "ACD-EF"));
        assertTrue(e.getMessage().contains("sequence 1 (seqB)") && e.getMessage().contains("residue 4")
            && e.getMessage().contains("'-'"), e.getMessage());
        e = assertThrows(IllegalArgumentException.class, () -> bb.add("digits", "AC1"));
        assertTrue(e.getMessage().contains("sequence 1 (digits)") && e.getMessage().contains("residue 3"), e.getMessage());
        e = assertThrows(IllegalArgumentException.class, () -> bb.add("utf", "AC\u00e9"));
        assertTrue(e.getMessage().contains("residue 3"), e.getMessage());
        e = assertThrows(IllegalArgumentException.class,
            () -> bb.add("long", new byte[HmmSeqBatch.MAX_LENGTH + 1]));
        assertTrue(e.getMessage().contains("length = 100001") && e.getMessage().contains("100000"), e.getMessage());
        assertEquals(1, bb.build().size()); // rejected sequences were not added
        bb.add("max", "A".repeat(HmmSeqBatch.MAX_LENGTH));

        e = assertThrows(IllegalArgumentException.class, () -> new HmmFilterParams(0, 1e-3, true, false));
        assertTrue(e.getMessage().contains("F1 = 0.0"), e.getMessage());
        e = assertThrows(IllegalArgumentException.class, () -> new HmmFilterParams(0.02, 1.5, true, false));
        assertTrue(e.getMessage().contains("F2 = 1.5"), e.getMessage());
        assertThrows(IllegalArgumentException.class, () -> new HmmFilterParams(Double.NaN, 0.1, true, false));

        String bad = HmmTestData.tinyModel("good", 2) + HmmTestData.tinyModel("broken", 2).replace("2.99573 1 a",
            "2.9x573 1 a");
        DpaccelException de = assertThrows(DpaccelException.class,
            () -> HmmProfiles.load(bad.getBytes(StandardCharsets.US_ASCII)));
        assertEquals(Status.INVALID_ARG, de.status());
        assertTrue(de.getMessage().contains("<buffer>") && de.getMessage().contains("line")
            && de.getMessage().contains("broken"), de.getMessage());
        Path f = dir.resolve("bad.hmm");
        Files.writeString(f, bad);
        de = assertThrows(DpaccelException.class, () -> HmmProfiles.load(f));
        assertTrue(de.getMessage().contains(f.toString()), de.getMessage());
        de = assertThrows(DpaccelException.class, () -> HmmProfiles.load(dir.resolve("missing.hmm")));
        assertTrue(de.getMessage().contains("missing.hmm"), de.getMessage());
        assertThrows(DpaccelException.class, () -> HmmProfiles.load(new byte[0]));
        assertThrows(DpaccelException.class, () -> HmmProfiles.load("HMMER2.0\n".getBytes(StandardCharsets.US_ASCII)));

        // a NAME of bytes that are not UTF-8 inside the reader's error message: the message
        // reaches Java as '?' (NewStringUTF under -Xcheck:jni would abort the JVM on them)
        byte[] raw = HmmTestData.tinyModel("NAMEX", 2).replace("2.99573 1 a", "2.9x573 1 a")
            .getBytes(StandardCharsets.US_ASCII);
        String rs = new String(raw, StandardCharsets.ISO_8859_1);
        int at = rs.indexOf("NAMEX");
        raw[at] = (byte) 0xff;
        raw[at + 1] = (byte) 0xc3;
        raw[at + 2] = (byte) 0x28;
        final byte[] rawf = raw;
        de = assertThrows(DpaccelException.class, () -> HmmProfiles.load(rawf));
        assertEquals(Status.INVALID_ARG, de.status());
        assertTrue(de.getMessage().contains("??(EX"), de.getMessage());

        // a GPU-forced call: NO_DEVICE without a usable GPU (the context stays usable); with one,
        // the CUDA kernels' results equal the CPU's field for field
        try (HmmProfiles p = HmmProfiles.load(HmmTestData.tinyModel("t", 2).getBytes(StandardCharsets.US_ASCII))) {
            HmmSeqBatch b = bb.build();
            if (ctx.deviceCount() == 0) {
                de = assertThrows(DpaccelException.class,
                    () -> HmmFilter.compute(ctx, p, b, HmmFilterParams.defaults(), Backend.GPU));
                assertEquals(Status.NO_DEVICE, de.status());
            } else {
                HmmFilterParams all = new HmmFilterParams(0.02, 1e-3, true, true);
                HmmFilterResults g = HmmFilter.compute(ctx, p, b, all, Backend.GPU);
                HmmFilterResults c = HmmFilter.compute(ctx, p, b, all, Backend.CPU);
                for (int m = 0; m < p.size(); m++) {
                    for (int q = 0; q < b.size(); q++) {
                        assertEquals(Float.floatToRawIntBits(c.msvBits(m, q)), Float.floatToRawIntBits(g.msvBits(m, q)));
                        assertEquals(Float.floatToRawIntBits(c.vitBits(m, q)), Float.floatToRawIntBits(g.vitBits(m, q)));
                        assertEquals(c.passVit(m, q), g.passVit(m, q));
                    }
                }
            }
            assertEquals(2, HmmFilter.compute(ctx, p, b, HmmFilterParams.defaults()).pairs());
        }
    }

    @Test
    void closedHandlesThrow() {
        HmmProfiles p = HmmProfiles.load(HmmTestData.tinyModel("t", 3).getBytes(StandardCharsets.US_ASCII));
        HmmSeqBatch.Builder bb = HmmSeqBatch.builder();
        bb.add("s", "MKV");
        HmmSeqBatch b = bb.build();
        assertFalse(p.isClosed());
        p.close();
        assertTrue(p.isClosed());
        p.close(); // idempotent
        assertEquals("t", p.name(0)); // metadata stays readable
        IllegalStateException e = assertThrows(IllegalStateException.class,
            () -> HmmFilter.compute(ctx, p, b, HmmFilterParams.defaults()));
        assertTrue(e.getMessage().contains("HMM profiles are closed"), e.getMessage());
        DpaContext c = DpaContext.create(Config.builder().threads(1).build());
        c.close();
        try (HmmProfiles q = HmmProfiles.load(HmmTestData.tinyModel("t", 3).getBytes(StandardCharsets.US_ASCII))) {
            e = assertThrows(IllegalStateException.class, () -> HmmFilter.compute(c, q, b, HmmFilterParams.defaults()));
            assertTrue(e.getMessage().contains("context is closed"), e.getMessage());
        }
        assertThrows(NullPointerException.class, () -> HmmFilter.compute(ctx, null, b, HmmFilterParams.defaults()));
    }

    @Test
    void concurrentCallsShareOneProfilesHandle() throws Exception {
        long seed = freshSeed("concurrentCallsShareOneProfilesHandle");
        SplittableRandom rng = new SplittableRandom(seed);
        String aa = "ACDEFGHIKLMNPQRSTVWY";
        HmmSeqBatch.Builder bb = HmmSeqBatch.builder();
        for (int i = 0; i < 30; i++) {
            StringBuilder s = new StringBuilder();
            for (int j = rng.nextInt(1, 400); j > 0; j--) {
                s.append(aa.charAt(rng.nextInt(20)));
            }
            bb.add("r" + i, s);
        }
        HmmSeqBatch b = bb.build();
        try (HmmProfiles p = HmmProfiles.load(HmmTestData.tinyModel("t", 40).getBytes(StandardCharsets.US_ASCII))) {
            HmmFilterParams prm = new HmmFilterParams(1, 1, true, true);
            HmmFilterResults e = HmmFilter.compute(scalar, p, b, prm);
            Thread[] ts = new Thread[4];
            Throwable[] err = new Throwable[ts.length];
            for (int t = 0; t < ts.length; t++) {
                int k = t;
                ts[t] = new Thread(() -> {
                    try {
                        for (int i = 0; i < 5; i++) {
                            assertSame(e, HmmFilter.compute(ctx, p, b, prm), "thread " + k);
                        }
                    } catch (Throwable x) {
                        err[k] = x;
                    }
                });
                ts[t].start();
            }
            for (int t = 0; t < ts.length; t++) {
                ts[t].join();
                if (err[t] != null) {
                    throw new AssertionError("thread " + t + ", seed " + seed, err[t]);
                }
            }
        }
    }
}
