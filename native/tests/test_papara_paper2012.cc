// test_papara_paper2012.cc — the 2012 paper's score model (DPA_PAPARA_SCORE_PAPER2012,
// papara_nt's align_pvec_score): hand-derived costs, the lowest-wins best and its ties, and
// dpa_papara_score (on whichever ISA the context picks; CTest runs every ISA) on random
// batches against a full-matrix DP written here from the
// recurrence (independent of the library's one-array band), plus its input rules. The CLI's
// PaparaOracleCliTest compares the same path with papara_nt's own kernel.
#include <gtest/gtest.h>

#include <algorithm>
#include <random>
#include <string>
#include <vector>

#include "papara_test_util.h"
#include "test_util.h"

namespace {

constexpr uint8_t A = 1, C = 2, G = 4, T = 8, F = DPA_PAPARA_CGAP_BIT;

// S(j, i) over the whole read x profile matrix; cells outside the band i - j in [0, W] and
// the row above the band's right edge are +inf; row -1 is 0 up to site W - 1.
int64_t full_matrix(const std::vector<uint8_t> &prof, const std::vector<uint8_t> &read)
{
    const int64_t S = (int64_t)prof.size(), L = (int64_t)read.size(), W = S - L;
    const int64_t INF = (int64_t)1 << 50;
    // index [j + 1][i + 1]
    std::vector<std::vector<int64_t>> s(L + 1, std::vector<int64_t>(S + 1, INF)), d = s;
    for (int64_t i = -1; i <= W - 1; i++) s[0][i + 1] = 0;
    for (int64_t j = 0; j < L; j++)
        for (int64_t i = j; i <= j + W; i++) {
            const bool cg = prof[i] & F;
            const int64_t sm = s[j][i] + ((prof[i] & 15 & read[j]) ? 0 : 3) + (cg ? 3 : 0);
            const int64_t dd = std::min(s[j + 1][i] + (cg ? 0 : 4), d[j + 1][i] + (cg ? 0 : 1));
            d[j + 1][i + 1] = dd;
            s[j + 1][i + 1] = std::min({ sm, dd, s[j][i + 1] + 3 });
        }
    int64_t best = INF;
    for (int64_t i = L - 1; i < S; i++) best = std::min(best, s[L][i + 1]);
    return best;
}

dpa_papara_params paper2012()
{
    dpa_papara_params p;
    dpa_papara_params_init(&p);
    p.score_model = DPA_PAPARA_SCORE_PAPER2012;
    return p;
}

} // namespace

TEST(PaparaPaper2012, CostsBestAndTiesByHand)
{
    ppt::Batch b;
    b.sites = 4;
    // ACGT; ACGT with C flagged (a match there costs 3, a gap over it nothing); TTTT; the
    // flagged one again (ties)
    b.profiles = { { A, C, G, T }, { A, C | F, G, T }, { T, T, T, T }, { A, C | F, G, T } };
    b.reads = { { C, G }, { A, T }, { A, G } };
    dpa_papara_batch v = b.view();
    dpa_context *ctx = nullptr;
    ASSERT_EQ(dpa_context_create(nullptr, &ctx), DPA_OK);
    const dpa_papara_params p = paper2012();
    std::vector<int32_t> scores(12, -7), best(3), idx(3), ties(3);
    dpa_papara_output out = { scores.data(), best.data(), idx.data(), ties.data() };
    ASSERT_EQ(dpa_papara_score(ctx, &v, &p, &out, nullptr), DPA_OK) << dpa_last_error();
    // CG: 0 on ACGT (C@1 G@2); 3 on the flagged one; 6 on TTTT
    // AT: 3 on ACGT (A@0 T@1 or A@2 T@3); 1 on the flagged one (gap opened free on C, extended
    //     over G for 1); 3 on TTTT (one mismatch)
    // AG: 3 on ACGT (the gap over C costs 4); 0 on the flagged one; 6 on TTTT
    const std::vector<int32_t> want = { 0, 3, 6, 3, 3, 1, 3, 1, 3, 0, 6, 0 };
    EXPECT_EQ(scores, want);
    EXPECT_EQ(best, (std::vector<int32_t>{ 0, 1, 0 }));
    EXPECT_EQ(idx, (std::vector<int32_t>{ 0, 1, 1 }));
    EXPECT_EQ(ties, (std::vector<int32_t>{ 1, 2, 2 }));
    for (size_t r = 0; r < 3; r++)
        for (size_t e = 0; e < 4; e++)
            EXPECT_EQ(full_matrix(b.profiles[e], b.reads[r]), want[r * 4 + e]) << r << " " << e;
    dpa_context_destroy(ctx);
}

