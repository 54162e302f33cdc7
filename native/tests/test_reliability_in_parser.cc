// The .in reader (src/io/pairhmm_in.c): hand-written texts give hand-derived arrays, the
// public data files agree with an independent stream-based reading and with the pair and
// cell counts published with them, and every malformed text is an error naming its line.
#include <gtest/gtest.h>

#include <cstdio>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

extern "C" {
#include "io/pairhmm_in.h"
}

namespace {

struct Parsed {
    dpa_in_data d{};
    dpa_status st;
    std::string msg;
    explicit Parsed(const std::string &text)
    {
        st = dpa_in_parse(text.data(), text.size(), &d);
        msg = st == DPA_OK ? "" : dpa_last_error();
    }
    ~Parsed() { dpa_in_free(&d); }
    std::string read(int i) const
    {
        return std::string((const char *)d.read_bases + d.read_offsets[i], d.read_lengths[i]);
    }
    std::string hap(int i) const
    {
        return std::string((const char *)d.hap_bases + d.hap_offsets[i], d.hap_lengths[i]);
    }
};

void expect_error(const std::string &text, dpa_status status, const std::string &needle)
{
    Parsed p(text);
    EXPECT_EQ(p.st, status) << dpa_status_name(p.st) << " for text: " << text.substr(0, 80);
    EXPECT_NE(p.msg.find(needle), std::string::npos)
        << "message: " << p.msg << " (expected to mention '" << needle << "')";
    EXPECT_EQ(p.d.read_bases, nullptr);
    EXPECT_EQ(p.d.batch.num_groups, 0);
}

}  // namespace

TEST(InParser, HandWrittenTwoGroups)
{
    // '+' = 10, '5' = 20, 'I' = 40, '!' = 0, and 0xA0 = 127 (the largest phred+33 byte)
    std::string text = "# a comment line\n"
                       "2 1\n"
                       "ACGT 55!+ IIII IIII ++++\n"
                       "acgX\t+++\xA0\tIIII  IIII ++++\n"
                       "ACGTTA\n"
                       "\n"
                       "1 2\r\n"
                       "N 5 I I +\r\n"
                       "AC\r\n"
                       "G\r\n";
    Parsed p(text);
    ASSERT_EQ(p.st, DPA_OK) << p.msg;
    const dpa_pairhmm_batch &b = p.d.batch;
    ASSERT_EQ(b.num_reads, 3);
    ASSERT_EQ(b.num_haps, 3);
    ASSERT_EQ(b.num_groups, 2);
    EXPECT_EQ(b.group_num_reads[0], 2);
    EXPECT_EQ(b.group_num_haps[0], 1);
    EXPECT_EQ(b.group_num_reads[1], 1);
    EXPECT_EQ(b.group_num_haps[1], 2);
    EXPECT_EQ(p.read(0), "ACGT");
    EXPECT_EQ(p.read(1), "acgX");  // bytes as written: GATK compares them as they are
    EXPECT_EQ(p.read(2), "N");
    EXPECT_EQ(p.hap(0), "ACGTTA");
    EXPECT_EQ(p.hap(1), "AC");  // the CR of "\r\n" is not part of the haplotype
    EXPECT_EQ(p.hap(2), "G");
    const std::vector<uint8_t> q0 = { 20, 20, 0, 10 }, q1 = { 10, 10, 10, 127 };
    EXPECT_EQ(std::vector<uint8_t>(b.base_quals, b.base_quals + 4), q0);
    EXPECT_EQ(std::vector<uint8_t>(b.base_quals + 4, b.base_quals + 8), q1);
    EXPECT_EQ(b.ins_quals[0], 40);
    EXPECT_EQ(b.gcp_quals[8], 10);
    EXPECT_EQ(p.d.read_bytes, 9);
    EXPECT_EQ(p.d.hap_bytes, 9);
    EXPECT_EQ(dpa_pairhmm_validate(&b), DPA_OK) << dpa_last_error();
    int64_t n = 0;
    ASSERT_EQ(dpa_pairhmm_result_count(&b, &n), DPA_OK);
    EXPECT_EQ(n, 2 * 1 + 1 * 2);
}

