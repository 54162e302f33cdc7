// test_cuda_pairhmm.cc — every CUDA PairHMM kernel against the scalar double reference,
// the double pass on the GPU, split vs whole, two devices, concurrent callers and
// run-to-run reproducibility. Skips loudly without a GPU.
#include <algorithm>
#include <cstring>
#include <thread>

#include "cuda_test_util.h"

using namespace dpa_cuda_test;

namespace {

std::vector<double> gpu(Backend &bk, dpa_pairhmm_batch &b, const std::vector<dpa_phmm_task> &t,
                        int32_t precision, int64_t *recomputes = nullptr, int32_t device = 0)
{
    std::vector<double> out(t.size(), -12345.0);
    int64_t rec = 0;
    char err[512] = "";
    dpa_status st = dpa_cuda_pairhmm_of(bk.ops)->run(bk.b, device, &b, t.data(), (int64_t)t.size(), precision,
                                    out.data(), &rec, err, sizeof err);
    EXPECT_EQ(st, DPA_OK) << err;
    if (recomputes) *recomputes = rec;
    return out;
}

}  // namespace

// Each float kernel configuration (forced), on stress data: lengths 1..1000 mixed, N
// bases, qualities 0..127.
TEST(CudaPairHmm, EveryKernelMatchesDoubleReference)
{
    {
        Backend probe;
        DPA_REQUIRE_GPU(probe);
    }
    const uint64_t seed = dpa_test::test_seed();
    SCOPED_TRACE("DPA_TEST_SEED=" + std::to_string(seed));
    std::mt19937_64 rng(seed);
    dpa_test::Batch batches[2] = { stress_batch(rng, 9, 7, 1000, 0, 127),
                                   stress_batch(rng, 9, 7, 1000, 6, 60) };
    std::vector<double> first[2];
    for (int cfg = -1; cfg < 10; cfg++) {
        ScopedEnv env("DPACCEL_CUDA_FORCE_CFG", std::to_string(cfg));
        Backend bk;
        ASSERT_TRUE(bk.b) << bk.why;
        for (int variant = 0; variant < 2; variant++) {
            dpa_pairhmm_batch b = batches[variant].view();
            auto tasks = all_tasks(b);
            auto want = reference(b, tasks, DPA_PRECISION_DOUBLE);
            auto got = gpu(bk, b, tasks, DPA_PRECISION_FLOAT_THEN_DOUBLE);
            expect_close(got, want, 1e-4, seed,
                         ("float kernel cfg " + std::to_string(cfg)).c_str());
            // a pair's bits do not depend on the kernel configuration that ran it
            if (cfg == -1) first[variant] = got;
            EXPECT_EQ(0, std::memcmp(first[variant].data(), got.data(), got.size() * 8))
                << "cfg " << cfg << " differs bitwise from the default configuration";
            auto got_d = gpu(bk, b, tasks, DPA_PRECISION_DOUBLE);
            expect_close(got_d, want, 1e-8, seed, "double kernel");
        }
    }
}

