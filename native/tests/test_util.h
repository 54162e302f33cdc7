// test_util.h — helpers shared by the gtest files: seeded random batches, owned SoA
// storage for dpa_pairhmm_batch, and the seed every random test prints on failure.
#pragma once
#include <gtest/gtest.h>

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

// A context that never loads the CUDA backend, whatever the machine has and whatever the
// environment says: for tests of what a GPU-forced call does without a GPU.
inline dpa_status context_without_gpu(dpa_context **ctx)
{
    dpa_options o;
    dpa_options_init(&o);
    o.gpu_disable = 1;
    return dpa_context_create(&o, ctx);
}

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
// A region as HaplotypeCaller builds one, appended to b as one group: a reference window
// and haplotypes carrying a few SNPs (same length, long shared prefixes) and indels (other
// lengths), some duplicates; reads drawn from the haplotypes with errors (every fourth one
// shorter, 40..read_len).
void make_region(std::mt19937_64 &rng, Batch &b, int nhaps, int nreads, int ref_len,
                 int read_len);
// A read with the same base quality / GOPs / GCP at every position.
Read uniform_read(const std::string &bases, uint8_t q, uint8_t ins, uint8_t del, uint8_t gcp);

// got against want where want may be NaN or infinite: NaN only for NaN, an infinity only
// for the same infinity, else |got - want| <= tol.
::testing::AssertionResult near_or_same_special(double got, double want, double tol);

// The double path (IEEE, subnormals kept, scaled by 2^1020 as GATK does) on an m x n pair
// whose exact log10 likelihood (long-double reference) is want, far down where its sum is
// subnormal or zero: each of the ~9(m+1)(n+1) + n roundings there is off by at most half the
// smallest subnormal, and the transitions are probabilities, so an error's weight never
// grows along a path. got must lie in the log10 range that total error allows (exactly
// -infinity where the sum can round to zero); no looser "small enough" check.
::testing::AssertionResult double_path_tiny(double got, double want, int m, int n);

// Independent double reference for one pair, written directly from GATK's recurrence in
// long double (a second implementation, to check the C reference itself).
double reference_log10(const Read &r, const std::string &hap);

}  // namespace dpa_test
