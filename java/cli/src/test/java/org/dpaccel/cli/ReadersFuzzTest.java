package org.dpaccel.cli;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.StringReader;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;

import org.dpaccel.bench.data.InputFormatException;
import org.dpaccel.bench.data.PairHmmFiles;
import org.dpaccel.sw.SwParameters;

import com.code_intelligence.jazzer.junit.FuzzTest;

/**
 * Jazzer targets for every reader of an outside file format on the Java side (the C readers
 * have libFuzzer targets in native/fuzz). Property: a reader returns or rejects the input
 * with the error a user gets (BadInputException or InputFormatException, each naming the
 * input), nothing else: no NullPointerException, index or number-format exception, no
 * OutOfMemoryError from a size field.
 *
 * <p>Under plain {@code mvn test} Jazzer runs each target once per seed in
 * {@code src/test/resources/org/dpaccel/cli/ReadersFuzzTestInputs/<target>/} (a regression
 * test); {@code JAZZER_FUZZ=1 mvn -pl java/cli test -Dtest=ReadersFuzzTest#<target>} fuzzes one
 * target for its maxDuration (.ci/run step 4 does so for each).
 */
class ReadersFuzzTest {
    private static final String SRC = "<fuzz>";

    /** Splits the input at the first NUL bytes into n parts (missing parts are empty). */
    private static String[] parts(byte[] data, int n) {
        String[] out = new String[n];
        Arrays.fill(out, "");
        int start = 0;
        for (int k = 0; k < n; k++) {
            int end = k == n - 1 ? data.length : indexOf(data, start);
            out[k] = new String(data, start, Math.max(0, end - start), StandardCharsets.ISO_8859_1);
            start = Math.min(data.length, end + 1);
        }
        return out;
    }

    private static int indexOf(byte[] data, int from) {
        for (int i = from; i < data.length; i++) {
            if (data[i] == 0) {
                return i;
            }
        }
        return data.length;
    }

    private static BufferedReader reader(String s) {
        return new BufferedReader(new StringReader(s));
    }

    private static byte[] latin1(String s) {
        return s.getBytes(StandardCharsets.ISO_8859_1);
    }

    /** Runs a reader; the two user-facing errors are the only exceptions allowed out. */
    private interface Reader {
        void run() throws IOException;
    }

    private static void expectCleanOutcome(Reader r) {
        try {
            r.run();
        } catch (BadInputException | InputFormatException e) {
            if (e.getMessage() == null || e.getMessage().isBlank()) {
                throw new AssertionError("an input error without a message", e);
            }
        } catch (IOException e) {
            throw new UncheckedIOException("a reader failed on an I/O error of in-memory input", e);
        }
    }

    @FuzzTest(maxDuration = "10s")
    void pdhmmInputs(byte[] data) {
        boolean expected = data.length > 0 && (data[0] & 1) == 1;
        String text = new String(data, StandardCharsets.ISO_8859_1);
        expectCleanOutcome(() -> PdhmmInputs.read(reader(text), SRC, expected));
    }

    @FuzzTest(maxDuration = "10s")
    void xdropInputs(byte[] data) {
        String[] p = parts(data, 2);
        expectCleanOutcome(() -> {
            XdropInputs.Fasta fa = XdropInputs.readFasta(reader(p[0]), SRC);
            XdropInputs.readSeeds(reader(p[1]), SRC, fa);
        });
    }

    @FuzzTest(maxDuration = "10s")
    void swPairs(byte[] data) {
        String text = new String(data, StandardCharsets.ISO_8859_1);
        expectCleanOutcome(() -> PairsTsv.read(reader(text), SRC, SwParameters.READ_TO_HAPLOTYPE));
    }

    @FuzzTest(maxDuration = "10s")
    void paparaInputs(byte[] data) {
        String[] p = parts(data, 3);
        expectCleanOutcome(() -> {
            PaparaInputs.Tree tree = PaparaInputs.parseNewick(p[0], SRC);
            PaparaInputs.Alignment aln = PaparaInputs.parsePhylip(reader(p[1]), SRC);
            PaparaInputs.Reads reads = PaparaInputs.parseFasta(reader(p[2]), SRC);
            PaparaInputs.bind(tree, aln, reads);
        });
    }

    @FuzzTest(maxDuration = "10s")
    void pairHmmFiles(byte[] data) {
        String text = new String(data, StandardCharsets.ISO_8859_1);
        expectCleanOutcome(() -> PairHmmFiles.parse(reader(text), SRC));
    }

    @FuzzTest(maxDuration = "10s")
    void vcf(byte[] data) throws IOException {
        Path dir = Files.createTempDirectory("dpaccel-fuzz-vcf");
        Path f = dir.resolve("in.vcf");
        try {
            Files.write(f, data);
            expectCleanOutcome(() -> VcfGenotypes.read(f));
        } finally {
            Files.deleteIfExists(f);
            Files.deleteIfExists(dir);
        }
    }

    /**
     * The GATK drop-in's trace reader (dpaccel bench trace). The input is gzipped here so that the
     * fuzzer works on the format inside the compression; an odd first byte puts a valid header
     * before the rest (version 2 when bit 1 is set, else 1), so the records are reached without
     * guessing the magic.
     */
    @FuzzTest(maxDuration = "10s")
    void gatkTrace(byte[] data) throws IOException {
        java.io.ByteArrayOutputStream raw = new java.io.ByteArrayOutputStream();
        try (java.io.DataOutputStream d = new java.io.DataOutputStream(new java.util.zip.GZIPOutputStream(raw))) {
            if (data.length > 0 && (data[0] & 1) == 1) {
                d.writeBytes("DPATRACE");
                d.writeInt((data[0] & 2) != 0 ? 2 : 1);
                d.write(data, 1, data.length - 1);
            } else {
                d.write(data);
            }
        }
        try (org.dpaccel.gatk.trace.TraceReader r = new org.dpaccel.gatk.trace.TraceReader(SRC,
            new java.io.ByteArrayInputStream(raw.toByteArray()))) {
            while (r.next() != null) {
                continue;
            }
        } catch (org.dpaccel.gatk.trace.TraceFormatException e) {
            if (e.getMessage() == null || !e.getMessage().startsWith(SRC)) {
                throw new AssertionError("a trace error that does not name its source", e);
            }
        }
    }

    @FuzzTest(maxDuration = "10s")
    void bedFileset(byte[] data) throws IOException {
        String[] p = parts(data, 3);
        Path dir = Files.createTempDirectory("dpaccel-fuzz-bed");
        String prefix = dir.resolve("c").toString();
        Path[] files = {Path.of(prefix + ".fam"), Path.of(prefix + ".bim"), Path.of(prefix + ".bed")};
        try {
            Files.write(files[0], latin1(p[0]));
            Files.write(files[1], latin1(p[1]));
            Files.write(files[2], latin1(p[2]));
            expectCleanOutcome(() -> BedFileset.read(prefix));
        } finally {
            for (Path x : files) {
                Files.deleteIfExists(x);
            }
            Files.deleteIfExists(dir);
        }
    }

    @FuzzTest(maxDuration = "10s")
    void paparaProfiles(byte[] data) {
        String text = new String(data, StandardCharsets.ISO_8859_1);
        expectCleanOutcome(() -> PaparaScoreCommand.parseProfiles(reader(text), SRC));
    }
}
