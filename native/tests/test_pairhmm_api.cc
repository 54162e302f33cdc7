// PairHMM through the public API: the ISA chosen by the context (CTest runs this suite
// once per ISA), groups and result order, threads, determinism, the GKL conformance file.
#include <gtest/gtest.h>

#include <cmath>
#include <fstream>
#include <sstream>
#include <atomic>
#include <cstring>
#include <thread>
#if defined(__x86_64__) || defined(__i386__)
#include <xmmintrin.h>
#endif

#include "test_util.h"

using namespace dpa_test;

namespace {

struct Ctx {
    dpa_context *ctx = nullptr;
    explicit Ctx(int threads = 0, int backend = DPA_BACKEND_CPU)
    {
        dpa_options o;
        dpa_options_init(&o);
        o.num_threads = threads;
        o.backend = backend;
        EXPECT_EQ(dpa_context_create(&o, &ctx), DPA_OK) << dpa_last_error();
    }
    ~Ctx() { dpa_context_destroy(ctx); }
};

std::vector<double> compute(dpa_context *ctx, Batch &b, int precision = DPA_PRECISION_FLOAT_THEN_DOUBLE,
                            dpa_pairhmm_stats *stats = nullptr)
{
    dpa_pairhmm_batch v = b.view();
    std::vector<double> out((size_t)b.results(), NAN);
    dpa_pairhmm_params p;
    dpa_pairhmm_params_init(&p);
    p.precision = precision;
    EXPECT_EQ(dpa_pairhmm_compute(ctx, &v, &p, out.data(), (int64_t)out.size(), stats), DPA_OK)
        << dpa_last_error();
    return out;
}

// A few GATK-shaped regions in one batch, plus edge cases.
Batch regions(std::mt19937_64 &rng, int groups)
{
    Batch b;
    for (int g = 0; g < groups; g++) {
        int nh = 1 + (int)(rng() % 4), nr = 1 + (int)(rng() % 30);
        std::string ref = random_bases(rng, 250 + (int)(rng() % 251));
        for (int h = 0; h < nh; h++) {
            std::string hap = ref;
            hap[rng() % hap.size()] = "ACGT"[rng() % 4];
            b.haps.push_back(hap);
        }
        for (int r = 0; r < nr; r++) b.reads.push_back(gatk_read(rng, ref, 150));
        b.group_reads.push_back(nr);
        b.group_haps.push_back(nh);
    }
    return b;
}

}  // namespace

TEST(PairHmmApi, ContextReportsItsChoices)
{
    Ctx c(3);
    dpa_isa isa;
    int32_t threads, devices;
    ASSERT_EQ(dpa_context_isa(c.ctx, &isa), DPA_OK);
    ASSERT_EQ(dpa_context_threads(c.ctx, &threads), DPA_OK);
    ASSERT_EQ(dpa_context_device_count(c.ctx, &devices), DPA_OK);
    EXPECT_EQ(threads, 3);
    EXPECT_EQ(devices, 0);  // CTest sets DPACCEL_GPU_DISABLE=1 and the backend is CPU
    char line[1024];
    ASSERT_EQ(dpa_context_describe(c.ctx, line, sizeof line), DPA_OK);
    EXPECT_NE(std::string(line).find(dpa_isa_name(isa)), std::string::npos) << line;
    const char *disable = std::getenv("DPACCEL_CPU_DISABLE");
    if (disable && std::string(disable).find("avx512") != std::string::npos) {
        EXPECT_NE(isa, DPA_ISA_AVX512);
    }
    if (disable && std::string(disable).find("avx2") != std::string::npos) {
        EXPECT_EQ(isa, DPA_ISA_SCALAR);
    }
}

TEST(PairHmmApi, MatchesIndependentReferenceInCallerOrder)
{
    uint64_t seed = test_seed();
    SCOPED_TRACE("DPA_TEST_SEED=" + std::to_string(seed));
    std::mt19937_64 rng(seed);
    Batch b = regions(rng, 5);
    // edge cases in their own groups: length 1, read longer than hap, N, quality extremes
    b.reads.push_back(random_read(rng, 1, 0, 127));
    b.haps.push_back("N");
    b.haps.push_back(random_bases(rng, 7, "ACGTN"));
    b.group_reads.push_back(1);
    b.group_haps.push_back(2);
    Read longr = random_read(rng, 300, 6, 60);
    b.reads.push_back(longr);
    b.reads.push_back(random_read(rng, 33, 127, 127));
    b.reads.push_back(random_read(rng, 40, 0, 0));
    b.haps.push_back(random_bases(rng, 40));
    b.group_reads.push_back(3);
    b.group_haps.push_back(1);

    Ctx c(2);
    std::vector<double> got = compute(c.ctx, b);
    size_t k = 0, r0 = 0, h0 = 0;
    for (size_t g = 0; g < b.group_reads.size(); g++) {
        for (int r = 0; r < b.group_reads[g]; r++)
            for (int h = 0; h < b.group_haps[g]; h++, k++) {
                double want = reference_log10(b.reads[r0 + r], b.haps[h0 + h]);
                const Read &rd = b.reads[r0 + r];
                if (std::isnan(want) || std::isinf(want)) {
                    EXPECT_TRUE(near_or_same_special(got[k], want, 0)) << "result " << k;
                } else if (want < -600) {
                    // the double sum is subnormal or zero here (GATK's Java alike): the
                    // exact range IEEE rounding allows (-Infinity where it may reach 0)
                    EXPECT_TRUE(double_path_tiny(got[k], want, (int)rd.bases.size(),
                                                 (int)b.haps[h0 + h].size()))
                        << "result " << k;
                } else {
                    double tol = b.reads[r0 + r].bases.size() == 150 ? 1e-5 : 1e-4;
                    ASSERT_NEAR(got[k], want, tol) << "group " << g << " read " << r << " hap " << h;
                }
            }
        r0 += b.group_reads[g];
        h0 += b.group_haps[g];
    }
    EXPECT_EQ(k, got.size());
}