// Reads with constant insertion, deletion and gap qualities (GATK 4 without BQSR indel
// tags: 45 / 45 / 10) and lengths that are multiples of 16 run the uniform-coefficient R = 16
// kernels (DPACCEL_CUDA_UNIFORM=0 keeps them on the per-row kernels): every pair's bits
// must equal the per-row kernels' under every R = 16 configuration and the default, within
// 1e-4 of the double reference. The batch mixes qualifying reads (one and several passes,
// per-read constants from 1 to 60, so a read with mm = 0 takes the double pass), reads one
// base off a multiple of 16, a read with one different GCP, N bases, and a read of 1024.
TEST(CudaPairHmm, UniformKernelsMatchPerRowKernelsBitwise)
{
    {
        Backend probe;
        DPA_REQUIRE_GPU(probe);
    }
    const uint64_t seed = dpa_test::test_seed();
    SCOPED_TRACE("DPA_TEST_SEED=" + std::to_string(seed));
    std::mt19937_64 rng(seed);
    dpa_test::Batch batch;
    for (int h = 0; h < 5; h++)
        batch.haps.push_back(dpa_test::random_bases(rng, 40 + (int)(rng() % 1100)));
    batch.haps.push_back(std::string(300, 'N'));
    const int lens[] = { 16, 32, 48, 64, 96, 128, 144, 160, 256, 272, 288, 320, 512, 528,
                         544, 1024, 1056, 17, 127, 150, 151, 513 };
    int k = 0;
    for (int len : lens) {
        for (int rep = 0; rep < 3; rep++, k++) {
            dpa_test::Read r = dpa_test::gatk_read(rng, batch.haps[k % 5], len);
            const uint8_t iq = k % 7 == 0 ? (uint8_t)(1 + rng() % 3) : (uint8_t)(20 + rng() % 41);
            const uint8_t dq = k % 7 == 0 ? iq : (uint8_t)(20 + rng() % 41);
            const uint8_t gq = (uint8_t)(5 + rng() % 16);
            for (int i = 0; i < len; i++) {
                r.ins[i] = iq;
                r.del[i] = dq;
                r.gcp[i] = gq;
            }
            if (k % 11 == 5) r.bases[len / 2] = 'N';
            if (k % 13 == 6) r.gcp[len - 1] = (uint8_t)(gq + 1); /* not uniform */
            batch.reads.push_back(r);
        }
    }
    dpa_pairhmm_batch b = batch.view();
    auto tasks = all_tasks(b);
    auto want = reference(b, tasks, DPA_PRECISION_DOUBLE);
    std::vector<double> base;
    {
        ScopedEnv u("DPACCEL_CUDA_UNIFORM", "0");
        Backend bk;
        ASSERT_TRUE(bk.b) << bk.why;
        base = gpu(bk, b, tasks, DPA_PRECISION_FLOAT_THEN_DOUBLE);
    }
    expect_close(base, want, 1e-4, seed, "per-row kernels");
    bool r32 = false; /* the R = 32 kernels need 80 KiB of shared memory per block: every
                       * GPU from sm_80 on gives it, sm_75 does not */
    {
        Backend bk;
        dpa_device_info info;
        r32 = bk.ops->device_info(bk.b, 0, &info) == DPA_OK && info.cc_major >= 8;
    }
    for (int cfg : { -1, 3, 5, 7, 9 }) {
        for (const char *uni : { "0", "1" }) {
            ScopedEnv f("DPACCEL_CUDA_FORCE_CFG", std::to_string(cfg));
            ScopedEnv u("DPACCEL_CUDA_UNIFORM", uni);
            ScopedEnv t("DPACCEL_CUDA_TIMING", "1");
            Backend bk;
            ASSERT_TRUE(bk.b) << bk.why;
            testing::internal::CaptureStderr();
            auto got = gpu(bk, b, tasks, DPA_PRECISION_FLOAT_THEN_DOUBLE);
            const std::string log = testing::internal::GetCapturedStderr();
            expect_close(got, want, 1e-4, seed, ("cfg " + std::to_string(cfg)).c_str());
            EXPECT_EQ(0, std::memcmp(base.data(), got.data(), got.size() * 8))
                << "cfg " << cfg << " uniform " << uni << " differs bitwise from the per-row "
                << "default";
            // which kernels ran: the timing line's "cfgs" list (10..14 are the uniform ones,
            // 13 and 14 with R = 32); the default configuration of a small call may pick no
            // R = 16 kernel at all, and <4,16> (cfg 3) has no uniform form
            const size_t at = log.find("cfgs ");
            ASSERT_NE(at, std::string::npos) << log;
            const std::string list = log.substr(at + 5, log.find(' ', at + 5) - at - 5);
            bool any_u = false, any_r32 = false;
            size_t p = 0;
            while (p < list.size()) {
                const int c = std::atoi(list.c_str() + p);
                any_u |= c >= 10 && c <= 14;
                any_r32 |= c == 13 || c == 14;
                const size_t q = list.find(',', p);
                p = q == std::string::npos ? list.size() : q + 1;
            }
            if ((cfg >= 0 && cfg != 3) || uni[0] == '0')
                EXPECT_EQ(any_u, uni[0] == '1') << "cfg " << cfg << ": kernels used " << list;
            if (cfg == 3) EXPECT_FALSE(any_u) << "kernels used " << list;
            if (cfg == 9 && uni[0] == '1' && r32)
                EXPECT_TRUE(any_r32) << "R = 32 kernels not used: " << list;
        }
    }
}

