package org.dpaccel.bench.workload;

import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;

import org.dpaccel.Backend;
import org.dpaccel.DpaContext;
import org.dpaccel.xdrop.Xdrop;
import org.dpaccel.xdrop.XdropBatch;
import org.dpaccel.xdrop.XdropParams;
import org.dpaccel.xdrop.XdropResults;

/**
 * {@code dpaccel bench xdrop}: long-read-like seeds (docs/xdrop.md). A 300 kb genome with a
 * repeat family and homopolymers; reads of 1-8 kb from both strands with 6% errors
 * (substitutions and 1-bp indels), the reverse-strand ones stored reverse-complemented; a seed
 * is a 17-mer both reads copy without error (on the reverse strand when the second read is a
 * minus-strand read), or, one in ten, a random 17-mer pair that does not match. Work = the
 * cells the scalar kernel swept (SeqAn's inner-loop cells).
 */
public final class XdropBench implements WorkloadBench<XdropBench.Input, XdropResults> {
    /**
     * The input: the batch and its parameters, and the same reads and seeds as plain arrays (for
     * {@link #writeLogan}): seed i is {query, qpos, target, tpos, reverse ? 1 : 0}.
     */
    public record Input(XdropBatch batch, XdropParams params, int reads, long bases, List<byte[]> seqs,
        List<int[]> seeds) {
    }

    /**
     * Writes the seeds in the input format of LOGAN's demo (albertozeni/LOGAN, src/demo.cu:
     * {@code seqV posV seqH posH strand}, tab-separated, strand "c" or "n", k = 17), so the
     * peer extends the same pairs; LOGAN turns a "c" line's posH into {@code |seqH| - posH - k},
     * so posH is the seed's position in the target as stored.
     *
     * @param in the input
     * @param out where the lines go
     */
    public static void writeLogan(Input in, java.io.PrintStream out) {
        for (int[] s : in.seeds()) {
            byte[] q = in.seqs().get(s[0]), t = in.seqs().get(s[2]);
            int posH = s[4] == 1 ? t.length - K - s[3] : s[3];
            out.print(new String(q, java.nio.charset.StandardCharsets.US_ASCII));
            out.print("\t" + s[1] + "\t");
            out.print(new String(t, java.nio.charset.StandardCharsets.US_ASCII));
            out.print("\t" + posH + "\t" + (s[4] == 1 ? "c" : "n") + "\n");
        }
    }

    private static final int K = 17;
    private final XdropParams params;
    private final java.nio.file.Path seqan;

    /**
     * @param params the scoring and X
     */
    public XdropBench(XdropParams params) {
        this(params, null);
    }

    /**
     * @param params the scoring and X
     * @param seqan SeqAn's program (native/tests/oracles/xdrop_seqan.cc, built beside the native
     *     tests when libseqan2-dev is installed) to run beside the backends as the incumbent, or null
     */
    public XdropBench(XdropParams params, java.nio.file.Path seqan) {
        this.params = params;
        this.seqan = seqan;
    }

    @Override
    public String name() {
        return "xdrop";
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
        return "seeds";
    }

    /** A read: its bases as stored, its genome start, and for each genome base the read index that copies it exactly (-1: substituted or deleted), in forward read coordinates. */
    private record Read(byte[] stored, int start, int end, int[] at, boolean minus) {
    }

    private static final byte[] ACGT = {'A', 'C', 'G', 'T'};

    private static byte comp(byte b) {
        return switch (b) {
            case 'A' -> 'T';
            case 'C' -> 'G';
            case 'G' -> 'C';
            case 'T' -> 'A';
            default -> 'N';
        };
    }

