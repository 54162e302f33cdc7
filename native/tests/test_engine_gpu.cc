// The engine's GPU paths through the public API: GPU, AUTO and HYBRID against the CPU,
// identical run to run, and the fault path (a GPU error injected through the CUDA
// backend's test-only switch: the batch is recomputed on the CPU with identical results,
// one warning is logged, a sticky fault retires the device). Runs as its own CTest entry
// without DPACCEL_GPU_DISABLE; skipped loudly on machines without a usable GPU.
#include <gtest/gtest.h>

#include <atomic>
#include <cmath>
#include <cstring>
#include <mutex>
#include <thread>

#include "engine_gpu_util.h"
#include "test_util.h"
extern "C" {
#include "engine/context.h"
}

using namespace dpa_test;

namespace {

using LogSink = WarnSink;
inline dpa_context *make(int backend, LogSink *sink = nullptr) { return make_gpu_context(backend, sink); }

Batch mixed(std::mt19937_64 &rng, int groups)
{
    Batch b;
    for (int g = 0; g < groups; g++) {
        int nh = 1 + (int)(rng() % 4), nr = 1 + (int)(rng() % 40);
        std::string ref = random_bases(rng, 1 + (int)(rng() % 600), "ACGTN");
        for (int h = 0; h < nh; h++) b.haps.push_back(random_bases(rng, 1 + (int)(rng() % 700)));
        for (int r = 0; r < nr; r++) {
            int len = 1 + (int)(rng() % 400);
            b.reads.push_back(rng() % 3 ? gatk_read(rng, ref, len) : random_read(rng, len, 6, 127));
        }
        b.group_reads.push_back(nr);
        b.group_haps.push_back(nh);
    }
    return b;
}

std::vector<double> run(dpa_context *ctx, Batch &b, int backend, dpa_pairhmm_stats *st,
                        int precision = DPA_PRECISION_FLOAT_THEN_DOUBLE)
{
    dpa_pairhmm_batch v = b.view();
    std::vector<double> out((size_t)b.results(), NAN);
    dpa_pairhmm_params p;
    dpa_pairhmm_params_init(&p);
    p.backend = backend;
    p.precision = precision;
    EXPECT_EQ(dpa_pairhmm_compute(ctx, &v, &p, out.data(), (int64_t)out.size(), st), DPA_OK)
        << dpa_last_error();
    return out;
}

bool close_enough(double a, double b) { return (std::isnan(a) && std::isnan(b)) || a == b || std::fabs(a - b) <= 1e-4; }

}  // namespace

class EngineGpu : public GpuContextTest {};

TEST_F(EngineGpu, GpuAutoHybridAgreeWithCpuAndRepeatBitwise)
{
    uint64_t seed = test_seed();
    SCOPED_TRACE("DPA_TEST_SEED=" + std::to_string(seed));
    std::mt19937_64 rng(seed);
    Batch b = mixed(rng, 60);
    dpa_pairhmm_stats cpu_st, gpu_st, gpu2_st, hy_st, auto_st;
    std::vector<double> cpu = run(probe, b, DPA_BACKEND_CPU, &cpu_st);
    std::vector<double> gpu = run(probe, b, DPA_BACKEND_GPU, &gpu_st);
    std::vector<double> gpu2 = run(probe, b, DPA_BACKEND_GPU, &gpu2_st);
    std::vector<double> hy = run(probe, b, DPA_BACKEND_HYBRID, &hy_st);
    std::vector<double> au = run(probe, b, DPA_BACKEND_AUTO, &auto_st);
    EXPECT_EQ(cpu_st.gpu_pairs, 0);
    EXPECT_EQ(gpu_st.gpu_pairs, gpu_st.pairs);
    for (size_t i = 0; i < cpu.size(); i++) {
        ASSERT_TRUE(close_enough(cpu[i], gpu[i])) << i << ": cpu " << cpu[i] << " gpu " << gpu[i];
        ASSERT_TRUE(close_enough(cpu[i], hy[i])) << i << ": cpu " << cpu[i] << " hybrid " << hy[i];
        ASSERT_TRUE(close_enough(cpu[i], au[i])) << i;
        ASSERT_EQ(std::memcmp(&gpu[i], &gpu2[i], sizeof(double)), 0) << "GPU not repeatable at " << i;
    }
    std::vector<double> d = run(probe, b, DPA_BACKEND_GPU, &gpu_st, DPA_PRECISION_DOUBLE);
    std::vector<double> dc = run(probe, b, DPA_BACKEND_CPU, &cpu_st, DPA_PRECISION_DOUBLE);
    for (size_t i = 0; i < d.size(); i++) ASSERT_TRUE(close_enough(d[i], dc[i])) << i;
}

