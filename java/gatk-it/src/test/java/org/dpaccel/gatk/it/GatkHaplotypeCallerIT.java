package org.dpaccel.gatk.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import java.io.IOException;
import java.io.Reader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.nio.file.StandardOpenOption;
import java.time.LocalDateTime;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Properties;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestMethodOrder;

/**
 * An unmodified GATK 4.6.2.0 HaplotypeCaller (from Maven Central) on a simulated genome, run as
 * users run it: {@code java -cp dpaccel-gatk-dropin.jar:<gatk class path> org.broadinstitute.hellbender.Main
 * HaplotypeCaller ...}. Runs (all with {@code --native-pair-hmm-threads 2}):
 * <ul>
 * <li>{@code gkl}: GATK alone, {@code --pair-hmm-implementation AVX_LOGLESS_CACHING} (Intel GKL);</li>
 * <li>{@code dpaccel}: drop-in first, same arguments: must go through dpaccel (its log line and its
 * call counter) and call the same variants as GKL;</li>
 * <li>{@code gkl-fastest} and {@code dpaccel-fastest}: the same without and with the drop-in for
 * {@code FASTEST_AVAILABLE} (GATK's default: GKL's OMP class, 2 threads; 2 threads on dpaccel);</li>
 * <li>{@code java}: GATK alone, {@code LOGLESS_CACHING} (pure Java): compared, reported;</li>
 * <li>{@code disabled}: drop-in first with {@code -Ddpaccel.gatk.disable=true}: no dpaccel call,
 * records identical to the GKL run.</li>
 * <li>{@code gkl-javasw}: GATK alone, GKL PairHMM ({@code AVX_LOGLESS_CACHING}) with GATK's Java
 * Smith-Waterman ({@code --smith-waterman JAVA}): the drop-in's Smith-Waterman
 * ({@code com.intel.gkl.smithwaterman.IntelSmithWaterman} on dpaccel, reached through GATK's default
 * {@code --smith-waterman FASTEST_AVAILABLE}) returns the Java aligner's CIGARs, so the
 * {@code dpaccel} run's records must equal this run's byte for byte;</li>
 * <li>{@code dpaccel-swoff}: drop-in first with {@code DPACCEL_GATK_SW_DISABLE=1}: PairHMM on dpaccel,
 * Smith-Waterman handed to the real GKL.</li>
 * <li>{@code dpaccel-agent}: GATK's class path alone plus {@code -javaagent:dpaccel-gatk-dropin.jar}
 * (the stock launcher's case): records equal to the {@code dpaccel} run's.</li>
 * <li>{@code dpaccel-suffix}: drop-in first with {@code DPACCEL_PAIRHMM_PREFIX=3} (suffix sharing):
 * records equal to the {@code gkl} run's byte for byte.</li>
 * </ul>
 * Every call set is checked against the simulator's truth. Outputs, logs and a report are under
 * target/gatk-it/.
 */
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
class GatkHaplotypeCallerIT {
    static final long SEED = Long.getLong("dpaccel.gatk.it.seed", 20240607L);
    static final String SAMPLE = "sim1";
    static final String[] CONTIGS = {"chr1", "chr2"};
    /** -Ddpaccel.gatk.it.scale=N multiplies the genome (same densities and depth), for benchmarks. */
    static final int SCALE = Integer.getInteger("dpaccel.gatk.it.scale", 1);
    static final int[] LENGTHS = {120_000 * SCALE, 80_000 * SCALE};
    static final double DEPTH = 30;
    static final String THREADS = "2";
    /**
     * GKL vs dpaccel tolerance on the VCF. dpaccel's and GKL's float PairHMMs agree within 1e-5
     * log10 per read x haplotype (different but equally valid summation orders); summed over the
     * reads of a site that moves genotype likelihoods by well under 1e-3 log10, i.e. PL (phred,
     * rounded to integers) by at most 1 at a rounding boundary, GQ likewise, QUAL by hundredths.
     * Sites, alleles and genotypes must be equal.
     */
    static final int PL_TOL = 1;
    static final int GQ_TOL = 1;
    static final double QUAL_TOL = 0.5;

    static Path work;
    static Path data;
    static Path ref;
    static Path bam;
    static Path truth;
    static String gatkClasspath;
    static Path dropinJar;
    static final Map<String, Run> RUNS = new HashMap<>();
    static final StringBuilder REPORT = new StringBuilder();

    record Run(String name, Path vcf, Path stderr, double wallSeconds, double pairHmmSeconds, double swSeconds,
        double elapsedMinutes, Map<String, VcfRecords.Rec> records) {
    }

