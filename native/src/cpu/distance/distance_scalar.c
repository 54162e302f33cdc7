/*
 * distance_scalar.c — the portable plane kernel: 64 variants per step with the compiler's
 * popcount (no ISA flags: this is what runs where AVX2 is absent or disabled).
 */
#include "cpu/distance/distance_tile.h"

static void pair_words(const uint64_t *x, const uint64_t *y, int64_t W, int64_t w0, int64_t nw,
                       uint64_t s[5])
{
    uint64_t nsnp = 0, ibs0 = 0, ibs1 = 0, hethet = 0, h1o2 = 0;
    for (int64_t w = w0; w < w0 + nw; w++) {
        const uint64_t ai = x[w], bi = x[W + w], hi = x[2 * W + w];
        const uint64_t aj = y[w], bj = y[W + w], hj = y[2 * W + w];
        const uint64_t oi = ai | bi, oj = aj | bj;
        nsnp += (uint64_t)__builtin_popcountll((oi | hi) & (oj | hj));
        ibs0 += (uint64_t)__builtin_popcountll((ai & bj) | (bi & aj));
        ibs1 += (uint64_t)__builtin_popcountll((hi & oj) | (oi & hj));
        hethet += (uint64_t)__builtin_popcountll(hi & hj);
        h1o2 += (uint64_t)__builtin_popcountll(hi & oj);
    }
    s[0] = nsnp, s[1] = ibs0, s[2] = ibs1, s[3] = hethet, s[4] = h1o2;
}

void dpa_dist_tile_scalar(const dpa_dist_planes *p, int32_t r0, int32_t r1, int32_t c0,
                          int32_t c1, int upper, const int64_t *row_base, uint32_t *out)
{
    dpa_dist_tile_run(p, r0, r1, c0, c1, upper, row_base, out, pair_words, 256);
}
