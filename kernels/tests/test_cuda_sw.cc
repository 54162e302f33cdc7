// test_cuda_sw.cc — the CUDA Smith-Waterman (ops->sw) against the scalar reference
// (dpa_sw_align_scalar, GATK-exact): byte-identical CIGAR and alignment offset, and the same
// exact-substring count, on every pair. Random GATK-shaped pairs with a fresh seed per run
// (printed on failure, DPA_TEST_SEED=N reruns it) over the four overhang strategies and
// GATK's parameter sets; strip-boundary and long lengths; edge cases; chunking; faults.
// Skips loudly on machines without a usable GPU.
#include <algorithm>
#include <cstring>

#include "cuda_test_util.h"
#include "sw_gen.h"

using namespace dpa_cuda_test;
using namespace dpa_swgen;

namespace {

struct GpuOut {
    std::vector<Result> res;
    int64_t exact = -1;
    dpa_status st = DPA_OK;
    std::string err;
};

// All pairs on device 0, in a shuffled order (the kernel must not depend on it), or sorted
// by cells, largest first, as the engine hands them over: neighbours then have close shapes
// and most run as twins (two pairs per fill, sw_twin.cuh).
GpuOut run_gpu(Backend &bk, const Pairs &p, const dpa_sw_params &sp, std::mt19937_64 &rng,
               bool sorted = false)
{
    SwBatch sb(p);
    dpa_sw_batch b = sb.view();
    std::vector<int64_t> slots(p.size());
    int64_t cap = 0;
    for (size_t i = 0; i < p.size(); i++) {
        slots[i] = cap;
        cap += dpa_sw_cigar_max(sb.rl[i], sb.al[i]);
    }
    std::vector<int32_t> order(p.size());
    for (size_t i = 0; i < p.size(); i++) order[i] = (int32_t)i;
    std::shuffle(order.begin(), order.end(), rng);
    if (sorted)
        std::stable_sort(order.begin(), order.end(), [&](int32_t x, int32_t y) {
            return (int64_t)p[x].first.size() * p[x].second.size() >
                   (int64_t)p[y].first.size() * p[y].second.size();
        });
    std::string cig((size_t)cap, '?');
    std::vector<int32_t> len(p.size(), -1), off(p.size(), -7);
    GpuOut g;
    char err[512] = "";
    g.st = dpa_cuda_sw_of(bk.ops)->run(bk.b, 0, &b, &sp, order.data(), (int64_t)order.size(), &cig[0],
                      slots.data(), len.data(), off.data(), &g.exact, err, sizeof err);
    g.err = err;
    if (g.st != DPA_OK) return g;
    for (size_t i = 0; i < p.size(); i++)
        g.res.push_back({ len[i] < 0 ? std::string("<unset>") : cig.substr((size_t)slots[i], (size_t)len[i]),
                          off[i] });
    return g;
}

// GPU vs scalar on every pair; returns the number of differences (first few reported).
int64_t compare(Backend &bk, const Pairs &p, const Params &prm, int ov, const char *what,
                std::mt19937_64 &rng, bool sorted = false)
{
    dpa_sw_params sp = make_params(prm, ov);
    Pairs in;
    for (const auto &x : p) // kernels only ever see validated pairs
        if (dpa_sw_check_pair(0, (int32_t)x.first.size(), (int32_t)x.second.size(), &sp) == DPA_OK)
            in.push_back(x);
    int64_t exact = 0;
    std::vector<Result> want = scalar_results(in, sp, &exact);
    GpuOut got = run_gpu(bk, in, sp, rng, sorted);
    EXPECT_EQ(got.st, DPA_OK) << got.err;
    if (got.st != DPA_OK) return (int64_t)in.size();
    EXPECT_EQ(got.exact, exact) << what << ": exact-substring count";
    int64_t bad = 0;
    for (size_t i = 0; i < in.size(); i++) {
        if (got.res[i] == want[i]) continue;
        if (bad++ < 5) {
            const std::string &r = in[i].first, &a = in[i].second;
            ADD_FAILURE() << what << ": params " << prm.match << "/" << prm.mismatch << "/"
                          << prm.open << "/" << prm.extend << " overhang " << ov << " lengths "
                          << r.size() << " x " << a.size() << "\n  ref " << r.substr(0, 300)
                          << "\n  alt " << a.substr(0, 300) << "\n  scalar " << want[i].cigar
                          << " @ " << want[i].offset << "\n  gpu    " << got.res[i].cigar << " @ "
                          << got.res[i].offset;
        }
    }
    return bad;
}

class CudaSw : public ::testing::Test {
  protected:
    void SetUp() override
    {
        if (!bk.b)
            GTEST_SKIP() << "\n*** NO USABLE GPU: CUDA test SKIPPED (not run, not passed): "
                         << bk.why << " ***";
        seed = dpa_test::test_seed();
        rng.seed(seed);
    }
    Backend bk;
    uint64_t seed = 0;
    std::mt19937_64 rng;
};

#define SEED_TRACE() SCOPED_TRACE("DPA_TEST_SEED=" + std::to_string(seed) + " reruns it")

TEST_F(CudaSw, HaplotypeToReferenceAllStrategies)
{
    SEED_TRACE();
    Pairs p = hap_to_ref(rng, 400);
    for (int ov = 0; ov < 4; ov++) EXPECT_EQ(compare(bk, p, NEW_SW, ov, "hap-to-ref", rng), 0);
}

TEST_F(CudaSw, ReadsToHaplotypesAllStrategies)
{
    SEED_TRACE();
    Pairs p = reads_to_hap(rng, 3000);
    for (int ov = 0; ov < 4; ov++) EXPECT_EQ(compare(bk, p, READ_TO_HAP, ov, "read-to-hap", rng), 0);
}

TEST_F(CudaSw, DanglingEndsAllStrategies)
{
    SEED_TRACE();
    Pairs p = dangling(rng, 2000);
    for (int ov = 0; ov < 4; ov++) EXPECT_EQ(compare(bk, p, STANDARD_NGS, ov, "dangling", rng), 0);
}

// The twin fill (two pairs per fill in 16-bit halves) on pairs sorted as the engine sends
// them, so nearly every pair is half of a twin: GATK's shapes and parameter sets, tie-heavy
// alphabets, unequal twins (one pair's rows / columns past the other's), all strategies.
TEST_F(CudaSw, TwinFillSortedPairs)
{
    SEED_TRACE();
    Pairs h = hap_to_ref(rng, 600), r = reads_to_hap(rng, 2000), d = dangling(rng, 1000);
    Pairs mixed;
    const char *alphabets[] = { "ACGT", "AC", "A", "ACGTN" };
    for (int k = 0; k < 800; k++) {
        const char *alpha = alphabets[rng() % 4];
        const int n = 1 + (int)(rng() % 600), m = 1 + (int)(rng() % 600);
        std::string ref = dpa_test::random_bases(rng, n, alpha);
        mixed.push_back({ ref, (rng() % 3 == 0) ? mutate(rng, ref, 2, 2, 6)
                                                : dpa_test::random_bases(rng, m, alpha) });
    }
    for (int ov = 0; ov < 4; ov++) {
        EXPECT_EQ(compare(bk, h, NEW_SW, ov, "twin hap-to-ref", rng, true), 0);
        EXPECT_EQ(compare(bk, r, READ_TO_HAP, ov, "twin read-to-hap", rng, true), 0);
        EXPECT_EQ(compare(bk, d, STANDARD_NGS, ov, "twin dangling", rng, true), 0);
        for (const Params &prm : GATK_SETS)
            EXPECT_EQ(compare(bk, mixed, prm, ov, "twin mixed", rng, true), 0);
    }
}

TEST_F(CudaSw, MixedShapesAllParametersAllStrategies)
{
    SEED_TRACE();
    const char *alphabets[] = { "ACGT", "AC", "A", "ACGTN" };
    Pairs p;
    for (int k = 0; k < 600; k++) {
        const char *alpha = alphabets[rng() % 4];
        const int n = 1 + (int)(rng() % 300), m = 1 + (int)(rng() % 300);
        std::string ref = dpa_test::random_bases(rng, n, alpha);
        p.push_back({ ref, (rng() % 3 == 0) ? mutate(rng, ref, 2, 2, 6)
                                            : dpa_test::random_bases(rng, m, alpha) });
    }
    std::vector<Params> sets(std::begin(GATK_SETS), std::end(GATK_SETS));
    sets.insert(sets.end(), std::begin(ODD_SETS), std::end(ODD_SETS));
    for (const Params &prm : sets)
        for (int ov = 0; ov < 4; ov++) EXPECT_EQ(compare(bk, p, prm, ov, "mixed", rng), 0);
}

// Lengths around the strip geometry (32 lanes x 1..8 rows, 256-row strips) and the lengths
// the brief names (1023, 1024, 1025, 4096).
TEST_F(CudaSw, StripBoundaryAndLongLengths)
{
    SEED_TRACE();
    const int lens[] = { 1, 2, 31, 32, 33, 63, 64, 65, 255, 256, 257, 288, 289, 511, 512, 513 };
    Pairs p;
    for (int n : lens)
        for (int m : lens) {
            std::string ref = dpa_test::random_bases(rng, n, (rng() & 1) ? "ACGT" : "AC");
            p.push_back({ ref, dpa_test::random_bases(rng, m, (rng() & 1) ? "ACGT" : "AC") });
            if (n == m) p.push_back({ ref, mutate(rng, ref, 2, 1, 3) });
        }
    const int big[] = { 1, 17, 1023, 1024, 1025, 2048, 2049, 4096 };
    for (int n : big)
        for (int m : big) {
            std::string ref = repetitive(rng, n);
            p.push_back({ ref, n == m ? mutate(rng, ref, 5, 3, 20) : repetitive(rng, m) });
        }
    for (int ov = 0; ov < 4; ov++)
        for (const Params &prm : GATK_SETS) EXPECT_EQ(compare(bk, p, prm, ov, "lengths", rng), 0);
}

TEST_F(CudaSw, EdgeCases)
{
    SEED_TRACE();
    Pairs p;
    for (int len : { 1, 2, 15, 16, 17, 100, 333, 700 }) {
        std::string s = dpa_test::random_bases(rng, len);
        p.push_back({ s, s });                                                     // identical
        p.push_back({ std::string((size_t)len, 'A'), std::string((size_t)len + 3, 'C') }); // all mismatches
        p.push_back({ std::string((size_t)len, 'A'), std::string((size_t)len, 'A') });     // homopolymer
        std::string big = dpa_test::random_bases(rng, len + 120);
        p.push_back({ big, big.substr(100) });                     // long deletion at the start
        p.push_back({ big, big.substr(0, big.size() - 100) });     // long deletion at the end
        p.push_back({ big.substr(100), big });                     // long insertion at the start
        p.push_back({ big.substr(0, big.size() - 100), big });     // long insertion at the end
        p.push_back({ std::string(10, 'N') + s + std::string(10, 'N'), s }); // N padding
        p.push_back({ s, std::string(10, 'N') + s + std::string(10, 'N') });
    }
    p.push_back({ "A", "A" });
    p.push_back({ "A", "C" });
    p.push_back({ "A", "CA" });
    for (const Params &prm : GATK_SETS)
        for (int ov = 0; ov < 4; ov++) EXPECT_EQ(compare(bk, p, prm, ov, "edge", rng), 0);
}

// Alternates with 1 to 255 distinct bytes: up to 6 take the shared-memory substitution table
// (sw_kernels.cu, SW_KMAX), more the compare-and-select cells; references with bytes the
// alternate lacks (rows that never match), and every rows-per-lane count.
TEST_F(CudaSw, AlphabetSizesAroundTheSubstitutionTable)
{
    SEED_TRACE();
    std::string all;
    for (int b = 1; b < 256; b++) all += (char)b;
    const std::string alphabets[] = { "A", "ACGTN", "ACGTNa", "ACGTNab", "ACDEFGHIKLMNPQRSTVWY", all };
    Pairs p;
    for (const std::string &a : alphabets)
        for (int n : { 7, 40, 200, 300, 700, 1100 })
            for (int m : { 5, 150, 333, 900 }) {
                std::string ref = dpa_test::random_bases(rng, n, a.c_str());
                p.push_back({ ref, dpa_test::random_bases(rng, m, a.c_str()) });
                std::string alt = ref.substr(0, std::min<size_t>(ref.size(), (size_t)m));
                for (size_t k = 0; k < alt.size(); k += 7) alt[k] = a[rng() % a.size()];
                p.push_back({ ref, alt });
                p.push_back({ dpa_test::random_bases(rng, n, "ACDEFGHIKLMNPQRSTVWY"),
                              dpa_test::random_bases(rng, m, a.c_str()) });
            }
    for (const Params &prm : { NEW_SW, ORIGINAL_DEFAULT, READ_TO_HAP })
        for (int ov = 0; ov < 4; ov++) EXPECT_EQ(compare(bk, p, prm, ov, "alphabets", rng), 0);
}

// Penalties that drive cells to MATRIX_MIN_CUTOFF while the score bound still admits them.
TEST_F(CudaSw, MatrixMinCutoff)
{
    SEED_TRACE();
    const Params sets[] = { { 1, -20000000, -20000000, -20000000 },
                            { 1, -30000000, -5000000, -25000000 },
                            { 30000000, -30000000, -1000000, -1000000 } };
    Pairs p;
    for (int k = 0; k < 300; k++)
        p.push_back({ dpa_test::random_bases(rng, 1 + (int)(rng() % 12), "AC"),
                      dpa_test::random_bases(rng, 1 + (int)(rng() % 12), "AC") });
    for (const Params &prm : sets)
        for (int ov = 0; ov < 4; ov++) EXPECT_EQ(compare(bk, p, prm, ov, "cutoff", rng), 0);
}

// A tiny chunk budget: many chunks per call, and pairs larger than the budget alone.
TEST(CudaSwChunks, TinyBudgetSplitsAndMatches)
{
    ScopedEnv env("DPACCEL_CUDA_CHUNK_BYTES", std::to_string(1 << 20));
    Backend bk;
    DPA_REQUIRE_GPU(bk);
    uint64_t seed = dpa_test::test_seed();
    SCOPED_TRACE("DPA_TEST_SEED=" + std::to_string(seed));
    std::mt19937_64 rng(seed);
    Pairs p = hap_to_ref(rng, 60);
    Pairs r = reads_to_hap(rng, 400);
    p.insert(p.end(), r.begin(), r.end());
    std::string big = repetitive(rng, 4096);
    p.push_back({ big, mutate(rng, big, 10, 4, 30) }); // ~8 MB of traceback > the budget
    EXPECT_EQ(compare(bk, p, NEW_SW, DPA_SW_OVERHANG_INDEL, "chunks", rng), 0);
    EXPECT_EQ(compare(bk, p, READ_TO_HAP, DPA_SW_OVERHANG_SOFTCLIP, "chunks", rng), 0);
}

// A grid of 3 warps: each warp aligns many pairs of different shapes one after another in
// the same workspace (sized for the largest), so whatever a pair leaves in the traceback,
// scratch or shared table must not leak into the next one's result.
TEST(CudaSwGrid, FewWarpsReuseTheirWorkspace)
{
    ScopedEnv env("DPACCEL_SW_GRID_WARPS", "3");
    Backend bk;
    DPA_REQUIRE_GPU(bk);
    uint64_t seed = dpa_test::test_seed();
    SCOPED_TRACE("DPA_TEST_SEED=" + std::to_string(seed));
    std::mt19937_64 rng(seed);
    Pairs p = hap_to_ref(rng, 40);
    Pairs r = reads_to_hap(rng, 150);
    p.insert(p.end(), r.begin(), r.end());
    Pairs d = dangling(rng, 40);
    p.insert(p.end(), d.begin(), d.end());
    std::string big = repetitive(rng, 2100);
    p.push_back({ big, mutate(rng, big, 10, 4, 30) });
    p.push_back({ big.substr(300, 500), big });  // exact substring in one orientation
    p.push_back({ big, big.substr(700, 64) });
    for (int ov = 0; ov < 4; ov++) {
        EXPECT_EQ(compare(bk, p, NEW_SW, ov, "3 warps", rng), 0);
        EXPECT_EQ(compare(bk, p, READ_TO_HAP, ov, "3 warps", rng), 0);
    }
}

// The largest pair the API admits (65536 x 16384 = 2^30 cells), both orientations.
TEST_F(CudaSw, MaximumPair)
{
    SEED_TRACE();
    std::string ref = repetitive(rng, 65536);
    std::string alt = mutate(rng, ref.substr(20000, 16384), 30, 6, 40);
    /* net insertions would push the pair past 2^30 cells, and compare() drops invalid pairs */
    if (alt.size() > 16384) alt.resize(16384);
    dpa_sw_params vp = make_params(NEW_SW, DPA_SW_OVERHANG_SOFTCLIP);
    ASSERT_EQ(dpa_sw_check_pair(0, (int32_t)ref.size(), (int32_t)alt.size(), &vp), DPA_OK);
    Pairs p = { { ref, alt } };
    EXPECT_EQ(compare(bk, p, NEW_SW, DPA_SW_OVERHANG_SOFTCLIP, "max pair", rng), 0);
    Pairs q = { { alt, ref } };
    EXPECT_EQ(compare(bk, q, NEW_SW, DPA_SW_OVERHANG_INDEL, "max pair transposed", rng), 0);
}

TEST_F(CudaSw, EmptyCallAndBadArguments)
{
    SwBatch sb(Pairs{ { "ACGT", "ACG" } });
    dpa_sw_batch b = sb.view();
    dpa_sw_params sp = make_params(NEW_SW, DPA_SW_OVERHANG_SOFTCLIP);
    int64_t exact = -1, slot = 0;
    int32_t len = 0, off = 0, pair = 0;
    char cig[16], err[256] = "";
    EXPECT_EQ(dpa_cuda_sw_of(bk.ops)->run(bk.b, 0, &b, &sp, &pair, 0, cig, &slot, &len, &off, &exact, err, sizeof err), DPA_OK);
    EXPECT_EQ(exact, 0);
    EXPECT_EQ(dpa_cuda_sw_of(bk.ops)->run(bk.b, 7, &b, &sp, &pair, 1, cig, &slot, &len, &off, &exact, err, sizeof err),
              DPA_ERR_INVALID_ARG);
    EXPECT_NE(std::strstr(err, "device 7"), nullptr) << err;
    EXPECT_EQ(dpa_cuda_sw_of(bk.ops)->run(bk.b, 0, &b, &sp, &pair, 1, nullptr, &slot, &len, &off, &exact, err, sizeof err),
              DPA_ERR_NULL_ARG);
    sp.overhang = 4;
    EXPECT_EQ(dpa_cuda_sw_of(bk.ops)->run(bk.b, 0, &b, &sp, &pair, 1, cig, &slot, &len, &off, &exact, err, sizeof err),
              DPA_ERR_INVALID_ARG);
}

TEST_F(CudaSw, InjectedFaults)
{
    Pairs p = dangling(rng, 50);
    EXPECT_EQ(compare(bk, p, STANDARD_NGS, 0, "before fault", rng), 0);
    dpa_sw_params sp = make_params(STANDARD_NGS, 0);
    ASSERT_EQ(bk.ops->inject_fault(bk.b, 0, DPA_CUDA_FAULT_OOM), DPA_OK);
    GpuOut g = run_gpu(bk, p, sp, rng);
    EXPECT_EQ(g.st, DPA_ERR_OUT_OF_MEMORY);
    EXPECT_NE(g.err.find("out of memory"), std::string::npos) << g.err;
    EXPECT_EQ(compare(bk, p, STANDARD_NGS, 0, "after OOM", rng), 0);
    ASSERT_EQ(bk.ops->inject_fault(bk.b, 0, DPA_CUDA_FAULT_STICKY), DPA_OK);
    g = run_gpu(bk, p, sp, rng);
    EXPECT_EQ(g.st, DPA_ERR_DEVICE);
    dpa_device_info info;
    ASSERT_EQ(bk.ops->device_info(bk.b, 0, &info), DPA_OK);
    EXPECT_EQ(info.usable, 0);
    g = run_gpu(bk, p, sp, rng);
    EXPECT_EQ(g.st, DPA_ERR_DEVICE);
    EXPECT_NE(g.err.find("retired"), std::string::npos) << g.err;
}

}  // namespace
