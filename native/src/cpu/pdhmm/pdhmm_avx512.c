/*
 * pdhmm_avx512.c — PDHMM on AVX-512 (F+DQ+VL): 8 pairs per vector of doubles. The kernel
 * is the shared template pdhmm_simd.h; this file binds its operations to AVX-512. Compiled
 * with the AVX-512 flags and -ffp-contract=off (native/CMakeLists.txt), never reached on
 * older CPUs.
 */
#include <immintrin.h>

#define PD_W 8
#define PD_FN(x) x##_avx512
#define PD_VEC __m512d
#define PD_IVEC __m512i
#define PD_MASK __mmask8
#define PD_MASK_BYTES 1
#define PD_LOAD(p) _mm512_loadu_pd(p)
#define PD_STORE(p, v) _mm512_storeu_pd((p), (v))
#define PD_SET1(x) _mm512_set1_pd(x)
#define PD_ADD(a, b) _mm512_add_pd((a), (b))
#define PD_MUL(a, b) _mm512_mul_pd((a), (b))
#define PD_MAX(a, b) _mm512_max_pd((a), (b))
#define PD_LOADI(p) _mm512_loadu_si512((const void *)(p))
#define PD_MASK_OF(p) _mm512_test_epi64_mask(PD_LOADI(p), PD_LOADI(p))
#define PD_BLEND(m, a, b) _mm512_mask_blend_pd((m), (a), (b))
#define PD_PRIOR(x, xb, y, ym, match, mismatch)                                             \
    _mm512_mask_blend_pd((__mmask8)(_mm512_cmpeq_epi64_mask((x), PD_LOADI(y)) |             \
                                    _mm512_test_epi64_mask((xb), PD_LOADI(ym))),            \
                         (mismatch), (match))
#define PD_SET1I(x) _mm512_set1_epi64(x)
#define PD_PRIOR_V(x, xb, y, ym, match, mismatch)                                           \
    _mm512_mask_blend_pd((__mmask8)(_mm512_cmpeq_epi64_mask((x), (y)) |                     \
                                    _mm512_test_epi64_mask((xb), (ym))),                    \
                         (mismatch), (match))

#include "cpu/pdhmm/pdhmm_simd.h"
