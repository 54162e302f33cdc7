package org.dpaccel.cli;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.Callable;

import org.dpaccel.Config;
import org.dpaccel.DpaContext;
import org.dpaccel.bench.Progress;
import org.dpaccel.xdrop.Xdrop;
import org.dpaccel.xdrop.XdropBatch;
import org.dpaccel.xdrop.XdropParams;
import org.dpaccel.xdrop.XdropResults;

import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.ParentCommand;

/** {@code dpaccel xdrop SEQS.fa SEEDS.tsv}: SeqAn gapped X-drop extension of every seed, in input order. */
@Command(name = "xdrop", mixinStandardHelpOptions = true, versionProvider = VersionInfo.class,
    description = {"Gapped X-drop extension of every seed of SEEDS.tsv with SeqAn 2.x's semantics (extendSeed, "
        + "EXTEND_BOTH, linear gaps); prints 'id score qbeg qend tbeg tend left right' per seed, in input order "
        + "(0-based, half-open; on strand '-' target coordinates are on the target's reverse complement).",
        "SEQS.fa: FASTA; a name is the header up to the first space and must be unique.",
        "SEEDS.tsv: 'id query qpos target tpos len strand' per line (tab-separated; # lines skipped)."})
final class XdropCommand implements Callable<Integer> {
    /** Seeds per native call. */
    static final int CHUNK_SEEDS = 1 << 16;

    @ParentCommand
    DpaccelCommand top;

    @Mixin
    CommonOptions common;

    @Parameters(index = "0", paramLabel = "SEQS.fa", description = "sequences (FASTA)")
    Path fasta;

    @Parameters(index = "1", paramLabel = "SEEDS.tsv", description = "seeds")
    Path seedsFile;

    @Option(names = "--xdrop", paramLabel = "X", required = true, description = "the drop-off X, 0..2^30")
    int xdrop;

    @Option(names = "--match", paramLabel = "N", defaultValue = "1", description = "match score, 1..1000 (default 1)")
    int match;

    @Option(names = "--mismatch", paramLabel = "N", defaultValue = "-1",
        description = "mismatch score, -1000..-1 (default -1)")
    int mismatch;

    @Option(names = "--gap", paramLabel = "N", defaultValue = "-1", description = "linear gap score, -1000..-1 (default -1)")
    int gap;

    @Override
    public Integer call() throws IOException {
        Integer child = Devices.restartIfNeeded(common, top);
        if (child != null) {
            return child;
        }
        Config config = common.config(); // option errors before any file is read
        common.quietLogs();
        XdropParams params;
        try {
            params = new XdropParams(match, mismatch, gap, xdrop);
        } catch (IllegalArgumentException e) {
            throw new ParameterException(common.spec.commandLine(), e.getMessage());
        }
        XdropInputs.Fasta fa;
        try (BufferedReader in = Inputs.open(fasta)) {
            fa = XdropInputs.readFasta(in, fasta.toString());
        }
        List<XdropInputs.Seed> seeds;
        try (BufferedReader in = Inputs.open(seedsFile)) {
            seeds = XdropInputs.readSeeds(in, seedsFile.toString(), fa);
        }
        int[][] res = new int[seeds.size()][];
        extend(fa, seeds, params, config, res);
        try (OutputFile o = OutputFile.open(common.output, top.out)) {
            PrintStream ps = o.stream();
            ps.println("id\tscore\tqbeg\tqend\ttbeg\ttend\tleft\tright");
            StringBuilder sb = new StringBuilder();
            for (int i = 0; i < res.length; i++) {
                sb.setLength(0);
                sb.append(seeds.get(i).id());
                for (int v : res[i]) {
                    sb.append('\t').append(v);
                }
                ps.println(sb);
            }
            o.commit();
        }
        return ExitCodes.OK;
    }

    private void extend(XdropInputs.Fasta fa, List<XdropInputs.Seed> seeds, XdropParams params, Config config,
        int[][] res) {
        Progress progress = common.progress(top.err);
        try (DpaContext ctx = DpaContext.create(config)) {
            progress.start("xdrop " + seedsFile.getFileName(), seeds.size());
            int from = 0;
            while (from < seeds.size()) {
                int to = Math.min(seeds.size(), from + CHUNK_SEEDS);
                // each chunk carries only the sequences its seeds use, each once
                XdropBatch.Builder b = XdropBatch.builder();
                int[] slot = new int[fa.seqs().size()];
                Arrays.fill(slot, -1);
                for (int i = from; i < to; i++) {
                    XdropInputs.Seed s = seeds.get(i);
                    if (slot[s.query()] < 0) {
                        slot[s.query()] = b.addSequence(fa.seqs().get(s.query()));
                    }
                    if (slot[s.target()] < 0) {
                        slot[s.target()] = b.addSequence(fa.seqs().get(s.target()));
                    }
                    b.addSeed(slot[s.query()], s.qpos(), slot[s.target()], s.tpos(), s.len(), s.reverse());
                }
                XdropResults r = Xdrop.compute(ctx, b.build(), params, common.backend);
                for (int i = from; i < to; i++) {
                    int k = i - from;
                    res[i] = new int[] { r.score(k), r.qbeg(k), r.qend(k), r.tbeg(k), r.tend(k), r.left(k),
                        r.right(k) };
                }
                progress.step(to - from);
                from = to;
            }
        } finally {
            progress.finish();
        }
    }
}
