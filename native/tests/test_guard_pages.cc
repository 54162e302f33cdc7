// test_guard_pages.cc — every CPU kernel, every ISA, reads and writes only inside the buffers
// it is given. Each input and output array is placed flush against a PROT_NONE page, once
// ending at it (an over-read past the end faults) and once starting right after it (a read
// before the start, such as a vector load at p - 15, faults). A fault kills the test binary:
// CTest reports it as failed, so an out-of-bounds access is red in CI, not a silent read of
// whatever bytes happen to be mapped there. Results are also compared with the scalar
// reference, so a kernel cannot pass by reading nothing.
//
// Random lengths print their seed on failure (DPA_TEST_SEED=<seed> reruns them).
#include <gtest/gtest.h>
#include <sys/mman.h>
#include <unistd.h>

#include <cstring>
#include <memory>
#include <random>
#include <string>
#include <vector>

#include "test_util.h"

extern "C" {
#include "cpu/cpu_features.h"
#include "cpu/pairhmm/pairhmm.h"
#include "cpu/sw/sw.h"
#include "cpu/sw/sw_rel16.h"
}

namespace {

enum Placement { kFlushEnd, kFlushStart };

// n bytes flush against a PROT_NONE page on one side, with another PROT_NONE page on the
// other side of the mapping as well. n = 0 gives a pointer at the guard itself.
class Guarded {
  public:
    Guarded(size_t n, Placement where) : n_(n)
    {
        const size_t page = (size_t)sysconf(_SC_PAGESIZE);
        data_pages_ = (n + page - 1) / page;
        if (data_pages_ == 0) data_pages_ = 1;
        len_ = (data_pages_ + 2) * page;
        void *m = mmap(nullptr, len_, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
        if (m == MAP_FAILED) throw std::bad_alloc();
        base_ = (uint8_t *)m;
        if (mprotect(base_, page, PROT_NONE) != 0 ||
            mprotect(base_ + (data_pages_ + 1) * page, page, PROT_NONE) != 0)
            throw std::bad_alloc();
        p_ = where == kFlushEnd ? base_ + (data_pages_ + 1) * page - n : base_ + page;
    }
    ~Guarded() { munmap(base_, len_); }
    Guarded(const Guarded &) = delete;
    Guarded &operator=(const Guarded &) = delete;

    template <class T> T *as() { return (T *)p_; }
    // An array of T at the guard: n_ must be a multiple of sizeof(T).
    template <class T> static Guarded *of(const std::vector<T> &v, Placement where)
    {
        Guarded *g = new Guarded(v.size() * sizeof(T), where);
        if (!v.empty()) std::memcpy(g->p_, v.data(), v.size() * sizeof(T));
        return g;
    }

  private:
    size_t n_, data_pages_ = 0, len_ = 0;
    uint8_t *base_ = nullptr, *p_ = nullptr;
};

// The harness itself: one byte past the end, or one before the start, must fault.
TEST(GuardPagesHarness, OneByteOutsideFaults)
{
    for (size_t n : { (size_t)1, (size_t)15, (size_t)4096, (size_t)5000 }) {
        Guarded end(n, kFlushEnd), start(n, kFlushStart);
        volatile uint8_t *e = end.as<uint8_t>(), *b = start.as<uint8_t>();
        e[0] = e[n - 1] = b[0] = b[n - 1] = 1;  // the buffer itself is usable
        EXPECT_DEATH((void)e[n], "") << n;
        EXPECT_DEATH((void)b[-1], "") << n;
    }
}

bool isa_usable(dpa_isa isa) { return (dpa_cpu_supported_isas() & DPA_ISA_BIT(isa)) != 0; }

struct Kernel {
    const char *name;
    dpa_isa isa;
    dpa_phmm_kernel_fn phmm;
    dpa_sw_kernel_fn sw_batch;
    dpa_sw_align_fn sw_align;
};

const Kernel kKernels[] = {
    { "scalar", DPA_ISA_SCALAR, dpa_phmm_compute_scalar, dpa_sw_compute_scalar, dpa_sw_align_scalar },
#ifdef DPA_HAVE_AVX2
    { "avx2", DPA_ISA_AVX2, dpa_phmm_compute_avx2, dpa_sw_compute_avx2, dpa_sw_align_avx2 },
    { "avx2_i32", DPA_ISA_AVX2, nullptr, nullptr, dpa_sw_align_avx2_i32 },
    { "avx2_rel16", DPA_ISA_AVX2, nullptr, nullptr, dpa_sw_align_avx2_rel16 },
#elif defined(__x86_64__) || defined(__i386__)
    { "avx2", DPA_ISA_AVX2, nullptr, nullptr, nullptr },  // reported skipped: not compiled in
#endif
#ifdef DPA_HAVE_AVX512
    { "avx512", DPA_ISA_AVX512, dpa_phmm_compute_avx512, dpa_sw_compute_avx512, dpa_sw_align_avx512 },
    { "avx512_i32", DPA_ISA_AVX512, nullptr, nullptr, dpa_sw_align_avx512_i32 },
#elif defined(__x86_64__) || defined(__i386__)
    { "avx512", DPA_ISA_AVX512, nullptr, nullptr, nullptr },
#endif
};

class GuardPages : public ::testing::TestWithParam<Kernel> {
  protected:
    void SetUp() override
    {
        const Kernel &k = GetParam();
        if (!k.sw_align) GTEST_SKIP() << k.name << " kernels not compiled in (compiler lacks the ISA flags)";
        if (!isa_usable(k.isa)) GTEST_SKIP() << "this CPU/OS has no " << k.name << ": its kernels are not tested here";
        seed_ = dpa_test::test_seed();
        rng_.seed(seed_);
    }
    std::string seed_msg() const { return "DPA_TEST_SEED=" + std::to_string(seed_); }
    uint64_t seed_ = 0;
    std::mt19937_64 rng_;
};

// Lengths around every vector width the kernels use (8, 16, 32, 64 lanes and bytes) and a
// few long ones.
int pick_len(std::mt19937_64 &rng)
{
    static const int edges[] = { 1, 2, 3, 7, 8, 9, 15, 16, 17, 31, 32, 33, 63, 64, 65, 127, 128, 129, 150, 300 };
    return rng() % 3 ? edges[rng() % (sizeof edges / sizeof edges[0])] : 1 + (int)(rng() % 200);
}

// One batch, every array in its own guarded mapping; all reads x all haps as tasks (the
// SIMD kernels group tasks across pairs, so pairs of mixed lengths share vectors).
void run_pairhmm(const Kernel &k, const dpa_test::Batch &src, Placement where, int32_t precision)
{
    dpa_test::Batch b = src;
    const dpa_pairhmm_batch v = b.view();
    auto bytes = [](const uint8_t *p, size_t n) { return std::vector<uint8_t>(p, p + n); };
    size_t total_read = 0, total_hap = 0;
    for (int32_t r = 0; r < v.num_reads; r++) total_read += (size_t)v.read_lengths[r];
    for (int32_t h = 0; h < v.num_haps; h++) total_hap += (size_t)v.hap_lengths[h];
    std::unique_ptr<Guarded> rb(Guarded::of(bytes(v.read_bases, total_read), where));
    std::unique_ptr<Guarded> bq(Guarded::of(bytes(v.base_quals, total_read), where));
    std::unique_ptr<Guarded> iq(Guarded::of(bytes(v.ins_quals, total_read), where));
    std::unique_ptr<Guarded> dq(Guarded::of(bytes(v.del_quals, total_read), where));
    std::unique_ptr<Guarded> gq(Guarded::of(bytes(v.gcp_quals, total_read), where));
    std::unique_ptr<Guarded> hb(Guarded::of(bytes(v.hap_bases, total_hap), where));
    std::unique_ptr<Guarded> ro(Guarded::of(std::vector<int64_t>(v.read_offsets, v.read_offsets + v.num_reads), where));
    std::unique_ptr<Guarded> rl(Guarded::of(std::vector<int32_t>(v.read_lengths, v.read_lengths + v.num_reads), where));
    std::unique_ptr<Guarded> ho(Guarded::of(std::vector<int64_t>(v.hap_offsets, v.hap_offsets + v.num_haps), where));
    std::unique_ptr<Guarded> hl(Guarded::of(std::vector<int32_t>(v.hap_lengths, v.hap_lengths + v.num_haps), where));
    dpa_pairhmm_batch g = v;
    g.read_bases = rb->as<uint8_t>();
    g.base_quals = bq->as<uint8_t>();
    g.ins_quals = iq->as<uint8_t>();
    g.del_quals = dq->as<uint8_t>();
    g.gcp_quals = gq->as<uint8_t>();
    g.hap_bases = hb->as<uint8_t>();
    g.read_offsets = ro->as<int64_t>();
    g.read_lengths = rl->as<int32_t>();
    g.hap_offsets = ho->as<int64_t>();
    g.hap_lengths = hl->as<int32_t>();
    ASSERT_EQ(dpa_pairhmm_validate(&g), DPA_OK) << dpa_last_error();

    std::vector<dpa_phmm_task> tasks;
    for (int32_t r = 0; r < g.num_reads; r++)
        for (int32_t h = 0; h < g.num_haps; h++)
            tasks.push_back({ r, h, (int64_t)r * g.num_haps + h });
    std::unique_ptr<Guarded> tk(Guarded::of(tasks, where));
    std::unique_ptr<Guarded> out(new Guarded(tasks.size() * sizeof(double), where));
    int64_t rec = 0;
    ASSERT_EQ(k.phmm(&g, tk->as<dpa_phmm_task>(), (int64_t)tasks.size(), precision, out->as<double>(), &rec),
              DPA_OK);
    for (const dpa_phmm_task &t : tasks) {
        const dpa_phmm_pair p = dpa_phmm_pair_of(&v, &t);
        const double want = dpa_phmm_log10_scalar(&p, precision, nullptr);
        EXPECT_TRUE(dpa_test::near_or_same_special(out->as<double>()[t.out], want,
                                                   precision == DPA_PRECISION_DOUBLE ? 1e-9 : 1e-4))
            << "read " << t.read << " (" << p.read_len << " bp) hap " << t.hap << " (" << p.hap_len << " bp)";
    }
}

class GuardPagesPairHmm : public GuardPages {};
TEST_P(GuardPagesPairHmm, StaysInsideItsBuffers)
{
    const Kernel &k = GetParam();
    SCOPED_TRACE(seed_msg());
    for (int trial = 0; trial < 40; trial++) {
        dpa_test::Batch b;
        const int nr = 1 + (int)(rng_() % 12), nh = 1 + (int)(rng_() % 4);
        for (int h = 0; h < nh; h++) b.haps.push_back(dpa_test::random_bases(rng_, pick_len(rng_)));
        for (int r = 0; r < nr; r++) b.reads.push_back(dpa_test::gatk_read(rng_, b.haps[0], pick_len(rng_)));
        for (Placement where : { kFlushEnd, kFlushStart })
            for (int32_t prec : { DPA_PRECISION_FLOAT_THEN_DOUBLE, DPA_PRECISION_DOUBLE }) {
                SCOPED_TRACE(std::string(where == kFlushEnd ? "buffers end at a guard page"
                                                            : "buffers start after a guard page") +
                             ", trial " + std::to_string(trial));
                run_pairhmm(k, b, where, prec);
            }
    }
}

dpa_sw_params sw_params(int overhang)
{
    dpa_sw_params p;
    dpa_sw_params_init(&p);
    p.match = 10, p.mismatch = -15, p.gap_open = -30, p.gap_extend = -5, p.overhang = overhang;
    return p;
}

std::string mutate(std::mt19937_64 &rng, std::string s)
{
    for (int k = 0; k < 3 && !s.empty(); k++) s[rng() % s.size()] = "ACGT"[rng() % 4];
    if (s.size() > 4 && rng() % 2) s.erase(rng() % (s.size() - 2), 1 + rng() % 2);
    if (rng() % 2) s.insert(rng() % (s.size() + 1), dpa_test::random_bases(rng, 1 + (int)(rng() % 3)));
    return s;
}

// One pair through the ISA's aligner: ref, alt and the CIGAR buffer (exactly
// dpa_sw_cigar_max bytes) each flush against a guard page.
class GuardPagesSwPair : public GuardPages {};
TEST_P(GuardPagesSwPair, StaysInsideItsBuffers)
{
    const Kernel &k = GetParam();
    SCOPED_TRACE(seed_msg());
    dpa_sw_scratch s1, s2;
    std::memset(&s1, 0, sizeof s1);
    std::memset(&s2, 0, sizeof s2);
    for (int trial = 0; trial < 150; trial++) {
        const std::string ref = dpa_test::random_bases(rng_, pick_len(rng_));
        std::string alt = trial % 3 == 0 ? dpa_test::random_bases(rng_, pick_len(rng_)) : mutate(rng_, ref);
        if (trial % 10 == 1) alt = ref.substr(ref.size() / 3, ref.size() / 2 + 1);  // exact-substring shortcut
        const int ov = (int)(rng_() % 4);
        const dpa_sw_params p = sw_params(ov);
        if (std::string(k.name) == "avx2_rel16" && !dpa_sw_rel16_fits(&p, (int32_t)ref.size(), (int32_t)alt.size()))
            continue;  // its callers send it only the pairs whose scores fit int16
        const int64_t cap = dpa_sw_cigar_max((int32_t)ref.size(), (int32_t)alt.size());
        std::string want_cigar((size_t)cap, '?');
        int32_t wl = -1, wo = -1;
        int we = 0;
        ASSERT_EQ(dpa_sw_align_scalar((const uint8_t *)ref.data(), (int32_t)ref.size(),
                                      (const uint8_t *)alt.data(), (int32_t)alt.size(), &p, &s1,
                                      &want_cigar[0], &wl, &wo, &we), DPA_OK);
        for (Placement where : { kFlushEnd, kFlushStart }) {
            SCOPED_TRACE("trial " + std::to_string(trial) + ": " + std::to_string(ref.size()) + " x " +
                         std::to_string(alt.size()) + ", overhang " + std::to_string(ov) +
                         (where == kFlushEnd ? ", ending at a guard page" : ", starting after a guard page"));
            std::unique_ptr<Guarded> gr(Guarded::of(std::vector<uint8_t>(ref.begin(), ref.end()), where));
            std::unique_ptr<Guarded> ga(Guarded::of(std::vector<uint8_t>(alt.begin(), alt.end()), where));
            std::unique_ptr<Guarded> gc(new Guarded((size_t)cap, where));
            int32_t len = -1, off = -1;
            int exact = 0;
            ASSERT_EQ(k.sw_align(gr->as<uint8_t>(), (int32_t)ref.size(), ga->as<uint8_t>(), (int32_t)alt.size(),
                                 &p, &s2, gc->as<char>(), &len, &off, &exact), DPA_OK);
            EXPECT_EQ(std::string(gc->as<char>(), (size_t)len), want_cigar.substr(0, (size_t)wl));
            EXPECT_EQ(off, wo);
        }
    }
    dpa_sw_scratch_free(&s1);
    dpa_sw_scratch_free(&s2);
}

// The batch entry: concatenated bases, offsets, lengths, pair list and every output array
// guarded.
class GuardPagesSwBatch : public GuardPages {};
TEST_P(GuardPagesSwBatch, StaysInsideItsBuffers)
{
    const Kernel &k = GetParam();
    SCOPED_TRACE(seed_msg());
    for (int trial = 0; trial < 20; trial++) {
        const int n = 1 + (int)(rng_() % 20);
        std::string rb, ab;
        std::vector<int64_t> ro, ao, slots;
        std::vector<int32_t> rl, al, pairs;
        int64_t cap = 0;
        for (int i = 0; i < n; i++) {
            const std::string ref = dpa_test::random_bases(rng_, pick_len(rng_));
            const std::string alt = i % 4 == 3 ? dpa_test::random_bases(rng_, pick_len(rng_)) : mutate(rng_, ref);
            ro.push_back((int64_t)rb.size()), ao.push_back((int64_t)ab.size());
            rl.push_back((int32_t)ref.size()), al.push_back((int32_t)alt.size());
            rb += ref, ab += alt;
            slots.push_back(cap);
            cap += dpa_sw_cigar_max(rl.back(), al.back());
            pairs.push_back(n - 1 - i);
        }
        const dpa_sw_params p = sw_params((int)(rng_() % 4));
        dpa_sw_batch plain{ n, (const uint8_t *)rb.data(), ro.data(), rl.data(), (const uint8_t *)ab.data(), ao.data(), al.data() };
        std::string wc((size_t)cap, '?');
        std::vector<int32_t> wl(n), wo(n);
        dpa_sw_out wout{ &wc[0], slots.data(), wl.data(), wo.data() };
        int64_t we = 0;
        ASSERT_EQ(dpa_sw_compute_scalar(&plain, &p, pairs.data(), n, &wout, &we), DPA_OK);
        for (Placement where : { kFlushEnd, kFlushStart }) {
            SCOPED_TRACE("trial " + std::to_string(trial) + (where == kFlushEnd ? ", buffers end at a guard page"
                                                                                : ", buffers start after a guard page"));
            std::unique_ptr<Guarded> grb(Guarded::of(std::vector<uint8_t>(rb.begin(), rb.end()), where));
            std::unique_ptr<Guarded> gab(Guarded::of(std::vector<uint8_t>(ab.begin(), ab.end()), where));
            std::unique_ptr<Guarded> gro(Guarded::of(ro, where)), gao(Guarded::of(ao, where));
            std::unique_ptr<Guarded> grl(Guarded::of(rl, where)), gal(Guarded::of(al, where));
            std::unique_ptr<Guarded> gpairs(Guarded::of(pairs, where)), gslots(Guarded::of(slots, where));
            std::unique_ptr<Guarded> gc(new Guarded((size_t)cap, where));
            std::unique_ptr<Guarded> gl(new Guarded((size_t)n * 4, where)), go(new Guarded((size_t)n * 4, where));
            dpa_sw_batch g{ n, grb->as<uint8_t>(), gro->as<int64_t>(), grl->as<int32_t>(), gab->as<uint8_t>(),
                            gao->as<int64_t>(), gal->as<int32_t>() };
            dpa_sw_out out{ gc->as<char>(), gslots->as<int64_t>(), gl->as<int32_t>(), go->as<int32_t>() };
            int64_t e = -1;
            ASSERT_EQ(k.sw_batch(&g, &p, gpairs->as<int32_t>(), n, &out, &e), DPA_OK);
            EXPECT_EQ(e, we);
            for (int i = 0; i < n; i++) {
                ASSERT_EQ(gl->as<int32_t>()[i], wl[i]) << "pair " << i;
                EXPECT_EQ(std::string(gc->as<char>() + slots[i], (size_t)wl[i]), wc.substr((size_t)slots[i], (size_t)wl[i]))
                    << "pair " << i;
                EXPECT_EQ(go->as<int32_t>()[i], wo[i]) << "pair " << i;
            }
        }
    }
}

std::string kernel_name(const ::testing::TestParamInfo<Kernel> &i) { return i.param.name; }
// The PairHMM and SW batch entries exist per ISA; the SW pair aligners also per fill.
std::vector<Kernel> per_isa()
{
    std::vector<Kernel> v;
    for (const Kernel &k : kKernels)
        if (k.phmm || !k.sw_align) v.push_back(k);
    return v;
}
INSTANTIATE_TEST_SUITE_P(Isa, GuardPagesPairHmm, ::testing::ValuesIn(per_isa()), kernel_name);
INSTANTIATE_TEST_SUITE_P(Isa, GuardPagesSwBatch, ::testing::ValuesIn(per_isa()), kernel_name);
INSTANTIATE_TEST_SUITE_P(Isa, GuardPagesSwPair, ::testing::ValuesIn(kKernels), kernel_name);

}  // namespace
