// The engine's work-item sort (engine/sort.h) against std::stable_sort on random keys with
// many ties, below and above the qsort / radix threshold, with keys up to 2^63, and with keys
// whose 11-bit digits are shared by every item in some positions (passes the radix sort skips).
#include <gtest/gtest.h>

#include <algorithm>
#include <random>
#include <vector>

#include "test_util.h"
extern "C" {
#include "engine/sort.h"
}

TEST(EngineSort, LargestFirstTiesInIndexOrder)
{
    const uint64_t seed = dpa_test::test_seed();
    SCOPED_TRACE("DPA_TEST_SEED=" + std::to_string(seed));
    std::mt19937_64 rng(seed);
    for (int64_t n : { 0, 1, 2, 100, 4095, 4096, 50000 }) {
        for (uint64_t range : { (uint64_t)7, (uint64_t)1 << 30, ~(uint64_t)0 >> 1, (uint64_t)0 }) {
            std::vector<dpa_sort_item> items((size_t)n), tmp((size_t)n);
            for (int64_t i = 0; i < n; i++) items[(size_t)i] = { range ? rng() % range : 0, i };
            if (range == 0) // shared digits: all equal; low digit fixed; only a high digit varies
                for (int64_t i = 0; i < n; i++)
                    items[(size_t)i].key = n % 3 == 0   ? (uint64_t)140000
                                           : n % 3 == 1 ? 5 + ((rng() % 1000) << 11)
                                                        : ((rng() % 3) << 33) | 12345;
            std::vector<dpa_sort_item> want = items;
            std::stable_sort(want.begin(), want.end(),
                             [](const dpa_sort_item &a, const dpa_sort_item &b) { return a.key > b.key; });
            dpa_sort_desc(items.data(), tmp.data(), n);
            for (int64_t i = 0; i < n; i++) {
                ASSERT_EQ(items[(size_t)i].key, want[(size_t)i].key) << "n " << n << " at " << i;
                ASSERT_EQ(items[(size_t)i].index, want[(size_t)i].index) << "n " << n << " at " << i;
            }
        }
    }
}
