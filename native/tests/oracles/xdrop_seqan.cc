// xdrop_seqan — the test oracle for dpa_xdrop_compute: SeqAn 2.x gapped X-drop seed
// extension (EXTEND_BOTH, Score<int, Simple>, GappedXDrop), driven from stdin.
//
// Input (whitespace separated):
//   MATCH MISMATCH GAP X
//   then one record per seed: QUERY TARGET QPOS TPOS LEN STRAND   (STRAND is + or -)
// Output, one line per seed, in input order:
//   score qbeg qend tbeg tend left right
//
// extendSeed() does not return the two sides' scores, so each side is extended here with
// the same one-direction routine and the same prefix/suffix arguments extendSeed uses; the
// seed it leaves is then checked against a plain extendSeed() call on a copy, so this
// program can never drift from the library's own composition. On strand '-' the target is
// reverse-complemented (SeqAn's reverseComplement on Dna5) and TPOS and the output target
// coordinates refer to that reverse complement. score = left + right + the seed's own
// column sum.
//
// With --time the extension loop (without the extendSeed cross-check) (parsing and conversion excluded) is repeated --repeat N
// times and its seconds are printed to stderr, for the benchmark in docs/xdrop.md.
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <iostream>
#include <string>
#include <vector>

#include <seqan/basic.h>
#include <seqan/modifier.h>
#include <seqan/score.h>
#include <seqan/seeds.h>
#include <seqan/sequence.h>

namespace {

struct Record {
    seqan::Dna5String query, target;
    long qpos, tpos, len;
};

struct Result {
    long score, qbeg, qend, tbeg, tend, left, right;
};

Result extend(const Record &r, const seqan::Score<int, seqan::Simple> &sc, int x, bool check_it)
{
    seqan::Seed<seqan::Simple> seed(r.tpos, r.qpos, r.len);
    long seed_score = 0;
    for (long i = 0; i < r.len; i++)
        seed_score += seqan::score(sc, r.query[r.qpos + i], r.target[r.tpos + i]);

    // The same two calls, on the same segments, as extendSeed(..., EXTEND_BOTH, ...).
    int left = 0, right = 0;
    {
        auto tp = seqan::prefix(r.target, seqan::beginPositionH(seed));
        auto qp = seqan::prefix(r.query, seqan::beginPositionV(seed));
        left = seqan::_extendSeedGappedXDropOneDirection(seed, qp, tp, seqan::EXTEND_LEFT, sc, x);
    }
    {
        auto ts = seqan::suffix(r.target, seqan::endPositionH(seed));
        auto qs = seqan::suffix(r.query, seqan::endPositionV(seed));
        right = seqan::_extendSeedGappedXDropOneDirection(seed, qs, ts, seqan::EXTEND_RIGHT, sc, x);
    }
    seqan::Seed<seqan::Simple> check(r.tpos, r.qpos, r.len);
    if (check_it)
        seqan::extendSeed(check, r.target, r.query, seqan::EXTEND_BOTH, sc, x, seqan::GappedXDrop());
    if (check_it && (seqan::beginPositionH(check) != seqan::beginPositionH(seed) ||
        seqan::endPositionH(check) != seqan::endPositionH(seed) ||
        seqan::beginPositionV(check) != seqan::beginPositionV(seed) ||
        seqan::endPositionV(check) != seqan::endPositionV(seed))) {
        std::fprintf(stderr, "xdrop_seqan: one-direction calls disagree with extendSeed\n");
        std::exit(3);
    }
    Result res;
    res.left = left;
    res.right = right;
    res.score = (long)left + right + seed_score;
    res.qbeg = (long)seqan::beginPositionV(seed);
    res.qend = (long)seqan::endPositionV(seed);
    res.tbeg = (long)seqan::beginPositionH(seed);
    res.tend = (long)seqan::endPositionH(seed);
    return res;
}

}  // namespace

int main(int argc, char **argv)
{
    bool time_it = false;
    int repeat = 1;
    for (int i = 1; i < argc; i++) {
        if (!std::strcmp(argv[i], "--time")) time_it = true;
        else if (!std::strcmp(argv[i], "--repeat") && i + 1 < argc) repeat = std::atoi(argv[++i]);
        else {
            std::fprintf(stderr, "usage: xdrop_seqan [--time] [--repeat N] < input\n");
            return 2;
        }
    }
    std::ios::sync_with_stdio(false);
    int match, mismatch, gap, x;
    if (!(std::cin >> match >> mismatch >> gap >> x)) {
        std::fprintf(stderr, "xdrop_seqan: expected MATCH MISMATCH GAP X\n");
        return 2;
    }
    seqan::Score<int, seqan::Simple> sc(match, mismatch, gap);
    std::vector<Record> recs;
    std::string q, t, strand;
    long qpos, tpos, len;
    while (std::cin >> q >> t >> qpos >> tpos >> len >> strand) {
        Record r;
        r.query = q;
        r.target = t;
        if (strand == "-") seqan::reverseComplement(r.target);
        else if (strand != "+") {
            std::fprintf(stderr, "xdrop_seqan: record %zu: strand must be + or -\n", recs.size());
            return 2;
        }
        if (qpos < 0 || tpos < 0 || len < 0 || qpos + len > (long)seqan::length(r.query) ||
            tpos + len > (long)seqan::length(r.target)) {
            std::fprintf(stderr, "xdrop_seqan: record %zu: seed outside the sequences\n",
                         recs.size());
            return 2;
        }
        r.qpos = qpos;
        r.tpos = tpos;
        r.len = len;
        recs.push_back(std::move(r));
    }
    std::vector<Result> out(recs.size());
    const auto t0 = std::chrono::steady_clock::now();
    for (int k = 0; k < repeat; k++)
        for (size_t i = 0; i < recs.size(); i++) out[i] = extend(recs[i], sc, x, !time_it);
    const double secs =
        std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    if (time_it)
        std::fprintf(stderr, "seqan: %zu seeds x %d repeats: %.6f s\n", recs.size(), repeat, secs);
    for (const Result &r : out)
        std::printf("%ld %ld %ld %ld %ld %ld %ld\n", r.score, r.qbeg, r.qend, r.tbeg, r.tend,
                    r.left, r.right);
    return 0;
}
