/*
 * hmm_ssv_avx2.c — SSV maximum with 32 signed-byte lanes, striped (node k = q + z Q + 1 in
 * segment q, lane z). Each row is HMMER's recurrence sv = subs_epi8(previous diagonal, sbv)
 * from the begin level -128; the diagonal enters a segment from the previous row's segment
 * q - 1, and segment 0 from segment Q - 1 moved up one lane (node boundary z Q -> z Q + 1),
 * with -128 entering lane 0. Cell values equal the scalar reference's until a run passes the
 * overflow level, after which both report an overflow (see hmm_filter_ref.c).
 */
#include <immintrin.h>
#include <stdint.h>
#include <string.h>

#include "cpu/hmm/hmm_filter.h"

static inline __m256i shift_in_begin(__m256i v, __m256i lane0) {
    __m256i lo_up = _mm256_permute2x128_si256(v, v, 0x08); /* [0, v.lo] */
    return _mm256_or_si256(_mm256_alignr_epi8(v, lo_up, 15), lane0);
}

uint8_t dpa_hmm_ssv_xe_avx2(const dpa_hmm_profile *p, const uint8_t *dsq, int32_t L, void *work) {
    const int Q = p->ssv_q[0];
    const __m256i *sb = (const __m256i *)p->ssv[0];
    __m256i *dp = (__m256i *)(((uintptr_t)work + 63) & ~(uintptr_t)63);
    const __m256i begin = _mm256_set1_epi8(-128);
    const __m256i lane0 = _mm256_setr_epi8(-128, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0,
                                           0, 0, 0, 0, 0, 0, 0, 0);
    for (int q = 0; q < Q; q++) dp[q] = begin;
    __m256i xE = begin;
    for (int32_t i = 0; i < L; i++) {
        const __m256i *r = sb + (size_t)dsq[i] * Q;
        __m256i mpv = shift_in_begin(dp[Q - 1], lane0);
        for (int q = 0; q < Q; q++) {
            __m256i sv = _mm256_subs_epi8(mpv, r[q]);
            xE = _mm256_max_epu8(xE, sv);
            mpv = dp[q];
            dp[q] = sv;
        }
    }
    __m128i m = _mm_max_epu8(_mm256_castsi256_si128(xE), _mm256_extracti128_si256(xE, 1));
    m = _mm_max_epu8(m, _mm_srli_si128(m, 8));
    m = _mm_max_epu8(m, _mm_srli_si128(m, 4));
    m = _mm_max_epu8(m, _mm_srli_si128(m, 2));
    m = _mm_max_epu8(m, _mm_srli_si128(m, 1));
    return (uint8_t)_mm_cvtsi128_si32(m);
}
