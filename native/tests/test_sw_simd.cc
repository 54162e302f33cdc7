// Smith-Waterman SIMD kernels (sw_avx2.c, sw_avx512.c): for every ISA this CPU has, the CIGAR
// and alignment offset must be byte-identical to the scalar reference (dpa_sw_align_scalar,
// itself checked against an independent implementation and GATK) on random GATK-shaped pairs
// (haplotype to reference, reads to haplotypes, dangling ends), every overhang strategy, the
// strip-boundary lengths (1, 15, 16, 17, ...), 1023-4096, identical sequences, all
// mismatches, long indels at either end, tie-heavy alphabets and parameters that reach
// MATRIX_MIN_CUTOFF. Every random test prints its seed on failure (DPA_TEST_SEED=N reruns it).
// Timings are not taken here: native/bench/sw_cpu_bench.c times the kernels.
#include <gtest/gtest.h>

#include <cstring>
#include <random>
#include <string>
#include <vector>

#include "test_util.h"

extern "C" {
#include "cpu/sw/sw.h"
#include "cpu/sw/sw_rel16.h"
}

using namespace dpa_test;

namespace {

typedef dpa_status (*align_fn)(const uint8_t *, int32_t, const uint8_t *, int32_t,
                               const dpa_sw_params *, dpa_sw_scratch *, char *, int32_t *,
                               int32_t *, int *);

bool have_avx2() { return __builtin_cpu_supports("avx2") && __builtin_cpu_supports("fma"); }
bool have_avx512()
{
    return __builtin_cpu_supports("avx512f") && __builtin_cpu_supports("avx512bw") &&
           __builtin_cpu_supports("avx512dq") && __builtin_cpu_supports("avx512vl");
}

struct Isa {
    const char *name;
    align_fn fn;
    bool (*supported)();
};
const Isa ISAS[] = {
#ifdef DPA_HAVE_AVX2
    { "avx2", dpa_sw_align_avx2, have_avx2 },
    { "avx2_i32", dpa_sw_align_avx2_i32, have_avx2 }, // the int32 fill on every pair
#else
    { "avx2", nullptr, have_avx2 },
    { "avx2_i32", nullptr, have_avx2 },
#endif
#ifdef DPA_HAVE_AVX512
    { "avx512", dpa_sw_align_avx512, have_avx512 },
    { "avx512_i32", dpa_sw_align_avx512_i32, have_avx512 }, // the int32 fill on every pair
#else
    { "avx512", nullptr, have_avx512 },
    { "avx512_i32", nullptr, have_avx512 },
#endif
};

struct Params {
    int32_t match, mismatch, open, extend;
};
const Params ORIGINAL_DEFAULT = { 3, -1, -4, -3 };
const Params STANDARD_NGS = { 25, -50, -110, -6 };
const Params NEW_SW = { 200, -150, -260, -11 };
const Params READ_TO_HAP = { 10, -15, -30, -5 };
const Params GATK_SETS[] = { ORIGINAL_DEFAULT, STANDARD_NGS, NEW_SW, READ_TO_HAP };
// Tie-heavy and odd sets: unit scores, zero / positive gap values, and huge penalties that
// drive cells down to MATRIX_MIN_CUTOFF on short pairs.
const Params ODD_SETS[] = { { 1, -1, -1, -1 }, { 2, -1, -2, 0 }, { 1, 0, 0, 0 },
                            { 1, -2, 1, -1 },  { 5, -5, -5, 5 }, { 5, -10000000, -12000000, -3000000 } };

dpa_sw_params make_params(const Params &p, int overhang)
{
    dpa_sw_params sp;
    dpa_sw_params_init(&sp);
    sp.match = p.match;
    sp.mismatch = p.mismatch;
    sp.gap_open = p.open;
    sp.gap_extend = p.extend;
    sp.overhang = overhang;
    return sp;
}

struct Result {
    std::string cigar;
    int32_t offset;
    int exact;
    bool operator==(const Result &o) const
    {
        return cigar == o.cigar && offset == o.offset && exact == o.exact;
    }
};
std::ostream &operator<<(std::ostream &os, const Result &r)
{
    return os << r.cigar << " @ " << r.offset << (r.exact ? " (shortcut)" : "");
}

Result run(align_fn fn, dpa_sw_scratch *s, const std::string &ref, const std::string &alt,
           const dpa_sw_params &sp)
{
    std::string cigar((size_t)dpa_sw_cigar_max((int32_t)ref.size(), (int32_t)alt.size()), '?');
    int32_t len = -1, off = -1;
    int exact = 0;
    dpa_status st = fn((const uint8_t *)ref.data(), (int32_t)ref.size(),
                       (const uint8_t *)alt.data(), (int32_t)alt.size(), &sp, s, &cigar[0], &len,
                       &off, &exact);
    EXPECT_EQ(st, DPA_OK) << dpa_last_error();
    cigar.resize(len < 0 ? 0 : (size_t)len);
    return { cigar, off, exact };
}

// Compares one ISA with the scalar reference on a pair; returns false on a difference.
struct Checker {
    align_fn fn;
    dpa_sw_scratch s_ref, s_simd;
    int64_t pairs = 0, failures = 0;
    explicit Checker(align_fn f) : fn(f)
    {
        std::memset(&s_ref, 0, sizeof s_ref);
        std::memset(&s_simd, 0, sizeof s_simd);
    }
    ~Checker()
    {
        dpa_sw_scratch_free(&s_ref);
        dpa_sw_scratch_free(&s_simd);
    }
    bool check(const std::string &ref, const std::string &alt, const Params &p, int ov,
               const char *what)
    {
        dpa_sw_params sp = make_params(p, ov);
        if (dpa_sw_check_pair(0, (int32_t)ref.size(), (int32_t)alt.size(), &sp) != DPA_OK)
            return true; // outside the validated domain (score bound): kernels never see it
        pairs++;
        Result a = run(dpa_sw_align_scalar, &s_ref, ref, alt, sp);
        Result b = run(fn, &s_simd, ref, alt, sp);
        if (a == b) return true;
        if (failures++ < 5) {
            std::string r = ref.size() > 200 ? ref.substr(0, 200) + "..." : ref;
            std::string x = alt.size() > 200 ? alt.substr(0, 200) + "..." : alt;
            ADD_FAILURE() << what << ": params " << p.match << "/" << p.mismatch << "/" << p.open
                          << "/" << p.extend << " overhang " << ov << " lengths " << ref.size()
                          << " x " << alt.size() << "\n  ref " << r << "\n  alt " << x
                          << "\n  scalar " << a << "\n  simd   " << b;
        }
        return false;
    }
};

// Pair generators (GATK shapes, as java/sw-it draws them).
std::string mutate(std::mt19937_64 &rng, const std::string &src, int snps, int indels,
                   int max_indel)
{
    std::string s = src;
    for (int k = 0; k < snps && !s.empty(); k++)
        s[rng() % s.size()] = "ACGT"[rng() % 4];
    for (int k = 0; k < indels && s.size() > 2; k++) {
        const size_t pos = rng() % s.size();
        const int len = 1 + (int)(rng() % (uint64_t)max_indel);
        if (rng() & 1)
            s.insert(pos, random_bases(rng, len));
        else
            s.erase(pos, (size_t)len);
        if (s.empty()) s = "A";
    }
    return s;
}

// Reference with short tandem repeats and a duplicated segment.
std::string repetitive(std::mt19937_64 &rng, int len)
{
    std::string s;
    while ((int)s.size() < len) {
        const int kind = (int)(rng() % 4);
        if (kind == 0) {
            std::string unit = random_bases(rng, 1 + (int)(rng() % 4));
            for (int r = 2 + (int)(rng() % 10); r > 0; r--) s += unit;
        } else if (kind == 1 && s.size() > 40) {
            s += s.substr(rng() % (s.size() - 30), 30);
        } else {
            s += random_bases(rng, 10 + (int)(rng() % 40));
        }
    }
    s.resize((size_t)len);
    return s;
}

class SwSimd : public ::testing::TestWithParam<Isa> {
  protected:
    void SetUp() override
    {
        const Isa &c = GetParam();
        if (!c.fn) GTEST_SKIP() << c.name << " kernel not compiled in (compiler lacks the ISA flags)";
        if (!c.supported()) GTEST_SKIP() << "this CPU has no " << c.name << ": kernel not tested";
        seed = test_seed();
        rng.seed(seed);
    }
    uint64_t seed = 0;
    std::mt19937_64 rng;
};

#define SEED_TRACE() SCOPED_TRACE("seed " + std::to_string(seed) + " (DPA_TEST_SEED=" + \
                                  std::to_string(seed) + " reruns it)")

