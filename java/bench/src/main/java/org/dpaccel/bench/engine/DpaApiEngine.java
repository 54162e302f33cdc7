package org.dpaccel.bench.engine;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

import org.dpaccel.Backend;
import org.dpaccel.DpaContext;
import org.dpaccel.bench.data.Read;
import org.dpaccel.bench.data.Region;
import org.dpaccel.pairhmm.PairHmm;
import org.dpaccel.pairhmm.PairHmmBatch;
import org.dpaccel.pairhmm.Precision;

/**
 * dpaccel through its batch API: {@code batch} regions become one {@link PairHmmBatch} of as many
 * groups, computed with one {@link PairHmm#compute} call. Batches are built before timing.
 */
public final class DpaApiEngine implements Engine {
    private final String name;
    private final DpaContext ctx;
    private final Backend backend;
    private final Precision precision;

    public DpaApiEngine(String name, DpaContext ctx, Backend backend, Precision precision) {
        this.name = name;
        this.ctx = ctx;
        this.backend = backend;
        this.precision = precision;
    }

    public DpaContext context() {
        return ctx;
    }

    @Override
    public String name() {
        return name;
    }

    @Override
    public int threads() {
        return ctx.threads();
    }

    @Override
    public String detail() {
        return ctx.describe() + ", precision " + precision.name().toLowerCase();
    }

    @Override
    public boolean isDpaccel() {
        return true;
    }

    public static PairHmmBatch pack(List<Region> regions) {
        PairHmmBatch.Builder b = PairHmmBatch.builder();
        for (Region g : regions) {
            for (Read r : g.reads()) {
                b.addRead(r.bases(), r.quals(), r.ins(), r.del(), r.gcp());
            }
            for (byte[] h : g.haps()) {
                b.addHaplotype(h);
            }
            b.endGroup();
        }
        return b.build();
    }

    @Override
    public Plan plan(List<Region> regions, int batch) {
        int n = regions.size();
        int calls = (n + batch - 1) / batch;
        List<PairHmmBatch> batches = new ArrayList<>(calls);
        List<double[]> outs = new ArrayList<>(calls);
        long[] cells = new long[calls], pairs = new long[calls];
        int[] regionOffset = new int[n];
        for (int c = 0; c < calls; c++) {
            List<Region> part = regions.subList(c * batch, Math.min(n, (c + 1) * batch));
            PairHmmBatch pb = pack(part);
            batches.add(pb);
            outs.add(new double[pb.resultCount()]);
            cells[c] = pb.cells();
            pairs[c] = pb.resultCount();
            int off = 0;
            for (int i = 0; i < part.size(); i++) {
                regionOffset[c * batch + i] = off;
                off += part.get(i).pairs();
            }
        }
        return new CountedPlan(cells, pairs) {

            @Override
            public void run(int call) {
                if (pairs[call] > 0) {
                    PairHmm.compute(ctx, batches.get(call), precision, backend, outs.get(call));
                }
            }

            @Override
            public double[] result(int region) {
                int off = regionOffset[region];
                return Arrays.copyOfRange(outs.get(region / batch), off, off + regions.get(region).pairs());
            }
        };
    }

    @Override
    public void close() {
        ctx.close();
    }
}
