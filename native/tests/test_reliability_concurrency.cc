// Many threads x many calls on one context, mixing what a call can ask for: PairHMM in float
// and double, every per-call backend (the context's, CPU, AUTO, HYBRID, and GPU that must
// fail cleanly here), Smith-Waterman with both of GATK's parameter sets, and deliberately bad
// batches. Every good call must give exactly (bitwise) what a fresh one-thread context gives
// alone, and every bad call its own error, in its own thread's message.
#include <gtest/gtest.h>

#include <atomic>
#include <cstring>
#include <string>
#include <thread>
#include <vector>

#include "test_util.h"

using namespace dpa_test;

namespace {

dpa_context *cpu_only_context(int threads)
{
    dpa_options o;
    dpa_options_init(&o);
    o.num_threads = threads;
    o.gpu_disable = 1;  // GPU mixing is EngineGpu's (GPU machine); here every backend is the CPU
    dpa_context *ctx = nullptr;
    EXPECT_EQ(dpa_context_create(&o, &ctx), DPA_OK) << dpa_last_error();
    return ctx;
}

struct SwCase {
    std::string refs, alts;
    std::vector<int64_t> ro, ao;
    std::vector<int32_t> rl, al;
    dpa_sw_params params;
    dpa_sw_batch view() const
    {
        return { (int32_t)rl.size(), (const uint8_t *)refs.data(), ro.data(), rl.data(),
                 (const uint8_t *)alts.data(), ao.data(), al.data() };
    }
};

struct SwResult {
    std::vector<char> cigars;
    std::vector<int64_t> offsets;
    std::vector<int32_t> lengths, align;
    dpa_status run(dpa_context *ctx, const SwCase &c, int32_t backend)
    {
        const dpa_sw_batch b = c.view();
        int64_t cap = 0;
        dpa_sw_cigar_capacity(&b, &cap);
        cigars.assign((size_t)cap, 0);
        offsets.assign(c.rl.size(), 0);
        lengths.assign(c.rl.size(), 0);
        align.assign(c.rl.size(), 0);
        const dpa_sw_output o = { cigars.data(), cap, offsets.data(), lengths.data(), align.data() };
        dpa_sw_params p = c.params;
        p.backend = backend;
        return dpa_sw_compute(ctx, &b, &p, &o, nullptr);
    }
    bool operator==(const SwResult &x) const
    {
        if (lengths != x.lengths || offsets != x.offsets || align != x.align) return false;
        int64_t used = 0;
        for (int32_t l : lengths) used += l;
        return std::memcmp(cigars.data(), x.cigars.data(), (size_t)used) == 0;
    }
};

SwCase sw_case(std::mt19937_64 &rng, bool haplotypes)
{
    SwCase c;
    dpa_sw_params_init(&c.params);
    if (!haplotypes) {  // GATK's read-to-haplotype parameters
        c.params.match = 10, c.params.mismatch = -15, c.params.gap_open = -30, c.params.gap_extend = -5;
    }
    for (int i = 0; i < 24; i++) {
        const std::string ref = random_bases(rng, 60 + (int)(rng() % 300));
        std::string alt = ref.substr(rng() % 20, 40 + rng() % 30);
        alt[rng() % alt.size()] = 'T';
        if (rng() % 2) alt.insert(rng() % alt.size(), random_bases(rng, 1 + (int)(rng() % 8)));
        c.ro.push_back((int64_t)c.refs.size());
        c.rl.push_back((int32_t)ref.size());
        c.refs += ref;
        c.ao.push_back((int64_t)c.alts.size());
        c.al.push_back((int32_t)alt.size());
        c.alts += alt;
    }
    return c;
}

Batch phmm_case(std::mt19937_64 &rng)
{
    Batch b;
    for (int g = 0; g < 5; g++) {
        const std::string ref = random_bases(rng, 200 + (int)(rng() % 200));
        const int nh = 1 + (int)(rng() % 3), nr = 2 + (int)(rng() % 8);
        for (int r = 0; r < nr; r++) b.reads.push_back(gatk_read(rng, ref, 100));
        for (int h = 0; h < nh; h++) {
            std::string hap = ref;
            hap[rng() % hap.size()] = 'G';
            b.haps.push_back(hap);
        }
        b.group_reads.push_back(nr);
        b.group_haps.push_back(nh);
    }
    // one random read: its float sum underflows, so the double recompute path runs too
    b.reads.push_back(random_read(rng, 100, 6, 40));
    b.group_reads.back()++;
    return b;
}

}  // namespace

