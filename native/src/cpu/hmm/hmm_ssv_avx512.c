/*
 * hmm_ssv_avx512.c — SSV maximum with 64 signed-byte lanes (AVX-512BW), the same striped
 * recurrence as hmm_ssv_avx2.c, 16 segments per band of registers (hmm_ssv_band.h).
 */
#include <immintrin.h>
#include <stdint.h>
#include <string.h>

#include "cpu/hmm/hmm_filter.h"

/* As in hmm_ssv_avx2.c, the -128 comes in with the lane crossing (byte 63 of the constant
 * lands in byte 15 of the moved-up lanes, then in lane 0), saving an OR on the latency chain. */
static inline __m512i shift_in_begin(__m512i v) {
    const __m512i c = _mm512_mask_set1_epi8(_mm512_setzero_si512(), (__mmask64)1 << 63, -128);
    __m512i up = _mm512_alignr_epi64(v, c, 6); /* 128-bit lanes moved up one, c's top lane below */
    return _mm512_alignr_epi8(v, up, 15);
}

#define SV __m512i
#define SV_BMAX 16
#define SV_SUBS(a, b) _mm512_subs_epi8((a), (b))
#define SV_MAX(a, b) _mm512_max_epu8((a), (b))
#define SV_SHIFT(v) shift_in_begin(v)
#define SV_BEGIN _mm512_set1_epi8(-128)
#define SV_FN(x) ssv_avx512_##x
#include "cpu/hmm/hmm_ssv_band.h"

#define DV __m512i
#define DV_W 64
#define DV_LOADU(p) _mm512_loadu_si512((const void *)(p))
#define DV_BCAST16(p) _mm512_broadcast_i32x4(_mm_load_si128((const __m128i *)(const void *)(p)))
#define DV_SHUF(t, i) _mm512_shuffle_epi8((t), (i))
#define DV_OR(a, b) _mm512_or_si512((a), (b))
#define DV_SUBS(a, b) _mm512_subs_epi8((a), (b))
#define DV_MAX(a, b) _mm512_max_epu8((a), (b))
#define DV_SET1(x) _mm512_set1_epi8(x)
#define DV_FN(x) ssv_avx512_##x
#include "cpu/hmm/hmm_ssv_diag.h"

/* Models of one segment go by diagonals (hmm_ssv_diag.h): their rows are a lane-crossing
 * latency chain in the striped kernel. */
#define DIAG_MAX_M 64

/* Models of two or three 64-byte segments take the AVX2 bands (32-byte segments, twice as
 * many registers a band). With so few registers a row is bound by the lane-crossing shift on
 * the register that wraps (two permutes on a zmm register), not by throughput, and on Zen 4,
 * where a 512-bit operation is two 256-bit halves, the AVX2 kernel was 1.2-1.25x faster at
 * M = 71..150 (docs/lab/2026-11-29-session22-hmm.md; DECISIONS 150). From M ~ 300 the
 * 512-bit bands are as fast or faster. */
#define YMM_MAX_M 192

uint8_t dpa_hmm_ssv_xe_avx512(const dpa_hmm_profile *p, const uint8_t *dsq, int32_t L, void *work) {
#ifdef DPA_HAVE_AVX2
    if (p->M > DIAG_MAX_M && p->M <= YMM_MAX_M) return dpa_hmm_ssv_xe_avx2(p, dsq, L, work);
#endif
    const __m512i xE = p->M <= DIAG_MAX_M && p->ssv_diag
                           ? ssv_avx512_diag(p->ssv_diag, p->M, dsq, L, work)
                           : ssv_avx512_all_bands((const __m512i *)p->ssv[1], p->ssv_q[1], dsq, L);
    __m256i h = _mm256_max_epu8(_mm512_castsi512_si256(xE), _mm512_extracti64x4_epi64(xE, 1));
    __m128i m = _mm_max_epu8(_mm256_castsi256_si128(h), _mm256_extracti128_si256(h, 1));
    m = _mm_max_epu8(m, _mm_srli_si128(m, 8));
    m = _mm_max_epu8(m, _mm_srli_si128(m, 4));
    m = _mm_max_epu8(m, _mm_srli_si128(m, 2));
    m = _mm_max_epu8(m, _mm_srli_si128(m, 1));
    return (uint8_t)_mm_cvtsi128_si32(m);
}