TEST_P(SwSimd, HaplotypeToReferenceIndel)
{
    SEED_TRACE();
    Checker c(GetParam().fn);
    const std::string pad(10, 'N');
    for (int k = 0; k < 150; k++) {
        const int len = 300 + (int)(rng() % 701);
        std::string ref = repetitive(rng, len);
        std::string hap = mutate(rng, ref, (int)(rng() % 8), (int)(rng() % 4), 60);
        c.check(pad + ref + pad, pad + hap + pad, NEW_SW, DPA_SW_OVERHANG_INDEL, "hap-to-ref");
    }
    EXPECT_EQ(c.failures, 0) << "of " << c.pairs;
}

TEST_P(SwSimd, ReadsToHaplotypesSoftclip)
{
    SEED_TRACE();
    Checker c(GetParam().fn);
    for (int k = 0; k < 1500; k++) {
        std::string hap = repetitive(rng, 300);
        const int start = (int)(rng() % 200) - 20; // overhang at either end
        std::string read;
        for (int x = start; x < start + 150; x++)
            read += x >= 0 && x < 300 ? hap[(size_t)x] : "ACGT"[rng() % 4];
        read = mutate(rng, read, (int)(rng() % 6), (int)(rng() % 3), 8);
        c.check(hap, read, READ_TO_HAP, DPA_SW_OVERHANG_SOFTCLIP, "read-to-hap");
    }
    EXPECT_EQ(c.failures, 0) << "of " << c.pairs;
}