TEST(ReliabilityConcurrency, MixedCallsOnOneContextMatchSoloRuns)
{
    const uint64_t seed = test_seed();
    std::mt19937_64 rng(seed);
    Batch phmm = phmm_case(rng);
    const SwCase sw[2] = { sw_case(rng, true), sw_case(rng, false) };
    const int64_t n = phmm.results();
    const dpa_pairhmm_batch shared = phmm.view();  // view() writes the Batch: once, up front

    // expected: one call at a time on a fresh one-thread context
    std::vector<double> want[2];
    SwResult want_sw[2];
    {
        dpa_context *solo = cpu_only_context(1);
        ASSERT_NE(solo, nullptr);
        for (int prec = 0; prec < 2; prec++) {
            want[prec].assign((size_t)n, 0);
            dpa_pairhmm_params p;
            dpa_pairhmm_params_init(&p);
            p.precision = prec;
            dpa_pairhmm_batch v = phmm.view();
            ASSERT_EQ(dpa_pairhmm_compute(solo, &v, &p, want[prec].data(), n, nullptr), DPA_OK)
                << dpa_last_error();
        }
        for (int k = 0; k < 2; k++) ASSERT_EQ(want_sw[k].run(solo, sw[k], -1), DPA_OK) << dpa_last_error();
        dpa_context_destroy(solo);
    }

    dpa_context *ctx = cpu_only_context(3);
    ASSERT_NE(ctx, nullptr);
    const int kThreads = 8, kCalls = 40;
    std::atomic<int> failures{ 0 }, calls{ 0 };
    std::vector<std::string> first_failure(kThreads);
    auto fail = [&](int t, const std::string &what) {
        if (failures++ == 0 || first_failure[t].empty()) first_failure[t] = what;
    };
    std::vector<std::thread> threads;
    for (int t = 0; t < kThreads; t++) {
        threads.emplace_back([&, t] {
            std::mt19937_64 r(seed * 31 + (uint64_t)t);
            Batch bad = phmm;
            bad.reads[1].q[3] = (uint8_t)(200 + t);  // names this thread in its error
            const dpa_pairhmm_batch bad_view = bad.view();
            for (int c = 0; c < kCalls; c++) {
                const int kind = (int)(r() % 5);
                const int32_t backends[5] = { -1, DPA_BACKEND_CPU, DPA_BACKEND_AUTO,
                                              DPA_BACKEND_HYBRID, DPA_BACKEND_GPU };
                const int32_t backend = backends[r() % 5];
                calls++;
                if (kind <= 1) {  // PairHMM, float-then-double or double
                    std::vector<double> out((size_t)n, 1.0);
                    dpa_pairhmm_params p;
                    dpa_pairhmm_params_init(&p);
                    p.precision = kind;
                    p.backend = backend;
                    const dpa_status st = dpa_pairhmm_compute(ctx, &shared, &p, out.data(), n, nullptr);
                    if (backend == DPA_BACKEND_GPU) {
                        if (st != DPA_ERR_NO_DEVICE || !std::strstr(dpa_last_error(), "backend gpu requested"))
                            fail(t, std::string("forced GPU: ") + dpa_status_name(st) + " " + dpa_last_error());
                    } else if (st != DPA_OK) {
                        fail(t, std::string("pairhmm: ") + dpa_last_error());
                    } else if (std::memcmp(out.data(), want[kind].data(), sizeof(double) * (size_t)n)) {
                        fail(t, "pairhmm results differ from the solo run (precision " +
                                    std::to_string(kind) + ", backend " + std::to_string(backend) + ")");
                    }
                } else if (kind <= 3) {  // Smith-Waterman, either parameter set
                    SwResult got;
                    const dpa_status st = got.run(ctx, sw[kind - 2], backend);
                    if (backend == DPA_BACKEND_GPU) {
                        // no GPU here: NO_DEVICE once SW has a CUDA kernel, UNSUPPORTED before
                        if ((st != DPA_ERR_NO_DEVICE && st != DPA_ERR_UNSUPPORTED) ||
                            !std::strstr(dpa_last_error(), "gpu"))
                            fail(t, std::string("sw forced GPU: ") + dpa_status_name(st) + " " + dpa_last_error());
                    } else if (st != DPA_OK) {
                        fail(t, std::string("sw: ") + dpa_last_error());
                    } else if (!(got == want_sw[kind - 2])) {
                        fail(t, "sw results differ from the solo run");
                    }
                } else {  // a bad batch: this thread's own error, in this thread's message
                    std::vector<double> out((size_t)n);
                    const dpa_status st = dpa_pairhmm_compute(ctx, &bad_view, nullptr, out.data(), n, nullptr);
                    const std::string want_msg = "base_quals of read 1 at position 3 = " + std::to_string(200 + t);
                    if (st != DPA_ERR_INVALID_ARG || !std::strstr(dpa_last_error(), want_msg.c_str()))
                        fail(t, std::string("bad batch: ") + dpa_status_name(st) + " " + dpa_last_error());
                }
            }
        });
    }
    for (auto &th : threads) th.join();
    EXPECT_EQ(calls.load(), kThreads * kCalls);
    EXPECT_EQ(failures.load(), 0) << "seed " << seed;
    for (int t = 0; t < kThreads; t++)
        EXPECT_TRUE(first_failure[t].empty()) << "thread " << t << ": " << first_failure[t];

    // the context is still good after the storm
    std::vector<double> out((size_t)n);
    dpa_pairhmm_batch v = phmm.view();
    ASSERT_EQ(dpa_pairhmm_compute(ctx, &v, nullptr, out.data(), n, nullptr), DPA_OK);
    EXPECT_EQ(std::memcmp(out.data(), want[0].data(), sizeof(double) * (size_t)n), 0);
    dpa_context_destroy(ctx);
}

