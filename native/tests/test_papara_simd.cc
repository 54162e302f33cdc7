// test_papara_simd.cc — every PaPaRa ISA kernel against the scalar reference in one
// process, on random profiles, reads and scoring parameters (fresh seed, printed), tails
// of partial blocks included; both score models (papara2 and the 2012 paper's banded
// min-plus model, whose narrow bands and staggered four-row sweeps get their own shapes).
#include <gtest/gtest.h>

#include <cstdlib>
#include <random>
#include <vector>

#include "papara_test_util.h"
#include "test_util.h"

extern "C" {
#include "cpu/papara/papara.h"
}

namespace {

bool have_avx2() { return __builtin_cpu_supports("avx2") && __builtin_cpu_supports("fma"); }
bool have_avx512()
{
    return __builtin_cpu_supports("avx512f") && __builtin_cpu_supports("avx512bw") &&
           __builtin_cpu_supports("avx512dq") && __builtin_cpu_supports("avx512vl");
}

struct Isa {
    const char *name;
    dpa_papara_block_fn fn;
    dpa_papara_block_fn fn2012;
    dpa_papara_block_fn fn32;
    dpa_papara_block_fn fn2012_32;
    int width;
    bool (*supported)();
};

const Isa ISAS[] = {
#ifdef DPA_HAVE_AVX2
    { "avx2", dpa_papara_block_avx2, dpa_papara_block_paper2012_avx2, dpa_papara_block32_avx2,
      dpa_papara_block2012_32_avx2, 16, have_avx2 },
#else
    { "avx2", nullptr, nullptr, nullptr, nullptr, 16, have_avx2 },
#endif
#ifdef DPA_HAVE_AVX512
    { "avx512", dpa_papara_block_avx512, dpa_papara_block_paper2012_avx512, dpa_papara_block32_avx512,
      dpa_papara_block2012_32_avx512, 32, have_avx512 },
#else
    { "avx512", nullptr, nullptr, nullptr, nullptr, 32, have_avx512 },
#endif
};

void PrintTo(const Isa &i, std::ostream *os) { *os << i.name; }

// Valid random scores: gaps -6..0, match 0..5, a flagged site's penalty below -match.
dpa_papara_params random_params(std::mt19937_64 &rng)
{
    dpa_papara_params p;
    dpa_papara_params_init(&p);
    std::uniform_int_distribution<int> g(-6, 0), m(0, 5), c(-8, -1);
    p.gap_open = g(rng);
    p.gap_extend = g(rng);
    p.match = m(rng);
    do p.match_cgap = c(rng); while (p.match + p.match_cgap >= 0);
    return p;
}

class PaparaSimd : public ::testing::TestWithParam<Isa> {
  protected:
    void SetUp() override
    {
        if (!GetParam().fn) GTEST_SKIP() << GetParam().name << " kernel not compiled in";
        if (!GetParam().supported()) GTEST_SKIP() << "this CPU lacks " << GetParam().name;
        const char *dis = std::getenv("DPACCEL_CPU_DISABLE");
        if (dis && *dis)
            GTEST_SKIP() << "DPACCEL_CPU_DISABLE=" << dis << ": ISA-independent, run where it is unset";
    }
    // every profile of b against every read, kernel vs reference (int32 = the int32 kernel,
    // whatever the read's length)
    void same(ppt::Batch &b, const dpa_papara_params &p, bool int32 = false)
    {
        const int W = GetParam().width;
        const int64_t S = b.sites;
        int32_t maxlen = 0;
        for (auto &r : b.reads) maxlen = std::max(maxlen, (int32_t)r.size());
        std::vector<int16_t> pre(S * DPA_PAPARA_PRE * W),
            scratch(dpa_papara_scratch_int16(S, maxlen, W));
        std::vector<int64_t> ref_scratch(2 * S);
        std::vector<int32_t> out(W);
        dpa_papara_batch v = b.view();
        int bad = 0;
        for (size_t p0 = 0; p0 < b.profiles.size(); p0 += W) {
            dpa_papara_lay_out_block(&v, (int32_t)p0, W, &p, pre.data());
            const dpa_papara_block blk = { (int32_t)p0, W, pre.data() };
            for (size_t r = 0; r < b.reads.size(); r++) {
                const int32_t L = (int32_t)b.reads[r].size();
                if (!int32) ASSERT_TRUE(dpa_papara_fits_int16(L, &p));
                const bool m12 = p.score_model == DPA_PAPARA_SCORE_PAPER2012;
                (int32 ? (m12 ? GetParam().fn2012_32 : GetParam().fn32)
                       : m12 ? GetParam().fn2012 : GetParam().fn)(
                    &blk, S, b.reads[r].data(), L, &p, scratch.data(), out.data());
                for (int k = 0; k < W && p0 + k < b.profiles.size(); k++) {
                    const int32_t want =
                        m12 ? dpa_papara_score_paper2012(b.profiles[p0 + k].data(), S,
                                                         b.reads[r].data(), L, ref_scratch.data())
                            : dpa_papara_score_ref(b.profiles[p0 + k].data(), S,
                                                   b.reads[r].data(), L, &p, ref_scratch.data());
                    if (out[k] != want && ++bad <= 5)
                        ADD_FAILURE() << "profile " << p0 + k << " read " << r << " (len " << L
                                      << ", sites " << S << "): reference " << want << ", "
                                      << GetParam().name << " " << out[k] << " (params "
                                      << p.gap_open << ":" << p.gap_extend << ":" << p.match
                                      << ":" << p.match_cgap << ")";
                }
            }
        }
    }
};

TEST_P(PaparaSimd, DefaultScoresRandomShapes)
{
    const uint64_t seed = dpa_test::test_seed();
    SCOPED_TRACE("seed " + std::to_string(seed) + " (DPA_TEST_SEED to repeat)");
    std::mt19937_64 rng(seed);
    dpa_papara_params p;
    dpa_papara_params_init(&p);
    for (int round = 0; round < 12; round++) {
        std::uniform_int_distribution<int> np(1, 70), ns(1, 700), nr(1, 6), rl(1, 150);
        const int64_t S = ns(rng);
        ppt::Batch b = ppt::random_batch(rng, np(rng), S, nr(rng), 1, rl(rng));
        same(b, p);
    }
}

TEST_P(PaparaSimd, RandomParameters)
{
    const uint64_t seed = dpa_test::test_seed();
    SCOPED_TRACE("seed " + std::to_string(seed) + " (DPA_TEST_SEED to repeat)");
    std::mt19937_64 rng(seed);
    for (int round = 0; round < 12; round++) {
        const dpa_papara_params p = random_params(rng);
        ppt::Batch b = ppt::random_batch(rng, 1 + round * 5, 1 + round * 17, 4, 1, 90, 0.3);
        same(b, p);
    }
}

// The longest reads the int16 bound admits at the default scores, where cells come
// closest to the sentinel.
TEST_P(PaparaSimd, AtTheInt16Bound)
{
    const uint64_t seed = dpa_test::test_seed();
    SCOPED_TRACE("seed " + std::to_string(seed));
    std::mt19937_64 rng(seed);
    dpa_papara_params p;
    dpa_papara_params_init(&p);
    int32_t L = 1;
    while (dpa_papara_fits_int16(L + 1, &p)) L++;
    // 3 (L + 2) for the cells, |extend| (L + COLB) for the kernels' shifted basis
    EXPECT_EQ(L, (32000 - 3 * 2 - DPA_PAPARA_COLB) / 4);
    ppt::Batch b = ppt::random_batch(rng, GetParam().width + 3, 120, 2, L, L, 0.5);
    same(b, p);
    // all-mismatch reads: scores walk down to their lowest
    ppt::make_costliest(b);
    same(b, p);
}

// The shifted basis (papara_simd.h) lifts values by up to |extend| x (L + COLB): with large
// costs the longest admitted read's all-match cells, shifted, come within ~1,200 of the int16
// maximum (m = 200: 9,400 + 12,800 + 9,400), so a bound that undercounted the shift would
// saturate them. Profiles of state 15 match every base; some profiles flag a few sites.
TEST_P(PaparaSimd, AtTheShiftedInt16BoundWithLargeCosts)
{
    const uint64_t seed = dpa_test::test_seed();
    SCOPED_TRACE("seed " + std::to_string(seed) + " (DPA_TEST_SEED to repeat)");
    std::mt19937_64 rng(seed);
    for (int m : { 200, 37, 5 }) {
        dpa_papara_params p;
        dpa_papara_params_init(&p);
        p.gap_open = p.gap_extend = -m;
        p.match = m;
        p.match_cgap = -1;
        int32_t L = 1;
        while (dpa_papara_fits_int16(L + 1, &p)) L++;
        ASSERT_GE(L, 2);
        for (int64_t S : { (int64_t)DPA_PAPARA_COLB, (int64_t)DPA_PAPARA_COLB * 2 + 5 }) {
            ppt::Batch b = ppt::random_batch(rng, GetParam().width + 3, S, 3, L, L);
            for (size_t k = 0; k < b.profiles.size(); k++)
                for (int64_t i = 0; i < S; i++)
                    b.profiles[k][i] = (k % 4 == 3 && i % 17 == 5) ? (15 | DPA_PAPARA_CGAP_BIT) : 15;
            same(b, p);
            ppt::make_costliest(b);
            same(b, p);
        }
    }
}

// The int32 kernels (papara2, reads beyond the int16 bound): reads just past the bound at the
// default scores, costs at the validated limit (+-1000) where cells reach ~10^6 on short
// reads, all-mismatch reads on flagged sites, and ordinary reads (the kernel takes any read).
TEST_P(PaparaSimd, Int32BeyondTheInt16Bound)
{
    const uint64_t seed = dpa_test::test_seed();
    SCOPED_TRACE("seed " + std::to_string(seed) + " (DPA_TEST_SEED to repeat)");
    std::mt19937_64 rng(seed);
    dpa_papara_params p;
    dpa_papara_params_init(&p);
    int32_t L = 1;
    while (dpa_papara_fits_int16(L + 1, &p)) L++;
    ppt::Batch b = ppt::random_batch(rng, GetParam().width + 3, 90, 2, L + 1, L + 300, 0.4);
    for (const auto &r : b.reads) ASSERT_FALSE(dpa_papara_fits_int16((int32_t)r.size(), &p));
    same(b, p, true);
    ppt::make_costliest(b);
    same(b, p, true);
    for (int round = 0; round < 6; round++) {
        std::uniform_int_distribution<int> g(-1000, 0), m(0, 1000), c(-1000, -1);
        p.gap_open = round == 0 ? -1000 : g(rng);
        p.gap_extend = round == 0 ? -1000 : g(rng);
        p.match = round == 0 ? 1000 : m(rng);
        p.match_cgap = round == 0 ? -1000 : c(rng);
        ppt::Batch c2 = ppt::random_batch(rng, 1 + round * 9, 1 + round * 61, 5, 1, 400, 0.3);
        same(c2, p, true);
    }
}

dpa_papara_params paper2012()
{
    dpa_papara_params p;
    dpa_papara_params_init(&p);
    p.score_model = DPA_PAPARA_SCORE_PAPER2012;
    return p;
}

// Reads of 1 .. sites - 1 bases over one or several column blocks.
TEST_P(PaparaSimd, Paper2012RandomShapes)
{
    const uint64_t seed = dpa_test::test_seed();
    SCOPED_TRACE("seed " + std::to_string(seed) + " (DPA_TEST_SEED to repeat)");
    std::mt19937_64 rng(seed);
    const dpa_papara_params p = paper2012();
    for (int round = 0; round < 14; round++) {
        std::uniform_int_distribution<int> np(1, 70), ns(2, 500), nr(1, 8);
        const int64_t S = ns(rng);
        std::uniform_int_distribution<int> rl(1, (int)S - 1);
        const int hi = rl(rng);
        ppt::Batch b = ppt::random_batch(rng, np(rng), S, nr(rng), 1, hi, round % 3 == 0 ? 0.6 : 0.2);
        same(b, p);
    }
}

// Bands of width 1 .. 6 (read length sites - 1 .. sites - 6, narrower than the four-row
// stagger), bands that start or end on a column-block edge, and one-base reads.
TEST_P(PaparaSimd, Paper2012NarrowBandsAndBlockEdges)
{
    const uint64_t seed = dpa_test::test_seed();
    SCOPED_TRACE("seed " + std::to_string(seed) + " (DPA_TEST_SEED to repeat)");
    std::mt19937_64 rng(seed);
    const dpa_papara_params p = paper2012();
    for (int64_t S : { 2, 3, 5, 8, 63, 64, 65, 67, 128, 129, 200 }) {
        ppt::Batch b = ppt::random_batch(rng, GetParam().width + 5, S, 0, 1, 1);
        for (int64_t w = 1; w <= 6 && w < S; w++) {
            b.reads.push_back(ppt::one_read(rng, S, (int)(S - w)));
        }
        for (int64_t L : { (int64_t)1, S / 2, (int64_t)DPA_PAPARA_COLB - 1, (int64_t)DPA_PAPARA_COLB,
                           (int64_t)DPA_PAPARA_COLB + 3 })
            if (L >= 1 && L < S) b.reads.push_back(ppt::one_read(rng, S, (int)L, 0.5));
        same(b, p);
    }
}

// The longest read the int16 bound admits, with every site a flagged mismatch (the
// costliest cells) and on random data.
TEST_P(PaparaSimd, Paper2012AtTheInt16Bound)
{
    const uint64_t seed = dpa_test::test_seed();
    SCOPED_TRACE("seed " + std::to_string(seed));
    std::mt19937_64 rng(seed);
    const dpa_papara_params p = paper2012();
    int32_t L = 1;
    while (dpa_papara_fits_int16(L + 1, &p)) L++;
    EXPECT_EQ(L, (32000 - 4) / 6);
    ppt::Batch b = ppt::random_batch(rng, GetParam().width + 3, L + 70, 2, L, L, 0.5);
    same(b, p);
    ppt::make_costliest(b);
    same(b, p);
}

// The paper2012 model's int32 kernels: reads past its int16 bound (6 x length + 4 <= 32000),
// every site a flagged mismatch (the costliest cells), and random shapes with narrow bands
// (the kernel takes any read shorter than the profile).
TEST_P(PaparaSimd, Paper2012Int32BeyondTheInt16Bound)
{
    const uint64_t seed = dpa_test::test_seed();
    SCOPED_TRACE("seed " + std::to_string(seed) + " (DPA_TEST_SEED to repeat)");
    std::mt19937_64 rng(seed);
    const dpa_papara_params p = paper2012();
    int32_t L = 1;
    while (dpa_papara_fits_int16(L + 1, &p)) L++;
    ppt::Batch b = ppt::random_batch(rng, GetParam().width + 3, L + 200, 2, L + 1, L + 150, 0.4);
    same(b, p, true);
    ppt::make_costliest(b);
    same(b, p, true);
    for (int64_t S : { 2, 7, 64, 65, 300 }) {
        ppt::Batch c = ppt::random_batch(rng, GetParam().width + 1, S, 0, 1, 1);
        for (int64_t w = 1; w <= 5 && w < S; w++)
            c.reads.push_back(ppt::one_read(rng, S, (int)(S - w)));
        c.reads.push_back(ppt::random_batch(rng, 1, S, 1, 1, (int)S - 1).reads[0]);
        same(c, p, true);
    }
}

INSTANTIATE_TEST_SUITE_P(Isa, PaparaSimd, ::testing::ValuesIn(ISAS),
                         [](const ::testing::TestParamInfo<Isa> &i) { return std::string(i.param.name); });

}  // namespace

