/*
 * distance_scalar.c — the portable plane kernel: 64 variants per step with the compiler's
 * popcount (no ISA flags: this is what runs where AVX2 is absent or disabled).
 */
#include "cpu/distance/distance_tile.h"

#ifndef CB
#define CB 2  /* columns of a register block (x DPA_DIST_RB rows) */
#endif

static inline __attribute__((always_inline)) void
block_words(const uint64_t *const *x, int nr, const uint64_t *const *y, int nc, int64_t W,
            int64_t w0, int64_t nw, uint64_t *s)
{
    uint64_t acc[DPA_DIST_RB][CB][5] = { { { 0 } } };
    for (int64_t w = w0; w < w0 + nw; w++) {
        uint64_t ai[DPA_DIST_RB], bi[DPA_DIST_RB], hi[DPA_DIST_RB], oi[DPA_DIST_RB];
        for (int i = 0; i < nr; i++) {
            ai[i] = x[i][w], bi[i] = x[i][W + w], hi[i] = x[i][2 * W + w];
            oi[i] = ai[i] | bi[i];
        }
        for (int j = 0; j < nc; j++) {
            const uint64_t aj = y[j][w], bj = y[j][W + w], hj = y[j][2 * W + w];
            const uint64_t oj = aj | bj, cj = oj | hj;
            for (int i = 0; i < nr; i++) {
                uint64_t *a = acc[i][j];
                const uint64_t h1o2 = hi[i] & oj;
                a[0] += (uint64_t)__builtin_popcountll((oi[i] | hi[i]) & cj);
                a[1] += (uint64_t)__builtin_popcountll((ai[i] & bj) | (bi[i] & aj));
                a[2] += (uint64_t)__builtin_popcountll(h1o2 | (oi[i] & hj));
                a[3] += (uint64_t)__builtin_popcountll(hi[i] & hj);
                a[4] += (uint64_t)__builtin_popcountll(h1o2);
            }
        }
    }
    for (int i = 0; i < nr; i++)
        for (int j = 0; j < nc; j++)
            for (int k = 0; k < 5; k++) s[(i * nc + j) * 5 + k] = acc[i][j][k];
}

DPA_DIST_TILE_KERNEL(dpa_dist_tile_scalar, block_words, CB, 256)