// The same batches on 1, 2 and 5 threads: bitwise equal within each ISA; across ISAs within
// the kernel tests' tolerances (1e-5 float-then-double, 1e-9 double); Smith-Waterman CIGARs
// byte for byte on every ISA and thread count.
TEST(ReliabilityConcurrency, ThreadCountsAndIsasGiveIdenticalResults)
{
    const uint64_t seed = test_seed();
    std::mt19937_64 rng(seed);
    Batch phmm = phmm_case(rng);
    const SwCase sw = sw_case(rng, false);
    const int64_t n = phmm.results();
    const dpa_pairhmm_batch v = phmm.view();
    std::vector<double> scalar[2];
    SwResult first_sw;
    bool have_sw = false;
    for (const char *disable : { "avx512,avx2", "avx512", "" }) {
        std::vector<double> isa_first[2];
        for (int threads : { 1, 2, 5 }) {
            dpa_options o;
            dpa_options_init(&o);
            o.num_threads = threads;
            o.gpu_disable = 1;
            o.cpu_disable = disable;
            dpa_context *ctx = nullptr;
            ASSERT_EQ(dpa_context_create(&o, &ctx), DPA_OK) << dpa_last_error();
            for (int prec = 0; prec < 2; prec++) {
                std::vector<double> out((size_t)n);
                dpa_pairhmm_params p;
                dpa_pairhmm_params_init(&p);
                p.precision = prec;
                ASSERT_EQ(dpa_pairhmm_compute(ctx, &v, &p, out.data(), n, nullptr), DPA_OK);
                if (isa_first[prec].empty()) isa_first[prec] = out;
                EXPECT_EQ(std::memcmp(out.data(), isa_first[prec].data(), sizeof(double) * (size_t)n), 0)
                    << "disable '" << disable << "', " << threads << " threads, precision " << prec
                    << ", seed " << seed;
                if (scalar[prec].empty()) scalar[prec] = out;
                for (int64_t i = 0; i < n; i++)
                    EXPECT_NEAR(out[(size_t)i], scalar[prec][(size_t)i], prec ? 1e-9 : 1e-5)
                        << "result " << i << ", disable '" << disable << "', seed " << seed;
            }
            SwResult got;
            ASSERT_EQ(got.run(ctx, sw, -1), DPA_OK) << dpa_last_error();
            if (!have_sw) first_sw = got, have_sw = true;
            EXPECT_TRUE(got == first_sw) << "disable '" << disable << "', " << threads << " threads";
            dpa_context_destroy(ctx);
        }
    }
}