// options.gpu_devices: the last visible device alone (CUDA's ordinal kept in its info and
// the context line), an ordinal past the visible ones is no GPU (NO_DEVICE for backend GPU,
// naming the device), and the chosen device computes what the CPU does.
TEST_F(EngineGpu, GpuDevicesPicksDevicesByOrdinal)
{
    int32_t visible = 0;
    ASSERT_EQ(dpa_context_device_count(probe, &visible), DPA_OK);
    const std::string last = std::to_string(visible - 1), past = std::to_string(visible);
    dpa_options o;
    dpa_options_init(&o);
    o.num_threads = 2;
    o.backend = DPA_BACKEND_GPU;
    o.gpu_disable = 0;
    o.gpu_devices = last.c_str();
    dpa_context *ctx = nullptr;
    ASSERT_EQ(dpa_context_create(&o, &ctx), DPA_OK) << dpa_last_error();
    int32_t n = 0;
    dpa_context_device_count(ctx, &n);
    EXPECT_EQ(n, 1);
    dpa_device_info info;
    ASSERT_EQ(dpa_context_device_info(ctx, 0, &info), DPA_OK);
    EXPECT_EQ(info.index, 0);
    EXPECT_EQ(info.cuda_ordinal, visible - 1);
    std::mt19937_64 rng(test_seed());
    Batch b = mixed(rng, 6);
    dpa_context *cpu = make(DPA_BACKEND_CPU);
    ASSERT_NE(cpu, nullptr);
    const std::vector<double> want = run(cpu, b, DPA_BACKEND_CPU, nullptr);
    dpa_pairhmm_stats st;
    const std::vector<double> got = run(ctx, b, DPA_BACKEND_GPU, &st);
    for (size_t i = 0; i < want.size(); i++) ASSERT_TRUE(close_enough(got[i], want[i])) << i;
    EXPECT_GT(st.gpu_pairs, 0);
    dpa_context_destroy(cpu);
    dpa_context_destroy(ctx);
    o.gpu_devices = past.c_str();
    ctx = nullptr;
    EXPECT_EQ(dpa_context_create(&o, &ctx), DPA_ERR_NO_DEVICE);
    EXPECT_NE(std::string(dpa_last_error()).find("GPU device " + past + " was asked for"), std::string::npos)
        << dpa_last_error();
    EXPECT_EQ(ctx, nullptr);
}

TEST_F(EngineGpu, AutoKeepsTinyBatchesOnTheCpu)
{
    std::mt19937_64 rng(5);
    Batch b;
    b.haps.push_back(random_bases(rng, 20));
    b.reads.push_back(gatk_read(rng, b.haps[0], 10));
    dpa_pairhmm_stats st;
    run(probe, b, DPA_BACKEND_AUTO, &st);
    EXPECT_EQ(st.gpu_pairs, 0);
}

