// test_pairhmm_prefix.cc — prefix sharing (cpu/pairhmm/pairhmm_prefix.h): the plan against
// hand-derived orders and resume columns, and every shared kernel (scalar, AVX2, AVX-512)
// against (a) the scalar double reference within 1e-5 and (b) the plain kernel of the same
// ISA, bit for bit, with the same double recomputes (sharing only skips cells whose values
// it already has, so nothing else may change). GKL's conformance file runs through the
// shared kernels with its reads deduplicated, so repeated reads share.
//
// Random tests print their seed (DPA_TEST_SEED=<seed> reproduces a failure).
#include <gtest/gtest.h>
#if defined(__x86_64__) || defined(__i386__)
#include <xmmintrin.h>
#define DPA_TEST_X86 1
#endif

#include <algorithm>
#include <cmath>
#include <cstring>
#include <fstream>
#include <map>
#include <random>
#include <sstream>
#include <string>
#include <vector>

#include "test_util.h"

extern "C" {
#include "cpu/pairhmm/pairhmm.h"
#include "cpu/pairhmm/pairhmm_prefix.h"
}

namespace {

using dpa_test::Batch;
using dpa_test::Read;
using dpa_test::make_region;

// ---- plan ----

struct Plan {
    dpa_phmm_prefix_plan p;
    std::vector<const uint8_t *> ptr;
    std::vector<int32_t> len;
    Plan(const std::vector<std::string> &haps, int32_t max_slots, int across = 0)
    {
        for (const auto &h : haps) {
            ptr.push_back((const uint8_t *)h.data());
            len.push_back((int32_t)h.size());
        }
        EXPECT_EQ(dpa_phmm_prefix_plan_build(ptr.data(), len.data(), (int32_t)haps.size(),
                                             max_slots, across, &p),
                  DPA_OK);
    }
    ~Plan() { dpa_phmm_prefix_plan_free(&p); }
};

// Order (length, bytes): AC | ACGA ACGT ACTT TTTT. ACGT resumes at 3 (after ACG), ACTT at 2
// (after AC), both columns computed by ACGA; AC and TTTT have no equal-length predecessor
// sharing a prefix; lengths differ between AC and ACGA, so nothing is shared there.
TEST(PairHmmPrefixPlan, HandDerivedOrderAndResumeColumns)
{
    const std::vector<std::string> haps = {"ACGT", "ACGA", "ACTT", "AC", "TTTT"};
    Plan pl(haps, 8);
    const int32_t want_order[] = {3, 1, 0, 2, 4};
    const int32_t want_resume[] = {0, 0, 3, 2, 0};
    for (int q = 0; q < 5; q++) {
        EXPECT_EQ(pl.p.order[q], want_order[q]) << q;
        EXPECT_EQ(pl.p.resume[q], want_resume[q]) << q;
    }
    EXPECT_EQ(pl.p.cols_total, 18);
    EXPECT_EQ(pl.p.cols_computed, 2 + 4 + 1 + 2 + 4);
    // ACGA (position 1) saves columns 2 and 3, in column order, into two slots
    ASSERT_EQ(pl.p.save_at[2] - pl.p.save_at[1], 2);
    EXPECT_EQ(pl.p.saves[pl.p.save_at[1]].col, 2);
    EXPECT_EQ(pl.p.saves[pl.p.save_at[1] + 1].col, 3);
    EXPECT_EQ(pl.p.nslots, 2);
    EXPECT_EQ(pl.p.load_slot[2], pl.p.saves[pl.p.save_at[1] + 1].slot);
    EXPECT_EQ(pl.p.load_slot[3], pl.p.saves[pl.p.save_at[1]].slot);
}

// One slot: the first checkpoint (column 3 for ACGT) keeps it, column 2 is dropped and ACTT
// starts from column 0.
TEST(PairHmmPrefixPlan, SlotBudgetDropsCheckpointsExactly)
{
    Plan pl({"ACGT", "ACGA", "ACTT", "AC", "TTTT"}, 1);
    EXPECT_EQ(pl.p.nslots, 1);
    EXPECT_EQ(pl.p.resume[2], 3);
    EXPECT_EQ(pl.p.resume[3], 0);
    EXPECT_EQ(pl.p.load_slot[3], -1);
    EXPECT_EQ(pl.p.cols_computed, 2 + 4 + 1 + 4 + 4);
    Plan none({"ACGT", "ACGA"}, 0);
    EXPECT_EQ(none.p.resume[1], 0);
    EXPECT_EQ(none.p.cols_computed, 8);
}

// Identical haplotypes resume at their full length (nothing computed).
TEST(PairHmmPrefixPlan, DuplicatesComputeNothing)
{
    Plan pl({"GATTACA", "GATTACA", "GATTACA"}, 4);
    EXPECT_EQ(pl.p.cols_computed, 7);
    EXPECT_EQ(pl.p.resume[1], 7);
    EXPECT_EQ(pl.p.resume[2], 7);
}

// Across lengths, order (bytes, then length): AC ACGA ACGT ACTT TTTT. ACGA resumes at 2 from
// AC (a checkpoint of length 2), ACGT at 3 from ACGA, ACTT at 2 from AC again (ACGA and ACGT
// resume at or past 2, so AC computed column 2 last).
TEST(PairHmmPrefixPlan, AcrossLengthsHandDerived)
{
    Plan pl({ "TTTT", "ACGT", "AC", "ACTT", "ACGA" }, 8, 1);
    const int32_t want_order[5] = { 2, 4, 1, 3, 0 }, want_resume[5] = { 0, 2, 3, 2, 0 };
    const int32_t want_len[5] = { 2, 2, 4, 2, 4 };
    for (int q = 0; q < 5; q++) {
        EXPECT_EQ(pl.p.order[q], want_order[q]) << q;
        EXPECT_EQ(pl.p.resume[q], want_resume[q]) << q;
        if (want_resume[q] > 0) EXPECT_EQ(pl.p.load_len[q], want_len[q]) << q;
    }
    EXPECT_EQ(pl.p.cols_computed, 2 + 2 + 1 + 2 + 4);
}

// ---- kernels ----

#ifdef DPA_TEST_X86
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
bool always() { return true; }

struct Case {
    const char *name;
    dpa_phmm_prefix_fn shared;
    dpa_phmm_kernel_fn plain;
    bool (*supported)();
};

const Case kCases[] = {
    {"scalar", dpa_phmm_compute_prefix_scalar, dpa_phmm_compute_scalar, always},
#ifdef DPA_HAVE_AVX2
    {"avx2", dpa_phmm_compute_prefix_avx2, dpa_phmm_compute_avx2, have_avx2},
#else
    {"avx2", nullptr, nullptr, have_avx2},
#endif
#ifdef DPA_HAVE_AVX512
    {"avx512", dpa_phmm_compute_prefix_avx512, dpa_phmm_compute_avx512, have_avx512},
#else
    {"avx512", nullptr, nullptr, have_avx512},
#endif
};

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

class PairHmmPrefix : public ::testing::TestWithParam<Case> {
  protected:
    void SetUp() override
    {
        const Case &c = GetParam();
        if (!c.shared) GTEST_SKIP() << c.name << " kernel not compiled in (compiler lacks the ISA flags)";
        if (!c.supported()) GTEST_SKIP() << "this CPU has no " << c.name;
        seed_ = dpa_test::test_seed();
        rng_.seed(seed_);
    }