    @BeforeAll
    static void prepare() throws Exception {
        work = Paths.get(System.getProperty("dpaccel.gatk.it.dir", "target/gatk-it")).toAbsolutePath();
        Files.createDirectories(work);
        Path cpFile = Paths.get(System.getProperty("dpaccel.gatk.it.classpath", "target/gatk.classpath"));
        if (!Files.isRegularFile(cpFile)) {
            fail("GATK class path file " + cpFile.toAbsolutePath() + " missing: the gatk-it profile resolves "
                + "org.broadinstitute:gatk:4.6.2.0 into it (do not run with -DskipTests)");
        }
        gatkClasspath = Files.readString(cpFile).trim();
        dropinJar = Paths.get(System.getProperty("dpaccel.gatk.dropin.jar",
            "../gatk-dropin/target/dpaccel-gatk-dropin.jar")).toAbsolutePath();
        if (!Files.isRegularFile(dropinJar)) {
            fail("drop-in jar " + dropinJar + " missing: build java/gatk-dropin first (mvn install from the root)");
        }
        log("GATK HaplotypeCaller integration test, " + LocalDateTime.now() + ", seed " + SEED + ", "
            + Runtime.getRuntime().availableProcessors() + " CPUs, genome scale " + SCALE + ", drop-in " + dropinJar);
        Path setup = Paths.get(System.getProperty("dpaccel.gatk.it.setup", "setup.sh")).toAbsolutePath();
        exec(List.of("bash", setup.toString()), work.resolve("setup.log"), 900);

        data = work.resolve("data-" + SEED + (SCALE == 1 ? "" : "-x" + SCALE));
        ref = data.resolve("ref.fa");
        bam = data.resolve(SAMPLE + ".bam");
        truth = data.resolve("truth.vcf");
        Path done = data.resolve("DONE");
        if (Files.exists(done)) {
            log("reusing simulated data in " + data);
            return;
        }
        Files.createDirectories(data);
        long t0 = System.nanoTime();
        GenomeSimulator sim = new GenomeSimulator(SEED, CONTIGS, LENGTHS);
        sim.writeFasta(ref);
        sim.writeTruthVcf(truth, SAMPLE);
        Path fq1 = data.resolve("r1.fq"), fq2 = data.resolve("r2.fq");
        long pairs = sim.writeReads(fq1, fq2, DEPTH);
        long snps = sim.truth().stream().filter(v -> v.ref().length() == 1 && v.alt().length() == 1).count();
        log(String.format(Locale.ROOT, "simulated %d bp, %d SNPs + %d indels, %d read pairs (%.0fx) in %.1f s",
            Arrays.stream(LENGTHS).sum(), snps, sim.truth().size() - snps, pairs, DEPTH, (System.nanoTime() - t0) * 1e-9));
        t0 = System.nanoTime();
        Path alog = data.resolve("align.log");
        exec(List.of("samtools", "faidx", ref.toString()), alog, 300);
        exec(List.of("samtools", "dict", "-o", data.resolve("ref.dict").toString(), ref.toString()), alog, 300);
        exec(List.of("bwa", "index", ref.toString()), alog, 300);
        exec(List.of("bash", "-o", "pipefail", "-c", "bwa mem -t " + THREADS + " -R '@RG\\tID:rg1\\tSM:" + SAMPLE
            + "\\tPL:ILLUMINA\\tLB:lib1' '" + ref + "' '" + fq1 + "' '" + fq2 + "' | samtools sort -@ " + THREADS
            + " -o '" + bam + "' -"), alog, 900);
        exec(List.of("samtools", "index", bam.toString()), alog, 300);
        Files.delete(fq1);
        Files.delete(fq2);
        log(String.format(Locale.ROOT, "bwa mem + samtools sort/index in %.1f s", (System.nanoTime() - t0) * 1e-9));
        Files.writeString(done, "ok\n");
    }

    // ------------------------------------------------------------------------------------------ tests

    @Test
    @Order(1)
    void dropinRunsOnDpaccelAndMatchesGkl() throws Exception {
        Run gkl = run("gkl", false, "AVX_LOGLESS_CACHING", List.of());
        String gklLog = Files.readString(gkl.stderr);
        assertFalse(gklLog.contains("dpaccel"), "GATK alone must not mention dpaccel");
        assertTrue(gklLog.contains("Using the AVX-accelerated native PairHMM implementation"), "GKL run: " + gkl.stderr);

        Run dpa = run("dpaccel", true, "AVX_LOGLESS_CACHING", List.of());
        assertWentThroughDpaccel(dpa, "com.intel.gkl.pairhmm.IntelPairHmm");
        compareWithGkl(gkl, dpa);
    }

    @Test
    @Order(2)
    void fastestAvailableRunsOnDpaccelWithThreads() throws Exception {
        Run gkl = run("gkl-fastest", false, "FASTEST_AVAILABLE", List.of());
        assertTrue(Files.readString(gkl.stderr).contains("Using the OpenMP multi-threaded AVX-accelerated native PairHMM"),
            "GKL FASTEST_AVAILABLE run: " + gkl.stderr);
        Run dpa = run("dpaccel-fastest", true, "FASTEST_AVAILABLE", List.of());
        assertWentThroughDpaccel(dpa, "com.intel.gkl.pairhmm.IntelPairHmmOMP");
        String log = Files.readString(dpa.stderr);
        assertTrue(log.contains("threads=" + THREADS), "dpaccel context must use --native-pair-hmm-threads "
            + THREADS + ": " + dpa.stderr);
        compareWithGkl(gkl, dpa);
    }

