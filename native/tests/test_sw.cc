// Smith-Waterman (GATK semantics): hand-derived cases for every overhang strategy, GATK's own
// published expectations, the scalar reference against an independent full-matrix
// implementation (written straight from GATK's description, gap lengths stored per cell as
// GATK does) on random pairs and at lengths around 1024 and 4096, the public batch API
// (threads, order, packing, stats), the maximum size, and every bad input.
#include <gtest/gtest.h>

#include <cstdlib>
#include <cstring>
#include <functional>
#include <string>
#include <vector>

#include "sw_gen.h"
#include "test_util.h"

extern "C" {
#include "cpu/sw/sw.h"
}

using namespace dpa_test;

namespace {

using dpa_swgen::make_params;
using dpa_swgen::NEW_SW;
using dpa_swgen::ORIGINAL_DEFAULT;
using dpa_swgen::Params;
using dpa_swgen::READ_TO_HAP;
using dpa_swgen::STANDARD_NGS;

struct Result {
    std::string cigar;
    int32_t offset;
    bool operator==(const Result &o) const { return cigar == o.cigar && offset == o.offset; }
};
std::ostream &operator<<(std::ostream &os, const Result &r)
{
    return os << r.cigar << " @ " << r.offset;
}

Result scalar(const std::string &ref, const std::string &alt, const Params &p, int overhang)
{
    dpa_sw_params sp = make_params(p, overhang);
    dpa_sw_scratch s;
    std::memset(&s, 0, sizeof s);
    std::string cigar((size_t)dpa_sw_cigar_max((int32_t)ref.size(), (int32_t)alt.size()), '?');
    int32_t len = -1, off = -1;
    int exact = 0;
    dpa_status st = dpa_sw_align_scalar((const uint8_t *)ref.data(), (int32_t)ref.size(),
                                        (const uint8_t *)alt.data(), (int32_t)alt.size(), &sp, &s,
                                        &cigar[0], &len, &off, &exact);
    dpa_sw_scratch_free(&s);
    EXPECT_EQ(st, DPA_OK) << dpa_last_error();
    cigar.resize((size_t)len);
    return { cigar, off };
}

// Independent implementation: GATK's two full matrices (score, and btrack with 0 = diagonal,
// -k = horizontal gap of k, +k = vertical gap of k), in 64-bit arithmetic.
Result naive(const std::string &ref, const std::string &alt, const Params &p, int ov)
{
    const int n = (int)ref.size(), m = (int)alt.size();
    if (ov == DPA_SW_OVERHANG_SOFTCLIP || ov == DPA_SW_OVERHANG_IGNORE) {
        for (int r = n - m; r >= 0; r--)
            if (ref.compare((size_t)r, (size_t)m, alt) == 0) return { std::to_string(m) + "M", r };
    }
    std::vector<int64_t> sw((size_t)(n + 1) * (m + 1), 0);
    std::vector<int32_t> bt((size_t)(n + 1) * (m + 1), 0);
    auto S = [&](int i, int j) -> int64_t & { return sw[(size_t)i * (m + 1) + j]; };
    auto B = [&](int i, int j) -> int32_t & { return bt[(size_t)i * (m + 1) + j]; };
    const int64_t low = INT32_MIN / 2;
    if (ov == DPA_SW_OVERHANG_INDEL || ov == DPA_SW_OVERHANG_LEADING_INDEL) {
        for (int j = 1; j <= m; j++) S(0, j) = p.open + (int64_t)(j - 1) * p.extend;
        for (int i = 1; i <= n; i++) S(i, 0) = p.open + (int64_t)(i - 1) * p.extend;
    }
    std::vector<int64_t> bgv(m + 1, low);
    std::vector<int> gsv(m + 1, 0);
    for (int i = 1; i <= n; i++) {
        int64_t bgh = low;
        int gsh = 0;
        for (int j = 1; j <= m; j++) {
            int64_t diag = S(i - 1, j - 1) + (ref[i - 1] == alt[j - 1] ? p.match : p.mismatch);
            int64_t g = S(i - 1, j) + p.open;
            bgv[j] += p.extend;
            if (g > bgv[j]) bgv[j] = g, gsv[j] = 1;
            else gsv[j]++;
            g = S(i, j - 1) + p.open;
            bgh += p.extend;
            if (g > bgh) bgh = g, gsh = 1;
            else gsh++;
            int64_t v;
            if (diag >= bgv[j] && diag >= bgh) v = diag, B(i, j) = 0;
            else if (bgh >= bgv[j]) v = bgh, B(i, j) = -gsh;
            else v = bgv[j], B(i, j) = gsv[j];
            S(i, j) = std::max<int64_t>(-100000000, v);
        }
    }
    int p1 = 0, p2 = 0, seg = 0;
    if (ov == DPA_SW_OVERHANG_INDEL) {
        p1 = n, p2 = m;
    } else {
        int64_t best = INT64_MIN;
        p2 = m;
        for (int i = 1; i <= n; i++)
            if (S(i, m) >= best) best = S(i, m), p1 = i;
        if (ov != DPA_SW_OVERHANG_LEADING_INDEL)
            for (int j = 1; j <= m; j++)
                if (S(n, j) > best || (S(n, j) == best && std::abs(n - j) < std::abs(p1 - p2)))
                    best = S(n, j), p1 = n, p2 = j, seg = m - j;
    }
    std::vector<std::pair<int, char>> el;
    if (seg > 0 && ov == DPA_SW_OVERHANG_SOFTCLIP) el.push_back({ seg, 'S' }), seg = 0;
    char state = 'M';
    do {
        int b = B(p1, p2), step = 1;
        char ns;
        if (b > 0) ns = 'D', step = b, p1 -= b;
        else if (b < 0) ns = 'I', step = -b, p2 += b;
        else ns = 'M', p1--, p2--;
        if (ns == state) seg += step;
        else {
            if (seg > 0) el.push_back({ seg, state });
            seg = step, state = ns;
        }
    } while (p1 > 0 && p2 > 0);
    int off = 0;
    if (ov == DPA_SW_OVERHANG_SOFTCLIP) {
        el.push_back({ seg, state });
        if (p2 > 0) el.push_back({ p2, 'S' });
        off = p1;
    } else if (ov == DPA_SW_OVERHANG_IGNORE) {
        el.push_back({ seg + p2, state });
        off = p1 - p2;
    } else {
        el.push_back({ seg, state });
        if (p1 > 0) el.push_back({ p1, 'D' });
        else if (p2 > 0) el.push_back({ p2, 'I' });
    }
    std::string c;
    for (auto it = el.rbegin(); it != el.rend(); ++it) c += std::to_string(it->first) + it->second;
    return { c, off };
}

const int SOFT = DPA_SW_OVERHANG_SOFTCLIP, INDEL = DPA_SW_OVERHANG_INDEL,
          LEAD = DPA_SW_OVERHANG_LEADING_INDEL, IGN = DPA_SW_OVERHANG_IGNORE;

// A mutated copy: SNPs, short indels, occasionally a repeat expansion.
std::string mutate(std::mt19937_64 &rng, const std::string &s, int events)
{
    std::string t = s;
    for (int e = 0; e < events && !t.empty(); e++) {
        size_t pos = rng() % t.size();
        switch (rng() % 4) {
        case 0: t[pos] = "ACGT"[rng() % 4]; break;
        case 1: t.erase(pos, 1 + rng() % 8); break;
        case 2: t.insert(pos, random_bases(rng, 1 + (int)(rng() % 8))); break;
        default: t.insert(pos, t.substr(pos, std::min<size_t>(t.size() - pos, 2 + rng() % 3)) ); break;
        }
    }
    if (t.empty()) t = "A";
    return t;
}

}  // namespace

