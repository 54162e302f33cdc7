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
#define COLB DPA_PAPARA_COLB
#define FN dpa_papara_block_avx2
#define ROW_ONE papara_row_avx2
#define FN12 dpa_papara_block_paper2012_avx2
#define ROW12 papara_row12_avx2

#include "cpu/papara/papara_simd.h"
#include "cpu/papara/papara_paper2012_simd.h"