    @Test
    @Order(3)
    void javaPairHmmForReference() throws Exception {
        Run gkl = run("gkl", false, "AVX_LOGLESS_CACHING", List.of());
        Run java = run("java", false, "LOGLESS_CACHING", List.of());
        assertTrue(Files.readString(java.stderr).contains("Java LOGLESS_CACHING PairHMM"), "java run: " + java.stderr);
        VcfRecords.Diff d = VcfRecords.compare(gkl.records, java.records);
        log("GKL vs Java LOGLESS_CACHING (reference only; Java is double precision): " + d);
    }

    @Test
    @Order(4)
    void disabledDropinHandsOverToGkl() throws Exception {
        Run gkl = run("gkl", false, "AVX_LOGLESS_CACHING", List.of());
        Run off = run("disabled", true, "AVX_LOGLESS_CACHING", List.of("-Ddpaccel.gatk.disable=true"));
        String log = Files.readString(off.stderr);
        assertTrue(log.contains("dpaccel drop-in disabled"), off.stderr.toString());
        assertTrue(log.contains("delegating to the real Intel GKL com.intel.gkl.pairhmm.IntelPairHmm"), off.stderr.toString());
        assertFalse(log.contains("Using dpaccel PairHMM"), off.stderr.toString());
        Properties st = stats(off);
        assertEquals("gkl", st.getProperty("engine"));
        assertEquals("0", st.getProperty("dpaccel.calls"));
        assertTrue(log.contains("delegating to the real Intel GKL com.intel.gkl.smithwaterman.IntelSmithWaterman"),
            off.stderr.toString());
        assertFalse(log.contains("Using dpaccel Smith-Waterman"), off.stderr.toString());
        assertEquals("gkl", st.getProperty("sw.engine"));
        assertEquals("0", st.getProperty("dpaccel.sw.calls"));
        VcfRecords.Diff d = VcfRecords.compare(gkl.records, off.records);
        log("GKL vs drop-in disabled (-Ddpaccel.gatk.disable=true): " + d);
        assertEquals(gkl.records.size(), d.identicalLines, "disabled drop-in must reproduce GKL exactly: " + d);
    }

    /**
     * HaplotypeCaller reaches {@code IntelSmithWaterman} through its default
     * {@code --smith-waterman FASTEST_AVAILABLE} ({@code SmithWatermanIntelAligner}); with the drop-in
     * that is dpaccel, which returns GATK's Java aligner's CIGARs. HaplotypeCaller aligns with
     * SOFTCLIP (read to haplotype, haplotype paths), INDEL (haplotype to reference) and
     * LEADING_INDEL (dangling ends), never IGNORE, the one strategy where GKL differs from GATK's
     * Java aligner below 1024 bases; so all three runs are expected to agree.
     */
    @Test
    @Order(5)
    void smithWatermanRunsOnDpaccelAndEqualsGatkJavaAligner() throws Exception {
        Run gkl = run("gkl", false, "AVX_LOGLESS_CACHING", List.of());
        Run dpa = run("dpaccel", true, "AVX_LOGLESS_CACHING", List.of());
        String log = Files.readString(dpa.stderr);
        assertTrue(log.contains("dpaccel GATK drop-in: com.intel.gkl.smithwaterman.IntelSmithWaterman"),
            "no drop-in Smith-Waterman line in " + dpa.stderr);
        Matcher isa = Pattern.compile("Using dpaccel Smith-Waterman: .*?isa=(\\w+)").matcher(log);
        assertTrue(isa.find(), "no 'Using dpaccel Smith-Waterman: ... isa=' line in " + dpa.stderr);
        assertTrue(log.contains("Using AVX accelerated SmithWaterman implementation"),
            "GATK did not take its native Smith-Waterman path: " + dpa.stderr);
        assertFalse(log.contains("libgkl_smithwaterman"), "GKL's Smith-Waterman library was loaded: " + dpa.stderr);
        assertTrue(log.contains("dpaccel GATK drop-in Smith-Waterman summary: engine dpaccel"), dpa.stderr.toString());
        Properties st = stats(dpa);
        assertEquals("dpaccel", st.getProperty("sw.engine"), dpa.name + " stats");
        long swCalls = Long.parseLong(st.getProperty("dpaccel.sw.calls"));
        assertTrue(swCalls > 0, dpa.name + ": no Smith-Waterman call reached dpaccel");
        assertEquals(st.getProperty("sw.calls"), st.getProperty("dpaccel.sw.calls"), "every align call on dpaccel");
        log(String.format(Locale.ROOT, "%s: %d Smith-Waterman align calls reached dpaccel (isa=%s), %s cells, %s s"
            + " inside; GATK's 'Total compute time in native Smith-Waterman' %.2f s", dpa.name, swCalls, isa.group(1),
            st.getProperty("sw.cells"), st.getProperty("sw.seconds"), dpa.swSeconds));

        Run javaSw = run("gkl-javasw", false, "AVX_LOGLESS_CACHING", List.of(), List.of("--smith-waterman", "JAVA"),
            Map.of());
        String jlog = Files.readString(javaSw.stderr);
        assertTrue(jlog.contains("Total compute time in java Smith-Waterman"), "not the Java aligner: " + javaSw.stderr);
        assertFalse(jlog.contains("dpaccel"), javaSw.stderr.toString());
        VcfRecords.Diff dj = VcfRecords.compare(javaSw.records, dpa.records);
        log("GKL PairHMM + GATK Java Smith-Waterman vs drop-in (dpaccel PairHMM + dpaccel Smith-Waterman): " + dj);
        assertEquals(bodyLines(javaSw.vcf), bodyLines(dpa.vcf),
            "drop-in VCF records must equal those of GKL PairHMM + --smith-waterman JAVA byte for byte: " + dj);

        VcfRecords.Diff dg = VcfRecords.compare(gkl.records, dpa.records);
        log("GKL (PairHMM + Smith-Waterman) vs drop-in (dpaccel PairHMM + Smith-Waterman): " + dg
            + (bodyLines(gkl.vcf).equals(bodyLines(dpa.vcf)) ? "; all record lines byte-identical"
                : "; record lines differ"));
        VcfRecords.Diff gj = VcfRecords.compare(gkl.records, javaSw.records);
        log("GKL Smith-Waterman vs GATK Java Smith-Waterman (both GKL PairHMM): " + gj
            + (bodyLines(gkl.vcf).equals(bodyLines(javaSw.vcf)) ? "; all record lines byte-identical"
                : "; record lines differ"));
    }

