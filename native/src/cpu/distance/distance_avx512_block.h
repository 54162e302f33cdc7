/*
 * distance_avx512_block.h — the register block of the two AVX-512 kernels, included by
 * distance_avx512.c (nibble lookup into byte counters) and distance_avx512_vpopcnt.c
 * (VPOPCNTQ into 64-bit counters), each compiled with its own flags. They differ only in how a
 * vector's bits are counted, which the includer defines before including this file:
 *   DPA_DIST_COUNT_SETUP        declarations the two below use (may be empty)
 *   DPA_DIST_COUNT_ADD(a, v)    accumulator a plus the bit counts of v
 *   DPA_DIST_COUNT_FOLD(a)      accumulator a's total, as uint64_t
 * and CB, the block's columns. Per step a row contributes A, B, H and O = A|B, a column A, B,
 * H and C = A|B|H, loaded and derived once per block; each pair then needs six logic
 * operations (the four-input combinations are single VPTERNLOGQ) and five counts. nr and nc
 * are constants at each use, so the accumulators are registers (20 of the 32 zmm for 2 x 2).
 */
#ifndef DPA_CPU_DISTANCE_AVX512_BLOCK_H
#define DPA_CPU_DISTANCE_AVX512_BLOCK_H

#include <immintrin.h>

#include "cpu/distance/distance_tile.h"

/* ternary-logic immediates on (a, b, c): 0xf0, 0xcc, 0xaa are a, b, c */
#define OR_AND 0xf8  /* a | (b & c) */
#define AND_OR 0xe0  /* a & (b | c) */
#define OR3 0xfe     /* a | b | c */

static inline __attribute__((always_inline)) void
block512(const uint64_t *const *x, int nr, const uint64_t *const *y, int nc, int64_t W,
         int64_t w0, int64_t nw, uint64_t *s)
{
    DPA_DIST_COUNT_SETUP
    __m512i acc[DPA_DIST_RB][CB][5];
    for (int i = 0; i < nr; i++)
        for (int j = 0; j < nc; j++)
            for (int k = 0; k < 5; k++) acc[i][j][k] = _mm512_setzero_si512();
    for (int64_t w = w0; w < w0 + nw; w += 8) {
        __m512i ai[DPA_DIST_RB], bi[DPA_DIST_RB], hi[DPA_DIST_RB], oi[DPA_DIST_RB];
        for (int i = 0; i < nr; i++) {
            ai[i] = _mm512_loadu_si512(x[i] + w), bi[i] = _mm512_loadu_si512(x[i] + W + w);
            hi[i] = _mm512_loadu_si512(x[i] + 2 * W + w);
            oi[i] = _mm512_or_si512(ai[i], bi[i]);
        }
        for (int j = 0; j < nc; j++) {
            const __m512i aj = _mm512_loadu_si512(y[j] + w), bj = _mm512_loadu_si512(y[j] + W + w);
            const __m512i hj = _mm512_loadu_si512(y[j] + 2 * W + w);
            const __m512i cj = _mm512_ternarylogic_epi64(aj, bj, hj, OR3);
            for (int i = 0; i < nr; i++) {
                __m512i *a = acc[i][j];
                /* het in i, hom in j: hi & (aj | bj) */
                const __m512i h1o2 = _mm512_ternarylogic_epi64(hi[i], aj, bj, AND_OR);
                /* called in both: cj & (oi | hi) */
                a[0] = DPA_DIST_COUNT_ADD(a[0], _mm512_ternarylogic_epi64(cj, oi[i], hi[i], AND_OR));
                /* opposite homozygotes: (ai & bj) | (bi & aj) */
                a[1] = DPA_DIST_COUNT_ADD(a[1], _mm512_ternarylogic_epi64(_mm512_and_si512(ai[i], bj),
                                                                          bi[i], aj, OR_AND));
                /* one het: (hi & oj) | (oi & hj) */
                a[2] = DPA_DIST_COUNT_ADD(a[2], _mm512_ternarylogic_epi64(h1o2, oi[i], hj, OR_AND));
                a[3] = DPA_DIST_COUNT_ADD(a[3], _mm512_and_si512(hi[i], hj));
                a[4] = DPA_DIST_COUNT_ADD(a[4], h1o2);
            }
        }
    }
    for (int i = 0; i < nr; i++)
        for (int j = 0; j < nc; j++)
            for (int k = 0; k < 5; k++) s[(i * nc + j) * 5 + k] = DPA_DIST_COUNT_FOLD(acc[i][j][k]);
}

#endif