    private static byte[] genome(SplittableRandom rng, int n) {
        byte[] g = new byte[n];
        for (int i = 0; i < n; i++) {
            g[i] = ACGT[rng.nextInt(4)];
        }
        byte[] unit = new byte[2000]; // a repeat family: 20 copies with 2% divergence
        System.arraycopy(g, 0, unit, 0, unit.length);
        for (int c = 0; c < 20; c++) {
            int at = rng.nextInt(n - unit.length);
            for (int i = 0; i < unit.length; i++) {
                g[at + i] = rng.nextInt(50) == 0 ? ACGT[rng.nextInt(4)] : unit[i];
            }
        }
        for (int h = 0; h < n / 500; h++) { // homopolymers
            int at = rng.nextInt(n - 12);
            byte b = ACGT[rng.nextInt(4)];
            for (int i = 0; i < 4 + rng.nextInt(8); i++) {
                g[at + i] = b;
            }
        }
        return g;
    }

    private static Read read(SplittableRandom rng, byte[] g) {
        int len = 1000 + rng.nextInt(7001);
        int start = rng.nextInt(g.length - len);
        int end = start + len;
        int[] at = new int[len];
        byte[] out = new byte[len + len / 8 + 8];
        int o = 0;
        for (int p = start; p < end; p++) {
            int r = rng.nextInt(100);
            if (r < 2) { // deletion
                at[p - start] = -1;
            } else if (r < 4) { // substitution
                at[p - start] = -1;
                out[o++] = ACGT[(indexOf(g[p]) + 1 + rng.nextInt(3)) & 3];
            } else if (r < 6) { // insertion before the base
                out[o++] = ACGT[rng.nextInt(4)];
                at[p - start] = o;
                out[o++] = g[p];
            } else {
                at[p - start] = o;
                out[o++] = g[p];
            }
        }
        byte[] fwd = java.util.Arrays.copyOf(out, o);
        boolean minus = rng.nextBoolean();
        byte[] stored = fwd;
        if (minus) {
            stored = new byte[o];
            for (int i = 0; i < o; i++) {
                stored[i] = comp(fwd[o - 1 - i]);
            }
        }
        return new Read(stored, start, end, at, minus);
    }

    private static int indexOf(byte b) {
        return switch (b) {
            case 'A' -> 0;
            case 'C' -> 1;
            case 'G' -> 2;
            default -> 3;
        };
    }

    /** Forward read positions of an error-free 17-mer at genome g in both reads, or null. */
    private static int[] shared(Read a, Read b, int g) {
        for (int k = 0; k < K; k++) {
            int ia = a.at[g + k - a.start], ib = b.at[g + k - b.start];
            if (ia < 0 || ib < 0 || (k > 0 && (ia != a.at[g - a.start] + k || ib != b.at[g - b.start] + k))) {
                return null;
            }
        }
        return new int[] {a.at[g - a.start], b.at[g - b.start]};
    }