    @Test
    @Order(6)
    void swDisableSwitchHandsSmithWatermanToGkl() throws Exception {
        Run gkl = run("gkl", false, "AVX_LOGLESS_CACHING", List.of());
        Run off = run("dpaccel-swoff", true, "AVX_LOGLESS_CACHING", List.of(), List.of(),
            Map.of("DPACCEL_GATK_SW_DISABLE", "1"));
        String log = Files.readString(off.stderr);
        assertTrue(log.contains("dpaccel Smith-Waterman disabled"), off.stderr.toString());
        assertTrue(log.contains("delegating to the real Intel GKL com.intel.gkl.smithwaterman.IntelSmithWaterman"),
            off.stderr.toString());
        assertFalse(log.contains("Using dpaccel Smith-Waterman"), off.stderr.toString());
        assertWentThroughDpaccel(off, "com.intel.gkl.pairhmm.IntelPairHmm");
        Properties st = stats(off);
        assertEquals("gkl", st.getProperty("sw.engine"));
        assertEquals("0", st.getProperty("dpaccel.sw.calls"));
        assertTrue(Long.parseLong(st.getProperty("sw.calls")) > 0, "GKL's align calls go through the drop-in");
        compareWithGkl(gkl, off);
    }

    /**
     * The drop-in as a Java agent ({@code -javaagent:dpaccel-gatk-dropin.jar}) with GATK's class
     * path unchanged, GKL ahead of the drop-in's jar, as under the stock {@code gatk} launcher
     * ({@code java -jar gatk-package-*-local.jar}, which takes no class-path prefix): the agent
     * must put dpaccel behind GKL's class names, and the records must equal those of the drop-in
     * first on the class path byte for byte (the same code on the same data).
     */
    @Test
    @Order(7)
    void javaAgentWithGatkClassPathUnchanged() throws Exception {
        Run dpa = run("dpaccel", true, "AVX_LOGLESS_CACHING", List.of());
        Run agent = run("dpaccel-agent", false, "AVX_LOGLESS_CACHING", List.of("-javaagent:" + dropinJar));
        String log = Files.readString(agent.stderr);
        assertTrue(log.contains("dpaccel GATK drop-in agent: com.intel.gkl.pairhmm.IntelPairHmm defined from the "
            + "drop-in's jar in place of GKL's"), "no agent line in " + agent.stderr);
        assertWentThroughDpaccel(agent, "com.intel.gkl.pairhmm.IntelPairHmm");
        assertTrue(log.contains("dpaccel GATK drop-in: com.intel.gkl.smithwaterman.IntelSmithWaterman"),
            "Smith-Waterman not on dpaccel under the agent: " + agent.stderr);
        assertEquals(bodyLines(dpa.vcf), bodyLines(agent.vcf),
            "the agent's records must equal the class-path drop-in's byte for byte");
        log("drop-in as -javaagent with GATK's class path unchanged: records identical to the class-path drop-in");
    }

    /**
     * HaplotypeCallerSpark in local mode (executors are threads of the driver's JVM) through the
     * drop-in on the class path and as {@code -javaagent} (the route for cluster executors:
     * {@code spark.executor.extraJavaOptions}), against stock GATK's HaplotypeCallerSpark: the
     * records must be identical, and every executor's PairHMM must have reached dpaccel.
     */
    @Test
    @Order(8)
    void haplotypeCallerSparkRunsOnDpaccelAndEqualsStock() throws Exception {
        Run stock = runSpark("spark-gkl", false, List.of());
        assertFalse(Files.readString(stock.stderr).contains("dpaccel"), "stock GATK must not mention dpaccel");
        Run cp = runSpark("spark-dpaccel", true, List.of());
        Run agent = runSpark("spark-dpaccel-agent", false, List.of("-javaagent:" + dropinJar));
        for (Run r : List.of(cp, agent)) {
            assertWentThroughDpaccel(r, "com.intel.gkl.pairhmm.IntelPairHmmOMP");
            assertEquals(bodyLines(stock.vcf), bodyLines(r.vcf),
                r.name + ": HaplotypeCallerSpark records must equal stock GATK's byte for byte");
        }
        assertTrue(stock.records.size() > 100, "too few calls: " + stock.records.size());
        log("HaplotypeCallerSpark (local[" + THREADS + "]) with the drop-in on the class path and as -javaagent: "
            + stock.records.size() + " records identical to stock GATK's");
    }

