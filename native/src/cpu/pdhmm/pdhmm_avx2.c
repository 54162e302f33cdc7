/*
 * pdhmm_avx2.c — PDHMM on AVX2: 4 pairs per vector of doubles. The kernel is the shared
 * template pdhmm_simd.h; this file binds its operations to AVX2. Compiled with the AVX2
 * flags and -ffp-contract=off (native/CMakeLists.txt), never reached on older CPUs.
 */
#include <immintrin.h>

#define PD_W 4
#define PD_FN(x) x##_avx2
#define PD_VEC __m256d
#define PD_IVEC __m256i
#define PD_MASK __m256d
#define PD_LOAD(p) _mm256_loadu_pd(p)
#define PD_STORE(p, v) _mm256_storeu_pd((p), (v))
#define PD_SET1(x) _mm256_set1_pd(x)
#define PD_ADD(a, b) _mm256_add_pd((a), (b))
#define PD_MUL(a, b) _mm256_mul_pd((a), (b))
#define PD_MAX(a, b) _mm256_max_pd((a), (b))
#define PD_LOADI(p) _mm256_loadu_si256((const __m256i *)(p))
#define PD_MASK_OF(p) _mm256_castsi256_pd(PD_LOADI(p))
#define PD_BLEND(m, a, b) _mm256_blendv_pd((a), (b), (m))
#define PD_PRIOR(x, xb, y, ym, match, mismatch)                                             \
    _mm256_blendv_pd((mismatch), (match),                                                   \
                     _mm256_castsi256_pd(_mm256_or_si256(                                   \
                         _mm256_cmpeq_epi64((x), PD_LOADI(y)),                      \
                         _mm256_xor_si256(_mm256_cmpeq_epi64(_mm256_and_si256((xb), \
                                                                              PD_LOADI(ym)), \
                                                             _mm256_setzero_si256()),       \
                                          _mm256_set1_epi64x(-1)))))
#define PD_SET1I(x) _mm256_set1_epi64x(x)
#define PD_PRIOR_V(x, xb, y, ym, match, mismatch)                                           \
    _mm256_blendv_pd((mismatch), (match),                                                   \
                     _mm256_castsi256_pd(_mm256_or_si256(                                   \
                         _mm256_cmpeq_epi64((x), (y)),                                      \
                         _mm256_xor_si256(_mm256_cmpeq_epi64(_mm256_and_si256((xb), (ym)),  \
                                                             _mm256_setzero_si256()),       \
                                          _mm256_set1_epi64x(-1)))))

#include "cpu/pdhmm/pdhmm_simd.h"
