/*
 * hmm_vit_avx512.c — HMMER's Viterbi filter with 32 int16 lanes (AVX-512BW), the algorithm of
 * hmm_vit_avx2.c: striped (node k = q + z Q + 1 in segment q, lane z), saturating arithmetic and the lazy-F D->D evaluation as in
 * p7_ViterbiFilter: M->D is computed in the main sweep and D->D chains are propagated only
 * when the row's best D plus the model's DD bound could beat B->M on the next row; then
 * segment by segment, wrapping across lanes until no lane improves. The specials (E, C, J, B)
 * are scalar, as in HMMER. Equal to dpa_hmm_vit_ref (tests/test_hmm_filter_simd.cc).
 */
#include <immintrin.h>
#include <math.h>
#include <stdint.h>

#include "cpu/hmm/hmm_filter.h"

/* lanes up by one word; -32768 enters lane 0 */
static inline __m512i shift_w(__m512i v, __m512i neg0) {
    __m512i up = _mm512_alignr_epi64(v, _mm512_setzero_si512(), 6); /* 128-bit lanes up one */
    return _mm512_or_si512(_mm512_alignr_epi8(v, up, 14), neg0);
}

static inline int16_t hmax_w(__m512i v) {
    __m256i h = _mm256_max_epi16(_mm512_castsi512_si256(v), _mm512_extracti64x4_epi64(v, 1));
    __m128i m = _mm_max_epi16(_mm256_castsi256_si128(h), _mm256_extracti128_si256(h, 1));
    m = _mm_max_epi16(m, _mm_srli_si128(m, 8));
    m = _mm_max_epi16(m, _mm_srli_si128(m, 4));
    m = _mm_max_epi16(m, _mm_srli_si128(m, 2));
    return (int16_t)_mm_extract_epi16(m, 0);
}

/* Models of up to four 32-word segments take the AVX2 kernel (16-word segments). A small
 * model's row is bound by its latency chain (xE's horizontal maximum, the specials, xB back
 * into the next row), which is longer on a zmm register (one more extract), not by
 * throughput; on Zen 4 the AVX2 kernel was 1.2-1.4x faster for M = 1..128
 * (docs/lab/2026-11-29-session22-hmm.md; DECISIONS 150). */
#define YMM_MAX_M 128

