// test_pdhmm.cc — PDHMM through the public API: GKL 0.9.1's expected-value files (one
// carried in test-data/pdhmm, the others where DPA_GKL_PDHMM_DIR points), every ISA
// agreeing with the scalar reference through dpa_pdhmm_compute, and the validation errors.
#include <gtest/gtest.h>

#include <cmath>
#include <cstdlib>
#include <cstring>
#include <random>
#include <string>
#include <vector>

#include "pdhmm_gen.h"
#include "test_util.h"

extern "C" {
#include "cpu/cpu_features.h"
#include "cpu/pdhmm/pdhmm.h"
}

namespace {

struct Ctx {
    explicit Ctx(const char *disable)
    {
        dpa_options o;
        dpa_options_init(&o);
        o.cpu_disable = disable;
        o.gpu_disable = 1;
        o.num_threads = 2;
        EXPECT_EQ(dpa_context_create(&o, &ctx), DPA_OK) << dpa_last_error();
    }
    ~Ctx() { dpa_context_destroy(ctx); }
    dpa_context *ctx = nullptr;
};

std::vector<double> compute(dpa_context *ctx, const std::vector<pdg::Case> &cs,
                            dpa_pdhmm_stats *stats = nullptr, int32_t rows = DPA_PDHMM_ROWS_GATK)
{
    pdg::Batch b(cs);
    const dpa_pdhmm_batch v = b.view();
    std::vector<double> out(cs.size(), 12345.0);
    dpa_pdhmm_params p;
    dpa_pdhmm_params_init(&p);
    p.rows = rows;
    EXPECT_EQ(dpa_pdhmm_compute(ctx, &v, &p, out.data(), (int64_t)out.size(), stats),
              DPA_OK)
        << dpa_last_error();
    return out;
}

// Keeps the pairs the API accepts: arbitrary PD bytes on a short pair can branch so often that
// the branch paths sum past 1 (result > 0), which the API refuses as GATK does (EdgeCasesEveryIsa
// checks that); the scalar kernel, called directly in both row modes, finds them.
std::vector<pdg::Case> api_accepted(const std::vector<pdg::Case> &cs)
{
    pdg::Batch b(cs);
    const dpa_pdhmm_batch v = b.view();
    std::vector<int32_t> pairs(cs.size());
    for (size_t k = 0; k < cs.size(); k++) pairs[k] = (int32_t)k;
    std::vector<double> r0(cs.size()), r1(cs.size());
    EXPECT_EQ(dpa_pdhmm_compute_scalar(&v, pairs.data(), (int32_t)cs.size(), 0, r0.data()), DPA_OK);
    EXPECT_EQ(dpa_pdhmm_compute_scalar(&v, pairs.data(), (int32_t)cs.size(), 1, r1.data()), DPA_OK);
    for (size_t k = 0; k < cs.size(); k++) {
        r0[k] = dpa_pdhmm_log10_of(r0[k]);
        r1[k] = dpa_pdhmm_log10_of(r1[k]);
    }
    std::vector<pdg::Case> kept;
    for (size_t k = 0; k < cs.size(); k++)
        if (!(std::isnan(r0[k]) || r0[k] > 0.0 || std::isnan(r1[k]) || r1[k] > 0.0)) kept.push_back(cs[k]);
    if (kept.size() != cs.size())
        std::printf("[ pdhmm   ] %zu of %zu pairs sum past probability 1: left to EdgeCasesEveryIsa\n",
                    cs.size() - kept.size(), cs.size());
    return kept;
}

// The scalar reference on `pairs` of v (indexed like the batch) and every SIMD kernel this CPU
// runs, called directly rather than through the API, compared with it bit for bit. Kernels
// hand back scaled sums; the result is the reference's log10 likelihoods.
std::vector<double> kernels_match_scalar(const dpa_pdhmm_batch &v, const std::vector<int32_t> &pairs,
                                         int32_t rows)
{
    std::vector<double> ref((size_t)v.num_pairs, 12345.0);
    EXPECT_EQ(dpa_pdhmm_compute_scalar(&v, pairs.data(), (int64_t)pairs.size(), rows, ref.data()),
              DPA_OK);
    const unsigned have = dpa_cpu_supported_isas();
    for (unsigned isa = DPA_ISA_AVX2; isa <= DPA_ISA_AVX512; isa++) {
        if (!(have & (1u << isa))) continue;
        dpa_pdhmm_ops ops;
        dpa_pdhmm_select(1u << isa, &ops);
        if (ops.isa != (dpa_isa)isa) continue;  // not compiled in
        std::vector<double> got((size_t)v.num_pairs, 12345.0);
        EXPECT_EQ(ops.compute(&v, pairs.data(), (int64_t)pairs.size(), rows, got.data()), DPA_OK);
        for (int32_t k : pairs)
            EXPECT_EQ(std::memcmp(&ref[(size_t)k], &got[(size_t)k], 8), 0)
                << ops.name << " rows " << rows << " of " << pairs.size() << " pairs, pair " << k
                << ": " << ref[(size_t)k] << " " << got[(size_t)k];
    }
    for (int32_t k : pairs) ref[(size_t)k] = dpa_pdhmm_log10_of(ref[(size_t)k]);
    return ref;
}

// Scalar reference and the fastest kernel on a GKL file: within the file's own printed
// precision (7 significant digits), and the ISAs bit-identical to scalar.
void check_gkl_file(const std::string &path)
{
    std::vector<pdg::Case> cs;
    std::string err;
    ASSERT_TRUE(pdg::read_gkl_file(path, &cs, &err)) << err;
    ASSERT_GT(cs.size(), 0u);
    Ctx scalar("avx512,avx2"), fast("");
    dpa_pdhmm_stats st;
    const std::vector<double> ref = compute(scalar.ctx, cs, &st);
    EXPECT_EQ(st.isa, DPA_ISA_SCALAR);
    const std::vector<double> got = compute(fast.ctx, cs);
    double max_abs = 0, max_units = 0;
    for (size_t k = 0; k < cs.size(); k++) {
        const double e = std::fabs(ref[k] - cs[k].expected);
        const double units = e / pdg::printed_half_ulp(cs[k].expected);
        max_abs = std::max(max_abs, e);
        max_units = std::max(max_units, units);
        EXPECT_LE(units, 1.0 + 1e-9) << path << " case " << k << ": got " << ref[k]
                                     << ", GKL expects " << cs[k].expected;
        EXPECT_EQ(std::memcmp(&ref[k], &got[k], sizeof(double)), 0)
            << "case " << k << ": scalar " << ref[k] << " vs fast " << got[k];
    }
    std::printf("[ pdhmm   ] %s: %zu cases, max |err| %.3g, max %.3f half-units of the last "
                "printed digit\n", path.c_str(), cs.size(), max_abs, max_units);
}

TEST(Pdhmm, GklExpectedValuesCarried)
{
    check_gkl_file(std::string(DPA_TEST_DATA_DIR) + "/pdhmm/pdhmm_syn_990_1_2.txt");
}

TEST(Pdhmm, GklExpectedValuesLarge)
{
    const char *dir = std::getenv("DPA_GKL_PDHMM_DIR");
    if (!dir || !*dir)
        GTEST_SKIP() << "DPA_GKL_PDHMM_DIR unset: GKL's pdhmm_syn_199_68_51.txt and "
                        "pdhmm_syn_1412_129_223.txt (src/test/resources of Intel-HLS/GKL) "
                        "not checked";
    check_gkl_file(std::string(dir) + "/pdhmm_syn_199_68_51.txt");
    check_gkl_file(std::string(dir) + "/pdhmm_syn_1412_129_223.txt");
}

TEST(Pdhmm, EveryIsaMatchesScalarThroughTheApi)
{
    const uint64_t seed = dpa_test::test_seed();
    SCOPED_TRACE("seed " + std::to_string(seed));
    std::printf("[ pdhmm   ] seed %llu\n", (unsigned long long)seed);
    std::mt19937_64 rng(seed);
    std::vector<pdg::Case> cs;
    for (int k = 0; k < 301; k++) {
        const int h = std::uniform_int_distribution<int>(1, 400)(rng);
        const int r = std::uniform_int_distribution<int>(1, 200)(rng);
        cs.push_back(pdg::gatk_case(rng, h, r, k % 3 == 0));
    }
    cs = api_accepted(cs);
    Ctx scalar("avx512,avx2"), avx2("avx512"), best("");
    for (int32_t rows : { DPA_PDHMM_ROWS_GATK, DPA_PDHMM_ROWS_GKL }) {
        const std::vector<double> a = compute(scalar.ctx, cs, nullptr, rows),
                                  b = compute(avx2.ctx, cs, nullptr, rows),
                                  c = compute(best.ctx, cs, nullptr, rows);
        for (size_t k = 0; k < cs.size(); k++) {
            EXPECT_EQ(std::memcmp(&a[k], &b[k], 8), 0) << rows << " pair " << k << ": " << a[k] << " " << b[k];
            EXPECT_EQ(std::memcmp(&a[k], &c[k], 8), 0) << rows << " pair " << k << ": " << a[k] << " " << c[k];
            EXPECT_FALSE(std::isnan(a[k])) << "pair " << k;
        }
    }
}

// The two row modes can differ only when a row ends inside a deletion (the last DEL_START has
// no DEL_END after it: GATK's Java starts the next row INSIDE_DEL, so its branch values stay 0
// up to the row's first flag, where GKL's copy the left cells). A last base with DEL_END makes
// the next row start AFTER_DEL, whose maxima with column 0's zeros change nothing.
TEST(Pdhmm, RowModesDifferOnlyWhenARowEndsInsideADeletion)
{
    std::mt19937_64 rng(11);
    pdg::Case c = pdg::gatk_case(rng, 40, 30, false);
    std::fill(c.pd.begin(), c.pd.end(), 0);
    c.pd[10] = DPA_PD_DEL_START;
    c.pd[14] = DPA_PD_DEL_END;
    Ctx ctx("");
    auto both = [&](const char *what, bool differ) {
        const double gatk = compute(ctx.ctx, { c })[0];
        const double gkl = compute(ctx.ctx, { c }, nullptr, DPA_PDHMM_ROWS_GKL)[0];
        if (differ) EXPECT_NE(gatk, gkl) << what;
        else EXPECT_EQ(gatk, gkl) << what;
    };
    both("plain last base", false);
    c.pd.back() = DPA_PD_DEL_END;
    both("DEL_END on the last base", false);
    c.pd.back() = DPA_PD_DEL_START;
    both("DEL_START on the last base", true);
}

// Shapes and bytes the generator rarely makes: 1-base sides, the lowest qualities that still
// make a model (results -inf or tiny), every flag on every position, flags only on the last column (the
// state carried into the next row), batch sizes around the vector widths.
TEST(Pdhmm, EdgeCasesEveryIsa)
{
    const uint64_t seed = dpa_test::test_seed();
    SCOPED_TRACE("seed " + std::to_string(seed));
    std::mt19937_64 rng(seed);
    std::vector<pdg::Case> cs;
    const int shapes[][2] = { { 1, 1 }, { 1, 9 }, { 9, 1 }, { 2, 2 }, { 17, 3 }, { 3, 17 } };
    for (const auto &s : shapes)
        for (int v = 0; v < 6; v++) {
            pdg::Case c = pdg::gatk_case(rng, s[0], s[1], v % 2 == 1);
            if (v == 2) {  // the lowest qualities that still make a model (3 + 3 does not)
                std::fill(c.q.begin(), c.q.end(), 0);
                std::fill(c.ins.begin(), c.ins.end(), 3);
                std::fill(c.del.begin(), c.del.end(), 4);
                std::fill(c.gcp.begin(), c.gcp.end(), 0);
            }
            if (v == 3) std::fill(c.pd.begin(), c.pd.end(), 0xff);
            if (v == 4) {
                std::fill(c.pd.begin(), c.pd.end(), 0);
                c.pd.back() = DPA_PD_DEL_START;
            }
            if (v == 5) {
                std::fill(c.pd.begin(), c.pd.end(), 0);
                c.pd.back() = DPA_PD_DEL_END;
                std::fill(c.q.begin(), c.q.end(), 93);
            }
            cs.push_back(c);
        }
    // Every flag on every position of a short pair can sum branch paths past 1 (result > 0),
    // which the API refuses as GATK does; so the kernels are called directly here, on batch
    // prefixes of every size around the vector widths, and the API is checked to refuse
    // exactly the batches holding such a result.
    pdg::Batch all(cs);
    const dpa_pdhmm_batch v = all.view();
    for (int32_t rows = 0; rows <= 1; rows++)
        for (size_t n = 1; n <= cs.size(); n += (n < 18 ? 1 : 7)) {
            std::vector<int32_t> pairs(n);
            for (size_t k = 0; k < n; k++) pairs[k] = (int32_t)k;
            const std::vector<double> ref = kernels_match_scalar(v, pairs, rows);
            bool improper = false;
            for (size_t k = 0; k < n; k++) improper |= std::isnan(ref[k]) || ref[k] > 0.0;
            const std::vector<pdg::Case> part(cs.begin(), cs.begin() + (long)n);
            pdg::Batch b(part);
            const dpa_pdhmm_batch pv = b.view();
            dpa_pdhmm_params p;
            dpa_pdhmm_params_init(&p);
            p.rows = rows;
            std::vector<double> out(n, 99.0);
            Ctx best("");
            const dpa_status st = dpa_pdhmm_compute(best.ctx, &pv, &p, out.data(), (int64_t)n, nullptr);
            if (improper) {
                EXPECT_EQ(st, DPA_ERR_INVALID_ARG) << n;
                EXPECT_NE(std::strstr(dpa_last_error(), "is not a log10 probability"), nullptr)
                    << dpa_last_error();
                for (double d : out) EXPECT_EQ(d, 99.0);
            } else {
                EXPECT_EQ(st, DPA_OK) << n << ": " << dpa_last_error();
                for (size_t k = 0; k < n; k++)
                    EXPECT_EQ(std::memcmp(&ref[k], &out[k], 8), 0) << "API " << n << "/" << k;
            }
        }
}

// Regions as GATK sends them: every read against every haplotype. The kernels give a vector
// to PD_W reads of one haplotype (uniform groups: states per column, priors looked up, branch
// values stored only where read) and the rest to mixed groups; both must be the scalar
// reference's bits. Haplotypes plain, wild, every flag on every base, a trailing DEL_START;
// read counts around the vector widths; haplotypes copied per pair (GATK's packing) and
// shared by offset; kernels called directly in haplotype-major order (long runs) and the API
// (its own order).
TEST(Pdhmm, SharedHaplotypesEveryIsa)
{
    const uint64_t seed = dpa_test::test_seed();
    SCOPED_TRACE("seed " + std::to_string(seed));
    std::mt19937_64 rng(seed);
    auto U = [&](int lo, int hi) { return std::uniform_int_distribution<int>(lo, hi)(rng); };
    std::vector<pdg::Case> cs;
    std::vector<int> first_of; // per pair: the pair whose haplotype bytes it shares
    for (int region = 0; region < 8; region++) {
        const int nh = U(1, 4), nr = U(1, 21), kind = region % 4;
        const bool wild = kind == 1;
        for (int h = 0; h < nh; h++) {
            const int hl = U(1, 120);
            pdg::Case hc = pdg::gatk_case(rng, hl, 1, wild);
            if (kind == 2) std::fill(hc.pd.begin(), hc.pd.end(), 0xff);
            if (kind == 3) hc.pd.back() = DPA_PD_DEL_START;
            const int first = (int)cs.size();
            for (int r = 0; r < nr; r++) {
                pdg::Case c = pdg::gatk_case(rng, hl, U(1, 60), wild);
                c.hap = hc.hap;
                c.pd = hc.pd;
                const int start = U(0, hl - 1);
                for (size_t i = 0; i < c.read.size(); i++)
                    if (U(0, 9)) c.read[i] = hc.hap[(start + i) % hc.hap.size()];
                cs.push_back(c);
                first_of.push_back(first);
            }
        }
    }
    pdg::Batch copies(cs), shared(cs);
    for (size_t k = 0; k < cs.size(); k++) shared.ho[k] = shared.ho[(size_t)first_of[k]];
    std::vector<int32_t> pairs(cs.size());
    for (size_t k = 0; k < cs.size(); k++) pairs[k] = (int32_t)k;
    for (pdg::Batch *b : { &copies, &shared }) {
        const dpa_pdhmm_batch v = b->view();
        for (int32_t rows = 0; rows <= 1; rows++) {
            SCOPED_TRACE(b == &copies ? "haplotype copied per pair" : "haplotype shared by offset");
            kernels_match_scalar(v, pairs, rows);
        }
    }
    // through the API (the engine's order), on the pairs it accepts
    const std::vector<pdg::Case> ok = api_accepted(cs);
    Ctx scalar("avx512,avx2"), best("");
    for (int32_t rows : { DPA_PDHMM_ROWS_GATK, DPA_PDHMM_ROWS_GKL }) {
        const std::vector<double> a = compute(scalar.ctx, ok, nullptr, rows),
                                  c = compute(best.ctx, ok, nullptr, rows);
        for (size_t k = 0; k < ok.size(); k++)
            EXPECT_EQ(std::memcmp(&a[k], &c[k], 8), 0) << "API rows " << rows << " pair " << k;
    }
}

// A hand-derived value: read "A" (Q30 everywhere but GCP 10), haplotype "A" with no flags.
// D's row 0 holds 2^1020 / 1; M[1][1] = (1 - 10^-3) * D[0][0] * (1 - 10^-1) (the gap-to-match
// transition); I[1][1] = 0. So the result is log10(0.999 * 0.9).
TEST(Pdhmm, HandDerivedSingleBase)
{
    pdg::Case c;
    c.hap = "A";
    c.pd = { 0 };
    c.read = "A";
    c.q = { 30 };
    c.ins = { 30 };
    c.del = { 30 };
    c.gcp = { 10 };
    Ctx ctx("");
    const std::vector<double> out = compute(ctx.ctx, { c });
    EXPECT_NEAR(out[0], std::log10(0.999 * 0.9), 1e-12);
    // a SNP alternative C makes read "C" match with the same probability
    c.read = "C";
    c.pd = { DPA_PD_SNP | DPA_PD_C };
    EXPECT_NEAR(compute(ctx.ctx, { c })[0], std::log10(0.999 * 0.9), 1e-12);
    // without it, "C" is a mismatch: 10^-3 / 3
    c.pd = { 0 };
    EXPECT_NEAR(compute(ctx.ctx, { c })[0], std::log10(1e-3 / 3 * 0.9), 1e-12);
    // the scaled sum: 2^1020 times the probability
    pdg::Batch b({ c });
    const dpa_pdhmm_batch v = b.view();
    dpa_pdhmm_params p;
    dpa_pdhmm_params_init(&p);
    EXPECT_EQ(p.result, DPA_PDHMM_RESULT_LOG10);
    p.result = DPA_PDHMM_RESULT_SCALED_SUM;
    double sum = 0;
    ASSERT_EQ(dpa_pdhmm_compute(ctx.ctx, &v, &p, &sum, 1, nullptr), DPA_OK) << dpa_last_error();
    EXPECT_NEAR(sum / std::ldexp(1.0, 1020), 1e-3 / 3 * 0.9, 1e-15);
}

// The scaled sums are what the log10 results are taken from, on every ISA: log10(sum) -
// log10(2^1020) is the log10 result to the bit.
TEST(Pdhmm, ScaledSumsGiveTheLog10Results)
{
    const uint64_t seed = dpa_test::test_seed();
    SCOPED_TRACE("seed " + std::to_string(seed));
    std::mt19937_64 rng(seed);
    std::vector<pdg::Case> cs;
    for (int k = 0; k < 97; k++)
        cs.push_back(pdg::gatk_case(rng, std::uniform_int_distribution<int>(1, 300)(rng),
                                    std::uniform_int_distribution<int>(1, 150)(rng), k % 3 == 0));
    cs = api_accepted(cs);
    pdg::Batch b(cs);
    const dpa_pdhmm_batch v = b.view();
    for (const char *disable : { "avx512,avx2", "avx512", "" }) {
        Ctx ctx(disable);
        for (int32_t rows : { DPA_PDHMM_ROWS_GATK, DPA_PDHMM_ROWS_GKL }) {
            const std::vector<double> lg = compute(ctx.ctx, cs, nullptr, rows);
            dpa_pdhmm_params p;
            dpa_pdhmm_params_init(&p);
            p.rows = rows;
            p.result = DPA_PDHMM_RESULT_SCALED_SUM;
            std::vector<double> sums(cs.size(), -1.0);
            ASSERT_EQ(dpa_pdhmm_compute(ctx.ctx, &v, &p, sums.data(), (int64_t)sums.size(), nullptr),
                      DPA_OK)
                << dpa_last_error();
            for (size_t k = 0; k < cs.size(); k++) {
                const double want = std::log10(sums[k]) - std::log10(std::ldexp(1.0, 1020));
                EXPECT_EQ(std::memcmp(&want, &lg[k], 8), 0)
                    << disable << " rows " << rows << " pair " << k << ": " << want << " " << lg[k];
            }
        }
    }
}

// Gap-open qualities whose error probabilities sum past 1 (Q0 + anything, Q3 + Q3) are not a
// model: the forward sum can grow and overflow to +Infinity or NaN, where GATK's PDPairHMM
// throws. Three pairs libFuzzer found (fuzz_pdhmm_batch, CI 2026-11-25): the kernels agree
// bit for bit on them (called directly, every ISA this CPU runs); the API refuses the call.
TEST(Pdhmm, ImproperGapQualitiesAgreeInTheKernelsAndFailTheCall)
{
    auto C = [](const char *hap, std::vector<uint8_t> pd, const char *read, std::vector<uint8_t> q,
                uint8_t ins, uint8_t del, std::vector<uint8_t> gcp) {
        pdg::Case c;
        c.hap = hap;
        c.pd = pd;
        c.read = read;
        c.q = q;
        c.ins.assign(c.read.size(), ins);
        c.del.assign(c.read.size(), del);
        c.gcp = gcp;
        return c;
    };
    std::vector<uint8_t> pd0(39, 255);
    const uint8_t head0[12] = { 0, 0, 0, 0, 0, 0, 222, 0, 0, 165, 0, 0 };
    std::copy(head0, head0 + 12, pd0.begin());
    std::vector<uint8_t> pd1(28, 255);
    const uint8_t head1[6] = { 0, 0, 124, 160, 10, 246 }, tail1[8] = { 0, 128, 0, 19, 0, 0, 31, 0 };
    std::copy(head1, head1 + 6, pd1.begin());
    std::copy(tail1, tail1 + 8, pd1.begin() + 20);
    std::vector<uint8_t> pd2(19, 0);
    pd2[0] = 46;
    pd2[1] = 65;
    pd2[18] = 158;
    std::vector<uint8_t> q2 = { 56, 19, 28, 75, 30, 70, 33, 7,  46, 81, 71, 75, 16,
                                39, 8,  23, 72, 60, 60, 8,  69, 39, 50, 56, 34, 76,
                                5,  18, 66, 92, 11, 48, 29, 91, 13, 24, 41, 37, 84 };
    std::vector<uint8_t> g2 = { 92, 68, 40, 6,  59, 70, 82, 12, 8,  3,  75, 14, 27,
                                23, 47, 6,  42, 32, 41, 20, 85, 6,  5,  6,  38, 16,
                                12, 26, 44, 20, 30, 41, 14, 20, 27, 16, 26, 48, 9 };
    const std::vector<pdg::Case> cs = {
        C("ACTCACCAGCATTTTTTTTTTTTTTTTTTTTTTTTTTTT", pd0, "gCggggttgCgggNN",
          { 28, 75, 30, 70, 33, 7, 46, 81, 71, 75, 16, 39, 8, 23, 72 }, 0, 0,
          { 6, 59, 70, 82, 12, 8, 3, 75, 14, 27, 23, 47, 6, 42, 32 }),
        C("TGTTAAGTTTTTTTTTTTTTTACTAAGT", pd1, "NgAggCCttAAtCtNAtgNCtAACNAAA",
          { 81, 71, 75, 16, 39, 8,  23, 72, 60, 60, 8,  69, 39, 50,
            56, 34, 76, 5,  18, 66, 92, 11, 48, 29, 91, 13, 24, 41 },
          0, 0,
          { 14, 27, 23, 47, 6,  42, 32, 41, 20, 85, 6,  5,  6,  38,
            16, 12, 26, 44, 20, 30, 41, 14, 20, 27, 16, 26, 48, 9 }),
        C("GGTGTATCGGCTCCCAGAT", pd2, "NNNNNNNNNNNNNNNNNNNNNNNNgAtNAtCCtggCAgC", q2, 0, 0, g2),
    };
    pdg::Batch b(cs);
    const dpa_pdhmm_batch v = b.view();
    for (int32_t rows = 0; rows <= 1; rows++) {
        SCOPED_TRACE("rows " + std::to_string(rows));
        const std::vector<double> ref = kernels_match_scalar(v, { 0, 1, 2 }, rows);
        for (int k = 0; k < 3; k++)
            EXPECT_TRUE(std::isnan(ref[k]) || ref[k] > 0.0) << "pair " << k << ": " << ref[k];
        Ctx ctx("");
        dpa_pdhmm_params p;
        dpa_pdhmm_params_init(&p);
        p.rows = rows;
        double out[3] = { 99.0, 99.0, 99.0 };
        EXPECT_EQ(dpa_pdhmm_compute(ctx.ctx, &v, &p, out, 3, nullptr), DPA_ERR_INVALID_ARG);
        EXPECT_NE(std::strstr(dpa_last_error(), "pair 0: result"), nullptr) << dpa_last_error();
        EXPECT_NE(std::strstr(dpa_last_error(), "is not a log10 probability"), nullptr);
        EXPECT_NE(std::strstr(dpa_last_error(), "read position 0 ins_quals = 0 and del_quals = 0"),
                  nullptr)
            << dpa_last_error();
        for (double d : out) EXPECT_EQ(d, 99.0);
    }
}

class PdhmmErrors : public ::testing::Test {
  protected:
    void SetUp() override
    {
        std::mt19937_64 rng(7);
        cs = { pdg::gatk_case(rng, 30, 20, false), pdg::gatk_case(rng, 40, 25, false) };
    }
    // The call fails with want, says what, and leaves out untouched.
    void fails(const pdg::Batch &b, dpa_status want, const char *what)
    {
        const dpa_pdhmm_batch v = b.view();
        std::vector<double> out(b.n + 1, 99.0);
        EXPECT_EQ(dpa_pdhmm_compute(ctx.ctx, &v, nullptr, out.data(), (int64_t)out.size(),
                                    nullptr),
                  want);
        EXPECT_NE(std::strstr(dpa_last_error(), what), nullptr) << dpa_last_error();
        for (double d : out) EXPECT_EQ(d, 99.0);
    }
    std::vector<pdg::Case> cs;
    Ctx ctx{ "" };
};

TEST_F(PdhmmErrors, NullsAndSizes)
{
    pdg::Batch b(cs);
    dpa_pdhmm_batch v = b.view();
    std::vector<double> out(2);
    EXPECT_EQ(dpa_pdhmm_compute(nullptr, &v, nullptr, out.data(), 2, nullptr), DPA_ERR_NULL_ARG);
    EXPECT_EQ(dpa_pdhmm_compute(ctx.ctx, nullptr, nullptr, out.data(), 2, nullptr),
              DPA_ERR_NULL_ARG);
    EXPECT_EQ(dpa_pdhmm_compute(ctx.ctx, &v, nullptr, nullptr, 2, nullptr), DPA_ERR_NULL_ARG);
    EXPECT_EQ(dpa_pdhmm_compute(ctx.ctx, &v, nullptr, out.data(), 1, nullptr),
              DPA_ERR_INVALID_ARG);
    EXPECT_NE(std::strstr(dpa_last_error(), "out_len = 1"), nullptr) << dpa_last_error();
    v.hap_pd_bases = nullptr;
    EXPECT_EQ(dpa_pdhmm_validate(&v), DPA_ERR_NULL_ARG);
    EXPECT_NE(std::strstr(dpa_last_error(), "hap_pd_bases is NULL"), nullptr);
    v = b.view();
    v.num_pairs = -1;
    EXPECT_EQ(dpa_pdhmm_validate(&v), DPA_ERR_INVALID_ARG);
    dpa_pdhmm_params p;
    dpa_pdhmm_params_init(&p);
    EXPECT_EQ(p.backend, -1);
    p.backend = 9;
    v = b.view();
    EXPECT_EQ(dpa_pdhmm_compute(ctx.ctx, &v, &p, out.data(), 2, nullptr), DPA_ERR_INVALID_ARG);
    p.backend = DPA_BACKEND_GPU;  // the test context disables the GPU
    EXPECT_EQ(dpa_pdhmm_compute(ctx.ctx, &v, &p, out.data(), 2, nullptr), DPA_ERR_NO_DEVICE);
    dpa_pdhmm_params_init(&p);
    p.rows = 2;
    EXPECT_EQ(dpa_pdhmm_compute(ctx.ctx, &v, &p, out.data(), 2, nullptr), DPA_ERR_INVALID_ARG);
    EXPECT_NE(std::strstr(dpa_last_error(), "rows = 2"), nullptr) << dpa_last_error();
    dpa_pdhmm_params_init(&p);
    p.result = 2;
    EXPECT_EQ(dpa_pdhmm_compute(ctx.ctx, &v, &p, out.data(), 2, nullptr), DPA_ERR_INVALID_ARG);
    EXPECT_NE(std::strstr(dpa_last_error(), "result = 2"), nullptr) << dpa_last_error();
}

TEST_F(PdhmmErrors, Lengths)
{
    pdg::Batch b(cs);
    b.rl[1] = 0;
    fails(b, DPA_ERR_INVALID_ARG, "read_lengths[1] = 0");
    pdg::Batch c(cs);
    c.hl[0] = DPA_PDHMM_MAX_LENGTH + 1;
    fails(c, DPA_ERR_LIMIT, "hap_lengths[0] = 65537");
    pdg::Batch d(cs);
    d.ho[1] = -3;
    fails(d, DPA_ERR_INVALID_ARG, "hap_offsets[1] = -3");
}

TEST_F(PdhmmErrors, NegativeQualityBytes)
{
    cs[1].gcp[4] = 200;
    fails(pdg::Batch(cs), DPA_ERR_INVALID_ARG, "pair 1: gcp_quals[4] = 200 (byte -56)");
}

TEST_F(PdhmmErrors, UnexpectedBaseAtSnpPosition)
{
    // GATK throws only where the odd byte meets a SNP position whose own byte differs
    cs[0].pd.assign(cs[0].hap.size(), 0);
    cs[0].read[3] = 'R';
    { // no SNP position: fine
        pdg::Batch b(cs);
        const dpa_pdhmm_batch v = b.view();
        EXPECT_EQ(dpa_pdhmm_validate(&v), DPA_OK) << dpa_last_error();
    }
    cs[0].pd[5] = DPA_PD_SNP | DPA_PD_A;
    cs[0].hap[5] = 'R';  // the same byte: equal bytes match before the SNP test
    {
        pdg::Batch b(cs);
        const dpa_pdhmm_batch v = b.view();
        EXPECT_EQ(dpa_pdhmm_validate(&v), DPA_OK) << dpa_last_error();
    }
    cs[0].hap[5] = 'N';  // haplotype N matches everything
    {
        pdg::Batch b(cs);
        const dpa_pdhmm_batch v = b.view();
        EXPECT_EQ(dpa_pdhmm_validate(&v), DPA_OK) << dpa_last_error();
    }
    cs[0].hap[5] = 'G';
    fails(pdg::Batch(cs), DPA_ERR_INVALID_ARG, "pair 0: read_bases[3] = 0x52");
}

TEST_F(PdhmmErrors, EmptyBatch)
{
    pdg::Batch b({});
    const dpa_pdhmm_batch v = b.view();
    dpa_pdhmm_stats st;
    EXPECT_EQ(dpa_pdhmm_compute(ctx.ctx, &v, nullptr, nullptr, 0, &st), DPA_OK)
        << dpa_last_error();
    EXPECT_EQ(st.pairs, 0);
}

}  // namespace