// GATK-shaped data (reads drawn from the haplotypes, Q6..40, GOP 40..50, GCP 10): 1e-5.
TEST(CudaPairHmm, GatkShapesWithin1e5)
{
    Backend bk;
    DPA_REQUIRE_GPU(bk);
    const uint64_t seed = dpa_test::test_seed();
    SCOPED_TRACE("DPA_TEST_SEED=" + std::to_string(seed));
    std::mt19937_64 rng(seed);
    dpa_test::Batch batch;
    for (int h = 0; h < 6; h++) batch.haps.push_back(dpa_test::random_bases(rng, 80 + (int)(rng() % 420)));
    for (int r = 0; r < 40; r++)
        batch.reads.push_back(dpa_test::gatk_read(rng, batch.haps[r % 6], 20 + (int)(rng() % 231)));
    dpa_pairhmm_batch b = batch.view();
    auto tasks = all_tasks(b);
    auto want = reference(b, tasks, DPA_PRECISION_DOUBLE);
    expect_close(gpu(bk, b, tasks, DPA_PRECISION_FLOAT_THEN_DOUBLE), want, 1e-5, seed, "gatk");
}

// A pair whose float sum underflows (long read, unrelated haplotype, high qualities) is
// recomputed in double on the GPU and counted.
TEST(CudaPairHmm, DoublePassRunsOnGpu)
{
    Backend bk;
    DPA_REQUIRE_GPU(bk);
    const uint64_t seed = dpa_test::test_seed();
    std::mt19937_64 rng(seed);
    dpa_test::Batch batch;
    dpa_test::Read r = dpa_test::random_read(rng, 300, 40, 60);
    batch.reads.push_back(r);
    batch.reads.push_back(dpa_test::gatk_read(rng, std::string(200, 'A'), 50));
    batch.haps.push_back(dpa_test::random_bases(rng, 300));
    batch.haps.push_back(std::string(200, 'A'));
    dpa_pairhmm_batch b = batch.view();
    auto tasks = all_tasks(b);
    auto want = reference(b, tasks, DPA_PRECISION_FLOAT_THEN_DOUBLE);
    int64_t rec = 0;
    auto got = gpu(bk, b, tasks, DPA_PRECISION_FLOAT_THEN_DOUBLE, &rec);
    EXPECT_GT(rec, 0) << "no pair was recomputed in double; DPA_TEST_SEED=" << seed;
    expect_close(got, want, 1e-4, seed, "double pass");
}

