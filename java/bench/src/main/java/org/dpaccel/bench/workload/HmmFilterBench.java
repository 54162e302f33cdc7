package org.dpaccel.bench.workload;

import java.nio.charset.StandardCharsets;
import java.util.Locale;
import java.util.SplittableRandom;

import org.dpaccel.Backend;
import org.dpaccel.DpaContext;
import org.dpaccel.hmm.HmmFilter;
import org.dpaccel.hmm.HmmFilterParams;
import org.dpaccel.hmm.HmmFilterResults;
import org.dpaccel.hmm.HmmProfiles;
import org.dpaccel.hmm.HmmSeqBatch;

/**
 * {@code dpaccel bench hmm-filter}: hmmsearch's MSV, bias and Viterbi filters (docs/hmm-filter.md)
 * on generated data. Models are written here as HMMER3/f text: M from 50 to 600 (or one fixed M,
 * {@code --model-length}: "one model against many residues" is {@code --models 1 --model-length
 * 400} with a large {@code --size}, the shape of the GPU goal), each node
 * preferring one residue (probability 0.4-0.8), background insert emissions, HMMER-like
 * transitions, and fixed STATS (MSV / Viterbi mu -10 / -10.5, lambda ln 2; not calibrated, so
 * P-values are those of the given statistics, not of hmmbuild's). Targets (the size unit):
 * background proteins of 100-1,000 residues (HMMER's amino background), one in four carrying a
 * domain sampled from a model's match states with 20% substitutions, so every filter stage has
 * work. Work = M x L cells over all pairs. The profiles are loaded on the first run of an input
 * (not timed after the warm-up) and freed by {@link #close()}.
 */
public final class HmmFilterBench implements WorkloadBench<HmmFilterBench.Input, HmmFilterResults>, AutoCloseable {
    /** The input: model text (loaded once per run of the benchmark), targets and thresholds. */
    public record Input(byte[] modelText, int models, long modelNodes, HmmSeqBatch batch, long residues,
        HmmFilterParams params) {
    }

    private static final String AA = "ACDEFGHIKLMNPQRSTVWY";
    /* HMMER 3's amino-acid background frequencies (p7_bg, BLOSUM62 composition), in AA order. */
    private static final double[] BG = { 0.0787945, 0.0151600, 0.0535222, 0.0668298, 0.0397062, 0.0695071, 0.0229198,
        0.0590092, 0.0594422, 0.0963728, 0.0237718, 0.0414386, 0.0482904, 0.0395639, 0.0540978, 0.0683364,
        0.0540687, 0.0673417, 0.0114135, 0.0304133 };

    private final int models;
    private final int modelLength; // 0: 50..600 at random
    private final HmmFilterParams params;
    private HmmProfiles loaded; // the profiles of the last generated input, loaded on first run
    private byte[] loadedText;

    /**
     * The benchmark.
     *
     * @param models number of generated models, 1..1000
     * @param params filter thresholds
     * @throws IllegalArgumentException if {@code models} is out of range
     */
    public HmmFilterBench(int models, HmmFilterParams params) {
        this(models, 0, params);
    }

    /**
     * The benchmark with every model of one length.
     *
     * @param models number of generated models, 1..1000
     * @param modelLength nodes of every model, 1..100,000; 0 = 50..600 at random
     * @param params filter thresholds
     * @throws IllegalArgumentException if {@code models} or {@code modelLength} is out of range
     */
    public HmmFilterBench(int models, int modelLength, HmmFilterParams params) {
        if (models < 1 || models > 1000) {
            throw new IllegalArgumentException("--models " + models + ": must be in [1, 1000]");
        }
        if (modelLength < 0 || modelLength > 100_000) {
            throw new IllegalArgumentException("--model-length " + modelLength + ": must be in [1, 100000] (0 = random)");
        }
        this.models = models;
        this.modelLength = modelLength;
        this.params = params;
    }

    @Override
    public String name() {
        return "hmm-filter";
    }

    @Override
    public String workUnit() {
        return "cells";
    }

    @Override
    public String rateUnit() {
        return "Gcells/s";
    }

    @Override
    public String itemUnit() {
        return "pairs";
    }

