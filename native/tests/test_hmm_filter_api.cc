// test_hmm_filter_api.cc — dpa_hmm_filter_compute (scheduler, threads, digitising, result
// layout) against the scalar reference called directly (itself tested against HMMER 3.4 in
// test_hmm_filter_oracle.cc), on random models written as HMMER3/f text and targets sampled
// from them; plus the API's rejections, which leave results untouched and the context usable.
#include <gtest/gtest.h>

#include <cmath>
#include <cstdio>
#include <cstring>
#include <random>
#include <string>
#include <vector>

#include "dpaccel.h"
#include "hmm_gen.h"
extern "C" {
#include "cpu/hmm/hmm_filter.h"
#include "cpu/hmm/hmm_profiles.h"
}

namespace {

using namespace hmmgen;

struct Batch {
    std::vector<std::string> seqs;
    std::string all;
    std::vector<int64_t> off;
    std::vector<int32_t> len;
    dpa_hmm_seq_batch b{};
    void build() {
        all.clear(); off.clear(); len.clear();
        for (const std::string &s : seqs) { off.push_back((int64_t)all.size()); len.push_back((int32_t)s.size()); all += s; }
        b.num_seqs = (int32_t)seqs.size();
        b.residues = (const uint8_t *)all.data();
        b.offsets = off.data();
        b.lengths = len.data();
    }
};

bool same(const dpa_hmm_filter_result &r, const dpa_hmm_filter_out &o) {
    return std::memcmp(&r.msv_bits, &o.msv_bits, 4) == 0 && std::memcmp(&r.bias_bits, &o.bias_bits, 4) == 0 &&
           std::memcmp(&r.vit_bits, &o.vit_bits, 4) == 0 && r.msv_pvalue == o.msv_P && r.bias_pvalue == o.bias_P &&
           r.vit_pvalue == o.vit_P && r.pass_msv == o.pass_msv && r.pass_bias == o.pass_bias &&
           r.pass_vit == o.pass_vit && r.computed == o.has;
}

class HmmApi : public ::testing::Test {
  protected:
    dpa_context *ctx = nullptr;
    void SetUp() override { ASSERT_EQ(dpa_context_create(nullptr, &ctx), DPA_OK); }
    void TearDown() override { dpa_context_destroy(ctx); }
};

TEST_F(HmmApi, MatchesScalarReference) {
    const uint64_t seed = std::random_device{}();
    std::printf("[hmm api] seed %llu\n", (unsigned long long)seed);
    SCOPED_TRACE("seed " + std::to_string(seed));
    std::mt19937_64 rng(seed);
    std::vector<RandModel> models;
    std::string text;
    const int Ms[] = {1, 2, 7, 16, 33, 90, 200, 411};
    for (int i = 0; i < 8; i++) { models.push_back(rand_model(rng, i, Ms[i])); text += models.back().text; }
    dpa_hmm_profiles *prof = nullptr;
    ASSERT_EQ(dpa_hmm_profiles_load_buffer(text.data(), text.size(), &prof), DPA_OK) << dpa_last_error();
    ASSERT_EQ(dpa_hmm_profiles_count(prof), 8);
    EXPECT_STREQ(dpa_hmm_profiles_name(prof, 3), "rand3");
    EXPECT_EQ(dpa_hmm_profiles_length(prof, 7), 411);
    EXPECT_EQ(dpa_hmm_profiles_name(prof, 8), nullptr);
    Batch bt;
    bt.seqs = {"", "a", "XXXXXXXX", "*~BJZOUXacd"};
    while (bt.seqs.size() < 60) {
        if (rng() % 3 == 0) {
            std::string s;
            for (int i = 0, n = 1 + (int)(rng() % 800); i < n; i++) s += AA[rng() % 20];
            bt.seqs.push_back(s);
        } else {
            bt.seqs.push_back(sample_seq(rng, models[rng() % models.size()]));
        }
    }
    bt.build();
    const int64_t n = 8 * (int64_t)bt.seqs.size();
    const dpa_hmm_filter_params P[4] = {{0.02, 1e-3, 1, 0, -1}, {0.02, 1e-3, 0, 0, -1}, {0.3, 0.01, 1, 1, -1},
                                        {1.0, 1.0, 1, 0, DPA_BACKEND_HYBRID}};
    size_t pass = 0;
    for (const dpa_hmm_filter_params &p : P) {
        std::vector<dpa_hmm_filter_result> res(n);
        dpa_hmm_filter_stats st;
        ASSERT_EQ(dpa_hmm_filter_compute(ctx, prof, &bt.b, &p, res.data(), n, &st), DPA_OK) << dpa_last_error();
        EXPECT_EQ(st.pairs, 8 * (int64_t)(bt.seqs.size() - 1));
        dpa_hmm_filter_opts o{p.F1, p.F2, p.bias_filter, p.all_scores};
        size_t bad = 0;
        int64_t pm = 0;
        for (int mi = 0; mi < 8; mi++) {
            const dpa_hmm_profile *pr = &prof->prof[mi];
            std::vector<unsigned char> work(dpa_hmm_work_bytes(pr->M));
            for (size_t si = 0; si < bt.seqs.size(); si++) {
                const dpa_hmm_filter_result &r = res[(size_t)mi * bt.seqs.size() + si];
                const std::string &s = bt.seqs[si];
                pm += r.pass_msv;
                if (s.empty()) {
                    EXPECT_EQ(r.computed, 0);
                    EXPECT_EQ(r.pass_msv, 0);
                    continue;
                }
                std::vector<uint8_t> dsq(s.size());
                for (size_t i = 0; i < s.size(); i++) dsq[i] = (uint8_t)dpa_hmm_residue_code((unsigned char)s[i]);
                dpa_hmm_filter_out out;
                dpa_hmm_filter_one_ref(pr, dsq.data(), (int32_t)s.size(), &o, work.data(), &out);
                if (!same(r, out) && bad++ < 3) ADD_FAILURE() << "model " << mi << " seq " << si;
            }
        }
        EXPECT_EQ(bad, 0u);
        EXPECT_EQ(st.passed_msv, pm);
        pass += (size_t)pm;
    }
    EXPECT_GT(pass, 0u) << "no pair passed MSV under any threshold";
    dpa_hmm_profiles_free(prof);
}

// A call with several models digitises every sequence once into a copy at the batch's
// offsets (CPU-only calls); a call with one model digitises per pair. Both must give the same
// results, also for a batch whose sequences are out of order and apart in the buffer.
TEST_F(HmmApi, OneModelCallsEqualOneManyModelCall) {
    const uint64_t seed = std::random_device{}();
    std::printf("[hmm api one/many] seed %llu\n", (unsigned long long)seed);
    SCOPED_TRACE("seed " + std::to_string(seed));
    std::mt19937_64 rng(seed);
    std::vector<RandModel> models;
    std::string text;
    const int Ms[] = {1, 32, 64, 65, 150};
    for (int i = 0; i < 5; i++) { models.push_back(rand_model(rng, i, Ms[i])); text += models.back().text; }
    dpa_hmm_profiles *all = nullptr;
    ASSERT_EQ(dpa_hmm_profiles_load_buffer(text.data(), text.size(), &all), DPA_OK) << dpa_last_error();
    std::vector<std::string> seqs = {"", "W", "*~BJZOUXacd"};
    while (seqs.size() < 40) seqs.push_back(sample_seq(rng, models[rng() % models.size()]));
    // sequences stored in reverse order with junk bytes between them
    std::string buf;
    std::vector<int64_t> off(seqs.size());
    std::vector<int32_t> len(seqs.size());
    for (size_t i = seqs.size(); i-- > 0;) {
        buf += std::string(1 + rng() % 7, '-');
        off[i] = (int64_t)buf.size();
        len[i] = (int32_t)seqs[i].size();
        buf += seqs[i];
    }
    const dpa_hmm_seq_batch b = {(int32_t)seqs.size(), (const uint8_t *)buf.data(), off.data(), len.data()};
    const int64_t ns = (int64_t)seqs.size();
    dpa_hmm_filter_params p;
    dpa_hmm_filter_params_init(&p);
    p.F1 = 0.3;
    p.all_scores = 1;
    std::vector<dpa_hmm_filter_result> many((size_t)(5 * ns));
    ASSERT_EQ(dpa_hmm_filter_compute(ctx, all, &b, &p, many.data(), 5 * ns, nullptr), DPA_OK) << dpa_last_error();
    for (int mi = 0; mi < 5; mi++) {
        dpa_hmm_profiles *one = nullptr;
        ASSERT_EQ(dpa_hmm_profiles_load_buffer(models[(size_t)mi].text.data(), models[(size_t)mi].text.size(), &one),
                  DPA_OK);
        std::vector<dpa_hmm_filter_result> r((size_t)ns);
        ASSERT_EQ(dpa_hmm_filter_compute(ctx, one, &b, &p, r.data(), ns, nullptr), DPA_OK) << dpa_last_error();
        EXPECT_EQ(std::memcmp(r.data(), &many[(size_t)(mi * ns)], sizeof r[0] * (size_t)ns), 0) << "model " << mi;
        dpa_hmm_profiles_free(one);
    }
    dpa_hmm_profiles_free(all);
}

TEST_F(HmmApi, RejectsBeforeWork) {
    std::mt19937_64 rng(5);
    std::string text = rand_model(rng, 0, 20).text;
    dpa_hmm_profiles *prof = nullptr;
    ASSERT_EQ(dpa_hmm_profiles_load_buffer(text.data(), text.size(), &prof), DPA_OK) << dpa_last_error();
    Batch bt;
    bt.seqs = {"ACDEF", "GHIKL"};
    bt.build();
    std::vector<dpa_hmm_filter_result> res(2);
    std::memset(res.data(), 0xAB, sizeof(dpa_hmm_filter_result) * 2);
    std::vector<unsigned char> before(sizeof(dpa_hmm_filter_result) * 2);
    std::memcpy(before.data(), res.data(), before.size());
    auto expect_fail = [&](dpa_status want, const dpa_hmm_seq_batch *b, const dpa_hmm_filter_params *p, int64_t len,
                           const char *needle) {
        EXPECT_EQ(dpa_hmm_filter_compute(ctx, prof, b, p, res.data(), len, nullptr), want);
        EXPECT_NE(std::string(dpa_last_error()).find(needle), std::string::npos) << dpa_last_error();
        EXPECT_EQ(std::memcmp(before.data(), res.data(), before.size()), 0) << "results written on failure";
    };
    dpa_hmm_filter_params p;
    dpa_hmm_filter_params_init(&p);
    p.F1 = 0.0;
    expect_fail(DPA_ERR_INVALID_ARG, &bt.b, &p, 2, "F1 = 0");
    p.F1 = 0.02;
    p.F2 = 1.5;
    expect_fail(DPA_ERR_INVALID_ARG, &bt.b, &p, 2, "F2 = 1.5");
    p.F2 = 1e-3;
    expect_fail(DPA_ERR_INVALID_ARG, &bt.b, &p, 3, "results_len = 3");
    Batch bad;
    bad.seqs = {"ACDEF", "GH-KL"};
    bad.build();
    expect_fail(DPA_ERR_INVALID_ARG, &bad.b, &p, 2, "sequence 1, position 3");
    bad.seqs = {"AC1EF"};
    bad.build();
    expect_fail(DPA_ERR_INVALID_ARG, &bad.b, &p, 1, "sequence 0, position 3");
    {
        // Residues are checked on the context's threads in blocks of ~1 M: with bad bytes in two
        // blocks, the message still names the first bad sequence, as a serial check would.
        Batch many;
        many.seqs.assign(40, std::string(100000, 'A'));
        many.seqs[30][7] = '-';
        many.seqs[12][99999] = '9';
        many.build();
        std::vector<dpa_hmm_filter_result> r40(40);
        std::memset(r40.data(), 0xAB, sizeof(dpa_hmm_filter_result) * 40);
        EXPECT_EQ(dpa_hmm_filter_compute(ctx, prof, &many.b, &p, r40.data(), 40, nullptr), DPA_ERR_INVALID_ARG);
        EXPECT_NE(std::string(dpa_last_error()).find("sequence 12, position 100000: byte 0x39 ('9')"),
                  std::string::npos) << dpa_last_error();
        const std::vector<unsigned char> untouched(sizeof(dpa_hmm_filter_result) * 40, 0xAB);
        EXPECT_EQ(std::memcmp(untouched.data(), r40.data(), untouched.size()), 0) << "results written on failure";
        EXPECT_EQ(dpa_hmm_filter_validate(&many.b, &p), DPA_ERR_INVALID_ARG);
        EXPECT_NE(std::string(dpa_last_error()).find("sequence 12, position 100000"), std::string::npos);
    }
    bad.seqs = {std::string(100001, 'A')};
    bad.build();
    expect_fail(DPA_ERR_LIMIT, &bad.b, &p, 1, "exceeds 100000");
    p.backend = DPA_BACKEND_GPU;
    {
        // GPU-forced: NO_DEVICE without a usable GPU (the CUDA tests cover the GPU results)
        int32_t devices = 0;
        ASSERT_EQ(dpa_context_device_count(ctx, &devices), DPA_OK);
        EXPECT_EQ(dpa_hmm_filter_compute(ctx, prof, &bt.b, &p, res.data(), 2, nullptr),
                  devices == 0 ? DPA_ERR_NO_DEVICE : DPA_OK) << dpa_last_error();
    }
    p.backend = -1;
    // the context is still usable, and L = 100,000 is accepted
    bt.seqs = {"ACDEF", std::string(100000, 'W')};
    bt.build();
    EXPECT_EQ(dpa_hmm_filter_compute(ctx, prof, &bt.b, &p, res.data(), 2, nullptr), DPA_OK) << dpa_last_error();
    EXPECT_EQ(res[0].computed & DPA_HMM_COMPUTED_MSV, DPA_HMM_COMPUTED_MSV);
    dpa_hmm_profiles_free(prof);
    EXPECT_EQ(dpa_hmm_profiles_load_buffer("junk", 4, &prof), DPA_ERR_INVALID_ARG);
    EXPECT_EQ(prof, nullptr);
}

}  // namespace