    struct Result {
        std::vector<double> out;
        int64_t recomputes = 0;
        int64_t cells_computed = 0;
    };

    Result run(dpa_phmm_prefix_fn fn, Batch &b, const std::vector<dpa_phmm_task> &tasks,
               int32_t precision)
    {
        dpa_pairhmm_batch v = b.view();
        Result r;
        r.out.assign(tasks.size(), std::nan("0x7e57"));
#ifdef DPA_TEST_X86
        const unsigned before = _mm_getcsr();
#endif
        EXPECT_EQ(fn(&v, tasks.data(), (int64_t)tasks.size(), precision, r.out.data(),
                     &r.recomputes, &r.cells_computed, across_),
                  DPA_OK);
#ifdef DPA_TEST_X86
        EXPECT_EQ(_mm_getcsr(), before) << "kernel leaked an MXCSR change";
#endif
        return r;
    }

    Result run(dpa_phmm_kernel_fn fn, Batch &b, const std::vector<dpa_phmm_task> &tasks,
               int32_t precision, bool check_mxcsr)
    {
        dpa_pairhmm_batch v = b.view();
        Result r;
        r.out.assign(tasks.size(), std::nan("0x7e57"));
#ifdef DPA_TEST_X86
        const unsigned before = _mm_getcsr();
#endif
        EXPECT_EQ(fn(&v, tasks.data(), (int64_t)tasks.size(), precision, r.out.data(), &r.recomputes),
                  DPA_OK);
#ifdef DPA_TEST_X86
        if (check_mxcsr) EXPECT_EQ(_mm_getcsr(), before) << "kernel leaked an MXCSR change";
#endif
        return r;
    }