TEST(InParser, EmptyGroupsAreKept)
{
    Parsed p("0 0\n1 0\nA I I I I\n0 1\nC\n");
    ASSERT_EQ(p.st, DPA_OK) << p.msg;
    EXPECT_EQ(p.d.batch.num_groups, 3);
    EXPECT_EQ(dpa_pairhmm_validate(&p.d.batch), DPA_OK);
    int64_t n = -1;
    dpa_pairhmm_result_count(&p.d.batch, &n);
    EXPECT_EQ(n, 0);
}

TEST(InParser, MalformedTextNamesLineAndRule)
{
    expect_error("", DPA_ERR_INVALID_ARG, "no group header");
    expect_error("# only\n\n", DPA_ERR_INVALID_ARG, "no group header 'R H' in 2 lines");
    expect_error("1\nA I I I I\nA\n", DPA_ERR_INVALID_ARG, "line 1: expected a group header");
    expect_error("1 x\n", DPA_ERR_INVALID_ARG, "line 1: expected a group header");
    expect_error("-1 1\n", DPA_ERR_INVALID_ARG, "line 1: expected a group header");
    expect_error("2147483648 1\n", DPA_ERR_INVALID_ARG, "line 1: expected a group header");
    expect_error("1 1 1\n", DPA_ERR_INVALID_ARG, "line 1: expected a group header");
    expect_error("2 1\nA I I I I\n", DPA_ERR_INVALID_ARG,
                 "line 1: the group of 2 reads and 1 haplotypes ends early");
    expect_error("1 1\nAC II II II\nA\n", DPA_ERR_INVALID_ARG, "line 2: a read line has 5 fields");
    expect_error("1 1\nAC II II II II II\nA\n", DPA_ERR_INVALID_ARG, "found more than 5");
    expect_error("1 1\nAC I II II II\nA\n", DPA_ERR_INVALID_ARG,
                 "line 2: base quality has 1 characters, the read 2");
    expect_error("1 1\nAC II II II III\nA\n", DPA_ERR_INVALID_ARG, "gcp quality has 3 characters");
    expect_error("1 1\nAC II \x1f" "I II II\nA\n", DPA_ERR_INVALID_ARG,
                 "ins quality character 0 is byte 31");
    expect_error("1 1\nAC II II I\xa1 II\nA\n", DPA_ERR_INVALID_ARG,
                 "del quality character 1 is byte 161, phred+33 allows 33..160");
    expect_error("1 2\nA I I I I\nAC\nA C\n", DPA_ERR_INVALID_ARG,
                 "line 4: a haplotype line has 1 field, found more than 1");
    expect_error("1 1\nA I I I I\n\n", DPA_ERR_INVALID_ARG, "line 3: a haplotype line has 1 field, found 0");
    // totals past int32: the second header would take the batch over 2^31 - 1 reads
    expect_error("0 0\n2147483647 0\n", DPA_ERR_INVALID_ARG, "ends early");
    expect_error("1 0\nA I I I I\n2147483647 0\n", DPA_ERR_LIMIT, "line 3: the group takes the batch past");
}

TEST(InParser, LengthLimitIsTheLibraryLimit)
{
    const std::string big(DPA_PAIRHMM_MAX_LENGTH + 1, 'A');
    expect_error("1 1\nA I I I I\n" + big + "\n", DPA_ERR_LIMIT,
                 "line 3: the haplotype has 1048577 bases, the limit is 1048576");
    const std::string q(DPA_PAIRHMM_MAX_LENGTH, 'I');
    Parsed p("1 1\nA I I I I\n" + std::string(DPA_PAIRHMM_MAX_LENGTH, 'C') + "\n");
    ASSERT_EQ(p.st, DPA_OK) << p.msg;
    EXPECT_EQ(p.d.batch.hap_lengths[0], DPA_PAIRHMM_MAX_LENGTH);
    expect_error("1 1\n" + big + " " + q + "I " + q + " " + q + " " + q + "\nA\n", DPA_ERR_LIMIT,
                 "line 2: the read has 1048577 bases");
}

TEST(InParser, MissingFileNamesThePath)
{
    dpa_in_data d;
    EXPECT_EQ(dpa_in_read_file("/nonexistent/dir/x.in", &d), DPA_ERR_INVALID_ARG);
    EXPECT_NE(std::string(dpa_last_error()).find("/nonexistent/dir/x.in: cannot open"),
              std::string::npos) << dpa_last_error();
    EXPECT_EQ(dpa_in_parse(nullptr, 3, &d), DPA_ERR_NULL_ARG);
    dpa_in_free(nullptr);
    dpa_in_free(&d);  // an emptied struct is harmless
}

