/*
 * sw_avx512.c — Smith-Waterman on AVX-512 machines. Pairs that fit int16 relative scores
 * (dpa_sw_rel16_fits: every GATK parameter set) go to the AVX2 16-bit fill
 * (sw_avx2_rel16.c), which is faster on this kind of CPU than the int32 AVX-512 fill
 * (docs/sw-simd.md, "AVX2: 16-bit lanes"); the rest to the fill here: 16 int32 lanes, strips of
 * 16 reference rows, traceback stored as the compare masks themselves (DPA_SW_TB_PLANES16).
 * That kernel is the shared template sw_simd.h; this file only binds its vector operations to
 * AVX-512 intrinsics. Compiled with -mavx512f -mavx512bw -mavx512dq
 * -mavx512vl (native/CMakeLists.txt), never reached on older CPUs.
 */
#include <immintrin.h>

#include "cpu/sw/sw_rel16.h"
#include "cpu/sw/sw_simd.h"

#define SW_W 16
#define SW_LOG2W 4
#define SW_TB_STEP 8
#define SW_TB_LAYOUT DPA_SW_TB_PLANES16
#define SW_VEC __m512i
#define SW_MASK __mmask16
#define SW_BYTES __m128i
#define SW_FN(x) x##_avx512
#define SW_ALIGN dpa_sw_align_avx512_i32
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

dpa_status dpa_sw_align_avx512(const uint8_t *ref, int32_t n, const uint8_t *alt, int32_t m,
                               const dpa_sw_params *p, dpa_sw_scratch *s, char *cigar,
                               int32_t *cigar_len, int32_t *alignment_offset, int *exact)
{
#ifdef DPA_HAVE_AVX2
    if (dpa_sw_rel16_fits(p, n, m))
        return dpa_sw_align_avx2_rel16(ref, n, alt, m, p, s, cigar, cigar_len, alignment_offset,
                                       exact);
#endif
    return dpa_sw_align_avx512_i32(ref, n, alt, m, p, s, cigar, cigar_len, alignment_offset,
                                   exact);
}

dpa_status dpa_sw_compute_avx512(const dpa_sw_batch *b, const dpa_sw_params *p,
                                 const int32_t *pairs, int64_t n, const dpa_sw_out *out,
                                 int64_t *exact_matches)
{
    return dpa_sw_compute_pairs(dpa_sw_align_avx512, b, p, pairs, n, out, exact_matches);
}
