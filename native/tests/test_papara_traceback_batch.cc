// test_papara_traceback_batch.cc — dpa_papara_traceback_batch (the scheduler's threads) gives
// every read exactly dpa_papara_traceback's ops, count and score (itself checked against
// PaPaRa through the alignment file in the oracle tests), on random batches with a fresh
// seed; and its argument checks name the read.
#include <gtest/gtest.h>

#include <random>
#include <string>
#include <vector>

#include "papara_test_util.h"
#include "test_util.h"

TEST(PaparaTracebackBatch, EqualsOnePairAtATime)
{
    const uint64_t seed = dpa_test::test_seed();
    SCOPED_TRACE("seed " + std::to_string(seed) + " (DPA_TEST_SEED to repeat)");
    std::mt19937_64 rng(seed);
    dpa_context *ctx = nullptr;
    ASSERT_EQ(dpa_context_create(nullptr, &ctx), DPA_OK);
    for (int round = 0; round < 5; round++) {
        std::uniform_int_distribution<int> np(1, 20), ns(1, 300), nr(1, 60);
        ppt::Batch b = ppt::random_batch(rng, np(rng), ns(rng), nr(rng), 1, 150);
        dpa_papara_batch v = b.view();
        dpa_papara_params p;
        dpa_papara_params_init(&p);
        if (round == 4) p.gap_open = 0;  // other parameters take other paths
        const size_t R = b.reads.size();
        std::uniform_int_distribution<int> pick(0, (int)b.profiles.size() - 1);
        std::vector<int32_t> prof(R), sc(R, -7);
        std::vector<int64_t> offs(R), nops(R, -7);
        int64_t at = 0;
        for (size_t r = 0; r < R; r++) {
            prof[r] = pick(rng);
            offs[r] = at;
            at += b.sites + (int64_t)b.reads[r].size() + (r % 3); // gaps between slots are fine
        }
        std::vector<uint8_t> ops((size_t)at, 0xee);
        ASSERT_EQ(dpa_papara_traceback_batch(ctx, &v, prof.data(), &p, ops.data(), at, offs.data(),
                                             nops.data(), sc.data()),
                  DPA_OK)
            << dpa_last_error();
        for (size_t r = 0; r < R; r++) {
            std::vector<uint8_t> one(b.sites + b.reads[r].size());
            int64_t n = 0;
            int32_t s = 0;
            ASSERT_EQ(dpa_papara_traceback(b.profiles[prof[r]].data(), b.sites, b.reads[r].data(),
                                           (int32_t)b.reads[r].size(), &p, one.data(), &n, &s),
                      DPA_OK);
            ASSERT_EQ(nops[r], n) << "read " << r;
            EXPECT_EQ(sc[r], s) << "read " << r;
            EXPECT_EQ(std::vector<uint8_t>(ops.begin() + offs[r], ops.begin() + offs[r] + n),
                      std::vector<uint8_t>(one.begin(), one.begin() + n))
                << "read " << r;
        }
    }
    dpa_context_destroy(ctx);
}

TEST(PaparaTracebackBatch, ArgumentChecks)
{
    std::mt19937_64 rng(3);
    ppt::Batch b = ppt::random_batch(rng, 2, 10, 2, 5, 5);
    dpa_papara_batch v = b.view();
    dpa_context *ctx = nullptr;
    ASSERT_EQ(dpa_context_create(nullptr, &ctx), DPA_OK);
    dpa_papara_params p;
    dpa_papara_params_init(&p);
    std::vector<int32_t> prof = { 0, 2 }, sc(2);
    std::vector<int64_t> offs = { 0, 15 }, nops(2);
    std::vector<uint8_t> ops(30);
    auto err = [&](dpa_status want, const char *needle, int64_t len = 30) {
        EXPECT_EQ(dpa_papara_traceback_batch(ctx, &v, prof.data(), &p, ops.data(), len,
                                             offs.data(), nops.data(), sc.data()),
                  want);
        EXPECT_NE(std::string(dpa_last_error()).find(needle), std::string::npos) << dpa_last_error();
    };
    err(DPA_ERR_INVALID_ARG, "profile_of_read[1] = 2 outside [0, 2)");
    prof[1] = 1;
    offs[1] = 14;
    err(DPA_ERR_INVALID_ARG, "ops_offsets[1] = 14 overlaps");
    offs[1] = 15;
    err(DPA_ERR_LIMIT, "read 1's ops slot ends at 30, past ops_len = 29", 29);
    p.score_model = DPA_PAPARA_SCORE_PAPER2012;
    err(DPA_ERR_UNSUPPORTED, "only the papara2 score model");
    p.score_model = DPA_PAPARA_SCORE_PAPARA2;
    EXPECT_EQ(dpa_papara_traceback_batch(ctx, &v, prof.data(), &p, ops.data(), 30, offs.data(),
                                         nops.data(), sc.data()),
              DPA_OK)
        << dpa_last_error();
    dpa_context_destroy(ctx);
}