    private static String nl(double p) {
        return p <= 0 ? "*" : String.format(Locale.ROOT, "%.5f", -Math.log(p));
    }

    private static double[] nodeEmissions(SplittableRandom rng) {
        double[] e = new double[20];
        int pref = rng.nextInt(20);
        double w = 0.4 + 0.4 * rng.nextDouble();
        for (int a = 0; a < 20; a++) {
            e[a] = (1 - w) * BG[a] + (a == pref ? w : 0);
        }
        return e;
    }

    private static void line(StringBuilder s, String lead, double[] p) {
        s.append(lead);
        for (double v : p) {
            s.append(' ').append(nl(v));
        }
    }

    /** One model as HMMER3/f text; {@code match} receives its match emissions (for domains). */
    static String model(SplittableRandom rng, String name, int m, double[][] match) {
        double[] compo = new double[20];
        for (int k = 0; k < m; k++) {
            match[k] = nodeEmissions(rng);
            for (int a = 0; a < 20; a++) {
                compo[a] += match[k][a] / m;
            }
        }
        StringBuilder s = new StringBuilder();
        s.append("HMMER3/f [dpaccel bench]\nNAME  ").append(name).append("\nLENG  ").append(m)
            .append("\nALPH  amino\nSTATS LOCAL MSV      -10.0000  0.69315\nSTATS LOCAL VITERBI  -10.5000  0.69315\n")
            .append("STATS LOCAL FORWARD   -4.0000  0.69315\nHMM         ");
        for (char c : AA.toCharArray()) {
            s.append("    ").append(c).append("    ");
        }
        s.append("\n            m->m     m->i     m->d     i->m     i->i     d->m     d->d\n");
        line(s, "  COMPO", compo);
        s.append('\n');
        line(s, "       ", BG);
        s.append('\n').append(trans(rng, false)).append('\n');
        for (int k = 1; k <= m; k++) {
            line(s, "      " + k, match[k - 1]);
            s.append(' ').append(k).append(' ').append(Character.toLowerCase(AA.charAt(argmax(match[k - 1]))))
                .append(" - - -\n");
            line(s, "       ", BG);
            s.append('\n').append(trans(rng, k == m)).append('\n');
        }
        return s.append("//\n").toString();
    }

    private static int argmax(double[] p) {
        int b = 0;
        for (int i = 1; i < p.length; i++) {
            b = p[i] > p[b] ? i : b;
        }
        return b;
    }

    private static String trans(SplittableRandom rng, boolean last) {
        double mm = 0.9 + 0.08 * rng.nextDouble(), mi = (1 - mm) / 2, md = (1 - mm) / 2;
        double im = 0.5 + 0.3 * rng.nextDouble(), dm = 0.6 + 0.3 * rng.nextDouble();
        if (last) { // no D after the last node: M -> E and D -> E
            mm = 1 - mi;
            md = 0;
            dm = 1;
        }
        double[] t = { mm, mi, md, im, 1 - im, dm, 1 - dm };
        StringBuilder s = new StringBuilder("        ");
        for (double v : t) {
            s.append(' ').append(nl(v));
        }
        return s.toString();
    }

    private static char bgResidue(SplittableRandom rng) {
        double u = rng.nextDouble(), c = 0;
        for (int a = 0; a < 20; a++) {
            c += BG[a];
            if (u < c) {
                return AA.charAt(a);
            }
        }
        return 'L';
    }

    private static char sample(SplittableRandom rng, double[] p) {
        double u = rng.nextDouble(), c = 0;
        for (int a = 0; a < 20; a++) {
            c += p[a];
            if (u < c) {
                return AA.charAt(a);
            }
        }
        return AA.charAt(argmax(p));
    }