TEST_P(SwSimd, DanglingEndsAllStrategies)
{
    SEED_TRACE();
    Checker c(GetParam().fn);
    for (int k = 0; k < 600; k++) {
        std::string ref = random_bases(rng, 10 + (int)(rng() % 111));
        std::string alt = mutate(rng, ref.substr(rng() % (ref.size() / 2 + 1)), 2, 1, 5);
        if (rng() & 1) alt = alt.substr(0, alt.size() / 2 + 1) + random_bases(rng, 1 + (int)(rng() % 30));
        for (int ov = 0; ov < 4; ov++) c.check(ref, alt, STANDARD_NGS, ov, "dangling");
    }
    EXPECT_EQ(c.failures, 0) << "of " << c.pairs;
}

TEST_P(SwSimd, MixedShapesAllParametersAllStrategies)
{
    SEED_TRACE();
    Checker c(GetParam().fn);
    std::vector<Params> sets(std::begin(GATK_SETS), std::end(GATK_SETS));
    sets.insert(sets.end(), std::begin(ODD_SETS), std::end(ODD_SETS));
    const char *alphabets[] = { "ACGT", "AC", "A", "ACGTN" };
    for (int k = 0; k < 400; k++) {
        const char *alpha = alphabets[rng() % 4];
        const int n = 1 + (int)(rng() % 120), m = 1 + (int)(rng() % 120);
        std::string ref = random_bases(rng, n, alpha);
        std::string alt = (rng() % 3 == 0) ? mutate(rng, ref, 2, 2, 6) : random_bases(rng, m, alpha);
        for (const Params &p : sets)
            for (int ov = 0; ov < 4; ov++) c.check(ref, alt, p, ov, "mixed");
    }
    EXPECT_EQ(c.failures, 0) << "of " << c.pairs;
}

TEST_P(SwSimd, StripBoundaryLengths)
{
    SEED_TRACE();
    Checker c(GetParam().fn);
    const int lens[] = { 1, 2, 7, 8, 9, 15, 16, 17, 31, 32, 33, 47, 48, 49 };
    for (int n : lens)
        for (int m : lens)
            for (int ov = 0; ov < 4; ov++) {
                const Params &p = GATK_SETS[rng() % 4];
                std::string ref = random_bases(rng, n, (rng() & 1) ? "ACGT" : "AC");
                std::string alt = random_bases(rng, m, (rng() & 1) ? "ACGT" : "AC");
                c.check(ref, alt, p, ov, "boundary");
                c.check(ref, mutate(rng, ref, 1, 1, 3), p, ov, "boundary-similar");
            }
    EXPECT_EQ(c.failures, 0) << "of " << c.pairs;
}

