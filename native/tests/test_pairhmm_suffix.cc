// test_pairhmm_suffix.cc — prefix + suffix sharing (cpu/pairhmm/pairhmm_suffix.h,
// DPACCEL_PAIRHMM_PREFIX=3): the plan's cuts against hand-derived ones; the double shared
// computation against the double reference to 1e-9 (the math, with roundings of the order
// of double's); the float entry against the double reference within 1e-5 on random regions
// (shared prefixes and suffixes, several lengths, N bases, single-haplotype regions, cuts at
// the first and the last column, underflowing reads, reads whose gap qualities break the
// model) and with fewer cells than prefix sharing alone; the engine knob end to end.
//
// Random tests print their seed (DPA_TEST_SEED=<seed> reproduces a failure).
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <random>
#include <string>
#include <vector>

#include "test_util.h"

extern "C" {
#include "cpu/pairhmm/pairhmm.h"
#include "cpu/pairhmm/pairhmm_suffix.h"
}

namespace {

using dpa_test::Batch;
using dpa_test::Read;
using dpa_test::make_region;

std::string seed_msg(uint64_t s) { return "DPA_TEST_SEED=" + std::to_string(s); }

struct SPlan {
    dpa_phmm_suffix_plan p;
    std::vector<const uint8_t *> ptr;
    std::vector<int32_t> len;
    explicit SPlan(const std::vector<std::string> &haps, int32_t max_slots = 64)
    {
        for (const auto &h : haps) {
            ptr.push_back((const uint8_t *)h.data());
            len.push_back((int32_t)h.size());
        }
        EXPECT_EQ(dpa_phmm_suffix_plan_build(ptr.data(), len.data(), (int32_t)haps.size(),
                                             max_slots, &p),
                  DPA_OK);
    }
    ~SPlan() { dpa_phmm_suffix_plan_free(&p); }
};

// ACGAACGT and ACGTACGT differ at base 3. Forward (bytes order): ACGAACGT first, saves
// column 3 for ACGTACGT, which resumes there; both must reach column 3 and share the last 4
// bases, so both cut at 4: forward 4 + 1 columns, backward TGCA once (4 columns), 9 of 16.
TEST(PairHmmSuffixPlan, HandDerivedCuts)
{
    SPlan pl({"ACGTACGT", "ACGAACGT"});
    EXPECT_EQ(pl.p.cut[0], 4);
    EXPECT_EQ(pl.p.cut[1], 4);
    EXPECT_EQ(pl.p.cols_total, 16);
    EXPECT_EQ(pl.p.cols_forward, 5);
    EXPECT_EQ(pl.p.cols_backward, 4);
    EXPECT_EQ(pl.p.joins, 2);
}

// Edge cuts: ACGT is a suffix of GGGACGT, so ACGT is all backward (cut at column 0, the
// first-row term alone) and GGGACGT cuts at 3; TTTTA and CCCGA share only their last base
// with the others (cut at the last column).
TEST(PairHmmSuffixPlan, EdgeCutsFirstAndLastColumn)
{
    SPlan pl({"GGGACGT", "ACGT", "TTTTA", "CCCGA"});
    EXPECT_EQ(pl.p.cut[0], 3);
    EXPECT_EQ(pl.p.cut[1], 0);
    EXPECT_EQ(pl.p.cut[2], 4);
    EXPECT_EQ(pl.p.cut[3], 4);
    EXPECT_EQ(pl.p.cols_backward, 4 + 1);
}

// Nothing to share: one haplotype, or haplotypes with no common last base, run forward only.
TEST(PairHmmSuffixPlan, NothingSharedMeansForwardOnly)
{
    SPlan one({"GATTACA"});
    EXPECT_EQ(one.p.cut[0], 7);
    EXPECT_EQ(one.p.nb, 0);
    EXPECT_EQ(one.p.cols_forward, 7);
    SPlan two({"GATTACA", "TTTTTTG"});
    EXPECT_EQ(two.p.nb, 0);
    EXPECT_EQ(two.p.cols_forward + two.p.cols_backward, 14);
    SPlan dup({"GATTACA", "GATTACA"});  // the duplicate resumes at its end
    EXPECT_EQ(dup.p.cols_forward + dup.p.cols_backward, 7);
}

// ---- the computation ----

// Every (read, hap) pair of every group, shuffled; out = index in group-major order.
std::vector<dpa_phmm_task> group_tasks(const Batch &b, std::mt19937_64 &rng)
{
    std::vector<dpa_phmm_task> t;
    int32_t r0 = 0, h0 = 0;
    int64_t k = 0;
    for (size_t g = 0; g < b.group_reads.size(); g++) {
        for (int32_t r = 0; r < b.group_reads[g]; r++)
            for (int32_t h = 0; h < b.group_haps[g]; h++) t.push_back({r0 + r, h0 + h, k++});
        r0 += b.group_reads[g];
        h0 += b.group_haps[g];
    }
    std::shuffle(t.begin(), t.end(), rng);
    return t;
}

// A region where suffixes must pay: 12 haplotypes of 300 bases, one SNP each at its own
// place, 32 reads. The SIMD kernels hand lane groups that suffixes save less than half of to
// the prefix kernels, so random regions alone may share nothing more than knob 2.
void add_snp_region(std::mt19937_64 &rng, Batch &b)
{
    const std::string ref = dpa_test::random_bases(rng, 300);
    for (int h = 0; h < 12; h++) {
        std::string x = ref;
        const size_t pos = 20 + rng() % 260;
        x[pos] = "ACGT"[(std::string("ACGT").find(x[pos]) + 1) % 4];
        b.haps.push_back(x);
    }
    for (int r = 0; r < 32; r++) b.reads.push_back(dpa_test::gatk_read(rng, ref, 150));
    b.group_reads.push_back(32);
    b.group_haps.push_back(12);
}

// Regions with substitutions, insertions and deletions (several lengths), N bases in some
// haplotypes and reads, single-haplotype regions and small shapes.
Batch random_batch(std::mt19937_64 &rng)
{
    Batch b;
    for (int g = 0; g < 4; g++)
        make_region(rng, b, 4 + (int)(rng() % 16), 8 + (int)(rng() % 20),
                    150 + (int)(rng() % 200), 100);
    make_region(rng, b, 1, 5, 120, 80);  // one haplotype
    add_snp_region(rng, b);
    for (int rep = 0; rep < 6; rep++) {
        const int nh = 1 + (int)(rng() % 10), nr = 1 + (int)(rng() % 12);
        const int hl = 1 + (int)(rng() % 30);
        std::vector<std::string> pool = {dpa_test::random_bases(rng, hl, "ACG")};
        for (int h = 0; h < nh; h++) {
            std::string x = pool[rng() % pool.size()];
            if (rng() % 2) x[rng() % x.size()] = "ACGTNR"[rng() % 6];  // R: a byte outside ACGTN
            if (rng() % 5 == 0) x = "T" + x;  // longer, same suffix
            if (rng() % 7 == 0) x += "G";
            pool.push_back(x);
            b.haps.push_back(x);
        }
        for (int r = 0; r < nr; r++) {
            Read rd = dpa_test::random_read(rng, 1 + (int)(rng() % 40), 6, 40);
            if (rng() % 4 == 0) rd.bases[rng() % rd.bases.size()] = 'N';
            b.reads.push_back(rd);
        }
        b.group_reads.push_back(nr);
        b.group_haps.push_back(nh);
    }
    return b;
}

// The double shared computation (backward values unscaled) equals the double reference up
// to double roundings: the formula, not the tolerance, is what this checks.
TEST(PairHmmSuffix, DoubleComputationMatchesTheReference)
{
    const uint64_t seed = dpa_test::test_seed();
    SCOPED_TRACE(seed_msg(seed));
    std::mt19937_64 rng(seed);
    Batch b = random_batch(rng);
    dpa_pairhmm_batch v = b.view();
    int32_t r0 = 0, h0 = 0;
    int64_t joined = 0;
    for (size_t g = 0; g < b.group_reads.size(); g++) {
        const int32_t nh = b.group_haps[g];
        std::vector<const uint8_t *> haps;
        std::vector<int32_t> lens;
        for (int32_t h = 0; h < nh; h++) {
            haps.push_back((const uint8_t *)b.haps[h0 + h].data());
            lens.push_back((int32_t)b.haps[h0 + h].size());
        }
        dpa_phmm_suffix_plan plan;
        ASSERT_EQ(dpa_phmm_suffix_plan_build(haps.data(), lens.data(), nh, nh, &plan), DPA_OK);
        joined += plan.joins;
        for (int32_t r = 0; r < b.group_reads[g]; r++) {
            dpa_phmm_task t0 = {r0 + r, h0, 0};
            dpa_phmm_pair rp = dpa_phmm_pair_of(&v, &t0);
            std::vector<double> sums(nh);
            ASSERT_EQ(dpa_phmm_suffix_f64_scalar(&rp, haps.data(), lens.data(), &plan,
                                                 DPA_PHMM_INITIAL_F64, 1.0, sums.data()),
                      DPA_OK);
            for (int32_t h = 0; h < nh; h++) {
                dpa_phmm_task t = {r0 + r, h0 + h, 0};
                dpa_phmm_pair pp = dpa_phmm_pair_of(&v, &t);
                std::vector<double> scratch(3 * ((size_t)pp.hap_len + 1));
                const double want =
                    dpa_phmm_forward_f64_scalar(&pp, DPA_PHMM_INITIAL_F64, scratch.data());
                ASSERT_NEAR(std::log10(sums[h]), std::log10(want), 1e-9)
                    << "group " << g << " read " << r << " hap " << h << " cut "
                    << plan.cut[h] << " of " << lens[h];
            }
        }
        dpa_phmm_suffix_plan_free(&plan);
        r0 += b.group_reads[g];
        h0 += nh;
    }
    EXPECT_GT(joined, 0) << "no haplotype was joined at a cut: the test checks nothing";
}

#if defined(__x86_64__) || defined(__i386__)
bool have_avx2() { return __builtin_cpu_supports("avx2") && __builtin_cpu_supports("fma"); }
bool have_avx512()
{
    return __builtin_cpu_supports("avx512f") && __builtin_cpu_supports("avx512bw") &&
           __builtin_cpu_supports("avx512dq") && __builtin_cpu_supports("avx512vl");
}
#else
bool have_avx2() { return false; }
bool have_avx512() { return false; }
#endif

struct Kernel {
    const char *name;
    dpa_phmm_prefix_fn suffix, prefix;
};

// The suffix kernels this build has and this CPU runs, each with its ISA's prefix kernel.
std::vector<Kernel> kernels()
{
    std::vector<Kernel> k = {{"scalar", dpa_phmm_compute_suffix_scalar, dpa_phmm_compute_prefix_scalar}};
#ifdef DPA_HAVE_AVX2
    if (have_avx2()) k.push_back({"avx2", dpa_phmm_compute_suffix_avx2, dpa_phmm_compute_prefix_avx2});
#endif
#ifdef DPA_HAVE_AVX512
    if (have_avx512())
        k.push_back({"avx512", dpa_phmm_compute_suffix_avx512, dpa_phmm_compute_prefix_avx512});
#endif
    return k;
}

struct Result {
    std::vector<double> out;
    int64_t recomputes = 0, cells_computed = 0;
};

Result run(dpa_phmm_prefix_fn fn, Batch &b, const std::vector<dpa_phmm_task> &tasks,
           int32_t precision, int32_t across)
{
    dpa_pairhmm_batch v = b.view();
    Result r;
    r.out.assign(tasks.size(), std::nan("0x7e57"));
    EXPECT_EQ(fn(&v, tasks.data(), (int64_t)tasks.size(), precision, r.out.data(),
                 &r.recomputes, &r.cells_computed, across),
              DPA_OK);
    return r;
}

double check_against_reference(Batch &b, const std::vector<dpa_phmm_task> &tasks,
                               const Result &s, double tol)
{
    dpa_pairhmm_batch v = b.view();
    double worst = 0;
    for (const dpa_phmm_task &t : tasks) {
        dpa_phmm_pair pp = dpa_phmm_pair_of(&v, &t);
        const double want = dpa_phmm_log10_scalar(&pp, DPA_PRECISION_DOUBLE, nullptr);
        EXPECT_TRUE(dpa_test::near_or_same_special(s.out[t.out], want, tol))
            << "read " << t.read << " hap " << t.hap;
        if (std::isfinite(want)) worst = std::max(worst, std::fabs(s.out[t.out] - want));
    }
    return worst;
}

// The float entry: every pair within 1e-5 of the double reference, fewer cells than prefix
// sharing across lengths (knob 2), in both precisions (double calls run knob 2's kernel).
TEST(PairHmmSuffix, FloatWithinToleranceAndComputesFewerCells)
{
    const uint64_t seed = dpa_test::test_seed();
    SCOPED_TRACE(seed_msg(seed));
    std::mt19937_64 rng(seed);
    Batch b = random_batch(rng);
    const auto tasks = group_tasks(b, rng);
    for (const Kernel &kn : kernels())
    for (int32_t prec : {DPA_PRECISION_FLOAT_THEN_DOUBLE, DPA_PRECISION_DOUBLE}) {
        SCOPED_TRACE(kn.name);
        SCOPED_TRACE(prec == DPA_PRECISION_DOUBLE ? "DOUBLE" : "FLOAT_THEN_DOUBLE");
        const Result s = run(kn.suffix, b, tasks, prec, 0);
        const Result k2 = run(kn.prefix, b, tasks, prec, 1);
        const double worst = check_against_reference(b, tasks, s, 1e-5);
        if (prec == DPA_PRECISION_DOUBLE) {
            EXPECT_EQ(s.cells_computed, k2.cells_computed);
        } else {
            EXPECT_LT(s.cells_computed, k2.cells_computed) << "suffixes shared nothing";
            std::printf("[ suffix  ] %s: %lld cells computed against %lld with prefixes only, "
                        "max |shared - double ref| %.3g\n", kn.name,
                        (long long)s.cells_computed, (long long)k2.cells_computed, worst);
        }
    }
}

// The edge cuts of PairHmmSuffixPlan.EdgeCutsFirstAndLastColumn through every kernel: a
// haplotype that is all backward (cut 0: only the first-row term) and cuts at the last
// column, against the double reference, reads shorter and longer than the haplotypes (the
// scalar and AVX2 kernels run the cuts; AVX-512 hands this small group to its prefix kernel).
TEST(PairHmmSuffix, EdgeCutsMatchTheReference)
{
    const uint64_t seed = dpa_test::test_seed();
    SCOPED_TRACE(seed_msg(seed));
    std::mt19937_64 rng(seed);
    Batch b;
    b.haps = {"GGGACGT", "ACGT", "TTTTA", "CCCGA"};
    for (int r = 0; r < 20; r++) b.reads.push_back(dpa_test::random_read(rng, 1 + r % 9, 10, 40));
    b.group_reads.push_back(20);
    b.group_haps.push_back(4);
    const auto tasks = group_tasks(b, rng);
    for (const Kernel &kn : kernels()) {
        SCOPED_TRACE(kn.name);
        const Result s = run(kn.suffix, b, tasks, DPA_PRECISION_FLOAT_THEN_DOUBLE, 0);
        check_against_reference(b, tasks, s, 1e-5);
    }
}

// Long reads mismatching long stretches: their float sums fall under 1e-28 and are
// recomputed in double, one pair at a time, the others stay shared in float.
TEST(PairHmmSuffix, UnderflowingReadsRecomputedPerPair)
{
    const uint64_t seed = dpa_test::test_seed();
    SCOPED_TRACE(seed_msg(seed));
    std::mt19937_64 rng(seed);
    Batch b;
    const std::string ref = dpa_test::random_bases(rng, 300);
    for (int h = 0; h < 8; h++) {
        std::string x = ref;
        for (int k = 0; k < h * 12; k++)
            x[120 + k] = "ACGT"[(std::string("ACGT").find(x[120 + k]) + 1) % 4];
        b.haps.push_back(x);
    }
    for (int r = 0; r < 12; r++) {
        Read rd = dpa_test::gatk_read(rng, ref, 150);
        rd.bases = ref.substr(100, 150);
        for (auto &q : rd.q) q = 40;
        b.reads.push_back(rd);
    }
    b.group_reads.push_back(12);
    b.group_haps.push_back(8);
    const auto tasks = group_tasks(b, rng);
    for (const Kernel &kn : kernels()) {
        SCOPED_TRACE(kn.name);
        const Result s = run(kn.suffix, b, tasks, DPA_PRECISION_FLOAT_THEN_DOUBLE, 0);
        EXPECT_GT(s.recomputes, 0) << "the test no longer reaches the double recompute";
        EXPECT_LT(s.recomputes, (int64_t)tasks.size()) << "nothing stayed in float";
        check_against_reference(b, tasks, s, 1e-5);
    }
}

// Gap qualities that break the model (e_ins + e_del > 1: mm = 0) go to the prefix kernel,
// which returns what the plain kernels return (possibly above 0 or not finite); mixed with
// ordinary reads of the same region.
TEST(PairHmmSuffix, ReadsThatBreakTheModelUseThePrefixKernel)
{
    const uint64_t seed = dpa_test::test_seed();
    SCOPED_TRACE(seed_msg(seed));
    std::mt19937_64 rng(seed);
    Batch b;
    make_region(rng, b, 6, 6, 120, 60);
    b.reads.push_back(dpa_test::uniform_read(b.haps[0].substr(10, 50), 30, 3, 3, 10));
    b.reads.push_back(dpa_test::uniform_read(b.haps[1].substr(5, 40), 20, 0, 45, 10));
    b.group_reads[0] += 2;
    const auto tasks = group_tasks(b, rng);
    for (const Kernel &kn : kernels()) {
        SCOPED_TRACE(kn.name);
        const Result s = run(kn.suffix, b, tasks, DPA_PRECISION_FLOAT_THEN_DOUBLE, 0);
        const Result k2 = run(kn.prefix, b, tasks, DPA_PRECISION_FLOAT_THEN_DOUBLE, 1);
        for (const dpa_phmm_task &t : tasks) {
            if (t.read < 6) continue;
            // the same kernel, run on that read alone: the SIMD prefix kernels may then
            // take their plain path (no rescale across lengths), so not always the same bits
            EXPECT_TRUE(dpa_test::near_or_same_special(s.out[t.out], k2.out[t.out], 1e-6))
                << "read " << t.read << " hap " << t.hap;
        }
        check_against_reference(b, tasks, s, 1e-5);
    }
}

// Through dpa_pairhmm_compute on the CPU backend: knob 3 within 1e-5 of knob 0 and with
// fewer cells computed than knob 2, at 1 and 2 threads.
TEST(PairHmmSuffixEngine, KnobThreeWithinToleranceAndSharesMore)
{
    const uint64_t seed = dpa_test::test_seed();
    SCOPED_TRACE(seed_msg(seed));
    std::mt19937_64 rng(seed);
    Batch b;
    for (int g = 0; g < 4; g++)
        make_region(rng, b, 4 + (int)(rng() % 12), 20 + (int)(rng() % 30),
                    250 + (int)(rng() % 150), 150);
    add_snp_region(rng, b);
    const char *saved = getenv("DPACCEL_PAIRHMM_PREFIX");
    const std::string keep = saved ? saved : "";
    auto go = [&](const char *knob, int threads, dpa_pairhmm_stats *st) {
        setenv("DPACCEL_PAIRHMM_PREFIX", knob, 1);
        dpa_options o;
        dpa_options_init(&o);
        o.num_threads = threads;
        o.backend = DPA_BACKEND_CPU;
        dpa_context *ctx = nullptr;
        EXPECT_EQ(dpa_context_create(&o, &ctx), DPA_OK) << dpa_last_error();
        dpa_pairhmm_batch v = b.view();
        std::vector<double> out((size_t)b.results(), NAN);
        dpa_pairhmm_params p;
        dpa_pairhmm_params_init(&p);
        EXPECT_EQ(dpa_pairhmm_compute(ctx, &v, &p, out.data(), (int64_t)out.size(), st), DPA_OK)
            << dpa_last_error();
        dpa_context_destroy(ctx);
        return out;
    };
    dpa_pairhmm_stats off_st, two_st, three_st, three2_st;
    const std::vector<double> off = go("0", 1, &off_st);
    go("2", 1, &two_st);
    const std::vector<double> three = go("3", 1, &three_st);
    const std::vector<double> three2 = go("3", 2, &three2_st);
    for (size_t i = 0; i < off.size(); i++) {
        EXPECT_NEAR(three[i], off[i], 1e-5) << i;
        EXPECT_NEAR(three2[i], off[i], 1e-5) << i;
    }
    EXPECT_EQ(three_st.cells, off_st.cells);
    EXPECT_LT(three_st.cells_computed, two_st.cells_computed);
    EXPECT_LT(three2_st.cells_computed, three2_st.cells);
    if (saved) setenv("DPACCEL_PAIRHMM_PREFIX", keep.c_str(), 1);
    else unsetenv("DPACCEL_PAIRHMM_PREFIX");
}

}  // namespace
