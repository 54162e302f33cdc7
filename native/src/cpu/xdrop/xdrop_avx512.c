/*
 * xdrop_avx512.c — the X-drop band with 16 int32 lanes (AVX-512F/BW/VL), the AVX2 kernel's
 * scheme with mask registers for the compare results and the band's last partial step. Inside the shared sweep
 * (xdrop_sweep.h), so it equals the scalar reference by construction outside the band.
 */
#include <immintrin.h>

#include "cpu/xdrop/xdrop.h"
#include "cpu/xdrop/xdrop_sweep.h"

/* Bands this narrow run the 8-lane AVX2 band (measured faster for narrow bands, X = 10). */
#define NARROW 16

static int32_t band_avx512(const int32_t *a1, const int32_t *a2, int32_t *a3, const uint8_t *qc,
                           const uint8_t *tc, int32_t lo, int32_t hi, int32_t d, int32_t floor,
                           const dpa_xdrop_params *p)
{
#ifdef DPA_HAVE_AVX2
    if (hi - lo <= NARROW) return dpa_xdrop_band_avx2(a1, a2, a3, qc, tc, lo, hi, d, floor, p);
#endif
    const __m512i gap = _mm512_set1_epi32(p->gap), match = _mm512_set1_epi32(p->match);
    const __m512i mismatch = _mm512_set1_epi32(p->mismatch);
    const __m512i undef = _mm512_set1_epi32(DPA_XDROP_UNDEF), fl = _mm512_set1_epi32(floor);
    /* byte k of the result = byte 15 - k: the target runs backwards along an anti-diagonal */
    const __m128i reverse16 = _mm_setr_epi8(15, 14, 13, 12, 11, 10, 9, 8, 7, 6, 5, 4, 3, 2, 1, 0);
    __m512i best = _mm512_set1_epi32(INT32_MIN);
    for (int32_t col = lo; col < hi; col += 16) {
        /* lane k holds column col + k, cell (col + k, d - col - k) */
        const __m512i left = _mm512_loadu_si512(a2 + col - 1);  /* (c-1, r)   */
        const __m512i up = _mm512_loadu_si512(a2 + col);        /* (c, r-1)   */
        const __m512i diag = _mm512_loadu_si512(a1 + col - 1);  /* (c-1, r-1) */
        const __m512i q = _mm512_cvtepu8_epi32(_mm_loadu_si128((const __m128i *)(qc + col - 1)));
        const __m128i t16 = _mm_loadu_si128((const __m128i *)(tc + d - col - 16));
        const __m512i t = _mm512_cvtepu8_epi32(_mm_shuffle_epi8(t16, reverse16));
        const __m512i s = _mm512_mask_blend_epi32(_mm512_cmpeq_epi32_mask(q, t), mismatch, match);
        const __m512i v = _mm512_max_epi32(_mm512_add_epi32(_mm512_max_epi32(left, up), gap),
                                           _mm512_add_epi32(diag, s));
        /* lanes at or past hi belong to no cell: stored into the slack, never counted */
        const int32_t rest = hi - col;
        const __mmask16 inside = rest >= 16 ? (__mmask16)0xFFFF : (__mmask16)((1u << rest) - 1);
        const __mmask16 below = _mm512_cmplt_epi32_mask(v, fl);
        _mm512_storeu_si512(a3 + col, _mm512_mask_blend_epi32(below, v, undef));
        best = _mm512_mask_max_epi32(best, inside & (__mmask16)~below, best, v);
    }
    return _mm512_reduce_max_epi32(best);
}

int32_t dpa_xdrop_side_avx512(const dpa_xdrop_seq *q, const dpa_xdrop_seq *t,
                              const dpa_xdrop_params *p, dpa_xdrop_scratch *s, int32_t *qext,
                              int32_t *text, int64_t *cells)
{
    return dpa_xdrop_sweep(q, t, p, s, band_avx512, qext, text, cells);
}

dpa_status dpa_xdrop_compute_avx512(const dpa_xdrop_batch *batch,
                                    const dpa_xdrop_params *params, const int32_t *pairs,
                                    int64_t n, const dpa_xdrop_output *out, int64_t *cells)
{
    return dpa_xdrop_compute_pairs(dpa_xdrop_side_avx512, batch, params, pairs, n, out, cells);
}