TEST_P(SwSimd, LongLengths)
{
    SEED_TRACE();
    Checker c(GetParam().fn);
    const int lens[] = { 1, 15, 16, 17, 1023, 1024, 1025, 4096 };
    for (int n : lens)
        for (int m : lens) {
            if ((int64_t)n * m > 4096 * 1025) continue; // 4096 x 4096 once, below
            std::string ref = random_bases(rng, n);
            std::string alt = n == m ? mutate(rng, ref, 5, 3, 20) : random_bases(rng, m);
            c.check(ref, alt, GATK_SETS[rng() % 4], (int)(rng() % 4), "long");
        }
    std::string ref = repetitive(rng, 4096);
    for (int ov = 0; ov < 4; ov++)
        c.check(ref, mutate(rng, ref, 20, 6, 40), NEW_SW, ov, "4096 x ~4096");
    EXPECT_EQ(c.failures, 0) << "of " << c.pairs;
}

TEST_P(SwSimd, EdgeCases)
{
    SEED_TRACE();
    Checker c(GetParam().fn);
    for (const Params &p : GATK_SETS)
        for (int ov = 0; ov < 4; ov++)
            for (int len : { 1, 15, 16, 17, 100, 333 }) {
                std::string s = random_bases(rng, len);
                c.check(s, s, p, ov, "identical");
                c.check(std::string((size_t)len, 'A'), std::string((size_t)len + 3, 'C'), p, ov,
                        "all mismatches");
                c.check(std::string((size_t)len, 'A'), std::string((size_t)len, 'A'), p, ov,
                        "homopolymer");
                std::string big = random_bases(rng, len + 120);
                c.check(big, big.substr(100), p, ov, "long deletion at the start");
                c.check(big, big.substr(0, big.size() - 100), p, ov, "long deletion at the end");
                c.check(big.substr(100), big, p, ov, "long insertion at the start");
                c.check(big.substr(0, big.size() - 100), big, p, ov, "long insertion at the end");
                c.check(std::string(10, 'N') + s + std::string(10, 'N'), s, p, ov, "N padding");
            }
    EXPECT_EQ(c.failures, 0) << "of " << c.pairs;
}

// Penalties so large that cells fall below MATRIX_MIN_CUTOFF (-10^8) while the score bound
// still admits the pair: the floor must change the same cells as in the scalar code.
TEST_P(SwSimd, MatrixMinCutoff)
{
    SEED_TRACE();
    Checker c(GetParam().fn);
    const Params sets[] = { { 1, -20000000, -20000000, -20000000 },
                            { 1, -30000000, -5000000, -25000000 },
                            { 30000000, -30000000, -1000000, -1000000 } };
    for (int k = 0; k < 300; k++) {
        const int n = 1 + (int)(rng() % 12), m = 1 + (int)(rng() % 12);
        std::string ref = random_bases(rng, n, "AC"), alt = random_bases(rng, m, "AC");
        for (const Params &p : sets)
            for (int ov = 0; ov < 4; ov++) c.check(ref, alt, p, ov, "cutoff");
    }
    EXPECT_GT(c.pairs, 1000);
    EXPECT_EQ(c.failures, 0) << "of " << c.pairs;
}

// The AVX2 16-bit fill at its bound (sw_rel16.h): parameters whose range is exactly 32767 run
// in int16 lanes, one more and the pair goes to the int32 fill; both must equal the scalar
// reference, on random pairs and on identical long ones (absolute scores up to 783 * 700, far
// beyond int16).
TEST_P(SwSimd, Rel16BothSidesOfTheBound)
{
    SEED_TRACE();
    Checker c(GetParam().fn);
    const Params at = { 783, -100, -100, -32 }, above = { 783, -100, -100, -33 };
    dpa_sw_params sa = make_params(at, DPA_SW_OVERHANG_INDEL);
    dpa_sw_params sb = make_params(above, DPA_SW_OVERHANG_INDEL);
    ASSERT_EQ(dpa_sw_rel16_range(&sa), 32767);
    ASSERT_EQ(dpa_sw_rel16_range(&sb), 32770);
    ASSERT_TRUE(dpa_sw_rel16_fits(&sa, 700, 700));
    ASSERT_FALSE(dpa_sw_rel16_fits(&sb, 700, 700));
    for (const Params &p : { at, above })
        for (int ov = 0; ov < 4; ov++) {
            for (int k = 0; k < 40; k++) {
                std::string ref = repetitive(rng, 1 + (int)(rng() % 400));
                std::string alt = (k & 1) ? mutate(rng, ref, (int)(rng() % 10), (int)(rng() % 4), 40)
                                          : random_bases(rng, 1 + (int)(rng() % 400), "AC");
                c.check(ref, alt, p, ov, "rel16 bound");
            }
            std::string big = random_bases(rng, 700);
            c.check(big, big, p, ov, "rel16 bound, identical 700");
            c.check(big, big.substr(0, 350) + big.substr(420), p, ov, "rel16 bound, 70 bp deletion");
            c.check(big.substr(0, 350) + big.substr(420), big, p, ov, "rel16 bound, 70 bp insertion");
        }
    EXPECT_EQ(c.failures, 0) << "of " << c.pairs;
}

