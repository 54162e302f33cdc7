/*
 * pairhmm_avx2.c — PairHMM forward on AVX2+FMA: 8 float / 4 double lanes.
 * The kernels are the shared template pairhmm_simd.h; this file only binds its vector
 * operations to AVX2 intrinsics. Compiled with -mavx2 -mfma -mbmi -mbmi2
 * (native/CMakeLists.txt), never reached on older CPUs.
 */
#include <immintrin.h>

#include "cpu/pairhmm/pairhmm_simd.h"

/* ---- float, 8 lanes ---- */
#define PH_T float
#define PH_CODE_T uint32_t
#define PH_VEC __m256
#define PH_CVEC __m256i
#define PH_W 8
#define PH_FN(x) x##_f32_avx2
#define PH_LOAD(p) _mm256_load_ps(p)
#define PH_STORE(p, v) _mm256_store_ps((p), (v))
#define PH_CLOAD(p) _mm256_load_si256((const __m256i *)(const void *)(p))
#define PH_CLOADU(p) _mm256_loadu_si256((const __m256i *)(const void *)(p))
#define PH_SET1(x) _mm256_set1_ps(x)
#define PH_ZERO() _mm256_setzero_ps()
#define PH_ADD(a, b) _mm256_add_ps((a), (b))
#define PH_MUL(a, b) _mm256_mul_ps((a), (b))
#define PH_FMA(a, b, c) _mm256_fmadd_ps((a), (b), (c))
/* (rc & hc) == 0 marks a mismatch: blendv takes px there */
#define PH_PRIOR(rc, hc, pm, px)                                                          \
    _mm256_blendv_ps((pm), (px),                                                          \
                     _mm256_castsi256_ps(_mm256_cmpeq_epi32(_mm256_and_si256((rc), (hc)), \
                                                            _mm256_setzero_si256())))
/* rotate lanes up by one (vpermps), then lane 0 <- *p */
#define PH_SHIFT_IN(v, p)                                                                 \
    _mm256_blend_ps(_mm256_permutevar8x32_ps((v), _mm256_setr_epi32(7, 0, 1, 2, 3, 4, 5, 6)), \
                    _mm256_broadcast_ss(p), 0x01)
#define PH_STORE_LAST(p, v) \
    _mm256_maskstore_ps((p) - 7, _mm256_setr_epi32(0, 0, 0, 0, 0, 0, 0, -1), (v))
#define PH_ADD_IF_LE(acc, v, a, b) \
    _mm256_add_ps((acc), _mm256_and_ps(_mm256_cmp_ps((a), (b), _CMP_LE_OQ), (v)))
#define PH_PART_KERNEL
#include "cpu/pairhmm/pairhmm_simd.h"
#include "cpu/pairhmm/pairhmm_simd_prefix.h"
#undef PH_PART_KERNEL
#include "cpu/pairhmm/pairhmm_simd_undef.h"

/* ---- double, 4 lanes ---- */
#define PH_T double
#define PH_CODE_T uint64_t
#define PH_VEC __m256d
#define PH_CVEC __m256i
#define PH_W 4
#define PH_FN(x) x##_f64_avx2
#define PH_LOAD(p) _mm256_load_pd(p)
#define PH_STORE(p, v) _mm256_store_pd((p), (v))
#define PH_CLOAD(p) _mm256_load_si256((const __m256i *)(const void *)(p))
#define PH_CLOADU(p) _mm256_loadu_si256((const __m256i *)(const void *)(p))
#define PH_SET1(x) _mm256_set1_pd(x)
#define PH_ZERO() _mm256_setzero_pd()
#define PH_ADD(a, b) _mm256_add_pd((a), (b))
#define PH_MUL(a, b) _mm256_mul_pd((a), (b))
#define PH_FMA(a, b, c) _mm256_fmadd_pd((a), (b), (c))
#define PH_PRIOR(rc, hc, pm, px)                                                          \
    _mm256_blendv_pd((pm), (px),                                                          \
                     _mm256_castsi256_pd(_mm256_cmpeq_epi64(_mm256_and_si256((rc), (hc)), \
                                                            _mm256_setzero_si256())))
#define PH_SHIFT_IN(v, p) \
    _mm256_blend_pd(_mm256_permute4x64_pd((v), _MM_SHUFFLE(2, 1, 0, 3)), _mm256_broadcast_sd(p), 0x1)
#define PH_STORE_LAST(p, v) \
    _mm256_maskstore_pd((p) - 3, _mm256_setr_epi64x(0, 0, 0, -1), (v))
#define PH_ADD_IF_LE(acc, v, a, b) \
    _mm256_add_pd((acc), _mm256_and_pd(_mm256_cmp_pd((a), (b), _CMP_LE_OQ), (v)))
#define PH_PART_KERNEL
#include "cpu/pairhmm/pairhmm_simd.h"
#include "cpu/pairhmm/pairhmm_simd_prefix.h"
#undef PH_PART_KERNEL

/* ---- entry ---- */
#define PH_ENTRY dpa_phmm_compute_avx2
#define PH_F32(x) x##_f32_avx2
#define PH_F64(x) x##_f64_avx2
#define PH_W32 8
#define PH_W64 4
#define PH_VBYTES 32
#define PH_PART_DRIVER
#include "cpu/pairhmm/pairhmm_simd.h"
#define PH_PREFIX_ENTRY dpa_phmm_compute_prefix_avx2
#include "cpu/pairhmm/pairhmm_simd_prefix.h"
