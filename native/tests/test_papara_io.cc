// test_papara_io.cc — the PaPaRa readers (src/io/papara_*.c): Newick, relaxed PHYLIP, FASTA
// reads, tip binding; accepted shapes and every rejection's message (file, line, field).
#include <gtest/gtest.h>

#include <string>
#include <vector>

extern "C" {
#include "io/papara_io.h"
}

namespace {

std::string err() { return dpa_last_error(); }

::testing::AssertionResult has(const std::string &hay, const std::string &needle)
{
    if (hay.find(needle) != std::string::npos) return ::testing::AssertionSuccess();
    return ::testing::AssertionFailure() << "'" << hay << "' lacks '" << needle << "'";
}

struct Nwk {
    dpa_nwk_tree t{};
    dpa_status st;
    explicit Nwk(const std::string &s) { st = dpa_nwk_parse(s.data(), s.size(), "t.nwk", &t); }
    ~Nwk() { dpa_nwk_free(&t); }
    std::string name(int v) const
    {
        return t.names.offset[v] < 0 ? "" : t.names.buf + t.names.offset[v];
    }
};

TEST(PaparaNewick, ShapesLengthsAndLabels)
{
    Nwk a("((A:0.1,B:2e-1)90:0.3[x],C, (D ,E:1.5e+0){y});\n");
    ASSERT_EQ(a.st, DPA_OK) << err();
    ASSERT_EQ(a.t.num_nodes, 8);
    const int32_t parent[8] = { -1, 0, 1, 1, 0, 0, 5, 5 };
    const double len[8] = { 1.0, 0.3, 0.1, 0.2, 1.0, 1.0, 1.0, 1.5 };
    const char *names[8] = { "", "", "A", "B", "C", "", "D", "E" };
    for (int v = 0; v < 8; v++) {
        EXPECT_EQ(a.t.parent[v], parent[v]) << v;
        EXPECT_DOUBLE_EQ(a.t.length[v], len[v]) << v;
        EXPECT_EQ(a.name(v), names[v]) << v;
    }
    EXPECT_EQ(a.t.subtree_end[0], 8);
    EXPECT_EQ(a.t.subtree_end[1], 4);
    EXPECT_EQ(a.t.subtree_end[5], 8);
    Nwk r("((A,B),(C,D)):0.0;");
    EXPECT_EQ(r.st, DPA_OK) << err();
}

TEST(PaparaNewick, Rejections)
{
    struct {
        const char *text, *needle;
    } bad[] = {
        { "((A,B,C),D,E);", "binary" },
        { "(A,B,C,D);", "binary" },
        { "((A),B,C);", "binary" },
        { "(A,B", "end of input" },
        { "(A,B)", "';'" },
        { "(A,B); (C,D);", "one tree" },
        { "(A:x,B);", "branch length" },
        { "(A:1e999,B);", "not a number" },
        { "(A B,C);", "taxon name" },
        { "(,B);", "empty taxon name" },
        { "A;", "starts with '('" },
        { "(A,B)[unclosed;", "closing bracket" },
        { "(A,\n\nB C);", "line 3" },
    };
    for (auto &b : bad) {
        Nwk n(b.text);
        EXPECT_EQ(n.st, DPA_ERR_INVALID_ARG) << b.text;
        EXPECT_TRUE(has(err(), b.needle)) << b.text;
        EXPECT_TRUE(has(err(), "t.nwk")) << b.text;
    }
}

struct Phy {
    dpa_phy_alignment a{};
    dpa_status st;
    explicit Phy(const std::string &s) { st = dpa_phy_parse(s.data(), s.size(), "a.phy", &a); }
    ~Phy() { dpa_phy_free(&a); }
    std::string row(int r) const
    {
        return std::string((const char *)a.chars + r * a.num_columns, a.num_columns);
    }
};

TEST(PaparaPhylip, SequentialAndInterleaved)
{
    Phy s("3 6\nA   ACG TAC\nlongname_B acg-n?\r\nC ......\n");
    ASSERT_EQ(s.st, DPA_OK) << err();
    EXPECT_EQ(s.a.num_rows, 3);
    EXPECT_EQ(s.row(0), "ACGTAC");
    EXPECT_EQ(s.row(1), "acg-n?");
    EXPECT_EQ(s.row(2), "......");
    EXPECT_STREQ(s.a.names.buf + s.a.names.offset[1], "longname_B");
    Phy i("2 8\nA ACGT\nB TTTT\n\nACGA\nTT-T\n\n");
    ASSERT_EQ(i.st, DPA_OK) << err();
    EXPECT_EQ(i.row(0), "ACGTACGA");
    EXPECT_EQ(i.row(1), "TTTTTT-T");
}

TEST(PaparaPhylip, Rejections)
{
    struct {
        const char *text, *needle;
    } bad[] = {
        { "", "header" },
        { "2\nA AC\n", "header" },
        { "2 2\nA AC\nB ACG\n", "row 2 ('B') is longer" },
        { "2 3\nA ACG\nB AC\n", "unequal length" },
        { "3 2\nA AC\nB AC\n", "end of file before row 3" },
        { "2 2\n A AC\nB AC\n", "starts with a blank" },
        { "2 2\nAAC\nB AC\n", "no blank" },
        { "2 2\nA AC\nB AC\nC AC\n", "text after" },
        { "1 2\nA AC\n", "outside" },
    };
    for (auto &b : bad) {
        Phy p(b.text);
        EXPECT_NE(p.st, DPA_OK) << b.text;
        EXPECT_TRUE(has(err(), b.needle)) << b.text;
        EXPECT_TRUE(has(err(), "a.phy")) << b.text;
    }
}

TEST(PaparaFasta, FilterAndMasks)
{
    const std::string t = ">r1 some description\nACGT\nu-Nn?.\n>r2\nmrwsykvhdb\n";
    dpa_reads r{};
    ASSERT_EQ(dpa_fasta_reads_parse(t.data(), t.size(), "q.fa", &r), DPA_OK) << err();
    ASSERT_EQ(r.num_reads, 2);
    EXPECT_STREQ(r.names.buf + r.names.offset[0], "r1");
    EXPECT_EQ(r.lengths[0], 5);
    const uint8_t want0[5] = { 1, 2, 4, 8, 8 };
    const uint8_t want1[10] = { 3, 5, 9, 6, 10, 12, 7, 11, 13, 14 };
    for (int j = 0; j < 5; j++) EXPECT_EQ(r.masks[r.offsets[0] + j], want0[j]);
    for (int j = 0; j < 10; j++) EXPECT_EQ(r.masks[r.offsets[1] + j], want1[j]);
    dpa_reads_free(&r);
}

TEST(PaparaFasta, Rejections)
{
    struct {
        const char *text, *needle;
    } bad[] = {
        { ">r1\nACGX\n", "read 'r1' base 4" },
        { ">r1\nAC\n>r2\nNN--\n", "'r2' has no base left" },
        { ">r1\n>r2\nA\n", "'r1' has no base left" },
        { "ACGT\n", "expected '>'" },
        { ">\nACGT\n", "empty name" },
        { "", "no reads" },
        { ">r1\nA_C\n", "base 2" },
    };
    for (auto &b : bad) {
        dpa_reads r{};
        EXPECT_EQ(dpa_fasta_reads_parse(b.text, strlen(b.text), "q.fa", &r), DPA_ERR_INVALID_ARG)
            << b.text;
        EXPECT_TRUE(has(err(), b.needle)) << b.text;
        EXPECT_TRUE(has(err(), "q.fa")) << b.text;
        EXPECT_EQ(r.num_reads, 0);
    }
}

TEST(PaparaBind, RowsExtraReadsAndMissingTaxa)
{
    Nwk t("(A,B,C);");
    Phy a("4 3\nC AC-\nQ a-N\nA ACG\nB A-G\n");
    ASSERT_EQ(t.st, DPA_OK);
    ASSERT_EQ(a.st, DPA_OK);
    dpa_reads extra{};
    ASSERT_EQ(dpa_papara_bind(&t.t, &a.a, &extra), DPA_OK) << err();
    EXPECT_EQ(t.t.row[1], 2);
    EXPECT_EQ(t.t.row[2], 3);
    EXPECT_EQ(t.t.row[3], 0);
    EXPECT_EQ(t.t.row[0], -1);
    ASSERT_EQ(extra.num_reads, 1);
    EXPECT_STREQ(extra.names.buf + extra.names.offset[0], "Q");
    EXPECT_EQ(extra.lengths[0], 1);
    dpa_reads_free(&extra);
    Nwk t2("(A,B,Z);");
    EXPECT_EQ(dpa_papara_bind(&t2.t, &a.a, nullptr), DPA_ERR_INVALID_ARG);
    EXPECT_TRUE(has(err(), "tree taxon 'Z' has no row"));
    Phy dup("2 1\nA A\nA C\n");
    EXPECT_EQ(dpa_papara_bind(&t.t, &dup.a, nullptr), DPA_ERR_INVALID_ARG);
    EXPECT_TRUE(has(err(), "both named 'A'"));
}

}  // namespace
