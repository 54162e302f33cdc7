// test_hmm_filter_simd.cc — the AVX2 and AVX-512 SSV and Viterbi-filter kernels against the
// scalar reference:
// same SSV decision and score (through dpa_hmm_ssv), and the same whole-pipeline result, on
// random models (M 1..1500, covering every residue of a striped segment) and targets
// (sampled from the models, background, the edge symbols), fresh seed printed. Each ISA's
// test skips, saying so, where the CPU or the compiler lacks it.
#include <gtest/gtest.h>

#include <cstring>
#include <random>
#include <string>
#include <vector>

#include "dpaccel.h"
#include "hmm_gen.h"
extern "C" {
#include "cpu/cpu_features.h"
#include "cpu/hmm/hmm_filter.h"
#include "cpu/hmm/hmm_profiles.h"
}

namespace {

using namespace hmmgen;

void check_kernel(dpa_hmm_ssv_xe_fn fn, dpa_hmm_vit_fn vit, const char *name) {
    const dpa_hmm_kernels kern = {fn, vit};
    const uint64_t seed = std::random_device{}();
    std::printf("[hmm simd %s] seed %llu\n", name, (unsigned long long)seed);
    SCOPED_TRACE(std::string(name) + " seed " + std::to_string(seed));
    std::mt19937_64 rng(seed);
    const int Ms[] = {1, 2, 31, 32, 33, 63, 64, 65, 100, 257, 700, 1500};
    std::string text;
    std::vector<RandModel> models;
    for (int i = 0; i < 12; i++) { models.push_back(rand_model(rng, i, Ms[i])); text += models.back().text; }
    dpa_hmm_profiles *prof = nullptr;
    ASSERT_EQ(dpa_hmm_profiles_load_buffer(text.data(), text.size(), &prof), DPA_OK);
    std::vector<std::string> seqs = {"A", "W", "*", "~~", "XXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXX", "BJZOUXbjzoux"};
    while (seqs.size() < 50) {
        if (rng() % 4 == 0) {
            std::string s;
            for (int i = 0, n = 1 + (int)(rng() % 3000); i < n; i++) s += AA[rng() % 20];
            seqs.push_back(s);
        } else {
            seqs.push_back(sample_seq(rng, models[rng() % models.size()]));
        }
    }
    const dpa_hmm_filter_opts o{0.02, 1e-3, 1, 0};
    size_t decided = 0, overflow = 0, bad = 0, vit_inf = 0;
    for (int mi = 0; mi < prof->count; mi++) {
        const dpa_hmm_profile *p = &prof->prof[mi];
        std::vector<unsigned char> work(dpa_hmm_work_bytes(p->M));
        for (const std::string &s : seqs) {
            std::vector<uint8_t> dsq(s.size());
            for (size_t i = 0; i < s.size(); i++) dsq[i] = (uint8_t)dpa_hmm_residue_code((unsigned char)s[i]);
            dpa_hmm_len_params lp;
            dpa_hmm_len_params_init((int32_t)s.size(), &lp);
            float a = 0, b = 0;
            int ra = dpa_hmm_ssv(p, &lp, dsq.data(), work.data(), dpa_hmm_ssv_xe_ref, &a);
            int rb = dpa_hmm_ssv(p, &lp, dsq.data(), work.data(), fn, &b);
            decided += ra == 0;
            overflow += ra == 0 && std::isinf(a);
            bool ok = ra == rb && (ra != 0 || std::memcmp(&a, &b, sizeof a) == 0);
            dpa_hmm_filter_out x, y;
            dpa_hmm_filter_one(p, dsq.data(), (int32_t)s.size(), &o, work.data(), &dpa_hmm_kernels_ref, &x);
            dpa_hmm_filter_one(p, dsq.data(), (int32_t)s.size(), &o, work.data(), &kern, &y);
            // the Viterbi filter on every pair, not only survivors
            const float va = dpa_hmm_vit_ref(p, &lp, dsq.data(), work.data());
            const float vb = vit(p, &lp, dsq.data(), work.data());
            ok = ok && std::memcmp(&va, &vb, sizeof va) == 0;
            vit_inf += std::isinf(va) && va > 0;
            ok = ok && std::memcmp(&x.msv_bits, &y.msv_bits, 4) == 0 && x.pass_msv == y.pass_msv &&
                 x.pass_bias == y.pass_bias && x.pass_vit == y.pass_vit;
            if (!ok && bad++ < 3)
                ADD_FAILURE() << "model " << mi << " M=" << p->M << " L=" << s.size() << ": ref " << ra << "/" << a
                              << " simd " << rb << "/" << b;
        }
    }
    EXPECT_EQ(bad, 0u);
    EXPECT_GT(decided, 0u);
    std::printf("[hmm simd %s] %zu pairs, %zu decided by SSV (%zu overflows), %zu Viterbi-filter overflows\n", name,
                (size_t)prof->count * seqs.size(), decided, overflow, vit_inf);
    dpa_hmm_profiles_free(prof);
}

TEST(HmmSimd, Avx2EqualsScalar) {
#ifdef DPA_HAVE_AVX2
    if (!(dpa_cpu_supported_isas() & DPA_ISA_BIT(DPA_ISA_AVX2))) GTEST_SKIP() << "CPU lacks AVX2";
    check_kernel(dpa_hmm_ssv_xe_avx2, dpa_hmm_vit_avx2, "avx2");
#else
    GTEST_SKIP() << "built without AVX2 support in the compiler";
#endif
}

TEST(HmmSimd, Avx512EqualsScalar) {
#ifdef DPA_HAVE_AVX512
    if (!(dpa_cpu_supported_isas() & DPA_ISA_BIT(DPA_ISA_AVX512))) GTEST_SKIP() << "CPU lacks AVX-512";
    check_kernel(dpa_hmm_ssv_xe_avx512, dpa_hmm_vit_avx512, "avx512");
#else
    GTEST_SKIP() << "built without AVX-512 support in the compiler";
#endif
}

}  // namespace
