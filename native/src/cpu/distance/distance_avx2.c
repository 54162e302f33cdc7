/*
 * distance_avx2.c — the plane kernel on 256-bit vectors (4 words = 256 variants a step).
 * Popcount by nibble lookup (VPSHUFB) into byte counters: a step adds at most 8 to a byte, so
 * a block of 16 steps (64 words) stays below 256; VPSADBW then folds the bytes into 64-bit
 * lanes once per block.
 */
#include <immintrin.h>

#include "cpu/distance/distance_tile.h"

#define BLOCK_WORDS 64

static inline __m256i popcnt8(__m256i v, __m256i lut, __m256i low)
{
    const __m256i lo = _mm256_and_si256(v, low);
    const __m256i hi = _mm256_and_si256(_mm256_srli_epi16(v, 4), low);
    return _mm256_add_epi8(_mm256_shuffle_epi8(lut, lo), _mm256_shuffle_epi8(lut, hi));
}

static inline uint64_t fold(__m256i bytes)
{
    const __m256i q = _mm256_sad_epu8(bytes, _mm256_setzero_si256());
    const __m128i h = _mm_add_epi64(_mm256_castsi256_si128(q), _mm256_extracti128_si256(q, 1));
    return (uint64_t)_mm_cvtsi128_si64(h) + (uint64_t)_mm_extract_epi64(h, 1);
}

static void pair_avx2(const uint64_t *x, const uint64_t *y, int64_t W, int64_t w0, int64_t nw,
                      uint64_t s[5])
{
    const __m256i lut = _mm256_setr_epi8(0, 1, 1, 2, 1, 2, 2, 3, 1, 2, 2, 3, 2, 3, 3, 4,
                                         0, 1, 1, 2, 1, 2, 2, 3, 1, 2, 2, 3, 2, 3, 3, 4);
    const __m256i low = _mm256_set1_epi8(0x0f);
    /* byte counters of NSNP, IBS0, IBS1, HETHET, HET1_HOM2 */
    __m256i n = _mm256_setzero_si256(), i0 = n, i1 = n, hh = n, ho = n;
    for (int64_t w = w0; w < w0 + nw; w += 4) {
        const __m256i ai = _mm256_loadu_si256((const __m256i *)(x + w));
        const __m256i bi = _mm256_loadu_si256((const __m256i *)(x + W + w));
        const __m256i hi = _mm256_loadu_si256((const __m256i *)(x + 2 * W + w));
        const __m256i aj = _mm256_loadu_si256((const __m256i *)(y + w));
        const __m256i bj = _mm256_loadu_si256((const __m256i *)(y + W + w));
        const __m256i hj = _mm256_loadu_si256((const __m256i *)(y + 2 * W + w));
        const __m256i oi = _mm256_or_si256(ai, bi), oj = _mm256_or_si256(aj, bj);
        const __m256i h1o2 = _mm256_and_si256(hi, oj);
        n = _mm256_add_epi8(n, popcnt8(_mm256_and_si256(_mm256_or_si256(oi, hi),
                                                        _mm256_or_si256(oj, hj)), lut, low));
        i0 = _mm256_add_epi8(i0, popcnt8(_mm256_or_si256(_mm256_and_si256(ai, bj),
                                                         _mm256_and_si256(bi, aj)), lut, low));
        i1 = _mm256_add_epi8(i1, popcnt8(_mm256_or_si256(h1o2, _mm256_and_si256(oi, hj)), lut, low));
        hh = _mm256_add_epi8(hh, popcnt8(_mm256_and_si256(hi, hj), lut, low));
        ho = _mm256_add_epi8(ho, popcnt8(h1o2, lut, low));
    }
    s[0] = fold(n), s[1] = fold(i0), s[2] = fold(i1), s[3] = fold(hh), s[4] = fold(ho);
}

void dpa_dist_tile_avx2(const dpa_dist_planes *p, int32_t r0, int32_t r1, int32_t c0, int32_t c1,
                        int upper, const int64_t *row_base, uint32_t *out)
{
    dpa_dist_tile_run(p, r0, r1, c0, c1, upper, row_base, out, pair_avx2, BLOCK_WORDS);
}
