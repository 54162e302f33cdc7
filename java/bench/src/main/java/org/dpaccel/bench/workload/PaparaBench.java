package org.dpaccel.bench.workload;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Objects;
import java.util.SplittableRandom;

import org.dpaccel.Backend;
import org.dpaccel.Config;
import org.dpaccel.DpaContext;
import org.dpaccel.papara.GapModel;
import org.dpaccel.papara.Papara;
import org.dpaccel.papara.PaparaParams;
import org.dpaccel.papara.PaparaReference;
import org.dpaccel.papara.PaparaResults;
import org.dpaccel.papara.ScoreModel;

/**
 * {@code dpaccel bench papara}: PaPaRa 2 read scoring against every edge profile of a reference
 * tree (docs/papara.md). A random unrooted binary tree of {@code taxa} tips (exponential branch
 * lengths, mean 0.1); an alignment of {@code columns} columns evolved down it (substitutions
 * with probability 1 - e^-t per branch, 2% deletions inherited by the subtree, one column in
 * seven an insertion present only below a random node, a few N, {@code ?} and lower-case
 * characters); {@code size} reads of 100-150 bases cut from the ungapped tip sequences with 1% of
 * bases redrawn at random, 0.6% 1-base indels, 0.5% N (dropped, as PaPaRa's read filter drops them) and
 * 0.3% IUPAC codes. The profiles are built once, before timing, on a scalar-only context; the
 * timed call is the scoring ({@code Papara.score}), which is what differs between backends.
 * Work = cells (profiles x sites x read bases). The comparison is exact: every read's best score,
 * best edge and tie count, the cell count and, unless disabled, the whole read x edge matrix.
 */
public final class PaparaBench implements WorkloadBench<PaparaBench.Input, PaparaBench.Scored> {
    /** The profiles, the reads as state masks, and the shape. */
    public record Input(PaparaReference ref, byte[][] reads, PaparaParams params, boolean wantScores, int taxa,
        int columns, long readBases) {
    }

    /** One scoring call's results and the edge count (the matrix's row length). */
    public record Scored(PaparaResults results, int edges) {
    }

    private static final byte[] ACGT = { 'A', 'C', 'G', 'T' };
    private static final byte[] IUPAC = { 'M', 'R', 'W', 'S', 'Y', 'K', 'V', 'H', 'D', 'B' };

    private final int taxa;
    private final int columns;
    private final PaparaParams params;
    private final GapModel model;
    private final ScoreModel scoreModel;
    private final boolean wantScores;

    /**
     * @param taxa tips of the tree, at least 3
     * @param columns alignment columns, at least 1
     * @param params the scoring
     * @param model the gap model of the profiles
     * @param scoreModel the recurrence (papara2, or the 2012 paper's min-plus model)
     * @param wantScores also return and compare the whole read x edge matrix
     */
    public PaparaBench(int taxa, int columns, PaparaParams params, GapModel model, ScoreModel scoreModel,
        boolean wantScores) {
        if (taxa < 3) {
            throw new IllegalArgumentException("--taxa " + taxa + ": must be at least 3");
        }
        if (columns < 1) {
            throw new IllegalArgumentException("--columns " + columns + ": must be at least 1");
        }
        this.taxa = taxa;
        this.columns = columns;
        this.params = Objects.requireNonNull(params, "params");
        this.model = Objects.requireNonNull(model, "model");
        this.scoreModel = Objects.requireNonNull(scoreModel, "scoreModel");
        this.wantScores = wantScores;
    }

    @Override
    public String name() {
        return "papara";
    }

    @Override
    public String workUnit() {
        return "cells";
    }

    @Override
    public String rateUnit() {
        return "GCUPS";
    }

    @Override
    public String itemUnit() {
        return "reads";
    }

    /** A tree as the API takes it: parent and branch length per node, tip number per node (-1 inner). */
    private record Tree(int[] parent, double[] length, int[] tip) {
    }

