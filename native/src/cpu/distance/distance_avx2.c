/*
 * distance_avx2.c — the plane kernel on 256-bit vectors (4 words = 256 variants a step).
 * Popcount by nibble lookup (VPSHUFB) into byte counters: a step adds at most 8 to a byte, so
 * a block of 16 steps (64 words) stays below 256; VPSADBW then folds the bytes into 64-bit
 * lanes once per block.
 */
#include <immintrin.h>

#include "cpu/distance/distance_tile.h"

#define BLOCK_WORDS 64
#ifndef CB
#define CB 2  /* columns of a register block (x DPA_DIST_RB rows) */
#endif

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

/* Byte counters of nr x nc pairs (constants at each use). Per step a row contributes A, B,
 * H and O = A|B, a column A, B, H, O and C = O|H, loaded and derived once per block. */
static inline __attribute__((always_inline)) void
block_avx2(const uint64_t *const *x, int nr, const uint64_t *const *y, int nc, int64_t W,
           int64_t w0, int64_t nw, uint64_t *s)
{
    const __m256i lut = _mm256_setr_epi8(0, 1, 1, 2, 1, 2, 2, 3, 1, 2, 2, 3, 2, 3, 3, 4,
                                         0, 1, 1, 2, 1, 2, 2, 3, 1, 2, 2, 3, 2, 3, 3, 4);
    const __m256i low = _mm256_set1_epi8(0x0f);
    /* byte counters of NSNP, IBS0, IBS1, HETHET, HET1_HOM2 */
    __m256i acc[DPA_DIST_RB][CB][5];
    for (int i = 0; i < nr; i++)
        for (int j = 0; j < nc; j++)
            for (int k = 0; k < 5; k++) acc[i][j][k] = _mm256_setzero_si256();
    for (int64_t w = w0; w < w0 + nw; w += 4) {
        __m256i ai[DPA_DIST_RB], bi[DPA_DIST_RB], hi[DPA_DIST_RB], oi[DPA_DIST_RB];
        for (int i = 0; i < nr; i++) {
            ai[i] = _mm256_loadu_si256((const __m256i *)(x[i] + w));
            bi[i] = _mm256_loadu_si256((const __m256i *)(x[i] + W + w));
            hi[i] = _mm256_loadu_si256((const __m256i *)(x[i] + 2 * W + w));
            oi[i] = _mm256_or_si256(ai[i], bi[i]);
        }
        for (int j = 0; j < nc; j++) {
            const __m256i aj = _mm256_loadu_si256((const __m256i *)(y[j] + w));
            const __m256i bj = _mm256_loadu_si256((const __m256i *)(y[j] + W + w));
            const __m256i hj = _mm256_loadu_si256((const __m256i *)(y[j] + 2 * W + w));
            const __m256i oj = _mm256_or_si256(aj, bj), cj = _mm256_or_si256(oj, hj);
            for (int i = 0; i < nr; i++) {
                __m256i *a = acc[i][j];
                const __m256i h1o2 = _mm256_and_si256(hi[i], oj);
                a[0] = _mm256_add_epi8(a[0], popcnt8(_mm256_and_si256(_mm256_or_si256(oi[i], hi[i]),
                                                                       cj), lut, low));
                a[1] = _mm256_add_epi8(a[1], popcnt8(_mm256_or_si256(_mm256_and_si256(ai[i], bj),
                                                                     _mm256_and_si256(bi[i], aj)),
                                                     lut, low));
                a[2] = _mm256_add_epi8(a[2], popcnt8(_mm256_or_si256(h1o2, _mm256_and_si256(oi[i], hj)),
                                                     lut, low));
                a[3] = _mm256_add_epi8(a[3], popcnt8(_mm256_and_si256(hi[i], hj), lut, low));
                a[4] = _mm256_add_epi8(a[4], popcnt8(h1o2, lut, low));
            }
        }
    }
    for (int i = 0; i < nr; i++)
        for (int j = 0; j < nc; j++)
            for (int k = 0; k < 5; k++) s[(i * nc + j) * 5 + k] = fold(acc[i][j][k]);
}

DPA_DIST_TILE_KERNEL(dpa_dist_tile_avx2, block_avx2, CB, BLOCK_WORDS)
