// test_pairhmm_simd.cc — the AVX2 and AVX-512 PairHMM kernels against the scalar double
// reference (dpa_phmm_log10_scalar), called directly through the kernel contract of
// cpu/pairhmm/pairhmm.h so that every vectorisation (inter-task groups, intra-task
// anti-diagonal, double recompute, scalar fallback) is reached whatever the dispatcher picks.
//
// Random tests print their seed (DPA_TEST_SEED=<seed> reproduces a failure).
#include <gtest/gtest.h>
#include <xmmintrin.h>

#include <algorithm>
#include <cmath>
#include <cstring>
#include <numeric>
#include <random>
#include <string>
#include <vector>

#include "test_util.h"

extern "C" {
#include "cpu/pairhmm/pairhmm.h"
}

namespace {

using dpa_test::Batch;
using dpa_test::Read;

struct IsaCase {
    const char *name;
    dpa_phmm_kernel_fn fn;  // NULL when not compiled in
    bool (*supported)();
};

bool have_avx2() { return __builtin_cpu_supports("avx2") && __builtin_cpu_supports("fma"); }
bool have_avx512()
{
    return __builtin_cpu_supports("avx512f") && __builtin_cpu_supports("avx512bw") &&
           __builtin_cpu_supports("avx512dq") && __builtin_cpu_supports("avx512vl");
}

const IsaCase kIsas[] = {
#ifdef DPA_HAVE_AVX2
    {"avx2", dpa_phmm_compute_avx2, have_avx2},
#else
    {"avx2", nullptr, have_avx2},
#endif
#ifdef DPA_HAVE_AVX512
    {"avx512", dpa_phmm_compute_avx512, have_avx512},
#else
    {"avx512", nullptr, have_avx512},
#endif
};

constexpr double kGatkTol = 1e-5;   // GATK-shaped data, vs the double reference
constexpr double kStressTol = 1e-4; // stress shapes

// Every (read, hap) pair of b as tasks, in a shuffled order, each writing to r*H + h.
std::vector<dpa_phmm_task> all_tasks(const Batch &b, std::mt19937_64 &rng)
{
    std::vector<dpa_phmm_task> t;
    for (size_t r = 0; r < b.reads.size(); r++)
        for (size_t h = 0; h < b.haps.size(); h++)
            t.push_back({(int32_t)r, (int32_t)h, (int64_t)(r * b.haps.size() + h)});
    std::shuffle(t.begin(), t.end(), rng);
    return t;
}

class PairHmmSimd : public ::testing::TestWithParam<IsaCase> {
  protected:
    void SetUp() override
    {
        const IsaCase &c = GetParam();
        if (!c.fn) GTEST_SKIP() << c.name << " kernel not compiled in (compiler lacks the ISA flags)";
        if (!c.supported()) GTEST_SKIP() << "this CPU has no " << c.name;
        seed_ = dpa_test::test_seed();
        rng_.seed(seed_);
    }

    struct Result {
        std::vector<double> out;
        int64_t recomputes = 0;
    };

    Result run(Batch &b, const std::vector<dpa_phmm_task> &tasks, int32_t precision)
    {
        dpa_pairhmm_batch v = b.view();
        Result r;
        r.out.assign(b.reads.size() * b.haps.size(), std::nan("0x7e57"));
        const unsigned before = _mm_getcsr();
        dpa_status st = GetParam().fn(&v, tasks.data(), (int64_t)tasks.size(), precision,
                                      r.out.data(), &r.recomputes);
        EXPECT_EQ(st, DPA_OK);
        EXPECT_EQ(_mm_getcsr(), before) << "kernel leaked an MXCSR change";
        return r;
    }