    @Override
    public Input generate(long seed, int size) {
        SplittableRandom rng = new SplittableRandom(seed);
        StringBuilder text = new StringBuilder();
        double[][][] match = new double[models][][];
        long nodes = 0;
        for (int i = 0; i < models; i++) {
            int m = modelLength > 0 ? modelLength : 50 + rng.nextInt(551);
            match[i] = new double[m][];
            text.append(model(rng, "bench" + i + "_M" + m, m, match[i]));
            nodes += m;
        }
        HmmSeqBatch.Builder b = HmmSeqBatch.builder();
        long residues = 0;
        StringBuilder s = new StringBuilder();
        for (int i = 0; i < size; i++) {
            s.setLength(0);
            int len = 100 + rng.nextInt(901);
            for (int j = 0; j < len; j++) {
                s.append(bgResidue(rng));
            }
            if (rng.nextInt(4) == 0) { // a domain of a random model, 20% substitutions, at a random place
                double[][] mt = match[rng.nextInt(models)];
                StringBuilder d = new StringBuilder();
                for (double[] e : mt) {
                    d.append(rng.nextInt(5) == 0 ? bgResidue(rng) : sample(rng, e));
                }
                int at = rng.nextInt(s.length() + 1);
                s.insert(at, d);
                if (s.length() > HmmSeqBatch.MAX_LENGTH) {
                    s.setLength(HmmSeqBatch.MAX_LENGTH);
                }
            }
            b.add("t" + i, s);
            residues += s.length();
        }
        return new Input(text.toString().getBytes(StandardCharsets.US_ASCII), models, nodes, b.build(), residues, params);
    }

    @Override
    public String describe(Input in) {
        return in.models() + " generated models (" + in.modelNodes() + " nodes) x " + in.batch().size() + " proteins ("
            + in.residues() + " residues), " + in.params();
    }

    private synchronized HmmProfiles profiles(Input in) {
        if (loadedText != in.modelText()) {
            if (loaded != null) {
                loaded.close();
            }
            loaded = HmmProfiles.load(in.modelText());
            loadedText = in.modelText();
        }
        return loaded;
    }

    /** Frees the loaded profiles. */
    @Override
    public synchronized void close() {
        if (loaded != null) {
            loaded.close();
            loaded = null;
            loadedText = null;
        }
    }

    @Override
    public HmmFilterResults run(DpaContext ctx, Backend backend, Input in) {
        return HmmFilter.compute(ctx, profiles(in), in.batch(), in.params(), backend);
    }

    @Override
    public long work(Input in, HmmFilterResults scalar) {
        return scalar.cells();
    }

    @Override
    public long items(Input in) {
        return (long) in.models() * in.batch().size();
    }

    @Override
    public String firstDifference(HmmFilterResults want, HmmFilterResults got) {
        if (want.models() != got.models() || want.sequences() != got.sequences()) {
            return got.models() + " x " + got.sequences() + " results, scalar " + want.models() + " x "
                + want.sequences();
        }
        String first = null;
        long bad = 0;
        for (int m = 0; m < want.models(); m++) {
            for (int s = 0; s < want.sequences(); s++) {
                String w = row(want, m, s), g = row(got, m, s);
                if (!w.equals(g)) {
                    if (first == null) {
                        first = "model " + m + " seq " + s + ": " + g + ", scalar " + w;
                    }
                    bad++;
                }
            }
        }
        if (first == null && (got.passedMsv() != want.passedMsv() || got.passedBias() != want.passedBias()
            || got.passedVit() != want.passedVit() || got.cells() != want.cells())) {
            return "statistics differ";
        }
        return first == null ? null : first + "; " + bad + " pairs differ";
    }

    /* Every field, bit-exact (raw bits of the floats and doubles). */
    private static String row(HmmFilterResults r, int m, int s) {
        return Integer.toHexString(Float.floatToRawIntBits(r.msvBits(m, s))) + ","
            + Integer.toHexString(Float.floatToRawIntBits(r.biasBits(m, s))) + ","
            + Integer.toHexString(Float.floatToRawIntBits(r.vitBits(m, s))) + ","
            + Long.toHexString(Double.doubleToRawLongBits(r.msvPvalue(m, s))) + ","
            + Long.toHexString(Double.doubleToRawLongBits(r.biasPvalue(m, s))) + ","
            + Long.toHexString(Double.doubleToRawLongBits(r.vitPvalue(m, s))) + "," + r.passMsv(m, s) + r.passBias(m, s)
            + r.passVit(m, s) + r.hasMsv(m, s) + r.hasBias(m, s) + r.hasVit(m, s);
    }
}