// The batch entry of each ISA against the scalar batch entry (slots, lengths, exact count).
// Only the ISAs that have a batch entry of their own (the _i32 fills are reached through it).
class SwSimdBatch : public SwSimd {};
TEST_P(SwSimdBatch, BatchEntryMatchesScalar)
{
    SEED_TRACE();
    std::vector<std::string> refs, alts;
    for (int k = 0; k < 60; k++) {
        refs.push_back(random_bases(rng, 1 + (int)(rng() % 300)));
        alts.push_back(k % 5 == 0 ? refs.back().substr(0, refs.back().size() / 2 + 1)
                                  : mutate(rng, refs.back(), 3, 2, 10));
    }
    std::string rb, ab;
    std::vector<int64_t> ro, ao, slots;
    std::vector<int32_t> rl, al, pairs;
    int64_t cap = 0;
    for (size_t k = 0; k < refs.size(); k++) {
        ro.push_back((int64_t)rb.size());
        ao.push_back((int64_t)ab.size());
        rb += refs[k];
        ab += alts[k];
        rl.push_back((int32_t)refs[k].size());
        al.push_back((int32_t)alts[k].size());
        slots.push_back(cap);
        cap += dpa_sw_cigar_max(rl.back(), al.back());
        pairs.push_back((int32_t)(refs.size() - 1 - k)); // reverse order
    }
    dpa_sw_batch b;
    std::memset(&b, 0, sizeof b);
    b.num_pairs = (int32_t)refs.size();
    b.ref_bases = (const uint8_t *)rb.data();
    b.alt_bases = (const uint8_t *)ab.data();
    b.ref_offsets = ro.data();
    b.alt_offsets = ao.data();
    b.ref_lengths = rl.data();
    b.alt_lengths = al.data();
    for (int ov = 0; ov < 4; ov++) {
        dpa_sw_params sp = make_params(READ_TO_HAP, ov);
        std::string c1((size_t)cap, '?'), c2((size_t)cap, '?');
        std::vector<int32_t> l1(refs.size()), l2(refs.size()), o1(refs.size()), o2(refs.size());
        dpa_sw_out out1 = { &c1[0], slots.data(), l1.data(), o1.data() };
        dpa_sw_out out2 = { &c2[0], slots.data(), l2.data(), o2.data() };
        int64_t e1 = -1, e2 = -2;
        ASSERT_EQ(dpa_sw_compute_scalar(&b, &sp, pairs.data(), (int64_t)pairs.size(), &out1, &e1),
                  DPA_OK);
        dpa_sw_kernel_fn fn = nullptr;
#ifdef DPA_HAVE_AVX2
        if (std::string(GetParam().name) == "avx2") fn = dpa_sw_compute_avx2;
#endif
#ifdef DPA_HAVE_AVX512
        if (std::string(GetParam().name) == "avx512") fn = dpa_sw_compute_avx512;
#endif
        ASSERT_NE(fn, nullptr);
        ASSERT_EQ(fn(&b, &sp, pairs.data(), (int64_t)pairs.size(), &out2, &e2), DPA_OK);
        EXPECT_EQ(e1, e2);
        EXPECT_EQ(l1, l2);
        EXPECT_EQ(o1, o2);
        EXPECT_EQ(c1, c2);
    }
}

INSTANTIATE_TEST_SUITE_P(Isa, SwSimd, ::testing::ValuesIn(ISAS),
                         [](const ::testing::TestParamInfo<Isa> &i) { return std::string(i.param.name); });
const Isa BATCH_ISAS[] = { ISAS[0], ISAS[2] }; // avx2, avx512
INSTANTIATE_TEST_SUITE_P(Isa, SwSimdBatch, ::testing::ValuesIn(BATCH_ISAS),
                         [](const ::testing::TestParamInfo<Isa> &i) { return std::string(i.param.name); });

