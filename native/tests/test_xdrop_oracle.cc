// test_xdrop_oracle.cc — dpa_xdrop_compute against SeqAn 2.x itself (oracles/xdrop_seqan.cc,
// built when libseqan2-dev is installed; every test here skips loudly without it): generated
// long-read data for every X and scoring of issue 21, then each edge case on its own.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "xdrop_gen.h"

using xd::Case;

namespace {

struct Config {
    int match, mismatch, gap, x;
    int pairs, kmers;
};

class XdropOracle : public ::testing::TestWithParam<Config> {};

// Fixed seeds: the same data on every run, so a failure reproduces; the generator covers
// true and spurious seeds, both strands, lower case and N runs.
TEST_P(XdropOracle, LongReads)
{
    XD_NEED_ORACLE();
    const Config &c = GetParam();
    const uint64_t seed = 2100 + (uint64_t)c.x * 7 + (uint64_t)-c.mismatch;
    SCOPED_TRACE("generator seed " + std::to_string(seed));
#ifdef DPA_XDROP_QUICK
    const std::vector<Case> cs = xd::long_read_cases(seed, c.pairs / 4 + 1, c.kmers, 6000);
    ASSERT_GT(cs.size(), 3u);
#else
    const std::vector<Case> cs = xd::long_read_cases(seed, c.pairs, c.kmers);
    ASSERT_GT(cs.size(), 10u);
#endif
    EXPECT_EQ(xd::expect_same_as_seqan(cs, xd::params(c.match, c.mismatch, c.gap, c.x)), 0);
#ifndef DPA_XDROP_QUICK
    // the data must exercise long extensions, not only seeds that stop at once
    size_t longer = 0;
    for (const xd::Result &r : xd::ours(cs, xd::params(c.match, c.mismatch, c.gap, c.x)))
        longer += r.qend - r.qbeg > 1000;
    EXPECT_GE(longer * 5, cs.size()) << longer << " of " << cs.size() << " extend past 1 kb";
#endif
}

INSTANTIATE_TEST_SUITE_P(Xdrop, XdropOracle,
                         ::testing::Values(Config{ 1, -1, -1, 10, 20, 4 },
                                           Config{ 1, -1, -1, 50, 20, 4 },
                                           Config{ 1, -1, -1, 100, 20, 4 },
                                           Config{ 1, -1, -1, 1000, 10, 3 },
                                           Config{ 1, -2, -2, 10, 20, 4 },
                                           Config{ 1, -2, -2, 50, 20, 4 },
                                           Config{ 1, -2, -2, 100, 20, 4 },
                                           Config{ 1, -2, -2, 1000, 10, 3 }),
                         [](const ::testing::TestParamInfo<Config> &i) {
                             return "m" + std::to_string(-i.param.mismatch) + "_x" +
                                    std::to_string(i.param.x);
                         });

// ---- edge cases, each against the oracle ------------------------------------------------

std::string dna(uint64_t seed, size_t n)
{
    std::mt19937_64 rng(seed);
    return xd::random_dna(rng, n);
}

// A copy of s with one substitution every `every` bases.
std::string mutate(std::string s, size_t every)
{
    for (size_t i = every / 2; i < s.size(); i += every) s[i] = s[i] == 'A' ? 'C' : 'A';
    return s;
}

void all_configs(const std::vector<Case> &cs)
{
    for (int x : { 0, 1, 10, 50, 100, 1000 })
        for (int m : { 1, 2 }) {
            SCOPED_TRACE("X " + std::to_string(x) + ", mismatch/gap -" + std::to_string(m));
            xd::expect_same_as_seqan(cs, xd::params(1, -m, -m, x));
        }
}

TEST(XdropEdge, SeedsAtStartsAndEnds)
{
    XD_NEED_ORACLE();
    const std::string a = dna(1, 400), b = mutate(a, 23);
    all_configs({ { a, b, 0, 0, 17, false },             // both starts
                  { a, b, 383, 383, 17, false },         // both ends
                  { a, b, 0, 100, 17, false },           // query start only
                  { a, b, 100, 0, 17, false },           // target start only
                  { a, b, 400, 400, 0, false } });       // zero-length at both ends
}

TEST(XdropEdge, SeedIsWholeSequence)
{
    XD_NEED_ORACLE();
    const std::string a = dna(2, 300);
    all_configs({ { a, a, 0, 0, 300, false }, { a, a + dna(3, 50), 0, 0, 300, false },
                  { a, a, 0, 0, 300, true } });
}

TEST(XdropEdge, ZeroLengthSeeds)
{
    XD_NEED_ORACLE();
    const std::string a = dna(4, 500), b = mutate(a, 17);
    all_configs({ { a, b, 0, 0, 0, false }, { a, b, 250, 250, 0, false },
                  { a, b, 250, 100, 0, false }, { a, b, 500, 0, 0, true } });
}

TEST(XdropEdge, OneBaseSequences)
{
    XD_NEED_ORACLE();
    const std::string t = "A" + dna(5, 150);
    all_configs({ { "A", "A", 0, 0, 1, false }, { "A", "C", 0, 0, 1, false },
                  { "A", "C", 0, 0, 0, false }, { "A", t, 0, 0, 0, false },
                  { t, "A", 0, 0, 0, false }, { "A", t, 1, 50, 0, false },
                  { "G", t, 0, 75, 0, true } });
}

TEST(XdropEdge, Identical50kbReads)
{
    XD_NEED_ORACLE();
    const std::string a = dna(6, 50000);
    for (int x : { 10, 100 }) // scores pass 32,767: int16 lanes could not hold them
        xd::expect_same_as_seqan({ { a, a, 25000, 25000, 17, false }, { a, a, 0, 0, 0, false } },
                                 xd::params(1, -1, -1, x));
}

TEST(XdropEdge, NBlocks)
{
    XD_NEED_ORACLE();
    std::string a = dna(7, 600), b = mutate(a, 31), bn = b, an = a;
    for (size_t i = 350; i < 420; i++) bn[i] = 'N';
    for (size_t i = 340; i < 430; i++) an[i] = 'n';
    all_configs({ { a, bn, 100, 100, 17, false }, { an, bn, 100, 100, 17, false },
                  { an, b, 500, 500, 17, false } });
}

TEST(XdropEdge, IupacAndU)
{
    XD_NEED_ORACLE();
    std::string a = dna(8, 300), b = mutate(a, 29);
    const std::string iupac = "RYKMSWBDHVXU";
    for (size_t i = 0; i < a.size(); i += 13) a[i] = iupac[i % iupac.size()];
    for (size_t i = 0; i < b.size(); i += 11) if (b[i] == 'T') b[i] = 'U';
    all_configs({ { a, b, 150, 150, 17, false }, { a, xd::revcomp(b), 150, 150, 17, true } });
}

TEST(XdropEdge, ReverseStrand)
{
    XD_NEED_ORACLE();
    const std::string a = dna(9, 2000), b = xd::revcomp(mutate(a, 19));
    all_configs({ { a, b, 1000, 1000, 17, true }, { a, b, 10, 10, 5, true },
                  { a, b, 1990, 1990, 10, true } });
}

TEST(XdropEdge, Containment)
{
    XD_NEED_ORACLE();
    const std::string g = dna(10, 3000), inner = mutate(g.substr(1000, 800), 21);
    all_configs({ { inner, g, 400, 1400, 17, false }, { g, inner, 1400, 400, 17, false },
                  { inner, xd::revcomp(g), 400, 1583, 17, true } });
}

// A 60-bp insertion in the target, X on both sides of its 60-gap cost.
TEST(XdropEdge, Insertion60bp)
{
    XD_NEED_ORACLE();
    const std::string a = dna(11, 1000);
    const std::string b = a.substr(0, 500) + dna(12, 60) + a.substr(500);
    const std::vector<Case> cs = { { a, b, 100, 100, 17, false }, { a, b, 800, 860, 17, false } };
    for (int x : { 10, 30, 50, 59, 60, 61, 62, 80, 100 })
        xd::expect_same_as_seqan(cs, xd::params(1, -1, -1, x));
}

// Periodic sequences: many equal-scoring cells, where tie-breaking decides the ends.
TEST(XdropEdge, PeriodicTies)
{
    XD_NEED_ORACLE();
    std::string a, b;
    for (int i = 0; i < 200; i++) a += "CA";
    for (int i = 0; i < 130; i++) b += "CAG";
    std::string h(300, 'A'), h2(280, 'A');
    all_configs({ { a, a, 100, 102, 10, false }, { a, b, 0, 0, 2, false },
                  { h, h2, 150, 100, 20, false }, { a, a.substr(1), 50, 51, 0, true } });
}

// mismatch != gap, where SeqAn's own undefined marker would overflow int32 when mismatch <
// gap (docs/xdrop.md); only mismatch > gap is compared here.
TEST(XdropEdge, MismatchAboveGap)
{
    XD_NEED_ORACLE();
    const std::vector<Case> cs = xd::long_read_cases(77, 6, 2, 5000);
    for (int x : { 10, 100 }) xd::expect_same_as_seqan(cs, xd::params(2, -1, -3, x));
    xd::expect_same_as_seqan(cs, xd::params(5, -4, -7, 50));
}

}  // namespace
