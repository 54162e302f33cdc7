// The scalar reference against hand-derived values and an independent long-double
// implementation; float vs double paths; the double recompute branch.
#include <gtest/gtest.h>

#include <cmath>

#include "test_util.h"
extern "C" {
#include "cpu/pairhmm/pairhmm.h"
}

using namespace dpa_test;

namespace {

dpa_phmm_pair pair_of(const Read &r, const std::string &h)
{
    dpa_phmm_pair p;
    p.read = (const uint8_t *)r.bases.data();
    p.base_q = r.q.data();
    p.ins_q = r.ins.data();
    p.del_q = r.del.data();
    p.gcp_q = r.gcp.data();
    p.read_len = (int32_t)r.bases.size();
    p.hap = (const uint8_t *)h.data();
    p.hap_len = (int32_t)h.size();
    return p;
}

double ref(const Read &r, const std::string &h, int32_t precision, int *rec = nullptr)
{
    dpa_phmm_pair p = pair_of(r, h);
    return dpa_phmm_log10_scalar(&p, precision, rec);
}

}  // namespace

// 1x1 match: M[1][1] = (1-e) * (init/1) * (1-e_gcp); nothing else reaches the last row.
TEST(PairHmmRef, OneBaseMatch)
{
    Read r = uniform_read("A", 30, 45, 45, 10);
    double expect = std::log10((1 - 1e-3) * (1 - 0.1));
    EXPECT_NEAR(ref(r, "A", DPA_PRECISION_DOUBLE), expect, 1e-12);
    EXPECT_NEAR(ref(r, "A", DPA_PRECISION_FLOAT_THEN_DOUBLE), expect, 1e-6);
}

TEST(PairHmmRef, OneBaseMismatch)
{
    Read r = uniform_read("A", 30, 45, 45, 10);
    double expect = std::log10(1e-3 / 3 * (1 - 0.1));
    EXPECT_NEAR(ref(r, "C", DPA_PRECISION_DOUBLE), expect, 1e-12);
}

// 'N' on either side matches anything; lower case and IUPAC codes compare as bytes.
TEST(PairHmmRef, NMatchesAnythingOtherBytesCompareAsIs)
{
    Read r = uniform_read("N", 30, 45, 45, 10);
    double match = std::log10((1 - 1e-3) * 0.9), mismatch = std::log10(1e-3 / 3 * 0.9);
    EXPECT_NEAR(ref(r, "G", DPA_PRECISION_DOUBLE), match, 1e-12);
    EXPECT_NEAR(ref(uniform_read("G", 30, 45, 45, 10), "N", DPA_PRECISION_DOUBLE), match, 1e-12);
    EXPECT_NEAR(ref(uniform_read("a", 30, 45, 45, 10), "A", DPA_PRECISION_DOUBLE), mismatch, 1e-12);
    EXPECT_NEAR(ref(uniform_read("R", 30, 45, 45, 10), "R", DPA_PRECISION_DOUBLE), match, 1e-12);
    EXPECT_NEAR(ref(uniform_read("X", 30, 45, 45, 10), "A", DPA_PRECISION_DOUBLE), mismatch, 1e-12);
}

// read 1 x hap 2: D's first row is init/2; both last-row M cells come from it.
TEST(PairHmmRef, ReadOneHapTwo)
{
    Read r = uniform_read("A", 30, 45, 45, 10);
    double expect = std::log10(0.5 * 0.9 * ((1 - 1e-3) + 1e-3 / 3));
    EXPECT_NEAR(ref(r, "AC", DPA_PRECISION_DOUBLE), expect, 1e-12);
}

// read 2 x hap 1: column 0 is zero, so M[2][1] = 0 and only the insertion path survives:
// I[2][1] = M[1][1] * e_ins(2) = (1-e)(1-e_gcp) * 10^-4.5.
TEST(PairHmmRef, ReadLongerThanHap)
{
    Read r = uniform_read("AC", 30, 45, 45, 10);
    double expect = std::log10((1 - 1e-3) * 0.9 * std::pow(10.0, -4.5));
    EXPECT_NEAR(ref(r, "A", DPA_PRECISION_DOUBLE), expect, 1e-12);
}

