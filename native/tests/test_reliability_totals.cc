// Integer overflow of totals (issue 8): counts and offsets at the edges of int32/int64 whose
// sums would wrap in a narrower type must be rejected by name, never wrap into a small,
// plausible value. Each case is a batch that would pass if a total were summed in int32.
#include <gtest/gtest.h>

#include <climits>
#include <string>

#include "test_util.h"

using namespace dpa_test;

namespace {

void expect_status(dpa_status got, dpa_status want, const std::string &needle)
{
    EXPECT_EQ(got, want) << dpa_status_name(got) << ": " << dpa_last_error();
    EXPECT_NE(std::string(dpa_last_error()).find(needle), std::string::npos)
        << "message: " << dpa_last_error() << " (expected to mention '" << needle << "')";
}

}  // namespace

TEST(ReliabilityTotals, PairHmmGroupSumsDoNotWrap)
{
    std::mt19937_64 rng(5);
    Batch b;
    for (int i = 0; i < 3; i++) b.reads.push_back(random_read(rng, 8, 6, 40));
    b.haps = { "ACGTACGT", "ACGTTT" };
    dpa_pairhmm_batch v = b.view();
    // INT32_MAX + INT32_MAX + 5 wraps to 3 in int32 arithmetic: it would "cover" the 3 reads
    const int32_t gr[3] = { INT32_MAX, INT32_MAX, 5 }, gh[3] = { 0, 0, 2 };
    v.num_groups = 3;
    v.group_num_reads = gr;
    v.group_num_haps = gh;
    int64_t n = -1;
    expect_status(dpa_pairhmm_result_count(&v, &n), DPA_ERR_INVALID_ARG, "more than num_reads = 3");
    EXPECT_EQ(n, -1);
    const int32_t gr2[3] = { 3, 0, 0 }, gh2[3] = { INT32_MAX, INT32_MAX, 4 };  // wraps to 2
    v.num_groups = 3;
    v.group_num_reads = gr2;
    v.group_num_haps = gh2;
    expect_status(dpa_pairhmm_validate(&v), DPA_ERR_INVALID_ARG, "more than num_reads = 3 / num_haps = 2");
    // the largest result count the C API can express, num_reads x num_haps = (2^31 - 1)^2,
    // is exact in int64 (no arrays needed to ask)
    dpa_pairhmm_batch counts{};
    counts.num_reads = INT32_MAX;
    counts.num_haps = INT32_MAX;
    ASSERT_EQ(dpa_pairhmm_result_count(&counts, &n), DPA_OK);
    EXPECT_EQ(n, (int64_t)INT32_MAX * INT32_MAX);
}

TEST(ReliabilityTotals, PairHmmOffsetsNearInt64MaxAndNegativeOutLen)
{
    std::mt19937_64 rng(6);
    Batch b;
    for (int i = 0; i < 2; i++) b.reads.push_back(random_read(rng, 8, 6, 40));
    b.haps = { "ACGTACGT" };
    dpa_options o;
    dpa_options_init(&o);
    o.num_threads = 1;
    o.backend = DPA_BACKEND_CPU;
    dpa_context *ctx = nullptr;
    ASSERT_EQ(dpa_context_create(&o, &ctx), DPA_OK);
    double out[2];
    dpa_pairhmm_batch v = b.view();
    const int64_t ro[2] = { 0, INT64_MAX - 3 }, ho[1] = { INT64_MAX };  // offset + length wraps
    v.read_offsets = ro;
    expect_status(dpa_pairhmm_compute(ctx, &v, nullptr, out, 2, nullptr), DPA_ERR_INVALID_ARG,
                  "read_offsets[1]");
    v = b.view();
    v.hap_offsets = ho;
    expect_status(dpa_pairhmm_compute(ctx, &v, nullptr, out, 2, nullptr), DPA_ERR_INVALID_ARG,
                  "hap_offsets[0]");
    v = b.view();
    expect_status(dpa_pairhmm_compute(ctx, &v, nullptr, out, INT64_MIN, nullptr), DPA_ERR_INVALID_ARG,
                  "out_len = -9223372036854775808");
    ASSERT_EQ(dpa_pairhmm_compute(ctx, &v, nullptr, out, 2, nullptr), DPA_OK) << dpa_last_error();
    EXPECT_NEAR(out[0], reference_log10(b.reads[0], b.haps[0]), 1e-5);
    dpa_context_destroy(ctx);
}

TEST(ReliabilityTotals, SmithWatermanOffsetsAndCapacity)
{
    const std::string ref = "ACGTACGTAC", alt = "ACGAACG";
    int64_t ro[2] = { 0, 0 }, ao[2] = { 0, 0 };
    int32_t rl[2] = { 10, 10 }, al[2] = { 7, 7 };
    dpa_sw_batch b = { 2, (const uint8_t *)ref.data(), ro, rl, (const uint8_t *)alt.data(), ao, al };
    dpa_sw_params p;
    dpa_sw_params_init(&p);
    int64_t cap = -1;
    ASSERT_EQ(dpa_sw_cigar_capacity(&b, &cap), DPA_OK);
    EXPECT_EQ(cap, 2 * 2 * (10 + 7));  // the documented bound, 2 (ref + alt) per pair
    ro[1] = INT64_MAX - 5;             // + 10 wraps
    expect_status(dpa_sw_validate(&b, &p), DPA_ERR_INVALID_ARG, "ref_offsets[1]");
    expect_status(dpa_sw_cigar_capacity(&b, &cap), DPA_ERR_INVALID_ARG, "ref_offsets[1]");
    ro[1] = 0;
    ao[0] = INT64_MAX;
    expect_status(dpa_sw_validate(&b, &p), DPA_ERR_INVALID_ARG, "alt_offsets[0]");
    ao[0] = 0;
    // cells: 65,536 x 16,385 = 2^30 + 65,536 > 2^30, although each length is allowed
    rl[1] = DPA_SW_MAX_LENGTH;
    al[1] = 16385;
    expect_status(dpa_sw_validate(&b, &p), DPA_ERR_LIMIT, "cells");
    // scores: each |value| below its own bound, their sum x length past 2^30
    rl[1] = 10;
    al[1] = 7;
    p.match = DPA_SW_SCORE_BOUND / 4 - 1;
    p.mismatch = -(DPA_SW_SCORE_BOUND / 4 - 1);
    expect_status(dpa_sw_validate(&b, &p), DPA_ERR_LIMIT, "could overflow the int32 scores");
}