// Tiny chunks (many H2D/D2H rounds, reads packed per chunk) give bit-identical results,
// and so does a second run; a batch with more base letters than the float table takes
// runs in double and still matches.
TEST(CudaPairHmm, SplitWholeAndRerunAreIdentical)
{
    const uint64_t seed = dpa_test::test_seed();
    SCOPED_TRACE("DPA_TEST_SEED=" + std::to_string(seed));
    std::mt19937_64 rng(seed);
    dpa_test::Batch batch = stress_batch(rng, 30, 9, 700, 6, 50);
    dpa_pairhmm_batch b = batch.view();
    auto tasks = all_tasks(b);
    std::vector<double> whole, again, split;
    {
        Backend bk;
        DPA_REQUIRE_GPU(bk);
        whole = gpu(bk, b, tasks, DPA_PRECISION_FLOAT_THEN_DOUBLE);
        again = gpu(bk, b, tasks, DPA_PRECISION_FLOAT_THEN_DOUBLE);
    }
    {
        ScopedEnv env("DPACCEL_CUDA_CHUNK_BYTES", "30000");
        Backend bk;
        ASSERT_TRUE(bk.b);
        split = gpu(bk, b, tasks, DPA_PRECISION_FLOAT_THEN_DOUBLE);
    }
    EXPECT_EQ(0, std::memcmp(whole.data(), again.data(), whole.size() * 8)) << "run to run";
    EXPECT_EQ(0, std::memcmp(whole.data(), split.data(), whole.size() * 8)) << "split vs whole";
    expect_close(whole, reference(b, tasks, DPA_PRECISION_DOUBLE), 1e-4, seed, "whole");
    {
        // other chunkings, every pair alone, and the tasks in reverse order
        Backend bk;
        ASSERT_TRUE(bk.b);
        for (const char *cb : { "5000", "120000" }) {
            ScopedEnv env("DPACCEL_CUDA_CHUNK_BYTES", cb);
            Backend bc;
            ASSERT_TRUE(bc.b);
            auto o = gpu(bc, b, tasks, DPA_PRECISION_FLOAT_THEN_DOUBLE);
            EXPECT_EQ(0, std::memcmp(whole.data(), o.data(), whole.size() * 8)) << "chunk " << cb;
        }
        std::vector<double> alone(tasks.size());
        for (size_t k = 0; k < tasks.size(); k++) {
            std::vector<dpa_phmm_task> one{ dpa_phmm_task{ tasks[k].read, tasks[k].hap, 0 } };
            alone[tasks[k].out] = gpu(bk, b, one, DPA_PRECISION_FLOAT_THEN_DOUBLE)[0];
        }
        EXPECT_EQ(0, std::memcmp(whole.data(), alone.data(), whole.size() * 8)) << "pair alone";
        std::vector<dpa_phmm_task> rev(tasks.rbegin(), tasks.rend());
        auto r = gpu(bk, b, rev, DPA_PRECISION_FLOAT_THEN_DOUBLE);
        EXPECT_EQ(0, std::memcmp(whole.data(), r.data(), whole.size() * 8)) << "reversed";
    }
    {
        // a read with a letter outside the float table (double for its pairs) changes no
        // other pair's bits
        dpa_test::Batch one_wide = batch;
        one_wide.reads[3].bases[0] = 'R';
        dpa_pairhmm_batch bo = one_wide.view();
        Backend bk;
        ASSERT_TRUE(bk.b);
        auto o = gpu(bk, bo, tasks, DPA_PRECISION_FLOAT_THEN_DOUBLE);
        for (size_t k = 0; k < tasks.size(); k++)
            if (tasks[k].read != 3)
                EXPECT_EQ(0, std::memcmp(&whole[tasks[k].out], &o[tasks[k].out], 8)) << k;
        expect_close(o, reference(bo, tasks, DPA_PRECISION_DOUBLE), 1e-4, seed, "one wide");
    }

    dpa_test::Batch wide = batch;
    for (auto &r : wide.reads)
        for (auto &c : r.bases) c = "ACGTNRYKMSWBDHVacgt"[rng() % 19];
    for (auto &h : wide.haps)
        for (auto &c : h) c = "ACGTNRYKMSWBDHVacgt"[rng() % 19];
    dpa_pairhmm_batch bw = wide.view();
    Backend bk;
    expect_close(gpu(bk, bw, tasks, DPA_PRECISION_FLOAT_THEN_DOUBLE),
                 reference(bw, tasks, DPA_PRECISION_DOUBLE), 1e-4, seed, "wide alphabet");
}

// Several host threads share one GPU (pooled streams); every visible GPU gives the same
// results as device 0.
TEST(CudaPairHmm, ConcurrentCallersAndDevices)
{
    Backend bk;
    DPA_REQUIRE_GPU(bk);
    const uint64_t seed = dpa_test::test_seed();
    SCOPED_TRACE("DPA_TEST_SEED=" + std::to_string(seed));
    std::mt19937_64 rng(seed);
    dpa_test::Batch batch = stress_batch(rng, 40, 8, 400, 6, 50);
    dpa_pairhmm_batch b = batch.view();
    auto tasks = all_tasks(b);
    auto whole = gpu(bk, b, tasks, DPA_PRECISION_FLOAT_THEN_DOUBLE);

    const int threads = 6;
    std::vector<double> out(tasks.size(), -1.0);
    std::vector<std::thread> th;
    std::vector<dpa_status> st(threads, DPA_OK);
    const int ndev = bk.ops->device_count(bk.b);
    for (int i = 0; i < threads; i++) {
        th.emplace_back([&, i] {
            std::vector<dpa_phmm_task> mine;
            for (size_t k = i; k < tasks.size(); k += threads) mine.push_back(tasks[k]);
            int64_t rec = 0;
            for (int rep = 0; rep < 3; rep++)
                st[i] = dpa_cuda_pairhmm_of(bk.ops)->run(bk.b, i % ndev, &b, mine.data(), (int64_t)mine.size(),
                                        DPA_PRECISION_FLOAT_THEN_DOUBLE, out.data(), &rec,
                                        nullptr, 0);
        });
    }
    for (auto &t : th) t.join();
    for (int i = 0; i < threads; i++) EXPECT_EQ(st[i], DPA_OK);
    EXPECT_EQ(0, std::memcmp(whole.data(), out.data(), whole.size() * 8));
    if (ndev < 2)
        std::printf("[  NOTE    ] only %d GPU visible: the two-device comparison ran the "
                    "threads on device 0 only\n", ndev);
}