    @Test
    @Order(9)
    void callSetsAgreeWithTruth() throws Exception {
        Map<String, VcfRecords.Rec> t = VcfRecords.read(truth);
        for (String name : List.of("gkl", "dpaccel", "gkl-fastest", "dpaccel-fastest", "java", "gkl-javasw",
            "dpaccel-swoff")) {
            Run r = RUNS.get(name);
            if (r == null) {
                continue;
            }
            int[] snp = new int[3], indel = new int[3]; // tp, truth, called
            int gtOk = 0;
            for (VcfRecords.Rec x : t.values()) {
                int[] c = x.isSnp() ? snp : indel;
                c[1]++;
                VcfRecords.Rec y = r.records.get(x.key());
                if (y != null) {
                    c[0]++;
                    if (y.gt().equals(x.gt())) {
                        gtOk++;
                    }
                }
            }
            for (VcfRecords.Rec y : r.records.values()) {
                (y.isSnp() ? snp : indel)[2]++;
            }
            double snpRecall = snp[0] / (double) snp[1], snpPrecision = snp[0] / (double) snp[2];
            double indelRecall = indel[0] / (double) indel[1];
            log(String.format(Locale.ROOT, "%-16s vs truth: SNP recall %.3f precision %.3f (%d/%d, %d called); "
                    + "indel recall %.3f precision %.3f (%d/%d, %d called); genotype match on found %d/%d",
                name, snpRecall, snpPrecision, snp[0], snp[1], snp[2], indelRecall, indel[0] / (double) indel[2],
                indel[0], indel[1], indel[2], gtOk, snp[0] + indel[0]));
            assertTrue(snpRecall > 0.9 && snpPrecision > 0.9, name + ": SNP recall/precision below 0.9");
            assertTrue(indelRecall > 0.6, name + ": indel recall below 0.6");
        }
    }

    /** The dpaccel CLI jar whose `bench trace` replays traces (built by the root's mvn install). */
    private static Path cliJar() {
        Path cli = Paths.get(System.getProperty("dpaccel.cli.jar", "../cli/target/dpaccel.jar")).toAbsolutePath();
        if (!Files.isRegularFile(cli)) {
            fail("CLI jar " + cli + " missing: build java/cli first (mvn install from the root)");
        }
        return cli;
    }

    /**
     * HaplotypeCaller traces (docs/GATK.md): a run on GKL (drop-in off) and one on dpaccel, each
     * recording its kernel calls, give the same records as the runs without a trace; each trace
     * holds as many PairHMM and Smith-Waterman calls as the drop-in counted; and `dpaccel bench
     * trace` replays the GKL trace on dpaccel's CPU and on GKL (GATK's own GKL jar), every
     * likelihood within 1e-4 of the recorded one, and the dpaccel trace on dpaccel to the bit.
     */
    @Test
    @Order(10)
    void tracesRecordAndReplay() throws Exception {
        Path cli = cliJar();
        Run gkl = run("gkl", false, "AVX_LOGLESS_CACHING", List.of());
        Path gklTrace = work.resolve("gkl.dpatrace"), dpaTrace = work.resolve("dpaccel.dpatrace");
        Files.deleteIfExists(gklTrace);
        Files.deleteIfExists(dpaTrace);
        Run off = run("gkl-traced", true, "AVX_LOGLESS_CACHING", List.of("-Ddpaccel.gatk.disable=true",
            "-Ddpaccel.gatk.trace=" + gklTrace));
        Run dpa = run("dpaccel-traced", true, "AVX_LOGLESS_CACHING", List.of("-Ddpaccel.gatk.trace=" + dpaTrace));
        assertEquals(bodyLines(gkl.vcf), bodyLines(off.vcf), "recording a trace must not change GKL's records");
        assertEquals(gkl.records.size(), VcfRecords.compare(gkl.records, dpa.records).identicalLines,
            "recording a trace must not change the drop-in's records");
        for (Run r : List.of(off, dpa)) {
            Properties st = stats(r);
            Path t = r == off ? gklTrace : dpaTrace;
            assertTrue(Files.isRegularFile(t), "no trace " + t + " after " + r.name);
            String batches = st.getProperty("batches"), sw = st.getProperty("sw.calls");
            List<String> cmd = List.of(Paths.get(System.getProperty("java.home"), "bin", "java").toString(), "-jar",
                cli.toString(), "bench", "trace", "--engines", r == off ? "cpu,gkl" : "cpu", "--gkl", gatkClasspath,
                t.toString());
            Path out = work.resolve(r.name + ".replay");
            Files.deleteIfExists(out); // exec appends
            exec(cmd, out, 600);
            String rep = Files.readString(out);
            log(r.name + " trace (" + Files.size(t) + " bytes) replayed:\n" + rep.substring(rep.indexOf("\ntrace ") + 1));
            assertTrue(rep.contains(" " + batches + " PairHMM calls") && rep.contains(" " + sw + " Smith-Waterman calls"),
                "the trace must hold the " + batches + " PairHMM and " + sw + " SW calls the drop-in counted: " + out);
            assertTrue(rep.contains("PairHMM on " + (r == off ? "gkl" : "dpaccel")), out.toString());
            assertTrue(rep.matches("(?s).*dpaccel-cpu .* ok: .*"), "dpaccel's replay must pass its check: " + out);
            if (r == off) {
                assertTrue(rep.matches("(?s).*\\n  gkl .* ok: (\\d+) of \\1 likelihoods identical.*"),
                    "GKL replaying its own trace must give its bits: " + out);
            } else {
                assertTrue(rep.matches("(?s).*dpaccel-cpu .* ok: (\\d+) of \\1 likelihoods identical.*"),
                    "dpaccel replaying its own trace must give its bits: " + out);
            }
        }
    }