// ---- hand-derived (docs/sw.md walks through the first two) --------------------------------

TEST(SwHand, LeadingOverhangEachStrategy)
{
    // ref CC, alt ACC: the leading A has nothing to align to.
    EXPECT_EQ(scalar("CC", "ACC", ORIGINAL_DEFAULT, SOFT), (Result{ "1S2M", 0 }));
    EXPECT_EQ(scalar("CC", "ACC", ORIGINAL_DEFAULT, IGN), (Result{ "3M", -1 }));
    EXPECT_EQ(scalar("CC", "ACC", ORIGINAL_DEFAULT, INDEL), (Result{ "1I2M", 0 }));
    EXPECT_EQ(scalar("CC", "ACC", ORIGINAL_DEFAULT, LEAD), (Result{ "1I2M", 0 }));
}

TEST(SwHand, TrailingOverhangEachStrategy)
{
    // ref CC, alt CCA: SOFTCLIP/IGNORE start on the bottom row at (2,2); the INDEL strategies
    // end in the last column, where a one-base insertion (2) beats everything else.
    EXPECT_EQ(scalar("CC", "CCA", ORIGINAL_DEFAULT, SOFT), (Result{ "2M1S", 0 }));
    EXPECT_EQ(scalar("CC", "CCA", ORIGINAL_DEFAULT, IGN), (Result{ "3M", 0 }));
    EXPECT_EQ(scalar("CC", "CCA", ORIGINAL_DEFAULT, INDEL), (Result{ "2M1I", 0 }));
    EXPECT_EQ(scalar("CC", "CCA", ORIGINAL_DEFAULT, LEAD), (Result{ "2M1I", 0 }));
}