    @Override
    public Input generate(long seed, int size) {
        SplittableRandom rng = new SplittableRandom(seed);
        byte[] g = genome(rng, 300_000);
        int nreads = Math.max(16, Math.min(4000, size / 8));
        List<Read> reads = new ArrayList<>();
        List<byte[]> seqs = new ArrayList<>();
        List<int[]> seeds = new ArrayList<>();
        XdropBatch.Builder b = XdropBatch.builder();
        long bases = 0;
        for (int i = 0; i < nreads; i++) {
            Read r = read(rng, g);
            reads.add(r);
            b.addSequence(r.stored);
            seqs.add(r.stored);
            bases += r.stored.length;
        }
        int made = 0;
        while (made < size) {
            int ia = rng.nextInt(nreads), ib = rng.nextInt(nreads);
            Read a = reads.get(ia), bb = reads.get(ib);
            int lo = Math.max(a.start, bb.start), hi = Math.min(a.end, bb.end) - K;
            int[] pos = null;
            if (ia != ib && lo < hi && rng.nextInt(10) != 0) {
                for (int t = 0; t < 20 && pos == null; t++) {
                    pos = shared(a, bb, lo + rng.nextInt(hi - lo));
                }
            }
            int qlen = a.stored.length, tlen = bb.stored.length;
            if (pos == null) { // a spurious seed: random places, random strand
                int[] s = {ia, rng.nextInt(qlen - K + 1), ib, rng.nextInt(tlen - K + 1), rng.nextBoolean() ? 1 : 0};
                b.addSeed(s[0], s[1], s[2], s[3], K, s[4] == 1);
                seeds.add(s);
                made++;
                continue;
            }
            // the query is read a as stored: forward coordinates, or reverse-complemented ones
            int qpos = a.minus ? qlen - K - pos[0] : pos[0];
            // the target's strand-oriented coordinates: read b's forward coordinates match the
            // query's orientation when both or neither are minus-strand reads
            boolean reverse = a.minus != bb.minus;
            int tfwd = pos[1];
            int tpos;
            if (!reverse) {
                tpos = bb.minus ? tlen - K - tfwd : tfwd;
            } else {
                // target = revcomp(stored b); the seed is in the query's orientation
                int inStored = bb.minus ? tlen - K - tfwd : tfwd;
                tpos = tlen - K - inStored;
            }
            b.addSeed(ia, qpos, ib, tpos, K, reverse);
            seeds.add(new int[] {ia, qpos, ib, tpos, reverse ? 1 : 0});
            made++;
        }
        return new Input(b.build(), params, nreads, bases, seqs, seeds);
    }

    @Override
    public String describe(Input in) {
        return in.batch().size() + " seeds between " + in.reads() + " reads (" + in.bases() + " bases), " + params;
    }

    @Override
    public XdropResults run(DpaContext ctx, Backend backend, Input in) {
        return Xdrop.compute(ctx, in.batch(), in.params(), backend);
    }

    @Override
    public long work(Input in, XdropResults scalar) {
        return scalar.cells();
    }

    @Override
    public long items(Input in) {
        return in.batch().size();
    }

    /**
     * SeqAn 2.x on the same seeds, one thread: the oracle program's own timing of its extension
     * loop (input parsing excluded), {@code reps} runs; its results must equal the scalar
     * backend's, or the row says DIFFERS (and the bench exits 1).
     */
    @Override
    public List<WorkloadBenchRunner.Row> peers(Input in, XdropResults scalar, int reps) {
        if (seqan == null) {
            return List.of();
        }
        if (!java.nio.file.Files.isExecutable(seqan)) {
            return List.of(peerRow("skipped: " + seqan + " is not an executable file (SeqAn's program is built as "
                + "native/tests/xdrop_seqan in the CMake build when libseqan2-dev is installed)"));
        }
        java.nio.file.Path input = null, err = null;
        try {
            input = java.nio.file.Files.createTempFile("dpaccel-xdrop-seqan", ".txt");
            err = java.nio.file.Files.createTempFile("dpaccel-xdrop-seqan", ".err");
            try (java.io.PrintStream w = new java.io.PrintStream(new java.io.BufferedOutputStream(
                java.nio.file.Files.newOutputStream(input)), false, java.nio.charset.StandardCharsets.US_ASCII)) {
                w.println(params.match() + " " + params.mismatch() + " " + params.gap() + " " + params.xdrop());
                for (int[] sd : in.seeds()) {
                    w.print(new String(in.seqs().get(sd[0]), java.nio.charset.StandardCharsets.US_ASCII));
                    w.print(' ');
                    w.print(new String(in.seqs().get(sd[2]), java.nio.charset.StandardCharsets.US_ASCII));
                    w.println(" " + sd[1] + " " + sd[3] + " " + K + " " + (sd[4] == 1 ? "-" : "+"));
                }
            }
            Process p = new ProcessBuilder(seqan.toString(), "--time", "--repeat", String.valueOf(reps))
                .redirectInput(input.toFile()).redirectError(err.toFile()).start();
            List<String> lines;
            try (java.io.BufferedReader r = new java.io.BufferedReader(new java.io.InputStreamReader(p.getInputStream(),
                java.nio.charset.StandardCharsets.US_ASCII))) {
                lines = r.lines().toList();
            }
            int rc = p.waitFor();
            String stderr = java.nio.file.Files.readString(err);
            java.util.regex.Matcher m = java.util.regex.Pattern.compile("seqan: \\d+ seeds x \\d+ repeats: ([0-9.]+) s")
                .matcher(stderr);
            if (rc != 0 || !m.find()) {
                return List.of(peerRow("skipped: " + seqan + " exited " + rc + ": " + stderr.strip()));
            }
            String diff = differenceFromSeqan(scalar, lines);
            if (diff != null) {
                return List.of(peerRow("DIFFERS: " + diff));
            }
            double ms = Double.parseDouble(m.group(1)) / reps * 1e3;
            long cells = work(in, scalar);
            return List.of(new WorkloadBenchRunner.Row("seqan", "ok", ms, ms, ms, cells / (ms / 1e3) / 1e9,
                in.batch().size() / (ms / 1e3), "SeqAn 2.x extendSeed (" + seqan + "), one thread, mean of " + reps
                    + " runs of its own extension loop (input parsing excluded); results equal to scalar's"));
        } catch (java.io.IOException e) {
            return List.of(peerRow("skipped: running " + seqan + ": " + e.getMessage()));
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return List.of(peerRow("skipped: interrupted"));
        } finally {
            for (java.nio.file.Path f : new java.nio.file.Path[] {input, err}) {
                if (f != null) {
                    try {
                        java.nio.file.Files.deleteIfExists(f);
                    } catch (java.io.IOException e) {
                        // a temporary file left behind is harmless
                    }
                }
            }
        }
    }

