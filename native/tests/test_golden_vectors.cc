// test-data/pairhmm/*.snapshot.tsv: regression snapshots written by our generator with our
// own scalar double reference (see test-data/README.md). They catch a change of results, not
// an error the reference shares: the independent checks are GKL's conformance file
// (test_pairhmm_api.cc) and the long-double reference of test_util.cc. Checked through the
// public API on the ISA this CTest run selects: float path within 1e-5 (GATK shapes) / 1e-4
// (edge cases), double path within 1e-9 relative.
#include <gtest/gtest.h>

#include <cmath>
#include <fstream>
#include <sstream>

#include "test_util.h"

using namespace dpa_test;

namespace {

std::vector<uint8_t> quals(const std::string &field, bool decimal)
{
    std::vector<uint8_t> q;
    if (!decimal) {
        for (char c : field) q.push_back((uint8_t)(c - 33));
        return q;
    }
    std::stringstream ss(field);
    std::string v;
    while (std::getline(ss, v, ',')) q.push_back((uint8_t)std::stoi(v));
    return q;
}

void check_file(const std::string &name, double float_tol)
{
    std::ifstream in(std::string(DPA_TEST_DATA_DIR) + "/pairhmm/" + name);
    ASSERT_TRUE(in) << "missing test-data/pairhmm/" << name;
    Batch b;
    std::vector<double> expected;
    bool decimal = false;
    std::string line;
    while (std::getline(in, line)) {
        if (line.rfind("# quals:", 0) == 0) decimal = line.find("decimal") != std::string::npos;
        if (line.empty() || line[0] == '#') continue;
        std::stringstream ss(line);
        std::string group, hap, read, q, ins, del, gcp, e;
        std::getline(ss, group, '\t'), std::getline(ss, hap, '\t'), std::getline(ss, read, '\t');
        std::getline(ss, q, '\t'), std::getline(ss, ins, '\t'), std::getline(ss, del, '\t');
        std::getline(ss, gcp, '\t'), std::getline(ss, e, '\t');
        Read r;
        r.bases = read;
        r.q = quals(q, decimal), r.ins = quals(ins, decimal), r.del = quals(del, decimal), r.gcp = quals(gcp, decimal);
        ASSERT_EQ(r.q.size(), read.size()) << line.substr(0, 80);
        b.reads.push_back(r);
        b.haps.push_back(hap);
        b.group_reads.push_back(1);
        b.group_haps.push_back(1);
        expected.push_back(std::strtod(e.c_str(), nullptr));  // parses -Infinity too
    }
    ASSERT_GT(expected.size(), 20u);
    dpa_options o;
    dpa_options_init(&o);
    o.num_threads = 2;
    o.backend = DPA_BACKEND_CPU;
    dpa_context *ctx = nullptr;
    ASSERT_EQ(dpa_context_create(&o, &ctx), DPA_OK) << dpa_last_error();
    for (int precision : { DPA_PRECISION_FLOAT_THEN_DOUBLE, DPA_PRECISION_DOUBLE }) {
        dpa_pairhmm_batch v = b.view();
        dpa_pairhmm_params p;
        dpa_pairhmm_params_init(&p);
        p.precision = precision;
        std::vector<double> got(expected.size());
        ASSERT_EQ(dpa_pairhmm_compute(ctx, &v, &p, got.data(), (int64_t)got.size(), nullptr), DPA_OK)
            << dpa_last_error();
        for (size_t i = 0; i < got.size(); i++) {
            if (std::isinf(expected[i])) {
                EXPECT_TRUE(std::isinf(got[i]) && got[i] < 0) << name << " row " << i << ": " << got[i];
                continue;
            }
            double tol = precision == DPA_PRECISION_DOUBLE ? 1e-9 * std::max(1.0, std::fabs(expected[i])) : float_tol;
            EXPECT_NEAR(got[i], expected[i], tol) << name << " row " << i << " precision " << precision;
        }
    }
    dpa_context_destroy(ctx);
}

}  // namespace

TEST(RegressionSnapshot, GatkRegions) { check_file("gatk_regions.snapshot.tsv", 1e-5); }
TEST(RegressionSnapshot, EdgeCases) { check_file("edge_cases.snapshot.tsv", 1e-4); }
