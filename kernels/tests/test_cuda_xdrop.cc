// test_cuda_xdrop.cc — the CUDA X-drop (ops->entry(XDROP)) against the scalar reference
// (dpa_xdrop_compute_scalar, the SeqAn port every CPU kernel equals): all seven outputs of
// every pair and the swept cells equal. Generated long reads and random short shapes with a
// fresh seed per run (DPA_TEST_SEED=N reruns it), X from 0 to 2^30 and five scorings (one
// with mismatch below gap), and the edge cases of issue 21: zero-length seeds, seeds at both
// starts and both ends, 1-bp sequences, a whole-sequence seed, N blocks, IUPAC codes, U and
// lower case, the reverse strand, identical 50 kb reads (scores past 2^15, bands 50 k wide),
// queries and targets in one shared buffer, a subset of pairs in shuffled order; bad
// arguments and injected faults. Skips loudly on machines without a usable GPU.
#include <algorithm>
#include <cstring>
#include <random>

#include "cuda_test_util.h"
#include "xdrop_gen.h"

extern "C" {
#include "cpu/xdrop/xdrop.h"
}

using namespace dpa_cuda_test;

namespace {

struct Out {
    std::vector<int32_t> v[7];
    int64_t cells = 0;
    dpa_status st = DPA_OK;
    std::string err;
    explicit Out(size_t n)
    {
        for (auto &a : v) a.assign(n, -12345);
    }
    dpa_xdrop_output view()
    {
        return { v[0].data(), v[1].data(), v[2].data(), v[3].data(), v[4].data(), v[5].data(), v[6].data() };
    }
};

Out scalar(const dpa_xdrop_batch &b, const dpa_xdrop_params &p, const std::vector<int32_t> &pairs)
{
    Out o((size_t)b.num_pairs);
    const dpa_xdrop_output ov = o.view();
    o.st = dpa_xdrop_compute_scalar(&b, &p, pairs.data(), (int64_t)pairs.size(), &ov, &o.cells);
    return o;
}

Out gpu(Backend &bk, const dpa_xdrop_batch &b, const dpa_xdrop_params &p,
        const std::vector<int32_t> &pairs)
{
    Out o((size_t)b.num_pairs);
    const dpa_xdrop_output ov = o.view();
    char err[512] = "";
    o.st = dpa_cuda_xdrop_of(bk.ops)->run(bk.b, 0, &b, &p, pairs.data(), (int64_t)pairs.size(),
                                          &ov, &o.cells, err, sizeof err);
    o.err = err;
    return o;
}

std::vector<int32_t> all_pairs(int32_t n)
{
    std::vector<int32_t> v((size_t)n);
    for (int32_t i = 0; i < n; i++) v[(size_t)i] = i;
    return v;
}

// GPU against scalar on the given pairs (all by default); returns the differences.
int64_t same(Backend &bk, const dpa_xdrop_batch &b, const dpa_xdrop_params &p, const char *what,
             std::vector<int32_t> pairs = {})
{
    if (pairs.empty()) pairs = all_pairs(b.num_pairs);
    EXPECT_EQ(dpa_xdrop_validate(&b, &p), DPA_OK) << what << ": " << dpa_last_error();
    const Out want = scalar(b, p, pairs);
    EXPECT_EQ(want.st, DPA_OK);
    const Out got = gpu(bk, b, p, pairs);
    EXPECT_EQ(got.st, DPA_OK) << what << ": " << got.err;
    if (got.st != DPA_OK) return (int64_t)pairs.size();
    EXPECT_EQ(got.cells, want.cells) << what << ": swept cells";
    static const char *const names[7] = { "score", "qbeg", "qend", "tbeg", "tend", "left", "right" };
    int64_t bad = 0;
    for (int32_t i = 0; i < b.num_pairs; i++) // pairs not listed must stay untouched on both
        for (int k = 0; k < 7; k++)
            if (got.v[k][(size_t)i] != want.v[k][(size_t)i] && bad++ < 5)
                ADD_FAILURE() << what << ": pair " << i << " " << names[k] << ": scalar "
                              << want.v[k][(size_t)i] << ", GPU " << got.v[k][(size_t)i] << " (X "
                              << p.xdrop << ", " << p.match << "/" << p.mismatch << "/" << p.gap << ")";
    return bad;
}

int64_t same_cases(Backend &bk, const std::vector<xd::Case> &cs, const dpa_xdrop_params &p,
                   const char *what)
{
    const xd::Batch b(cs);
    return same(bk, b.view(), p, what);
}

}  // namespace

