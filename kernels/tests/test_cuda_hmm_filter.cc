// test_cuda_hmm_filter.cc — the CUDA HMM filter (hmm_filter_kernels.cu / hmm_filter_launch.cu)
// against the scalar reference (itself bit-identical to HMMER 3.4: native/tests/
// test_hmm_filter_oracle.cc), bit for bit: the entry's SSV / MSV / Viterbi-filter integers for
// every (model, sequence) pair as scores, and dpa_hmm_filter_compute with backend GPU and
// HYBRID against a scalar CPU context, field for field. Fresh seed per run (printed;
// DPA_TEST_SEED repeats one). Models M = 1..2100 (a Viterbi row past the shared-memory share
// runs in global scratch) and one of 13,000 nodes (an SSV/MSV row in global scratch); targets
// L = 1..~5000 with lower case, B J Z O U X, '*' and '~', and repeats of a model's own
// sequence that overflow MSV and the Viterbi filter. Skips loudly without a usable GPU.
#include <gtest/gtest.h>

#include <algorithm>
#include <cctype>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <cstdlib>
#include <unistd.h>
#include <random>
#include <string>
#include <vector>

#include "cuda_test_util.h"
#include "hmm_gen.h"

extern "C" {
#include "cpu/hmm/hmm_filter.h"
#include "cpu/hmm/hmm_profiles.h"
}