// The public data files, read a second way: a plain C++ stream reading, line by line.
// Pair counts from the data README; 10s.in's cell count too.
struct InFile { const char *name; int64_t pairs, cells; };
static void check_in_file(const std::string &path, const InFile &f)
{
    {
        std::ifstream in(path, std::ios::binary);
        ASSERT_TRUE(in) << path;
        std::vector<std::string> bases, quals[4], haps;
        std::vector<int> gr, gh;
        std::string line;
        while (std::getline(in, line)) {
            std::istringstream hs(line);
            int R, H;
            if (!(hs >> R >> H)) continue;
            gr.push_back(R);
            gh.push_back(H);
            for (int r = 0; r < R && std::getline(in, line); r++) {
                std::istringstream ls(line);
                std::string b;
                ls >> b;
                bases.push_back(b);
                for (auto &q : quals) {
                    ls >> b;
                    q.push_back(b);
                }
            }
            for (int h = 0; h < H && std::getline(in, line); h++) {
                std::istringstream ls(line);
                std::string b;
                ls >> b;
                haps.push_back(b);
            }
        }
        dpa_in_data d;
        ASSERT_EQ(dpa_in_read_file(path.c_str(), &d), DPA_OK) << dpa_last_error();
        const dpa_pairhmm_batch &b = d.batch;
        ASSERT_EQ(b.num_reads, (int32_t)bases.size()) << f.name;
        ASSERT_EQ(b.num_haps, (int32_t)haps.size()) << f.name;
        ASSERT_EQ(b.num_groups, (int32_t)gr.size()) << f.name;
        const uint8_t *q[4] = { b.base_quals, b.ins_quals, b.del_quals, b.gcp_quals };
        for (int32_t r = 0; r < b.num_reads; r++) {
            const int64_t off = b.read_offsets[r];
            ASSERT_EQ(std::string((const char *)b.read_bases + off, b.read_lengths[r]), bases[r]);
            for (int k = 0; k < 4; k++)
                for (int32_t i = 0; i < b.read_lengths[r]; i++)
                    ASSERT_EQ(q[k][off + i] + 33, (uint8_t)quals[k][r][i]) << f.name << " read " << r;
        }
        for (int32_t h = 0; h < b.num_haps; h++)
            ASSERT_EQ(std::string((const char *)b.hap_bases + b.hap_offsets[h], b.hap_lengths[h]), haps[h]);
        int64_t pairs = 0, cells = 0;
        int32_t r0 = 0, h0 = 0;
        for (int32_t g = 0; g < b.num_groups; g++) {
            EXPECT_EQ(b.group_num_reads[g], gr[g]);
            EXPECT_EQ(b.group_num_haps[g], gh[g]);
            for (int32_t r = r0; r < r0 + gr[g]; r++)
                for (int32_t h = h0; h < h0 + gh[g]; h++)
                    pairs++, cells += (int64_t)b.read_lengths[r] * b.hap_lengths[h];
            r0 += gr[g];
            h0 += gh[g];
        }
        EXPECT_EQ(pairs, f.pairs) << f.name;
        if (f.cells >= 0) EXPECT_EQ(cells, f.cells) << f.name;
        EXPECT_EQ(dpa_pairhmm_validate(&b), DPA_OK) << dpa_last_error();
        dpa_in_free(&d);
    }
}

// tiny.in is committed (test-data/pairhmm/README.md): never skipped.
TEST(InParser, TinyInMatchesAnIndependentReading)
{
    check_in_file(std::string(DPA_TEST_DATA_DIR) + "/pairhmm/tiny.in", { "tiny.in", 332, -1 });
}

// 10s.in and 1m.in (2.4 MB) stay out of the repository: read from ../shared/data beside the
// clone when it is there, else reported as skipped.
static void check_shared_in_file(const InFile &f)
{
    const std::string path = std::string(DPA_SHARED_DATA_DIR) + "/pairhmm/" + f.name;
    if (!std::ifstream(path)) GTEST_SKIP() << path << " is not on this machine (../shared/data beside the clone)";
    check_in_file(path, f);
}
TEST(InParser, TenSecondsInMatchesAnIndependentReading) { check_shared_in_file({ "10s.in", 3550, 62380634 }); }
TEST(InParser, OneMInMatchesAnIndependentReading) { check_shared_in_file({ "1m.in", 29307, -1 }); }
