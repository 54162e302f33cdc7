/*
 * papara_avx512.c — PaPaRa scoring, 32 profiles per AVX-512BW vector (papara_simd.h), and the 2012
 * paper's model the same way (papara_paper2012_simd.h).
 * Compiled with the avx512 bundle's flags alone; reached only through dpa_papara_select.
 */
#include <immintrin.h>

#include "cpu/papara/papara.h"

#define VEC __m512i
#define W 32
#define SET1(x) _mm512_set1_epi16(x)
#define LOAD(p) _mm512_loadu_si512((const void *)(p))
#define STORE(p, v) _mm512_storeu_si512((void *)(p), (v))
#define ADDS(a, b) _mm512_adds_epi16((a), (b))
#define MAX(a, b) _mm512_max_epi16((a), (b))
#define MIN(a, b) _mm512_min_epi16((a), (b))
#define SUBS(a, b) _mm512_subs_epi16((a), (b))
#define COLB DPA_PAPARA_COLB
#define FN dpa_papara_block_avx512
#define ROW_ONE papara_row_avx512
#define FN12 dpa_papara_block_paper2012_avx512
#define ROW12 papara_row12_avx512

#include "cpu/papara/papara_simd.h"
#include "cpu/papara/papara_paper2012_simd.h"

/* int32 lanes for the reads beyond the int16 bound (16 profiles per vector): the same body
 * over each half of a block, reading the block's int16 cost layout with widening loads. */
#undef W
#undef SET1
#undef ADDS
#undef SUBS
#undef MAX
#undef FN
#undef ROW_ONE
#define W 16
#define LW 32
#define LANE_T int32_t
#define NEG_INF (-(1 << 30))
#define SET1(x) _mm512_set1_epi32(x)
#define ADDS(a, b) _mm512_add_epi32((a), (b))
#define SUBS(a, b) _mm512_sub_epi32((a), (b))
#define MAX(a, b) _mm512_max_epi32((a), (b))
#define LOADC(p) _mm512_cvtepi16_epi32(_mm256_loadu_si256((const __m256i *)(const void *)(p)))
#define FN dpa_papara_half32_avx512
#define ROW_ONE papara_row32_avx512

void dpa_papara_half32_avx512(const dpa_papara_block *blk, int64_t num_sites, const uint8_t *read,
                              int32_t read_length, const dpa_papara_params *p, int16_t *scratch,
                              int32_t *out);

#include "cpu/papara/papara_simd.h"

void dpa_papara_block32_avx512(const dpa_papara_block *blk, int64_t num_sites, const uint8_t *read,
                               int32_t read_length, const dpa_papara_params *p, int16_t *scratch,
                               int32_t *out)
{
    dpa_papara_run_halves(dpa_papara_half32_avx512, W, blk, num_sites, read, read_length, p, scratch, out);
}

/* The paper2012 model in int32 lanes, the same way (papara_simd.h's instance above undefined
 * LANE_T, LW and LOADC). */
#undef MIN
#define MIN(a, b) _mm512_min_epi32((a), (b))
#define LANE_T int32_t
#define LW 32
#define LOADC(p) _mm512_cvtepi16_epi32(_mm256_loadu_si256((const __m256i *)(const void *)(p)))
#undef FN12
#undef ROW12
#define FN12 dpa_papara_half2012_32_avx512
#define ROW12 papara_row12_32_avx512

void dpa_papara_half2012_32_avx512(const dpa_papara_block *blk, int64_t num_sites,
                                   const uint8_t *read, int32_t read_length,
                                   const dpa_papara_params *p, int16_t *scratch, int32_t *out);

#include "cpu/papara/papara_paper2012_simd.h"

void dpa_papara_block2012_32_avx512(const dpa_papara_block *blk, int64_t num_sites,
                                    const uint8_t *read, int32_t read_length,
                                    const dpa_papara_params *p, int16_t *scratch, int32_t *out)
{
    dpa_papara_run_halves(dpa_papara_half2012_32_avx512, W, blk, num_sites, read, read_length, p, scratch, out);
}