    private static WorkloadBenchRunner.Row peerRow(String status) {
        return new WorkloadBenchRunner.Row("seqan", status, Double.NaN, Double.NaN, Double.NaN, Double.NaN,
            Double.NaN, "");
    }

    /** SeqAn's output lines (score qbeg qend tbeg tend left right) against the scalar results. */
    static String differenceFromSeqan(XdropResults want, List<String> lines) {
        if (lines.size() != want.size()) {
            return "SeqAn printed " + lines.size() + " results for " + want.size() + " seeds";
        }
        for (int i = 0; i < want.size(); i++) {
            String w = want.score(i) + " " + want.qbeg(i) + " " + want.qend(i) + " " + want.tbeg(i) + " " + want.tend(i)
                + " " + want.left(i) + " " + want.right(i);
            if (!lines.get(i).strip().equals(w)) {
                return "seed " + i + ": SeqAn " + lines.get(i).strip() + ", scalar " + w
                    + " (score qbeg qend tbeg tend left right)";
            }
        }
        return null;
    }

    @Override
    public String firstDifference(XdropResults want, XdropResults got) {
        if (want.size() != got.size()) {
            return got.size() + " results, scalar " + want.size();
        }
        String first = null;
        long bad = 0;
        for (int i = 0; i < want.size(); i++) {
            int[] w = {want.score(i), want.qbeg(i), want.qend(i), want.tbeg(i), want.tend(i), want.left(i),
                want.right(i)};
            int[] g = {got.score(i), got.qbeg(i), got.qend(i), got.tbeg(i), got.tend(i), got.left(i), got.right(i)};
            if (!java.util.Arrays.equals(w, g)) {
                if (first == null) {
                    first = "seed " + i + ": " + java.util.Arrays.toString(g) + ", scalar " + java.util.Arrays.toString(w)
                        + " (score qbeg qend tbeg tend left right)";
                }
                bad++;
            }
        }
        if (first == null && got.cells() != want.cells()) {
            return "swept cells " + got.cells() + ", scalar " + want.cells();
        }
        return first == null ? null : first + "; " + bad + " seeds differ";
    }
}