// A chunk large enough for the host team (>= 4096 pairs and >= 65536 read positions: its
// read packing, sort keys, descriptors and scatter are split over host threads) gives the
// same bits as the same tasks in small chunks packed by one thread, also when two large
// calls run at once (one of them then finds the team busy and works alone), and matches
// the reference.
TEST(CudaPairHmm, HostTeamChunkEqualsSmallChunks)
{
    Backend bk;
    DPA_REQUIRE_GPU(bk);
    const uint64_t seed = dpa_test::test_seed();
    SCOPED_TRACE("DPA_TEST_SEED=" + std::to_string(seed));
    std::mt19937_64 rng(seed);
    dpa_test::Batch batch;
    for (int h = 0; h < 10; h++) batch.haps.push_back(dpa_test::random_bases(rng, 60 + (int)(rng() % 200)));
    for (int r = 0; r < 560; r++)
        batch.reads.push_back(dpa_test::gatk_read(rng, batch.haps[r % 10], 120 + (int)(rng() % 31)));
    batch.reads[77].bases[5] = 'R'; // reads and a haplotype that run in double: the bytes
    batch.reads[201].bases[3] = 2;  // 0..4 and the letters N A C G T swap codes on the way
    batch.haps[4][10] = 1;          // in (one table), in the vector and the scalar packing
    batch.reads[333].bases[20] = 'N';
    dpa_pairhmm_batch b = batch.view();
    auto tasks = all_tasks(b);
    ASSERT_GE(tasks.size(), 4096u);
    auto whole = gpu(bk, b, tasks, DPA_PRECISION_FLOAT_THEN_DOUBLE);
    std::vector<double> split;
    {
        ScopedEnv env("DPACCEL_CUDA_CHUNK_BYTES", "60000");
        Backend bs;
        ASSERT_TRUE(bs.b);
        split = gpu(bs, b, tasks, DPA_PRECISION_FLOAT_THEN_DOUBLE);
    }
    EXPECT_EQ(0, std::memcmp(whole.data(), split.data(), whole.size() * 8)) << "team vs small chunks";
    std::vector<double> a, c;
    std::thread t1([&] { a = gpu(bk, b, tasks, DPA_PRECISION_FLOAT_THEN_DOUBLE); });
    std::thread t2([&] { c = gpu(bk, b, tasks, DPA_PRECISION_FLOAT_THEN_DOUBLE); });
    t1.join();
    t2.join();
    EXPECT_EQ(0, std::memcmp(whole.data(), a.data(), whole.size() * 8)) << "concurrent 1";
    EXPECT_EQ(0, std::memcmp(whole.data(), c.data(), whole.size() * 8)) << "concurrent 2";
    expect_close(whole, reference(b, tasks, DPA_PRECISION_DOUBLE), 1e-5, seed, "team chunk");
}