TEST(SwHand, LengthOneMismatch)
{
    for (int ov : { SOFT, INDEL, LEAD, IGN })
        EXPECT_EQ(scalar("A", "C", ORIGINAL_DEFAULT, ov), (Result{ "1M", 0 })) << "overhang " << ov;
    EXPECT_EQ(scalar("A", "A", ORIGINAL_DEFAULT, SOFT), (Result{ "1M", 0 }));
}

TEST(SwHand, SubstringShortcutOnlyForSoftclipAndIgnore)
{
    // the last occurrence wins
    EXPECT_EQ(scalar("ACGTTACGT", "ACGT", ORIGINAL_DEFAULT, SOFT), (Result{ "4M", 5 }));
    EXPECT_EQ(scalar("ACGTTACGT", "ACGT", ORIGINAL_DEFAULT, IGN), (Result{ "4M", 5 }));
}

// ---- GATK's published expectations (SmithWatermanAlignerAbstractUnitTest) -----------------

TEST(SwGatkCases, Published)
{
    EXPECT_EQ(scalar("AAAGGACTGACTG", "ACTGACTGACTG", ORIGINAL_DEFAULT, SOFT), (Result{ "12M", 1 }));
    EXPECT_EQ(scalar("AAAGACTACTG", "AACGGACACTG", { 50, -100, -220, -12 }, SOFT),
              (Result{ "2M2I3M1D4M", 1 }));
    EXPECT_EQ(scalar("AAAGACTACTG", "AACGGACACTG", { 200, -50, -300, -22 }, SOFT),
              (Result{ "11M", 0 }));
    EXPECT_EQ(scalar("AAACCCCC", "CCCCCGGG", ORIGINAL_DEFAULT, SOFT), (Result{ "5M3S", 3 }));
    EXPECT_EQ(scalar("TGTGTGTGTGTGTGACAGAGAGAGAGAGAGAGAGAGAGAGAGAGA",
                     "ACAGAGAGAGAGAGAGAGAGAGAGAGAGAGAGAGAGAGAGAGAGAGAGAGA", STANDARD_NGS, SOFT),
              (Result{ "31M20S", 14 }));
    EXPECT_EQ(scalar("AAACCCCC", "CCCCC", ORIGINAL_DEFAULT, SOFT), (Result{ "5M", 3 }));
    EXPECT_EQ(scalar("AAACCCCC", "CCCCC", ORIGINAL_DEFAULT, INDEL), (Result{ "3D5M", 0 }));
    EXPECT_EQ(scalar("AAACCCCC", "CCCCC", ORIGINAL_DEFAULT, LEAD), (Result{ "3D5M", 0 }));
    EXPECT_EQ(scalar("AAACCCCC", "CCCCC", ORIGINAL_DEFAULT, IGN), (Result{ "5M", 3 }));
    const std::string ref =
        "ATAGAAAATAGTTTTTGGAAATATGGGTGAAGAGACATCTCCTCTTATGGAAAAAGGGATTCTAGAATTTAACAATAAATATTCCCAACTTTCC"
        "CCAAGGCTTTAAAATCTACCTTGAAGGAGCAGCTGATGTATTTCTAGAACAGACTTAGGTGTCTTGGTGTGGCCTGTAAAGAGATACTGTCTTT"
        "CTCTTTTGAGTGTAAGAGAGAAAGGACAGTCTACTCAATAAAGAGTGCTGGGAAAACTGAATATCCACACACAGAATAATAAAACTAGATCCTA"
        "TCTCTCACCATATACAAAGATCAACTCAAAACAAATTAAAGACCTAAATGTAAGACAAGAAATTATAAAACTACTAGAAAAAAACACAAGGGAA"
        "ATGCTTCAGGACATTGGC";
    EXPECT_EQ(scalar(ref, "AAAAAAA", ORIGINAL_DEFAULT, SOFT), (Result{ "7M", 359 }));
    EXPECT_EQ(scalar(ref, "AAAAAAA", ORIGINAL_DEFAULT, INDEL), (Result{ "1M358D6M29D", 0 }));
    EXPECT_EQ(scalar(ref, "AAAAAAA", ORIGINAL_DEFAULT, LEAD), (Result{ "1M1D6M", 0 }));
    EXPECT_EQ(scalar(ref, "AAAAAAA", ORIGINAL_DEFAULT, IGN), (Result{ "7M", 359 }));
}

