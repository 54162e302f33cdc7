// test_distance_plink.cc — the reference against PLINK as the oracle, on a generated cohort
// (io/bed_gen.h: populations, relatives, duplicates, rare and monomorphic variants, missing
// calls, chrX/Y/MT that must be skipped), 200 samples x 10,000 variants:
//   PLINK 1.9 --genome full                    IBS0, IBS1, IBS2 (NSNP = their sum)
//   PLINK 1.9 --distance square ibs 1-ibs allele-ct flat-missing   %g text of the metrics
//   PLINK 2   --make-king-table counts        HETHET, IBS0, HET1_HOM2, HET2_HOM1, KINSHIP
// Skips loudly when plink1.9 / plink2 is not installed (.ci/run installs them).
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <sstream>
#include <string>
#include <unistd.h>
#include <vector>

extern "C" {
#include "cpu/distance/distance.h"
#include "io/bed_gen.h"
}

namespace {

bool have(const char *tool)
{
    return std::system((std::string("command -v ") + tool + " >/dev/null 2>&1").c_str()) == 0;
}

std::vector<std::vector<std::string>> table(const std::string &path)
{
    std::ifstream in(path);
    std::vector<std::vector<std::string>> rows;
    std::string line;
    while (std::getline(in, line)) {
        std::istringstream ls(line);
        std::vector<std::string> f;
        std::string x;
        while (ls >> x) f.push_back(x);
        rows.push_back(f);
    }
    return rows;
}

// Whether |P/Q| lies exactly halfway between two 6-significant-digit decimals: there PLINK's
// digit generator and printf may round differently (the issue allows only that difference).
bool exact_tie6(__int128 p, __int128 q)
{
    if (p < 0) p = -p;
    if (q < 0) q = -q;
    if (p == 0 || q == 0) return false;
    int e = static_cast<int>(std::floor(std::log10(static_cast<double>(p) / static_cast<double>(q))));
    __int128 num = 2 * p, den = q;
    for (int k = 5 - e; k > 0; k--) num *= 10;
    for (int k = 5 - e; k < 0; k++) den *= 10;
    return num % den == 0 && (num / den) % 2 == 1;
}

// Our %g text equals PLINK's, or both are the two roundings of an exact tie.
bool same_text(const std::string &ours, const std::string &plink, __int128 p, __int128 q, int64_t *ties)
{
    if (ours == plink) return true;
    if (!exact_tie6(p, q)) return false;
    ++*ties;
    return true;
}

std::string g(double v)
{
    char buf[64];
    std::snprintf(buf, sizeof buf, "%g", v);
    return buf;
}

// One cohort for the suite; the reference's counts and the API's (the context's ISA: CTest
// runs the suite once per ISA) must agree before either is compared with PLINK.
class DistancePlink : public ::testing::Test {
  protected:
    static constexpr int32_t N = 200;
    static constexpr int64_t M = 10000;
    static std::string dir, prefix;
    static dpa_bed_data data;
    static std::vector<uint32_t> counts;  // triangle layout

