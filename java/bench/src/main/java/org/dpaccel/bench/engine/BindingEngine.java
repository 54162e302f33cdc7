package org.dpaccel.bench.engine;

import java.util.List;

import org.broadinstitute.gatk.nativebindings.pairhmm.HaplotypeDataHolder;
import org.broadinstitute.gatk.nativebindings.pairhmm.PairHMMNativeBinding;
import org.broadinstitute.gatk.nativebindings.pairhmm.ReadDataHolder;
import org.dpaccel.bench.data.Read;
import org.dpaccel.bench.data.Region;

/**
 * Any GATK {@link PairHMMNativeBinding} (dpaccel's DpaPairHmm, GKL's IntelPairHmm[OMP]) driven
 * as HaplotypeCaller drives it: one {@code computeLikelihoods} per region. A call of this plan is
 * {@code batch} consecutive regions; with the default batch of 1 its latency is GATK's per-region
 * latency. The data holders are built before timing, as GATK has them already.
 */
public final class BindingEngine implements Engine {
    private final String name, detail;
    private final PairHMMNativeBinding binding;
    private final int threads;
    private final boolean dpaccel;

    public BindingEngine(String name, String detail, PairHMMNativeBinding binding, int threads, boolean dpaccel) {
        this.name = name;
        this.detail = detail;
        this.binding = binding;
        this.threads = threads;
        this.dpaccel = dpaccel;
    }

    @Override
    public String name() {
        return name;
    }

    @Override
    public int threads() {
        return threads;
    }

    @Override
    public String detail() {
        return detail;
    }

    @Override
    public boolean isDpaccel() {
        return dpaccel;
    }

    @Override
    public Plan plan(List<Region> regions, int batch) {
        int n = regions.size();
        ReadDataHolder[][] reads = new ReadDataHolder[n][];
        HaplotypeDataHolder[][] haps = new HaplotypeDataHolder[n][];
        double[][] outs = new double[n][];
        for (int i = 0; i < n; i++) {
            Region g = regions.get(i);
            reads[i] = new ReadDataHolder[g.reads().size()];
            for (int r = 0; r < reads[i].length; r++) {
                Read x = g.reads().get(r);
                ReadDataHolder h = new ReadDataHolder();
                h.readBases = x.bases();
                h.readQuals = x.quals();
                h.insertionGOP = x.ins();
                h.deletionGOP = x.del();
                h.overallGCP = x.gcp();
                reads[i][r] = h;
            }
            haps[i] = new HaplotypeDataHolder[g.haps().size()];
            for (int k = 0; k < haps[i].length; k++) {
                HaplotypeDataHolder h = new HaplotypeDataHolder();
                h.haplotypeBases = g.haps().get(k);
                haps[i][k] = h;
            }
            outs[i] = new double[g.pairs()];
        }
        int calls = (n + batch - 1) / batch;
        long[] cells = new long[calls], pairs = new long[calls];
        for (int i = 0; i < n; i++) {
            cells[i / batch] += regions.get(i).cells();
            pairs[i / batch] += regions.get(i).pairs();
        }
        return new CountedPlan(cells, pairs) {

            @Override
            public void run(int call) {
                for (int i = call * batch, end = Math.min(n, i + batch); i < end; i++) {
                    if (outs[i].length > 0) {
                        binding.computeLikelihoods(reads[i], haps[i], outs[i]);
                    }
                }
            }

            @Override
            public double[] result(int region) {
                return outs[region].clone();
            }
        };
    }

    @Override
    public void close() {
        binding.done();
    }
}