    // Compares every task's result with the scalar reference in `ref_precision`.
    void check(Batch &b, const std::vector<dpa_phmm_task> &tasks, const Result &r,
               int32_t ref_precision, double tol)
    {
        dpa_pairhmm_batch v = b.view();
        double worst = 0;
        for (const dpa_phmm_task &t : tasks) {
            dpa_phmm_pair p = dpa_phmm_pair_of(&v, &t);
            const double want = dpa_phmm_log10_scalar(&p, ref_precision, nullptr);
            const double got = r.out[t.out];
            if (std::isnan(want) || std::isinf(want)) {
                EXPECT_TRUE(std::isnan(want) ? std::isnan(got) : got == want)
                    << "read " << t.read << " (len " << p.read_len << ") hap " << t.hap
                    << " (len " << p.hap_len << "): want " << want << " got " << got;
                continue;
            }
            ASSERT_NEAR(got, want, tol) << "read " << t.read << " (len " << p.read_len
                                        << ") hap " << t.hap << " (len " << p.hap_len << ")";
            worst = std::max(worst, std::fabs(got - want));
        }
        RecordProperty("max_abs_error", std::to_string(worst));
    }

    uint64_t seed_ = 0;
    std::mt19937_64 rng_;
};

std::string seed_msg(uint64_t s) { return "DPA_TEST_SEED=" + std::to_string(s); }

// GATK shapes: 150bp reads (some trimmed), 250-500bp haplotypes, many pairs -> the
// inter-task kernel; within 1e-5 of the double reference.
TEST_P(PairHmmSimd, GatkShapedMatchesDoubleReference)
{
    SCOPED_TRACE(seed_msg(seed_));
    Batch b;
    std::uniform_int_distribution<int> hl(250, 500);
    for (int h = 0; h < 8; h++) b.haps.push_back(dpa_test::random_bases(rng_, hl(rng_)));
    for (int r = 0; r < 40; r++) {
        int len = r % 5 == 0 ? 50 + (int)(rng_() % 100) : 150;
        b.reads.push_back(dpa_test::gatk_read(rng_, b.haps[rng_() % b.haps.size()], len));
    }
    auto tasks = all_tasks(b, rng_);
    Result r = run(b, tasks, DPA_PRECISION_FLOAT_THEN_DOUBLE);
    check(b, tasks, r, DPA_PRECISION_DOUBLE, kGatkTol);
}

// A few thousand tasks in one call, shuffled output order.
TEST_P(PairHmmSimd, ThousandsOfTasks)
{
    SCOPED_TRACE(seed_msg(seed_));
    Batch b;
    for (int h = 0; h < 24; h++) b.haps.push_back(dpa_test::random_bases(rng_, 250 + (int)(rng_() % 60)));
    for (int r = 0; r < 130; r++)
        b.reads.push_back(dpa_test::gatk_read(rng_, b.haps[rng_() % b.haps.size()], 30 + (int)(rng_() % 121)));
    auto tasks = all_tasks(b, rng_);
    ASSERT_GE(tasks.size(), 3000u);
    Result r = run(b, tasks, DPA_PRECISION_FLOAT_THEN_DOUBLE);
    check(b, tasks, r, DPA_PRECISION_DOUBLE, kGatkTol);
}

// Stress: lengths 1..1000 mixed in one batch, reads longer than haplotypes, N and other
// bytes, qualities at the extremes. Ins/del qualities stay >= 6 here: at Q0 the GATK
// match-to-match probability 1-(e_ins+e_del) is negative and the sum cancels, which no
// finite-precision kernel reproduces to 1e-4 (see the Q0 test below).
TEST_P(PairHmmSimd, StressShapesMatchReference)
{
    SCOPED_TRACE(seed_msg(seed_));
    const uint8_t extremes[] = {0, 6, 40, 93, 127};
    const uint8_t gap_extremes[] = {6, 10, 40, 93, 127};
    const char alphabet[] = "ACGTACGTACGTNRaX";
    auto len = [&]() {
        int k = (int)(rng_() % 4);
        return k == 0 ? 1 + (int)(rng_() % 20) : k == 1 ? 1 + (int)(rng_() % 1000)
                                                        : 100 + (int)(rng_() % 200);
    };
    Batch b;
    for (int h = 0; h < 9; h++) b.haps.push_back(dpa_test::random_bases(rng_, len(), alphabet));
    for (int r = 0; r < 21; r++) {
        Read rd;
        const std::string &hap = b.haps[rng_() % b.haps.size()];
        int l = len();
        for (int i = 0; i < l; i++) {
            // mostly the haplotype (so likelihoods stay in float range), some noise
            char c = (size_t)i < hap.size() && rng_() % 4 ? hap[i] : alphabet[rng_() % 16];
            rd.bases.push_back(c);
            bool ext = rng_() % 3 == 0;
            rd.q.push_back(ext ? extremes[rng_() % 5] : (uint8_t)(6 + rng_() % 35));
            rd.ins.push_back(ext ? gap_extremes[rng_() % 5] : (uint8_t)(40 + rng_() % 11));
            rd.del.push_back(ext ? gap_extremes[rng_() % 5] : (uint8_t)(40 + rng_() % 11));
            rd.gcp.push_back(ext ? gap_extremes[rng_() % 5] : (uint8_t)10);
        }
        b.reads.push_back(rd);
    }
    auto tasks = all_tasks(b, rng_);
    Result r = run(b, tasks, DPA_PRECISION_FLOAT_THEN_DOUBLE);
    check(b, tasks, r, DPA_PRECISION_DOUBLE, kStressTol);
    // DOUBLE mode on the same batch: only FMA rounding separates kernel and reference.
    Result d = run(b, tasks, DPA_PRECISION_DOUBLE);
    EXPECT_EQ(d.recomputes, 0);
    check(b, tasks, d, DPA_PRECISION_DOUBLE, 1e-9);
}

// Q0 ins/del: transitions leave [0,1]; results must still match the scalar reference of
// the same precision (same recurrence, same rounding apart from FMA), special values exactly.
TEST_P(PairHmmSimd, QualityZeroEverywhere)
{
    SCOPED_TRACE(seed_msg(seed_));
    Batch b;
    for (int h = 0; h < 3; h++) b.haps.push_back(dpa_test::random_bases(rng_, 5 + (int)(rng_() % 30)));
    for (int r = 0; r < 20; r++) {
        Read rd = dpa_test::random_read(rng_, 1 + (int)(rng_() % 12), 0, 2);
        b.reads.push_back(rd);
    }
    auto tasks = all_tasks(b, rng_);
    Result d = run(b, tasks, DPA_PRECISION_DOUBLE);
    dpa_pairhmm_batch v = b.view();
    for (const dpa_phmm_task &t : tasks) {
        dpa_phmm_pair p = dpa_phmm_pair_of(&v, &t);
        const double want = dpa_phmm_log10_scalar(&p, DPA_PRECISION_DOUBLE, nullptr);
        const double got = d.out[t.out];
        EXPECT_TRUE(dpa_test::near_or_same_special(got, want, 1e-6)) << "double path";
    }
    // The float path (with its double recompute) against the scalar float-then-double
    // reference: the same values, NaN for NaN and -Infinity for -Infinity.
    Result f = run(b, tasks, DPA_PRECISION_FLOAT_THEN_DOUBLE);
    for (const dpa_phmm_task &t : tasks) {
        dpa_phmm_pair p = dpa_phmm_pair_of(&v, &t);
        const double want = dpa_phmm_log10_scalar(&p, DPA_PRECISION_FLOAT_THEN_DOUBLE, nullptr);
        EXPECT_TRUE(dpa_test::near_or_same_special(f.out[t.out], want, 1e-4)) << "float path";
    }
}

// Float underflow: a long read of high-quality mismatches sums below 1e-28 in float, so
// the pair is recomputed in double (and counted); the others stay in float.
TEST_P(PairHmmSimd, FloatUnderflowRecomputedInDouble)
{
    SCOPED_TRACE(seed_msg(seed_));
    Batch b;
    b.haps.push_back(std::string(300, 'A'));
    b.haps.push_back(dpa_test::random_bases(rng_, 280));
    b.reads.push_back(dpa_test::uniform_read(std::string(200, 'C'), 40, 45, 45, 10));  // all mismatches
    b.reads.push_back(dpa_test::uniform_read(std::string(60, 'G'), 30, 45, 45, 10));
    for (int r = 0; r < 20; r++) b.reads.push_back(dpa_test::gatk_read(rng_, b.haps[1], 150));
    auto tasks = all_tasks(b, rng_);
    Result r = run(b, tasks, DPA_PRECISION_FLOAT_THEN_DOUBLE);
    EXPECT_GT(r.recomputes, 0);
    check(b, tasks, r, DPA_PRECISION_DOUBLE, kGatkTol);
    // and through the single-pair (intra-task) path
    std::vector<dpa_phmm_task> one = {{0, 0, 0}};
    Result s = run(b, one, DPA_PRECISION_FLOAT_THEN_DOUBLE);
    EXPECT_EQ(s.recomputes, 1);
    check(b, one, s, DPA_PRECISION_DOUBLE, kGatkTol);
}

// n = 1 and n = 2 (intra-task anti-diagonal kernel) over shapes around the vector width:
// read shorter than, equal to and longer than a stripe, haplotype of length 1, N bases.
TEST_P(PairHmmSimd, SinglePairsAllShapes)
{
    SCOPED_TRACE(seed_msg(seed_));
    const int lens[] = {1, 2, 3, 7, 8, 9, 15, 16, 17, 31, 33, 150, 301};
    for (int rl : lens) {
        for (int hl : {1, 2, 5, 16, 17, 250}) {
            Batch b;
            b.haps.push_back(dpa_test::random_bases(rng_, hl, "ACGTN"));
            b.haps.push_back(dpa_test::random_bases(rng_, hl + 3, "ACGT"));
            b.reads.push_back(dpa_test::gatk_read(rng_, b.haps[0], rl));
            b.reads[0].bases[rng_() % rl] = 'N';
            for (int n : {1, 2}) {
                std::vector<dpa_phmm_task> t = {{0, 0, 0}, {0, 1, 1}};
                t.resize(n);
                Result r = run(b, t, DPA_PRECISION_FLOAT_THEN_DOUBLE);
                SCOPED_TRACE("read " + std::to_string(rl) + " hap " + std::to_string(hl));
                check(b, t, r, DPA_PRECISION_DOUBLE, kStressTol);
                Result d = run(b, t, DPA_PRECISION_DOUBLE);
                check(b, t, d, DPA_PRECISION_DOUBLE, 1e-9);
            }
        }
    }
}

// Partial groups: task counts that do not fill the last vector of lanes.
TEST_P(PairHmmSimd, PartialGroups)
{
    SCOPED_TRACE(seed_msg(seed_));
    Batch b;
    for (int h = 0; h < 5; h++) b.haps.push_back(dpa_test::random_bases(rng_, 20 + (int)(rng_() % 200)));
    for (int r = 0; r < 9; r++)
        b.reads.push_back(dpa_test::gatk_read(rng_, b.haps[r % 5], 5 + (int)(rng_() % 150)));
    auto tasks = all_tasks(b, rng_);
    for (size_t n : {3, 5, 17, 23, 33, 45}) {
        std::vector<dpa_phmm_task> t(tasks.begin(), tasks.begin() + n);
        Result r = run(b, t, DPA_PRECISION_FLOAT_THEN_DOUBLE);
        check(b, t, r, DPA_PRECISION_DOUBLE, kStressTol);
        Result d = run(b, t, DPA_PRECISION_DOUBLE);
        check(b, t, d, DPA_PRECISION_DOUBLE, 1e-9);
    }
}

// More than 32 distinct non-N bytes in one pair: the base coder cannot express it and the
// pair goes to the scalar path; neighbours in the same vector are unaffected.
TEST_P(PairHmmSimd, ManyDistinctBytesFallBack)
{
    SCOPED_TRACE(seed_msg(seed_));
    Batch b;
    std::string wide;
    for (int c = 33; c < 33 + 60; c++) wide.push_back((char)c);
    b.haps.push_back(wide);
    b.haps.push_back(dpa_test::random_bases(rng_, 80));
    b.reads.push_back(dpa_test::uniform_read(wide.substr(10, 40), 30, 45, 45, 10));
    for (int r = 0; r < 10; r++) b.reads.push_back(dpa_test::gatk_read(rng_, b.haps[1], 50));
    auto tasks = all_tasks(b, rng_);
    Result r = run(b, tasks, DPA_PRECISION_FLOAT_THEN_DOUBLE);
    check(b, tasks, r, DPA_PRECISION_DOUBLE, kGatkTol);
    std::vector<dpa_phmm_task> one = {{0, 0, 0}};
    Result s = run(b, one, DPA_PRECISION_FLOAT_THEN_DOUBLE);
    check(b, one, s, DPA_PRECISION_DOUBLE, kGatkTol);
}

// The longest sequences the API allows (2^20) against short partners: no overflow, no
// crash, same numbers as the reference.
TEST_P(PairHmmSimd, MaximumLengths)
{
    SCOPED_TRACE(seed_msg(seed_));
    Batch b;
    const int kMax = DPA_PAIRHMM_MAX_LENGTH;
    b.haps.push_back(dpa_test::random_bases(rng_, kMax));
    b.haps.push_back(dpa_test::random_bases(rng_, 3));
    b.reads.push_back(dpa_test::gatk_read(rng_, b.haps[0], 2));
    b.reads.push_back(dpa_test::random_read(rng_, kMax, 6, 40));
    std::vector<dpa_phmm_task> t = {{0, 0, 0}, {1, 1, 3}};
    Result r = run(b, t, DPA_PRECISION_FLOAT_THEN_DOUBLE);
    // A float sum over 2^20 columns drifts ~1e-4 from the exact value in any in-order
    // float implementation (GKL's too), so the float run is held to the scalar float
    // reference, which sums in the same order.
    check(b, t, r, DPA_PRECISION_FLOAT_THEN_DOUBLE, kStressTol);
    for (const dpa_phmm_task &one : t) {
        std::vector<dpa_phmm_task> v = {one};
        Result s = run(b, v, DPA_PRECISION_DOUBLE);
        check(b, v, s, DPA_PRECISION_DOUBLE, 1e-9);
    }
}

// Empty sides are rejected by validation, but a kernel given one must still agree with
// the reference (which yields -inf) rather than divide by zero or read out of bounds.
TEST_P(PairHmmSimd, EmptySidesMatchReference)
{
    Batch b;
    b.haps.push_back("");
    b.haps.push_back("ACGTACGT");
    b.reads.push_back(dpa_test::uniform_read("", 30, 45, 45, 10));
    b.reads.push_back(dpa_test::uniform_read("ACGT", 30, 45, 45, 10));
    std::vector<dpa_phmm_task> t = {{0, 0, 0}, {0, 1, 1}, {1, 0, 2}, {1, 1, 3}};
    Result r = run(b, t, DPA_PRECISION_FLOAT_THEN_DOUBLE);
    check(b, t, r, DPA_PRECISION_DOUBLE, kStressTol);
}

// The caller's MXCSR (here: round toward zero, no FTZ/DAZ, an exception flag set) comes
// back untouched, in both precisions.
TEST_P(PairHmmSimd, RestoresCallerMxcsr)
{
    Batch b;
    b.haps.push_back("ACGTTGCAACGT");
    b.reads.push_back(dpa_test::uniform_read("ACGTTG", 30, 45, 45, 10));
    std::vector<dpa_phmm_task> t = {{0, 0, 0}};
    const unsigned saved = _mm_getcsr();
    const unsigned odd = (saved & ~0xe000u & ~0x0040u) | 0x6000u | 0x0001u;
    for (int32_t prec : {DPA_PRECISION_FLOAT_THEN_DOUBLE, DPA_PRECISION_DOUBLE}) {
        _mm_setcsr(odd);
        std::vector<double> out(1);
        int64_t rec = 0;
        dpa_pairhmm_batch v = b.view();
        dpa_status st = GetParam().fn(&v, t.data(), 1, prec, out.data(), &rec);
        const unsigned after = _mm_getcsr();
        _mm_setcsr(saved);
        EXPECT_EQ(st, DPA_OK);
        EXPECT_EQ(after, odd);
    }
}

INSTANTIATE_TEST_SUITE_P(Isa, PairHmmSimd, ::testing::ValuesIn(kIsas),
                         [](const ::testing::TestParamInfo<IsaCase> &i) { return std::string(i.param.name); });

}  // namespace
