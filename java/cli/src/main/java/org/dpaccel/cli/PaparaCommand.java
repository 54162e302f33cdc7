package org.dpaccel.cli;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.concurrent.Callable;

import org.dpaccel.Config;
import org.dpaccel.DpaContext;
import org.dpaccel.papara.GapModel;
import org.dpaccel.papara.Papara;
import org.dpaccel.papara.PaparaParams;
import org.dpaccel.papara.PaparaPlacement;
import org.dpaccel.papara.PaparaReference;
import org.dpaccel.papara.PaparaResults;
import org.dpaccel.papara.ScoreModel;

import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.ParentCommand;

/** {@code dpaccel papara}: PaPaRa 2 scoring of reads against every edge of a reference tree. */
@Command(name = "papara", mixinStandardHelpOptions = true, versionProvider = VersionInfo.class,
    description = {"PaPaRa 2 (papara_core 2.5) placement: one ancestral profile per edge of the tree, every read "
        + "scored against every profile, the best edge's alignment by PaPaRa's traceback. Writes '#read read_len "
        + "best_score best_split n_tied ref_start cigar' per read (the FASTA reads, then the alignment rows outside "
        + "the tree, as PaPaRa scores them) to DIR/best.tsv and PaPaRa's papara_alignment file to "
        + "DIR/alignment.phy with --out DIR, else the table to -o FILE or stdout. A split is the sorted, "
        + "comma-joined taxa of the edge's side without the byte-wise smallest name."})
final class PaparaCommand implements Callable<Integer> {
    /** Reads per native scoring call. */
    static final int CHUNK_READS = 1 << 14;
    /** Traceback operation bytes per native call (sites + read length per read). */
    static final long CHUNK_OPS = 1L << 28;

    static final String LETTERS = "_ACMGRSVTWYHKDB-";

    @ParentCommand
    DpaccelCommand top;

    @Mixin
    CommonOptions common;

    @Option(names = "--tree", paramLabel = "T.nwk", required = true, description = "reference tree (Newick, binary)")
    Path tree;

    @Option(names = "--ref", paramLabel = "R.phy", required = true, description = "reference alignment (relaxed PHYLIP)")
    Path ref;

    @Option(names = "--reads", paramLabel = "Q.fa", required = true, description = "reads (FASTA)")
    Path reads;

    @Option(names = "--out", paramLabel = "DIR",
        description = "write DIR/best.tsv and DIR/alignment.phy (PaPaRa's papara_alignment); created if missing")
    Path outDir;

    @Option(names = "--gap-model", paramLabel = "prob|cgap", defaultValue = "prob",
        description = "gap flags: prob (PaPaRa's default) or cgap (PaPaRa -c)")
    String gapModel;

    @Option(names = "--scoring", paramLabel = "O:E:M:C", defaultValue = "-3:-1:2:-3",
        description = "open:extend:match:match_cgap (PaPaRa -p; default -3:-1:2:-3)")
    String scoring;

    @Option(names = "--score-model", paramLabel = "papara2|paper2012", defaultValue = "papara2",
        description = "papara2 (papara_core 2.5, default) or paper2012 (the 2012 paper's min-plus kernel: lowest "
            + "score best, fixed costs, no traceback: ref_start and cigar are '-' and no alignment.phy)")
    String scoreModel;

    @Option(names = "--scores", paramLabel = "FILE", arity = "0..1", fallbackValue = "",
        description = "also write the read x split score matrix (to FILE, or DIR/scores.tsv with --out)")
    String scoresFile;

    @Option(names = "--profiles", paramLabel = "FILE", arity = "0..1", fallbackValue = "",
        description = "also write '#edge split states cgap' per edge (states one of _ACMGRSVTWYHKDB- per site; "
            + "to FILE, or DIR/profiles.tsv with --out)")
    String profilesFile;