// ---- scalar reference vs the independent full-matrix implementation ---------------------

TEST(SwRandom, ScalarMatchesFullMatrix)
{
    const uint64_t seed = test_seed();
    SCOPED_TRACE("DPA_TEST_SEED=" + std::to_string(seed));
    std::mt19937_64 rng(seed);
    const Params all[] = { ORIGINAL_DEFAULT, STANDARD_NGS, NEW_SW, READ_TO_HAP, { 1, -1, 1, 1 },
                           { 5, 3, -2, 0 } };
    int checked = 0;
    for (int it = 0; it < 3000; it++) {
        const int lr = 1 + (int)(rng() % (it % 10 == 0 ? 300 : 40));
        std::string ref = random_bases(rng, lr, it % 3 == 0 ? "AC" : "ACGT");
        std::string alt;
        switch (it % 4) {
        case 0: alt = random_bases(rng, 1 + (int)(rng() % 40), "ACGT"); break;
        case 1: alt = mutate(rng, ref, 1 + (int)(rng() % 4)); break;
        case 2: {
            size_t a = rng() % ref.size(), l = 1 + rng() % ref.size();
            alt = random_bases(rng, (int)(rng() % 6)) + mutate(rng, ref.substr(a, l), (int)(rng() % 3)) +
                  random_bases(rng, (int)(rng() % 6));
            break;
        }
        default: alt = ref; break;
        }
        const Params &p = all[rng() % 6];
        for (int ov : { SOFT, INDEL, LEAD, IGN }) {
            Result a = scalar(ref, alt, p, ov), b = naive(ref, alt, p, ov);
            ASSERT_EQ(a, b) << "ref " << ref << " alt " << alt << " params " << p.match << ","
                            << p.mismatch << "," << p.open << "," << p.extend << " overhang " << ov;
            checked++;
        }
    }
    EXPECT_EQ(checked, 12000);
}

TEST(SwRandom, LengthsAround1024And4096)
{
    const uint64_t seed = test_seed();
    SCOPED_TRACE("DPA_TEST_SEED=" + std::to_string(seed));
    std::mt19937_64 rng(seed);
    const int lens[][2] = { { 1023, 1023 }, { 1024, 1024 }, { 1025, 1025 }, { 1024, 300 },
                            { 300, 1025 }, { 4096, 150 }, { 4096, 4096 } };
    for (auto &l : lens) {
        std::string ref = random_bases(rng, l[0]);
        std::string alt = l[1] == l[0] ? mutate(rng, ref, 8)
                                       : mutate(rng, ref.substr(rng() % (l[0] - std::min(l[0], l[1]) + 1),
                                                                (size_t)std::min(l[0], l[1])), 3);
        if ((int)alt.size() < l[1]) alt += random_bases(rng, l[1] - (int)alt.size());
        for (int ov : { SOFT, INDEL, LEAD, IGN }) {
            const Params &p = ov == SOFT ? READ_TO_HAP : NEW_SW;
            ASSERT_EQ(scalar(ref, alt, p, ov), naive(ref, alt, p, ov))
                << "ref length " << ref.size() << " alt length " << alt.size() << " overhang " << ov;
        }
    }
}

// ---- public batch API ---------------------------------------------------------------

