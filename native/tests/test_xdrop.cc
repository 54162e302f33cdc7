// test_xdrop.cc — X-drop through the public API on cases whose answers are derived by hand
// from SeqAn's rules (docs/xdrop.md), independent of the oracle, and every bad argument.
#include <gtest/gtest.h>

#include <cstring>
#include <random>
#include <string>
#include <vector>

#include <sys/mman.h>
#include <unistd.h>

#include "test_util.h"
#include "xdrop_gen.h"

using xd::Case;
using xd::Result;

namespace {

Result one(const Case &c, int match, int mismatch, int gap, int x)
{
    return xd::ours({ c }, xd::params(match, mismatch, gap, x))[0];
}

void expect(const Result &got, const Result &want)
{
    EXPECT_TRUE(got == want) << "got  " << xd::show(got) << "\nwant " << xd::show(want);
}

// Identical sequences: both sides run to both ends; left = 2, right = 4, seed = 2.
TEST(XdropHand, IdenticalBothEnds)
{
    expect(one({ "ACGTACGT", "ACGTACGT", 2, 2, 2, false }, 1, -1, -1, 100),
           { 8, 0, 8, 0, 8, 2, 4 });
}

// A 1-bp query against 101 bases: the cell (1, 101) is 1 - 100 = -99 = best - X, still
// defined, and both ends are reached there: SeqAn's longest extension, not the maximum.
TEST(XdropHand, OneBaseQueryEndsNegative)
{
    expect(one({ "A", "A" + std::string(100, 'C'), 0, 0, 0, false }, 1, -1, -1, 100),
           { -99, 0, 1, 0, 101, 0, -99 });
}

// X = 0 and a mismatch straight after the seed: anti-diagonals 1 and 2 are undefined, the
// extension ends at the seed end with 0.
TEST(XdropHand, ZeroXStopsAtMismatch)
{
    expect(one({ "AC", "AG", 0, 0, 1, false }, 1, -1, -1, 0), { 1, 0, 1, 0, 1, 0, 0 });
}

// The seed is the whole of both sequences: both sides are empty and return 0.
TEST(XdropHand, SeedIsWholeSequence)
{
    expect(one({ "ACGTTGCA", "ACGTTGCA", 0, 0, 8, false }, 2, -3, -5, 10),
           { 16, 0, 8, 0, 8, 0, 0 });
}

// N against N is a match (Dna5 compares codes); U is T; case is ignored.
TEST(XdropHand, NMatchesNAndUIsT)
{
    expect(one({ "NNNN", "nnnn", 0, 0, 0, false }, 1, -1, -1, 10), { 4, 0, 4, 0, 4, 0, 4 });
    expect(one({ "ACGU", "acgt", 0, 0, 4, false }, 1, -1, -1, 10), { 4, 0, 4, 0, 4, 0, 0 });
    // R, Y and other IUPAC letters are N
    expect(one({ "RYKM", "NNNN", 0, 0, 4, false }, 1, -1, -1, 10), { 4, 0, 4, 0, 4, 0, 0 });
}

// Reverse strand: the target's reverse complement equals the query.
TEST(XdropHand, ReverseStrand)
{
    expect(one({ "AACCG", "CGGTT", 0, 0, 5, true }, 1, -1, -1, 10), { 5, 0, 5, 0, 5, 0, 0 });
    // seed in the middle, coordinates on the reverse complement "AACCGT"
    expect(one({ "AACCGT", "ACGGTT", 2, 2, 2, true }, 1, -1, -1, 10), { 6, 0, 6, 0, 6, 2, 2 });
}

// Zero-length seed at both starts: the left side is empty, the right runs to both ends.
TEST(XdropHand, ZeroLengthSeedAtStarts)
{
    expect(one({ "GATTACA", "GATTACA", 0, 0, 0, false }, 1, -1, -1, 5), { 7, 0, 7, 0, 7, 0, 7 });
}

// The bases touch no-access pages on both sides (queries end at one, targets start after
// one): any read outside a sequence faults, on every ISA, both strands, seeds at the ends.
TEST(XdropGuard, NoReadOutsideTheSequences)
{
    const size_t page = (size_t)sysconf(_SC_PAGESIZE);
    uint8_t *m = (uint8_t *)mmap(nullptr, 4 * page, PROT_READ | PROT_WRITE,
                                 MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    ASSERT_NE(m, MAP_FAILED);
    ASSERT_EQ(mprotect(m, page, PROT_NONE), 0);
    ASSERT_EQ(mprotect(m + 3 * page, page, PROT_NONE), 0);
    const int32_t len = 300;
    uint8_t *q = m + 3 * page - len, *t = m + page; /* query ends at a guard, target starts after one */
    std::mt19937_64 rng(3);
    for (int32_t i = 0; i < len; i++) q[i] = "ACGTN"[rng() % 5];
    for (int32_t i = 0; i < len; i++) t[i] = rng() % 8 ? q[i] : 'A';
    const int32_t qps[] = { 0, 0, len - 5, 150, len, 0 }, tps[] = { 0, len - 5, 0, 140, len, len };
    for (int k = 0; k < 6; k++)
        for (uint8_t strand : { (uint8_t)0, (uint8_t)1 }) {
            const int64_t qo = 0, to = 0;
            const int32_t ql = len, tl = len, sl = k == 3 ? 5 : 0, qp = qps[k], tp = tps[k];
            const dpa_xdrop_batch b = { 1, q, &qo, &ql, t, &to, &tl, &qp, &tp, &sl, &strand };
            int32_t v[7];
            const dpa_xdrop_output o = { &v[0], &v[1], &v[2], &v[3], &v[4], &v[5], &v[6] };
            dpa_context *ctx = nullptr;
            ASSERT_EQ(dpa_context_create(nullptr, &ctx), DPA_OK);
            const dpa_xdrop_params p = xd::params(1, -1, -1, 1000);
            EXPECT_EQ(dpa_xdrop_compute(ctx, &b, &p, &o, nullptr), DPA_OK) << dpa_last_error();
            dpa_context_destroy(ctx);
        }
    munmap(m, 4 * page);
}

// ---- bad input ------------------------------------------------------------------------

struct XdropBad : ::testing::Test {
    dpa_context *ctx = nullptr;
    std::vector<int32_t> o[7];
    dpa_xdrop_output out;
    void SetUp() override
    {
        ASSERT_EQ(dpa_context_create(nullptr, &ctx), DPA_OK);
        for (auto &a : o) a.assign(4, 0);
        out = { o[0].data(), o[1].data(), o[2].data(), o[3].data(), o[4].data(), o[5].data(),
                o[6].data() };
    }
    void TearDown() override { dpa_context_destroy(ctx); }
    // The status of a call, and that the message names what.
    void refuse(const xd::Batch &b, const dpa_xdrop_params &p, dpa_status want, const char *what)
    {
        dpa_xdrop_batch v = b.view();
        EXPECT_EQ(dpa_xdrop_compute(ctx, &v, &p, &out, nullptr), want);
        EXPECT_NE(std::strstr(dpa_last_error(), what), nullptr)
            << "message: " << dpa_last_error() << "\nexpected to contain: " << what;
    }
};

TEST_F(XdropBad, Params)
{
    xd::Batch b({ { "ACGT", "ACGT", 0, 0, 2, false } });
    refuse(b, xd::params(0, -1, -1, 10), DPA_ERR_INVALID_ARG, "match = 0, must be in [1, 1000]");
    refuse(b, xd::params(1001, -1, -1, 10), DPA_ERR_INVALID_ARG, "match = 1001");
    refuse(b, xd::params(1, 0, -1, 10), DPA_ERR_INVALID_ARG, "mismatch = 0, must be in [-1000, -1]");
    refuse(b, xd::params(1, -1001, -1, 10), DPA_ERR_INVALID_ARG, "mismatch = -1001");
    refuse(b, xd::params(1, -1, 0, 10), DPA_ERR_INVALID_ARG, "gap = 0, must be in [-1000, -1]");
    refuse(b, xd::params(1, -1, 5, 10), DPA_ERR_INVALID_ARG, "gap = 5");
    refuse(b, xd::params(1, -1, -1, -1), DPA_ERR_INVALID_ARG, "xdrop = -1, must be in [0, 1073741824]");
    dpa_xdrop_params p = xd::params(1, -1, -1, 10);
    p.backend = 7;
    refuse(b, p, DPA_ERR_INVALID_ARG, "backend = 7");
}

TEST_F(XdropBad, Seeds)
{
    refuse(xd::Batch({ { "ACGT", "ACGT", 0, 0, 2, false }, { "ACGT", "ACGT", 3, 0, 2, false } }),
           xd::params(1, -1, -1, 10), DPA_ERR_INVALID_ARG, "qpos[1] = 3 with seed length 2, must be in [0, 2]");
    refuse(xd::Batch({ { "ACGT", "ACGT", 0, 5, 0, false } }), xd::params(1, -1, -1, 10),
           DPA_ERR_INVALID_ARG, "tpos[0] = 5");
    refuse(xd::Batch({ { "ACGT", "ACGT", -1, 0, 0, false } }), xd::params(1, -1, -1, 10),
           DPA_ERR_INVALID_ARG, "qpos[0] = -1");
    refuse(xd::Batch({ { "ACGT", "ACGT", 0, 0, -2, false } }), xd::params(1, -1, -1, 10),
           DPA_ERR_INVALID_ARG, "seed_lengths[0] = -2, must be >= 0");
    xd::Batch b({ { "ACGT", "ACGT", 0, 0, 1, false } });
    b.strands[0] = 2;
    refuse(b, xd::params(1, -1, -1, 10), DPA_ERR_INVALID_ARG, "strands[0] = 2");
}

// Batches over the engine's 1 MB letter ranges (checked in parallel): the message names the
// first bad pair in pair order, as one serial pass would, also when several pairs share a
// read across range borders.
TEST_F(XdropBad, LettersInManyRangesNameTheFirstBadPair)
{
    std::mt19937_64 rng(7);
    std::vector<xd::Case> cs;
    for (int i = 0; i < 600; i++)
        cs.push_back({ xd::random_dna(rng, 5000), xd::random_dna(rng, 5000), 10, 10, 17, false });
    {
        xd::Batch b(cs);
        b.tb[(size_t)b.to[400] + 17] = '-';
        b.qb[(size_t)b.qo[150] + 4999] = '1';
        refuse(b, xd::params(1, -1, -1, 10), DPA_ERR_INVALID_ARG, "pair 150: query byte 4999 = 0x31");
    }
    {
        // pairs 0-299 share one good query, pairs 300-599 one bad query: 3 MB of pair bytes,
        // each shared read scanned once
        xd::Batch b(cs);
        for (int i = 0; i < 600; i++) b.qo[(size_t)i] = i < 300 ? b.qo[0] : b.qo[300];
        b.qb[(size_t)b.qo[300] + 2500] = '*';
        refuse(b, xd::params(1, -1, -1, 10), DPA_ERR_INVALID_ARG, "pair 300: query byte 2500 = 0x2a");
        b.qb[(size_t)b.qo[0] + 3] = '*';
        refuse(b, xd::params(1, -1, -1, 10), DPA_ERR_INVALID_ARG, "pair 0: query byte 3 = 0x2a");
    }
}

TEST_F(XdropBad, Sequences)
{
    refuse(xd::Batch({ { "ACGT", "AC-T", 0, 0, 1, false } }), xd::params(1, -1, -1, 10),
           DPA_ERR_INVALID_ARG, "pair 0: target byte 2 = 0x2d is not a letter");
    refuse(xd::Batch({ { "AC T", "ACGT", 0, 0, 1, false } }), xd::params(1, -1, -1, 10),
           DPA_ERR_INVALID_ARG, "pair 0: query byte 2 = 0x20");
    xd::Batch e({ { "A", "A", 0, 0, 0, false } });
    e.ql[0] = 0;
    refuse(e, xd::params(1, -1, -1, 10), DPA_ERR_INVALID_ARG, "query_lengths[0] = 0, must be in [1, 1048575]");
    xd::Batch l({ { "A", "A", 0, 0, 0, false } });
    l.tl[0] = 1 << 20;
    refuse(l, xd::params(1, -1, -1, 10), DPA_ERR_LIMIT, "target_lengths[0] = 1048576");
    xd::Batch off({ { "A", "A", 0, 0, 0, false } });
    off.qo[0] = -3;
    refuse(off, xd::params(1, -1, -1, 10), DPA_ERR_INVALID_ARG, "query_offsets[0] = -3");
}

TEST_F(XdropBad, NullsAndUsableAfter)
{
    xd::Batch b({ { "ACGT", "ACGT", 0, 0, 2, false } });
    dpa_xdrop_batch v = b.view();
    dpa_xdrop_params p = xd::params(1, -1, -1, 10);
    EXPECT_EQ(dpa_xdrop_compute(nullptr, &v, &p, &out, nullptr), DPA_ERR_NULL_ARG);
    EXPECT_EQ(dpa_xdrop_compute(ctx, nullptr, &p, &out, nullptr), DPA_ERR_NULL_ARG);
    EXPECT_EQ(dpa_xdrop_compute(ctx, &v, &p, nullptr, nullptr), DPA_ERR_NULL_ARG);
    dpa_xdrop_output o2 = out;
    o2.tend = nullptr;
    EXPECT_EQ(dpa_xdrop_compute(ctx, &v, &p, &o2, nullptr), DPA_ERR_NULL_ARG);
    EXPECT_NE(std::strstr(dpa_last_error(), "output->tend is NULL"), nullptr);
    v.strands = nullptr;
    EXPECT_EQ(dpa_xdrop_compute(ctx, &v, &p, &out, nullptr), DPA_ERR_NULL_ARG);
    EXPECT_NE(std::strstr(dpa_last_error(), "strands is NULL"), nullptr);
    // the context stays usable, and an empty batch is fine
    v = b.view();
    dpa_xdrop_stats st;
    EXPECT_EQ(dpa_xdrop_compute(ctx, &v, &p, &out, &st), DPA_OK) << dpa_last_error();
    EXPECT_EQ(o[0][0], 4);
    EXPECT_EQ(st.pairs, 1);
    v.num_pairs = 0;
    EXPECT_EQ(dpa_xdrop_compute(ctx, &v, &p, &out, nullptr), DPA_OK);
}

// No usable GPU (CTest sets DPACCEL_GPU_DISABLE=1): forcing the GPU fails and names why;
// AUTO and HYBRID run on the CPU.
TEST_F(XdropBad, GpuForcedFails)
{
    // a context without a GPU whatever the machine has (the fixture's takes one if present)
    dpa_context_destroy(ctx);
    ASSERT_EQ(dpa_test::context_without_gpu(&ctx), DPA_OK) << dpa_last_error();
    xd::Batch b({ { "ACGT", "ACGT", 0, 0, 2, false } });
    dpa_xdrop_batch v = b.view();
    dpa_xdrop_params p = xd::params(1, -1, -1, 10);
    p.backend = DPA_BACKEND_GPU;
    EXPECT_EQ(dpa_xdrop_compute(ctx, &v, &p, &out, nullptr), DPA_ERR_NO_DEVICE);
    EXPECT_NE(std::strstr(dpa_last_error(), "xdrop: backend gpu requested"), nullptr)
        << dpa_last_error();
    for (int be : { (int)DPA_BACKEND_AUTO, (int)DPA_BACKEND_HYBRID }) {
        p.backend = be;
        EXPECT_EQ(dpa_xdrop_compute(ctx, &v, &p, &out, nullptr), DPA_OK) << dpa_last_error();
        EXPECT_EQ(o[0][0], 4);
    }
}

}  // namespace
