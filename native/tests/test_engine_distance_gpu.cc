// The genotype distance through the public API on the GPU: GPU, HYBRID and AUTO give the CPU's
// counts for the triangle and for a tile (several tiles per call, so HYBRID splits them), and
// an injected fault (out of memory, then a sticky error) is recomputed on the CPU with the
// same counts and one warning. Runs in the native_engine_gpu CTest set; skipped loudly on
// machines without a usable GPU.
#include <gtest/gtest.h>

#include <cstring>
#include <random>
#include <vector>

#include "engine_gpu_util.h"
#include "test_util.h"
extern "C" {
#include "engine/context.h"
}

using namespace dpa_test;

namespace {

struct Geno {
    int32_t n;
    int64_t m;
    std::vector<uint8_t> rows, use;
    dpa_genotype_batch view() const { return { n, m, (n + 3) / 4, rows.data(), use.data() }; }
};

Geno random_geno(std::mt19937_64 &rng, int32_t n, int64_t m)
{
    Geno g{ n, m, std::vector<uint8_t>((size_t)((n + 3) / 4 * m)), std::vector<uint8_t>((size_t)m) };
    for (auto &b : g.rows) b = (uint8_t)rng();
    for (auto &u : g.use) u = rng() % 10 != 0;
    return g;
}

std::vector<uint32_t> counts(dpa_context *ctx, const Geno &g, const dpa_distance_tile *t,
                             int backend, dpa_distance_stats *st)
{
    const dpa_genotype_batch b = g.view();
    int64_t pairs = 0;
    EXPECT_EQ(dpa_distance_pair_count(&b, t, &pairs), DPA_OK);
    std::vector<uint32_t> out((size_t)pairs * 7, 0xdeadbeefu);
    dpa_distance_params p;
    dpa_distance_params_init(&p);
    p.backend = backend;
    p.block = 32;
    EXPECT_EQ(dpa_distance_counts(ctx, &b, t, &p, out.data(), (int64_t)out.size(), st), DPA_OK)
        << dpa_last_error();
    return out;
}

}  // namespace

class EngineDistGpu : public GpuContextTest {};

TEST_F(EngineDistGpu, GpuHybridAutoEqualCpu)
{
    const uint64_t seed = test_seed();
    SCOPED_TRACE("DPA_TEST_SEED=" + std::to_string(seed));
    std::mt19937_64 rng(seed);
    const Geno g = random_geno(rng, 333, 3001);
    const dpa_distance_tile tile = { 50, 300, 10, 333 };
    dpa_distance_stats st;
    for (const dpa_distance_tile *t : { (const dpa_distance_tile *)nullptr, &tile }) {
        SCOPED_TRACE(t ? "tile" : "triangle");
        const std::vector<uint32_t> cpu = counts(probe, g, t, DPA_BACKEND_CPU, &st);
        EXPECT_EQ(st.gpu_pairs, 0);
        const std::vector<uint32_t> gpu = counts(probe, g, t, DPA_BACKEND_GPU, &st);
        EXPECT_EQ(st.gpu_pairs, st.pairs) << "GPU-forced: every pair on the GPU";
        EXPECT_EQ(gpu, cpu) << "GPU";
        EXPECT_EQ(counts(probe, g, t, DPA_BACKEND_HYBRID, &st), cpu) << "HYBRID";
        EXPECT_EQ(counts(probe, g, t, DPA_BACKEND_AUTO, &st), cpu) << "AUTO";
    }
}

// HYBRID and AUTO calls that the cost model sends to the GPU alone take the GPU-only path
// (planes built on the device); a floor of 100% forces that for HYBRID here
TEST_F(EngineDistGpu, HybridResolvedToGpuAloneBuildsPlanesOnTheDevice)
{
    const uint64_t seed = test_seed();
    SCOPED_TRACE("DPA_TEST_SEED=" + std::to_string(seed));
    std::mt19937_64 rng(seed);
    const Geno g = random_geno(rng, 211, 1999);
    const dpa_distance_tile tile = { 0, 100, 90, 211 };
    setenv("DPACCEL_HYBRID_MIN_CPU_SHARE", "100", 1);
    dpa_context *ctx = make_gpu_context(DPA_BACKEND_HYBRID);
    unsetenv("DPACCEL_HYBRID_MIN_CPU_SHARE");
    ASSERT_NE(ctx, nullptr) << dpa_last_error();
    dpa_distance_stats st;
    for (const dpa_distance_tile *t : { (const dpa_distance_tile *)nullptr, &tile }) {
        SCOPED_TRACE(t ? "tile" : "triangle");
        const std::vector<uint32_t> cpu = counts(ctx, g, t, DPA_BACKEND_CPU, &st);
        EXPECT_EQ(counts(ctx, g, t, DPA_BACKEND_HYBRID, &st), cpu);
        EXPECT_EQ(st.gpu_pairs, st.pairs) << "HYBRID under a 100% floor runs on the GPU alone";
    }
    dpa_context_destroy(ctx);
}

TEST_F(EngineDistGpu, InjectedFaultsFallBackToIdenticalCpuCounts)
{
    const uint64_t seed = test_seed();
    SCOPED_TRACE("DPA_TEST_SEED=" + std::to_string(seed));
    std::mt19937_64 rng(seed);
    const Geno g = random_geno(rng, 150, 2000);
    WarnSink sink;
    dpa_context *ctx = make_gpu_context(DPA_BACKEND_GPU, &sink);
    ASSERT_NE(ctx, nullptr) << dpa_last_error();
    dpa_distance_stats st;
    const std::vector<uint32_t> cpu = counts(ctx, g, nullptr, DPA_BACKEND_CPU, &st);
    int32_t devices = 0;
    dpa_context_device_count(ctx, &devices);
    for (int32_t d = 0; d < devices; d++)
        ASSERT_EQ(ctx->cuda.ops->inject_fault(ctx->cuda.backend, d, DPA_CUDA_FAULT_OOM), DPA_OK);
    EXPECT_EQ(counts(ctx, g, nullptr, DPA_BACKEND_GPU, &st), cpu) << "after OOM";
    for (int32_t d = 0; d < devices; d++)
        ASSERT_EQ(ctx->cuda.ops->inject_fault(ctx->cuda.backend, d, DPA_CUDA_FAULT_NONE), DPA_OK);
    for (int32_t d = 0; d < devices; d++)
        ASSERT_EQ(ctx->cuda.ops->inject_fault(ctx->cuda.backend, d, DPA_CUDA_FAULT_STICKY), DPA_OK);
    EXPECT_EQ(counts(ctx, g, nullptr, DPA_BACKEND_GPU, &st), cpu) << "after a sticky error";
    EXPECT_EQ(sink.warnings.size(), 1u);
    dpa_context_destroy(ctx);
}
