/*
 * distance_avx512.c — the plane kernel on 512-bit vectors (8 words = 512 variants a step),
 * with the project's avx512 bundle only (F+BW+DQ+VL; VPOPCNTQ is not in it): popcount by
 * nibble lookup (VPSHUFB on zmm, BW) into byte counters, at most 8 per byte a step, so a
 * block of 16 steps (128 words) stays below 256; VPSADBW folds once per block. The register
 * block is distance_avx512_block.h's, shared with the VPOPCNTQ kernel.
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

#define DPA_DIST_COUNT_SETUP                                                                      \
    const __m512i lut = _mm512_broadcast_i32x4(_mm_setr_epi8(0, 1, 1, 2, 1, 2, 2, 3, 1, 2, 2, 3,   \
                                                             2, 3, 3, 4));                        \
    const __m512i low = _mm512_set1_epi8(0x0f);
#define DPA_DIST_COUNT_ADD(a, v) _mm512_add_epi8((a), popcnt8((v), lut, low))
#define DPA_DIST_COUNT_FOLD(a) fold(a)
#include "cpu/distance/distance_avx512_block.h"

DPA_DIST_TILE_KERNEL(dpa_dist_tile_avx512, block512, CB, BLOCK_WORDS)