TEST(CudaXdrop, EntryIsPresent)
{
    Backend bk;
    const dpa_cuda_xdrop_entry *e = dpa_cuda_xdrop_of(bk.ops);
    ASSERT_NE(e, nullptr);
    EXPECT_EQ(e->header.id, (uint32_t)DPA_CUDA_WORKLOAD_XDROP);
    EXPECT_EQ(e->header.struct_size, (uint32_t)sizeof(dpa_cuda_xdrop_entry));
}

TEST(CudaXdrop, LongReadsMatchScalar)
{
    Backend bk;
    DPA_REQUIRE_GPU(bk);
    const uint64_t seed = dpa_test::test_seed();
    SCOPED_TRACE("DPA_TEST_SEED=" + std::to_string(seed));
    const std::vector<xd::Case> cs = xd::long_read_cases(seed, 12, 3, 8000);
    for (int x : { 0, 10, 100, 1000 }) {
        EXPECT_EQ(same_cases(bk, cs, xd::params(1, -1, -1, x), "long reads +1/-1/-1"), 0);
        EXPECT_EQ(same_cases(bk, cs, xd::params(1, -2, -2, x), "long reads +1/-2/-2"), 0);
        EXPECT_EQ(same_cases(bk, cs, xd::params(2, -3, -1, x), "long reads, mismatch < gap"), 0);
    }
}

TEST(CudaXdrop, RandomShapesMatchScalar)
{
    Backend bk;
    DPA_REQUIRE_GPU(bk);
    const uint64_t seed = dpa_test::test_seed();
    SCOPED_TRACE("DPA_TEST_SEED=" + std::to_string(seed));
    std::mt19937_64 rng(seed);
    std::vector<xd::Case> cs;
    for (int i = 0; i < 600; i++) {
        const int ql = 1 + (int)(rng() % 140), tl = 1 + (int)(rng() % 140);
        std::string q = xd::random_dna(rng, (size_t)ql), t = xd::random_dna(rng, (size_t)tl);
        if (rng() % 2) // t a noisy copy of q where it can be
            for (int k = 0; k < tl && k < ql; k++) t[(size_t)k] = rng() % 8 ? q[(size_t)k] : "NacgtRYu"[rng() % 8];
        const int len = (int)(rng() % (unsigned)(std::min(ql, tl) + 1));
        cs.push_back({ q, t, (int)(rng() % (unsigned)(ql - len + 1)),
                       (int)(rng() % (unsigned)(tl - len + 1)), len, (rng() & 1) != 0 });
    }
    const int scores[][3] = { { 1, -1, -1 }, { 1, -2, -2 }, { 1000, -1000, -1000 },
                              { 3, -1, -2 }, { 1, -1000, -1 }, { 7, -5, -1000 } };
    for (const auto &sc : scores)
        for (int x : { 0, 1, 3, 20, 33, 200, 1 << 30 })
            EXPECT_EQ(same_cases(bk, cs, xd::params(sc[0], sc[1], sc[2], x), "random shapes"), 0);
}