TEST(PairHmmApi, DeterministicAcrossThreadCountsAndRuns)
{
    uint64_t seed = test_seed();
    SCOPED_TRACE("DPA_TEST_SEED=" + std::to_string(seed));
    std::mt19937_64 rng(seed);
    Batch b = regions(rng, 12);
    Ctx one(1), two(2), eight(8);
    std::vector<double> a = compute(one.ctx, b), c = compute(two.ctx, b), d = compute(eight.ctx, b),
                        e = compute(eight.ctx, b);
    for (size_t i = 0; i < a.size(); i++) {
        ASSERT_EQ(std::memcmp(&a[i], &c[i], sizeof(double)), 0) << i;
        ASSERT_EQ(std::memcmp(&a[i], &d[i], sizeof(double)), 0) << i;
        ASSERT_EQ(std::memcmp(&d[i], &e[i], sizeof(double)), 0) << i;
    }
}

TEST(PairHmmApi, DoublePrecisionAndStats)
{
    uint64_t seed = test_seed();
    SCOPED_TRACE("DPA_TEST_SEED=" + std::to_string(seed));
    std::mt19937_64 rng(seed);
    Batch b = regions(rng, 2);
    // plus a pair whose float sum underflows
    Read under;
    under.bases = std::string(30, 'C');
    under.q.assign(30, 40), under.ins.assign(30, 90), under.del.assign(30, 90), under.gcp.assign(30, 60);
    b.reads.push_back(under);
    b.haps.push_back(std::string(40, 'A'));
    b.group_reads.push_back(1), b.group_haps.push_back(1);
    Ctx c(2);
    dpa_pairhmm_stats st;
    std::vector<double> f = compute(c.ctx, b, DPA_PRECISION_FLOAT_THEN_DOUBLE, &st);
    EXPECT_EQ(st.pairs, b.results());
    EXPECT_GE(st.double_recomputes, 1);
    EXPECT_EQ(st.gpu_pairs, 0);
    std::vector<double> d = compute(c.ctx, b, DPA_PRECISION_DOUBLE, &st);
    EXPECT_EQ(st.double_recomputes, 0);
    for (size_t i = 0; i < f.size(); i++) EXPECT_NEAR(f[i], d[i], 1e-4) << i;
    EXPECT_NEAR(d.back(), reference_log10(under, std::string(40, 'A')), 1e-9 * 100);
}

// MXCSR is x86's; elsewhere the kernels leave the floating-point environment alone.
#if defined(__x86_64__) || defined(__i386__)
TEST(PairHmmApi, CallerFloatingPointModeIsRestored)
{
    std::mt19937_64 rng(1);
    Batch b = regions(rng, 2);
    Ctx c(2);
    const unsigned before = _mm_getcsr();
    _mm_setcsr(before & ~0x8040u);  // caller without FTZ/DAZ
    const unsigned plain = _mm_getcsr() & ~0x3fu;
    compute(c.ctx, b);
    EXPECT_EQ(_mm_getcsr() & ~0x3fu, plain);
    _mm_setcsr(plain | 0x8040u);  // caller with FTZ/DAZ
    compute(c.ctx, b, DPA_PRECISION_DOUBLE);
    EXPECT_EQ(_mm_getcsr() & ~0x3fu, plain | 0x8040u);
    _mm_setcsr(before);
}
#endif

TEST(PairHmmApi, ConcurrentCallersOnOneContext)
{
    std::mt19937_64 rng(7);
    Batch b = regions(rng, 6);
    Ctx c(4);
    std::vector<double> want = compute(c.ctx, b);
    std::vector<std::thread> threads;
    std::atomic<int> bad{0};
    for (int t = 0; t < 6; t++)
        threads.emplace_back([&] {
            Batch mine = b;
            for (int rep = 0; rep < 5; rep++)
                if (compute(c.ctx, mine) != want) bad++;
        });
    for (auto &t : threads) t.join();
    EXPECT_EQ(bad.load(), 0);
}

