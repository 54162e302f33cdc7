// xdrop_gen.h — X-drop test helpers: owned batches, a run through dpa_xdrop_compute, the
// SeqAn oracle (oracles/xdrop_seqan.cc) run as a child process, and a seeded generator of
// long-read-like data (genome with repeats, microsatellites and homopolymers; reads of 1-20
// kb on both strands with 5-8% substitutions and 1-bp indels, some lower case or with N
// runs; seeds = shared 17-mers, true and from repeats, plus random non-matching seeds).
#pragma once
#include <gtest/gtest.h>

#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <random>
#include <string>
#include <unordered_map>
#include <vector>

#include <unistd.h>

extern "C" {
#include "dpaccel.h"
}

namespace xd {

struct Case {
    std::string q, t;
    int32_t qpos, tpos, len;
    bool rev;
};

struct Result {
    long score, qbeg, qend, tbeg, tend, left, right;
    bool operator==(const Result &o) const
    {
        return score == o.score && qbeg == o.qbeg && qend == o.qend && tbeg == o.tbeg &&
               tend == o.tend && left == o.left && right == o.right;
    }
};

inline std::string show(const Result &r)
{
    char b[200];
    std::snprintf(b, sizeof b, "score %ld q[%ld,%ld) t[%ld,%ld) left %ld right %ld", r.score,
                  r.qbeg, r.qend, r.tbeg, r.tend, r.left, r.right);
    return b;
}

inline dpa_xdrop_params params(int match, int mismatch, int gap, int x)
{
    dpa_xdrop_params p;
    dpa_xdrop_params_init(&p);
    p.match = match;
    p.mismatch = mismatch;
    p.gap = gap;
    p.xdrop = x;
    return p;
}

// Owns the bytes a dpa_xdrop_batch points at.
struct Batch {
    std::vector<uint8_t> qb, tb, strands;
    std::vector<int64_t> qo, to;
    std::vector<int32_t> ql, tl, qpos, tpos, len;
    explicit Batch(const std::vector<Case> &cs)
    {
        for (const Case &c : cs) {
            qo.push_back((int64_t)qb.size());
            ql.push_back((int32_t)c.q.size());
            qb.insert(qb.end(), c.q.begin(), c.q.end());
            to.push_back((int64_t)tb.size());
            tl.push_back((int32_t)c.t.size());
            tb.insert(tb.end(), c.t.begin(), c.t.end());
            qpos.push_back(c.qpos);
            tpos.push_back(c.tpos);
            len.push_back(c.len);
            strands.push_back(c.rev ? DPA_XDROP_REVERSE : DPA_XDROP_FORWARD);
        }
    }
    dpa_xdrop_batch view() const
    {
        dpa_xdrop_batch b;
        b.num_pairs = (int32_t)ql.size();
        b.query_bases = qb.data();
        b.query_offsets = qo.data();
        b.query_lengths = ql.data();
        b.target_bases = tb.data();
        b.target_offsets = to.data();
        b.target_lengths = tl.data();
        b.qpos = qpos.data();
        b.tpos = tpos.data();
        b.seed_lengths = len.data();
        b.strands = strands.data();
        return b;
    }
};

// Our results through the public API on a default context (the ctest run picks the ISA).
inline std::vector<Result> ours(const std::vector<Case> &cs, const dpa_xdrop_params &p,
                                dpa_xdrop_stats *stats = nullptr)
{
    dpa_context *ctx = nullptr;
    EXPECT_EQ(dpa_context_create(nullptr, &ctx), DPA_OK) << dpa_last_error();
    Batch b(cs);
    dpa_xdrop_batch v = b.view();
    const size_t n = cs.size();
    std::vector<int32_t> o[7];
    for (auto &a : o) a.assign(n, -12345);
    dpa_xdrop_output out = { o[0].data(), o[1].data(), o[2].data(), o[3].data(),
                             o[4].data(), o[5].data(), o[6].data() };
    EXPECT_EQ(dpa_xdrop_compute(ctx, &v, &p, &out, stats), DPA_OK) << dpa_last_error();
    dpa_context_destroy(ctx);
    std::vector<Result> r(n);
    for (size_t i = 0; i < n; i++)
        r[i] = { o[0][i], o[1][i], o[2][i], o[3][i], o[4][i], o[5][i], o[6][i] };
    return r;
}

inline const char *oracle_path()
{
#ifdef DPA_XDROP_ORACLE
    return access(DPA_XDROP_ORACLE, X_OK) == 0 ? DPA_XDROP_ORACLE : nullptr;
#else
    return nullptr;
#endif
}

#define XD_NEED_ORACLE()                                                                      \
    do {                                                                                      \
        if (!xd::oracle_path())                                                               \
            GTEST_SKIP() << "SKIPPED LOUDLY: the SeqAn oracle xdrop_seqan is not built "      \
                            "(install libseqan2-dev and reconfigure); nothing was compared";  \
    } while (0)

// The oracle's input (the scoring line, then one case per line) in a new temporary file;
// its path, or "" when the file could not be made.
inline std::string oracle_input(const std::vector<Case> &cs, const dpa_xdrop_params &p)
{
    char in[] = "/tmp/xdrop_oracle_XXXXXX";
    const int fd = mkstemp(in);
    FILE *f = fd >= 0 ? fdopen(fd, "w") : nullptr;
    if (!f) return "";
    std::fprintf(f, "%d %d %d %d\n", p.match, p.mismatch, p.gap, p.xdrop);
    for (const Case &c : cs)
        std::fprintf(f, "%s %s %d %d %d %c\n", c.q.c_str(), c.t.c_str(), c.qpos, c.tpos, c.len,
                     c.rev ? '-' : '+');
    std::fclose(f);
    return in;
}

// SeqAn's results for the same cases (the oracle program, via a temporary file).
inline std::vector<Result> seqan(const std::vector<Case> &cs, const dpa_xdrop_params &p)
{
    const std::string in = oracle_input(cs, p);
    EXPECT_FALSE(in.empty()) << "cannot write the oracle's input under /tmp";
    const std::string cmd = std::string(oracle_path()) + " < " + in;
    FILE *pipe = popen(cmd.c_str(), "r");
    std::vector<Result> r;
    Result x;
    while (pipe && std::fscanf(pipe, "%ld %ld %ld %ld %ld %ld %ld", &x.score, &x.qbeg, &x.qend,
                               &x.tbeg, &x.tend, &x.left, &x.right) == 7)
        r.push_back(x);
    const int rc = pipe ? pclose(pipe) : -1;
    unlink(in.c_str());
    EXPECT_EQ(rc, 0) << "oracle failed: " << cmd;
    EXPECT_EQ(r.size(), cs.size()) << "oracle output is short";
    return r;
}

// Compares ours to SeqAn's on every case; returns the number of mismatches.
inline int expect_same_as_seqan(const std::vector<Case> &cs, const dpa_xdrop_params &p)
{
    const std::vector<Result> a = ours(cs, p), b = seqan(cs, p);
    int bad = 0;
    for (size_t i = 0; i < cs.size() && i < b.size(); i++)
        if (!(a[i] == b[i]) && ++bad <= 5)
            ADD_FAILURE() << "case " << i << " (qlen " << cs[i].q.size() << ", tlen "
                          << cs[i].t.size() << ", seed " << cs[i].qpos << "/" << cs[i].tpos
                          << "/" << cs[i].len << (cs[i].rev ? " -" : " +") << ", X " << p.xdrop
                          << ", " << p.match << "/" << p.mismatch << "/" << p.gap
                          << "):\n  ours  " << show(a[i]) << "\n  seqan " << show(b[i]);
    return bad;
}

inline char comp(char c)
{
    switch (c) {
    case 'A': return 'T'; case 'C': return 'G'; case 'G': return 'C'; case 'T': return 'A';
    case 'a': return 't'; case 'c': return 'g'; case 'g': return 'c'; case 't': return 'a';
    default: return c;
    }
}

inline std::string revcomp(const std::string &s)
{
    std::string r(s.rbegin(), s.rend());
    for (char &c : r) c = comp(c);
    return r;
}

inline std::string random_dna(std::mt19937_64 &rng, size_t n)
{
    static const char B[] = "ACGT";
    std::string s(n, 'A');
    for (char &c : s) c = B[rng() & 3];
    return s;
}

// A genome of about n bases: random sequence with a repeat family (copies with ~2%
// divergence), microsatellites and homopolymers.
inline std::string genome(std::mt19937_64 &rng, size_t n)
{
    const std::string element = random_dna(rng, 1500);
    std::string g;
    while (g.size() < n) {
        const unsigned kind = rng() % 10;
        if (kind < 5) {
            g += random_dna(rng, 500 + rng() % 3000);
        } else if (kind < 7) {
            std::string e = element;
            for (char &c : e)
                if (rng() % 50 == 0) c = "ACGT"[rng() & 3];
            g += e;
        } else if (kind < 9) {
            const std::string unit = random_dna(rng, 1 + rng() % 6);
            for (unsigned k = 20 + rng() % 60; k > 0; k--) g += unit;
        } else {
            g += std::string(5 + rng() % 25, "ACGT"[rng() & 3]);
        }
    }
    return g;
}

struct Read {
    std::string seq; // as stored (reverse-complemented when rev)
    bool rev;
    int64_t start, end; // the genome interval it was sampled from
};

inline Read sample_read(std::mt19937_64 &rng, const std::string &g, int len)
{
    Read r;
    r.start = (int64_t)(rng() % (g.size() - (size_t)len));
    r.end = r.start + len;
    r.rev = rng() & 1;
    const double err = 0.05 + 0.03 * (double)(rng() % 1000) / 1000.0;
    std::string frag;
    for (int64_t p = r.start; p < r.end; p++) {
        const double u = (double)(rng() % 1000000) / 1e6;
        if (u < err / 3) { // substitution
            char c;
            do c = "ACGT"[rng() & 3]; while (c == g[(size_t)p]);
            frag += c;
        } else if (u < 2 * err / 3) { // deletion
        } else if (u < err) { // insertion, then the base
            frag += "ACGT"[rng() & 3];
            frag += g[(size_t)p];
        } else {
            frag += g[(size_t)p];
        }
    }
    r.seq = r.rev ? revcomp(frag) : frag;
    if (rng() % 4 == 0) { // a lower-case stretch
        const size_t a = rng() % r.seq.size(), b = std::min(r.seq.size(), a + 1 + rng() % 3000);
        for (size_t i = a; i < b; i++) r.seq[i] = (char)(r.seq[i] | 0x20);
    }
    if (rng() % 5 == 0) { // an N run
        const size_t a = rng() % r.seq.size(), b = std::min(r.seq.size(), a + 1 + rng() % 200);
        for (size_t i = a; i < b; i++) r.seq[i] = 'N';
    }
    return r;
}

inline std::string upper(std::string s)
{
    for (char &c : s) c = (char)(c & ~0x20);
    return s;
}

// Seeds for reads a (query) and b (target): shared 17-mers of a and b oriented as a (true
// ones where the reads overlap, spurious ones from repeat copies and microsatellites), up
// to max_kmer of them, plus a few random non-matching seeds of length 0..30.
inline void seeds(std::mt19937_64 &rng, const Read &a, const Read &b, int max_kmer,
                  std::vector<Case> &out)
{
    const bool rev = a.rev != b.rev;
    const std::string tq = upper(a.seq), tt = upper(rev ? revcomp(b.seq) : b.seq);
    const int k = 17;
    std::unordered_multimap<std::string, int> idx;
    for (int i = 0; i + k <= (int)tt.size(); i += 7) idx.emplace(tt.substr((size_t)i, k), i);
    std::vector<std::pair<int, int>> hits;
    for (int i = 0; i + k <= (int)tq.size(); i++) {
        auto range = idx.equal_range(tq.substr((size_t)i, k));
        for (auto it = range.first; it != range.second; ++it)
            if (tq.find('N', (size_t)i) >= (size_t)i + k) hits.emplace_back(i, it->second);
    }
    for (int s = 0; s < max_kmer && !hits.empty(); s++) {
        const auto h = hits[rng() % hits.size()];
        out.push_back({ a.seq, b.seq, h.first, h.second, k, rev });
    }
    for (int s = 0; s < 2; s++) {
        const int len = (int)(rng() % 31);
        const int ql = (int)a.seq.size(), tl = (int)b.seq.size();
        if (len > ql || len > tl) continue;
        out.push_back({ a.seq, b.seq, (int)(rng() % (unsigned)(ql - len + 1)),
                        (int)(rng() % (unsigned)(tl - len + 1)), len, rev });
    }
}

// The standard long-read data set: reads of 1-20 kb from one genome, seeds between
// overlapping pairs and a few non-overlapping ones.
inline std::vector<Case> long_read_cases(uint64_t seed, int pairs, int max_kmer,
                                         int max_len = 20000)
{
    std::mt19937_64 rng(seed);
    const std::string g = genome(rng, 120000);
    std::vector<Read> reads;
    for (int i = 0; i < 2 * pairs + 8; i++)
        reads.push_back(sample_read(rng, g, 1000 + (int)(rng() % (unsigned)(max_len - 999))));
    std::vector<Case> cs;
    int made = 0;
    for (size_t i = 0; i < reads.size() && made < pairs; i++)
        for (size_t j = 0; j < reads.size() && made < pairs; j++) {
            if (i == j) continue;
            const bool overlap = reads[i].start < reads[j].end && reads[j].start < reads[i].end;
            if (!overlap && rng() % 8 != 0) continue;
            seeds(rng, reads[i], reads[j], max_kmer, cs);
            made++;
        }
    return cs;
}

}  // namespace xd