TEST(CudaXdrop, EdgeCasesMatchScalar)
{
    Backend bk;
    DPA_REQUIRE_GPU(bk);
    const uint64_t seed = dpa_test::test_seed();
    SCOPED_TRACE("DPA_TEST_SEED=" + std::to_string(seed));
    std::mt19937_64 rng(seed);
    const std::string a = xd::random_dna(rng, 3000);
    std::string b = a;
    for (size_t k = 0; k < b.size(); k++)
        if (rng() % 20 == 0) b[k] = "ACGT"[rng() % 4];
    std::string nblock = b;
    for (size_t k = 1200; k < 1500; k++) nblock[k] = 'N';
    std::string iupac = a;
    for (size_t k = 0; k < iupac.size(); k += 7) iupac[k] = "RYKMSWbdhvU"[rng() % 11];
    std::string lower = b;
    for (char &c : lower) c = (char)(c | 0x20);
    const std::string big = xd::random_dna(rng, 50000);
    const int n = (int)a.size();
    std::vector<xd::Case> cs = {
        { a, b, 0, 0, 0, false },            // zero-length seed at both starts
        { a, b, n, n, 0, false },            // zero-length seed at both ends
        { a, b, 1500, 1500, 0, true },       // zero-length seed inside, reverse strand
        { a, b, 0, 0, 17, false },           // seed at both starts
        { a, b, n - 17, n - 17, 17, false }, // seed at both ends
        { a, b, 0, 900, 17, false },         // one start
        { a, a, 0, 0, n, false },            // seed = whole sequence
        { "A", "A", 0, 0, 1, false },        // 1-bp sequences
        { "A", "C", 0, 0, 0, false },
        { "A", "A" + a.substr(0, 100), 0, 0, 1, false }, // the -99 case at X = 100
        { a, nblock, 100, 100, 17, false },  // N block in one read
        { nblock, nblock, 100, 100, 17, false }, // in both (N against N matches)
        { a, iupac, 2000, 2000, 17, false }, // IUPAC codes and U
        { a, lower, 10, 10, 17, false },     // lower case
        { a, xd::revcomp(b), 500, n - 500 - 17, 17, true }, // reverse strand, true overlap
        { a.substr(1000, 500), a, 0, 1000, 17, false },     // containment
        { big, big, 25000, 25000, 17, false },              // identical 50 kb reads
        { big, big, 0, 0, 0, false },
    };
    for (int x : { 0, 10, 50, 100, 1000, 1 << 30 }) {
        EXPECT_EQ(same_cases(bk, cs, xd::params(1, -1, -1, x), "edge cases +1/-1/-1"), 0);
        EXPECT_EQ(same_cases(bk, cs, xd::params(1, -2, -2, x), "edge cases +1/-2/-2"), 0);
    }
}

// Queries and targets in one buffer (how the Java API lays out reads: each stored once), and a
// shuffled subset of the pairs: the others stay untouched.
TEST(CudaXdrop, SharedBufferAndPairSubset)
{
    Backend bk;
    DPA_REQUIRE_GPU(bk);
    const uint64_t seed = dpa_test::test_seed();
    SCOPED_TRACE("DPA_TEST_SEED=" + std::to_string(seed));
    std::mt19937_64 rng(seed);
    const std::vector<xd::Case> cs = xd::long_read_cases(seed ^ 0x5eed, 8, 4, 6000);
    xd::Batch b(cs);
    // one buffer: the targets appended after the queries
    std::vector<uint8_t> all = b.qb;
    all.insert(all.end(), b.tb.begin(), b.tb.end());
    std::vector<int64_t> to = b.to;
    for (auto &o : to) o += (int64_t)b.qb.size();
    dpa_xdrop_batch v = b.view();
    v.query_bases = all.data();
    v.target_bases = all.data();
    v.target_offsets = to.data();
    EXPECT_EQ(same(bk, v, xd::params(1, -1, -1, 100), "shared buffer"), 0);
    std::vector<int32_t> sub = all_pairs(v.num_pairs);
    std::shuffle(sub.begin(), sub.end(), rng);
    sub.resize(sub.size() / 2 + 1);
    EXPECT_EQ(same(bk, v, xd::params(1, -2, -2, 50), "shuffled subset", sub), 0);
}

