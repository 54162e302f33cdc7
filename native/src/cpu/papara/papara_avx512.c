/*
 * papara_avx512.c — PaPaRa scoring, 32 profiles per AVX-512BW vector (papara_simd.h).
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
#define AND(a, b) _mm512_and_si512((a), (b))
#define ANDNOT(a, b) _mm512_andnot_si512((a), (b))
#define MATCHSEL(ac, bv, mv) _mm512_maskz_mov_epi16(_mm512_test_epi16_mask((ac), (bv)), (mv))
#define COLB DPA_PAPARA_COLB
#define FN dpa_papara_block_avx512

#include "cpu/papara/papara_simd.h"
