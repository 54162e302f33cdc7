package org.dpaccel.cli;

import java.io.IOException;
import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.Callable;

import org.dpaccel.Config;
import org.dpaccel.DpaContext;
import org.dpaccel.distance.DistanceCounts;
import org.dpaccel.distance.DistanceMetric;
import org.dpaccel.distance.GenotypeBatch;
import org.dpaccel.distance.GenotypeDistance;

import picocli.CommandLine.ArgGroup;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.ParentCommand;

/**
 * {@code dpaccel distance (--bfile PREFIX | --vcf FILE) --out OUT}: all-pairs genotype distance counts and
 * metrics with PLINK's flat-missing semantics (docs/distance.md). Every output file is written
 * under a temporary name and renamed only when all of them are complete.
 */
@Command(name = "distance", mixinStandardHelpOptions = true, versionProvider = VersionInfo.class,
    description = {"All-pairs genotype distance of a PLINK 1 fileset or a VCF (PLINK 1.9 --distance/--genome flat-missing, "
        + "PLINK 2 --make-king counts). Non-autosomal variants are skipped and counted.",
        "Writes OUT.id (FID<TAB>IID per sample), OUT.counts.tsv with --counts (#IID1 IID2 NSNP IBS0 IBS1 IBS2 "
            + "HETHET HET1_HOM2 HET2_HOM1, pairs i<j, i outer) and OUT.<metric>.tsv per --metric (square, "
            + "sample order). Without --counts and --metric, --counts is implied."})
final class DistanceCommand implements Callable<Integer> {
    @ParentCommand
    DpaccelCommand top;

    @Mixin
    CommonOptions common;

    @ArgGroup(exclusive = true, multiplicity = "1")
    Input input;

    static final class Input {
        @Option(names = "--bfile", paramLabel = "PREFIX",
            description = "PLINK 1 binary fileset PREFIX.bed/.bim/.fam (SNP-major .bed)")
        String bfile;

        @Option(names = "--vcf", paramLabel = "FILE",
            description = "VCF, plain or gzip/bgzip (GT only; biallelic records; FID = IID in OUT.id)")
        Path vcf;
    }

    @Option(names = "--out", paramLabel = "OUT", required = true, description = "output prefix")
    String out;

    @Option(names = "--counts", description = "write OUT.counts.tsv")
    boolean counts;

    @Option(names = "--metric", paramLabel = "ibs|1-ibs|allele-ct|king|differ",
        description = "write OUT.<metric>.tsv (repeatable)")
    List<String> metrics = new ArrayList<>();

    @Option(names = "--precision", paramLabel = "roundtrip|plink", defaultValue = "roundtrip",
        description = "metric text: roundtrip = %%.17g (default), plink = %%g (PLINK's bytes)")
    String precision;

    @Option(names = "--tile", paramLabel = "N", defaultValue = "0",
        description = "samples per side of a scheduler task, 8..4096 (default: 64)")
    int tile;

    @Override
    public Integer call() throws IOException {
        Integer child = Devices.restartIfNeeded(common, top);
        if (child != null) {
            return child;
        }
        Config config = common.config(); // option errors before any file is read
        common.quietLogs();
        if (common.output != null) {
            throw new ParameterException(common.spec.commandLine(), "-o does not apply: use --out PREFIX");
        }
        if (!precision.equals("roundtrip") && !precision.equals("plink")) {
            throw new ParameterException(common.spec.commandLine(), "--precision " + precision
                + ": must be roundtrip or plink");
        }
        if (tile != 0 && (tile < 8 || tile > 4096)) {
            throw new ParameterException(common.spec.commandLine(), "--tile " + tile + ": must be 8..4096");
        }
        Set<DistanceMetric> wanted = new LinkedHashSet<>();
        for (String m : metrics) {
            try {
                wanted.add(DistanceMetric.parse(m));
            } catch (IllegalArgumentException e) {
                throw new ParameterException(common.spec.commandLine(), "--metric " + e.getMessage());
            }
        }
        boolean writeCounts = counts || wanted.isEmpty();
        int digits = precision.equals("plink") ? 6 : 17;

        GenotypeBatch batch;
        List<String> fids, iids;
        String source;
        if (input.bfile != null) {
            BedFileset f = BedFileset.read(input.bfile);
            batch = f.batch;
            fids = f.fids;
            iids = f.iids;
            source = input.bfile + ".fam";
        } else {
            VcfGenotypes v = VcfGenotypes.read(input.vcf);
            batch = v.batch;
            fids = v.iids;
            iids = v.iids;
            source = input.vcf.toString();
        }
        int n = iids.size();
        long pairs = (long) n * (n - 1) / 2;
        if (!wanted.isEmpty() && (long) n * n > Integer.MAX_VALUE) {
            throw new BadInputException(source + ": " + n + " samples; square matrices are limited to 46340");
        }
        DistanceCounts c;
        try (DpaContext ctx = DpaContext.create(config)) {
            c = GenotypeDistance.counts(ctx, batch, null, common.backend, tile);
        }
        if (!common.quiet) {
            top.err.println("distance: " + n + " samples, " + c.variantsUsed() + " variants used, "
                + c.variantsSkipped() + " non-autosomal skipped, " + pairs + " pairs (" + c.isa() + ")");
        }
        List<OutputFile> files = new ArrayList<>();
        try {
            OutputFile id = open(files, out + ".id");
            for (int k = 0; k < n; k++) {
                id.stream().print(fids.get(k) + "\t" + iids.get(k) + "\n");
            }
            if (writeCounts) {
                writeCounts(open(files, out + ".counts.tsv").stream(), iids, c, n);
            }
            for (DistanceMetric m : wanted) {
                writeSquare(open(files, out + "." + m.label() + ".tsv").stream(), m, c, n, digits);
            }
            for (OutputFile o : files) {
                o.commit();
            }
        } finally {
            for (OutputFile o : files) {
                o.close();
            }
        }
        return ExitCodes.OK;
    }

