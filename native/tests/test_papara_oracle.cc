// test_papara_oracle.cc — the whole pipeline (readers, per-edge profiles, scores, best edge,
// traceback and PaPaRa's extended alignment file, byte for byte)
// against papara_core 2.5 itself: a harness around PaPaRa's own classes, built outside this
// repository (docs/papara.md, "Oracle"), named by DPA_PAPARA_ORACLE. It prints PaPaRa's
// profiles (pvec + aux per edge), the full read x edge matrix of its pvec_aligner_vec
// kernel and driver::calc_scores' best edge per read. Generated data, fresh seeds (printed),
// both gap models, rooted and unrooted trees, all-gap columns, lower case, N ? . in the
// alignment, alignment rows outside the tree (PaPaRa scores them as reads after the FASTA
// reads). Every test skips, saying why, when the oracle is absent.
#include <gtest/gtest.h>

#include <sys/stat.h>
#include <unistd.h>

#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include "papara_gen.h"
#include "test_util.h"

extern "C" {
#include "io/papara_io.h"
}

namespace {

struct Result {
    std::string alignment; // PaPaRa's papara_alignment file
    int32_t E = 0;
    int64_t S = 0;
    std::vector<std::vector<int>> profiles, matrix;
    std::vector<int> best, best_edge;
};

std::string oracle_path()
{
    const char *p = std::getenv("DPA_PAPARA_ORACLE");
    return p ? p : "";
}

std::string write_tmp(const std::string &dir, const char *name, const std::string &text)
{
    const std::string path = dir + "/" + name;
    std::ofstream(path, std::ios::binary) << text;
    return path;
}

Result run_oracle(const std::string &dir, const ppg::Data &d, int model)
{
    const std::string t = write_tmp(dir, "t.nwk", d.newick), a = write_tmp(dir, "a.phy", d.phylip),
                      q = write_tmp(dir, "q.fa", d.fasta), out = dir + "/oracle.txt",
                      aln = dir + "/papara_alignment";
    const std::string cmd = "'" + oracle_path() + "' '" + t + "' '" + a + "' '" + q + "' " +
                            std::to_string(model) + " '" + aln + "' > '" + out + "' 2>/dev/null";
    Result r;
    if (std::system(cmd.c_str()) != 0) {
        ADD_FAILURE() << "oracle failed: " << cmd;
        return r;
    }
    {
        std::ifstream ai(aln, std::ios::binary);
        std::stringstream ss;
        ss << ai.rdbuf();
        r.alignment = ss.str();
    }
    std::ifstream in(out);
    std::string line;
    while (std::getline(in, line)) {
        std::istringstream ls(line);
        std::string tag;
        ls >> tag;
        if (tag == "E") {
            std::string s;
            ls >> r.E >> s >> r.S;
        } else if (tag == "P" || tag == "M") {
            int idx, v;
            ls >> idx;
            std::vector<int> row;
            while (ls >> v) row.push_back(v);
            (tag == "P" ? r.profiles : r.matrix).push_back(row);
        } else if (tag == "B") {
            int idx, s, e;
            ls >> idx >> s >> e;
            r.best.push_back(s);
            r.best_edge.push_back(e);
        }
    }
    return r;
}

Result run_ours(const ppg::Data &d, int model)
{
    Result r;
    dpa_nwk_tree t{};
    dpa_phy_alignment a{};
    dpa_reads q{}, extra{};
    EXPECT_EQ(dpa_nwk_parse(d.newick.data(), d.newick.size(), "t.nwk", &t), DPA_OK) << dpa_last_error();
    EXPECT_EQ(dpa_phy_parse(d.phylip.data(), d.phylip.size(), "a.phy", &a), DPA_OK) << dpa_last_error();
    EXPECT_EQ(dpa_fasta_reads_parse(d.fasta.data(), d.fasta.size(), "q.fa", &q), DPA_OK) << dpa_last_error();
    EXPECT_EQ(dpa_papara_bind(&t, &a, &extra), DPA_OK) << dpa_last_error();
    EXPECT_EQ(dpa_reads_append(&q, &extra), DPA_OK) << dpa_last_error();
    dpa_context *ctx = nullptr;
    EXPECT_EQ(dpa_context_create(nullptr, &ctx), DPA_OK);
    dpa_papara_tree tr = { t.num_nodes, t.parent, t.length, t.row };
    dpa_papara_alignment al = { a.num_rows, a.num_columns, a.chars };
    EXPECT_EQ(dpa_papara_profile_shape(&tr, &al, &r.E, &r.S), DPA_OK) << dpa_last_error();
    std::vector<uint8_t> sites((size_t)r.E * r.S);
    std::vector<int32_t> en(2 * r.E);
    std::vector<int64_t> cols(r.S);
    dpa_papara_profiles out = { sites.data(), en.data(), cols.data(), nullptr };
    EXPECT_EQ(dpa_papara_build_profiles(ctx, &tr, &al, model, &out), DPA_OK) << dpa_last_error();
    for (int e = 0; e < r.E; e++)
        r.profiles.emplace_back(sites.begin() + e * r.S, sites.begin() + (e + 1) * r.S);
    dpa_papara_batch b = { r.E, r.S, sites.data(), q.num_reads, q.masks, q.offsets, q.lengths };
    std::vector<int32_t> m((size_t)q.num_reads * r.E), best(q.num_reads), idx(q.num_reads);
    dpa_papara_output o = { m.data(), best.data(), idx.data(), nullptr };
    EXPECT_EQ(dpa_papara_score(ctx, &b, nullptr, &o, nullptr), DPA_OK) << dpa_last_error();
    std::vector<std::vector<uint8_t>> ops(q.num_reads);
    std::vector<const uint8_t *> opp(q.num_reads);
    std::vector<int64_t> nops(q.num_reads);
    for (int i = 0; i < q.num_reads; i++) {
        r.matrix.emplace_back(m.begin() + (size_t)i * r.E, m.begin() + (size_t)(i + 1) * r.E);
        r.best.push_back(best[i]);
        r.best_edge.push_back(idx[i]);
        ops[i].resize(r.S + q.lengths[i]);
        int32_t sc = 0;
        dpa_papara_params p;
        dpa_papara_params_init(&p);
        EXPECT_EQ(dpa_papara_traceback(sites.data() + (size_t)idx[i] * r.S, r.S, q.masks + q.offsets[i],
                                       q.lengths[i], &p, ops[i].data(), &nops[i], &sc), DPA_OK)
            << dpa_last_error();
        EXPECT_EQ(sc, best[i]) << "traceback score, read " << i;
        opp[i] = ops[i].data();
    }
    char *buf = nullptr;
    size_t blen = 0;
    FILE *mf = open_memstream(&buf, &blen);
    EXPECT_EQ(dpa_papara_write_alignment(mf, &t, &a, cols.data(), r.S, &q, opp.data(), nops.data()), DPA_OK)
        << dpa_last_error();
    fclose(mf);
    r.alignment.assign(buf, blen);
    free(buf);
    dpa_context_destroy(ctx);
    dpa_nwk_free(&t);
    dpa_phy_free(&a);
    dpa_reads_free(&q);
    return r;
}

class PaparaOracle : public ::testing::TestWithParam<std::tuple<int, bool>> {
  protected:
    std::string dir;
    void SetUp() override
    {
        const std::string p = oracle_path();
        if (p.empty())
            GTEST_SKIP() << "DPA_PAPARA_ORACLE is not set: no PaPaRa 2.5 oracle to compare with "
                            "(docs/papara.md says how to build it)";
        if (access(p.c_str(), X_OK) != 0)
            GTEST_SKIP() << "DPA_PAPARA_ORACLE=" << p << " is not an executable";
        char tmpl[] = "/tmp/dpa_papara_XXXXXX";
        ASSERT_NE(mkdtemp(tmpl), nullptr);
        dir = tmpl;
    }
    void TearDown() override
    {
        if (!dir.empty()) std::system(("rm -rf '" + dir + "'").c_str());
    }
};

TEST_P(PaparaOracle, ProfilesScoresAndBestEdges)
{
    const int model = std::get<0>(GetParam());
    const bool rooted = std::get<1>(GetParam());
    const uint64_t seed = dpa_test::test_seed();
    SCOPED_TRACE("seed " + std::to_string(seed) + " (DPA_TEST_SEED to repeat)");
    std::mt19937_64 shapes(seed);
    for (int round = 0; round < 4; round++) {
        const int taxa = 3 + (int)(shapes() % 30), cols = 20 + (int)(shapes() % 400);
        const ppg::Data d = ppg::generate(shapes(), taxa, cols, 25, rooted);
        SCOPED_TRACE("round " + std::to_string(round) + ": " + std::to_string(taxa) + " taxa x " +
                     std::to_string(cols) + " columns");
        const Result o = run_oracle(dir, d, model), u = run_ours(d, model);
        ASSERT_GT(o.E, 2 * taxa - 4);
        ASSERT_EQ((int)o.matrix.size(), 25 + 2); // the FASTA reads, then the 2 rows outside the tree
        ASSERT_EQ(u.E, o.E);
        ASSERT_EQ(u.S, o.S);
        ASSERT_EQ(u.profiles.size(), o.profiles.size());
        int bad = 0;
        for (int e = 0; e < u.E; e++)
            for (int64_t i = 0; i < u.S; i++)
                if (u.profiles[e][i] != o.profiles[e][i] && ++bad <= 5)
                    ADD_FAILURE() << "edge " << e << " site " << i << ": PaPaRa " << o.profiles[e][i]
                                  << ", ours " << u.profiles[e][i];
        ASSERT_EQ(u.matrix.size(), o.matrix.size());
        EXPECT_FALSE(o.alignment.empty());
        EXPECT_TRUE(u.alignment == o.alignment) << "papara_alignment differs:\n--- PaPaRa\n"
                                                << o.alignment.substr(0, 3000) << "\n--- ours\n"
                                                << u.alignment.substr(0, 3000);
        for (size_t r = 0; r < u.matrix.size(); r++) {
            EXPECT_EQ(u.matrix[r], o.matrix[r]) << "read " << r;
            EXPECT_EQ(u.best[r], o.best[r]) << "read " << r;
            EXPECT_EQ(u.best_edge[r], o.best_edge[r]) << "read " << r;
        }
    }
}

INSTANTIATE_TEST_SUITE_P(Models, PaparaOracle,
                         ::testing::Combine(::testing::Values(0, 1), ::testing::Values(false, true)),
                         [](const ::testing::TestParamInfo<std::tuple<int, bool>> &i) {
                             return std::string(std::get<0>(i.param) ? "cgap" : "prob") +
                                    (std::get<1>(i.param) ? "_rooted" : "_unrooted");
                         });

}  // namespace