// Which pairs the AVX2 16-bit fill takes: every GATK parameter set at every length and
// strategy; never a pair that could reach MATRIX_MIN_CUTOFF (so the floor never has to be
// applied in 16 bits), nor positive gap values, nor extend < open.
TEST(SwRel16, ChoosesEveryGatkSetAndNothingOutsideTheProof)
{
    for (const Params &p : GATK_SETS)
        for (int ov = 0; ov < 4; ov++)
            for (int32_t n : { 1, 16, 1000, 16384, 65536 }) {
                dpa_sw_params sp = make_params(p, ov);
                EXPECT_TRUE(dpa_sw_rel16_fits(&sp, n, 16384)) << p.match << " " << ov << " " << n;
            }
    const Params outside[] = { { 1, -2, 1, -1 },           // positive open
                               { 5, -5, -5, 5 },           // positive extend
                               { 3, -1, -3, -4 },          // extend < open
                               { 1000, -100, -100, -10 },  // range above 32767
                               { 1, -20000000, -20000000, -20000000 } }; // cutoff reachable
    for (const Params &p : outside)
        for (int ov = 0; ov < 4; ov++) {
            dpa_sw_params sp = make_params(p, ov);
            EXPECT_FALSE(dpa_sw_rel16_fits(&sp, 12, 12)) << p.match << " " << p.extend;
        }
    dpa_sw_params sp = make_params(READ_TO_HAP, DPA_SW_OVERHANG_SOFTCLIP);
    EXPECT_EQ(dpa_sw_rel16_step_bound(&sp), 40);
    sp = make_params(NEW_SW, DPA_SW_OVERHANG_INDEL);
    EXPECT_EQ(dpa_sw_rel16_step_bound(&sp), 460);
}

// The lemma the 16-bit fill rests on (sw_rel16.h), checked on GATK's own recurrence computed
// here in 64 bits over whole matrices: with open <= extend <= 0 and no cutoff, neighbouring
// cells (borders included) differ by open .. max(0, max(match, mismatch) - open), and the gap
// values satisfy H[i][j-1] + open <= h <= H[i][j], H[i-1][j] + open <= V <= H[i][j].
TEST(SwRel16, NeighbourDifferencesWithinTheBound)
{
    const uint64_t seed = test_seed();
    SCOPED_TRACE("seed " + std::to_string(seed));
    std::mt19937_64 rng(seed);
    int64_t checked = 0, at_low = 0, at_high = 0;
    for (int k = 0; k < 400; k++) {
        const int32_t open = -(int32_t)(rng() % 300), ext = open + (int32_t)(rng() % (uint64_t)(1 - open));
        const int32_t match = (int32_t)(rng() % 400) - 50, mis = (int32_t)(rng() % 400) - 300;
        const int ov = (int)(rng() % 4);
        const bool gapped_border = ov == DPA_SW_OVERHANG_INDEL || ov == DPA_SW_OVERHANG_LEADING_INDEL;
        const int n = 1 + (int)(rng() % 60), m = 1 + (int)(rng() % 60);
        const char *alpha = (rng() & 1) ? "ACGT" : "AC";
        std::string ref = random_bases(rng, n, alpha);
        std::string alt = (rng() % 3) ? mutate(rng, ref, 3, 2, 6) : random_bases(rng, m, alpha);
        const int M = (int)alt.size();
        if (M == 0) continue;
        std::vector<std::vector<int64_t>> H(n + 1, std::vector<int64_t>(M + 1)), h = H, V = H;
        auto border = [&](int64_t x) { return gapped_border ? open + (x - 1) * ext : 0; };
        for (int j = 1; j <= M; j++) H[0][j] = border(j);
        for (int i = 1; i <= n; i++) H[i][0] = border(i);
        const int64_t low = INT32_MIN / 2;
        std::vector<int64_t> bgv(M + 1, low);
        for (int i = 1; i <= n; i++) {
            int64_t bh = low;
            for (int j = 1; j <= M; j++) {
                const int64_t diag = H[i - 1][j - 1] + (ref[i - 1] == alt[j - 1] ? match : mis);
                bgv[j] = std::max(bgv[j] + ext, H[i - 1][j] + open);
                bh = std::max(bh + ext, H[i][j - 1] + open);
                H[i][j] = std::max(diag, std::max(bh, bgv[j])); // no cutoff at these sizes
                h[i][j] = bh;
                V[i][j] = bgv[j];
            }
        }
        const int64_t lo = open, hi = std::max<int64_t>(0, std::max(match, mis) - (int64_t)open);
        for (int i = 0; i <= n; i++)
            for (int j = 0; j <= M; j++) {
                if (j > 0 && i + j > 1) { // every horizontal neighbour pair but the corner's
                    const int64_t d = H[i][j] - H[i][j - 1];
                    ASSERT_GE(d, std::min<int64_t>(lo, 0)) << i << "," << j;
                    ASSERT_LE(d, hi) << i << "," << j;
                    at_low += d == lo;
                    at_high += d == hi;
                }
                if (i > 0 && i + j > 1) {
                    const int64_t d = H[i][j] - H[i - 1][j];
                    ASSERT_GE(d, std::min<int64_t>(lo, 0)) << i << "," << j;
                    ASSERT_LE(d, hi) << i << "," << j;
                }
                if (i > 0 && j > 0) {
                    ASSERT_GE(h[i][j], H[i][j - 1] + open);
                    ASSERT_LE(h[i][j], H[i][j]);
                    ASSERT_GE(V[i][j], H[i - 1][j] + open);
                    ASSERT_LE(V[i][j], H[i][j]);
                    checked++;
                }
            }
    }
    EXPECT_GT(checked, 100000);
    EXPECT_GT(at_low, 0) << "the lower bound is never reached: the test is too weak";
    EXPECT_GT(at_high, 0) << "the upper bound is never reached: the test is too weak";
}