float dpa_hmm_vit_avx512(const dpa_hmm_profile *p, const dpa_hmm_len_params *lp, const uint8_t *dsq, void *work) {
#ifdef DPA_HAVE_AVX2
    if (p->M <= YMM_MAX_M) return dpa_hmm_vit_avx2(p, lp, dsq, work);
#endif
    const int Q = p->vf_q[1];
    const __m512i *tw = (const __m512i *)p->vf_tw[1];
    __m512i *Mx = (__m512i *)(((uintptr_t)work + 63) & ~(uintptr_t)63), *Dx = Mx + Q, *Ix = Dx + Q;
    const __m512i neg = _mm512_set1_epi16(-32768);
    const __m512i neg0 = _mm512_maskz_set1_epi16((__mmask32)1, -32768);
    for (int q = 0; q < Q; q++) Mx[q] = Dx[q] = Ix[q] = neg;
    int16_t xN = p->base_w;
    int16_t xB = (int16_t)(xN + lp->xw_move);
    int16_t xJ = -32768, xC = -32768;
    for (int32_t i = 0; i < lp->L; i++) {
        const __m512i *rsc = (const __m512i *)p->vf_rw[1] + (size_t)dsq[i] * Q;
        const __m512i *t = tw;
        __m512i dcv = neg, xEv = neg, Dmaxv = neg, xBv = _mm512_set1_epi16(xB);
        __m512i mpv = shift_w(Mx[Q - 1], neg0), dpv = shift_w(Dx[Q - 1], neg0), ipv = shift_w(Ix[Q - 1], neg0);
        for (int q = 0; q < Q; q++, t += 8) {
            __m512i sv = _mm512_adds_epi16(xBv, t[DPA_HMM_W_BM]);
            sv = _mm512_max_epi16(sv, _mm512_adds_epi16(mpv, t[DPA_HMM_W_MM]));
            sv = _mm512_max_epi16(sv, _mm512_adds_epi16(ipv, t[DPA_HMM_W_IM]));
            sv = _mm512_max_epi16(sv, _mm512_adds_epi16(dpv, t[DPA_HMM_W_DM]));
            sv = _mm512_adds_epi16(sv, rsc[q]);
            xEv = _mm512_max_epi16(xEv, sv);
            mpv = Mx[q];
            dpv = Dx[q];
            ipv = Ix[q];
            Mx[q] = sv;
            Dx[q] = dcv;
            dcv = _mm512_adds_epi16(sv, t[DPA_HMM_W_MD]);
            Dmaxv = _mm512_max_epi16(dcv, Dmaxv);
            Ix[q] = _mm512_max_epi16(_mm512_adds_epi16(mpv, t[DPA_HMM_W_MI]), _mm512_adds_epi16(ipv, t[DPA_HMM_W_II]));
        }
        const int16_t xE = hmax_w(xEv);
        if (xE >= 32767) return INFINITY;
        xC = (int16_t)((int)xC > (int)xE + p->xw_e_move ? (int)xC : (int)xE + p->xw_e_move);
        xJ = (int16_t)((int)xJ > (int)xE + p->xw_e_loop ? (int)xJ : (int)xE + p->xw_e_loop);
        {
            int a = (int)xJ + lp->xw_move, b = (int)xN + lp->xw_move;
            xB = (int16_t)(a > b ? a : b);
        }
        if ((int)hmax_w(Dmaxv) + p->ddbound_w > (int)xB) {
            dcv = shift_w(dcv, neg0);
            for (int q = 0; q < Q; q++) {
                Dx[q] = _mm512_max_epi16(dcv, Dx[q]);
                dcv = _mm512_adds_epi16(Dx[q], tw[(size_t)q * 8 + DPA_HMM_W_DD]);
            }
            int q;
            do {
                dcv = shift_w(dcv, neg0);
                for (q = 0; q < Q; q++) {
                    if (!_mm512_cmpgt_epi16_mask(dcv, Dx[q])) break;
                    Dx[q] = _mm512_max_epi16(dcv, Dx[q]);
                    dcv = _mm512_adds_epi16(Dx[q], tw[(size_t)q * 8 + DPA_HMM_W_DD]);
                }
            } while (q == Q);
        } else {
            Dx[0] = shift_w(dcv, neg0);
        }
    }
    if (xC > -32768) {
        float s = (float)xC + (float)lp->xw_move - (float)p->base_w;
        s /= p->scale_w;
        s = (float)((double)s - 3.0);
        return s;
    }
    return -INFINITY;
}

#define VV __m512i
#define VP_W 1
#define V_ADDS(a, b) _mm512_adds_epi16((a), (b))
#define V_MAX(a, b) _mm512_max_epi16((a), (b))
#define V_SET1(x) _mm512_set1_epi16(x)
#define V_NONE_GT(a, b) (!_mm512_cmpgt_epi16_mask((a), (b)))
#define VP_FN(x) vp_avx512_##x
#include "cpu/hmm/hmm_vit_pair.h"

void dpa_hmm_vit2_avx512(const dpa_hmm_profile *p, const dpa_hmm_len_params *lpa, const uint8_t *dsqa,
                         const dpa_hmm_len_params *lpb, const uint8_t *dsqb, void *work, float sc[2]) {
#ifdef DPA_HAVE_AVX2
    if (p->M <= YMM_MAX_M) {
        dpa_hmm_vit2_avx2(p, lpa, dsqa, lpb, dsqb, work, sc);
        return;
    }
#endif
    const __m512i neg0 = _mm512_maskz_set1_epi16((__mmask32)1, -32768);
    vp_avx512_pair(p, lpa, dsqa, lpb, dsqb, work, sc, neg0);
}
