// test_cuda_papara.cc — the CUDA PaPaRa kernel (kernels/src/papara_*.cu) against the scalar
// reference (native/src/cpu/papara/papara_ref.c) on random profiles, reads and scoring
// parameters (fresh seed, printed), through the backend's entry table: every score of every
// (read, profile) pair, partial ranges, reads crossing several 16-row stripes, one read long
// enough to split the launch by the chunk budget, the paper2012 model's kernel against its
// reference (papara_paper2012.c), and the whole engine (dpa_papara_score on BACKEND_GPU and
// HYBRID, both models) against the CPU. Skips loudly without a GPU.
#include <gtest/gtest.h>

#include <random>
#include <string>
#include <vector>

#include "cuda_test_util.h"
#include "papara_test_util.h"
#include "test_util.h"

extern "C" {
#include "cpu/papara/papara.h"
}

using namespace dpa_cuda_test;

namespace {

class CudaPapara : public ::testing::Test {
  protected:
    void SetUp() override
    {
        DPA_REQUIRE_GPU(bk);
        e = dpa_cuda_papara_of(bk.ops);
        ASSERT_NE(e, nullptr) << "the CUDA library has no PaPaRa entry";
        seed = dpa_test::test_seed();
        rng.seed(seed);
    }
    // scores of reads [r0, r0 + nr) x profiles [p0, p0 + np), GPU vs reference
    void same(ppt::Batch &b, const dpa_papara_params &p, int32_t p0, int32_t np, int32_t r0, int32_t nr)
    {
        dpa_papara_batch v = b.view();
        ASSERT_EQ(dpa_papara_validate(&v, &p), DPA_OK) << dpa_last_error();
        std::vector<int32_t> out((size_t)np * nr, -7);
        char err[512] = "";
        ASSERT_EQ(e->run(bk.b, 0, &v, &p, p0, np, r0, nr, out.data(), err, sizeof err), DPA_OK) << err;
        std::vector<int64_t> scratch(2 * b.sites);
        int bad = 0;
        for (int32_t r = 0; r < nr; r++)
            for (int32_t q = 0; q < np; q++) {
                const uint8_t *pr = b.profiles[p0 + q].data(), *rd = b.reads[r0 + r].data();
                const int32_t L = (int32_t)b.reads[r0 + r].size();
                const int32_t want = p.score_model == DPA_PAPARA_SCORE_PAPER2012
                                         ? dpa_papara_score_paper2012(pr, b.sites, rd, L, scratch.data())
                                         : dpa_papara_score_ref(pr, b.sites, rd, L, &p, scratch.data());
                if (out[(size_t)r * np + q] != want && ++bad <= 5)
                    ADD_FAILURE() << "read " << r0 + r << " (len " << b.reads[r0 + r].size() << ") profile "
                                  << p0 + q << ": reference " << want << ", GPU " << out[(size_t)r * np + q];
            }
    }
    Backend bk;
    const dpa_cuda_papara_entry *e = nullptr;
    uint64_t seed = 0;
    std::mt19937_64 rng;
};

#define SEED_TRACE() SCOPED_TRACE("DPA_TEST_SEED=" + std::to_string(seed) + " reruns it")

TEST_F(CudaPapara, RandomShapesDefaultScores)
{
    SEED_TRACE();
    dpa_papara_params p;
    dpa_papara_params_init(&p);
    for (int round = 0; round < 8; round++) {
        std::uniform_int_distribution<int> np(1, 300), ns(1, 700), nr(1, 40), rl(1, 200);
        ppt::Batch b = ppt::random_batch(rng, np(rng), ns(rng), nr(rng), 1, rl(rng));
        same(b, p, 0, (int32_t)b.profiles.size(), 0, (int32_t)b.reads.size());
    }
}

TEST_F(CudaPapara, RandomParametersAndRanges)
{
    SEED_TRACE();
    for (int round = 0; round < 8; round++) {
        dpa_papara_params p;
        dpa_papara_params_init(&p);
        std::uniform_int_distribution<int> g(-6, 0), m(0, 5), c(-8, -1);
        p.gap_open = g(rng);
        p.gap_extend = g(rng);
        p.match = m(rng);
        do p.match_cgap = c(rng); while (p.match + p.match_cgap >= 0);
        ppt::Batch b = ppt::random_batch(rng, 150, 333, 20, 1, 70, 0.3);
        same(b, p, 17, 100, 3, 15);
    }
}

TEST_F(CudaPapara, LongReadsAndSmallChunks)
{
    SEED_TRACE();
    ScopedEnv chunk("DPACCEL_CUDA_CHUNK_BYTES", "1048576"); // forces one read per launch
    Backend small;
    ASSERT_NE(small.b, nullptr) << small.why;
    std::swap(bk.b, small.b);
    dpa_papara_params p;
    dpa_papara_params_init(&p);
    ppt::Batch b = ppt::random_batch(rng, 40, 900, 5, 900, 3000);
    same(b, p, 0, 40, 0, 5);
    // the paper2012 model's int32 kernel under the same budget: several launches
    p.score_model = DPA_PAPARA_SCORE_PAPER2012;
    ppt::Batch c = ppt::random_batch(rng, 300, 900, 12, 100, 800);
    same(c, p, 0, 300, 0, 12);
    std::swap(bk.b, small.b);
}

// The 16-bit kernel's limits: reads on both sides of its bound in one call (gap_open -400
// admits reads up to 73 bases, so the call runs both kernels and merges their rows), costs
// at the edge of its signed bytes, and a flagged-site cost outside them (all on int32).
TEST_F(CudaPapara, SixteenBitBoundAndByteCosts)
{
    SEED_TRACE();
    dpa_papara_params p;
    dpa_papara_params_init(&p);
    p.gap_open = -400;
    ppt::Batch b = ppt::random_batch(rng, 77, 400, 40, 1, 160);
    int fit = 0;
    for (const auto &r : b.reads) fit += r.size() <= 73;
    ASSERT_GT(fit, 0);
    ASSERT_LT(fit, (int)b.reads.size());
    same(b, p, 0, 77, 0, (int32_t)b.reads.size());
    dpa_papara_params_init(&p);
    p.match = 127;
    p.match_cgap = -128; // both bytes at int8's ends; m = 128 admits reads up to 232 bases
    ppt::Batch c = ppt::random_batch(rng, 33, 300, 20, 150, 320, 0.5);
    same(c, p, 0, 33, 0, 20);
    dpa_papara_params_init(&p);
    p.match_cgap = -129; // outside int8: the int32 kernel for every read
    same(c, p, 1, 31, 2, 17);
}

dpa_papara_params paper2012()
{
    dpa_papara_params p;
    dpa_papara_params_init(&p);
    p.score_model = DPA_PAPARA_SCORE_PAPER2012;
    return p;
}

// The 2012 paper's banded model: random shapes (read 1 .. sites - 1), bands narrower than a
// stripe, reads over several stripes, partial ranges.
TEST_F(CudaPapara, Paper2012AgainstItsReference)
{
    SEED_TRACE();
    const dpa_papara_params p = paper2012();
    for (int round = 0; round < 8; round++) {
        std::uniform_int_distribution<int> np(1, 300), ns(2, 700), nr(1, 40);
        const int64_t S = ns(rng);
        std::uniform_int_distribution<int> rl(1, (int)S - 1);
        ppt::Batch b = ppt::random_batch(rng, np(rng), S, nr(rng), 1, rl(rng), round % 2 ? 0.5 : 0.2);
        same(b, p, 0, (int32_t)b.profiles.size(), 0, (int32_t)b.reads.size());
    }
    for (int64_t S : { 2, 5, 17, 40, 100 }) {
        ppt::Batch b = ppt::random_batch(rng, 130, S, 0, 1, 1);
        for (int64_t w = 1; w <= 20 && w < S; w++)
            b.reads.push_back(ppt::one_read(rng, S, (int)(S - w)));
        same(b, p, 3, 120, 0, (int32_t)b.reads.size());
    }
}

// The engine: dpa_papara_score on the GPU and HYBRID equals the CPU's, matrix and best.
TEST_F(CudaPapara, EngineGpuAndHybridEqualCpu)
{
    SEED_TRACE();
    dpa_context *ctx = nullptr;
    dpa_options o;
    dpa_options_init(&o);
    o.gpu_disable = 0;
    ASSERT_EQ(dpa_context_create(&o, &ctx), DPA_OK) << dpa_last_error();
    int32_t ndev = 0;
    ASSERT_EQ(dpa_context_device_count(ctx, &ndev), DPA_OK);
    if (ndev == 0) {
        dpa_context_destroy(ctx);
        GTEST_SKIP() << "\n*** NO USABLE GPU for the engine (DPACCEL_CUDA_LIB?): SKIPPED ***";
    }
    ppt::Batch b = ppt::random_batch(rng, 700, 500, 300, 50, 150);
    dpa_papara_batch v = b.view();
    const size_t R = b.reads.size(), E = b.profiles.size();
    for (int model : { DPA_PAPARA_SCORE_PAPARA2, DPA_PAPARA_SCORE_PAPER2012 }) {
    SCOPED_TRACE("score model " + std::to_string(model));
    std::vector<int32_t> want(R * E), wb(R), wi(R), wt(R);
    dpa_papara_params p;
    dpa_papara_params_init(&p);
    p.score_model = model;
    p.backend = DPA_BACKEND_CPU;
    dpa_papara_output ow = { want.data(), wb.data(), wi.data(), wt.data() };
    ASSERT_EQ(dpa_papara_score(ctx, &v, &p, &ow, nullptr), DPA_OK) << dpa_last_error();
    for (int be : { DPA_BACKEND_GPU, DPA_BACKEND_HYBRID }) {
        std::vector<int32_t> got(R * E, -7), gb(R), gi(R), gt(R);
        dpa_papara_output og = { got.data(), gb.data(), gi.data(), gt.data() };
        p.backend = be;
        dpa_papara_stats st;
        ASSERT_EQ(dpa_papara_score(ctx, &v, &p, &og, &st), DPA_OK) << dpa_last_error();
        EXPECT_EQ(got, want) << "backend " << be;
        EXPECT_EQ(gb, wb);
        EXPECT_EQ(gi, wi);
        EXPECT_EQ(gt, wt);
        if (be == DPA_BACKEND_GPU) EXPECT_GT(st.gpu_tasks, 0);
    }
    }
    dpa_context_destroy(ctx);
}

}  // namespace
