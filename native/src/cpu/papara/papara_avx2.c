/*
 * papara_avx2.c — PaPaRa scoring, 16 profiles per AVX2 vector (papara_simd.h), and the 2012
 * paper's model the same way (papara_paper2012_simd.h).
 * Compiled with -mavx2 alone; reached only through dpa_papara_select.
 */
#include <immintrin.h>

#include "cpu/papara/papara.h"

#define VEC __m256i
#define W 16
#define SET1(x) _mm256_set1_epi16(x)
#define LOAD(p) _mm256_loadu_si256((const __m256i *)(const void *)(p))
#define STORE(p, v) _mm256_storeu_si256((__m256i *)(void *)(p), (v))
#define ADDS(a, b) _mm256_adds_epi16((a), (b))
#define MAX(a, b) _mm256_max_epi16((a), (b))
#define MIN(a, b) _mm256_min_epi16((a), (b))
#define SUBS(a, b) _mm256_subs_epi16((a), (b))
#define COLB DPA_PAPARA_COLB
/* three rows a sweep: with four, 16 ymm registers hold the rows' S but not their SL, which
 * went through the stack every step (5-7% slower on the Zen 4 VM) */
#define SWEEP 3
#define FN dpa_papara_block_avx2
#define ROW_ONE papara_row_avx2
#define FN12 dpa_papara_block_paper2012_avx2
#define ROW12 papara_row12_avx2

#include "cpu/papara/papara_simd.h"
#include "cpu/papara/papara_paper2012_simd.h"

/* int32 lanes for the reads beyond the int16 bound (8 profiles per vector): the same body
 * over each half of a block, reading the block's int16 cost layout with widening loads. */
#undef W
#undef SET1
#undef ADDS
#undef SUBS
#undef MAX
#undef FN
#undef ROW_ONE
#define W 8
#define LW 16
#define LANE_T int32_t
#define NEG_INF (-(1 << 30))
#define SET1(x) _mm256_set1_epi32(x)
#define ADDS(a, b) _mm256_add_epi32((a), (b))
#define SUBS(a, b) _mm256_sub_epi32((a), (b))
#define MAX(a, b) _mm256_max_epi32((a), (b))
#define LOADC(p) _mm256_cvtepi16_epi32(_mm_loadu_si128((const __m128i *)(const void *)(p)))
#define FN dpa_papara_half32_avx2
#define ROW_ONE papara_row32_avx2

void dpa_papara_half32_avx2(const dpa_papara_block *blk, int64_t num_sites, const uint8_t *read,
                            int32_t read_length, const dpa_papara_params *p, int16_t *scratch,
                            int32_t *out);

#include "cpu/papara/papara_simd.h"

void dpa_papara_block32_avx2(const dpa_papara_block *blk, int64_t num_sites, const uint8_t *read,
                             int32_t read_length, const dpa_papara_params *p, int16_t *scratch,
                             int32_t *out)
{
    dpa_papara_run_halves(dpa_papara_half32_avx2, W, blk, num_sites, read, read_length, p, scratch, out);
}

/* The paper2012 model in int32 lanes, the same way (papara_simd.h's instance above undefined
 * LANE_T, LW and LOADC). */
#undef MIN
#define MIN(a, b) _mm256_min_epi32((a), (b))
#define LANE_T int32_t
#define LW 16
#define LOADC(p) _mm256_cvtepi16_epi32(_mm_loadu_si128((const __m128i *)(const void *)(p)))
#undef FN12
#undef ROW12
#define FN12 dpa_papara_half2012_32_avx2
#define ROW12 papara_row12_32_avx2

void dpa_papara_half2012_32_avx2(const dpa_papara_block *blk, int64_t num_sites,
                                 const uint8_t *read, int32_t read_length,
                                 const dpa_papara_params *p, int16_t *scratch, int32_t *out);

#include "cpu/papara/papara_paper2012_simd.h"

void dpa_papara_block2012_32_avx2(const dpa_papara_block *blk, int64_t num_sites,
                                  const uint8_t *read, int32_t read_length,
                                  const dpa_papara_params *p, int16_t *scratch, int32_t *out)
{
    dpa_papara_run_halves(dpa_papara_half2012_32_avx2, W, blk, num_sites, read, read_length, p, scratch, out);
}