    /**
     * Suffix sharing on ({@code DPACCEL_PAIRHMM_PREFIX=3}: columns shared across haplotype lengths
     * and a backward pass over shared suffixes; likelihoods within 1e-5 of the plain kernels but
     * not bit-identical to them, docs/pairhmm.md): the drop-in run must give records byte-identical
     * to stock GATK's (GKL). The knob is an environment variable read by the native context, so a
     * run where it silently did not apply would pass the comparison too; the run therefore records
     * a trace, and replaying it on dpaccel's CPU must reproduce every recorded likelihood with the
     * knob on and not all of them with the default (1), which computes every pair to other bits.
     */
    @Test
    @Order(11)
    void suffixSharingGivesStockGatkRecords() throws Exception {
        Path cli = cliJar();
        Run gkl = run("gkl", false, "AVX_LOGLESS_CACHING", List.of());
        Path trace = work.resolve("dpaccel-suffix.dpatrace");
        Files.deleteIfExists(trace);
        Run shared = run("dpaccel-suffix", true, "AVX_LOGLESS_CACHING", List.of("-Ddpaccel.gatk.trace=" + trace),
            List.of(), Map.of("DPACCEL_PAIRHMM_PREFIX", "3"));
        assertWentThroughDpaccel(shared, "com.intel.gkl.pairhmm.IntelPairHmm");
        assertEquals(bodyLines(gkl.vcf), bodyLines(shared.vcf),
            "with suffix sharing on, the records must equal stock GATK's byte for byte");
        Pattern check = Pattern.compile("dpaccel-cpu .* ok: (\\d+) of (\\d+) likelihoods identical");
        long[] identical = new long[2], total = new long[2];
        String[] knobs = {"3", "1"};
        for (int k = 0; k < 2; k++) {
            Path out = work.resolve("dpaccel-suffix.replay" + knobs[k]);
            Files.deleteIfExists(out); // exec appends
            exec(List.of(Paths.get(System.getProperty("java.home"), "bin", "java").toString(), "-jar", cli.toString(),
                "bench", "trace", "--engines", "cpu", trace.toString()), out, 600,
                Map.of("DPACCEL_PAIRHMM_PREFIX", knobs[k]));
            Matcher m = check.matcher(Files.readString(out));
            assertTrue(m.find(), "no passing dpaccel-cpu check in " + out);
            identical[k] = Long.parseLong(m.group(1));
            total[k] = Long.parseLong(m.group(2));
        }
        assertEquals(total[0], identical[0], "replayed with DPACCEL_PAIRHMM_PREFIX=3 the trace must give its bits");
        assertTrue(identical[1] < total[1], "replayed with the default knob every likelihood was identical: the "
            + "run did not share suffixes");
        log(String.format(Locale.ROOT, "suffix sharing (DPACCEL_PAIRHMM_PREFIX=3): %d records identical to stock "
            + "GATK's; its %d likelihoods replayed with the knob on: all identical; with the default: %d identical",
            gkl.records.size(), total[0], identical[1]));
    }

    // ------------------------------------------------------------------------------------------ helpers

    static void assertWentThroughDpaccel(Run r, String gklClass) throws IOException {
        String log = Files.readString(r.stderr);
        assertTrue(log.contains("Using dpaccel PairHMM:"), "no 'Using dpaccel PairHMM:' line in " + r.stderr);
        assertTrue(log.contains("dpaccel GATK drop-in: " + gklClass), "no drop-in line for " + gklClass + " in " + r.stderr);
        assertTrue(log.contains("dpaccel GATK drop-in summary: engine dpaccel"), "no summary line in " + r.stderr);
        Properties st = stats(r);
        assertEquals("dpaccel", st.getProperty("engine"), r.name + " stats");
        assertEquals(gklClass, st.getProperty("gkl.class"), r.name + " stats");
        long calls = Long.parseLong(st.getProperty("dpaccel.calls"));
        assertTrue(calls > 100, r.name + ": only " + calls + " PairHMM batches reached dpaccel");
        log(String.format(Locale.ROOT, "%s: %d computeLikelihoods batches reached dpaccel (DpaPairHmm.callCount()), "
            + "%s read x haplotype pairs, %s cells, %s s inside", r.name, calls, st.getProperty("pairs"),
            st.getProperty("cells"), st.getProperty("seconds")));
    }

