package org.dpaccel.cli;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.Callable;

import org.dpaccel.Config;
import org.dpaccel.DpaContext;
import org.dpaccel.bench.Progress;
import org.dpaccel.sw.SmithWaterman;
import org.dpaccel.sw.SwBatch;
import org.dpaccel.sw.SwOverhang;
import org.dpaccel.sw.SwParameters;
import org.dpaccel.sw.SwResults;

import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.ParentCommand;

/** {@code dpaccel sw PAIRS.tsv}: GATK Smith-Waterman, {@code offset<TAB>cigar} per pair in input order. */
@Command(name = "sw", mixinStandardHelpOptions = true, versionProvider = VersionInfo.class,
    description = {"Smith-Waterman alignment of every ref/alt pair of PAIRS.tsv with GATK 4.6's semantics; prints "
        + "'offset<TAB>cigar' per pair, in input order (offset: alignment start on ref, 0-based).",
        "PAIRS.tsv: 'ref<TAB>alt' per line; blank lines and lines starting with # are skipped.",
        "--double has no effect here: Smith-Waterman scores are integers."})
final class SwCommand implements Callable<Integer> {
    /** Pairs per native call: large enough for the GPU cost model, small enough to bound memory. */
    static final int CHUNK_PAIRS = 1 << 15;
    /** Bases per native call, far below the Java array limit of a batch's packed sequences. */
    static final long CHUNK_BYTES = 1L << 28;

    @ParentCommand
    DpaccelCommand top;

    @Mixin
    CommonOptions common;

    @Parameters(index = "0", paramLabel = "PAIRS.tsv", description = "ref<TAB>alt pairs")
    Path input;

    @Option(names = {"--params", "--parameters"}, paramLabel = "NAME", defaultValue = "NEW_SW_PARAMETERS",
        converter = SwParameterSets.Converter.class,
        description = "GATK parameter set: NEW_SW_PARAMETERS (200,-150,-260,-11; default), "
            + "ALIGNMENT_TO_BEST_HAPLOTYPE_SW_PARAMETERS (10,-15,-30,-5), STANDARD_NGS (25,-50,-110,-6), "
            + "ORIGINAL_DEFAULT (3,-1,-4,-3)")
    SwParameters parameterSet;

    @Option(names = "--match", paramLabel = "N", description = "overrides the set's match score")
    Integer match;

    @Option(names = "--mismatch", paramLabel = "N", description = "overrides the set's mismatch score (normally negative)")
    Integer mismatch;

    @Option(names = "--gap-open", paramLabel = "N", description = "overrides the set's gap-open score (normally negative)")
    Integer gapOpen;

    @Option(names = "--gap-extend", paramLabel = "N", description = "overrides the set's gap-extend score (normally negative)")
    Integer gapExtend;

    @Option(names = "--strategy", paramLabel = "softclip|indel|leading-indel|ignore", defaultValue = "softclip",
        converter = SwParameterSets.StrategyConverter.class,
        description = "GATK's SWOverhangStrategy: what becomes of alt overhanging ref (default: softclip)")
    SwOverhang strategy;

    @Override
    public Integer call() throws IOException {
        Integer child = Devices.restartIfNeeded(common, top);
        if (child != null) {
            return child;
        }
        Config config = common.config(); // option errors before any file is read
        common.quietLogs();
        SwParameters params = parameters();
        List<PairsTsv.Pair> pairs;
        try (BufferedReader in = Inputs.open(input)) {
            pairs = PairsTsv.read(in, input.toString(), params);
        }
        int[] offsets = new int[pairs.size()];
        String[] cigars = new String[pairs.size()];
        align(pairs, params, config, offsets, cigars);
        try (OutputFile o = OutputFile.open(common.output, top.out)) {
            PrintStream ps = o.stream();
            for (int i = 0; i < cigars.length; i++) {
                ps.print(offsets[i]);
                ps.print('\t');
                ps.println(cigars[i]);
            }
            o.commit();
        }
        return ExitCodes.OK;
    }

    /** The named set with any of --match/--mismatch/--gap-open/--gap-extend applied. */
    SwParameters parameters() {
        SwParameters p = parameterSet;
        try {
            return new SwParameters(match != null ? match : p.match(), mismatch != null ? mismatch : p.mismatch(),
                gapOpen != null ? gapOpen : p.gapOpen(), gapExtend != null ? gapExtend : p.gapExtend());
        } catch (IllegalArgumentException e) {
            throw new ParameterException(common.spec.commandLine(), e.getMessage());
        }
    }

    private void align(List<PairsTsv.Pair> pairs, SwParameters params, Config config, int[] offsets,
        String[] cigars) {
        Progress progress = common.progress(top.err);
        try (DpaContext ctx = DpaContext.create(config)) {
            progress.start("sw " + input.getFileName(), pairs.size());
            int from = 0;
            while (from < pairs.size()) {
                int to = from;
                long bytes = 0;
                SwBatch.Builder b = SwBatch.builder();
                while (to < pairs.size() && to - from < CHUNK_PAIRS && bytes < CHUNK_BYTES) {
                    PairsTsv.Pair p = pairs.get(to++);
                    b.add(p.ref(), p.alt());
                    bytes += p.ref().length + p.alt().length;
                }
                SwResults r = SmithWaterman.align(ctx, b.build(), params, strategy, common.backend);
                for (int i = from; i < to; i++) {
                    offsets[i] = r.alignmentOffset(i - from);
                    cigars[i] = r.cigar(i - from);
                }
                progress.step(to - from);
                from = to;
            }
        } finally {
            progress.finish();
        }
    }
}
