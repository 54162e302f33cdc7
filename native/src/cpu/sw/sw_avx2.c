/*
 * sw_avx2.c — Smith-Waterman on AVX2. Each pair goes to the 16-bit fill (sw_avx2_rel16.c)
 * when dpa_sw_rel16_fits() says its relative scores fit int16 (every GATK parameter set, any
 * length), else to the int32 fill here: 8 int32 lanes, strips of 8 reference rows. That
 * kernel is the shared template sw_simd.h; this file only binds its vector operations to
 * AVX2 intrinsics (masks are all-ones / zero int32 lanes). Compiled with -mavx2 -mfma -mbmi
 * -mbmi2 (native/CMakeLists.txt), never reached on older CPUs.
 */
#include <immintrin.h>

#include "cpu/sw/sw_rel16.h"
#include "cpu/sw/sw_simd.h"

#define SW_W 8
#define SW_LOG2W 3
#define SW_TB_STEP 8
#define SW_TB_LAYOUT 3 /* bytes in 8-row strips */
#define SW_VEC __m256i
#define SW_MASK __m256i
#define SW_BYTES __m128i
#define SW_FN(x) x##_avx2
#define SW_ALIGN dpa_sw_align_avx2_i32
/* sw_rot: lane l <- lane l-1 (lane 0 replaced after); sw_lane: lane indices;
 * sw_pick: bytes 0, 4, 8, 12 of each 128-bit half to its bytes 0..3; sw_cat: dwords 0, 4. */
#define SW_CONSTS                                                                            \
    const __m256i sw_rot = _mm256_setr_epi32(7, 0, 1, 2, 3, 4, 5, 6);                        \
    const __m256i sw_lane = _mm256_setr_epi32(0, 1, 2, 3, 4, 5, 6, 7);                       \
    const __m256i sw_pick = _mm256_setr_epi8(0, 4, 8, 12, -1, -1, -1, -1, -1, -1, -1, -1, -1, \
                                             -1, -1, -1, 0, 4, 8, 12, -1, -1, -1, -1, -1, -1, \
                                             -1, -1, -1, -1, -1, -1);                         \
    const __m256i sw_cat = _mm256_setr_epi32(0, 4, 0, 0, 0, 0, 0, 0);                        \
    const __m256i sw_c4 = _mm256_set1_epi32(DPA_SW_TB_H_OPEN);                               \
    const __m256i sw_c8 = _mm256_set1_epi32(DPA_SW_TB_V_OPEN);                               \
    const __m256i sw_diff = _mm256_set1_epi32(p->match - p->mismatch)
#define SW_SET1(x) _mm256_set1_epi32(x)
#define SW_LOADU(p) _mm256_loadu_si256((const __m256i *)(const void *)(p))
#define SW_LOAD_BYTES(p) _mm_loadl_epi64((const __m128i *)(const void *)(p))
#define SW_ADD(a, b) _mm256_add_epi32((a), (b))
#define SW_MAX(a, b) _mm256_max_epi32((a), (b))
#define SW_GT(a, b) _mm256_cmpgt_epi32((a), (b))
#define SW_BLEND(k, a, b) _mm256_blendv_epi8((b), (a), (k))
/* mismatch + (equal & (match - mismatch)); the compare is on bytes, widened to int32 masks */
#define SW_SCORE(rb, p, vm, vx)                                                              \
    _mm256_add_epi32((vx), _mm256_and_si256(                                                 \
                               _mm256_cvtepi8_epi32(_mm_cmpeq_epi8((rb), SW_LOAD_BYTES(p))), \
                               sw_diff))
#define SW_SHIFT_IN(v, p) \
    _mm256_blend_epi32(_mm256_permutevar8x32_epi32((v), sw_rot), _mm256_set1_epi32(*(p)), 1)
#define SW_STORE_LANE(p, v, k)                                                               \
    ((p)[k] = _mm_cvtsi128_si32(                                                             \
         _mm256_castsi256_si128(_mm256_permutevar8x32_epi32((v), _mm256_set1_epi32(k)))))
#define SW_STARTED(t) _mm256_cmpgt_epi32(_mm256_set1_epi32((t) + 1), sw_lane)
/* direction = (0 - nd) - (nd & dn): 0 diagonal, 1 right, 2 down; then the two flags; then
 * the low byte of each lane packed into 8 bytes. */
#define SW_STORE_TB(p, nd, dn, ho, vo)                                                       \
    do {                                                                                     \
        __m256i d_ = _mm256_sub_epi32(_mm256_sub_epi32(_mm256_setzero_si256(), (nd)),        \
                                      _mm256_and_si256((nd), (dn)));                         \
        d_ = _mm256_or_si256(d_, _mm256_or_si256(_mm256_and_si256((ho), sw_c4),              \
                                                 _mm256_and_si256((vo), sw_c8)));            \
        d_ = _mm256_permutevar8x32_epi32(_mm256_shuffle_epi8(d_, sw_pick), sw_cat);          \
        _mm_storel_epi64((__m128i *)(void *)(p), _mm256_castsi256_si128(d_));                \
    } while (0)
#define SW_PART_KERNEL
#include "cpu/sw/sw_simd.h"

dpa_status dpa_sw_align_avx2(const uint8_t *ref, int32_t n, const uint8_t *alt, int32_t m,
                             const dpa_sw_params *p, dpa_sw_scratch *s, char *cigar,
                             int32_t *cigar_len, int32_t *alignment_offset, int *exact)
{
    if (dpa_sw_rel16_fits(p, n, m))
        return dpa_sw_align_avx2_rel16(ref, n, alt, m, p, s, cigar, cigar_len, alignment_offset,
                                       exact);
    return dpa_sw_align_avx2_i32(ref, n, alt, m, p, s, cigar, cigar_len, alignment_offset,
                                 exact);
}

dpa_status dpa_sw_compute_avx2(const dpa_sw_batch *b, const dpa_sw_params *p,
                               const int32_t *pairs, int64_t n, const dpa_sw_out *out,
                               int64_t *exact_matches)
{
    return dpa_sw_compute_pairs(dpa_sw_align_avx2, b, p, pairs, n, out, exact_matches);
}
