/*
 * sw_avx512.c — Smith-Waterman fill on AVX-512 (F+BW+VL): 16 int32 lanes, strips of 16
 * reference rows, traceback stored as the compare masks themselves (DPA_SW_TB_PLANES16). The kernel is the shared template sw_simd.h; this file only binds its
 * vector operations to AVX-512 intrinsics. Compiled with -mavx512f -mavx512bw -mavx512dq
 * -mavx512vl (native/CMakeLists.txt), never reached on older CPUs.
 */
#include <immintrin.h>

#include "cpu/sw/sw_simd.h"

#define SW_W 16
#define SW_LOG2W 4
#define SW_TB_STEP 8
#define SW_TB_LAYOUT DPA_SW_TB_PLANES16
#define SW_VEC __m512i
#define SW_MASK __mmask16
#define SW_BYTES __m128i
#define SW_FN(x) x##_avx512
#define SW_ALIGN dpa_sw_align_avx512
#define SW_COMPUTE dpa_sw_compute_avx512
#define SW_CONSTS do {} while (0)
#define SW_SET1(x) _mm512_set1_epi32(x)
#define SW_LOADU(p) _mm512_loadu_si512((const void *)(p))
#define SW_LOAD_BYTES(p) _mm_loadu_si128((const __m128i *)(const void *)(p))
#define SW_ADD(a, b) _mm512_add_epi32((a), (b))
#define SW_MAX(a, b) _mm512_max_epi32((a), (b))
#define SW_GT(a, b) _mm512_cmpgt_epi32_mask((a), (b))
#define SW_BLEND(k, a, b) _mm512_mask_blend_epi32((k), (b), (a))
#define SW_SCORE(rb, p, vm, vx) \
    _mm512_mask_blend_epi32(_mm_cmpeq_epi8_mask((rb), SW_LOAD_BYTES(p)), (vx), (vm))
/* valignd: lane 0 <- window lane 15 (= *p), lanes 1..15 <- v lanes 0..14 */
#define SW_SHIFT_IN(v, p) _mm512_alignr_epi32((v), SW_LOADU((p) - 15), 15)
#define SW_STORE_LANE(p, v, k) _mm512_mask_storeu_epi32((p), (__mmask16)(1u << (k)), (v))
#define SW_STARTED(t) ((__mmask16)((2u << (t)) - 1u))
/* The four masks stored as they are: kmovw m16, k is a store with no vector ALU uop. Written
 * in asm because GCC otherwise merges the four 16-bit stores into one 64-bit store built with
 * kmov-to-GPR, shifts and ors (4 more port-0 uops per step). */
#define SW_KSTORE(p, k) __asm__("kmovw %1, %0" : "=m"(*(p)) : "k"(k))
#define SW_STORE_TB(p, nd, dn, ho, vo)                                                       \
    do {                                                                                     \
        uint16_t *w_ = (uint16_t *)(void *)(p);                                              \
        SW_KSTORE(w_, (nd));                                                                 \
        SW_KSTORE(w_ + 1, (__mmask16)((nd) & (dn)));                                         \
        SW_KSTORE(w_ + 2, (ho));                                                             \
        SW_KSTORE(w_ + 3, (vo));                                                             \
    } while (0)
#define SW_PART_KERNEL
#include "cpu/sw/sw_simd.h"