// GKL's conformance vectors (test-data/pairhmm/gkl-pairhmm-testdata.txt, GATK's expected
// values; origin in test-data/pairhmm/README.md): base qualities floored at 6 as GATK's
// caller does; 1e-5 as GKL's own test. The file is committed, so it is never skipped.
TEST(PairHmmApi, GklConformanceFile)
{
    std::ifstream in(std::string(DPA_TEST_DATA_DIR) + "/pairhmm/gkl-pairhmm-testdata.txt");
    ASSERT_TRUE(in) << DPA_TEST_DATA_DIR << "/pairhmm/gkl-pairhmm-testdata.txt is missing";
    Batch b;
    std::vector<double> expected;
    std::string line;
    while (std::getline(in, line)) {
        if (line.empty() || line[0] == '#') continue;
        std::istringstream ss(line);
        std::string hap, read, q, ins, del, gcp;
        double e;
        ss >> hap >> read >> q >> ins >> del >> gcp >> e;
        Read r;
        r.bases = read;
        for (size_t i = 0; i < read.size(); i++) {
            r.q.push_back((uint8_t)std::max(6, q[i] - 33));
            r.ins.push_back((uint8_t)(ins[i] - 33));
            r.del.push_back((uint8_t)(del[i] - 33));
            r.gcp.push_back((uint8_t)(gcp[i] - 33));
        }
        b.reads.push_back(r);
        b.haps.push_back(hap);
        b.group_reads.push_back(1);
        b.group_haps.push_back(1);
        expected.push_back(e);
    }
    ASSERT_GT(expected.size(), 100u);
    Ctx c(2);
    std::vector<double> got = compute(c.ctx, b);
    for (size_t i = 0; i < got.size(); i++) EXPECT_NEAR(got[i], expected[i], 1e-5) << "line " << i;
}

// More than 8192 pairs takes the engine's radix-sort path (smaller batches use qsort):
// every result still lands in its own slot.
TEST(PairHmmApi, LargeBatchRadixPathKeepsCallerOrder)
{
    uint64_t seed = test_seed();
    SCOPED_TRACE("DPA_TEST_SEED=" + std::to_string(seed));
    std::mt19937_64 rng(seed);
    Batch b;
    for (int i = 0; i < 120; i++) b.reads.push_back(random_read(rng, 1 + (int)(rng() % 40), 6, 50));
    for (int i = 0; i < 80; i++) b.haps.push_back(random_bases(rng, 1 + (int)(rng() % 60)));
    ASSERT_GT(b.results(), 8192);
    Ctx c(2);
    std::vector<double> got = compute(c.ctx, b);
    for (size_t r = 0; r < b.reads.size(); r++)
        for (size_t h = 0; h < b.haps.size(); h++) {
            double want = reference_log10(b.reads[r], b.haps[h]);
            ASSERT_NEAR(got[r * b.haps.size() + h], want, 1e-4) << "read " << r << " hap " << h;
        }
}

// Large batches check their qualities on the pool, in blocks of reads: the error must be the
// serial check's, naming the FIRST bad read (not whichever block finished first), and the
// output must stay untouched.
TEST(PairHmmApi, BadQualityInALargeBatchNamesTheFirstBadRead)
{
    uint64_t seed = test_seed();
    SCOPED_TRACE("DPA_TEST_SEED=" + std::to_string(seed));
    std::mt19937_64 rng(seed);
    Batch b;
    for (int i = 0; i < 9000; i++) b.reads.push_back(random_read(rng, 1 + (int)(rng() % 20), 6, 50));
    b.haps.push_back(random_bases(rng, 30));
    const int first = 4000 + (int)(rng() % 3000), later = 8500 + (int)(rng() % 400);
    Read &r1 = b.reads[(size_t)first];
    const size_t pos = rng() % r1.del.size();
    r1.del[pos] = 128;
    b.reads[(size_t)later].q[0] = 255;
    for (int threads : { 1, 2, 4 }) {
        SCOPED_TRACE("threads " + std::to_string(threads));
        Ctx c(threads);
        dpa_pairhmm_batch v = b.view();
        std::vector<double> out((size_t)b.results(), 7.0);
        EXPECT_EQ(dpa_pairhmm_compute(c.ctx, &v, nullptr, out.data(), (int64_t)out.size(), nullptr),
                  DPA_ERR_INVALID_ARG);
        EXPECT_EQ(std::string(dpa_last_error()),
                  "pairhmm batch: del_quals of read " + std::to_string(first) + " at position " +
                      std::to_string(pos) + " = 128, must be in [0, 127]");
        for (double x : out) ASSERT_EQ(x, 7.0);
        EXPECT_EQ(dpa_pairhmm_validate(&v), DPA_ERR_INVALID_ARG);
        EXPECT_EQ(std::string(dpa_last_error()),
                  "pairhmm batch: del_quals of read " + std::to_string(first) + " at position " +
                      std::to_string(pos) + " = 128, must be in [0, 127]");
    }
}
