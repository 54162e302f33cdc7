package org.dpaccel.cli;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.Callable;

import org.dpaccel.Config;
import org.dpaccel.DpaContext;
import org.dpaccel.bench.Progress;
import org.dpaccel.bench.data.PairHmmFiles;
import org.dpaccel.bench.data.Region;
import org.dpaccel.bench.engine.DpaApiEngine;
import org.dpaccel.pairhmm.PairHmm;
import org.dpaccel.pairhmm.Precision;

import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.ParentCommand;

/** {@code dpaccel pairhmm FILE}: one log10 likelihood per read x haplotype pair, in file order. */
@Command(name = "pairhmm", mixinStandardHelpOptions = true, versionProvider = VersionInfo.class,
    description = {"PairHMM forward log10 likelihoods (GATK semantics) of every read x haplotype pair of FILE, "
        + "one per line, in the file's order (read-major within a group).",
        "FILE: the 'R H' group format (*.in) or GKL's 7-column test format, detected from the first data line; "
            + "base qualities below 6 are raised to 6, as GATK does."})
final class PairHmmCommand implements Callable<Integer> {
    /** Chunk size: large enough for the GPU cost model, small enough to bound memory. */
    static final long CHUNK_PAIRS = 1 << 16, CHUNK_CELLS = 1L << 30;

    @ParentCommand
    DpaccelCommand top;

    @Mixin
    CommonOptions common;

    @Parameters(index = "0", paramLabel = "FILE", description = "PairHMM input (.in or GKL 7-column)")
    Path input;

    @Override
    public Integer call() throws IOException {
        Integer child = Devices.restartIfNeeded(common, top);
        if (child != null) {
            return child;
        }
        Config config = common.config(); // option errors before any file is read
        common.quietLogs();
        PairHmmFiles.Parsed parsed;
        try (BufferedReader in = Inputs.open(input)) {
            parsed = PairHmmFiles.parse(in, input.toString());
        }
        if (parsed.flooredQuals() > 0 && !common.quiet) {
            top.err.println("dpaccel pairhmm: note: " + parsed.flooredQuals() + " base qualities below "
                + PairHmmFiles.BASE_QUAL_FLOOR + " raised to " + PairHmmFiles.BASE_QUAL_FLOOR + " (as GATK does)");
        }
        List<double[]> results = compute(parsed.regions(), config);
        try (OutputFile o = OutputFile.open(common.output, top.out)) {
            PrintStream ps = o.stream();
            for (double[] chunk : results) {
                for (double v : chunk) {
                    ps.println(format(v));
                }
            }
            o.commit();
        }
        return ExitCodes.OK;
    }

    /**
     * GKL's expected-result column style (scientific notation), with the 17 significant digits that
     * give back the exact double, as test-data/ writes expected values.
     */
    static String format(double log10) {
        return String.format(Locale.ROOT, "%.16e", log10);
    }

    private List<double[]> compute(List<Region> regions, Config config) {
        Precision precision = common.doublePrecision ? Precision.DOUBLE : Precision.FLOAT_THEN_DOUBLE;
        List<double[]> out = new ArrayList<>();
        Progress progress = common.progress(top.err);
        try (DpaContext ctx = DpaContext.create(config)) {
            progress.start("pairhmm " + input.getFileName(), regions.size());
            int from = 0;
            while (from < regions.size()) {
                int to = from;
                long pairs = 0, cells = 0;
                while (to < regions.size() && (to == from || (pairs < CHUNK_PAIRS && cells < CHUNK_CELLS))) {
                    pairs += regions.get(to).pairs();
                    cells += regions.get(to).cells();
                    to++;
                }
                out.add(PairHmm.compute(ctx, DpaApiEngine.pack(regions.subList(from, to)), precision, common.backend));
                progress.step(to - from);
                from = to;
            }
        } finally {
            progress.finish();
        }
        return out;
    }
}