    @Override
    public Integer call() throws IOException {
        Integer child = Devices.restartIfNeeded(common, top);
        if (child != null) {
            return child;
        }
        Config config = common.config();
        common.quietLogs();
        PaparaParams params;
        try {
            params = PaparaParams.parse(scoring);
        } catch (IllegalArgumentException e) {
            throw new ParameterException(common.spec.commandLine(), "--scoring: " + e.getMessage());
        }
        GapModel model = gapModel(common, gapModel);
        ScoreModel sm = scoreModel(common, scoreModel);
        if (outDir != null && common.output != null) {
            throw new ParameterException(common.spec.commandLine(), "--out DIR and -o FILE exclude each other");
        }
        Path scoresPath = sidePath(scoresFile, "--scores", "scores.tsv");
        Path profilesPath = sidePath(profilesFile, "--profiles", "profiles.tsv");
        if (outDir != null) {
            if (Files.exists(outDir) && !Files.isDirectory(outDir)) {
                throw new BadInputException("--out " + outDir + ": exists and is not a directory");
            }
            Files.createDirectories(outDir);
        }
        PaparaInputs.Tree t;
        try (BufferedReader in = Inputs.open(tree)) {
            t = PaparaInputs.parseNewick(PaparaInputs.readAll(in), tree.toString());
        }
        PaparaInputs.Alignment aln;
        try (BufferedReader in = Inputs.open(ref)) {
            aln = PaparaInputs.parsePhylip(in, ref.toString());
        }
        PaparaInputs.Reads q;
        try (BufferedReader in = Inputs.open(reads)) {
            q = PaparaInputs.parseFasta(in, reads.toString());
        }
        PaparaInputs.Reads extra = new PaparaInputs.Reads(new ArrayList<>(), new ArrayList<>());
        int[] row = PaparaInputs.bind(t, aln, extra);
        List<String> names = new ArrayList<>(q.names());
        names.addAll(extra.names());
        List<byte[]> masks = new ArrayList<>(q.masks());
        masks.addAll(extra.masks());
        List<Integer> sorted = new ArrayList<>();
        List<Integer> treeRows = new ArrayList<>();
        for (int v = 0; v < t.name().length; v++) {
            if (t.name()[v] != null) {
                sorted.add(v);
                treeRows.add(row[v]);
            }
        }
        sorted.sort(Comparator.comparing((Integer v) -> t.name()[v]));

        int n = masks.size();
        byte[][] all = masks.toArray(new byte[0][]);
        int[] bestScore = new int[n];
        int[] bestEdge = new int[n];
        int[] tied = new int[n];
        int[][] matrix = scoresPath != null ? new int[n][] : null;
        PaparaPlacement[] placed = new PaparaPlacement[n];
        List<OutputFile> outs = new ArrayList<>();
        try (DpaContext ctx = DpaContext.create(config)) {
            PaparaReference pr = PaparaReference.build(ctx, t.parent(), t.length(), row, aln.rows(), model);
            for (int from = 0; from < n; from += CHUNK_READS) {
                int to = Math.min(n, from + CHUNK_READS);
                byte[][] chunk = java.util.Arrays.copyOfRange(all, from, to);
                PaparaResults r = Papara.score(ctx, pr, chunk, params, matrix != null, common.backend, sm);
                for (int i = from; i < to; i++) {
                    bestScore[i] = r.bestScore(i - from);
                    bestEdge[i] = r.bestEdge(i - from);
                    tied[i] = r.numTied(i - from);
                    if (matrix != null) {
                        matrix[i] = new int[pr.numEdges()];
                        for (int e = 0; e < pr.numEdges(); e++) {
                            matrix[i][e] = r.score(i - from, e);
                        }
                    }
                }
            }
            boolean aligned = sm == ScoreModel.PAPARA2;
            if (aligned) {
                traceback(ctx, pr, all, bestEdge, params, placed);
            }
            for (int i = 0; i < n && aligned; i++) {
                if (placed[i].score() != bestScore[i]) {
                    throw new IllegalStateException("read " + i + ": traceback score " + placed[i].score()
                        + " differs from the kernel's " + bestScore[i]);
                }
            }
            String[] split = new String[pr.numEdges()];
            for (int e = 0; e < split.length; e++) {
                split[e] = PaparaInputs.splitName(t, sorted, pr.edgeNode(e, 0));
            }
            // Every file is written under a temporary name and renamed only once all are complete.
            try {
                if (scoresPath != null) {
                    writeScores(open(outs, scoresPath).stream(), split, names, matrix);
                }
                if (profilesPath != null) {
                    writeProfiles(open(outs, profilesPath).stream(), pr, split);
                }
                if (outDir != null && aligned) {
                    OutputFile a = open(outs, outDir.resolve("alignment.phy"));
                    Papara.writeAlignment(ctx, a.temp(), pr, aln.names(), aln.rows(),
                        treeRows.stream().mapToInt(Integer::intValue).toArray(), names, all, placed);
                }
                OutputFile b = open(outs, outDir != null ? outDir.resolve("best.tsv") : common.output);
                PrintStream ps = b.stream();
                ps.println("#read\tread_len\tbest_score\tbest_split\tn_tied\tref_start\tcigar");
                for (int i = 0; i < n; i++) {
                    ps.println(names.get(i) + "\t" + all[i].length + "\t" + bestScore[i] + "\t"
                        + split[bestEdge[i]] + "\t" + tied[i] + "\t"
                        + (aligned ? placed[i].refStart() + "\t" + placed[i].cigar() : "-\t-"));
                }
                for (OutputFile o : outs) {
                    o.commit();
                }
            } finally {
                for (OutputFile o : outs) {
                    o.close();
                }
            }
        }
        return ExitCodes.OK;
    }