// The eight-read AVX2 traceback against the scalar one, read by read: ops, count and score,
// on random shapes (1..8 lanes, read lengths 1..120 mixed within a group, 1..400 sites, gap
// flags, random parameters, ties from small scores) with a fresh seed.
TEST(PaparaTraceback8, EqualsScalarReadByRead)
{
#ifndef DPA_HAVE_AVX2
    GTEST_SKIP() << "avx2 traceback not compiled in";
#else
    if (!have_avx2()) GTEST_SKIP() << "this CPU lacks avx2";
    const uint64_t seed = dpa_test::test_seed();
    SCOPED_TRACE("seed " + std::to_string(seed) + " (DPA_TEST_SEED to repeat)");
    std::mt19937_64 rng(seed);
    for (int round = 0; round < 60; round++) {
        dpa_papara_params p;
        dpa_papara_params_init(&p);
        if (round % 3) p = random_params(rng);
        std::uniform_int_distribution<int> ns(1, 400), nl(1, 8), rl(1, 120);
        const int lanes = nl(rng);
        const int rmax = round % 4 == 0 ? 3 : rl(rng);
        ppt::Batch b = ppt::random_batch(rng, lanes, ns(rng), lanes, 1, rmax, 0.3);
        const uint8_t *prof[8], *rd[8];
        uint8_t *out[8];
        int32_t len[8], sc[8];
        int64_t nops[8];
        std::vector<std::vector<uint8_t>> ops(8);
        for (int k = 0; k < lanes; k++) {
            prof[k] = b.profiles[k].data();
            rd[k] = b.reads[k].data();
            len[k] = (int32_t)b.reads[k].size();
            ops[k].assign(b.sites + len[k], 0xee);
            out[k] = ops[k].data();
        }
        ASSERT_EQ(dpa_papara_traceback8_avx2(prof, b.sites, rd, len, lanes, &p, out, nops, sc), DPA_OK);
        for (int k = 0; k < lanes; k++) {
            std::vector<uint8_t> one(b.sites + len[k]);
            int64_t n = 0;
            int32_t s = 0;
            ASSERT_EQ(dpa_papara_traceback(prof[k], b.sites, rd[k], len[k], &p, one.data(), &n, &s), DPA_OK);
            ASSERT_EQ(nops[k], n) << "round " << round << " lane " << k;
            EXPECT_EQ(sc[k], s) << "round " << round << " lane " << k;
            EXPECT_EQ(std::vector<uint8_t>(ops[k].begin(), ops[k].begin() + n),
                      std::vector<uint8_t>(one.begin(), one.begin() + n))
                << "round " << round << " lane " << k;
        }
    }
#endif
}
