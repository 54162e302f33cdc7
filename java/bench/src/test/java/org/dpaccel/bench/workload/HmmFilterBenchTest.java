package org.dpaccel.bench.workload;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.dpaccel.Backend;
import org.dpaccel.Config;
import org.dpaccel.DpaContext;
import org.dpaccel.hmm.HmmFilterParams;
import org.dpaccel.hmm.HmmFilterResults;
import org.junit.jupiter.api.Test;

/**
 * The hmm-filter benchmark's generator: deterministic per seed, its models load, and its targets
 * reach every stage (some pairs pass MSV, bias and Viterbi, most are filtered out), so the
 * benchmark times the whole pipeline and not only the MSV filter.
 */
class HmmFilterBenchTest {
    @Test
    void generatedInputExercisesEveryStage() {
        try (HmmFilterBench b = new HmmFilterBench(4, HmmFilterParams.defaults());
            DpaContext ctx = DpaContext.create(Config.builder().threads(2).backend(Backend.CPU).build())) {
            HmmFilterBench.Input in = b.generate(5, 200);
            assertArrayEquals(in.modelText(), b.generate(5, 200).modelText());
            assertEquals(200, in.batch().size());
            HmmFilterResults r = b.run(ctx, Backend.CPU, in);
            assertEquals(800, b.items(in));
            assertEquals(in.modelNodes() * in.residues(), r.cells());
            System.out.println("bench input: " + b.describe(in) + "; passed MSV " + r.passedMsv() + ", bias "
                + r.passedBias() + ", Viterbi " + r.passedVit());
            assertTrue(r.passedVit() > 0 && r.passedMsv() < r.pairs() / 2, "passed " + r.passedMsv() + "/"
                + r.passedBias() + "/" + r.passedVit() + " of " + r.pairs());
            assertNull(b.firstDifference(r, b.run(ctx, Backend.CPU, in)));
        }
    }
}