    // shared vs plain (bitwise, same recomputes) and vs the double reference (tol).
    // Returns the fraction of cells the shared kernel computed (float pass).
    double check_all(Batch &b, double tol)
    {
        double fraction = 1;
        auto tasks = group_tasks(b, rng_);
        for (int32_t prec : {DPA_PRECISION_FLOAT_THEN_DOUBLE, DPA_PRECISION_DOUBLE}) {
            SCOPED_TRACE(prec == DPA_PRECISION_DOUBLE ? "DOUBLE" : "FLOAT_THEN_DOUBLE");
            Result s = run(GetParam().shared, b, tasks, prec);
            // the plain scalar kernel leaves pow()'s precision flag set (not ours to test here)
            Result p = run(GetParam().plain, b, tasks, prec, false);
            EXPECT_EQ(s.recomputes, p.recomputes);
            dpa_pairhmm_batch v = b.view();
            int64_t cells = 0;
            for (const dpa_phmm_task &t : tasks) {
                dpa_phmm_pair pp = dpa_phmm_pair_of(&v, &t);
                cells += (int64_t)pp.read_len * pp.hap_len;
            }
            EXPECT_LE(s.cells_computed, cells);
            if (prec != DPA_PRECISION_DOUBLE) fraction = (double)s.cells_computed / (double)cells;
            double worst = 0;
            for (const dpa_phmm_task &t : tasks) {
                const double got = s.out[t.out];
                if (std::memcmp(&got, &p.out[t.out], sizeof got) != 0) {
                    ADD_FAILURE() << "read " << t.read << " hap " << t.hap << ": shared " << got
                                  << " plain " << p.out[t.out];
                    return 1;
                }
                dpa_phmm_pair pp = dpa_phmm_pair_of(&v, &t);
                const double want = dpa_phmm_log10_scalar(&pp, DPA_PRECISION_DOUBLE, nullptr);
                if (!(std::fabs(got - want) <= tol)) {
                    ADD_FAILURE() << "read " << t.read << " hap " << t.hap << ": got " << got
                                  << " want " << want << " tol " << tol;
                    return 1;
                }
                worst = std::max(worst, std::fabs(got - want));
            }
            RecordProperty(prec == DPA_PRECISION_DOUBLE ? "max_abs_error_double" : "max_abs_error_float",
                           std::to_string(worst));
        }
        return fraction;
    }

