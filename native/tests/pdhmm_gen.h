// pdhmm_gen.h — PDHMM test data: owned SoA storage for dpa_pdhmm_batch, a seeded generator
// of GATK-shaped partially determined haplotypes and reads, and a reader for GKL 0.9.1's
// expected-value files (tab-separated: hap-bases, hap-pd-bases as a signed byte list,
// read-bases, read-qual, read-ins-qual, read-del-qual, gcp as FASTQ phred+33, expected).
#pragma once

#include <cstdint>
#include <cstdlib>
#include <fstream>
#include <cmath>
#include <random>
#include <sstream>
#include <string>
#include <vector>

extern "C" {
#include "dpaccel.h"
}

namespace pdg {

struct Case {
    std::string hap;
    std::vector<uint8_t> pd;
    std::string read;
    std::vector<uint8_t> q, ins, del, gcp;
    double expected = 0;  // from a file; unused for generated cases
};

struct Batch {
    explicit Batch(const std::vector<Case> &cs)
    {
        for (const Case &c : cs) {
            ho.push_back((int64_t)hb.size());
            hl.push_back((int32_t)c.hap.size());
            hb.insert(hb.end(), c.hap.begin(), c.hap.end());
            pd.insert(pd.end(), c.pd.begin(), c.pd.end());
            ro.push_back((int64_t)rb.size());
            rl.push_back((int32_t)c.read.size());
            rb.insert(rb.end(), c.read.begin(), c.read.end());
            bq.insert(bq.end(), c.q.begin(), c.q.end());
            iq.insert(iq.end(), c.ins.begin(), c.ins.end());
            dq.insert(dq.end(), c.del.begin(), c.del.end());
            gq.insert(gq.end(), c.gcp.begin(), c.gcp.end());
        }
        // never hand out a NULL pointer for an empty side
        for (auto *v : { &hb, &pd, &rb, &bq, &iq, &dq, &gq }) v->push_back(0);
        ho.push_back(0);
        ro.push_back(0);
        hl.push_back(0);
        rl.push_back(0);
        n = (int32_t)cs.size();
    }
    dpa_pdhmm_batch view() const
    {
        dpa_pdhmm_batch b;
        b.num_pairs = n;
        b.hap_bases = hb.data();
        b.hap_pd_bases = pd.data();
        b.hap_offsets = ho.data();
        b.hap_lengths = hl.data();
        b.read_bases = rb.data();
        b.base_quals = bq.data();
        b.ins_quals = iq.data();
        b.del_quals = dq.data();
        b.gcp_quals = gq.data();
        b.read_offsets = ro.data();
        b.read_lengths = rl.data();
        return b;
    }
    int32_t n;
    std::vector<uint8_t> hb, pd, rb, bq, iq, dq, gq;
    std::vector<int64_t> ho, ro;
    std::vector<int32_t> hl, rl;
};

inline uint8_t letter_bit(char c)
{
    switch (c) {
    case 'A': return DPA_PD_A;
    case 'C': return DPA_PD_C;
    case 'G': return DPA_PD_G;
    default: return DPA_PD_T;
    }
}

// A haplotype of length h with SNP sites (an alternative letter in its PD bits) and
// deletions (DEL_START before the deleted run, DEL_END on its last base), as GATK's
// PartiallyDeterminedHaplotype marks them; a read of length r sampled from it with errors
// and the odd N; GATK-like qualities (base 6..40, GOP 40..50, GCP 10) or, with wild, any
// phred 0..93 and arbitrary flag bytes on every position (the GKL synthetic files' style).
inline Case gatk_case(std::mt19937_64 &rng, int h, int r, bool wild)
{
    static const char ACGT[] = "ACGT";
    auto U = [&](int lo, int hi) { return std::uniform_int_distribution<int>(lo, hi)(rng); };
    Case c;
    for (int j = 0; j < h; j++) c.hap.push_back(ACGT[U(0, 3)]);
    c.pd.assign(h, 0);
    if (wild) {
        for (int j = 0; j < h; j++) c.pd[j] = (uint8_t)U(0, 255);
    } else {
        for (int j = 0; j < h; j++) {
            const int roll = U(0, 99);
            if (roll < 6) {
                char alt = ACGT[U(0, 3)];
                c.pd[j] = (uint8_t)(DPA_PD_SNP | letter_bit(alt) | (U(0, 1) ? letter_bit(c.hap[j]) : 0));
            } else if (roll < 10 && j + 1 < h) {
                const int len = U(1, 6);
                const int end = j + len < h ? j + len : h - 1;
                c.pd[j] |= DPA_PD_DEL_START;
                c.pd[end] |= DPA_PD_DEL_END;
                j = end;
            }
        }
        if (U(0, 9) == 0) c.pd[h - 1] |= (uint8_t)(U(0, 1) ? DPA_PD_DEL_START : DPA_PD_DEL_END);
    }
    const int start = h > r ? U(0, h - r) : 0;
    for (int i = 0; i < r; i++) {
        char b = c.hap[(start + i) % h];
        const int roll = U(0, 99);
        if (roll < 3) b = ACGT[U(0, 3)];
        else if (roll < 4) b = 'N';
        c.read.push_back(b);
        if (wild) {
            // any qualities that still make a model: gap-open error probabilities summing
            // past 1 (Q0 with anything, Q3 with Q3) fail the call as GATK throws, and have
            // their own test (ImproperGapQualities...)
            int ins, del;
            do {
                ins = U(1, 93);
                del = U(1, 93);
            } while (std::pow(10.0, ins / -10.0) + std::pow(10.0, del / -10.0) > 1.0);
            c.q.push_back((uint8_t)U(0, 93));
            c.ins.push_back((uint8_t)ins);
            c.del.push_back((uint8_t)del);
            c.gcp.push_back((uint8_t)U(0, 93));
        } else {
            c.q.push_back((uint8_t)U(6, 40));
            c.ins.push_back((uint8_t)U(40, 50));
            c.del.push_back((uint8_t)U(40, 50));
            c.gcp.push_back(10);
        }
    }
    if (U(0, 19) == 0) c.hap[U(0, h - 1)] = 'N';
    return c;
}

// Reads a GKL expected-value file; returns false when it cannot be opened.
inline bool read_gkl_file(const std::string &path, std::vector<Case> *out, std::string *err)
{
    std::ifstream in(path);
    if (!in) {
        *err = "cannot open " + path;
        return false;
    }
    std::string line;
    std::getline(in, line);  // header
    int lineno = 1;
    while (std::getline(in, line)) {
        lineno++;
        if (line.empty()) continue;
        std::vector<std::string> f;
        std::stringstream ss(line);
        std::string tok;
        while (std::getline(ss, tok, '\t')) f.push_back(tok);
        if (f.size() != 8) {
            *err = path + ":" + std::to_string(lineno) + ": expected 8 fields";
            return false;
        }
        Case c;
        c.hap = f[0];
        std::string list = f[1].substr(1, f[1].size() - 2);
        std::stringstream ls(list);
        while (std::getline(ls, tok, ',')) c.pd.push_back((uint8_t)(int8_t)std::stoi(tok));
        c.read = f[2];
        for (char ch : f[3]) c.q.push_back((uint8_t)(ch - 33));
        for (char ch : f[4]) c.ins.push_back((uint8_t)(ch - 33));
        for (char ch : f[5]) c.del.push_back((uint8_t)(ch - 33));
        for (char ch : f[6]) c.gcp.push_back((uint8_t)(ch - 33));
        c.expected = std::strtod(f[7].c_str(), nullptr);
        if (c.pd.size() != c.hap.size() || c.q.size() != c.read.size()) {
            *err = path + ":" + std::to_string(lineno) + ": field lengths disagree";
            return false;
        }
        out->push_back(std::move(c));
    }
    return true;
}

// Half a unit in the last of the 7 significant digits GKL prints (%e): the precision of
// its expected values.
inline double printed_half_ulp(double v)
{
    if (v == 0) return 5e-7;
    int e = 0;
    double a = v < 0 ? -v : v;
    while (a >= 10) { a /= 10; e++; }
    while (a < 1) { a *= 10; e--; }
    double h = 0.5;
    for (int k = 0; k < 6 - e; k++) h /= 10;
    for (int k = 0; k < e - 6; k++) h *= 10;
    return h;
}

}  // namespace pdg
