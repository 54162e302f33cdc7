// sw_gen.h — Smith-Waterman pair generators and the scalar-reference checker shared by the
// GPU tests (kernels/tests/test_cuda_sw.cc, native/tests/test_engine_sw_gpu.cc) and the GPU
// benchmark's shapes: GATK's parameter sets, haplotype-to-reference pairs (HaplotypeCaller:
// reference with SNPs / indels / STRs, 10 N padding), reads to haplotypes, dangling ends.
#pragma once
#include <cstring>
#include <random>
#include <string>
#include <utility>
#include <vector>

#include "test_util.h"

extern "C" {
#include "cpu/sw/sw.h"
}

namespace dpa_swgen {

struct Params {
    int32_t match, mismatch, open, extend;
};
const Params ORIGINAL_DEFAULT = { 3, -1, -4, -3 };
const Params STANDARD_NGS = { 25, -50, -110, -6 };  // dangling ends
const Params NEW_SW = { 200, -150, -260, -11 };     // haplotype to reference
const Params READ_TO_HAP = { 10, -15, -30, -5 };
const Params GATK_SETS[] = { ORIGINAL_DEFAULT, STANDARD_NGS, NEW_SW, READ_TO_HAP };
// Tie-heavy and odd sets: unit scores, zero / positive gap values, huge penalties.
const Params ODD_SETS[] = { { 1, -1, -1, -1 }, { 2, -1, -2, 0 }, { 1, 0, 0, 0 },
                            { 1, -2, 1, -1 },  { 5, -5, -5, 5 }, { 5, -10000000, -12000000, -3000000 } };

inline dpa_sw_params make_params(const Params &p, int overhang, int backend = -1)
{
    dpa_sw_params sp;
    dpa_sw_params_init(&sp);
    sp.match = p.match;
    sp.mismatch = p.mismatch;
    sp.gap_open = p.open;
    sp.gap_extend = p.extend;
    sp.overhang = overhang;
    sp.backend = backend;
    return sp;
}

inline std::string mutate(std::mt19937_64 &rng, const std::string &src, int snps, int indels,
                          int max_indel)
{
    std::string s = src;
    for (int k = 0; k < snps && !s.empty(); k++) s[rng() % s.size()] = "ACGT"[rng() % 4];
    for (int k = 0; k < indels && s.size() > 2; k++) {
        const size_t pos = rng() % s.size();
        const int len = 1 + (int)(rng() % (uint64_t)max_indel);
        if (rng() & 1)
            s.insert(pos, dpa_test::random_bases(rng, len));
        else
            s.erase(pos, (size_t)len);
        if (s.empty()) s = "A";
    }
    return s;
}

// Reference with short tandem repeats and duplicated segments.
inline std::string repetitive(std::mt19937_64 &rng, int len)
{
    std::string s;
    while ((int)s.size() < len) {
        const int kind = (int)(rng() % 4);
        if (kind == 0) {
            std::string unit = dpa_test::random_bases(rng, 1 + (int)(rng() % 4));
            for (int r = 2 + (int)(rng() % 10); r > 0; r--) s += unit;
        } else if (kind == 1 && s.size() > 40) {
            s += s.substr(rng() % (s.size() - 30), 30);
        } else {
            s += dpa_test::random_bases(rng, 10 + (int)(rng() % 40));
        }
    }
    s.resize((size_t)len);
    return s;
}

typedef std::vector<std::pair<std::string, std::string>> Pairs;

// HaplotypeCaller's haplotype-to-reference: 300-1000 bp, SNPs and indels up to 60, 10 N pads.
inline Pairs hap_to_ref(std::mt19937_64 &rng, int count)
{
    Pairs v;
    const std::string pad(10, 'N');
    for (int k = 0; k < count; k++) {
        std::string ref = repetitive(rng, 300 + (int)(rng() % 701));
        std::string hap = mutate(rng, ref, (int)(rng() % 8), (int)(rng() % 4), 60);
        v.push_back({ pad + ref + pad, pad + hap + pad });
    }
    return v;
}

// 150 bp reads (errors, overhangs at either end) against 300 bp haplotypes.
inline Pairs reads_to_hap(std::mt19937_64 &rng, int count)
{
    Pairs v;
    for (int k = 0; k < count; k++) {
        std::string hap = repetitive(rng, 300);
        const int start = (int)(rng() % 200) - 20;
        std::string read;
        for (int x = start; x < start + 150; x++)
            read += x >= 0 && x < 300 ? hap[(size_t)x] : "ACGT"[rng() % 4];
        v.push_back({ hap, mutate(rng, read, (int)(rng() % 6), (int)(rng() % 3), 8) });
    }
    return v;
}

inline Pairs dangling(std::mt19937_64 &rng, int count)
{
    Pairs v;
    for (int k = 0; k < count; k++) {
        std::string ref = dpa_test::random_bases(rng, 10 + (int)(rng() % 111));
        std::string alt = mutate(rng, ref.substr(rng() % (ref.size() / 2 + 1)), 2, 1, 5);
        if (rng() & 1)
            alt = alt.substr(0, alt.size() / 2 + 1) + dpa_test::random_bases(rng, 1 + (int)(rng() % 30));
        v.push_back({ ref, alt });
    }
    return v;
}

// Owns the SoA arrays of a dpa_sw_batch.
struct SwBatch {
    std::string rb, ab;
    std::vector<int64_t> ro, ao;
    std::vector<int32_t> rl, al;
    explicit SwBatch(const Pairs &p)
    {
        for (const auto &x : p) {
            ro.push_back((int64_t)rb.size());
            ao.push_back((int64_t)ab.size());
            rb += x.first;
            ab += x.second;
            rl.push_back((int32_t)x.first.size());
            al.push_back((int32_t)x.second.size());
        }
    }
    dpa_sw_batch view() const
    {
        dpa_sw_batch b;
        std::memset(&b, 0, sizeof b);
        b.num_pairs = (int32_t)rl.size();
        b.ref_bases = (const uint8_t *)rb.data();
        b.alt_bases = (const uint8_t *)ab.data();
        b.ref_offsets = ro.data();
        b.alt_offsets = ao.data();
        b.ref_lengths = rl.data();
        b.alt_lengths = al.data();
        return b;
    }
};

struct Result {
    std::string cigar;
    int32_t offset;
    bool operator==(const Result &o) const { return cigar == o.cigar && offset == o.offset; }
};

// The scalar reference (GATK-exact; checked against an independent implementation and GATK)
// for every pair; *exact counts the shortcut answers.
inline std::vector<Result> scalar_results(const Pairs &p, const dpa_sw_params &sp, int64_t *exact)
{
    std::vector<Result> out;
    dpa_sw_scratch s;
    std::memset(&s, 0, sizeof s);
    *exact = 0;
    for (const auto &x : p) {
        std::string cigar((size_t)dpa_sw_cigar_max((int32_t)x.first.size(), (int32_t)x.second.size()), '?');
        int32_t len = -1, off = -1;
        int hit = 0;
        dpa_sw_align_scalar((const uint8_t *)x.first.data(), (int32_t)x.first.size(),
                            (const uint8_t *)x.second.data(), (int32_t)x.second.size(), &sp, &s,
                            &cigar[0], &len, &off, &hit);
        cigar.resize(len < 0 ? 0 : (size_t)len);
        out.push_back({ cigar, off });
        *exact += hit;
    }
    dpa_sw_scratch_free(&s);
    return out;
}

}  // namespace dpa_swgen