    private static OutputFile open(List<OutputFile> files, String name) throws IOException {
        Path p = Path.of(name);
        if (p.toAbsolutePath().getParent() != null && !Files.isDirectory(p.toAbsolutePath().getParent())) {
            throw new BadInputException("--out " + name + ": directory " + p.toAbsolutePath().getParent()
                + " does not exist");
        }
        OutputFile o = OutputFile.open(p, null);
        files.add(o);
        return o;
    }

    private static void writeCounts(PrintStream ps, List<String> iids, DistanceCounts c, int n) {
        AsciiLines w = new AsciiLines(ps).numbersUpTo(c.variantsUsed());
        w.ascii("#IID1\tIID2\tNSNP\tIBS0\tIBS1\tIBS2\tHETHET\tHET1_HOM2\tHET2_HOM1\n");
        byte[][] names = new byte[n][];
        for (int k = 0; k < n; k++) {
            names[k] = AsciiLines.encode(iids.get(k));
        }
        long pair = 0;
        for (int i = 0; i < n; i++) {
            for (int j = i + 1; j < n; j++, pair++) {
                w.bytes(names[i]).ch('\t').bytes(names[j]);
                for (int k = 0; k < DistanceCounts.FIELDS; k++) {
                    w.ch('\t').num(c.get(pair, k));
                }
                w.ch('\n');
            }
        }
        w.flush();
    }

    /** Text kept for the mirrored half of a square matrix, at most this many bytes. */
    static final long MIRROR_BUDGET = 256L << 20;

    /**
     * A square matrix row by row. Every metric is symmetric, so when the upper triangle's text
     * fits in {@link #MIRROR_BUDGET} (about 4,300 samples at 17 digits) each value is formatted
     * once, for row i's part right of the diagonal, and its bytes are copied where row j needs
     * them left of it: the digits, not the copy, are what the matrix costs.
     */
    private static void writeSquare(PrintStream ps, DistanceMetric m, DistanceCounts c, int n, int digits) {
        writeSquare(ps, m, c, n, digits, Math.min(MIRROR_BUDGET, Runtime.getRuntime().maxMemory() / 4));
    }

    /** {@code budget}: bytes the mirrored text may take (0: format every value twice). */
    static void writeSquare(PrintStream ps, DistanceMetric m, DistanceCounts c, int n, int digits, long budget) {
        AsciiLines w = new AsciiLines(ps);
        byte[] diagonal = AsciiLines.encode(CFormat.g(m.diagonal(), digits));
        long pairs = (long) n * (n - 1) / 2;
        long perValue = (digits + 8) + Integer.BYTES; // sign, point, exponent, tab + its end offset
        boolean mirror = pairs * perValue <= budget && budget > 0;
        long used = c.variantsUsed();
        byte[][] text = mirror ? new byte[n][] : null; // row i: "\tv(i,i+1)\tv(i,i+2)..."
        int[][] ends = mirror ? new int[n][] : null;   // end of each of those values
        byte[] scratch = mirror ? new byte[n * (CFormat.MAX_CHARS + 1)] : null;
        for (int i = 0; i < n; i++) {
            for (int j = 0; j < i; j++) {
                if (mirror) {
                    int k = i - j - 1; // (j, i) is value i - j - 1 of row j
                    int start = (k == 0 ? 0 : ends[j][k - 1]) + 1; // past the tab
                    w.bytes(text[j], start, ends[j][k] - start).ch('\t');
                    if (k == n - j - 2) {
                        text[j] = null; // its last value: row n - 1 took it
                        ends[j] = null;
                    }
                } else {
                    w.g(m.value(c, DistanceCounts.triangleIndex(n, j, i), used), digits).ch('\t');
                }
            }
            w.bytes(diagonal);
            long pair = i + 1 < n ? DistanceCounts.triangleIndex(n, i, i + 1) : 0;
            if (mirror) {
                int[] e = new int[n - i - 1];
                int len = 0;
                for (int j = i + 1; j < n; j++, pair++) {
                    scratch[len++] = '\t';
                    len = CFormat.put(m.value(c, pair, used), digits, scratch, len);
                    e[j - i - 1] = len;
                }
                w.bytes(scratch, 0, len);
                text[i] = Arrays.copyOf(scratch, len);
                ends[i] = e;
            } else {
                for (int j = i + 1; j < n; j++, pair++) {
                    w.ch('\t').g(m.value(c, pair, used), digits);
                }
            }
            w.ch('\n');
        }
        w.flush();
    }
}