    uint64_t seed_ = 0;
    std::mt19937_64 rng_;
    int32_t across_ = 0;
};

std::string seed_msg(uint64_t s) { return "DPA_TEST_SEED=" + std::to_string(s); }

// GATK-shaped regions: 150 bp reads (some shorter), 250-450 bp windows, 2-24 haplotypes.
TEST_P(PairHmmPrefix, GatkShapedRegionsMatchPlainBitwiseAndReference)
{
    SCOPED_TRACE(seed_msg(seed_));
    Batch b;
    for (int g = 0; g < 4; g++)
        make_region(rng_, b, 2 + (int)(rng_() % 23), 5 + (int)(rng_() % 40),
                    250 + (int)(rng_() % 200), 150);
    // one region large enough that every kernel must share (full lane groups, 12 SNP-only
    // haplotypes: at most ~60% of the columns are new)
    {
        Batch big;
        std::string ref = dpa_test::random_bases(rng_, 300);
        for (int h = 0; h < 12; h++) {
            std::string x = ref;
            x[100 + rng_() % 200] = 'N';
            big.haps.push_back(x);
        }
        for (int r = 0; r < 32; r++) big.reads.push_back(dpa_test::gatk_read(rng_, ref, 150));
        big.group_reads.push_back(32);
        big.group_haps.push_back(12);
        const double f = check_all(big, 1e-5);
        RecordProperty("fraction_computed", std::to_string(f));
        EXPECT_LT(f, 0.7) << "the shared kernel did not share";
    }
    check_all(b, 1e-5);
}

// DPACCEL_PAIRHMM_PREFIX=2: checkpoints of other lengths, scaled. Not the plain kernel's bits
// (one rounding per scaled value), so: within 1e-5 of the double reference and of the plain
// kernel of the same ISA (the ISAs' plain kernels differ in the last bits among themselves),
// and fewer cells than sharing
// between equal lengths only on regions with indel haplotypes.
TEST_P(PairHmmPrefix, AcrossLengthsWithinToleranceAndSharesMore)
{
    SCOPED_TRACE(seed_msg(seed_));
    Batch b;
    for (int g = 0; g < 4; g++)
        make_region(rng_, b, 4 + (int)(rng_() % 20), 16 + (int)(rng_() % 30), 250 + (int)(rng_() % 200),
                    150);
    for (int rep = 0; rep < 6; rep++)  // small shapes, reads longer than haplotypes
        make_region(rng_, b, 2 + (int)(rng_() % 8), 1 + (int)(rng_() % 20), 12 + (int)(rng_() % 30), 40);
    const auto tasks = group_tasks(b, rng_);
    dpa_pairhmm_batch v = b.view();
    for (int32_t prec : { DPA_PRECISION_FLOAT_THEN_DOUBLE, DPA_PRECISION_DOUBLE }) {
        SCOPED_TRACE(prec == DPA_PRECISION_DOUBLE ? "DOUBLE" : "FLOAT_THEN_DOUBLE");
        across_ = 0;
        const Result same = run(GetParam().shared, b, tasks, prec);
        across_ = 1;
        const Result s = run(GetParam().shared, b, tasks, prec);
        across_ = 0;
        const Result p = run(GetParam().plain, b, tasks, prec, false);
        EXPECT_LT(s.cells_computed, same.cells_computed) << "indel haplotypes shared nothing more";
        double worst = 0, cells = 0;
        for (const dpa_phmm_task &t : tasks) {
            const double got = s.out[t.out];
            dpa_phmm_pair pp = dpa_phmm_pair_of(&v, &t);
            cells += (double)pp.read_len * pp.hap_len;
            const double want = dpa_phmm_log10_scalar(&pp, DPA_PRECISION_DOUBLE, nullptr);
            ASSERT_NEAR(got, want, 1e-5) << "read " << t.read << " hap " << t.hap;
            ASSERT_NEAR(got, p.out[t.out], 1e-5) << "read " << t.read << " hap " << t.hap;
            worst = std::max(worst, std::fabs(got - p.out[t.out]));
        }
        std::printf("[ prefix  ] %s across lengths: %.3f of the cells (equal lengths only: %.3f), "
                    "max |shared - plain| %.3g\n",
                    GetParam().name, (double)s.cells_computed / cells,
                    (double)same.cells_computed / cells, worst);
    }
}

// Small shapes: lengths 1..30, many duplicates and one-base haplotypes, reads longer than
// haplotypes, 1 to 40 reads (partial lane groups).
TEST_P(PairHmmPrefix, SmallShapesAndDuplicates)
{
    SCOPED_TRACE(seed_msg(seed_));
    for (int rep = 0; rep < 20; rep++) {
        Batch b;
        const int nh = 1 + (int)(rng_() % 12), nr = 1 + (int)(rng_() % 40);
        const int hl = 1 + (int)(rng_() % 30);
        std::vector<std::string> pool = {dpa_test::random_bases(rng_, hl, "ACG")};
        for (int h = 0; h < nh; h++) {
            std::string x = pool[rng_() % pool.size()];
            if (rng_() % 2) x[rng_() % x.size()] = "ACGTN"[rng_() % 5];
            if (rng_() % 5 == 0) x += "T";
            pool.push_back(x);
            b.haps.push_back(x);
        }
        for (int r = 0; r < nr; r++)
            b.reads.push_back(dpa_test::random_read(rng_, 1 + (int)(rng_() % 40), 6, 40));
        b.group_reads.push_back(nr);
        b.group_haps.push_back(nh);
        check_all(b, 1e-4);
    }
}

// Pairs whose float sum underflows 1e-28 are recomputed in double one by one, the same
// pairs as without sharing: long reads mismatching long stretches of the haplotypes.
TEST_P(PairHmmPrefix, UnderflowRecomputeStaysPerPair)
{
    SCOPED_TRACE(seed_msg(seed_));
    Batch b;
    const std::string ref = dpa_test::random_bases(rng_, 300);
    for (int h = 0; h < 8; h++) {
        std::string x = ref;
        for (int k = 0; k < h * 20; k++) x[150 + k] = "ACGT"[(std::string("ACGT").find(x[150 + k]) + 1) % 4];
        b.haps.push_back(x);
    }
    for (int r = 0; r < 20; r++) {
        Read rd = dpa_test::gatk_read(rng_, ref, 150);
        rd.bases = ref.substr(100, 150);
        for (auto &q : rd.q) q = 40;
        b.reads.push_back(rd);
    }
    b.group_reads.push_back(20);
    b.group_haps.push_back(8);
    auto tasks = group_tasks(b, rng_);
    Result s = run(GetParam().shared, b, tasks, DPA_PRECISION_FLOAT_THEN_DOUBLE);
    Result p = run(GetParam().plain, b, tasks, DPA_PRECISION_FLOAT_THEN_DOUBLE, false);
    EXPECT_GT(s.recomputes, 0) << "the test no longer reaches the double recompute";
    EXPECT_LT(s.recomputes, (int64_t)tasks.size()) << "the test no longer shares in float";
    check_all(b, 1e-5);
}

// GKL's conformance vectors (GATK's expected values) with reads and haplotypes deduplicated,
// so the reads that occur with several haplotypes run shared; 1e-5 as GKL's own test.
TEST_P(PairHmmPrefix, GklConformanceFile)
{
    std::ifstream in(std::string(DPA_TEST_DATA_DIR) + "/pairhmm/gkl-pairhmm-testdata.txt");
    ASSERT_TRUE(in) << DPA_TEST_DATA_DIR << "/pairhmm/gkl-pairhmm-testdata.txt is missing";
    Batch b;
    std::map<std::string, int32_t> read_id, hap_id;
    std::vector<dpa_phmm_task> tasks;
    std::vector<double> expected;
    std::string line;
    while (std::getline(in, line)) {
        if (line.empty() || line[0] == '#') continue;
        std::istringstream ss(line);
        std::string hap, read, q, ins, del, gcp;
        double e;
        ss >> hap >> read >> q >> ins >> del >> gcp >> e;
        const std::string key = read + " " + q + " " + ins + " " + del + " " + gcp;
        if (!read_id.count(key)) {
            Read r;
            r.bases = read;
            for (size_t i = 0; i < read.size(); i++) {
                r.q.push_back((uint8_t)std::max(6, q[i] - 33));
                r.ins.push_back((uint8_t)(ins[i] - 33));
                r.del.push_back((uint8_t)(del[i] - 33));
                r.gcp.push_back((uint8_t)(gcp[i] - 33));
            }
            read_id[key] = (int32_t)b.reads.size();
            b.reads.push_back(r);
        }
        if (!hap_id.count(hap)) {
            hap_id[hap] = (int32_t)b.haps.size();
            b.haps.push_back(hap);
        }
        tasks.push_back({read_id[key], hap_id[hap], (int64_t)expected.size()});
        expected.push_back(e);
    }
    ASSERT_GT(expected.size(), 100u);
    ASSERT_LT(b.reads.size(), expected.size()) << "no read repeats: nothing would be shared";
    for (int32_t prec : {DPA_PRECISION_FLOAT_THEN_DOUBLE, DPA_PRECISION_DOUBLE}) {
        Result s = run(GetParam().shared, b, tasks, prec);
        for (size_t i = 0; i < expected.size(); i++) EXPECT_NEAR(s.out[i], expected[i], 1e-5) << "line " << i;
    }
}

INSTANTIATE_TEST_SUITE_P(Isa, PairHmmPrefix, ::testing::ValuesIn(kCases),
                         [](const ::testing::TestParamInfo<Case> &i) { return std::string(i.param.name); });

}  // namespace