    /** Tracebacks against each read's best edge, in calls of at most CHUNK_OPS operation bytes. */
    static void traceback(DpaContext ctx, PaparaReference pr, byte[][] all, int[] edge, PaparaParams params,
        PaparaPlacement[] out) {
        int from = 0;
        while (from < all.length) {
            long ops = 0;
            int to = from;
            do {
                ops += pr.numSites() + all[to].length;
                to++;
            } while (to < all.length && ops + pr.numSites() + all[to].length <= CHUNK_OPS);
            PaparaPlacement[] p = Papara.traceback(ctx, pr, java.util.Arrays.copyOfRange(edge, from, to),
                java.util.Arrays.copyOfRange(all, from, to), params);
            System.arraycopy(p, 0, out, from, p.length);
            from = to;
        }
    }

    static GapModel gapModel(CommonOptions common, String name) {
        if (name.equals("prob")) {
            return GapModel.PROB;
        }
        if (name.equals("cgap")) {
            return GapModel.CGAP;
        }
        throw new ParameterException(common.spec.commandLine(), "--gap-model must be prob or cgap");
    }

    static ScoreModel scoreModel(CommonOptions common, String name) {
        try {
            return ScoreModel.parse(name);
        } catch (IllegalArgumentException e) {
            throw new ParameterException(common.spec.commandLine(), "--score-model: " + e.getMessage());
        }
    }

    private Path sidePath(String value, String option, String name) {
        if (value == null) {
            return null;
        }
        if (!value.isEmpty()) {
            return Path.of(value);
        }
        if (outDir == null) {
            throw new ParameterException(common.spec.commandLine(), option + " without FILE needs --out DIR");
        }
        return outDir.resolve(name);
    }

    private OutputFile open(List<OutputFile> outs, Path target) throws IOException {
        OutputFile o = OutputFile.open(target, top.out);
        outs.add(o);
        return o;
    }

    static void writeScores(PrintStream ps, String[] split, List<String> names, int[][] matrix) {
        StringBuilder sb = new StringBuilder("read");
        for (String s : split) {
            sb.append('\t').append(s);
        }
        ps.println(sb);
        for (int i = 0; i < names.size(); i++) {
            sb.setLength(0);
            sb.append(names.get(i));
            for (int v : matrix[i]) {
                sb.append('\t').append(v);
            }
            ps.println(sb);
        }
    }

    private static void writeProfiles(PrintStream ps, PaparaReference pr, String[] split) {
        ps.println("#edge\tsplit\tstates\tcgap");
        for (int e = 0; e < pr.numEdges(); e++) {
            StringBuilder st = new StringBuilder();
            StringBuilder cg = new StringBuilder();
            for (int s = 0; s < pr.numSites(); s++) {
                int b = pr.site(e, s);
                st.append(LETTERS.charAt(b & 15));
                cg.append((b & 16) != 0 ? '1' : '0');
            }
            ps.println(e + "\t" + split[e] + "\t" + st + "\t" + cg);
        }
    }
}
