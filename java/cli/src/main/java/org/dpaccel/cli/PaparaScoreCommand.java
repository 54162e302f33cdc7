package org.dpaccel.cli;

import java.io.BufferedReader;
import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;

import org.dpaccel.DpaContext;
import org.dpaccel.papara.Papara;
import org.dpaccel.papara.PaparaParams;
import org.dpaccel.papara.PaparaReference;
import org.dpaccel.papara.PaparaResults;

import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.ParentCommand;

/** {@code dpaccel papara-score}: PaPaRa 2 scores of reads against given profiles (no tree). */
@Command(name = "papara-score", mixinStandardHelpOptions = true, versionProvider = VersionInfo.class,
    description = {"Scores every read against every profile of a profiles.tsv as 'dpaccel papara --profiles' writes "
        + "it, with PaPaRa 2's free-shift DP; writes 'read' + one split per column, one row per read (the format of "
        + "'dpaccel papara --scores')."})
final class PaparaScoreCommand implements Callable<Integer> {
    static final String HEADER = "#edge\tsplit\tstates\tcgap";

    @ParentCommand
    DpaccelCommand top;

    @Mixin
    CommonOptions common;

    @Option(names = "--profiles", paramLabel = "P.tsv", required = true,
        description = "profiles: '#edge split states cgap' then one row per edge (dpaccel papara --profiles)")
    Path profiles;

    @Option(names = "--reads", paramLabel = "Q.fa", required = true, description = "reads (FASTA)")
    Path reads;

    @Option(names = "--out", paramLabel = "S.tsv",
        description = "the score table (replaced only when the command succeeds; default stdout)")
    Path out;

    @Option(names = "--scoring", paramLabel = "O:E:M:C", defaultValue = "-3:-1:2:-3",
        description = "open:extend:match:match_cgap (PaPaRa -p; default -3:-1:2:-3)")
    String scoring;

    @Option(names = "--score-model", paramLabel = "papara2|paper2012", defaultValue = "papara2",
        description = "papara2 (papara_core 2.5, default) or paper2012 (the 2012 paper's min-plus costs)")
    String scoreModel;

    /** The profiles of a profiles.tsv: split names and site bytes. */
    record Profiles(List<String> splits, byte[][] sites) {
    }

    @Override
    public Integer call() throws IOException {
        Integer child = Devices.restartIfNeeded(common, top);
        if (child != null) {
            return child;
        }
        common.quietLogs();
        PaparaParams params;
        try {
            params = PaparaParams.parse(scoring);
        } catch (IllegalArgumentException e) {
            throw new ParameterException(common.spec.commandLine(), "--scoring: " + e.getMessage());
        }
        org.dpaccel.papara.ScoreModel sm = PaparaCommand.scoreModel(common, scoreModel);
        if (out != null && common.output != null) {
            throw new ParameterException(common.spec.commandLine(), "--out and -o name the same output: give one");
        }
        Profiles p;
        try (BufferedReader in = Inputs.open(profiles)) {
            p = parseProfiles(in, profiles.toString());
        }
        PaparaInputs.Reads q;
        try (BufferedReader in = Inputs.open(reads)) {
            q = PaparaInputs.parseFasta(in, reads.toString());
        }
        int n = q.masks().size();
        int[][] matrix = new int[n][];
        try (DpaContext ctx = DpaContext.create(common.config())) {
            PaparaReference ref = PaparaReference.ofSites(p.sites());
            for (int from = 0; from < n; from += PaparaCommand.CHUNK_READS) {
                int to = Math.min(n, from + PaparaCommand.CHUNK_READS);
                byte[][] chunk = q.masks().subList(from, to).toArray(new byte[0][]);
                PaparaResults r = Papara.score(ctx, ref, chunk, params, true, common.backend, sm);
                for (int i = from; i < to; i++) {
                    matrix[i] = new int[ref.numEdges()];
                    for (int e = 0; e < ref.numEdges(); e++) {
                        matrix[i][e] = r.score(i - from, e);
                    }
                }
            }
        }
        try (OutputFile o = OutputFile.open(out != null ? out : common.output, top.out)) {
            PaparaCommand.writeScores(o.stream(), p.splits().toArray(new String[0]), q.names(), matrix);
            o.commit();
        }
        return ExitCodes.OK;
    }

    /**
     * Reads profiles.tsv: the header line, then per edge its index (0, 1, ... in order), its split
     * (non-empty), its states (one of _ACMGRSVTWYHKDB- per site) and its cgap flags (0/1 per site),
     * tab-separated; every row as many sites as the first.
     */
    static Profiles parseProfiles(BufferedReader in, String what) throws IOException {
        String line = in.readLine();
        if (line == null || !line.equals(HEADER)) {
            throw new BadInputException(what + " line 1: expected the header '" + HEADER.replace("\t", "\\t")
                + "'");
        }
        List<String> splits = new ArrayList<>();
        List<byte[]> sites = new ArrayList<>();
        int lineNo = 1;
        while ((line = in.readLine()) != null) {
            lineNo++;
            String at = what + " line " + lineNo + ": ";
            String[] f = line.split("\t", -1);
            if (f.length != 4) {
                throw new BadInputException(at + f.length + " tab-separated fields, expected 4 (edge split states "
                    + "cgap)");
            }
            String edge = Integer.toString(sites.size());
            if (!f[0].equals(edge)) {
                throw new BadInputException(at + "field 'edge' = '" + f[0] + "', expected " + edge
                    + " (edges in order from 0)");
            }
            if (f[1].isEmpty()) {
                throw new BadInputException(at + "field 'split' is empty");
            }
            String st = f[2];
            String cg = f[3];
            if (st.isEmpty()) {
                throw new BadInputException(at + "field 'states' is empty");
            }
            if (!sites.isEmpty() && st.length() != sites.get(0).length) {
                throw new BadInputException(at + "field 'states' has " + st.length() + " sites, line 2 has "
                    + sites.get(0).length);
            }
            if (cg.length() != st.length()) {
                throw new BadInputException(at + "field 'cgap' has " + cg.length() + " flags for " + st.length()
                    + " sites");
            }
            byte[] b = new byte[st.length()];
            for (int i = 0; i < b.length; i++) {
                int s = PaparaCommand.LETTERS.indexOf(st.charAt(i));
                if (s < 0) {
                    throw new BadInputException(at + "field 'states' site " + (i + 1) + ": '" + st.charAt(i)
                        + "' is not one of " + PaparaCommand.LETTERS);
                }
                char c = cg.charAt(i);
                if (c != '0' && c != '1') {
                    throw new BadInputException(at + "field 'cgap' site " + (i + 1) + ": '" + c + "' is not 0 or 1");
                }
                b[i] = (byte) (s | (c == '1' ? 16 : 0));
            }
            splits.add(f[1]);
            sites.add(b);
        }
        if (sites.isEmpty()) {
            throw new BadInputException(what + ": no profiles after the header");
        }
        return new Profiles(splits, sites.toArray(new byte[0][]));
    }
}
