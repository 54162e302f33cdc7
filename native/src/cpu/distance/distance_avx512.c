/*
 * distance_avx512.c — the plane kernel on 512-bit vectors (8 words = 512 variants a step),
 * with the project's avx512 bundle only (F+BW+DQ+VL; VPOPCNTQ is not in it): popcount by
 * nibble lookup (VPSHUFB on zmm, BW) into byte counters, at most 8 per byte a step, so a
 * block of 16 steps (128 words) stays below 256; VPSADBW folds once per block. The four-input
 * combinations are single VPTERNLOGQ.
 */
#include <immintrin.h>

#include "cpu/distance/distance_tile.h"

#define BLOCK_WORDS 128
#ifndef CB
#define CB 2  /* columns of a register block (x DPA_DIST_RB rows) */
#endif

static inline __m512i popcnt8(__m512i v, __m512i lut, __m512i low)
{
    const __m512i lo = _mm512_and_si512(v, low);
    const __m512i hi = _mm512_and_si512(_mm512_srli_epi16(v, 4), low);
    return _mm512_add_epi8(_mm512_shuffle_epi8(lut, lo), _mm512_shuffle_epi8(lut, hi));
}

static inline uint64_t fold(__m512i bytes)
{
    return (uint64_t)_mm512_reduce_add_epi64(_mm512_sad_epu8(bytes, _mm512_setzero_si512()));
}

/* ternary-logic immediates on (a, b, c): 0xf0, 0xcc, 0xaa are a, b, c */
#define OR_AND 0xf8  /* a | (b & c) */
#define AND_OR 0xe0  /* a & (b | c) */
#define OR3 0xfe     /* a | b | c */

/* Byte counters of nr x nc pairs (constants at each use). Per step a row contributes A, B,
 * H and O = A|B, a column A, B, H and C = A|B|H, loaded and derived once per block. */
static inline __attribute__((always_inline)) void
block_avx512(const uint64_t *const *x, int nr, const uint64_t *const *y, int nc, int64_t W,
             int64_t w0, int64_t nw, uint64_t *s)
{
    const __m512i lut = _mm512_broadcast_i32x4(_mm_setr_epi8(0, 1, 1, 2, 1, 2, 2, 3, 1, 2, 2, 3,
                                                             2, 3, 3, 4));
    const __m512i low = _mm512_set1_epi8(0x0f);
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
                a[0] = _mm512_add_epi8(a[0], popcnt8(_mm512_ternarylogic_epi64(cj, oi[i], hi[i], AND_OR),
                                                     lut, low));
                /* opposite homozygotes: (ai & bj) | (bi & aj) */
                a[1] = _mm512_add_epi8(a[1], popcnt8(_mm512_ternarylogic_epi64(
                                                         _mm512_and_si512(ai[i], bj), bi[i], aj, OR_AND),
                                                     lut, low));
                /* one het: (hi & oj) | (oi & hj) */
                a[2] = _mm512_add_epi8(a[2], popcnt8(_mm512_ternarylogic_epi64(h1o2, oi[i], hj, OR_AND),
                                                     lut, low));
                a[3] = _mm512_add_epi8(a[3], popcnt8(_mm512_and_si512(hi[i], hj), lut, low));
                a[4] = _mm512_add_epi8(a[4], popcnt8(h1o2, lut, low));
            }
        }
    }
    for (int i = 0; i < nr; i++)
        for (int j = 0; j < nc; j++)
            for (int k = 0; k < 5; k++) s[(i * nc + j) * 5 + k] = fold(acc[i][j][k]);
}

static void pair_avx512(const uint64_t *const *x, const uint64_t *const *y, int64_t W, int64_t w0,
                        int64_t nw, uint64_t *s)
{
    block_avx512(x, 1, y, 1, W, w0, nw, s);
}

static void block2_avx512(const uint64_t *const *x, const uint64_t *const *y, int64_t W,
                          int64_t w0, int64_t nw, uint64_t *s)
{
    block_avx512(x, DPA_DIST_RB, y, CB, W, w0, nw, s);
}

void dpa_dist_tile_avx512(const dpa_dist_planes *p, int32_t r0, int32_t r1, int32_t c0,
                          int32_t c1, int upper, const int64_t *row_base, uint32_t *out)
{
    dpa_dist_tile_run(p, r0, r1, c0, c1, upper, row_base, out, pair_avx512, block2_avx512, CB,
                      BLOCK_WORDS);
}
