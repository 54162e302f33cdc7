// test_hmm_filter_simd.cc — the AVX2 and AVX-512 SSV and Viterbi-filter kernels against the
// scalar reference:
// same SSV decision and score (through dpa_hmm_ssv), and the same whole-pipeline result, on
// random models (M 1..1500, covering every residue of a striped segment) and targets
// (sampled from the models, background, the edge symbols), fresh seed printed. Each ISA's
// test skips, saying so, where the CPU or the compiler lacks it.
// HmmSimd.SsvBandShapes*: the SSV kernels' raw xE against the scalar reference on the shapes
// the register bands (hmm_ssv_band.h) treat differently: every segment count Q from 1 past
// two full bands of each width (one band of Q < 12 or 16, equal bands, an overlapping last
// band), and every target length 1..80 (a band's wrap rows come in blocks of Q), plus long
// and overflowing targets.
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

void check_kernel(dpa_hmm_ssv_xe_fn fn, dpa_hmm_vit_fn vit, dpa_hmm_vit2_fn vit2, const char *name) {
    const dpa_hmm_kernels kern = {fn, vit};
    const uint64_t seed = std::random_device{}();
    std::printf("[hmm simd %s] seed %llu\n", name, (unsigned long long)seed);
    SCOPED_TRACE(std::string(name) + " seed " + std::to_string(seed));
    std::mt19937_64 rng(seed);
    // 128 / 129 and 192 / 193: where the AVX-512 entries hand small models to the AVX2 kernels
    const int Ms[] = {1, 2, 31, 32, 33, 63, 64, 65, 100, 128, 129, 192, 193, 257, 700, 1500};
    std::string text;
    std::vector<RandModel> models;
    for (int M : Ms) { models.push_back(rand_model(rng, (int)models.size(), M)); text += models.back().text; }
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
    size_t decided = 0, overflow = 0, bad = 0, vit_inf = 0, pairs2 = 0;
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
        // two targets a sweep: each score equals the reference's, for targets of equal and
        // different lengths (either longer), overflowing ones included (the X run, the
        // sampled ones), and a target paired with itself
        for (size_t i = 0; i < seqs.size(); i++) {
            const std::string &s1 = seqs[i], &s2 = seqs[(i * 7 + 3) % seqs.size()];
            std::vector<uint8_t> d1(s1.size()), d2(s2.size());
            for (size_t k = 0; k < s1.size(); k++) d1[k] = (uint8_t)dpa_hmm_residue_code((unsigned char)s1[k]);
            for (size_t k = 0; k < s2.size(); k++) d2[k] = (uint8_t)dpa_hmm_residue_code((unsigned char)s2[k]);
            dpa_hmm_len_params l1, l2;
            dpa_hmm_len_params_init((int32_t)s1.size(), &l1);
            dpa_hmm_len_params_init((int32_t)s2.size(), &l2);
            const float r1 = dpa_hmm_vit_ref(p, &l1, d1.data(), work.data());
            const float r2 = dpa_hmm_vit_ref(p, &l2, d2.data(), work.data());
            float sc[2];
            vit2(p, &l1, d1.data(), &l2, d2.data(), work.data(), sc);
            bool ok = std::memcmp(&r1, &sc[0], 4) == 0 && std::memcmp(&r2, &sc[1], 4) == 0;
            vit2(p, &l2, d2.data(), &l1, d1.data(), work.data(), sc);
            ok = ok && std::memcmp(&r2, &sc[0], 4) == 0 && std::memcmp(&r1, &sc[1], 4) == 0;
            vit2(p, &l1, d1.data(), &l1, d1.data(), work.data(), sc);
            ok = ok && std::memcmp(&r1, &sc[0], 4) == 0 && std::memcmp(&r1, &sc[1], 4) == 0;
            pairs2 += 3;
            if (!ok && bad++ < 3)
                ADD_FAILURE() << "two targets: model " << mi << " M=" << p->M << " L=" << s1.size() << "," << s2.size()
                              << ": ref " << r1 << "," << r2 << " pair " << sc[0] << "," << sc[1];
        }
    }
    EXPECT_GT(pairs2, 0u);
    EXPECT_EQ(bad, 0u);
    EXPECT_GT(decided, 0u);
    std::printf("[hmm simd %s] %zu pairs, %zu decided by SSV (%zu overflows), %zu Viterbi-filter overflows\n", name,
                (size_t)prof->count * seqs.size(), decided, overflow, vit_inf);
    dpa_hmm_profiles_free(prof);
}

TEST(HmmSimd, Avx2EqualsScalar) {
#ifdef DPA_HAVE_AVX2
    if (!(dpa_cpu_supported_isas() & DPA_ISA_BIT(DPA_ISA_AVX2))) GTEST_SKIP() << "CPU lacks AVX2";
    check_kernel(dpa_hmm_ssv_xe_avx2, dpa_hmm_vit_avx2, dpa_hmm_vit2_avx2, "avx2");
#else
    GTEST_SKIP() << "built without AVX2 support in the compiler";
#endif
}

TEST(HmmSimd, Avx512EqualsScalar) {
#ifdef DPA_HAVE_AVX512
    if (!(dpa_cpu_supported_isas() & DPA_ISA_BIT(DPA_ISA_AVX512))) GTEST_SKIP() << "CPU lacks AVX-512";
    check_kernel(dpa_hmm_ssv_xe_avx512, dpa_hmm_vit_avx512, dpa_hmm_vit2_avx512, "avx512");
#else
    GTEST_SKIP() << "built without AVX-512 support in the compiler";
#endif
}

