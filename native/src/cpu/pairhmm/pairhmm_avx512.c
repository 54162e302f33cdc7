/*
 * pairhmm_avx512.c — PairHMM forward on AVX-512 (F+BW+DQ+VL): 16 float / 8 double lanes.
 * The kernels are the shared template pairhmm_simd.h; this file only binds its vector
 * operations to AVX-512 intrinsics. Compiled with -mavx512f -mavx512bw -mavx512dq
 * -mavx512vl -mfma -mbmi -mbmi2 (native/CMakeLists.txt), never reached on older CPUs.
 */
#include <immintrin.h>

#include "cpu/pairhmm/pairhmm_simd.h"

/* ---- float, 16 lanes ---- */
#define PH_T float
#define PH_CODE_T uint32_t
#define PH_VEC __m512
#define PH_CVEC __m512i
#define PH_W 16
#define PH_FN(x) x##_f32_avx512
#define PH_LOAD(p) _mm512_load_ps(p)
#define PH_STORE(p, v) _mm512_store_ps((p), (v))
#define PH_CLOAD(p) _mm512_load_si512((const void *)(p))
#define PH_CLOADU(p) _mm512_loadu_si512((const void *)(p))
#define PH_SET1(x) _mm512_set1_ps(x)
#define PH_ZERO() _mm512_setzero_ps()
#define PH_ADD(a, b) _mm512_add_ps((a), (b))
#define PH_MUL(a, b) _mm512_mul_ps((a), (b))
#define PH_FMA(a, b, c) _mm512_fmadd_ps((a), (b), (c))
#define PH_PRIOR(rc, hc, pm, px) _mm512_mask_blend_ps(_mm512_test_epi32_mask((rc), (hc)), (px), (pm))
/* valignd: lane 0 <- window lane 15 (= *p), lanes 1..15 <- v lanes 0..14 */
#define PH_SHIFT_IN(v, p)                                                                 \
    _mm512_castsi512_ps(_mm512_alignr_epi32(_mm512_castps_si512(v),                       \
                                            _mm512_castps_si512(_mm512_loadu_ps((p) - 15)), 15))
#define PH_STORE_LAST(p, v) _mm512_mask_storeu_ps((p) - 15, (__mmask16)0x8000, (v))
#define PH_ADD_IF_LE(acc, v, a, b) \
    _mm512_mask_add_ps((acc), _mm512_cmp_ps_mask((a), (b), _CMP_LE_OQ), (acc), (v))
#define PH_PART_KERNEL
#include "cpu/pairhmm/pairhmm_simd.h"
#include "cpu/pairhmm/pairhmm_simd_prefix.h"
#undef PH_PART_KERNEL
#include "cpu/pairhmm/pairhmm_simd_undef.h"

/* ---- double, 8 lanes ---- */
#define PH_T double
#define PH_CODE_T uint64_t
#define PH_VEC __m512d
#define PH_CVEC __m512i
#define PH_W 8
#define PH_FN(x) x##_f64_avx512
#define PH_LOAD(p) _mm512_load_pd(p)
#define PH_STORE(p, v) _mm512_store_pd((p), (v))
#define PH_CLOAD(p) _mm512_load_si512((const void *)(p))
#define PH_CLOADU(p) _mm512_loadu_si512((const void *)(p))
#define PH_SET1(x) _mm512_set1_pd(x)
#define PH_ZERO() _mm512_setzero_pd()
#define PH_ADD(a, b) _mm512_add_pd((a), (b))
#define PH_MUL(a, b) _mm512_mul_pd((a), (b))
#define PH_FMA(a, b, c) _mm512_fmadd_pd((a), (b), (c))
#define PH_PRIOR(rc, hc, pm, px) _mm512_mask_blend_pd(_mm512_test_epi64_mask((rc), (hc)), (px), (pm))
#define PH_SHIFT_IN(v, p)                                                                 \
    _mm512_castsi512_pd(_mm512_alignr_epi64(_mm512_castpd_si512(v),                       \
                                            _mm512_castpd_si512(_mm512_loadu_pd((p) - 7)), 7))
#define PH_STORE_LAST(p, v) _mm512_mask_storeu_pd((p) - 7, (__mmask8)0x80, (v))
#define PH_ADD_IF_LE(acc, v, a, b) \
    _mm512_mask_add_pd((acc), _mm512_cmp_pd_mask((a), (b), _CMP_LE_OQ), (acc), (v))
#define PH_PART_KERNEL
#include "cpu/pairhmm/pairhmm_simd.h"
#include "cpu/pairhmm/pairhmm_simd_prefix.h"
#undef PH_PART_KERNEL

/* ---- entry ---- */
#define PH_ENTRY dpa_phmm_compute_avx512
#define PH_F32(x) x##_f32_avx512
#define PH_F64(x) x##_f64_avx512
#define PH_W32 16
#define PH_W64 8
#define PH_VBYTES 64
#define PH_PART_DRIVER
#include "cpu/pairhmm/pairhmm_simd.h"
#define PH_PREFIX_ENTRY dpa_phmm_compute_prefix_avx512
#include "cpu/pairhmm/pairhmm_simd_prefix.h"
