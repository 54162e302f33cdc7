/*
 * hmm_ssv_avx2.c — SSV maximum with 32 signed-byte lanes, striped (node k = q + z Q + 1 in
 * segment q, lane z). Each cell is HMMER's recurrence sv = subs_epi8(previous diagonal, sbv)
 * from the begin level -128; the diagonal enters a segment from the previous row's segment
 * q - 1, and segment 0 from segment Q - 1 moved up one lane (node boundary z Q -> z Q + 1),
 * with -128 entering lane 0. Cell values equal the scalar reference's until a run passes the
 * overflow level, after which both report an overflow (see hmm_filter_ref.c). The diagonals
 * stay in registers, up to 12 segments at a time (hmm_ssv_band.h): with two accumulators
 * that fills the 16 ymm registers; 10 was no faster (docs/lab/2026-11-27-hmm-speed.md).
 */
#include <immintrin.h>
#include <stdint.h>
#include <string.h>

#include "cpu/hmm/hmm_filter.h"

/* Segment Q - 1 moved up one lane with the begin level in lane 0. The -128 rides in on the
 * lane crossing (byte 15 of the constant's low half becomes lane 0), not by a separate OR:
 * on a model of one or two segments this shift is on the row-to-row latency chain. */
static inline __m256i shift_in_begin(__m256i v) {
    const __m256i c = _mm256_setr_epi8(0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, -128, 0, 0, 0, 0, 0, 0, 0, 0, 0,
                                       0, 0, 0, 0, 0, 0, 0);
    __m256i lo_up = _mm256_permute2x128_si256(v, c, 0x02); /* [c.lo, v.lo] */
    return _mm256_alignr_epi8(v, lo_up, 15);
}

#define SV __m256i
#define SV_BMAX 12
#define SV_SUBS(a, b) _mm256_subs_epi8((a), (b))
#define SV_MAX(a, b) _mm256_max_epu8((a), (b))
#define SV_SHIFT(v) shift_in_begin(v)
#define SV_BEGIN _mm256_set1_epi8(-128)
#define SV_FN(x) ssv_avx2_##x
#include "cpu/hmm/hmm_ssv_band.h"

#define DV __m256i
#define DV_W 32
#define DV_LOADU(p) _mm256_loadu_si256((const __m256i *)(const void *)(p))
#define DV_BCAST16(p) _mm256_broadcastsi128_si256(_mm_load_si128((const __m128i *)(const void *)(p)))
#define DV_SHUF(t, i) _mm256_shuffle_epi8((t), (i))
#define DV_OR(a, b) _mm256_or_si256((a), (b))
#define DV_SUBS(a, b) _mm256_subs_epi8((a), (b))
#define DV_MAX(a, b) _mm256_max_epu8((a), (b))
#define DV_SET1(x) _mm256_set1_epi8(x)
#define DV_FN(x) ssv_avx2_##x
#include "cpu/hmm/hmm_ssv_diag.h"

/* Models of one segment go by diagonals (hmm_ssv_diag.h): their rows are a lane-crossing
 * latency chain in the striped kernel. */
#define DIAG_MAX_M 32

uint8_t dpa_hmm_ssv_xe_avx2(const dpa_hmm_profile *p, const uint8_t *dsq, int32_t L, void *work) {
    const __m256i xE = p->M <= DIAG_MAX_M && p->ssv_diag
                           ? ssv_avx2_diag(p->ssv_diag, p->M, dsq, L, work)
                           : ssv_avx2_all_bands((const __m256i *)p->ssv[0], p->ssv_q[0], dsq, L);
    __m128i m = _mm_max_epu8(_mm256_castsi256_si128(xE), _mm256_extracti128_si256(xE, 1));
    m = _mm_max_epu8(m, _mm_srli_si128(m, 8));
    m = _mm_max_epu8(m, _mm_srli_si128(m, 4));
    m = _mm_max_epu8(m, _mm_srli_si128(m, 2));
    m = _mm_max_epu8(m, _mm_srli_si128(m, 1));
    return (uint8_t)_mm_cvtsi128_si32(m);
}
