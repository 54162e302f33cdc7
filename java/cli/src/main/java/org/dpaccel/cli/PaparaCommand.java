package org.dpaccel.cli;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.PrintStream;
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
import org.dpaccel.papara.PaparaReference;
import org.dpaccel.papara.PaparaResults;

import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.ParentCommand;

/** {@code dpaccel papara}: PaPaRa 2 scoring of reads against every edge of a reference tree. */
@Command(name = "papara", mixinStandardHelpOptions = true, versionProvider = VersionInfo.class,
    description = {"PaPaRa 2 (papara_core 2.5) placement scoring: one ancestral profile per edge of the tree, every "
        + "read scored against every profile; prints '#read read_len best_score best_split n_tied' per read (the "
        + "FASTA reads, then the alignment rows outside the tree, as PaPaRa scores them). A split is the sorted, "
        + "comma-joined taxa of the edge's side without the byte-wise smallest name."})
final class PaparaCommand implements Callable<Integer> {
    /** Reads per native call. */
    static final int CHUNK_READS = 1 << 14;

    private static final String LETTERS = "_ACMGRSVTWYHKDB-";

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

    @Option(names = "--gap-model", paramLabel = "prob|cgap", defaultValue = "prob",
        description = "gap flags: prob (PaPaRa's default) or cgap (PaPaRa -c)")
    String gapModel;

    @Option(names = "--scoring", paramLabel = "O:E:M:C", defaultValue = "-3:-1:2:-3",
        description = "open:extend:match:match_cgap (PaPaRa -p; default -3:-1:2:-3)")
    String scoring;

    @Option(names = "--scores", paramLabel = "FILE", description = "also write the read x split score matrix")
    Path scoresFile;

    @Option(names = "--profiles", paramLabel = "FILE",
        description = "also write '#edge split states cgap' per edge (states one of _ACMGRSVTWYHKDB- per site)")
    Path profilesFile;

    @Override
    public Integer call() throws IOException {
        Integer child = Devices.restartIfNeeded(common, top);
        if (child != null) {
            return child;
        }
        Config config = common.config();
        common.quietLogs();
        PaparaParams params;
        GapModel model;
        try {
            params = PaparaParams.parse(scoring);
        } catch (IllegalArgumentException e) {
            throw new ParameterException(common.spec.commandLine(), "--scoring: " + e.getMessage());
        }
        if (gapModel.equals("prob")) {
            model = GapModel.PROB;
        } else if (gapModel.equals("cgap")) {
            model = GapModel.CGAP;
        } else {
            throw new ParameterException(common.spec.commandLine(), "--gap-model must be prob or cgap");
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
        for (int v = 0; v < t.name().length; v++) {
            if (t.name()[v] != null) {
                sorted.add(v);
            }
        }
        sorted.sort(Comparator.comparing((Integer v) -> t.name()[v]));

        int n = masks.size();
        int[] bestScore = new int[n];
        int[] bestEdge = new int[n];
        int[] tied = new int[n];
        int[][] matrix = scoresFile != null ? new int[n][] : null;
        PaparaReference pr;
        try (DpaContext ctx = DpaContext.create(config)) {
            pr = PaparaReference.build(ctx, t.parent(), t.length(), row, aln.rows(), model);
            for (int from = 0; from < n; from += CHUNK_READS) {
                int to = Math.min(n, from + CHUNK_READS);
                byte[][] chunk = masks.subList(from, to).toArray(new byte[0][]);
                PaparaResults r = Papara.score(ctx, pr, chunk, params, matrix != null, common.backend);
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
        }
        String[] split = new String[pr.numEdges()];
        for (int e = 0; e < split.length; e++) {
            split[e] = PaparaInputs.splitName(t, sorted, pr.edgeNode(e, 0));
        }
        if (scoresFile != null) {
            try (OutputFile o = OutputFile.open(scoresFile, top.out)) {
                PrintStream ps = o.stream();
                StringBuilder sb = new StringBuilder("read");
                for (String s : split) {
                    sb.append('\t').append(s);
                }
                ps.println(sb);
                for (int i = 0; i < n; i++) {
                    sb.setLength(0);
                    sb.append(names.get(i));
                    for (int v : matrix[i]) {
                        sb.append('\t').append(v);
                    }
                    ps.println(sb);
                }
                o.commit();
            }
        }
        if (profilesFile != null) {
            try (OutputFile o = OutputFile.open(profilesFile, top.out)) {
                PrintStream ps = o.stream();
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
                o.commit();
            }
        }
        try (OutputFile o = OutputFile.open(common.output, top.out)) {
            PrintStream ps = o.stream();
            ps.println("#read\tread_len\tbest_score\tbest_split\tn_tied");
            for (int i = 0; i < n; i++) {
                ps.println(names.get(i) + "\t" + masks.get(i).length + "\t" + bestScore[i] + "\t" + split[bestEdge[i]]
                    + "\t" + tied[i]);
            }
            o.commit();
        }
        return ExitCodes.OK;
    }
}