// Small chunks write their results into mapped host memory and launch the double pass
// only when the float pass left a pair to it (the direct path); DPACCEL_CUDA_DIRECT=0/1
// forces the copy-back path / the direct path, DPACCEL_CUDA_POLL=0 makes the direct path
// wait with cudaStreamSynchronize instead of polling. All give the same bits and the same
// recompute counts: with no pair for the double pass, with flagged pairs (underflow), with
// a read outside the float table, in double precision, and forced on a large batch split
// into several chunks.
TEST(CudaPairHmm, DirectAndCopyBackPathsAreIdentical)
{
    {
        Backend probe;
        DPA_REQUIRE_GPU(probe);
    }
    const uint64_t seed = dpa_test::test_seed();
    SCOPED_TRACE("DPA_TEST_SEED=" + std::to_string(seed));
    std::mt19937_64 rng(seed);
    // a HaplotypeCaller-like region with nothing for the double pass: haplotypes of 250-500
    // bases sharing their first 250, reads copied without errors from that shared part
    // (Q6..40: every sum is far above 1e-28; reads drawn from the part only one haplotype
    // has, or with errors against unrelated haplotypes, would underflow)
    dpa_test::Batch plain;
    const std::string base = dpa_test::random_bases(rng, 500);
    for (int h = 0; h < 4; h++) plain.haps.push_back(base.substr(0, 250 + rng() % 251));
    for (int r = 0; r < 60; r++) {
        dpa_test::Read rd;
        rd.bases = base.substr(rng() % 101, 150);
        for (int i = 0; i < 150; i++) {
            rd.q.push_back((uint8_t)(6 + rng() % 35));
            rd.ins.push_back((uint8_t)(40 + rng() % 11));
            rd.del.push_back((uint8_t)(40 + rng() % 11));
            rd.gcp.push_back(10);
        }
        plain.reads.push_back(rd);
    }
    dpa_test::Batch flagged = plain; // + an underflowing pair and a read in double only
    flagged.reads.push_back(dpa_test::random_read(rng, 300, 40, 60));
    flagged.reads[7].bases[9] = 'R';
    dpa_test::Batch big; // > 2048 pairs: copy-back by default
    for (int h = 0; h < 8; h++) big.haps.push_back(dpa_test::random_bases(rng, 100 + (int)(rng() % 300)));
    for (int r = 0; r < 400; r++)
        big.reads.push_back(dpa_test::gatk_read(rng, big.haps[r % 8], 30 + (int)(rng() % 200)));
    big.reads.push_back(dpa_test::random_read(rng, 300, 40, 60));

    struct Case { const char *name; dpa_test::Batch *batch; int32_t precision; bool want_rec; };
    const Case cases[] = {
        { "plain", &plain, DPA_PRECISION_FLOAT_THEN_DOUBLE, false },
        { "flagged", &flagged, DPA_PRECISION_FLOAT_THEN_DOUBLE, true },
        { "flagged, double", &flagged, DPA_PRECISION_DOUBLE, false },
        { "big", &big, DPA_PRECISION_FLOAT_THEN_DOUBLE, true },
    };
    for (const Case &c : cases) {
        SCOPED_TRACE(c.name);
        dpa_pairhmm_batch b = c.batch->view();
        auto tasks = all_tasks(b);
        // copy-back; direct (polling the result slots); default; direct waiting with
        // cudaStreamSynchronize; direct in chunks of ~40 kB
        struct Mode { const char *direct, *poll, *chunk; };
        const Mode modes[] = { { "0", "", "" }, { "1", "1", "" }, { "", "", "" },
                               { "1", "0", "" }, { "1", "", "40000" } };
        const int nm = (int)(sizeof modes / sizeof modes[0]);
        std::vector<double> got[nm];
        int64_t rec[nm];
        for (int m = 0; m < nm; m++) {
            ScopedEnv env("DPACCEL_CUDA_DIRECT", modes[m].direct);
            ScopedEnv poll("DPACCEL_CUDA_POLL", modes[m].poll);
            ScopedEnv chunk("DPACCEL_CUDA_CHUNK_BYTES", modes[m].chunk);
            rec[m] = -1;
            Backend bk;
            ASSERT_TRUE(bk.b) << bk.why;
            got[m] = gpu(bk, b, tasks, c.precision, &rec[m]);
            // twice on the same slot: the pending marks of one call never leak into the next
            auto again = gpu(bk, b, tasks, c.precision);
            EXPECT_EQ(0, std::memcmp(got[m].data(), again.data(), again.size() * 8))
                << "mode " << m << " run to run";
        }
        for (int m = 1; m < nm; m++) {
            EXPECT_EQ(0, std::memcmp(got[0].data(), got[m].data(), got[0].size() * 8))
                << "mode " << m << " differs bitwise from the copy-back path";
            EXPECT_EQ(rec[0], rec[m]) << "mode " << m << " recompute count";
        }
        if (c.want_rec) EXPECT_GT(rec[0], 0) << "no pair reached the double pass";
        else EXPECT_EQ(rec[0], 0);
        expect_close(got[1], reference(b, tasks, DPA_PRECISION_DOUBLE),
                     c.precision == DPA_PRECISION_DOUBLE ? 1e-8 : 1e-4, seed, c.name);
    }
}