    static void compareWithGkl(Run gkl, Run dpa) {
        VcfRecords.Diff d = VcfRecords.compare(gkl.records, dpa.records);
        log("GKL vs " + dpa.name + ": " + d);
        assertTrue(d.sameSitesAllelesGenotypes(), "sites/alleles/genotypes differ: " + d);
        assertTrue(d.maxPlDiff <= PL_TOL, "PL differs by more than " + PL_TOL + ": " + d);
        assertTrue(d.maxGqDiff <= GQ_TOL, "GQ differs by more than " + GQ_TOL + ": " + d);
        assertTrue(d.maxQualDiff <= QUAL_TOL, "QUAL differs by more than " + QUAL_TOL + ": " + d);
        assertTrue(gkl.records.size() > 100, "too few calls: " + gkl.records.size());
    }

    /** The VCF's record lines (no header: it holds the command line). */
    static List<String> bodyLines(Path vcf) throws IOException {
        return Files.readAllLines(vcf, StandardCharsets.UTF_8).stream().filter(l -> !l.startsWith("#")).toList();
    }

    static Properties stats(Run r) throws IOException {
        Properties p = new Properties();
        try (Reader in = Files.newBufferedReader(work.resolve(r.name + ".stats"))) {
            p.load(in);
        }
        return p;
    }

    /**
     * The command of one GATK run named {@code name}, up to the tool's own options: java, heap,
     * the drop-in's stats file when the drop-in is on the class path or an agent, the JVM
     * options, the class path, {@code Main TOOL -R -I -O --tmp-dir}. Deletes the run's earlier
     * VCF, log and stats.
     */
    static List<String> gatkCommand(String name, boolean dropin, List<String> jvmProps, String tool)
        throws IOException {
        Path vcf = work.resolve(name + ".vcf");
        Path statsFile = work.resolve(name + ".stats");
        for (Path f : List.of(vcf, work.resolve(name + ".log"), statsFile)) {
            Files.deleteIfExists(f);
        }
        Path tmp = work.resolve("tmp");
        Files.createDirectories(tmp);
        List<String> cmd = new ArrayList<>();
        cmd.add(Paths.get(System.getProperty("java.home"), "bin", "java").toString());
        cmd.add("-Xmx" + System.getProperty("dpaccel.gatk.it.xmx", "3g"));
        if (dropin || jvmProps.stream().anyMatch(a -> a.startsWith("-javaagent:"))) {
            cmd.add("-Ddpaccel.gatk.stats=" + statsFile);
        }
        cmd.addAll(jvmProps);
        cmd.add("-cp");
        cmd.add(dropin ? dropinJar + java.io.File.pathSeparator + gatkClasspath : gatkClasspath);
        cmd.addAll(List.of("org.broadinstitute.hellbender.Main", tool, "-R", ref.toString(), "-I", bam.toString(),
            "-O", vcf.toString(), "--tmp-dir", tmp.toString()));
        return cmd;
    }

    /** Runs HaplotypeCaller once per name (later tests reuse the result). */
    static synchronized Run run(String name, boolean dropin, String impl, List<String> jvmProps) throws Exception {
        return run(name, dropin, impl, jvmProps, List.of(), Map.of());
    }

    /** ... with extra HaplotypeCaller arguments and environment variables. */
    static synchronized Run run(String name, boolean dropin, String impl, List<String> jvmProps, List<String> gatkArgs,
        Map<String, String> env) throws Exception {
        Run cached = RUNS.get(name);
        if (cached != null) {
            return cached;
        }
        Path vcf = work.resolve(name + ".vcf");
        Path err = work.resolve(name + ".log");
        List<String> cmd = gatkCommand(name, dropin, jvmProps, "HaplotypeCaller");
        cmd.addAll(List.of("--pair-hmm-implementation", impl, "--native-pair-hmm-threads", THREADS));
        cmd.addAll(gatkArgs);
        String shown = String.join(" ", cmd).replace(gatkClasspath, "<gatk-4.6.2.0 class path>");
        if (!env.isEmpty()) {
            StringBuilder e = new StringBuilder();
            env.forEach((k, v) -> e.append(k).append('=').append(v).append(' '));
            shown = e + shown;
        }
        Files.writeString(work.resolve(name + ".cmd"), shown + "\n");
        long t0 = System.nanoTime();
        exec(cmd, err, 600, env);
        double wall = (System.nanoTime() - t0) * 1e-9;
        String log = Files.readString(err);
        double hmm = grab(log, "Total compute time in PairHMM computeLogLikelihoods\\(\\) : ([0-9.Ee+-]+)");
        double sw = grab(log, "Total compute time in (?:native|java) Smith-Waterman : ([0-9.]+) sec");
        double elapsed = grab(log, "HaplotypeCaller done\\. Elapsed time: ([0-9.]+) minutes");
        Run r = new Run(name, vcf, err, wall, hmm, sw, elapsed, VcfRecords.read(vcf));
        RUNS.put(name, r);
        log(String.format(Locale.ROOT, "run %-16s %-24s wall %6.1f s, GATK elapsed %.2f min, PairHMM %6.2f s,"
            + " Smith-Waterman %5.2f s, %d records%s", name, impl, wall, elapsed, hmm, sw, r.records.size(),
            gatkArgs.isEmpty() && env.isEmpty() ? "" : " (" + String.join(" ", gatkArgs) + (env.isEmpty() ? "" : " " + env) + ")"));
        Files.writeString(work.resolve("timings.tsv"), String.format(Locale.ROOT, "%s\tscale %d\t%s\t%s\t%.2f\t%.3f\t%.2f\t%d\t%.2f%n",
            LocalDateTime.now(), SCALE, name, impl, wall, hmm, elapsed * 60, r.records.size(), sw),
            StandardOpenOption.CREATE, StandardOpenOption.APPEND);
        return r;
    }