// ---- benchmark (disabled by default) ----------------------------------------------------
// GATK shapes, 1 thread: haplotype to reference (300-1000 bp, NEW_SW, INDEL: no shortcut) and
// 150 bp reads to 300 bp haplotypes (READ_TO_HAP, SOFTCLIP, reads with errors so the shortcut
// rarely answers). Prints ns per alignment and GCUPS (cells / time, shortcut pairs excluded).
#ifdef DPA_HAVE_AVX2
// The 16-bit fill at its bound with random parameters: each drawn set (open <= extend <= 0,
// any match / mismatch) is pushed to a range of exactly 32767 by raising match, then run on
// random shapes, tie-heavy alphabets and every strategy, both orientations, against the
// scalar reference (fresh seed per run).
TEST(SwRel16, RandomParametersPushedToTheBound)
{
    if (!have_avx2()) GTEST_SKIP() << "this CPU has no avx2: kernel not tested";
    const uint64_t seed = test_seed();
    SCOPED_TRACE("seed " + std::to_string(seed));
    std::mt19937_64 rng(seed);
    Checker c(dpa_sw_align_avx2_rel16);
    int64_t at_bound = 0;
    const char *alphas[] = { "A", "AC", "ACGT", "ACGTN" };
    for (int k = 0; k < 2000; k++) {
        const int32_t open = -(int32_t)(rng() % 3000);
        const int32_t ext = open + (int32_t)(rng() % (uint64_t)(1 - open));
        int32_t match = (int32_t)(rng() % 4000) - 2000, mis = (int32_t)(rng() % 4000) - 2000;
        if (rng() % 4 == 0) match = 0;
        dpa_sw_params sp = make_params(Params{ match, mis, open, ext }, 0);
        if (dpa_sw_rel16_range(&sp) > 32767) continue;
        for (int32_t step = 1024; step > 0; step /= 2) /* largest match that still fits */
            for (;;) {
                dpa_sw_params t = sp;
                t.match += step;
                if (dpa_sw_rel16_range(&t) > 32767) break;
                sp = t;
            }
        /* one more unit of match adds ~36 to the range: within that of 32767 is "at" it */
        at_bound += dpa_sw_rel16_range(&sp) > 32767 - 40;
        const Params p{ sp.match, sp.mismatch, sp.gap_open, sp.gap_extend };
        for (int ov = 0; ov < 4; ov++) {
            const char *al = alphas[rng() % 4];
            const int n = rng() % 3 == 0 ? 1 + (int)(rng() % 3) : 1 + (int)(rng() % 200);
            const int m = rng() % 3 == 0 ? 1 + (int)(rng() % 3) : 1 + (int)(rng() % 200);
            const std::string ref = random_bases(rng, n, al);
            const std::string alt = (rng() & 1) ? random_bases(rng, m, al)
                                                : ref.substr(0, std::min<size_t>(ref.size(), (size_t)m)) +
                                                      random_bases(rng, 1 + (int)(rng() % 40), al);
            dpa_sw_params q = make_params(p, ov);
            if (!dpa_sw_rel16_fits(&q, (int32_t)ref.size(), (int32_t)alt.size())) continue;
            c.check(ref, alt, p, ov, "random parameters at the bound");
            c.check(alt, ref, p, ov, "random parameters at the bound, swapped");
        }
    }
    EXPECT_GT(at_bound, 150) << "too few parameter sets reached the bound";
    EXPECT_GT(c.pairs, 1000);
    EXPECT_EQ(c.failures, 0) << "of " << c.pairs;
}