namespace {

// Through dpa_pairhmm_compute on the CPU backend: DPACCEL_PAIRHMM_PREFIX=1 (the default)
// and =0 give bit-identical results for several regions at 1 and 2 threads, and the stats
// say what was computed (fewer cells with sharing, all of them without).
TEST(PairHmmPrefixEngine, KnobOnAndOffAgreeBitwiseAndStatsCountCells)
{
    const uint64_t seed = dpa_test::test_seed();
    SCOPED_TRACE("DPA_TEST_SEED=" + std::to_string(seed));
    std::mt19937_64 rng(seed);
    Batch b;
    for (int g = 0; g < 5; g++)
        make_region(rng, b, 4 + (int)(rng() % 12), 20 + (int)(rng() % 40), 250 + (int)(rng() % 150), 150);
    const char *saved = getenv("DPACCEL_PAIRHMM_PREFIX");
    const std::string keep = saved ? saved : "";
    auto run = [&](const char *knob, int threads, int precision, dpa_pairhmm_stats *st) {
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
        p.precision = precision;
        EXPECT_EQ(dpa_pairhmm_compute(ctx, &v, &p, out.data(), (int64_t)out.size(), st), DPA_OK)
            << dpa_last_error();
        dpa_context_destroy(ctx);
        return out;
    };
    for (int precision : {DPA_PRECISION_FLOAT_THEN_DOUBLE, DPA_PRECISION_DOUBLE}) {
        dpa_pairhmm_stats off_st, on_st, on2_st;
        std::vector<double> off = run("0", 1, precision, &off_st);
        std::vector<double> on = run("1", 1, precision, &on_st);
        std::vector<double> on2 = run("1", 2, precision, &on2_st);
        ASSERT_EQ(off.size(), on.size());
        EXPECT_EQ(std::memcmp(off.data(), on.data(), off.size() * sizeof(double)), 0);
        EXPECT_EQ(std::memcmp(off.data(), on2.data(), off.size() * sizeof(double)), 0);
        EXPECT_EQ(off_st.cells_computed, off_st.cells);
        EXPECT_EQ(on_st.cells, off_st.cells);
        EXPECT_EQ(on_st.pairs, off_st.pairs);
        EXPECT_EQ(on_st.double_recomputes, off_st.double_recomputes);
        EXPECT_LT(on_st.cells_computed, on_st.cells) << "nothing was shared";
        // chunking depends on the thread count, so lane groups (and what they share) do too
        EXPECT_LT(on2_st.cells_computed, on2_st.cells);
        // =2 shares across lengths: within tolerance of the plain kernel, fewer cells
        dpa_pairhmm_stats x_st;
        std::vector<double> across = run("2", 2, precision, &x_st);
        for (size_t i = 0; i < off.size(); i++) EXPECT_NEAR(across[i], off[i], 1e-5) << i;
        EXPECT_LT(x_st.cells_computed, on2_st.cells_computed);
        // and against the independent long-double reference (first group, read-major)
        for (int32_t r = 0; r < b.group_reads[0]; r++)
            for (int32_t h = 0; h < b.group_haps[0]; h++)
                EXPECT_NEAR(on[(size_t)r * b.group_haps[0] + h],
                            dpa_test::reference_log10(b.reads[r], b.haps[h]), 1e-5);
    }
    if (saved) setenv("DPACCEL_PAIRHMM_PREFIX", keep.c_str(), 1);
    else unsetenv("DPACCEL_PAIRHMM_PREFIX");
}

}  // namespace