TEST_F(EngineGpu, InjectedFaultsFallBackToIdenticalCpuResults)
{
    uint64_t seed = test_seed();
    SCOPED_TRACE("DPA_TEST_SEED=" + std::to_string(seed));
    std::mt19937_64 rng(seed);
    Batch b = mixed(rng, 20);
    LogSink sink;
    dpa_context *ctx = make(DPA_BACKEND_GPU, &sink);
    ASSERT_NE(ctx, nullptr) << dpa_last_error();
    dpa_pairhmm_stats st;
    std::vector<double> cpu = run(ctx, b, DPA_BACKEND_CPU, &st);
    std::vector<double> gpu = run(ctx, b, DPA_BACKEND_GPU, &st);
    // Every result is bitwise the CPU's (recomputed after the fault) or the GPU's (a device
    // that did not fail: with several GPUs the batch may land elsewhere).
    auto cpu_or_gpu = [&](const std::vector<double> &got, const char *what) {
        size_t from_cpu = 0;
        for (size_t i = 0; i < cpu.size(); i++) {
            bool c = std::memcmp(&cpu[i], &got[i], sizeof(double)) == 0;
            bool g = std::memcmp(&gpu[i], &got[i], sizeof(double)) == 0;
            ASSERT_TRUE(c || g) << what << ": result " << i << " is neither the CPU's nor the GPU's";
            from_cpu += c;
        }
        EXPECT_GT(from_cpu, 0u) << what << ": nothing was recomputed on the CPU";
    };
    int32_t devices = 0;
    dpa_context_device_count(ctx, &devices);

    // out of memory: recomputed on the CPU, device stays in service. Devices are used
    // round-robin for small batches, so arm every device.
    for (int32_t d = 0; d < devices; d++)
        ASSERT_EQ(ctx->cuda.ops->inject_fault(ctx->cuda.backend, d, DPA_CUDA_FAULT_OOM), DPA_OK);
    std::vector<double> oom = run(ctx, b, DPA_BACKEND_GPU, &st);
    if (devices == 1) {
        for (size_t i = 0; i < cpu.size(); i++)
            ASSERT_EQ(std::memcmp(&cpu[i], &oom[i], sizeof(double)), 0) << "fallback differs at " << i;
    } else {
        cpu_or_gpu(oom, "OOM");
    }
    for (int32_t d = 0; d < devices; d++)  // disarm whatever this call did not trigger
        ASSERT_EQ(ctx->cuda.ops->inject_fault(ctx->cuda.backend, d, DPA_CUDA_FAULT_NONE), DPA_OK);
    dpa_device_info info;
    ASSERT_EQ(dpa_context_device_info(ctx, 0, &info), DPA_OK);
    EXPECT_EQ(info.usable, 1);

    // sticky: the device retired, results still exact, one warning per context
    for (int32_t d = 0; d < devices; d++)
        ASSERT_EQ(ctx->cuda.ops->inject_fault(ctx->cuda.backend, d, DPA_CUDA_FAULT_STICKY), DPA_OK);
    std::vector<double> sticky = run(ctx, b, DPA_BACKEND_GPU, &st);
    if (devices == 1) {
        for (size_t i = 0; i < cpu.size(); i++)
            ASSERT_EQ(std::memcmp(&cpu[i], &sticky[i], sizeof(double)), 0) << i;
        ASSERT_EQ(dpa_context_device_info(ctx, 0, &info), DPA_OK);
        EXPECT_EQ(info.usable, 0);
    } else {
        cpu_or_gpu(sticky, "sticky");
    }
    EXPECT_EQ(sink.warnings.size(), 1u);
    if (devices == 1) {
        dpa_pairhmm_batch v = b.view();
        std::vector<double> out((size_t)b.results());
        dpa_pairhmm_params p;
        dpa_pairhmm_params_init(&p);
        p.backend = DPA_BACKEND_GPU;
        EXPECT_EQ(dpa_pairhmm_compute(ctx, &v, &p, out.data(), (int64_t)out.size(), nullptr),
                  DPA_ERR_NO_DEVICE);
        EXPECT_NE(std::string(dpa_last_error()).find("retired"), std::string::npos) << dpa_last_error();
    }
    dpa_context_destroy(ctx);
}

// Many JVM-like threads on one context, mixing per-call backends and precisions on the GPU
// machine (the CPU-only twin is ReliabilityConcurrency). Each thread's calls must give what the
// same call gives alone: bitwise for CPU and GPU (a pair's GPU bits do not depend on its
// neighbours, chunking or device), within 1e-4 for AUTO/HYBRID (a pair may land on either).
TEST_F(EngineGpu, ConcurrentCallersMixedBackendsMatchSoloCalls)
{
    const uint64_t seed = test_seed();
    SCOPED_TRACE("DPA_TEST_SEED=" + std::to_string(seed));
    std::mt19937_64 rng(seed);
    const int kBatches = 6, kThreads = 8, kCalls = 12;
    std::vector<Batch> batches;
    for (int i = 0; i < kBatches; i++) batches.push_back(mixed(rng, 1 + (int)(rng() % 40)));
    struct Solo {
        std::vector<double> cpu, gpu, gpu_double;
    };
    std::vector<Solo> solo(kBatches);
    for (int i = 0; i < kBatches; i++) {
        solo[i].cpu = run(probe, batches[i], DPA_BACKEND_CPU, nullptr);
        solo[i].gpu = run(probe, batches[i], DPA_BACKEND_GPU, nullptr);
        solo[i].gpu_double = run(probe, batches[i], DPA_BACKEND_GPU, nullptr, DPA_PRECISION_DOUBLE);
    }
    const int backends[] = { DPA_BACKEND_CPU, DPA_BACKEND_GPU, DPA_BACKEND_AUTO, DPA_BACKEND_HYBRID };
    // Batch::view() rebuilds the batch's byte vectors: made once here, shared read-only below
    std::vector<dpa_pairhmm_batch> views;
    for (Batch &b : batches) views.push_back(b.view());
    std::atomic<int> mismatches{ 0 }, failures{ 0 };
    std::vector<std::string> first_error(kThreads);
    std::vector<std::thread> threads;
    for (int t = 0; t < kThreads; t++) {
        threads.emplace_back([&, t] {
            std::mt19937_64 trng(seed * 31 + (uint64_t)t);
            for (int c = 0; c < kCalls; c++) {
                const int bi = (int)(trng() % kBatches);
                const int backend = backends[trng() % 4];
                const bool dbl = backend == DPA_BACKEND_GPU && trng() % 4 == 0;
                Batch &b = batches[(size_t)bi];
                dpa_pairhmm_batch v = views[(size_t)bi];
                std::vector<double> out((size_t)b.results(), NAN);
                dpa_pairhmm_params p;
                dpa_pairhmm_params_init(&p);
                p.backend = backend;
                p.precision = dbl ? DPA_PRECISION_DOUBLE : DPA_PRECISION_FLOAT_THEN_DOUBLE;
                if (dpa_pairhmm_compute(probe, &v, &p, out.data(), (int64_t)out.size(), nullptr) != DPA_OK) {
                    if (failures++ == 0) first_error[(size_t)t] = dpa_last_error();
                    continue;
                }
                const std::vector<double> &want =
                    dbl ? solo[bi].gpu_double : backend == DPA_BACKEND_GPU ? solo[bi].gpu : solo[bi].cpu;
                const bool bitwise = backend == DPA_BACKEND_CPU || backend == DPA_BACKEND_GPU;
                for (size_t i = 0; i < out.size(); i++) {
                    const bool ok = bitwise ? std::memcmp(&out[i], &want[i], sizeof(double)) == 0
                                            : close_enough(out[i], want[i]);
                    if (!ok) {
                        mismatches++;
                        break;
                    }
                }
            }
        });
    }
    for (auto &th : threads) th.join();
    std::string errs;
    for (auto &e : first_error) errs += e.empty() ? "" : e + "; ";
    EXPECT_EQ(failures.load(), 0) << errs;
    EXPECT_EQ(mismatches.load(), 0) << "calls whose results differ from the same call made alone";
}

