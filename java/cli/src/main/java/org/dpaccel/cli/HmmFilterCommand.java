package org.dpaccel.cli;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;

import org.dpaccel.Config;
import org.dpaccel.DpaContext;
import org.dpaccel.bench.Progress;
import org.dpaccel.hmm.HmmFilter;
import org.dpaccel.hmm.HmmFilterParams;
import org.dpaccel.hmm.HmmFilterResults;
import org.dpaccel.hmm.HmmProfiles;
import org.dpaccel.hmm.HmmSeqBatch;

import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.ParentCommand;

/**
 * {@code dpaccel hmm-filter --hmm MODELS.hmm --seqs SEQS.fa}: hmmsearch's MSV, bias and Viterbi
 * filters for every (model, sequence), one TSV row each, model-major.
 */
@Command(name = "hmm-filter", mixinStandardHelpOptions = true, versionProvider = VersionInfo.class,
    description = {"hmmsearch's (HMMER 3.4) first three pipeline stages for every model of MODELS.hmm against "
        + "every sequence of SEQS.fa: MSV, bias filter, Viterbi filter, bit-identical to hmmsearch. Prints "
        + "'model seq length msv_bits msv_P bias_bits bias_P vit_bits vit_P pass_msv pass_bias pass_vit' per "
        + "(model, sequence), model-major in file order; '-' where hmmsearch does not compute a stage.",
        "MODELS.hmm: HMMER3/f or 3/e text (hmmbuild 3.1-3.4), protein.",
        "SEQS.fa: FASTA protein; a name is the header up to the first space and must be unique; residues "
        + "ACDEFGHIKLMNPQRSTVWY BJZOUX (any case), * and ~; at most 100000 per sequence; empty sequences get "
        + "no scores."})
final class HmmFilterCommand implements Callable<Integer> {
    /** Pairs per native call (sequences per call = this / models, at least 1). */
    static final int CHUNK_PAIRS = 1 << 18;

    static final String HEADER = "model\tseq\tlength\tmsv_bits\tmsv_P\tbias_bits\tbias_P\tvit_bits\tvit_P"
        + "\tpass_msv\tpass_bias\tpass_vit";

    @ParentCommand
    DpaccelCommand top;

    @Mixin
    CommonOptions common;

    @Option(names = "--hmm", paramLabel = "MODELS.hmm", required = true, description = "profile HMMs (HMMER3 text)")
    Path hmm;

    @Option(names = "--seqs", paramLabel = "SEQS.fa", required = true, description = "target sequences (FASTA)")
    Path seqs;

    @Option(names = "--F1", paramLabel = "P", defaultValue = "0.02",
        description = "MSV and bias filter P-value threshold, (0, 1] (hmmsearch --F1; default 0.02)")
    double f1;

    @Option(names = "--F2", paramLabel = "P", defaultValue = "1e-3",
        description = "Viterbi filter P-value threshold, (0, 1] (hmmsearch --F2; default 1e-3)")
    double f2;

    @Option(names = "--nobias", description = "turn off the bias filter (hmmsearch --nobias)")
    boolean nobias;

    @Option(names = "--all-scores", description = "compute every stage for every pair (pass flags unchanged)")
    boolean allScores;

    @Override
    public Integer call() throws IOException {
        Integer child = Devices.restartIfNeeded(common, top);
        if (child != null) {
            return child;
        }
        Config config = common.config(); // option errors before any file is read
        common.quietLogs();
        HmmFilterParams params;
        try {
            params = new HmmFilterParams(f1, f2, !nobias, allScores);
        } catch (IllegalArgumentException e) {
            throw new ParameterException(common.spec.commandLine(), e.getMessage().replace("HMM filter parameter ", "--"));
        }
        if (Files.isDirectory(hmm)) {
            throw new BadInputException(hmm + ": is a directory");
        }
        if (!Files.isRegularFile(hmm)) {
            throw new BadInputException(hmm + ": no such file");
        }
        XdropInputs.Fasta fa;
        try (BufferedReader in = Inputs.open(seqs)) {
            fa = XdropInputs.readFasta(in, seqs.toString(), HmmFilterCommand::residue,
                "is not an amino-acid code (ACDEFGHIKLMNPQRSTVWY, BJZOUX, * or ~)", HmmSeqBatch.MAX_LENGTH, true);
        }
        try (HmmProfiles models = HmmProfiles.load(hmm)) {
            List<HmmFilterResults> chunks = new ArrayList<>();
            List<Integer> starts = new ArrayList<>();
            filter(models, fa, params, config, chunks, starts);
            try (OutputFile o = OutputFile.open(common.output, top.out)) {
                write(o.stream(), models, fa, chunks, starts);
                o.commit();
            }
        }
        return ExitCodes.OK;
    }

    static boolean residue(int c) {
        return "ACDEFGHIKLMNPQRSTVWYBJZOUXacdefghiklmnpqrstvwybjzoux*~".indexOf(c) >= 0;
    }

    private void filter(HmmProfiles models, XdropInputs.Fasta fa, HmmFilterParams params, Config config,
        List<HmmFilterResults> chunks, List<Integer> starts) {
        int n = fa.seqs().size();
        int per = Math.max(1, CHUNK_PAIRS / Math.max(1, models.size()));
        Progress progress = common.progress(top.err);
        try (DpaContext ctx = DpaContext.create(config)) {
            progress.start("hmm-filter " + seqs.getFileName(), n);
            for (int from = 0; from < n; from += per) {
                int to = Math.min(n, from + per);
                HmmSeqBatch.Builder b = HmmSeqBatch.builder();
                for (int i = from; i < to; i++) {
                    b.add(fa.names().get(i), fa.seqs().get(i));
                }
                chunks.add(HmmFilter.compute(ctx, models, b.build(), params, common.backend));
                starts.add(from);
                progress.step(to - from);
            }
        } finally {
            progress.finish();
        }
    }

    private static void write(PrintStream ps, HmmProfiles models, XdropInputs.Fasta fa, List<HmmFilterResults> chunks,
        List<Integer> starts) {
        ps.println(HEADER);
        StringBuilder sb = new StringBuilder();
        for (int m = 0; m < models.size(); m++) {
            for (int c = 0; c < chunks.size(); c++) {
                HmmFilterResults r = chunks.get(c);
                for (int k = 0; k < r.sequences(); k++) {
                    int s = starts.get(c) + k;
                    sb.setLength(0);
                    sb.append(models.name(m)).append('\t').append(fa.names().get(s)).append('\t')
                        .append(fa.seqs().get(s).length);
                    score(sb, r.hasMsv(m, k), r.msvBits(m, k), r.msvPvalue(m, k));
                    score(sb, r.hasBias(m, k), r.biasBits(m, k), r.biasPvalue(m, k));
                    score(sb, r.hasVit(m, k), r.vitBits(m, k), r.vitPvalue(m, k));
                    sb.append('\t').append(r.passMsv(m, k) ? 1 : 0).append('\t').append(r.passBias(m, k) ? 1 : 0)
                        .append('\t').append(r.passVit(m, k) ? 1 : 0);
                    ps.println(sb);
                }
            }
        }
    }

    /* Shortest text that reads back to the same float / double (bit-exact results stay exact). */
    private static void score(StringBuilder sb, boolean has, float bits, double p) {
        if (!has) {
            sb.append("\t-\t-");
            return;
        }
        sb.append('\t').append(Float.isInfinite(bits) ? (bits > 0 ? "inf" : "-inf") : Float.toString(bits));
        sb.append('\t').append(Double.toString(p));
    }
}
