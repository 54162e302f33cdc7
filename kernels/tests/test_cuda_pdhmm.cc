// test_cuda_pdhmm.cc — the CUDA PDHMM entry (pdhmm_cuda.cu) against the scalar reference, bit
// for bit, on fresh-seed GATK-shaped and wild pairs, both row modes, edge shapes; and through
// dpa_pdhmm_compute with backend GPU. Skips loudly without a usable GPU.
#include <gtest/gtest.h>

#include <cstring>
#include <random>
#include <vector>

#include "cuda_test_util.h"
#include "pdhmm_gen.h"

extern "C" {
#include "cpu/pdhmm/pdhmm.h"
}

namespace {

std::vector<pdg::Case> cases(uint64_t seed, int n)
{
    std::mt19937_64 rng(seed);
    std::vector<pdg::Case> cs;
    for (int k = 0; k < n; k++) {
        const int h = std::uniform_int_distribution<int>(1, 500)(rng);
        const int r = std::uniform_int_distribution<int>(1, 250)(rng);
        cs.push_back(pdg::gatk_case(rng, h, r, k % 3 == 0));
    }
    const int shapes[][2] = { { 1, 1 }, { 1, 40 }, { 40, 1 }, { 2000, 300 } };
    for (const auto &s : shapes) cs.push_back(pdg::gatk_case(rng, s[0], s[1], false));
    return cs;
}

TEST(CudaPdhmm, EntryMatchesScalarBitForBit)
{
    dpa_cuda_test::Backend bk;
    DPA_REQUIRE_GPU(bk);
    const dpa_cuda_pdhmm_entry *e = dpa_cuda_pdhmm_of(bk.ops);
    ASSERT_NE(e, nullptr) << "the CUDA library has no PDHMM entry";
    const uint64_t seed = dpa_test::test_seed();
    SCOPED_TRACE("seed " + std::to_string(seed));
    std::printf("[ cuda pdhmm ] seed %llu\n", (unsigned long long)seed);
    const std::vector<pdg::Case> cs = cases(seed, 700);
    pdg::Batch b(cs);
    const dpa_pdhmm_batch v = b.view();
    ASSERT_EQ(dpa_pdhmm_validate(&v), DPA_OK) << dpa_last_error();
    std::vector<int32_t> pairs(cs.size());
    for (size_t i = 0; i < cs.size(); i++) pairs[i] = (int32_t)(cs.size() - 1 - i);
    for (int32_t rows : { DPA_PDHMM_ROWS_GATK, DPA_PDHMM_ROWS_GKL }) {
        std::vector<double> want(cs.size()), got(cs.size(), 7.0);
        ASSERT_EQ(dpa_pdhmm_compute_scalar(&v, pairs.data(), (int64_t)pairs.size(), rows,
                                           want.data()),
                  DPA_OK);
        char err[512] = "";
        ASSERT_EQ(e->run(bk.b, 0, &v, pairs.data(), (int64_t)pairs.size(), rows, got.data(), err,
                         sizeof err),
                  DPA_OK)
            << err;
        for (size_t i = 0; i < cs.size(); i++)
            EXPECT_EQ(std::memcmp(&want[i], &got[i], sizeof(double)), 0)
                << "rows " << rows << " pair " << i << ": CPU " << want[i] << " GPU " << got[i];
    }
}

TEST(CudaPdhmm, ThroughTheApiOnTheGpu)
{
    dpa_cuda_test::Backend bk;
    DPA_REQUIRE_GPU(bk);
    const std::vector<pdg::Case> cs = cases(dpa_test::test_seed(), 200);
    pdg::Batch b(cs);
    const dpa_pdhmm_batch v = b.view();
    dpa_options o;
    dpa_options_init(&o);
    o.cpu_disable = "avx512,avx2";
    dpa_context *ctx = nullptr;
    ASSERT_EQ(dpa_context_create(&o, &ctx), DPA_OK) << dpa_last_error();
    dpa_pdhmm_params p;
    dpa_pdhmm_params_init(&p);
    std::vector<double> cpu(cs.size()), gpu(cs.size());
    p.backend = DPA_BACKEND_CPU;
    ASSERT_EQ(dpa_pdhmm_compute(ctx, &v, &p, cpu.data(), (int64_t)cpu.size(), nullptr), DPA_OK);
    p.backend = DPA_BACKEND_GPU;
    dpa_pdhmm_stats st;
    ASSERT_EQ(dpa_pdhmm_compute(ctx, &v, &p, gpu.data(), (int64_t)gpu.size(), &st), DPA_OK)
        << dpa_last_error();
    EXPECT_EQ(st.gpu_pairs, (int64_t)cs.size());
    for (size_t i = 0; i < cs.size(); i++)
        EXPECT_EQ(std::memcmp(&cpu[i], &gpu[i], sizeof(double)), 0) << "pair " << i;
    dpa_context_destroy(ctx);
}

}  // namespace
