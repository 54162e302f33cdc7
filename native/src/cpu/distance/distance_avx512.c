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

static void pair_avx512(const uint64_t *x, const uint64_t *y, int64_t W, int64_t w0, int64_t nw,
                        uint64_t s[5])
{
    const __m512i lut = _mm512_broadcast_i32x4(_mm_setr_epi8(0, 1, 1, 2, 1, 2, 2, 3, 1, 2, 2, 3,
                                                             2, 3, 3, 4));
    const __m512i low = _mm512_set1_epi8(0x0f);
    __m512i n = _mm512_setzero_si512(), i0 = n, i1 = n, hh = n, ho = n;
    for (int64_t w = w0; w < w0 + nw; w += 8) {
        const __m512i ai = _mm512_loadu_si512(x + w), bi = _mm512_loadu_si512(x + W + w);
        const __m512i hi = _mm512_loadu_si512(x + 2 * W + w);
        const __m512i aj = _mm512_loadu_si512(y + w), bj = _mm512_loadu_si512(y + W + w);
        const __m512i hj = _mm512_loadu_si512(y + 2 * W + w);
        const __m512i oi = _mm512_or_si512(ai, bi), oj = _mm512_or_si512(aj, bj);
        const __m512i ci = _mm512_or_si512(oi, hi);
        const __m512i h1o2 = _mm512_and_si512(hi, oj);
        /* called in both: ci & (oj | hj) */
        n = _mm512_add_epi8(n, popcnt8(_mm512_ternarylogic_epi64(ci, oj, hj, AND_OR), lut, low));
        /* opposite homozygotes: (ai & bj) | (bi & aj) */
        i0 = _mm512_add_epi8(i0, popcnt8(_mm512_ternarylogic_epi64(_mm512_and_si512(ai, bj), bi, aj,
                                                                   OR_AND), lut, low));
        /* one het: (hi & oj) | (oi & hj) */
        i1 = _mm512_add_epi8(i1, popcnt8(_mm512_ternarylogic_epi64(h1o2, oi, hj, OR_AND), lut, low));
        hh = _mm512_add_epi8(hh, popcnt8(_mm512_and_si512(hi, hj), lut, low));
        ho = _mm512_add_epi8(ho, popcnt8(h1o2, lut, low));
    }
    s[0] = fold(n), s[1] = fold(i0), s[2] = fold(i1), s[3] = fold(hh), s[4] = fold(ho);
}

void dpa_dist_tile_avx512(const dpa_dist_planes *p, int32_t r0, int32_t r1, int32_t c0,
                          int32_t c1, int upper, const int64_t *row_base, uint32_t *out)
{
    dpa_dist_tile_run(p, r0, r1, c0, c1, upper, row_base, out, pair_avx512, BLOCK_WORDS);
}