TEST(PairHmmRef, AgreesWithIndependentLongDoubleReference)
{
    uint64_t seed = test_seed();
    SCOPED_TRACE("DPA_TEST_SEED=" + std::to_string(seed));
    std::mt19937_64 rng(seed);
    for (int k = 0; k < 200; k++) {
        int hl = 1 + (int)(rng() % 120), rl = 1 + (int)(rng() % 100);
        std::string h = random_bases(rng, hl, "ACGTN");
        Read r = k % 2 ? gatk_read(rng, h, rl) : random_read(rng, rl, 0, 127);
        double want = reference_log10(r, h);
        double got = ref(r, h, DPA_PRECISION_DOUBLE);
        // GATK semantics at the edges: Q0/Q1 gap penalties make match-to-match negative,
        // the sum can go negative (log10 = NaN) or to zero (-inf), in GATK's Java as here.
        // Below ~1e-600 the double sum (scaled by 2^1020) is subnormal or 0: GATK's Java loses
        // the same precision there; the result must lie in the range IEEE rounding allows.
        if (std::isnan(want) || std::isinf(want)) {
            EXPECT_TRUE(near_or_same_special(got, want, 0)) << "pair " << k;
            continue;
        }
        if (want < -600) {
            EXPECT_TRUE(double_path_tiny(got, want, rl, hl)) << "pair " << k;
            continue;
        }
        // GATK-shaped pairs agree to rounding; full-range qualities (Q0 gives negative
        // match-to-match transitions and cancellation) to the stress tolerance.
        const double tol = k % 2 ? 1e-9 * std::max(1.0, std::fabs(want)) : 1e-4;
        ASSERT_NEAR(got, want, tol) << "pair " << k;
        int rec = 0;
        double f = ref(r, h, DPA_PRECISION_FLOAT_THEN_DOUBLE, &rec);
        ASSERT_NEAR(f, want, 1e-4) << "pair " << k << " float path (recomputed=" << rec << ")";
    }
}

// 30 high-quality mismatches (about 10^-134 along the diagonal) with gap penalties so high
// (GOP 90, GCP 60) that no indel path does better: far below float's range even with the
// 2^120 scaling, well inside double's, so the float sum fails the 1e-28 test and the pair
// is recomputed in double.
TEST(PairHmmRef, FloatUnderflowTakesTheDoubleBranch)
{
    Read r = uniform_read(std::string(30, 'C'), 40, 90, 90, 60);
    std::string h(40, 'A');
    int rec = 0;
    double got = ref(r, h, DPA_PRECISION_FLOAT_THEN_DOUBLE, &rec);
    EXPECT_EQ(rec, 1);
    EXPECT_NEAR(got, reference_log10(r, h), 1e-9 * 100);
    EXPECT_LT(got, -64.2);  // below float's reach: 1e-28 / 2^120
    // and a comfortable pair does not
    Read ok = uniform_read("ACGT", 30, 45, 45, 10);
    ref(ok, "ACGT", DPA_PRECISION_FLOAT_THEN_DOUBLE, &rec);
    EXPECT_EQ(rec, 0);
}

TEST(PairHmmRef, FloatAndDoubleAgreeOnGatkShapes)
{
    uint64_t seed = test_seed();
    SCOPED_TRACE("DPA_TEST_SEED=" + std::to_string(seed));
    std::mt19937_64 rng(seed);
    for (int k = 0; k < 60; k++) {
        std::string h = random_bases(rng, 250 + (int)(rng() % 251));
        Read r = gatk_read(rng, h, 150);
        ASSERT_NEAR(ref(r, h, DPA_PRECISION_FLOAT_THEN_DOUBLE), ref(r, h, DPA_PRECISION_DOUBLE), 1e-5)
            << "pair " << k;
    }
}

// GATK clamps match-to-match at 0 when e_ins + e_del > 1 (its table stores
// log1p(-min(1, sum))). read "AC" x hap "AC", row 2 with ins = del = Q0: m2m = 0, m2i = 1,
// so M[2][*] = 0 and I[2][j] = M[1][j]: the sum is M[1][1] + M[1][2] =
// init/2 * 0.9 * ((1 - e) + e/3). Unclamped (m2m = -1) M[2][2] would be -(1-e) M[1][1].
TEST(PairHmmRef, MatchToMatchIsClampedAtZeroLikeGatk)
{
    Read r = uniform_read("AC", 30, 45, 45, 10);
    r.ins[1] = 0;
    r.del[1] = 0;
    double expect = std::log10(0.5 * 0.9 * ((1 - 1e-3) + 1e-3 / 3));
    EXPECT_NEAR(ref(r, "AC", DPA_PRECISION_DOUBLE), expect, 1e-12);
    EXPECT_NEAR(ref(r, "AC", DPA_PRECISION_FLOAT_THEN_DOUBLE), expect, 1e-6);
    EXPECT_NEAR(reference_log10(r, "AC"), expect, 1e-12);
}
