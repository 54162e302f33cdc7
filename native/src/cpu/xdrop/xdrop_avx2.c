/*
 * xdrop_avx2.c — the X-drop band with 8 int32 lanes: eight consecutive columns of one
 * anti-diagonal per step, inside the shared sweep (xdrop_sweep.h), so every decision outside
 * the band is the scalar reference's. Cells of one anti-diagonal depend only on the two
 * before it, so the lanes are independent; int32 keeps every score exact (scores pass
 * 32,767 on long identical reads).
 */
#include <immintrin.h>

#include "cpu/xdrop/xdrop.h"
#include "cpu/xdrop/xdrop_sweep.h"

int32_t dpa_xdrop_band_avx2(const int32_t *a1, const int32_t *a2, int32_t *a3, const uint8_t *qc,
                            const uint8_t *tc, int32_t lo, int32_t hi, int32_t d,
                            int32_t floor, const dpa_xdrop_params *p)
{
    const __m256i gap = _mm256_set1_epi32(p->gap), match = _mm256_set1_epi32(p->match);
    const __m256i mismatch = _mm256_set1_epi32(p->mismatch), undef = _mm256_set1_epi32(DPA_XDROP_UNDEF);
    const __m256i fl = _mm256_set1_epi32(floor), lane = _mm256_setr_epi32(0, 1, 2, 3, 4, 5, 6, 7);
    const __m256i none = _mm256_set1_epi32(INT32_MIN);
    /* byte k of the result = byte 7 - k: the target runs backwards along an anti-diagonal */
    const __m128i reverse8 = _mm_setr_epi8(7, 6, 5, 4, 3, 2, 1, 0, -1, -1, -1, -1, -1, -1, -1, -1);
    __m256i best = none;
    for (int32_t col = lo; col < hi; col += 8) {
        /* lane k holds column col + k, cell (col + k, d - col - k) */
        const __m256i left = _mm256_loadu_si256((const __m256i *)(a2 + col - 1));  /* (c-1, r) */
        const __m256i up = _mm256_loadu_si256((const __m256i *)(a2 + col));        /* (c, r-1) */
        const __m256i diag = _mm256_loadu_si256((const __m256i *)(a1 + col - 1));  /* (c-1, r-1) */
        const __m256i q = _mm256_cvtepu8_epi32(_mm_loadl_epi64((const __m128i *)(qc + col - 1)));
        const __m128i t8 = _mm_loadl_epi64((const __m128i *)(tc + d - col - 8));
        const __m256i t = _mm256_cvtepu8_epi32(_mm_shuffle_epi8(t8, reverse8));
        const __m256i s = _mm256_blendv_epi8(mismatch, match, _mm256_cmpeq_epi32(q, t));
        const __m256i v = _mm256_max_epi32(_mm256_add_epi32(_mm256_max_epi32(left, up), gap),
                                           _mm256_add_epi32(diag, s));
        const __m256i below = _mm256_cmpgt_epi32(fl, v);
        const __m256i cell = _mm256_blendv_epi8(v, undef, below);
        /* lanes at or past hi belong to no cell: stored into the slack, never counted */
        const __m256i inside = _mm256_cmpgt_epi32(_mm256_set1_epi32(hi - col), lane);
        _mm256_storeu_si256((__m256i *)(a3 + col), cell);
        best = _mm256_max_epi32(best, _mm256_blendv_epi8(none, v, _mm256_andnot_si256(below, inside)));
    }
    __m128i m = _mm_max_epi32(_mm256_castsi256_si128(best), _mm256_extracti128_si256(best, 1));
    m = _mm_max_epi32(m, _mm_shuffle_epi32(m, _MM_SHUFFLE(1, 0, 3, 2)));
    m = _mm_max_epi32(m, _mm_shuffle_epi32(m, _MM_SHUFFLE(2, 3, 0, 1)));
    return _mm_cvtsi128_si32(m);
}

int32_t dpa_xdrop_side_avx2(const dpa_xdrop_seq *q, const dpa_xdrop_seq *t,
                            const dpa_xdrop_params *p, dpa_xdrop_scratch *s, int32_t *qext,
                            int32_t *text, int64_t *cells)
{
    return dpa_xdrop_sweep(q, t, p, s, dpa_xdrop_band_avx2, qext, text, cells);
}

dpa_status dpa_xdrop_compute_avx2(const dpa_xdrop_batch *batch, const dpa_xdrop_params *params,
                                  const int32_t *pairs, int64_t n, const dpa_xdrop_output *out,
                                  int64_t *cells)
{
    return dpa_xdrop_compute_pairs(dpa_xdrop_side_avx2, batch, params, pairs, n, out, cells);
}