namespace {

struct SwBatch {
    std::vector<std::string> refs, alts;
    std::vector<uint8_t> rb, ab;
    std::vector<int64_t> ro, ao;
    std::vector<int32_t> rl, al;
    dpa_sw_batch view()
    {
        rb.clear(), ab.clear(), ro.clear(), ao.clear(), rl.clear(), al.clear();
        for (size_t i = 0; i < refs.size(); i++) {
            ro.push_back((int64_t)rb.size());
            rl.push_back((int32_t)refs[i].size());
            rb.insert(rb.end(), refs[i].begin(), refs[i].end());
            ao.push_back((int64_t)ab.size());
            al.push_back((int32_t)alts[i].size());
            ab.insert(ab.end(), alts[i].begin(), alts[i].end());
        }
        dpa_sw_batch b;
        b.num_pairs = (int32_t)refs.size();
        b.ref_bases = rb.data(), b.ref_offsets = ro.data(), b.ref_lengths = rl.data();
        b.alt_bases = ab.data(), b.alt_offsets = ao.data(), b.alt_lengths = al.data();
        return b;
    }
};

struct SwOut {
    std::vector<char> cigars;
    std::vector<int64_t> offs;
    std::vector<int32_t> lens, aln;
    dpa_sw_output o;
    SwOut(int64_t cap, size_t n) : cigars((size_t)cap + 1), offs(n), lens(n), aln(n)
    {
        o.cigars = cigars.data(), o.cigar_capacity = cap, o.cigar_offsets = offs.data();
        o.cigar_lengths = lens.data(), o.alignment_offsets = aln.data();
    }
    Result at(size_t i) const
    {
        return { std::string(cigars.data() + offs[i], (size_t)lens[i]), aln[i] };
    }
};

dpa_context *make_ctx(int threads)
{
    dpa_options o;
    dpa_options_init(&o);
    o.num_threads = threads;
    o.backend = DPA_BACKEND_CPU;
    dpa_context *ctx = nullptr;
    EXPECT_EQ(dpa_context_create(&o, &ctx), DPA_OK) << dpa_last_error();
    return ctx;
}

}  // namespace

TEST(SwApi, BatchOnThreadsKeepsOrderAndPacks)
{
    const uint64_t seed = test_seed();
    SCOPED_TRACE("DPA_TEST_SEED=" + std::to_string(seed));
    std::mt19937_64 rng(seed);
    SwBatch b;
    for (int i = 0; i < 400; i++) {
        std::string ref = random_bases(rng, 20 + (int)(rng() % (i % 50 == 0 ? 1500 : 300)));
        b.refs.push_back(ref);
        b.alts.push_back(mutate(rng, ref.substr(rng() % (ref.size() / 2), ref.size() / 2), 3));
    }
    dpa_context *ctx = make_ctx(4);
    dpa_sw_batch v = b.view();
    int64_t cap = 0;
    ASSERT_EQ(dpa_sw_cigar_capacity(&v, &cap), DPA_OK);
    for (int ov : { SOFT, INDEL, LEAD, IGN }) {
        SwOut out(cap, b.refs.size());
        dpa_sw_params p = make_params(READ_TO_HAP, ov);
        dpa_sw_stats stats;
        ASSERT_EQ(dpa_sw_compute(ctx, &v, &p, &out.o, &stats), DPA_OK) << dpa_last_error();
        EXPECT_EQ(stats.pairs, 400);
        dpa_isa isa;
        ASSERT_EQ(dpa_context_isa(ctx, &isa), DPA_OK);
        EXPECT_EQ(stats.isa, isa);  // the ISA CTest's DPACCEL_CPU_DISABLE left for this run
        int64_t pos = 0;
        for (size_t i = 0; i < b.refs.size(); i++) {
            EXPECT_EQ(out.offs[i], pos) << "CIGARs are packed in pair order";
            pos += out.lens[i];
            ASSERT_EQ(out.at(i), scalar(b.refs[i], b.alts[i], READ_TO_HAP, ov)) << "pair " << i;
        }
        EXPECT_EQ(stats.cigar_bytes, pos);
    }
    dpa_context_destroy(ctx);
}

TEST(SwApi, EmptyBatchAndDefaults)
{
    dpa_context *ctx = make_ctx(2);
    dpa_sw_batch b;
    std::memset(&b, 0, sizeof b);
    dpa_sw_stats stats;
    EXPECT_EQ(dpa_sw_compute(ctx, &b, nullptr, nullptr, &stats), DPA_OK) << dpa_last_error();
    EXPECT_EQ(stats.pairs, 0);
    dpa_sw_params p;
    dpa_sw_params_init(&p);
    EXPECT_EQ(p.match, 200);
    EXPECT_EQ(p.gap_extend, -11);
    EXPECT_EQ(p.overhang, DPA_SW_OVERHANG_SOFTCLIP);
    dpa_context_destroy(ctx);
}