    static void SetUpTestSuite()
    {
        char tmpl[] = "/tmp/dpa_distance_plink_XXXXXX";
        if (!mkdtemp(tmpl)) return;
        dir = tmpl;
        prefix = dir + "/cohort";
        if (dpa_bed_generate(N, M, 27, &data) != DPA_OK || dpa_bed_write(&data, prefix.c_str()) != DPA_OK)
            return;
        const dpa_genotype_batch b = { N, M, data.row_bytes, data.genotypes, data.autosomal };
        const size_t pairs = static_cast<size_t>(N) * (N - 1) / 2;
        std::vector<uint32_t> ref(pairs * 7), api(pairs * 7);
        size_t at = 0;
        for (int32_t i = 0; i < N; i++)
            for (int32_t j = i + 1; j < N; j++, at += 7) dpa_dist_ref_pair(&b, i, j, &ref[at]);
        dpa_context *ctx = nullptr;
        if (dpa_context_create(nullptr, &ctx) != DPA_OK) return;
        const dpa_status st = dpa_distance_counts(ctx, &b, nullptr, nullptr, api.data(),
                                                  static_cast<int64_t>(api.size()), nullptr);
        dpa_context_destroy(ctx);
        if (st == DPA_OK && api == ref) counts = ref;
    }
    static void TearDownTestSuite()
    {
        dpa_bed_free(&data);
        if (!dir.empty()) std::system(("rm -rf " + dir).c_str());
    }
    void SetUp() override
    {
        ASSERT_FALSE(counts.empty()) << "generating the cohort failed, or the API's counts differ "
                                        "from the reference's";
    }
    const uint32_t *pair(int32_t i, int32_t j) const
    {
        const int64_t n = N;
        return &counts[static_cast<size_t>(i * n - i * (i + 1) / 2 + (j - i - 1)) * 7];
    }
    void run(const std::string &args)
    {
        const std::string cmd = args + " --bfile " + prefix + " --threads 1 >/dev/null 2>&1";
        ASSERT_EQ(std::system(cmd.c_str()), 0) << cmd;
    }
};
std::string DistancePlink::dir, DistancePlink::prefix;
dpa_bed_data DistancePlink::data;
std::vector<uint32_t> DistancePlink::counts;

TEST_F(DistancePlink, GenomeIbsCountsEqualPlink19)
{
    if (!have("plink1.9")) GTEST_SKIP() << "PLINK ORACLE NOT RUN: plink1.9 is not installed (apt-get install plink1.9)";
    run("plink1.9 --genome full --out " + prefix + ".g");
    auto rows = table(prefix + ".g.genome");
    ASSERT_EQ(rows.size(), static_cast<size_t>(N) * (N - 1) / 2 + 1);
    ASSERT_EQ(rows[0][14], "IBS0");
    int64_t nonzero_ibs0 = 0;
    for (size_t r = 1; r < rows.size(); r++) {
        const int32_t i = std::atoi(rows[r][1].c_str() + 1), j = std::atoi(rows[r][3].c_str() + 1);
        const uint32_t *c = pair(std::min(i, j), std::max(i, j));
        const uint32_t ibs0 = std::stoul(rows[r][14]), ibs1 = std::stoul(rows[r][15]),
                       ibs2 = std::stoul(rows[r][16]);
        ASSERT_EQ(c[DPA_DISTANCE_IBS0], ibs0) << "pair " << i << "," << j;
        ASSERT_EQ(c[DPA_DISTANCE_IBS1], ibs1) << "pair " << i << "," << j;
        ASSERT_EQ(c[DPA_DISTANCE_IBS2], ibs2) << "pair " << i << "," << j;
        ASSERT_EQ(c[DPA_DISTANCE_NSNP], ibs0 + ibs1 + ibs2) << "pair " << i << "," << j;
        nonzero_ibs0 += ibs0 > 0;
    }
    EXPECT_GT(nonzero_ibs0, 0);
}

TEST_F(DistancePlink, DistanceMatricesEqualPlink19Text)
{
    if (!have("plink1.9")) GTEST_SKIP() << "PLINK ORACLE NOT RUN: plink1.9 is not installed (apt-get install plink1.9)";
    run("plink1.9 --distance square ibs 1-ibs allele-ct flat-missing --out " + prefix + ".d");
    const auto mibs = table(prefix + ".d.mibs"), mdist = table(prefix + ".d.mdist"),
               dist = table(prefix + ".d.dist");
    ASSERT_EQ(mibs.size(), static_cast<size_t>(N));
    const double m = static_cast<double>(data.autosomal_count);
    int64_t ties = 0, checked = 0;
    for (int32_t i = 0; i < N; i++)
        for (int32_t j = 0; j < N; j++) {
            if (i == j) {
                ASSERT_EQ(mibs[i][j], "1");
                ASSERT_EQ(mdist[i][j], "0");
                ASSERT_EQ(dist[i][j], "0");
                continue;
            }
            const uint32_t *c = pair(std::min(i, j), std::max(i, j));
            const double nsnp = c[DPA_DISTANCE_NSNP], ibs0 = c[DPA_DISTANCE_IBS0],
                         ibs1 = c[DPA_DISTANCE_IBS1];
            // the formulas, evaluated as written
            const std::string ibs = g(1.0 - (ibs1 + 2 * ibs0) / (2.0 * nsnp));
            const std::string one_minus = g((ibs1 + 2 * ibs0) / (2.0 * nsnp));
            const std::string allele_ct = g((m / nsnp) * (ibs1 + 2 * ibs0));
            const __int128 a = c[DPA_DISTANCE_IBS1] + 2 * static_cast<__int128>(c[DPA_DISTANCE_IBS0]);
            const __int128 b = 2 * static_cast<__int128>(c[DPA_DISTANCE_NSNP]);
            ASSERT_TRUE(same_text(ibs, mibs[i][j], b - a, b, &ties))
                << "ibs " << i << "," << j << ": " << ibs << " vs PLINK " << mibs[i][j];
            ASSERT_TRUE(same_text(one_minus, mdist[i][j], a, b, &ties))
                << "1-ibs " << i << "," << j << ": " << one_minus << " vs PLINK " << mdist[i][j];
            ASSERT_TRUE(same_text(allele_ct, dist[i][j], static_cast<__int128>(data.autosomal_count) * a,
                                  c[DPA_DISTANCE_NSNP], &ties))
                << "allele-ct " << i << "," << j << ": " << allele_ct << " vs PLINK " << dist[i][j];
            checked += 3;
        }
    std::printf("[ NOTE    ] %lld values equal PLINK 1.9's text, %lld of them exact ties rounded "
                "the other way\n", static_cast<long long>(checked), static_cast<long long>(ties));
    EXPECT_LT(ties * 1000, checked);  // ties are rare; many would mean a formula differs
}

TEST_F(DistancePlink, KingCountsEqualPlink2)
{
    if (!have("plink2")) GTEST_SKIP() << "PLINK 2 ORACLE NOT RUN: plink2 is not installed (apt-get install plink2)";
    run("plink2 --make-king-table counts cols=id,nsnp,hethet,ibs0,ibs1,kinship --out " + prefix + ".k");
    const auto rows = table(prefix + ".k.kin0");
    ASSERT_EQ(rows.size(), static_cast<size_t>(N) * (N - 1) / 2 + 1);
    ASSERT_EQ(rows[0][5], "HET1_HOM2");
    int64_t ties = 0;
    for (size_t r = 1; r < rows.size(); r++) {
        // PLINK 2.00a3.5 lists the later sample first; its HET1_HOM2 is IID2 het / IID1 hom
        const int32_t a = std::atoi(rows[r][0].c_str() + 1), b = std::atoi(rows[r][1].c_str() + 1);
        const int32_t i = std::min(a, b), j = std::max(a, b);
        const uint32_t *c = pair(i, j);
        const uint32_t het_i = a == i ? std::stoul(rows[r][6]) : std::stoul(rows[r][5]);
        const uint32_t het_j = a == i ? std::stoul(rows[r][5]) : std::stoul(rows[r][6]);
        ASSERT_EQ(c[DPA_DISTANCE_HETHET], std::stoul(rows[r][3])) << "pair " << i << "," << j;
        ASSERT_EQ(c[DPA_DISTANCE_IBS0], std::stoul(rows[r][4])) << "pair " << i << "," << j;
        ASSERT_EQ(c[DPA_DISTANCE_HET1_HOM2], het_i) << "pair " << i << "," << j;
        ASSERT_EQ(c[DPA_DISTANCE_HET2_HOM1], het_j) << "pair " << i << "," << j;
        const double hethet = c[DPA_DISTANCE_HETHET], h12 = c[DPA_DISTANCE_HET1_HOM2],
                     h21 = c[DPA_DISTANCE_HET2_HOM1], ibs0 = c[DPA_DISTANCE_IBS0];
        const std::string king = g(0.5 - (4 * ibs0 + h12 + h21) / (4.0 * (hethet + std::min(h12, h21))));
        // 0.5 - X / (4D) = (2D - X) / (4D)
        const __int128 d = static_cast<__int128>(c[DPA_DISTANCE_HETHET]) +
                           std::min(c[DPA_DISTANCE_HET1_HOM2], c[DPA_DISTANCE_HET2_HOM1]);
        const __int128 x = 4 * static_cast<__int128>(c[DPA_DISTANCE_IBS0]) +
                           c[DPA_DISTANCE_HET1_HOM2] + c[DPA_DISTANCE_HET2_HOM1];
        ASSERT_TRUE(same_text(king, rows[r][7], 2 * d - x, 4 * d, &ties))
            << "kinship " << i << "," << j << ": " << king << " vs PLINK 2 " << rows[r][7];
    }
    std::printf("[ NOTE    ] %zu kinships equal PLINK 2's text, %lld of them exact ties rounded "
                "the other way\n", rows.size() - 1, static_cast<long long>(ties));
}

}  // namespace
