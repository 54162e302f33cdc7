/*
 * hmm_ssv_avx512.c — SSV maximum with 64 signed-byte lanes (AVX-512BW), the same striped
 * recurrence as hmm_ssv_avx2.c.
 */
#include <immintrin.h>
#include <stdint.h>
#include <string.h>

#include "cpu/hmm/hmm_filter.h"

static inline __m512i shift_in_begin(__m512i v, __m512i lane0) {
    __m512i up = _mm512_alignr_epi64(v, _mm512_setzero_si512(), 6); /* 128-bit lanes moved up one */
    return _mm512_or_si512(_mm512_alignr_epi8(v, up, 15), lane0);
}

uint8_t dpa_hmm_ssv_xe_avx512(const dpa_hmm_profile *p, const uint8_t *dsq, int32_t L, void *work) {
    const int Q = p->ssv_q[1];
    const __m512i *sb = (const __m512i *)p->ssv[1];
    __m512i *dp = (__m512i *)(((uintptr_t)work + 63) & ~(uintptr_t)63);
    const __m512i begin = _mm512_set1_epi8(-128);
    const __m512i lane0 = _mm512_maskz_set1_epi8((__mmask64)1, -128);
    for (int q = 0; q < Q; q++) dp[q] = begin;
    __m512i xE = begin;
    for (int32_t i = 0; i < L; i++) {
        const __m512i *r = sb + (size_t)dsq[i] * Q;
        __m512i mpv = shift_in_begin(dp[Q - 1], lane0);
        for (int q = 0; q < Q; q++) {
            __m512i sv = _mm512_subs_epi8(mpv, r[q]);
            xE = _mm512_max_epu8(xE, sv);
            mpv = dp[q];
            dp[q] = sv;
        }
    }
    __m256i h = _mm256_max_epu8(_mm512_castsi512_si256(xE), _mm512_extracti64x4_epi64(xE, 1));
    __m128i m = _mm_max_epu8(_mm256_castsi256_si128(h), _mm256_extracti128_si256(h, 1));
    m = _mm_max_epu8(m, _mm_srli_si128(m, 8));
    m = _mm_max_epu8(m, _mm_srli_si128(m, 4));
    m = _mm_max_epu8(m, _mm_srli_si128(m, 2));
    m = _mm_max_epu8(m, _mm_srli_si128(m, 1));
    return (uint8_t)_mm_cvtsi128_si32(m);
}