// Consensus residues of nodes a+1..e (the most likely residue of each), which score high
// enough on long stretches to pass SSV's overflow level.
std::string consensus(const RandModel &m, size_t a, size_t e) {
    std::string s;
    for (size_t k = a + 1; k <= e; k++) {
        size_t best = 0;
        for (size_t y = 1; y < m.mat[k].size(); y++)
            if (m.mat[k][y] > m.mat[k][best]) best = y;
        s += AA[best];
    }
    return s;
}

void check_ssv_shapes(dpa_hmm_ssv_xe_fn fn, int W, const char *name) {
    const uint64_t seed = std::random_device{}();
    std::printf("[hmm ssv shapes %s] seed %llu\n", name, (unsigned long long)seed);
    SCOPED_TRACE(std::string(name) + " seed " + std::to_string(seed));
    std::mt19937_64 rng(seed);
    // the one-segment (diagonal, hmm_ssv_diag.h) path and its edges for both widths: AVX2's
    // 33 and 63..65 are two segments, AVX-512's 65 is two
    std::vector<int> Ms = {1, 2, 3, 31, 32, 33, 63, 64, 65, W - 1, W, W + 1};
    for (int Q = 2; Q <= 37; Q++) Ms.push_back(W * (Q - 1) + 1 + (int)(rng() % W));
    std::string text;
    std::vector<RandModel> models;
    for (size_t i = 0; i < Ms.size(); i++) {
        models.push_back(rand_model(rng, (int)i, Ms[i]));
        text += models.back().text;
    }
    dpa_hmm_profiles *prof = nullptr;
    ASSERT_EQ(dpa_hmm_profiles_load_buffer(text.data(), text.size(), &prof), DPA_OK);
    size_t pairs = 0, overflow = 0, bad = 0;
    for (int mi = 0; mi < prof->count; mi++) {
        const dpa_hmm_profile *p = &prof->prof[mi];
        const RandModel &rm = models[(size_t)mi];
        const size_t M = (size_t)p->M;
        std::vector<std::string> seqs;
        for (int L = 1; L <= 80; L++) {
            std::string t;
            for (int i = 0; i < L; i++) t += AA[rng() % 20];
            seqs.push_back(t);
        }
        for (int i = 0; i < 4; i++) {
            std::string t;
            for (int j = 0, n = 1 + (int)(rng() % 2500); j < n; j++) t += AA[rng() % 20];
            seqs.push_back(t);
        }
        for (int i = 0; i < 4; i++) seqs.push_back(sample_seq(rng, rm));
        seqs.push_back(consensus(rm, 0, M));
        // hits at both ends of a target (the diagonal kernel's padded windows), and for the
        // small models a target of hmmsearch's largest length (the diagonal kernel's scratch)
        for (int i = 0; i < 2; i++) {
            std::string t;
            for (int j = 0, n = (int)(rng() % 300); j < n; j++) t += AA[rng() % 20];
            const size_t e = 1 + rng() % M, a = M - (1 + rng() % M);
            seqs.push_back(consensus(rm, 0, e) + t + consensus(rm, a, M));
        }
        if (M <= 65) {
            std::string t;
            for (int j = 0; j < DPA_HMM_MAX_L - (int)M; j++) t += AA[rng() % 20];
            seqs.push_back(t + consensus(rm, 0, M));
        }
        for (int i = 0; i < 3; i++) {
            const size_t a = rng() % M, e = a + 1 + rng() % (M - a);
            std::string t;
            for (int j = 0, n = (int)(rng() % 200); j < n; j++) t += AA[rng() % 20];
            seqs.push_back(t + consensus(rm, a, e) + t);
        }
        std::vector<unsigned char> work(dpa_hmm_work_bytes(p->M));
        for (const std::string &t : seqs) {
            std::vector<uint8_t> dsq(t.size());
            for (size_t i = 0; i < t.size(); i++) dsq[i] = (uint8_t)dpa_hmm_residue_code((unsigned char)t[i]);
            const int a = dpa_hmm_ssv_xe_ref(p, dsq.data(), (int32_t)t.size(), work.data());
            const int b = fn(p, dsq.data(), (int32_t)t.size(), work.data());
            // past the overflow level the kernels only promise "overflow", as HMMER's
            const int level = 255 - p->bias_b;
            const bool ok = a >= level ? b >= level : a == b;
            overflow += a >= level;
            pairs++;
            if (!ok && bad++ < 5)
                ADD_FAILURE() << "M=" << M << " Q=" << (M + (size_t)W - 1) / (size_t)W << " L=" << t.size()
                              << ": ref xE " << a << " simd " << b;
        }
    }
    EXPECT_EQ(bad, 0u);
    EXPECT_GT(overflow, 0u);
    std::printf("[hmm ssv shapes %s] %zu pairs, %zu overflows\n", name, pairs, overflow);
    dpa_hmm_profiles_free(prof);
}

TEST(HmmSimd, SsvBandShapesAvx2) {
#ifdef DPA_HAVE_AVX2
    if (!(dpa_cpu_supported_isas() & DPA_ISA_BIT(DPA_ISA_AVX2))) GTEST_SKIP() << "CPU lacks AVX2";
    check_ssv_shapes(dpa_hmm_ssv_xe_avx2, 32, "avx2");
#else
    GTEST_SKIP() << "built without AVX2 support in the compiler";
#endif
}

TEST(HmmSimd, SsvBandShapesAvx512) {
#ifdef DPA_HAVE_AVX512
    if (!(dpa_cpu_supported_isas() & DPA_ISA_BIT(DPA_ISA_AVX512))) GTEST_SKIP() << "CPU lacks AVX-512";
    check_ssv_shapes(dpa_hmm_ssv_xe_avx512, 64, "avx512");
#else
    GTEST_SKIP() << "built without AVX-512 support in the compiler";
#endif
}

}  // namespace
