// test_xdrop_simd.cc — every X-drop ISA kernel against the scalar reference in one process
// (whatever DPACCEL_CPU_DISABLE says), on generated long-read data and on random shapes:
// all seven outputs and the swept cells must be identical.
#include <gtest/gtest.h>

#include <cstdlib>
#include <random>
#include <string>
#include <vector>

#include "xdrop_gen.h"

extern "C" {
#include "cpu/xdrop/xdrop.h"
}

namespace {

bool have_avx2() { return __builtin_cpu_supports("avx2") && __builtin_cpu_supports("fma"); }
bool have_avx512()
{
    return __builtin_cpu_supports("avx512f") && __builtin_cpu_supports("avx512bw") &&
           __builtin_cpu_supports("avx512dq") && __builtin_cpu_supports("avx512vl");
}

struct Isa {
    const char *name;
    dpa_xdrop_kernel_fn fn;
    bool (*supported)();
};

const Isa ISAS[] = {
#ifdef DPA_HAVE_AVX2
    { "avx2", dpa_xdrop_compute_avx2, have_avx2 },
#else
    { "avx2", nullptr, have_avx2 },
#endif
#ifdef DPA_HAVE_AVX512
    { "avx512", dpa_xdrop_compute_avx512, have_avx512 },
#else
    { "avx512", nullptr, have_avx512 },
#endif
};

struct Out {
    std::vector<int32_t> v[7];
    int64_t cells = 0;
};

Out run(dpa_xdrop_kernel_fn fn, const std::vector<xd::Case> &cs, const dpa_xdrop_params &p)
{
    xd::Batch b(cs);
    const dpa_xdrop_batch v = b.view();
    EXPECT_EQ(dpa_xdrop_validate(&v, &p), DPA_OK) << dpa_last_error();
    Out o;
    for (auto &a : o.v) a.assign(cs.size(), -7);
    std::vector<int32_t> pairs(cs.size());
    for (size_t i = 0; i < cs.size(); i++) pairs[i] = (int32_t)i;
    const dpa_xdrop_output out = { o.v[0].data(), o.v[1].data(), o.v[2].data(), o.v[3].data(),
                                   o.v[4].data(), o.v[5].data(), o.v[6].data() };
    EXPECT_EQ(fn(&v, &p, pairs.data(), (int64_t)cs.size(), &out, &o.cells), DPA_OK);
    return o;
}

class XdropSimd : public ::testing::TestWithParam<Isa> {
  protected:
    void SetUp() override
    {
        if (!GetParam().fn) GTEST_SKIP() << GetParam().name << " kernel not compiled in";
        if (!GetParam().supported()) GTEST_SKIP() << "this CPU lacks " << GetParam().name;
        // the kernels are called directly, whatever the disable list says: CTest's per-ISA
        // reruns would repeat the same work, so only the run with nothing disabled does it
        const char *dis = std::getenv("DPACCEL_CPU_DISABLE");
        if (dis && *dis)
            GTEST_SKIP() << "DPACCEL_CPU_DISABLE=" << dis << ": ISA-independent, run where it is unset";
    }
    void same(const std::vector<xd::Case> &cs, const dpa_xdrop_params &p)
    {
        const Out a = run(dpa_xdrop_compute_scalar, cs, p), b = run(GetParam().fn, cs, p);
        EXPECT_EQ(a.cells, b.cells);
        int bad = 0;
        static const char *const names[7] = { "score", "qbeg", "qend", "tbeg", "tend", "left", "right" };
        for (size_t i = 0; i < cs.size(); i++)
            for (int k = 0; k < 7; k++)
                if (a.v[k][i] != b.v[k][i] && ++bad <= 5)
                    ADD_FAILURE() << "pair " << i << " " << names[k] << ": scalar " << a.v[k][i]
                                  << ", " << GetParam().name << " " << b.v[k][i] << " (X "
                                  << p.xdrop << ", " << p.match << "/" << p.mismatch << "/"
                                  << p.gap << ")";
    }
};

TEST_P(XdropSimd, LongReads)
{
#ifdef DPA_XDROP_QUICK
    const std::vector<xd::Case> cs = xd::long_read_cases(31, 3, 3, 4000);
#else
    const std::vector<xd::Case> cs = xd::long_read_cases(31, 12, 3, 8000);
#endif
    for (int x : { 0, 10, 100, 1000 }) {
        same(cs, xd::params(1, -1, -1, x));
        same(cs, xd::params(1, -2, -2, x));
        same(cs, xd::params(2, -3, -1, x)); // mismatch below gap
    }
}

// Random short pairs: every band width and start modulo the vector width, both strands,
// seeds anywhere (including empty sides), scorings across the whole range.
TEST_P(XdropSimd, RandomShapes)
{
    std::mt19937_64 rng(4242);
    std::vector<xd::Case> cs;
    for (int i = 0; i < 400; i++) {
        const int ql = 1 + (int)(rng() % 90), tl = 1 + (int)(rng() % 90);
        std::string q = xd::random_dna(rng, (size_t)ql), t = xd::random_dna(rng, (size_t)tl);
        if (rng() % 2) { // make t a noisy copy of q where it can
            for (int k = 0; k < tl && k < ql; k++) t[(size_t)k] = rng() % 8 ? q[(size_t)k] : 'N';
        }
        const int len = (int)(rng() % (unsigned)(std::min(ql, tl) + 1));
        cs.push_back({ q, t, (int)(rng() % (unsigned)(ql - len + 1)),
                       (int)(rng() % (unsigned)(tl - len + 1)), len, (rng() & 1) != 0 });
    }
    const int scores[][3] = { { 1, -1, -1 }, { 1, -2, -2 }, { 1000, -1000, -1000 },
                              { 3, -1, -2 }, { 1, -1000, -1 }, { 7, -5, -1000 } };
    for (const auto &sc : scores)
        for (int x : { 0, 1, 3, 20, 200, 1 << 30 }) same(cs, xd::params(sc[0], sc[1], sc[2], x));
}

INSTANTIATE_TEST_SUITE_P(Xdrop, XdropSimd, ::testing::ValuesIn(ISAS),
                         [](const ::testing::TestParamInfo<Isa> &i) { return std::string(i.param.name); });

}  // namespace