// The largest pair the API admits (DPA_SW_MAX_LENGTH x DPA_SW_MAX_CELLS / DPA_SW_MAX_LENGTH,
// 2^30 cells, 1 GiB of traceback): a SNP in the middle of a 16 Ki substring of 64 Ki. Runs in
// every ISA pass (well under a second each), so each kernel meets the limits.
TEST(SwApi, MaximumSize)
{
    std::mt19937_64 rng(7);
    SwBatch b;
    const int n = DPA_SW_MAX_LENGTH, m = (int)(DPA_SW_MAX_CELLS / DPA_SW_MAX_LENGTH);
    std::string ref = random_bases(rng, n);
    std::string alt = ref.substr(1000, (size_t)m);
    alt[(size_t)m / 2] = alt[(size_t)m / 2] == 'A' ? 'C' : 'A';
    b.refs = { ref }, b.alts = { alt };
    dpa_context *ctx = make_ctx(2);
    dpa_sw_batch v = b.view();
    int64_t cap = 0;
    ASSERT_EQ(dpa_sw_cigar_capacity(&v, &cap), DPA_OK);
    SwOut out(cap, 1);
    dpa_sw_params p = make_params(NEW_SW, SOFT);
    ASSERT_EQ(dpa_sw_compute(ctx, &v, &p, &out.o, nullptr), DPA_OK) << dpa_last_error();
    EXPECT_EQ(out.at(0), (Result{ std::to_string(m) + "M", 1000 }));
    // one more cell, or one more base, is refused
    b.alts = { alt + "A" };
    v = b.view();
    EXPECT_EQ(dpa_sw_compute(ctx, &v, &p, &out.o, nullptr), DPA_ERR_LIMIT);
    EXPECT_NE(std::string(dpa_last_error()).find("cells"), std::string::npos) << dpa_last_error();
    b.refs = { ref + "A" }, b.alts = { "ACGT" };
    v = b.view();
    EXPECT_EQ(dpa_sw_compute(ctx, &v, &p, &out.o, nullptr), DPA_ERR_LIMIT);
    EXPECT_NE(std::string(dpa_last_error()).find("ref_lengths[0] = 65537"), std::string::npos)
        << dpa_last_error();
    dpa_context_destroy(ctx);
}

// ---- bad input --------------------------------------------------------------------------

namespace {

struct SwErrors : ::testing::Test {
    dpa_context *ctx = nullptr;
    SwBatch b;
    int64_t cap = 0;
    void SetUp() override
    {
        ctx = make_ctx(2);
        b.refs = { "ACGTACGT", "AAAA" };
        b.alts = { "ACGAACGT", "AAT" };
        dpa_sw_batch v = b.view();
        ASSERT_EQ(dpa_sw_cigar_capacity(&v, &cap), DPA_OK);
    }
    void TearDown() override { dpa_context_destroy(ctx); }

    void expect_error(const std::function<void(dpa_sw_batch &, dpa_sw_params &, dpa_sw_output &)> &mutate,
                      dpa_status status, const std::string &needle)
    {
        dpa_sw_batch v = b.view();
        dpa_sw_params p = make_params(NEW_SW, SOFT);
        SwOut out(cap, 2);
        dpa_sw_output o = out.o;
        mutate(v, p, o);
        dpa_status st = dpa_sw_compute(ctx, &v, &p, &o, nullptr);
        EXPECT_EQ(st, status) << dpa_status_name(st) << ": " << dpa_last_error();
        EXPECT_NE(std::string(dpa_last_error()).find(needle), std::string::npos)
            << "message: " << dpa_last_error() << " (expected to mention '" << needle << "')";
        dpa_sw_batch good = b.view();
        dpa_sw_params gp = make_params(NEW_SW, SOFT);
        SwOut gout(cap, 2);
        EXPECT_EQ(dpa_sw_compute(ctx, &good, &gp, &gout.o, nullptr), DPA_OK) << "context still works";
    }
};

}  // namespace