    /** Random splits of the tips below three children of the root (an unrooted binary tree). */
    private static Tree tree(SplittableRandom rng, int taxa) {
        int nodes = 2 * taxa - 2;
        int[] parent = new int[nodes], tip = new int[nodes];
        double[] length = new double[nodes];
        Arrays.fill(tip, -1);
        parent[0] = -1;
        int[] order = new int[taxa];
        for (int i = 0; i < taxa; i++) {
            order[i] = i;
        }
        for (int i = taxa - 1; i > 0; i--) { // shuffle, so tip numbers are not in tree order
            int j = rng.nextInt(i + 1);
            int t = order[i];
            order[i] = order[j];
            order[j] = t;
        }
        int[] next = { 1 };
        int c1 = 1 + rng.nextInt(taxa - 2);
        int c2 = c1 + 1 + rng.nextInt(taxa - c1 - 1);
        grow(rng, 0, order, 0, c1, parent, length, tip, next);
        grow(rng, 0, order, c1, c2, parent, length, tip, next);
        grow(rng, 0, order, c2, taxa, parent, length, tip, next);
        return new Tree(parent, length, tip);
    }

    /** Adds the subtree of tips order[lo, hi) below node {@code up}. */
    private static void grow(SplittableRandom rng, int up, int[] order, int lo, int hi, int[] parent, double[] length,
        int[] tip, int[] next) {
        int v = next[0]++;
        parent[v] = up;
        length[v] = -0.1 * Math.log(1 - rng.nextDouble());
        if (hi - lo == 1) {
            tip[v] = order[lo];
            return;
        }
        int cut = lo + 1 + rng.nextInt(hi - lo - 1);
        grow(rng, v, order, lo, cut, parent, length, tip, next);
        grow(rng, v, order, cut, hi, parent, length, tip, next);
    }

    /** Rows of the tips (row r = tip r), evolved column by column. */
    private static byte[][] alignment(SplittableRandom rng, Tree t, int taxa, int columns) {
        int nodes = t.parent().length;
        byte[][] rows = new byte[taxa][columns];
        byte[] state = new byte[nodes];
        for (int c = 0; c < columns; c++) {
            // parents precede children (grow numbers nodes top-down), so one pass suffices
            int start = rng.nextInt(7) == 0 ? 1 + rng.nextInt(nodes - 1) : 0;
            for (int v = 0; v < nodes; v++) {
                if (v == start) {
                    state[v] = ACGT[rng.nextInt(4)];
                } else if (v == 0 || state[t.parent()[v]] == '-') { // outside the insertion's subtree too
                    state[v] = '-';
                } else {
                    byte s = state[t.parent()[v]];
                    if (rng.nextDouble() < 1 - Math.exp(-t.length()[v])) {
                        s = ACGT[rng.nextInt(4)];
                    }
                    state[v] = rng.nextInt(50) == 0 ? (byte) '-' : s;
                }
                if (t.tip()[v] >= 0) {
                    byte s = state[v];
                    int roll = rng.nextInt(1000);
                    if (s != '-' && roll < 5) {
                        s = roll < 3 ? (byte) 'N' : (byte) '?';
                    } else if (s != '-' && roll < 20) {
                        s = (byte) (s - 'A' + 'a');
                    }
                    rows[t.tip()[v]][c] = s;
                }
            }
        }
        return rows;
    }

    /** A read as PaPaRa's filter leaves it: state masks of a noisy window of a tip's bases. */
    private static byte[] read(SplittableRandom rng, byte[][] rows) {
        byte[] row = rows[rng.nextInt(rows.length)];
        byte[] seq = new byte[row.length];
        int n = 0;
        for (byte c : row) {
            if (c != '-' && c != 'N' && c != '?') {
                seq[n++] = (byte) Character.toUpperCase(c);
            }
        }
        if (n == 0) {
            seq[n++] = 'A';
        }
        int len = Math.min(n, 100 + rng.nextInt(51));
        int at = rng.nextInt(n - len + 1);
        byte[] out = new byte[2 * len + 1];
        int m = 0;
        for (int j = at; j < at + len; j++) {
            int roll = rng.nextInt(1000);
            byte b = seq[j];
            if (roll < 10) {
                b = ACGT[rng.nextInt(4)];
            } else if (roll < 13) {
                continue; // deletion
            } else if (roll < 16) {
                out[m++] = ACGT[rng.nextInt(4)]; // insertion before the base
            } else if (roll < 21) {
                b = 'N';
            } else if (roll < 24) {
                b = IUPAC[rng.nextInt(IUPAC.length)];
            }
            out[m++] = b;
        }
        byte[] masks = new byte[m];
        int k = 0;
        for (int i = 0; i < m; i++) {
            int mask = Papara.readMask(out[i]);
            if (mask > 0) {
                masks[k++] = (byte) mask;
            }
        }
        if (k == 0) {
            masks[k++] = 1;
        }
        return Arrays.copyOf(masks, k);
    }