// The kernels' short paths: <32,8> runs reads of <= 160 rows with 5 rows per thread, <8,16>
// runs a warp whose reads all fit 160 rows in one pass of 20 rows per thread (two passes of
// 16 otherwise). Read lengths around both limits, mixed in one warp (a warp of <8,16> holds
// four pairs: 100 with 151 must take the 20-row path together), forced into every
// configuration: the same bits as the default choice, and within 1e-4 of the reference.
TEST(CudaPairHmm, ShortPathsAroundTheirLimitsGiveTheSameBits)
{
    {
        Backend probe;
        DPA_REQUIRE_GPU(probe);
    }
    const uint64_t seed = dpa_test::test_seed();
    SCOPED_TRACE("DPA_TEST_SEED=" + std::to_string(seed));
    std::mt19937_64 rng(seed);
    dpa_test::Batch batch;
    const std::string ref = dpa_test::random_bases(rng, 700);
    for (int L : { 100, 127, 128, 129, 140, 151, 159, 160, 161, 200, 151, 100 })
        batch.reads.push_back(dpa_test::gatk_read(rng, ref, L));
    for (int n : { 60, 300, 451, 700 }) batch.haps.push_back(ref.substr(0, (size_t)n));
    dpa_pairhmm_batch b = batch.view();
    auto tasks = all_tasks(b);
    const auto want = reference(b, tasks, DPA_PRECISION_DOUBLE);
    std::vector<double> first;
    for (int cfg : { -1, 5, 8, 3, 7, 9 }) {
        ScopedEnv env("DPACCEL_CUDA_FORCE_CFG", std::to_string(cfg));
        Backend bk;
        ASSERT_TRUE(bk.b) << bk.why;
        auto got = gpu(bk, b, tasks, DPA_PRECISION_FLOAT_THEN_DOUBLE);
        expect_close(got, want, 1e-4, seed, ("cfg " + std::to_string(cfg)).c_str());
        if (cfg == -1) first = got;
        EXPECT_EQ(0, std::memcmp(first.data(), got.data(), got.size() * 8))
            << "cfg " << cfg << " differs bitwise from the default configuration";
    }
}