TEST_F(SwErrors, NullsAndCounts)
{
    EXPECT_EQ(dpa_sw_compute(nullptr, nullptr, nullptr, nullptr, nullptr), DPA_ERR_NULL_ARG);
    using B = dpa_sw_batch;
    using P = dpa_sw_params;
    using O = dpa_sw_output;
    expect_error([](B &v, P &, O &) { v.ref_bases = nullptr; }, DPA_ERR_NULL_ARG, "ref_bases");
    expect_error([](B &v, P &, O &) { v.alt_offsets = nullptr; }, DPA_ERR_NULL_ARG, "alt_offsets");
    expect_error([](B &v, P &, O &) { v.alt_lengths = nullptr; }, DPA_ERR_NULL_ARG, "alt_lengths");
    expect_error([](B &v, P &, O &) { v.num_pairs = -1; }, DPA_ERR_INVALID_ARG, "num_pairs");
    expect_error([](B &, P &, O &o) { o.cigars = nullptr; }, DPA_ERR_NULL_ARG, "cigars");
    expect_error([](B &, P &, O &o) { o.alignment_offsets = nullptr; }, DPA_ERR_NULL_ARG,
                 "alignment_offsets");
    expect_error([](B &, P &, O &o) { o.cigar_capacity -= 1; }, DPA_ERR_INVALID_ARG,
                 "cigar_capacity");
}

TEST_F(SwErrors, LengthsAndOffsets)
{
    using B = dpa_sw_batch;
    using P = dpa_sw_params;
    using O = dpa_sw_output;
    static int32_t zero[2] = { 8, 0 }, big[2] = { DPA_SW_MAX_LENGTH + 1, 4 };
    static int64_t neg[2] = { 0, -5 };
    expect_error([](B &v, P &, O &) { v.alt_lengths = zero; }, DPA_ERR_INVALID_ARG,
                 "alt_lengths[1] = 0");
    expect_error([](B &v, P &, O &) { v.ref_lengths = big; }, DPA_ERR_LIMIT, "ref_lengths[0] = 65537");
    expect_error([](B &v, P &, O &) { v.ref_offsets = neg; }, DPA_ERR_INVALID_ARG, "ref_offsets[1]");
}

TEST_F(SwErrors, Parameters)
{
    using B = dpa_sw_batch;
    using P = dpa_sw_params;
    using O = dpa_sw_output;
    expect_error([](B &, P &p, O &) { p.overhang = 4; }, DPA_ERR_INVALID_ARG, "overhang = 4");
    expect_error([](B &, P &p, O &) { p.overhang = -1; }, DPA_ERR_INVALID_ARG, "overhang = -1");
    expect_error([](B &, P &p, O &) { p.backend = 9; }, DPA_ERR_INVALID_ARG, "backend = 9");
    int32_t gpus = 0;
    dpa_context_device_count(ctx, &gpus);
    if (gpus == 0) // GPU Smith-Waterman exists (docs/sw-cuda.md); without a device it is refused
        expect_error([](B &, P &p, O &) { p.backend = DPA_BACKEND_GPU; }, DPA_ERR_NO_DEVICE, "gpu");
    expect_error([](B &, P &p, O &) { p.match = INT32_MAX; }, DPA_ERR_LIMIT, "match = 2147483647");
    expect_error([](B &, P &p, O &) { p.gap_extend = INT32_MIN; }, DPA_ERR_LIMIT, "gap_extend");
    // each value allowed alone, but together with the lengths they could overflow int32
    expect_error([](B &, P &p, O &) { p.gap_open = -(1 << 27); p.match = 1 << 27; },
                 DPA_ERR_LIMIT, "could overflow");
}

TEST(SwErrorsStandalone, CapacityAndValidate)
{
    int64_t cap;
    EXPECT_EQ(dpa_sw_cigar_capacity(nullptr, &cap), DPA_ERR_NULL_ARG);
    EXPECT_EQ(dpa_sw_validate(nullptr, nullptr), DPA_ERR_NULL_ARG);
    SwBatch b;
    b.refs = { "ACGT" }, b.alts = { "AC" };
    dpa_sw_batch v = b.view();
    EXPECT_EQ(dpa_sw_cigar_capacity(&v, nullptr), DPA_ERR_NULL_ARG);
    ASSERT_EQ(dpa_sw_cigar_capacity(&v, &cap), DPA_OK);
    EXPECT_EQ(cap, 12);
}