// HYBRID: a batch too small to split (one region) goes whole to the GPU; a large one goes
// through HYBRID's sharing (PairHMM's floor on the CPU's predicted share lifted: by default it
// keeps this batch on the GPU alone), with results equal to the CPU's within 1e-4 either way.
// How much the CPU workers take depends on the rates measured during the call (an H200 took
// all of it, an H100 left the CPU the cheap end); that rule is tested with a fake GPU
// (EngineScheduler.HybridSharesABigBatch..., HybridCpuWorkersLeaveChunks...).
TEST_F(EngineGpu, HybridSharesLargeBatchesAndKeepsRegionsOnTheGpu)
{
    const uint64_t seed = test_seed();
    SCOPED_TRACE("DPA_TEST_SEED=" + std::to_string(seed));
    std::mt19937_64 rng(seed);
    Batch region;  // a HaplotypeCaller-sized region: 40 reads of 150 x 4 haplotypes of 400
    for (int h = 0; h < 4; h++) region.haps.push_back(random_bases(rng, 400));
    for (int r = 0; r < 40; r++) region.reads.push_back(gatk_read(rng, region.haps[(size_t)(r % 4)], 150));
    region.group_reads.push_back(40);
    region.group_haps.push_back(4);
    dpa_pairhmm_stats st;
    run(probe, region, DPA_BACKEND_HYBRID, &st);
    EXPECT_EQ(st.gpu_pairs, st.pairs) << "a one-region call under HYBRID left the GPU";

    Batch big;  // 2 groups x 36 reads of 600 x 10 haplotypes of 1000: 432 M cells
    for (int g = 0; g < 2; g++) {
        for (int h = 0; h < 10; h++) big.haps.push_back(random_bases(rng, 1000));
        for (int r = 0; r < 36; r++) big.reads.push_back(gatk_read(rng, big.haps[big.haps.size() - 1 - (size_t)(r % 10)], 600));
        big.group_reads.push_back(36);
        big.group_haps.push_back(10);
    }
    dpa_pairhmm_stats cpu_st, hy_st;
    std::vector<double> cpu = run(probe, big, DPA_BACKEND_CPU, &cpu_st);
    setenv("DPACCEL_HYBRID_MIN_CPU_SHARE", "0", 1);
    dpa_context *shares = make(DPA_BACKEND_HYBRID);
    unsetenv("DPACCEL_HYBRID_MIN_CPU_SHARE");
    ASSERT_NE(shares, nullptr);
    std::vector<double> hy = run(shares, big, DPA_BACKEND_HYBRID, &hy_st);
    dpa_context_destroy(shares);
    EXPECT_GT(hy_st.gpu_pairs, 0);
    EXPECT_LE(hy_st.gpu_pairs, hy_st.pairs);
    EXPECT_EQ(hy_st.pairs, (int64_t)big.reads.size() * 10);
    for (size_t i = 0; i < cpu.size(); i++) ASSERT_TRUE(close_enough(cpu[i], hy[i])) << i;
}
