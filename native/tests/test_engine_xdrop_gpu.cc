// X-drop through the public API on the GPU: GPU, HYBRID and AUTO give the CPU's outputs on
// generated long reads (the CPU kernel of this context equals the scalar reference, tested in
// test_xdrop_simd.cc), stats.gpu_pairs counts the GPU's share, and an injected fault (out of
// memory, then a sticky error) is recomputed on the CPU with identical outputs and one
// warning. Runs in the native_engine_gpu CTest set; skipped loudly without a usable GPU.
#include <gtest/gtest.h>

#include <vector>

#include "engine_gpu_util.h"
#include "test_util.h"
#include "xdrop_gen.h"
extern "C" {
#include "engine/context.h"
}

using namespace dpa_test;

namespace {

struct Outs {
    std::vector<int32_t> v[7];
    bool operator==(const Outs &o) const
    {
        for (int k = 0; k < 7; k++)
            if (v[k] != o.v[k]) return false;
        return true;
    }
};

Outs run(dpa_context *ctx, const xd::Batch &b, int backend, int x, dpa_xdrop_stats *st)
{
    const dpa_xdrop_batch v = b.view();
    Outs o;
    for (auto &a : o.v) a.assign((size_t)v.num_pairs, -12345);
    const dpa_xdrop_output out = { o.v[0].data(), o.v[1].data(), o.v[2].data(), o.v[3].data(),
                                   o.v[4].data(), o.v[5].data(), o.v[6].data() };
    dpa_xdrop_params p = xd::params(1, -1, -1, x);
    p.backend = backend;
    EXPECT_EQ(dpa_xdrop_compute(ctx, &v, &p, &out, st), DPA_OK) << dpa_last_error();
    return o;
}

}  // namespace

class EngineXdropGpu : public GpuContextTest {};

TEST_F(EngineXdropGpu, GpuHybridAutoEqualCpu)
{
    const uint64_t seed = test_seed();
    SCOPED_TRACE("DPA_TEST_SEED=" + std::to_string(seed));
    const xd::Batch b(xd::long_read_cases(seed, 40, 4, 6000));
    dpa_xdrop_stats cpu_st, st;
    for (int x : { 10, 100 }) {
        const Outs cpu = run(probe, b, DPA_BACKEND_CPU, x, &cpu_st);
        EXPECT_EQ(cpu_st.gpu_pairs, 0);
        EXPECT_TRUE(run(probe, b, DPA_BACKEND_GPU, x, &st) == cpu) << "GPU, X " << x;
        EXPECT_EQ(st.gpu_pairs, st.pairs);
        EXPECT_EQ(st.cells, cpu_st.cells);
        EXPECT_TRUE(run(probe, b, DPA_BACKEND_HYBRID, x, &st) == cpu) << "HYBRID, X " << x;
        EXPECT_EQ(st.cells, cpu_st.cells);
        EXPECT_TRUE(run(probe, b, DPA_BACKEND_AUTO, x, &st) == cpu) << "AUTO, X " << x;
    }
}

TEST_F(EngineXdropGpu, InjectedFaultsFallBackToIdenticalCpuResults)
{
    const uint64_t seed = test_seed();
    SCOPED_TRACE("DPA_TEST_SEED=" + std::to_string(seed));
    const xd::Batch b(xd::long_read_cases(seed, 10, 3, 4000));
    WarnSink sink;
    dpa_context *ctx = make_gpu_context(DPA_BACKEND_GPU, &sink);
    ASSERT_NE(ctx, nullptr) << dpa_last_error();
    dpa_xdrop_stats st;
    const Outs cpu = run(ctx, b, DPA_BACKEND_CPU, 100, &st);
    int32_t devices = 0;
    dpa_context_device_count(ctx, &devices);
    for (int32_t d = 0; d < devices; d++)
        ASSERT_EQ(ctx->cuda.ops->inject_fault(ctx->cuda.backend, d, DPA_CUDA_FAULT_OOM), DPA_OK);
    EXPECT_TRUE(run(ctx, b, DPA_BACKEND_GPU, 100, &st) == cpu) << "after OOM";
    for (int32_t d = 0; d < devices; d++)
        ASSERT_EQ(ctx->cuda.ops->inject_fault(ctx->cuda.backend, d, DPA_CUDA_FAULT_NONE), DPA_OK);
    for (int32_t d = 0; d < devices; d++)
        ASSERT_EQ(ctx->cuda.ops->inject_fault(ctx->cuda.backend, d, DPA_CUDA_FAULT_STICKY), DPA_OK);
    EXPECT_TRUE(run(ctx, b, DPA_BACKEND_GPU, 100, &st) == cpu) << "after a sticky error";
    EXPECT_EQ(sink.warnings.size(), 1u);
    dpa_context_destroy(ctx);
}