// Both ways of putting a unit's sequences on the device (DPACCEL_CUDA_XDROP_COPY, read when
// the backend opens): the range of the input buffers, and each pair's sequences gathered
// through the pinned staging (more than one 8 MB staging half: ~600 seeds on reads of up to
// 20 kb; 50 kb reads,
// the reverse strand, a shuffled subset of a shared buffer).
TEST(CudaXdrop, RangeAndGatherCopiesMatchScalar)
{
    const uint64_t seed = dpa_test::test_seed();
    SCOPED_TRACE("DPA_TEST_SEED=" + std::to_string(seed));
    const std::vector<xd::Case> cs = xd::long_read_cases(seed, 100, 6, 20000);
    std::mt19937_64 rng(seed);
    const std::string big = xd::random_dna(rng, 50000);
    std::vector<xd::Case> edge = { { big, big, 25000, 25000, 17, false },
                                   { big, xd::revcomp(big), 100, 50000 - 117, 17, true },
                                   { "A", "A", 0, 0, 1, false } };
    for (const char *mode : { "range", "gather" }) {
        SCOPED_TRACE(mode);
        setenv("DPACCEL_CUDA_XDROP_COPY", mode, 1);
        Backend bk;
        unsetenv("DPACCEL_CUDA_XDROP_COPY");
        DPA_REQUIRE_GPU(bk);
        const xd::Batch b(cs);
        EXPECT_GT(b.qb.size() + b.tb.size(), (size_t)(8u << 20)) << "more than one staging half";
        EXPECT_EQ(same(bk, b.view(), xd::params(1, -1, -1, 100), mode), 0);
        std::vector<int32_t> sub = all_pairs(b.view().num_pairs);
        std::shuffle(sub.begin(), sub.end(), rng);
        sub.resize(sub.size() / 3 + 1);
        EXPECT_EQ(same(bk, b.view(), xd::params(1, -2, -2, 50), "shuffled subset", sub), 0);
        EXPECT_EQ(same_cases(bk, edge, xd::params(1, -1, -1, 1000), "50 kb reads"), 0);
    }
}

// The packed 16-bit kernel (DPACCEL_CUDA_XDROP_KERNEL=int16, read when the backend opens;
// xdrop_kernels.cu, sweep16): every output and the swept cells equal the scalar reference.
// Fresh shapes: lengths 0, 1 and odd, 10 kb pairs, N runs, both strands, X = 0, 1, up to the
// packed bound (X + 2 match + 1 <= 32767) and just past it, and scorings past the bound (the
// call then runs the int32 kernel: same results either way). The whole suite also runs with
// the variable set (docs/xdrop.md), which repeats every case above on the packed kernel.
namespace {
struct KernelEnv {
    explicit KernelEnv(const char *v) { setenv("DPACCEL_CUDA_XDROP_KERNEL", v, 1); }
    ~KernelEnv() { unsetenv("DPACCEL_CUDA_XDROP_KERNEL"); }
};

std::vector<xd::Case> int16_cases(uint64_t seed)
{
    std::mt19937_64 rng(seed);
    std::vector<xd::Case> cs = xd::long_read_cases(seed ^ 0x16, 10, 3, 10000);
    const std::string a = xd::random_dna(rng, 10001);
    std::string b = a; // a 10 kb pair with 4% substitutions, an N run and a few 1-bp indels
    for (size_t k = 0; k < b.size(); k++)
        if (rng() % 25 == 0) b[k] = "ACGT"[rng() % 4];
    for (size_t k = 4000; k < 4100; k++) b[k] = 'N';
    b.erase(7000, 1);
    b.insert(8000, "G");
    const int n = (int)a.size(), m = (int)b.size();
    cs.push_back({ a, b, 5000, 5000, 21, false });
    cs.push_back({ a, xd::revcomp(b), 2500, m - 2500 - 21, 21, true });
    cs.push_back({ a, b, 0, 0, 0, false });
    cs.push_back({ a, b, n, m, 0, false });
    cs.push_back({ "A", "A", 0, 0, 0, false });
    cs.push_back({ "A", "A", 1, 1, 0, true });
    cs.push_back({ "C", "G", 0, 0, 1, true });
    cs.push_back({ "NNNNN", "NNNNNNN", 2, 3, 1, false });
    for (int i = 0; i < 300; i++) { // random short shapes, odd and even lengths
        const int ql = 1 + (int)(rng() % 97), tl = 1 + (int)(rng() % 97);
        std::string q = xd::random_dna(rng, (size_t)ql), t = xd::random_dna(rng, (size_t)tl);
        if (rng() % 2)
            for (int k = 0; k < tl && k < ql; k++) t[(size_t)k] = rng() % 6 ? q[(size_t)k] : "NacgtRYu"[rng() % 8];
        const int len = (int)(rng() % (unsigned)(std::min(ql, tl) + 1));
        cs.push_back({ q, t, (int)(rng() % (unsigned)(ql - len + 1)),
                       (int)(rng() % (unsigned)(tl - len + 1)), len, (rng() & 1) != 0 });
    }
    return cs;
}
}  // namespace

