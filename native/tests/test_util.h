// test_util.h — helpers shared by the gtest files: seeded random batches, owned SoA
// storage for dpa_pairhmm_batch, and the seed every random test prints on failure.
#pragma once
#include <cstdint>
#include <random>
#include <string>
#include <vector>

extern "C" {
#include "dpaccel.h"
}

namespace dpa_test {

// DPA_TEST_SEED from the environment, else a fresh seed from the clock.
uint64_t test_seed();

struct Read {
    std::string bases;
    std::vector<uint8_t> q, ins, del, gcp;
};

// Owns the bytes a dpa_pairhmm_batch points at.
struct Batch {
    std::vector<Read> reads;
    std::vector<std::string> haps;
    std::vector<int32_t> group_reads, group_haps;  // empty = one group

    dpa_pairhmm_batch view();  // valid until the Batch changes
    int64_t results() const;

  private:
    std::vector<uint8_t> rb_, bq_, iq_, dq_, gq_, hb_;
    std::vector<int64_t> ro_, ho_;
    std::vector<int32_t> rl_, hl_;
};

// GATK-shaped read: bases from the haplotype with a few errors, base quals 6..40,
// GOP 40..50, GCP 10.
Read gatk_read(std::mt19937_64 &rng, const std::string &hap, int len);
std::string random_bases(std::mt19937_64 &rng, int len, const char *alphabet = "ACGT");
Read random_read(std::mt19937_64 &rng, int len, int qmin, int qmax);
// A read with the same base quality / GOPs / GCP at every position.
Read uniform_read(const std::string &bases, uint8_t q, uint8_t ins, uint8_t del, uint8_t gcp);

// Independent double reference for one pair, written directly from GATK's recurrence in
// long double (a second implementation, to check the C reference itself).
double reference_log10(const Read &r, const std::string &hap);

}  // namespace dpa_test
