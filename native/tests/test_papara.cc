// test_papara.cc — PaPaRa scoring and profiles: the scalar reference on hand-derived cells,
// per-edge profiles of small trees derived by hand from papara_nt's pvec_cgap / pvec_pgap
// rules (prob model: a Taylor-series matrix exponential, independent of the library's
// closed form), PaPaRa's edge order and split names, and dpa_papara_score (every ISA the
// CTest set allows) against the scalar reference on random batches.
#include <gtest/gtest.h>

#include <cmath>
#include <cstring>
#include <random>
#include <string>
#include <vector>

#include "papara_test_util.h"
#include "test_util.h"

extern "C" {
#include "cpu/papara/papara.h"
#include "io/papara_io.h"
}

namespace {

int32_t ref(const std::vector<uint8_t> &prof, const std::vector<uint8_t> &read,
            const dpa_papara_params *pp = nullptr)
{
    dpa_papara_params p;
    dpa_papara_params_init(&p);
    if (pp) p = *pp;
    std::vector<int64_t> scratch(2 * prof.size());
    return dpa_papara_score_ref(prof.data(), (int64_t)prof.size(), read.data(),
                                (int32_t)read.size(), &p, scratch.data());
}

const uint8_t A = 1, C = 2, G = 4, T = 8, CG = DPA_PAPARA_CGAP_BIT;

// Hand-derived with the recurrence of dpaccel.h (open -3, extend -1, match 2, cgap -3).
TEST(PaparaRef, HandDerivedCells)
{
    EXPECT_EQ(ref({ A, C, G, T }, { C, G }), 4);     // C and G matched in place
    EXPECT_EQ(ref({ A | CG }, { A }), 0);            // -1 by match; the free read gap on a flagged site: 0
    EXPECT_EQ(ref({ A }, { A }), 2);
    EXPECT_EQ(ref({ A, G, T }, { A, T }), 2);        // 2 - 3 + 2 = 1 loses to one match
    EXPECT_EQ(ref({ A, G | CG, T }, { A, T }), 4);   // the gap across a flagged site is free
    EXPECT_EQ(ref({ T }, { A, A, A }), 0);           // free leading/trailing read overhang
    EXPECT_EQ(ref({ A, A }, { A, C, A }), 2);        // insertion -3 costs more than it gains
    EXPECT_EQ(ref({ A | CG, A | CG }, { A, A }), 0); // -1 -1 vs free gaps: max over last col 0
    EXPECT_EQ(ref({ 15, 15 }, { C, A }), 4);         // gap state 15 matches every base (mask &)
    EXPECT_EQ(ref({ 0, A }, { A }), 2);              // state 0 ('_') matches nothing
    // insertions: row by row, S(j,0) = max(S(j-1,0) - 3 ...) down a one-site profile
    EXPECT_EQ(ref({ C }, { A, A, A, C }), 2);
    dpa_papara_params p;
    dpa_papara_params_init(&p);
    p.gap_open = 0;
    p.gap_extend = 0;
    EXPECT_EQ(ref({ A, G, T }, { A, T }, &p), 4);   // free gaps: both matches
}

struct Tree {
    dpa_nwk_tree t{};
    dpa_phy_alignment a{};
    std::vector<uint8_t> sites;
    std::vector<int32_t> edges;
    std::vector<int64_t> cols;
    int32_t E = 0;
    int64_t S = 0;
    double f = -1;
    ~Tree()
    {
        dpa_nwk_free(&t);
        dpa_phy_free(&a);
    }
    void build(const std::string &nwk, const std::string &phy, int model)
    {
        ASSERT_EQ(dpa_nwk_parse(nwk.data(), nwk.size(), "t.nwk", &t), DPA_OK) << dpa_last_error();
        ASSERT_EQ(dpa_phy_parse(phy.data(), phy.size(), "a.phy", &a), DPA_OK) << dpa_last_error();
        ASSERT_EQ(dpa_papara_bind(&t, &a, nullptr), DPA_OK) << dpa_last_error();
        dpa_papara_tree tr = { t.num_nodes, t.parent, t.length, t.row };
        dpa_papara_alignment al = { a.num_rows, a.num_columns, a.chars };
        ASSERT_EQ(dpa_papara_profile_shape(&tr, &al, &E, &S), DPA_OK) << dpa_last_error();
        sites.assign((size_t)E * S, 0xff);
        edges.assign(2 * E, -1);
        cols.assign(S, -1);
        dpa_papara_profiles out = { sites.data(), edges.data(), cols.data(), &f };
        dpa_context *ctx = nullptr;
        ASSERT_EQ(dpa_context_create(nullptr, &ctx), DPA_OK);
        ASSERT_EQ(dpa_papara_build_profiles(ctx, &tr, &al, model, &out), DPA_OK) << dpa_last_error();
        dpa_context_destroy(ctx);
    }
    std::vector<uint8_t> profile(int e) const
    {
        return std::vector<uint8_t>(sites.begin() + e * S, sites.begin() + (e + 1) * S);
    }
    std::string split(int e) const
    {
        int32_t n = 0;
        int32_t *sorted = dpa_papara_sorted_tips(&t, &n);
        char *s = dpa_papara_split_name(&t, sorted, n, edges[2 * e]);
        std::string r = s;
        free(s);
        free(sorted);
        return r;
    }
};

const char *PHY3 = "3 4\nA AC-N\nB AG-n\nC A-T-\n";

// cgap by hand: edge (A, root) of (A,B,C): side A = tip A; the other side = TIP_TIP of B, C.
// site 0: states A,A,A -> A, no flags.  site 1: B=G, C=gap -> G, aux CGAP|OPEN; with A=C:
// C&G empty -> C|G = 6, tip rule: A no CGAP, inner has the CGAP bit -> CGAP|OPEN -> flag 0.
// site 2: B gap, C=T -> T, aux CGAP|OPEN; A gap: CGAP and the CGAP bit -> CGAP -> flag 1.
// Column 3 (N, n, -) is gap in every row: dropped.
TEST(PaparaProfiles, CgapByHand)
{
    Tree x;
    x.build("(A:1,B:1,C:1);", PHY3, DPA_PAPARA_GAP_CGAP);
    ASSERT_EQ(x.E, 3);
    ASSERT_EQ(x.S, 3);
    EXPECT_EQ(x.cols, (std::vector<int64_t>{ 0, 1, 2 }));
    // three-child root: the third child's edge first, then the first's, then the second's
    EXPECT_EQ(x.edges, (std::vector<int32_t>{ 3, 0, 1, 0, 2, 0 }));
    EXPECT_EQ(x.profile(1), (std::vector<uint8_t>{ A, C | G, T | CG }));
    // edge (C, root): C = A - T against TIP_TIP(A, B) = (A, C&G->C|G=6 aux 0, gap&gap=15 CGAP)
    // site 1: C gap & 6 = 6; tip rule: CGAP bit in C only -> OPEN -> 0. site 2: T & 15 = T,
    // both CGAP bits... C has none (T) -> CGAP|OPEN -> 0.
    EXPECT_EQ(x.profile(0), (std::vector<uint8_t>{ A, C | G, T }));
}

// The 2-state chain by series: P(t) = exp(Q t), Q = [[-f, f], [1 - f, -(1 - f)]].
void pmat(double f, double t, double P[4])
{
    double Q[4] = { -f * t, f * t, (1 - f) * t, -(1 - f) * t }, term[4] = { 1, 0, 0, 1 };
    P[0] = 1;
    P[1] = 0;
    P[2] = 0;
    P[3] = 1;
    for (int k = 1; k < 60; k++) {
        double n[4] = { (term[0] * Q[0] + term[1] * Q[2]) / k, (term[0] * Q[1] + term[1] * Q[3]) / k,
                        (term[2] * Q[0] + term[3] * Q[2]) / k, (term[2] * Q[1] + term[3] * Q[3]) / k };
        for (int i = 0; i < 4; i++) {
            term[i] = n[i];
            P[i] += n[i];
        }
    }
}

// L after carrying a child's (L0, L1) up a branch of length t.
void up(double f, double t, const double in[2], double out[2])
{
    double P[4];
    pmat(f, t, P);
    out[0] = P[0] * in[0] + P[1] * in[1];
    out[1] = P[2] * in[0] + P[3] * in[1];
}

TEST(PaparaProfiles, ProbByHand)
{
    Tree x;
    // lengths chosen so no site ties
    x.build("(A:0.3,B:0.7,C:1.9);", PHY3, DPA_PAPARA_GAP_PROB);
    ASSERT_EQ(x.S, 3);
    // f = literal '-' over the kept 3 x 3 characters: A has 1, B 1, C 1
    EXPECT_DOUBLE_EQ(x.f, 3.0 / 9.0);
    const double f = 3.0 / 9.0;
    const char *rows[3] = { "AC-", "AG-", "A-T" };
    const double len[3] = { 0.3, 0.7, 1.9 };
    // edge e joins tip k and the root: side k at len[k], the other side TIP_TIP of the two
    // other tips at their own lengths, carried up len[k] again
    const int tip_of_edge[3] = { 2, 0, 1 };
    for (int e = 0; e < 3; e++) {
        const int k = tip_of_edge[e], o1 = (k + 1) % 3, o2 = (k + 2) % 3;
        for (int i = 0; i < 3; i++) {
            auto tipv = [&](int r, double v[2]) {
                v[0] = rows[r][i] == '-' ? 0 : 1;
                v[1] = rows[r][i] == '-' ? 1 : 0;
            };
            double a[2], b1[2], b2[2], u1[2], u2[2], in[2], s1[2], s2[2];
            tipv(k, a);
            tipv(o1, b1);
            tipv(o2, b2);
            up(f, len[o1], b1, u1);
            up(f, len[o2], b2, u2);
            in[0] = u1[0] * u2[0];
            in[1] = u1[1] * u2[1];
            up(f, len[k], a, s1);
            up(f, len[k], in, s2);
            const bool flag = s1[0] * s2[0] < s1[1] * s2[1];
            EXPECT_EQ((x.profile(e)[i] & CG) != 0, flag) << "edge " << e << " site " << i;
        }
    }
}

// Rooted: the two-child root is one edge, listed first as (R, L), then R's subtrees, then
// L's (ivy_mike's visit_edges from the parser's returned node).
TEST(PaparaProfiles, RootedEdgeOrderAndSplits)
{
    Tree x;
    x.build("((A:1,B:2):0.5,(C,D):0.25);", "4 2\nA AC\nB AC\nC GT\nD GA\n", DPA_PAPARA_GAP_PROB);
    ASSERT_EQ(x.E, 5);
    // preorder ids: 0 root, 1 (A,B), 2 A, 3 B, 4 (C,D), 5 C, 6 D
    EXPECT_EQ(x.edges, (std::vector<int32_t>{ 4, 1, 5, 4, 6, 4, 2, 1, 3, 1 }));
    const char *want[5] = { "C,D", "C", "D", "B,C,D", "B" };
    for (int e = 0; e < 5; e++) EXPECT_EQ(x.split(e), want[e]) << "edge " << e;
}

TEST(PaparaProfiles, UnrootedEdgeOrderAndSplits)
{
    Tree x;
    x.build("(A,B,(C,D)X);", "4 2\nA AC\nB AC\nC GT\nD GA\n", DPA_PAPARA_GAP_CGAP);
    ASSERT_EQ(x.E, 5);
    // ids: 0 root, 1 A, 2 B, 3 X, 4 C, 5 D; order: X, C, D, A, B
    EXPECT_EQ(x.edges, (std::vector<int32_t>{ 3, 0, 4, 3, 5, 3, 1, 0, 2, 0 }));
    const char *want[5] = { "C,D", "C", "D", "B,C,D", "B" };
    for (int e = 0; e < 5; e++) EXPECT_EQ(x.split(e), want[e]) << "edge " << e;
    // (X, root) with X = (C,D): TIP_TIP(C, D) against TIP_TIP(A, B)
    // site 0: G & A empty -> A|G; site 1: (T&A empty -> A|T) & C empty -> A|C|T
    EXPECT_EQ(x.profile(0), (std::vector<uint8_t>{ (uint8_t)(A | G), (uint8_t)(A | C | T) }));
}

TEST(PaparaProfiles, Errors)
{
    dpa_context *ctx = nullptr;
    ASSERT_EQ(dpa_context_create(nullptr, &ctx), DPA_OK);
    int32_t parent[5] = { -1, 0, 0, 0, 0 }, row[5] = { -1, 0, 1, 2, 3 };
    double len[5] = { 0, 1, 1, 1, 1 };
    const uint8_t chars[] = "AAAA";
    dpa_papara_alignment al = { 4, 1, chars };
    dpa_papara_tree tr = { 5, parent, len, row };
    int32_t E;
    int64_t S;
    EXPECT_EQ(dpa_papara_profile_shape(&tr, &al, &E, &S), DPA_ERR_INVALID_ARG);
    EXPECT_NE(std::string(dpa_last_error()).find("binary"), std::string::npos) << dpa_last_error();
    tr.num_nodes = 4;
    al.num_rows = 3;
    EXPECT_EQ(dpa_papara_profile_shape(&tr, &al, &E, &S), DPA_OK) << dpa_last_error();
    const uint8_t bad[] = "AXA";
    al.chars = bad;
    EXPECT_EQ(dpa_papara_profile_shape(&tr, &al, &E, &S), DPA_ERR_INVALID_ARG);
    EXPECT_NE(std::string(dpa_last_error()).find("row 2 (tree node 2) column 1"), std::string::npos) << dpa_last_error();
    const uint8_t gaps[] = "-N?";
    al.chars = gaps;
    EXPECT_EQ(dpa_papara_profile_shape(&tr, &al, &E, &S), DPA_ERR_INVALID_ARG);
    row[3] = 1;
    al.chars = chars;
    EXPECT_EQ(dpa_papara_profile_shape(&tr, &al, &E, &S), DPA_ERR_INVALID_ARG);  // row twice
    row[3] = 2;
    parent[2] = 2;
    EXPECT_EQ(dpa_papara_profile_shape(&tr, &al, &E, &S), DPA_ERR_INVALID_ARG);  // self parent
    parent[2] = 0;
    len[1] = NAN;
    EXPECT_EQ(dpa_papara_profile_shape(&tr, &al, &E, &S), DPA_ERR_INVALID_ARG);
    len[1] = 1;
    uint8_t s[3];
    int32_t en[6];
    int64_t c[1];
    dpa_papara_profiles out = { s, en, c, nullptr };
    EXPECT_EQ(dpa_papara_build_profiles(ctx, &tr, &al, 7, &out), DPA_ERR_INVALID_ARG);
    EXPECT_EQ(dpa_papara_build_profiles(ctx, &tr, &al, DPA_PAPARA_GAP_CGAP, &out), DPA_OK);
    dpa_context_destroy(ctx);
}

// Reads past the SIMD kernels' scratch cap (65,536 bases) take the scalar reference on every
// ISA, also under the smallest costs (0, 0, 0, -1), where the int16 bound admits reads of up
// to 31,998 bases; shorter reads of the same call stay on the SIMD kernels.
TEST(PaparaEngine, VeryLongReadsTakeTheReference)
{
    const uint64_t seed = dpa_test::test_seed();
    SCOPED_TRACE("seed " + std::to_string(seed) + " (DPA_TEST_SEED to repeat)");
    std::mt19937_64 rng(seed);
    dpa_context *ctx = nullptr;
    ASSERT_EQ(dpa_context_create(nullptr, &ctx), DPA_OK);
    ppt::Batch b = ppt::random_batch(rng, 5, 7, 3, 1, 50);
    b.reads.push_back(ppt::one_read(rng, 7, 70000));
    dpa_papara_batch v = b.view();
    for (int zero : { 0, 1 }) {
        dpa_papara_params p;
        dpa_papara_params_init(&p);
        if (zero) {
            p.gap_open = p.gap_extend = p.match = 0;
            p.match_cgap = -1;
            ASSERT_TRUE(dpa_papara_fits_int16(31998, &p));
        }
        ASSERT_FALSE(dpa_papara_fits_int16(70000, &p));
        const size_t R = b.reads.size(), E = b.profiles.size();
        std::vector<int32_t> scores(R * E, -7), best(R), idx(R), ties(R);
        dpa_papara_output out = { scores.data(), best.data(), idx.data(), ties.data() };
        ASSERT_EQ(dpa_papara_score(ctx, &v, &p, &out, nullptr), DPA_OK) << dpa_last_error();
        std::vector<int64_t> scratch(2 * 7);
        for (size_t r = 0; r < R; r++)
            for (size_t e = 0; e < E; e++)
                ASSERT_EQ(scores[r * E + e],
                          dpa_papara_score_ref(b.profiles[e].data(), 7, b.reads[r].data(),
                                               (int32_t)b.reads[r].size(), &p, scratch.data()))
                    << "costs " << (zero ? "0" : "default") << " read " << r << " profile " << e;
    }
    dpa_context_destroy(ctx);
}

// dpa_papara_score on whatever ISA this CTest set allows, against the reference per cell.
TEST(PaparaEngine, MatchesReferenceScoresBestAndTies)
{
    const uint64_t seed = dpa_test::test_seed();
    SCOPED_TRACE("seed " + std::to_string(seed) + " (DPA_TEST_SEED to repeat)");
    std::mt19937_64 rng(seed);
    dpa_context *ctx = nullptr;
    ASSERT_EQ(dpa_context_create(nullptr, &ctx), DPA_OK);
    for (int round = 0; round < 6; round++) {
        std::uniform_int_distribution<int> np(1, 80), ns(1, 200), nr(1, 40);
        ppt::Batch b = ppt::random_batch(rng, np(rng), ns(rng), nr(rng), 1, 120);
        if (round == 5) b.reads.push_back(std::vector<uint8_t>(11000, A)); // beyond int16
        dpa_papara_batch v = b.view();
        dpa_papara_params p;
        dpa_papara_params_init(&p);
        const size_t R = b.reads.size(), E = b.profiles.size();
        std::vector<int32_t> scores(R * E, -7), best(R, -7), idx(R, -7), ties(R, -7);
        dpa_papara_output out = { scores.data(), best.data(), idx.data(), ties.data() };
        dpa_papara_stats st;
        ASSERT_EQ(dpa_papara_score(ctx, &v, &p, &out, &st), DPA_OK) << dpa_last_error();
        for (size_t r = 0; r < R; r++) {
            int32_t wb = INT32_MIN, wi = -1, wt = 0;
            for (size_t e = 0; e < E; e++) {
                const int32_t w = ref(b.profiles[e], b.reads[r]);
                ASSERT_EQ(scores[r * E + e], w) << "read " << r << " profile " << e;
                if (w > wb) {
                    wb = w;
                    wi = (int32_t)e;
                    wt = 1;
                } else if (w == wb) {
                    wt++;
                }
            }
            EXPECT_EQ(best[r], wb);
            EXPECT_EQ(idx[r], wi) << "ties go to the lowest profile index";
            EXPECT_EQ(ties[r], wt);
        }
        // without the matrix: the same best
        std::vector<int32_t> best2(R), idx2(R);
        dpa_papara_output o2 = { nullptr, best2.data(), idx2.data(), nullptr };
        ASSERT_EQ(dpa_papara_score(ctx, &v, &p, &o2, nullptr), DPA_OK) << dpa_last_error();
        EXPECT_EQ(best2, best);
        EXPECT_EQ(idx2, idx);
    }
    dpa_context_destroy(ctx);
}

TEST(PaparaEngine, Validation)
{
    dpa_context *ctx = nullptr;
    ASSERT_EQ(dpa_test::context_without_gpu(&ctx), DPA_OK);
    std::mt19937_64 rng(1);
    ppt::Batch b = ppt::random_batch(rng, 3, 10, 2, 5, 5);
    dpa_papara_params p;
    dpa_papara_params_init(&p);
    std::vector<int32_t> best(2), idx(2);
    dpa_papara_output out = { nullptr, best.data(), idx.data(), nullptr };
    auto err = [&](dpa_status want, const char *needle) {
        dpa_papara_batch v = b.view();
        EXPECT_EQ(dpa_papara_score(ctx, &v, &p, &out, nullptr), want);
        EXPECT_NE(std::string(dpa_last_error()).find(needle), std::string::npos) << dpa_last_error();
    };
    b.profiles[1][4] = 0x20;
    err(DPA_ERR_INVALID_ARG, "profiles[1] site 4");
    b.profiles[1][4] = 1;
    b.reads[1][2] = 0;
    err(DPA_ERR_INVALID_ARG, "read 1 base 2");
    b.reads[1][2] = 16;
    err(DPA_ERR_INVALID_ARG, "read 1 base 2");
    b.reads[1][2] = 1;
    p.match_cgap = -2;
    err(DPA_ERR_INVALID_ARG, "match + match_cgap");
    p.match_cgap = -3;
    p.gap_open = 1;
    err(DPA_ERR_INVALID_ARG, "gap_open");
    p.gap_open = -3;
    p.backend = DPA_BACKEND_GPU;
    {
        dpa_papara_batch v = b.view();
        EXPECT_EQ(dpa_papara_score(ctx, &v, &p, &out, nullptr), DPA_ERR_NO_DEVICE);
    }
    p.backend = -1;
    b.sites = 0;
    err(DPA_ERR_LIMIT, "num_sites");
    dpa_context_destroy(ctx);
}

}  // namespace