namespace {

struct Data {
    std::vector<hmmgen::RandModel> models;
    dpa_hmm_profiles *prof = nullptr;
    std::vector<std::string> seqs;
    std::string all;
    std::vector<int64_t> off;
    std::vector<int32_t> len;
    std::vector<uint8_t> dsq;
    dpa_hmm_seq_batch batch{};
    ~Data() { dpa_hmm_profiles_free(prof); }
    void build_batch()
    {
        all.clear();
        off.clear();
        len.clear();
        dsq.clear();
        for (const std::string &s : seqs) {
            off.push_back((int64_t)all.size());
            len.push_back((int32_t)s.size());
            all += s;
            for (char c : s) dsq.push_back((uint8_t)dpa_hmm_residue_code((unsigned char)c));
        }
        batch.num_seqs = (int32_t)seqs.size();
        batch.residues = (const uint8_t *)all.data();
        batch.offsets = off.data();
        batch.lengths = len.data();
    }
};

// Models of the given sizes and a target mix for them.
void make_data(std::mt19937_64 &rng, const std::vector<int> &Ms, int nseq, Data *d)
{
    std::string text;
    for (size_t i = 0; i < Ms.size(); i++) {
        d->models.push_back(hmmgen::rand_model(rng, (int)i, Ms[i]));
        text += d->models.back().text;
    }
    ASSERT_EQ(dpa_hmm_profiles_load_buffer(text.data(), text.size(), &d->prof), DPA_OK) << dpa_last_error();
    d->seqs = { "A", "w", "X", "*", "~", "acdefghikl", "BJZOUXbjzoux~*", std::string(5000, 'X') };
    // the consensus of up to three models, repeated: the highest scores there are (overflow)
    for (size_t i = d->models.size(); i-- > 0 && d->seqs.size() < 11;) {
        const auto &m = d->models[i];
        std::string c;
        for (size_t k = 1; k < m.mat.size(); k++)
            c += hmmgen::AA[std::max_element(m.mat[k].begin(), m.mat[k].end()) - m.mat[k].begin()];
        std::string q;
        while (q.size() < 3000) q += c;
        q.resize(std::min<size_t>(q.size(), 3000 + c.size()));
        d->seqs.push_back(q);
    }
    for (int s = 0; (int)d->seqs.size() < nseq; s++) {
        std::string q;
        switch (s % 5) {
        case 0:
            for (int i = 0, n = 1 + (int)(rng() % 5000); i < n; i++) q += hmmgen::AA[rng() % 20];
            break;
        case 1:
            q = hmmgen::sample_seq(rng, d->models[rng() % d->models.size()]);
            break;
        case 2: { // a model's own sequence repeated: high scores, MSV and Viterbi overflow
            const auto &m = d->models[rng() % d->models.size()];
            const size_t want = 200 + rng() % 4800;
            while (q.size() < want) q += hmmgen::sample_seq(rng, m);
            q.resize(want);
            break;
        }
        case 3:
            q = hmmgen::sample_seq(rng, d->models[rng() % d->models.size()]);
            for (char &c : q) {
                if (rng() % 4 == 0) c = (char)std::tolower((unsigned char)c);
                else if (rng() % 30 == 0) c = "BJZOUXbjzoux*~"[rng() % 14];
            }
            break;
        default:
            for (int i = 0, n = 1 + (int)(rng() % 40); i < n; i++) q += hmmgen::AA[rng() % 20];
        }
        if (q.empty()) q = "M";
        d->seqs.push_back(q);
    }
    d->build_batch();
}

std::vector<dpa_cuda_hmm_model> entry_models(const dpa_hmm_profiles *prof)
{
    std::vector<dpa_cuda_hmm_model> g(prof->count);
    for (int32_t i = 0; i < prof->count; i++) {
        const dpa_hmm_profile &p = prof->prof[i];
        g[i] = dpa_cuda_hmm_model{ p.rb, p.rw, p.tw, p.M, p.ddbound_w, p.bias_b, p.base_b, p.tbm_b,
                                   p.tec_b, p.xw_e_move, p.xw_e_loop, p.base_w };
    }
    return g;
}

// Every pair through the entry, each kind, against the scalar reference's integer (SSV) or
// score (MSV, Viterbi: the same host conversion the engine uses, compared as float bits).
void check_entry(dpa_cuda_test::Backend &bk, Data &d, uint64_t seed, bool want_overflow)
{
    const dpa_cuda_hmm_filter_entry *e = dpa_cuda_hmm_filter_of(bk.ops);
    ASSERT_NE(e, nullptr) << "the CUDA library has no HMM filter entry";
    std::vector<dpa_cuda_hmm_model> gm = entry_models(d.prof);
    const dpa_cuda_hmm_seqs gs = { d.dsq.data(), d.off.data(), d.len.data(), (int32_t)d.seqs.size() };
    const dpa_cuda_hmm_seqs raw = { (const uint8_t *)d.all.data(), d.off.data(), d.len.data(), (int32_t)d.seqs.size() };
    uint8_t map[256];
    dpa_hmm_code_map(map);
    int maxM = 1;
    for (const auto &m : gm) maxM = std::max(maxM, m.M);
    std::vector<uint8_t> work(dpa_hmm_work_bytes(maxM));
    std::vector<dpa_hmm_len_params> lp(d.seqs.size());
    for (size_t s = 0; s < d.seqs.size(); s++) dpa_hmm_len_params_init(d.len[s], &lp[s]);
    // tasks in a shuffled order (the entry must not depend on it)
    std::vector<dpa_cuda_hmm_task> tasks;
    for (int32_t m = 0; m < d.prof->count; m++)
        for (int32_t s = 0; s < (int32_t)d.seqs.size(); s++) tasks.push_back({ m, s, 0 });
    std::mt19937_64 rng(seed ^ 0x5eed);
    std::shuffle(tasks.begin(), tasks.end(), rng);
    long over[3] = { 0, 0, 0 };
    for (int32_t kind : { DPA_CUDA_HMM_SSV, DPA_CUDA_HMM_MSV, DPA_CUDA_HMM_VIT }) {
        for (auto &t : tasks)
            t.len_param = kind == DPA_CUDA_HMM_MSV ? lp[t.seq].tjb_b : kind == DPA_CUDA_HMM_VIT ? lp[t.seq].xw_move : 0;
        std::vector<int32_t> out(tasks.size(), 0x7eadbeef);
        char err[512] = "";
        ASSERT_EQ(e->run(bk.b, 0, gm.data(), (int32_t)gm.size(), &gs, kind, tasks.data(), (int64_t)tasks.size(),
                         out.data(), err, sizeof err),
                  DPA_OK)
            << err;
        // the same tasks from the residue bytes, digitised on the device (the engine's path)
        std::vector<int32_t> out_mapped(tasks.size(), 0x7eadbeef);
        ASSERT_EQ(e->run_mapped(bk.b, 0, gm.data(), (int32_t)gm.size(), &raw, map, kind, tasks.data(),
                                (int64_t)tasks.size(), out_mapped.data(), err, sizeof err),
                  DPA_OK)
            << err;
        EXPECT_EQ(out_mapped, out) << "kind " << kind << ": run_mapped differs from run";
        int bad = 0;
        for (size_t i = 0; i < tasks.size(); i++) {
            const dpa_hmm_profile &p = d.prof->prof[tasks[i].model];
            const uint8_t *q = d.dsq.data() + d.off[tasks[i].seq];
            const dpa_hmm_len_params &l = lp[tasks[i].seq];
            std::string what = "kind " + std::to_string(kind) + " model " + std::to_string(tasks[i].model) +
                               " (M " + std::to_string(p.M) + ") seq " + std::to_string(tasks[i].seq) + " (L " +
                               std::to_string(l.L) + "), DPA_TEST_SEED=" + std::to_string(seed);
            if (kind == DPA_CUDA_HMM_SSV) {
                const int want = dpa_hmm_ssv_xe_ref(&p, q, l.L, work.data());
                over[0] += want == 255;
                if (out[i] != want && bad++ < 10) ADD_FAILURE() << what << ": GPU xE " << out[i] << ", CPU " << want;
            } else if (kind == DPA_CUDA_HMM_MSV) {
                const float want = dpa_hmm_msv_full_ref(&p, &l, q, work.data());
                over[1] += std::isinf(want);
                const float got = out[i] < 0 ? INFINITY : dpa_hmm_msv_score(&p, &l, out[i]);
                if (std::memcmp(&got, &want, 4) != 0 && bad++ < 10)
                    ADD_FAILURE() << what << ": GPU " << got << " (xJ " << out[i] << "), CPU " << want;
            } else {
                const float want = dpa_hmm_vit_ref(&p, &l, q, work.data());
                over[2] += std::isinf(want) && want > 0;
                const float got = out[i] > 32767 ? INFINITY : dpa_hmm_vit_score(&p, &l, out[i]);
                if (std::memcmp(&got, &want, 4) != 0 && bad++ < 10)
                    ADD_FAILURE() << what << ": GPU " << got << " (xC " << out[i] << "), CPU " << want;
            }
        }
        EXPECT_EQ(bad, 0) << "kind " << kind;
    }
    std::printf("[ cuda hmm ] %zu pairs x 3 kinds identical; overflows SSV %ld, MSV %ld, Viterbi %ld\n",
                tasks.size(), over[0], over[1], over[2]);
    if (want_overflow) {
        EXPECT_GT(over[1], 0) << "no target overflowed MSV: the overflow path went untested";
        EXPECT_GT(over[2], 0) << "no target overflowed the Viterbi filter: the overflow path went untested";
    }
}

TEST(CudaHmmFilter, EntryMatchesScalarBitForBit)
{
    dpa_cuda_test::Backend bk;
    DPA_REQUIRE_GPU(bk);
    const uint64_t seed = dpa_test::test_seed();
    SCOPED_TRACE("seed " + std::to_string(seed));
    std::printf("[ cuda hmm ] seed %llu\n", (unsigned long long)seed);
    std::mt19937_64 rng(seed);
    Data d;
    make_data(rng, { 1, 2, 3, 17, 31, 32, 33, 63, 64, 65, 128, 129, 200, 411, 1000, 1024, 1025, 1100, 2100 }, 70, &d);
    check_entry(bk, d, seed, true);
}

TEST(CudaHmmFilter, EntryLongModelInGlobalScratch)
{
    dpa_cuda_test::Backend bk;
    DPA_REQUIRE_GPU(bk);
    const uint64_t seed = dpa_test::test_seed() + 1;
    std::printf("[ cuda hmm ] seed %llu (M = 13,000)\n", (unsigned long long)seed);
    std::mt19937_64 rng(seed);
    Data d;
    make_data(rng, { 13000, 40 }, 14, &d); // SSV/MSV rows of 13,001 bytes: past 12,288 of shared
    check_entry(bk, d, seed, false);
}

TEST(CudaHmmFilter, EntryRejectsBadTasks)
{
    dpa_cuda_test::Backend bk;
    DPA_REQUIRE_GPU(bk);
    const dpa_cuda_hmm_filter_entry *e = dpa_cuda_hmm_filter_of(bk.ops);
    ASSERT_NE(e, nullptr);
    std::mt19937_64 rng(3);
    Data d;
    make_data(rng, { 5 }, 9, &d);
    std::vector<dpa_cuda_hmm_model> gm = entry_models(d.prof);
    const dpa_cuda_hmm_seqs gs = { d.dsq.data(), d.off.data(), d.len.data(), (int32_t)d.seqs.size() };
    dpa_cuda_hmm_task t = { 1, 0, 0 };  // model 1 of 1
    int32_t out = 0;
    char err[256] = "";
    EXPECT_EQ(e->run(bk.b, 0, gm.data(), 1, &gs, DPA_CUDA_HMM_SSV, &t, 1, &out, err, sizeof err), DPA_ERR_INVALID_ARG);
    EXPECT_NE(std::strstr(err, "model 1 of 1"), nullptr) << err;
    t = { 0, 0, 300 };
    EXPECT_EQ(e->run(bk.b, 0, gm.data(), 1, &gs, DPA_CUDA_HMM_MSV, &t, 1, &out, err, sizeof err), DPA_ERR_INVALID_ARG);
    EXPECT_EQ(e->run(bk.b, 0, gm.data(), 1, &gs, 3, &t, 1, &out, err, sizeof err), DPA_ERR_INVALID_ARG);
    EXPECT_EQ(e->run(bk.b, 7, gm.data(), 1, &gs, 0, &t, 1, &out, err, sizeof err), DPA_ERR_INVALID_ARG);
    // a code map with an entry past the 29 codes is refused before any work
    uint8_t map[256];
    dpa_hmm_code_map(map);
    map[200] = 29;
    t = { 0, 0, 0 };
    EXPECT_EQ(e->run_mapped(bk.b, 0, gm.data(), 1, &gs, map, DPA_CUDA_HMM_SSV, &t, 1, &out, err, sizeof err),
              DPA_ERR_INVALID_ARG);
    EXPECT_NE(std::strstr(err, "code_of[200] = 29"), nullptr) << err;
    // a DD word above 0 is refused for the Viterbi filter (the scan's precondition)
    std::vector<int16_t> tw(d.prof->prof[0].tw, d.prof->prof[0].tw + (size_t)(d.prof->prof[0].M + 1) * 8);
    tw[2 * 8 + 7] = 5;
    gm[0].tw = tw.data();
    t = { 0, 0, 0 };
    EXPECT_EQ(e->run(bk.b, 0, gm.data(), 1, &gs, DPA_CUDA_HMM_VIT, &t, 1, &out, err, sizeof err), DPA_ERR_INVALID_ARG);
    EXPECT_NE(std::strstr(err, "DD word"), nullptr) << err;
    // the device is still usable
    gm = entry_models(d.prof);
    EXPECT_EQ(e->run(bk.b, 0, gm.data(), 1, &gs, DPA_CUDA_HMM_VIT, &t, 1, &out, err, sizeof err), DPA_OK) << err;
}

bool same(const dpa_hmm_filter_result &a, const dpa_hmm_filter_result &b)
{
    return std::memcmp(&a.msv_bits, &b.msv_bits, 4) == 0 && std::memcmp(&a.bias_bits, &b.bias_bits, 4) == 0 &&
           std::memcmp(&a.vit_bits, &b.vit_bits, 4) == 0 &&
           std::memcmp(&a.msv_pvalue, &b.msv_pvalue, 8) == 0 && std::memcmp(&a.bias_pvalue, &b.bias_pvalue, 8) == 0 &&
           std::memcmp(&a.vit_pvalue, &b.vit_pvalue, 8) == 0 && a.pass_msv == b.pass_msv &&
           a.pass_bias == b.pass_bias && a.pass_vit == b.pass_vit && a.computed == b.computed;
}

// The public API on the GPU and HYBRID against a scalar CPU context, field for field, for
// several parameter sets.
void check_api(const dpa_hmm_profiles *prof, const dpa_hmm_seq_batch &batch, uint64_t seed, const char *what)
{
#ifdef DPA_CUDA_LIB_PATH
    setenv("DPACCEL_CUDA_LIB", DPA_CUDA_LIB_PATH, 0);  // the engine, linked statically, looks beside the test
#endif
    dpa_options o;
    dpa_options_init(&o);
    o.cpu_disable = "avx512,avx2";
    dpa_context *ctx = nullptr;
    ASSERT_EQ(dpa_context_create(&o, &ctx), DPA_OK) << dpa_last_error();
    int32_t devices = 0;
    ASSERT_EQ(dpa_context_device_count(ctx, &devices), DPA_OK);
    if (devices == 0) {
        dpa_context_destroy(ctx);
        // the backend opened a GPU but the engine did not load the library: a setup error, not a skip
        FAIL() << "the engine sees no GPU although the CUDA backend opened one: set DPACCEL_CUDA_LIB to "
                  "libdpaccel_cuda.so (ctest sets it)";
    }
    const int64_t n = (int64_t)dpa_hmm_profiles_count(prof) * batch.num_seqs;
    struct P { double F1, F2; int bias, all; };
    const P ps[] = { { 0.02, 1e-3, 1, 0 }, { 0.02, 1e-3, 0, 0 }, { 0.2, 0.05, 1, 1 }, { 1.0, 0.5, 1, 0 } };
    for (const P &q : ps) {
        dpa_hmm_filter_params p;
        dpa_hmm_filter_params_init(&p);
        p.F1 = q.F1;
        p.F2 = q.F2;
        p.bias_filter = q.bias;
        p.all_scores = q.all;
        std::vector<dpa_hmm_filter_result> cpu((size_t)n), gpu((size_t)n), hyb((size_t)n);
        p.backend = DPA_BACKEND_CPU;
        ASSERT_EQ(dpa_hmm_filter_compute(ctx, prof, &batch, &p, cpu.data(), n, nullptr), DPA_OK) << dpa_last_error();
        dpa_hmm_filter_stats st;
        p.backend = DPA_BACKEND_GPU;
        ASSERT_EQ(dpa_hmm_filter_compute(ctx, prof, &batch, &p, gpu.data(), n, &st), DPA_OK) << dpa_last_error();
        int64_t nonempty = 0;
        for (int32_t s = 0; s < batch.num_seqs; s++) nonempty += batch.lengths[s] > 0;
        EXPECT_EQ(st.gpu_pairs, n) << "every pair on the GPU";
        EXPECT_EQ(st.pairs, nonempty * dpa_hmm_profiles_count(prof));
        p.backend = DPA_BACKEND_HYBRID;
        ASSERT_EQ(dpa_hmm_filter_compute(ctx, prof, &batch, &p, hyb.data(), n, nullptr), DPA_OK) << dpa_last_error();
        int bad = 0;
        int64_t vit = 0;
        for (int64_t i = 0; i < n; i++) {
            vit += (cpu[i].computed & DPA_HMM_COMPUTED_VIT) != 0;
            if (!same(cpu[i], gpu[i]) && bad++ < 10)
                ADD_FAILURE() << what << " F1 " << q.F1 << " F2 " << q.F2 << " bias " << q.bias << " all " << q.all
                              << ": GPU pair " << i << " differs (msv " << gpu[i].msv_bits << " vs "
                              << cpu[i].msv_bits << ", vit " << gpu[i].vit_bits << " vs " << cpu[i].vit_bits
                              << "), DPA_TEST_SEED=" << seed;
            if (!same(cpu[i], hyb[i]) && bad++ < 10)
                ADD_FAILURE() << what << ": HYBRID pair " << i << " differs, DPA_TEST_SEED=" << seed;
        }
        EXPECT_EQ(bad, 0);
        std::printf("[ cuda hmm ] %s F1 %g F2 %g bias %d all %d: %lld pairs identical (GPU, HYBRID), %lld "
                    "Viterbi scores\n", what, q.F1, q.F2, q.bias, q.all, (long long)n, (long long)vit);
    }
    dpa_context_destroy(ctx);
}

TEST(CudaHmmFilter, ApiGpuAndHybridMatchCpu)
{
    dpa_cuda_test::Backend bk;
    DPA_REQUIRE_GPU(bk);
    const uint64_t seed = dpa_test::test_seed() + 2;
    std::printf("[ cuda hmm ] seed %llu (API)\n", (unsigned long long)seed);
    std::mt19937_64 rng(seed);
    Data d;
    make_data(rng, { 1, 7, 33, 90, 200, 411, 1200 }, 90, &d);
    d.seqs.push_back("");  // L = 0: no scores, on every backend
    d.build_batch();
    check_api(d.prof, d.batch, seed, "random models");
}

// HMMER's own tutorial / test-suite protein models (Debian hmmer-examples, as the oracle test
// uses them; minifam is a set of Pfam models), when installed.
TEST(CudaHmmFilter, ShippedModels)
{
    dpa_cuda_test::Backend bk;
    DPA_REQUIRE_GPU(bk);
    const std::string dir = "/usr/share/doc/hmmer/examples";
    if (std::system(("test -d " + dir).c_str()) != 0)
        GTEST_SKIP() << dir << " missing (apt-get install hmmer-examples): shipped models NOT tested";
    char tmp[] = "/tmp/dpa_cuda_hmmXXXXXX";
    ASSERT_NE(mkdtemp(tmp), nullptr);
    const std::string t(tmp);
    const uint64_t seed = dpa_test::test_seed() + 3;
    std::mt19937_64 rng(seed);
    Data d;
    make_data(rng, { 50 }, 60, &d);
    const char *names[] = { "20aa", "2OG-FeII_Oxy_3", "Caudal_act", "LuxC", "M1", "Patched", "Pkinase", "RRM_1",
                            "SMC_N", "XYPPX", "fn3", "globins4", "minifam" };
    int done = 0;
    for (const char *nm : names) {
        const std::string out = t + "/" + nm + ".hmm";
        const std::string pat = std::string(nm) + (std::strcmp(nm, "minifam") == 0 ? "*" : ".hmm*");
        const std::string cmd = "f=$(find -L " + dir + " -name '" + pat + "' | sort | head -1); [ -n \"$f\" ] && "
                                "(case $f in *.gz) zcat $f;; *) cat $f;; esac) > " + out + " 2>/dev/null && test -s " + out;
        if (std::system(cmd.c_str()) != 0) continue;
        dpa_hmm_profiles *prof = nullptr;
        if (dpa_hmm_profiles_load_file(out.c_str(), &prof) != DPA_OK) continue;  // DNA models: refused by design
        check_api(prof, d.batch, seed, nm);
        dpa_hmm_profiles_free(prof);
        done++;
    }
    std::system(("rm -rf " + t).c_str());
    if (done == 0) GTEST_SKIP() << "no protein model found in " << dir << ": shipped models NOT tested";
    std::printf("[ cuda hmm ] %d shipped model files\n", done);
}

// Many small models against few long targets and one model against many short ones: the
// shapes of Pfam-style and database-style calls, through the API on the GPU.
TEST(CudaHmmFilter, ApiShapes)
{
    dpa_cuda_test::Backend bk;
    DPA_REQUIRE_GPU(bk);
    const uint64_t seed = dpa_test::test_seed() + 4;
    std::printf("[ cuda hmm ] seed %llu (shapes)\n", (unsigned long long)seed);
    std::mt19937_64 rng(seed);
    {
        std::vector<int> Ms;
        for (int i = 0; i < 60; i++) Ms.push_back(1 + (int)(rng() % 300));
        Data d;
        make_data(rng, Ms, 12, &d);
        check_api(d.prof, d.batch, seed, "60 models x 12 targets");
    }
    {
        Data d;
        make_data(rng, { 250 }, 1500, &d);
        check_api(d.prof, d.batch, seed, "1 model x 1500 targets");
    }
}

}  // namespace