    @Override
    public Input generate(long seed, int size) {
        SplittableRandom rng = new SplittableRandom(seed);
        Tree t = tree(rng, taxa);
        byte[][] rows = alignment(rng, t, taxa, columns);
        List<byte[]> reads = new ArrayList<>();
        long bases = 0;
        for (int r = 0; r < size; r++) {
            byte[] m = read(rng, rows);
            reads.add(m);
            bases += m.length;
        }
        // the profiles are input, not the timed work: built once, by the scalar code
        PaparaReference ref;
        try (DpaContext ctx = DpaContext.create(Config.builder().backend(Backend.CPU).cpuDisable("avx512,avx2")
            .gpuDisable(true).build())) {
            ref = PaparaReference.build(ctx, t.parent(), t.length(), t.tip(), rows, model);
        }
        return new Input(ref, reads.toArray(new byte[0][]), params, wantScores, taxa, columns, bases);
    }

    @Override
    public String describe(Input in) {
        return in.reads().length + " reads (" + in.readBases() + " bases) x " + in.ref().numEdges()
            + " edge profiles of "
            + in.ref().numSites() + " sites (" + in.taxa() + " taxa, " + in.columns() + " columns), gap model "
            + model.name().toLowerCase(java.util.Locale.ROOT)
            + (scoreModel == ScoreModel.PAPER2012 ? ", score model paper2012 (fixed costs)"
                : ", scoring " + params.gapOpen() + ":" + params.gapExtend() + ":" + params.match() + ":"
                    + params.matchCgap())
            + (in.wantScores() ? ", whole score matrix compared" : ", best scores compared");
    }

    @Override
    public Scored run(DpaContext ctx, Backend backend, Input in) {
        return new Scored(Papara.score(ctx, in.ref(), in.reads(), in.params(), in.wantScores(), backend, scoreModel),
            in.ref().numEdges());
    }

    @Override
    public long work(Input in, Scored scalar) {
        return scalar.results().cells();
    }

    @Override
    public long items(Input in) {
        return in.reads().length;
    }

    @Override
    public String firstDifference(Scored scalar, Scored result) {
        PaparaResults want = scalar.results(), got = result.results();
        if (want.size() != got.size()) {
            return got.size() + " results, scalar " + want.size();
        }
        if (want.hasScores() != got.hasScores()) {
            return "score matrix " + (got.hasScores() ? "present" : "absent") + ", scalar's "
                + (want.hasScores() ? "present" : "absent");
        }
        String first = null;
        long bad = 0;
        for (int i = 0; i < want.size(); i++) {
            int[] w = { want.bestScore(i), want.bestEdge(i), want.numTied(i) };
            int[] g = { got.bestScore(i), got.bestEdge(i), got.numTied(i) };
            String d = Arrays.equals(w, g) ? null : "read " + i + ": " + Arrays.toString(g) + ", scalar "
                + Arrays.toString(w) + " (best score, edge, tied)";
            if (d == null && want.hasScores()) {
                int edges = scalar.edges();
                for (int e = 0; e < edges && d == null; e++) {
                    if (want.score(i, e) != got.score(i, e)) {
                        d = "read " + i + " edge " + e + ": score " + got.score(i, e) + ", scalar " + want.score(i, e);
                    }
                }
            }
            if (d != null) {
                first = first == null ? d : first;
                bad++;
            }
        }
        if (first == null && got.cells() != want.cells()) {
            return "cells " + got.cells() + ", scalar " + want.cells();
        }
        return first == null ? null : first + "; " + bad + " reads differ";
    }
}