TEST(CudaXdrop, Int16PackedKernelMatchesScalar)
{
    const KernelEnv env("int16");
    Backend bk;
    DPA_REQUIRE_GPU(bk);
    const uint64_t seed = dpa_test::test_seed();
    SCOPED_TRACE("DPA_TEST_SEED=" + std::to_string(seed));
    const std::vector<xd::Case> cs = int16_cases(seed);
    // {match, mismatch, gap}, X: inside the bound, at it (32764 = 32767 - 2 - 1), past it
    const int scores[][3] = { { 1, -1, -1 }, { 1, -2, -2 }, { 2, -3, -1 }, { 1, -1000, -1 },
                              { 1000, -1000, -1000 }, { 5, -4, -7 } };
    for (const auto &sc : scores)
        for (int x : { 0, 1, 2, 7, 50, 100, 1000, 10000, 30000 - 2 * sc[0],
                       32767 - 2 * sc[0] - 1, 32767 - 2 * sc[0], 40000, 1 << 30 })
            EXPECT_EQ(same_cases(bk, cs, xd::params(sc[0], sc[1], sc[2], x), "int16"), 0);
}

// The same comparison must notice a wrong packed kernel: without the clamp of an undefined
// diagonal cell (int16-noclamp), 0 + match comes out defined, and the extensions run on.
TEST(CudaXdrop, Int16BrokenKernelIsCaught)
{
    const KernelEnv env("int16-noclamp");
    Backend bk;
    DPA_REQUIRE_GPU(bk);
    const uint64_t seed = dpa_test::test_seed();
    SCOPED_TRACE("DPA_TEST_SEED=" + std::to_string(seed));
    const std::vector<xd::Case> cs = xd::long_read_cases(seed ^ 0xbad, 6, 2, 6000);
    const xd::Batch b(cs);
    const dpa_xdrop_params p = xd::params(1, -1, -1, 20);
    const std::vector<int32_t> pairs = all_pairs(b.view().num_pairs);
    const Out want = scalar(b.view(), p, pairs), got = gpu(bk, b.view(), p, pairs);
    ASSERT_EQ(got.st, DPA_OK) << got.err;
    int64_t diff = got.cells != want.cells;
    for (int k = 0; k < 7; k++) diff += got.v[k] != want.v[k];
    EXPECT_GT(diff, 0) << "the broken packed kernel gave the scalar reference's results";
}

TEST(CudaXdrop, BadArgumentsAndFaults)
{
    Backend bk;
    DPA_REQUIRE_GPU(bk);
    const std::vector<xd::Case> cs = { { "ACGTACGTAC", "ACGTACGTAC", 2, 2, 3, false } };
    const xd::Batch b(cs);
    const dpa_xdrop_batch v = b.view();
    const dpa_xdrop_params p = xd::params(1, -1, -1, 10);
    const dpa_cuda_xdrop_entry *e = dpa_cuda_xdrop_of(bk.ops);
    Out o(1);
    const dpa_xdrop_output ov = o.view();
    const int32_t pair = 0;
    char err[512] = "";
    EXPECT_EQ(e->run(bk.b, 9, &v, &p, &pair, 1, &ov, &o.cells, err, sizeof err), DPA_ERR_INVALID_ARG);
    EXPECT_EQ(e->run(bk.b, 0, &v, &p, &pair, 1, nullptr, &o.cells, err, sizeof err), DPA_ERR_NULL_ARG);
    ASSERT_EQ(bk.ops->inject_fault(bk.b, 0, DPA_CUDA_FAULT_OOM), DPA_OK);
    EXPECT_EQ(e->run(bk.b, 0, &v, &p, &pair, 1, &ov, &o.cells, err, sizeof err), DPA_ERR_OUT_OF_MEMORY);
    EXPECT_EQ(same(bk, v, p, "after OOM"), 0);
    ASSERT_EQ(bk.ops->inject_fault(bk.b, 0, DPA_CUDA_FAULT_STICKY), DPA_OK);
    EXPECT_EQ(e->run(bk.b, 0, &v, &p, &pair, 1, &ov, &o.cells, err, sizeof err), DPA_ERR_DEVICE);
    dpa_device_info info;
    ASSERT_EQ(bk.ops->device_info(bk.b, 0, &info), DPA_OK);
    EXPECT_EQ(info.usable, 0);
}