    /**
     * Runs HaplotypeCallerSpark once per name in local mode. Java 17 needs Spark's usual
     * --add-opens; GATK's published POM leaves out jackson-module-scala (its version there was
     * never on Maven Central), so the gatk-it profile adds the one that matches its
     * jackson-databind.
     */
    static synchronized Run runSpark(String name, boolean dropin, List<String> jvmProps) throws Exception {
        Run cached = RUNS.get(name);
        if (cached != null) {
            return cached;
        }
        Path vcf = work.resolve(name + ".vcf");
        Path err = work.resolve(name + ".log");
        List<String> opens = new ArrayList<>();
        for (String pkg : List.of("sun.nio.ch", "java.nio", "java.lang", "java.lang.invoke", "java.util",
            "sun.util.calendar")) {
            opens.add("--add-opens=java.base/" + pkg + "=ALL-UNNAMED");
        }
        opens.addAll(jvmProps);
        List<String> cmd = gatkCommand(name, dropin, opens, "HaplotypeCallerSpark");
        cmd.addAll(List.of("--spark-master", "local[" + THREADS + "]"));
        Files.writeString(work.resolve(name + ".cmd"),
            String.join(" ", cmd).replace(gatkClasspath, "<gatk-4.6.2.0 class path>") + "\n");
        long t0 = System.nanoTime();
        exec(cmd, err, 900, Map.of());
        double wall = (System.nanoTime() - t0) * 1e-9;
        Run r = new Run(name, vcf, err, wall, Double.NaN, Double.NaN, Double.NaN, VcfRecords.read(vcf));
        RUNS.put(name, r);
        log(String.format(Locale.ROOT, "run %-20s HaplotypeCallerSpark local[%s] wall %6.1f s, %d records", name,
            THREADS, wall, r.records.size()));
        return r;
    }

    static double grab(String text, String regex) {
        Matcher m = Pattern.compile(regex).matcher(text);
        double v = Double.NaN;
        while (m.find()) {
            v = Double.parseDouble(m.group(1));
        }
        return v;
    }

    static void exec(List<String> cmd, Path log, int timeoutSeconds) throws IOException, InterruptedException {
        exec(cmd, log, timeoutSeconds, Map.of());
    }

    static void exec(List<String> cmd, Path log, int timeoutSeconds, Map<String, String> env)
        throws IOException, InterruptedException {
        Files.writeString(log, "$ " + String.join(" ", cmd).replace(gatkClasspath == null ? "\u0000" : gatkClasspath,
            "<gatk class path>") + "\n", StandardOpenOption.CREATE, StandardOpenOption.APPEND);
        ProcessBuilder pb = new ProcessBuilder(cmd).redirectErrorStream(true)
            .redirectOutput(ProcessBuilder.Redirect.appendTo(log.toFile()));
        pb.environment().keySet().removeIf(k -> k.startsWith("DPACCEL_GATK_"));
        pb.environment().putAll(env);
        Process p = pb.start();
        if (!p.waitFor(timeoutSeconds, TimeUnit.SECONDS)) {
            p.destroyForcibly();
            fail("timed out after " + timeoutSeconds + " s: " + cmd.get(0) + " ... (log " + log + ")");
        }
        if (p.exitValue() != 0) {
            String all = Files.readString(log, StandardCharsets.UTF_8);
            fail("exit " + p.exitValue() + ": " + String.join(" ", cmd.subList(0, Math.min(cmd.size(), 3)))
                + " ... (log " + log + "):\n" + all.substring(Math.max(0, all.length() - 3000)));
        }
    }

    static void log(String s) {
        System.out.println("[gatk-it] " + s);
        REPORT.append(s).append('\n');
        try {
            Files.writeString(work.resolve("report.txt"), s + "\n", StandardOpenOption.CREATE, StandardOpenOption.APPEND);
        } catch (IOException e) {
            // report file is a convenience
        }
    }
}
