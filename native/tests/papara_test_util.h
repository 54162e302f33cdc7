// papara_test_util.h — seeded PaPaRa batches for the tests: random profiles (site bytes)
// and reads (masks), owned storage behind a dpa_papara_batch view.
#pragma once
#include <cstdint>
#include <random>
#include <vector>

extern "C" {
#include "dpaccel.h"
}

namespace ppt {

struct Batch {
    int64_t sites = 0;
    std::vector<std::vector<uint8_t>> profiles;
    std::vector<std::vector<uint8_t>> reads;
    std::vector<uint8_t> prof_, masks_;
    std::vector<int64_t> offs_;
    std::vector<int32_t> lens_;
    dpa_papara_batch view()
    {
        prof_.clear();
        for (auto &p : profiles) prof_.insert(prof_.end(), p.begin(), p.end());
        masks_.clear();
        offs_.clear();
        lens_.clear();
        for (auto &r : reads) {
            offs_.push_back((int64_t)masks_.size());
            lens_.push_back((int32_t)r.size());
            masks_.insert(masks_.end(), r.begin(), r.end());
        }
        if (masks_.empty()) masks_.push_back(0);
        dpa_papara_batch b;
        b.num_profiles = (int32_t)profiles.size();
        b.num_sites = sites;
        b.profiles = prof_.data();
        b.num_reads = (int32_t)reads.size();
        b.read_masks = masks_.data();
        b.read_offsets = offs_.data();
        b.read_lengths = lens_.data();
        return b;
    }
};

// Profiles drift from one ancestor (so scores are close and ties happen); reads are cut
// from a profile's states with a few substitutions and IUPAC codes.
inline Batch random_batch(std::mt19937_64 &rng, int nprof, int64_t sites, int nreads,
                          int rmin, int rmax, double cgap_share = 0.2)
{
    Batch b;
    b.sites = sites;
    std::uniform_int_distribution<int> base(0, 3), any(0, 15), len(rmin, rmax);
    std::uniform_real_distribution<double> u(0, 1);
    std::vector<uint8_t> anc(sites);
    for (auto &s : anc) s = (uint8_t)(1 << base(rng));
    for (int e = 0; e < nprof; e++) {
        std::vector<uint8_t> p(sites);
        for (int64_t i = 0; i < sites; i++) {
            uint8_t s = anc[i];
            const double x = u(rng);
            if (x < 0.1) s = (uint8_t)any(rng);
            else if (x < 0.2) s = (uint8_t)(1 << base(rng));
            if (u(rng) < cgap_share) s |= DPA_PAPARA_CGAP_BIT;
            p[i] = s;
        }
        b.profiles.push_back(p);
    }
    for (int r = 0; r < nreads; r++) {
        const int L = len(rng);
        std::vector<uint8_t> m(L);
        std::uniform_int_distribution<int64_t> start(0, sites - 1);
        int64_t at = start(rng);
        for (int j = 0; j < L; j++) {
            uint8_t s = anc[(at + j) % sites];
            const double x = u(rng);
            if (x < 0.05) s = (uint8_t)(1 << base(rng));
            else if (x < 0.07) s = (uint8_t)(1 + any(rng) % 15);
            m[j] = s;
        }
        b.reads.push_back(m);
    }
    return b;
}

// One read of exactly len bases from random_batch's generator (a batch of one profile and
// one read over `sites` sites).
inline std::vector<uint8_t> one_read(std::mt19937_64 &rng, int64_t sites, int len,
                                     double cgap_share = 0.2)
{
    return random_batch(rng, 1, sites, 1, len, len, cgap_share).reads[0];
}

// Every read base T and every site A with its gap flag: every cell a flagged mismatch, the
// costliest cells of both score models (the int16 bounds' worst case).
inline void make_costliest(Batch &b)
{
    for (auto &r : b.reads)
        for (auto &x : r) x = 8;
    for (auto &pr : b.profiles)
        for (auto &x : pr) x = 1 | DPA_PAPARA_CGAP_BIT;
}

}  // namespace ppt