TEST(PaparaPaper2012, EngineMatchesFullMatrixOnRandomBatches)
{
    const uint64_t seed = dpa_test::test_seed();
    SCOPED_TRACE("seed " + std::to_string(seed) + " (DPA_TEST_SEED to repeat)");
    std::mt19937_64 rng(seed);
    dpa_context *ctx = nullptr;
    ASSERT_EQ(dpa_context_create(nullptr, &ctx), DPA_OK);
    const dpa_papara_params p = paper2012();
    for (int round = 0; round < 6; round++) {
        std::uniform_int_distribution<int> np(1, 70), ns(2, 220), nr(1, 30);
        const int64_t sites = ns(rng);
        ppt::Batch b = ppt::random_batch(rng, np(rng), sites, nr(rng), 1, (int)sites - 1);
        if (round == 5) b.reads.push_back(std::vector<uint8_t>(sites - 1, A)); // band width 1
        dpa_papara_batch v = b.view();
        const size_t R = b.reads.size(), E = b.profiles.size();
        std::vector<int32_t> scores(R * E, -7), best(R, -7), idx(R, -7), ties(R, -7);
        dpa_papara_output out = { scores.data(), best.data(), idx.data(), ties.data() };
        dpa_papara_stats st;
        ASSERT_EQ(dpa_papara_score(ctx, &v, &p, &out, &st), DPA_OK) << dpa_last_error();
        EXPECT_EQ(st.cells, [&] {
            int64_t c = 0;
            for (auto &r : b.reads) c += (int64_t)r.size() * sites * (int64_t)E;
            return c;
        }());
        for (size_t r = 0; r < R; r++) {
            int64_t wb = INT64_MAX;
            int32_t wi = -1, wt = 0;
            for (size_t e = 0; e < E; e++) {
                const int64_t w = full_matrix(b.profiles[e], b.reads[r]);
                ASSERT_EQ(scores[r * E + e], w) << "round " << round << " read " << r << " profile " << e;
                if (w < wb) {
                    wb = w;
                    wi = (int32_t)e;
                    wt = 1;
                } else if (w == wb) {
                    wt++;
                }
            }
            EXPECT_EQ(best[r], wb);
            EXPECT_EQ(idx[r], wi);
            EXPECT_EQ(ties[r], wt);
        }
    }
    dpa_context_destroy(ctx);
}

TEST(PaparaPaper2012, InputRules)
{
    ppt::Batch b;
    b.sites = 4;
    b.profiles = { { A, C, G, T } };
    b.reads = { { A }, { A, C, G, T } };
    dpa_papara_batch v = b.view();
    dpa_context *ctx = nullptr;
    ASSERT_EQ(dpa_context_create(nullptr, &ctx), DPA_OK);
    dpa_papara_params p = paper2012();
    std::vector<int32_t> best(2), idx(2);
    dpa_papara_output out = { nullptr, best.data(), idx.data(), nullptr };
    EXPECT_EQ(dpa_papara_score(ctx, &v, &p, &out, nullptr), DPA_ERR_INVALID_ARG);
    EXPECT_NE(std::string(dpa_last_error()).find("paper2012: read 1 has 4 bases"), std::string::npos)
        << dpa_last_error();
    b.reads.pop_back();
    v = b.view();
    p.backend = DPA_BACKEND_HYBRID; // the CPU's share when no GPU is present
    EXPECT_EQ(dpa_papara_score(ctx, &v, &p, &out, nullptr), DPA_OK) << dpa_last_error();
    EXPECT_EQ(best[0], 0);
    p.score_model = 7;
    EXPECT_EQ(dpa_papara_score(ctx, &v, &p, &out, nullptr), DPA_ERR_INVALID_ARG);
    EXPECT_NE(std::string(dpa_last_error()).find("score_model = 7"), std::string::npos);
    p = paper2012();
    uint8_t ops[8];
    int64_t n = 0;
    int32_t sc = 0;
    EXPECT_EQ(dpa_papara_traceback(b.profiles[0].data(), 4, b.reads[0].data(), 1, &p, ops, &n, &sc),
              DPA_ERR_UNSUPPORTED);
    dpa_context_destroy(ctx);
}