namespace {

// PairHMMModel.matchToMatchProb's formula evaluated with this platform's libm:
// 10^(log1p(-min(1, 10^s)) / ln 10), s = approximateLog10SumLog10(-hi/10, -lo/10) with
// GATK's Jacobian table (log10(1 + 10^(-k/10^4)), k = round(diff * 10^4), none at diff >= 8).
double m2m_formula(int ins, int del)
{
    const int lo = std::min(ins, del), hi = std::max(ins, del);
    const double a = -0.1 * hi, b = -0.1 * lo, diff = b - a;
    double s = b;
    if (diff < 8.0) {
        const double scaled = diff * (1.0 / 0.0001);
        const int k = scaled > 0 ? (int)(scaled + 0.5) : (int)(scaled - 0.5);
        s += std::log10(1.0 + std::pow(10.0, (double)(-k) * 0.0001));
    }
    return std::pow(10.0, std::log1p(-std::min(1.0, std::pow(10.0, s))) * (1.0 / std::log(10.0)));
}

int64_t ulps(double a, double b)
{
    int64_t x, y;
    std::memcpy(&x, &a, 8);
    std::memcpy(&y, &b, 8);
    return x > y ? x - y : y - x;
}

} // namespace

// The generated table of GATK's per-quality constants (pdhmm_gatk_tables.c) against the
// formula it was computed from, evaluated independently here with glibc: every entry within
// 8 ulps (log1p magnifies a last-bit difference of pow near 1) and almost all identical. That
// the table holds GATK's own bits is checked in Java against GATK itself
// (PdhmmGatkTablesTest in java/gatk-dropin).
TEST(Pdhmm, GatkQualityTablesFollowTheirFormulas)
{
    int differ = 0;
    for (int ins = 0; ins < 128; ins++)
        for (int del = 0; del < 128; del++) {
            const double t = dpa_pdhmm_m2m((uint8_t)ins, (uint8_t)del), f = m2m_formula(ins, del);
            EXPECT_EQ(t, dpa_pdhmm_m2m((uint8_t)del, (uint8_t)ins)) << ins << " " << del;
            EXPECT_LE(ulps(t, f), 8) << "matchToMatch(" << ins << ", " << del << ") " << t << " vs " << f;
            differ += t != f;
        }
    EXPECT_LE(differ, 64) << "of 16,384 (ins, del) pairs";
    std::printf("[pdhmm] GATK's matchToMatch table differs from glibc's evaluation at %d of 16384 "
                "(ins, del) pairs\n", differ);
    for (int q = 0; q < 128; q++)
        EXPECT_LE(ulps(dpa_pdhmm_err((uint8_t)q), std::pow(10.0, q / -10.0)), 1) << "Q" << q;
    // hand-derived: Q0 and Q10, Q20 exactly; both gap-opens Q0: no way to stay in M
    EXPECT_EQ(dpa_pdhmm_err(0), 1.0);
    EXPECT_EQ(dpa_pdhmm_err(10), 0.1);
    EXPECT_EQ(dpa_pdhmm_err(20), 0.01);
    EXPECT_EQ(dpa_pdhmm_m2m(0, 0), 0.0);
    EXPECT_EQ(dpa_pdhmm_m2m(0, 40), 0.0);
    // Q45 / Q45 (GATK's default GOP): 1 - 2 * 10^-4.5 to within the Jacobian table's step
    EXPECT_NEAR(dpa_pdhmm_m2m(45, 45), 1.0 - 2 * std::pow(10.0, -4.5), 1e-9);
}
