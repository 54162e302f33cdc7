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
#define COLB DPA_PAPARA_COLB
#define FN dpa_papara_block_avx512
#define ROW_ONE papara_row_avx512
#define FN12 dpa_papara_block_paper2012_avx512
#define ROW12 papara_row12_avx512

#include "cpu/papara/papara_simd.h"
#include "cpu/papara/papara_paper2012_simd.h"