// Prefix sharing (pairhmm_shared_kernel.cu): HaplotypeCaller-shaped regions (SNP haplotypes
// of equal lengths, indels, duplicates; reads in both read classes of the shared kernel, up
// to 128 and 129-160 rows) plus what must not share or must leave the float pass: reads of
// more than 160 rows, a read and a haplotype with a letter outside the float table, a read
// whose mm = 0 (ins + del error >= 1), reads whose float sum underflows (double pass), a
// region of 60 haplotypes (many checkpoints, deep trees), regions of one read (a warp with
// three idle groups). With DPACCEL_CUDA_PREFIX=1 every result must carry exactly the bits of
// the all-pairs kernels (the default), whole and cut into small chunks (regions split
// between chunks), within 1e-4 of the double reference, and the timing lines must show
// shared pairs and pairs that started from another pair's checkpoint.
TEST(CudaPairHmm, PrefixSharingGivesTheAllPairsBits)
{
    {
        Backend probe;
        DPA_REQUIRE_GPU(probe);
    }
    const uint64_t seed = dpa_test::test_seed();
    SCOPED_TRACE("DPA_TEST_SEED=" + std::to_string(seed));
    std::mt19937_64 rng(seed);
    dpa_test::Batch batch;
    for (int g = 0; g < 24; g++)
        dpa_test::make_region(rng, batch, 2 + (int)(rng() % 23), 1 + (int)(rng() % 30),
                              250 + (int)(rng() % 200), g % 3 == 0 ? 110 : 151);
    dpa_test::make_region(rng, batch, 60, 9, 400, 151);
    dpa_test::make_region(rng, batch, 5, 1, 300, 151);
    dpa_test::make_region(rng, batch, 8, 7, 450, 151);
    batch.reads.back() = dpa_test::gatk_read(rng, batch.haps.back(), 200); /* > 160 rows */
    batch.reads[batch.reads.size() - 2].bases[70] = 'R';
    {
        dpa_test::Read &r = batch.reads[batch.reads.size() - 3];
        for (size_t i = 0; i < r.ins.size(); i++) r.ins[i] = 1, r.del[i] = 2; /* mm = 0 */
        dpa_test::Read u = dpa_test::random_read(rng, 151, 40, 40); /* underflows in float */
        batch.reads[batch.reads.size() - 4] = u;
    }
    dpa_test::make_region(rng, batch, 6, 9, 300, 151);
    batch.haps[batch.haps.size() - 2][100] = 'Y';
    dpa_pairhmm_batch b = batch.view();
    std::vector<dpa_phmm_task> tasks; /* the engine's order: groups, read-major */
    {
        int32_t r0 = 0, h0 = 0;
        for (size_t g = 0; g < batch.group_reads.size(); g++) {
            for (int32_t r = 0; r < batch.group_reads[g]; r++)
                for (int32_t h = 0; h < batch.group_haps[g]; h++)
                    tasks.push_back({ r0 + r, h0 + h, (int64_t)tasks.size() });
            r0 += batch.group_reads[g];
            h0 += batch.group_haps[g];
        }
    }
    const auto want = reference(b, tasks, DPA_PRECISION_DOUBLE);
    ScopedEnv lat("DPACCEL_CUDA_LATENCY", "0"); /* latency chunks never share */
    std::vector<double> plain;
    int64_t rec_plain = 0;
    {
        ScopedEnv off("DPACCEL_CUDA_PREFIX", "0");
        Backend bk;
        ASSERT_TRUE(bk.b) << bk.why;
        plain = gpu(bk, b, tasks, DPA_PRECISION_FLOAT_THEN_DOUBLE, &rec_plain);
    }
    ScopedEnv on("DPACCEL_CUDA_PREFIX", "1");
    expect_close(plain, want, 1e-4, seed, "all-pairs kernels");
    EXPECT_GT(rec_plain, 0) << "no pair took the double pass: the test lost its underflow reads";
    /* the default decision, sharing wherever it saves a cell, and small chunks that split
     * regions between chunks */
    const struct { const char *ratio, *chunk; } runs[] = { { "", "" }, { "1.0", "" }, { "1.0", "3000000" } };
    for (const auto &run : runs) {
        const char *chunk = run.chunk;
        ScopedEnv cb("DPACCEL_CUDA_CHUNK_BYTES", chunk);
        ScopedEnv ratio("DPACCEL_CUDA_SHARE_RATIO", run.ratio);
        ScopedEnv tm("DPACCEL_CUDA_TIMING", "1");
        Backend bk;
        ASSERT_TRUE(bk.b) << bk.why;
        testing::internal::CaptureStderr();
        int64_t rec = 0;
        auto got = gpu(bk, b, tasks, DPA_PRECISION_FLOAT_THEN_DOUBLE, &rec);
        const std::string log = testing::internal::GetCapturedStderr();
        EXPECT_EQ(0, std::memcmp(plain.data(), got.data(), got.size() * 8))
            << "ratio '" << run.ratio << "', chunk bytes '" << chunk
            << "': shared results differ bitwise from all-pairs";
        for (size_t k = 0; k < got.size(); k++)
            if (std::memcmp(&plain[k], &got[k], 8) != 0) {
                ADD_FAILURE() << "first difference at result " << k << ": " << got[k]
                              << " vs " << plain[k];
                break;
            }
        EXPECT_EQ(rec, rec_plain) << "double recomputes";
        int64_t shared = 0, chunks = 0;
        int levels = 0;
        for (size_t at = log.find(" shared "); at != std::string::npos;
             at = log.find(" shared ", at + 1), chunks++) {
            shared += std::atoll(log.c_str() + at + 8);
            const size_t lv = log.find(" levels", at);
            const size_t c0 = log.rfind(' ', lv - 1);
            if (lv != std::string::npos) levels = std::max(levels, std::atoi(log.c_str() + c0 + 1));
        }
        EXPECT_GE(levels, 2) << "no pair started from a checkpoint saved by another pair";
        if (chunk[0]) {
            EXPECT_GT(shared, 0) << log;
            EXPECT_GT(chunks, 1) << "the small chunk budget did not split the call";
        } else {
            EXPECT_GT(shared, (int64_t)tasks.size() / 2) << log;
        }
    }
}