// Calibration of the checks above: the same kind of pairs, run through the 16-bit fill with
// parameters far past the bound (range ~4.5x 32767, which the dispatch never allows), must
// produce differences. It shows these inputs do reach wrapped relative values; it does not
// show the bound is tight (it is not: with these inputs the first differences appear near
// 2.8x the bound, docs/sw-simd.md).
TEST(SwRel16, ComparisonCatchesOverflowFarPastTheBound)
{
    if (!have_avx2()) GTEST_SKIP() << "this CPU has no avx2: kernel not tested";
    const uint64_t seed = test_seed();
    SCOPED_TRACE("seed " + std::to_string(seed));
    std::mt19937_64 rng(seed);
    const Params p = { 783 * 5, -100, -100, -32 };
    dpa_sw_params sp = make_params(p, 0);
    ASSERT_GT(dpa_sw_rel16_range(&sp), 4 * 32767);
    dpa_sw_scratch s1, s2;
    std::memset(&s1, 0, sizeof s1);
    std::memset(&s2, 0, sizeof s2);
    int64_t pairs = 0, differ = 0;
    for (int ov = 0; ov < 4; ov++)
        for (int k = 0; k < 60; k++) {
            const std::string ref = random_bases(rng, 1 + (int)(rng() % 300), (k & 1) ? "AC" : "A");
            const std::string alt = (k & 2) ? ref : random_bases(rng, 1 + (int)(rng() % 300), "AC");
            const dpa_sw_params q = make_params(p, ov);
            if (dpa_sw_check_pair(0, (int32_t)ref.size(), (int32_t)alt.size(), &q) != DPA_OK)
                continue;
            pairs++;
            differ += !(run(dpa_sw_align_scalar, &s1, ref, alt, q) ==
                        run(dpa_sw_align_avx2_rel16, &s2, ref, alt, q));
        }
    dpa_sw_scratch_free(&s1);
    dpa_sw_scratch_free(&s2);
    EXPECT_GT(pairs, 100);
    EXPECT_GT(differ, 0) << "no pair showed the overflow: the bound tests' inputs may be too weak";
}

// Byte values 0 and 255 (the fill pads rows past n with code 0) at the bound and with the
// read-to-haplotype set, and a 12 kb x 8 kb pair at the bound.
TEST(SwRel16, NulAndHighBytesAndLongPairs)
{
    if (!have_avx2()) GTEST_SKIP() << "this CPU has no avx2: kernel not tested";
    const uint64_t seed = test_seed();
    SCOPED_TRACE("seed " + std::to_string(seed));
    std::mt19937_64 rng(seed);
    Checker c(dpa_sw_align_avx2_rel16);
    const Params at = { 783, -100, -100, -32 };
    for (int ov = 0; ov < 4; ov++)
        for (int k = 0; k < 60; k++) {
            std::string a(1 + rng() % 60, '\0'), b(1 + rng() % 60, '\0');
            for (char &x : a) x = (char)((rng() & 1) ? 0 : 255);
            for (char &x : b) x = (char)((rng() & 1) ? 0 : 255);
            c.check(a, b, at, ov, "bytes 0 / 255 at the bound");
            c.check(a, b, READ_TO_HAP, ov, "bytes 0 / 255");
        }
    for (int ov = 0; ov < 4; ov++) {
        const std::string big = random_bases(rng, 12000, "AC");
        const std::string alt = mutate(rng, big, 200, 50, 30);
        c.check(big, alt.substr(0, 8000), at, ov, "long at the bound");
        c.check(big.substr(0, 8000), alt, NEW_SW, ov, "long");
    }
    EXPECT_EQ(c.failures, 0) << "of " << c.pairs;
}
#endif

} // namespace
