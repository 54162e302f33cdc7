// Smith-Waterman through the public API on the GPU paths: GPU, AUTO and HYBRID give CIGARs,
// offsets and stats byte-identical to the CPU backend (itself identical to the scalar
// reference, test_sw*.cc); an injected fault recomputes on the CPU with identical results and
// one warning; a retired device makes an explicit GPU request fail with DPA_ERR_NO_DEVICE.
// Runs in the native_engine_gpu CTest entry; skips loudly where no GPU is usable.
#include <gtest/gtest.h>

#include <cstring>
#include <mutex>

#include "engine_gpu_util.h"
#include "sw_gen.h"
#include "test_util.h"
extern "C" {
#include "engine/context.h"
}

using namespace dpa_swgen;

namespace {

using Sink = dpa_test::WarnSink;
inline dpa_context *make(int backend, Sink *sink = nullptr) { return dpa_test::make_gpu_context(backend, sink); }

struct Out {
    std::string cigars;
    std::vector<int64_t> starts;
    std::vector<int32_t> lens, offs;
    dpa_sw_stats st;
    dpa_status status;
    bool operator==(const Out &o) const
    {
        return cigars == o.cigars && starts == o.starts && lens == o.lens && offs == o.offs;
    }
};

Out align(dpa_context *ctx, const SwBatch &sb, const Params &p, int ov, int backend)
{
    dpa_sw_batch b = sb.view();
    dpa_sw_params sp = make_params(p, ov, backend);
    int64_t cap = 0;
    EXPECT_EQ(dpa_sw_cigar_capacity(&b, &cap), DPA_OK);
    Out o;
    o.cigars.assign((size_t)cap, '?');
    o.starts.assign(sb.rl.size(), -1);
    o.lens.assign(sb.rl.size(), -1);
    o.offs.assign(sb.rl.size(), -1);
    dpa_sw_output out = { &o.cigars[0], cap, o.starts.data(), o.lens.data(), o.offs.data() };
    std::memset(&o.st, 0, sizeof o.st);
    o.status = dpa_sw_compute(ctx, &b, &sp, &out, &o.st);
    o.cigars.resize((size_t)o.st.cigar_bytes);
    return o;
}

class EngineSwGpu : public dpa_test::GpuContextTest {
  protected:
    void SetUp() override
    {
        GpuContextTest::SetUp();
        if (IsSkipped()) return;
        seed = dpa_test::test_seed();
        rng.seed(seed);
    }
    uint64_t seed = 0;
    std::mt19937_64 rng;
};

TEST_F(EngineSwGpu, AllBackendsIdenticalToCpu)
{
    SCOPED_TRACE("DPA_TEST_SEED=" + std::to_string(seed));
    Pairs p = hap_to_ref(rng, 300);
    Pairs r = reads_to_hap(rng, 2000);
    Pairs d = dangling(rng, 500);
    p.insert(p.end(), r.begin(), r.end());
    p.insert(p.end(), d.begin(), d.end());
    SwBatch sb(p);
    for (const Params &prm : { NEW_SW, READ_TO_HAP, STANDARD_NGS })
        for (int ov = 0; ov < 4; ov++) {
            SCOPED_TRACE("overhang " + std::to_string(ov) + " match " + std::to_string(prm.match));
            Out cpu = align(probe, sb, prm, ov, DPA_BACKEND_CPU);
            Out gpu = align(probe, sb, prm, ov, DPA_BACKEND_GPU);
            Out hyb = align(probe, sb, prm, ov, DPA_BACKEND_HYBRID);
            Out aut = align(probe, sb, prm, ov, DPA_BACKEND_AUTO);
            ASSERT_EQ(cpu.status, DPA_OK) << dpa_last_error();
            ASSERT_EQ(gpu.status, DPA_OK) << dpa_last_error();
            ASSERT_EQ(hyb.status, DPA_OK) << dpa_last_error();
            ASSERT_EQ(aut.status, DPA_OK) << dpa_last_error();
            EXPECT_EQ(cpu.st.gpu_pairs, 0);
            EXPECT_EQ(gpu.st.gpu_pairs, (int64_t)p.size());
            EXPECT_TRUE(cpu == gpu);
            EXPECT_TRUE(cpu == hyb);
            EXPECT_TRUE(cpu == aut);
            EXPECT_EQ(cpu.st.exact_matches, gpu.st.exact_matches);
            EXPECT_EQ(cpu.st.exact_matches, hyb.st.exact_matches);
            EXPECT_EQ(cpu.st.cells, gpu.st.cells);
            for (size_t i = 0; i < p.size() && !(cpu == gpu); i++)
                if (cpu.lens[i] != gpu.lens[i] || cpu.offs[i] != gpu.offs[i]) {
                    ADD_FAILURE() << "pair " << i << " differs";
                    break;
                }
        }
}

TEST_F(EngineSwGpu, AutoKeepsOnePairOnTheCpu)
{
    SwBatch sb(hap_to_ref(rng, 1));
    Out o = align(probe, sb, NEW_SW, DPA_SW_OVERHANG_INDEL, DPA_BACKEND_AUTO);
    ASSERT_EQ(o.status, DPA_OK) << dpa_last_error();
    EXPECT_EQ(o.st.gpu_pairs, 0);
}

TEST_F(EngineSwGpu, InjectedFaultsFallBackToIdenticalCpuResults)
{
    SCOPED_TRACE("DPA_TEST_SEED=" + std::to_string(seed));
    Sink sink;
    dpa_context *ctx = make(DPA_BACKEND_GPU, &sink);
    ASSERT_NE(ctx, nullptr) << dpa_last_error();
    int32_t devices = 0;
    dpa_context_device_count(ctx, &devices);
    SwBatch sb(reads_to_hap(rng, 500));
    Out cpu = align(ctx, sb, READ_TO_HAP, DPA_SW_OVERHANG_SOFTCLIP, DPA_BACKEND_CPU);
    ASSERT_EQ(cpu.status, DPA_OK);

    for (int32_t d = 0; d < devices; d++)
        ASSERT_EQ(ctx->cuda.ops->inject_fault(ctx->cuda.backend, d, DPA_CUDA_FAULT_OOM), DPA_OK);
    Out oom = align(ctx, sb, READ_TO_HAP, DPA_SW_OVERHANG_SOFTCLIP, DPA_BACKEND_GPU);
    ASSERT_EQ(oom.status, DPA_OK) << dpa_last_error();
    EXPECT_TRUE(cpu == oom);
    EXPECT_EQ(cpu.st.exact_matches, oom.st.exact_matches);
    EXPECT_LT(oom.st.gpu_pairs, (int64_t)sb.rl.size());
    for (int32_t d = 0; d < devices; d++)
        ASSERT_EQ(ctx->cuda.ops->inject_fault(ctx->cuda.backend, d, DPA_CUDA_FAULT_NONE), DPA_OK);
    dpa_device_info info;
    ASSERT_EQ(dpa_context_device_info(ctx, 0, &info), DPA_OK);
    EXPECT_EQ(info.usable, 1);

    for (int32_t d = 0; d < devices; d++)
        ASSERT_EQ(ctx->cuda.ops->inject_fault(ctx->cuda.backend, d, DPA_CUDA_FAULT_STICKY), DPA_OK);
    Out sticky = align(ctx, sb, READ_TO_HAP, DPA_SW_OVERHANG_SOFTCLIP, DPA_BACKEND_GPU);
    ASSERT_EQ(sticky.status, DPA_OK) << dpa_last_error();
    EXPECT_TRUE(cpu == sticky);
    EXPECT_EQ(sink.warnings.size(), 1u);
    if (!sink.warnings.empty())
        EXPECT_NE(sink.warnings[0].find("Smith-Waterman"), std::string::npos) << sink.warnings[0];
    if (devices == 1) {
        Out none = align(ctx, sb, READ_TO_HAP, DPA_SW_OVERHANG_SOFTCLIP, DPA_BACKEND_GPU);
        EXPECT_EQ(none.status, DPA_ERR_NO_DEVICE);
        EXPECT_NE(std::string(dpa_last_error()).find("retired"), std::string::npos) << dpa_last_error();
        Out au = align(ctx, sb, READ_TO_HAP, DPA_SW_OVERHANG_SOFTCLIP, DPA_BACKEND_AUTO);
        ASSERT_EQ(au.status, DPA_OK);
        EXPECT_TRUE(cpu == au);
    }
    dpa_context_destroy(ctx);
}

// A batch above the engine's radix-sort threshold (4096 pairs), on the CPU: the sort only
// orders the work, so every pair must still equal the scalar reference. Runs everywhere.
TEST(SwLargeBatch, RadixSortedBatchMatchesScalar)
{
    uint64_t seed = dpa_test::test_seed();
    SCOPED_TRACE("DPA_TEST_SEED=" + std::to_string(seed));
    std::mt19937_64 rng(seed);
    Pairs p = dangling(rng, 6000);
    for (int k = 0; k < 200; k++) p.push_back(p[rng() % p.size()]); // equal cells: tie order
    SwBatch sb(p);
    dpa_context *ctx = make(DPA_BACKEND_CPU);
    ASSERT_NE(ctx, nullptr) << dpa_last_error();
    for (int ov = 0; ov < 4; ov++) {
        dpa_sw_params sp = make_params(STANDARD_NGS, ov);
        int64_t exact = 0;
        std::vector<Result> want = scalar_results(p, sp, &exact);
        Out got = align(ctx, sb, STANDARD_NGS, ov, DPA_BACKEND_CPU);
        ASSERT_EQ(got.status, DPA_OK) << dpa_last_error();
        EXPECT_EQ(got.st.exact_matches, exact);
        int bad = 0;
        for (size_t i = 0; i < p.size() && bad < 5; i++) {
            Result r{ got.cigars.substr((size_t)got.starts[i], (size_t)got.lens[i]), got.offs[i] };
            if (!(r == want[i])) {
                bad++;
                ADD_FAILURE() << "pair " << i << ": " << r.cigar << " @ " << r.offset << " vs "
                              << want[i].cigar << " @ " << want[i].offset;
            }
        }
    }
    dpa_context_destroy(ctx);
}

}  // namespace
