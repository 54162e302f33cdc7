/*
 * hmm_vit_avx2.c — HMMER's Viterbi filter with 16 int16 lanes, striped (node k = q + z Q + 1
 * in segment q, lane z), saturating arithmetic and the lazy-F D->D evaluation as in
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
static inline __m256i shift_w(__m256i v, __m256i neg0) {
    __m256i lo_up = _mm256_permute2x128_si256(v, v, 0x08);
    return _mm256_or_si256(_mm256_alignr_epi8(v, lo_up, 14), neg0);
}

static inline int16_t hmax_w(__m256i v) {
    __m128i m = _mm_max_epi16(_mm256_castsi256_si128(v), _mm256_extracti128_si256(v, 1));
    m = _mm_max_epi16(m, _mm_srli_si128(m, 8));
    m = _mm_max_epi16(m, _mm_srli_si128(m, 4));
    m = _mm_max_epi16(m, _mm_srli_si128(m, 2));
    return (int16_t)_mm_extract_epi16(m, 0);
}

#define VV __m256i
#define VP_W 0
#define V_ADDS(a, b) _mm256_adds_epi16((a), (b))
#define V_MAX(a, b) _mm256_max_epi16((a), (b))
#define V_SET1(x) _mm256_set1_epi16(x)
#define V_NONE_GT(a, b) (!_mm256_movemask_epi8(_mm256_cmpgt_epi16((a), (b))))
#define VP_FN(x) vp_avx2_##x
#define VP_DD_SPLIT_Q 8
#include "cpu/hmm/hmm_vit_pair.h"

float dpa_hmm_vit_avx2(const dpa_hmm_profile *p, const dpa_hmm_len_params *lp, const uint8_t *dsq, void *work) {
    const int Q = p->vf_q[0];
    const __m256i *tw = (const __m256i *)p->vf_tw[0];
    __m256i *Mx = (__m256i *)(((uintptr_t)work + 63) & ~(uintptr_t)63), *Dx = Mx + Q, *Ix = Dx + Q;
    const __m256i neg = _mm256_set1_epi16(-32768);
    const __m256i neg0 = _mm256_setr_epi16(-32768, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0);
    for (int q = 0; q < Q; q++) Mx[q] = Dx[q] = Ix[q] = neg;
    int16_t xN = p->base_w;
    int16_t xB = (int16_t)(xN + lp->xw_move);
    int16_t xJ = -32768, xC = -32768;
    for (int32_t i = 0; i < lp->L; i++) {
        const __m256i *rsc = (const __m256i *)p->vf_rw[0] + (size_t)dsq[i] * Q;
        const __m256i *t = tw;
        __m256i dcv = neg, xEv = neg, Dmaxv = neg, xBv = _mm256_set1_epi16(xB);
        __m256i mpv = shift_w(Mx[Q - 1], neg0), dpv = shift_w(Dx[Q - 1], neg0), ipv = shift_w(Ix[Q - 1], neg0);
        for (int q = 0; q < Q; q++, t += 8) {
            __m256i sv = _mm256_adds_epi16(xBv, t[DPA_HMM_W_BM]);
            sv = _mm256_max_epi16(sv, _mm256_adds_epi16(mpv, t[DPA_HMM_W_MM]));
            sv = _mm256_max_epi16(sv, _mm256_adds_epi16(ipv, t[DPA_HMM_W_IM]));
            sv = _mm256_max_epi16(sv, _mm256_adds_epi16(dpv, t[DPA_HMM_W_DM]));
            sv = _mm256_adds_epi16(sv, rsc[q]);
            xEv = _mm256_max_epi16(xEv, sv);
            mpv = Mx[q];
            dpv = Dx[q];
            ipv = Ix[q];
            Mx[q] = sv;
            Dx[q] = dcv;
            dcv = _mm256_adds_epi16(sv, t[DPA_HMM_W_MD]);
            Dmaxv = _mm256_max_epi16(dcv, Dmaxv);
            Ix[q] = _mm256_max_epi16(_mm256_adds_epi16(mpv, t[DPA_HMM_W_MI]), _mm256_adds_epi16(ipv, t[DPA_HMM_W_II]));
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
            dcv = vp_avx2_dd_first(Dx, tw, Q, shift_w(dcv, neg0));
            int q;
            do {
                dcv = shift_w(dcv, neg0);
                for (q = 0; q < Q; q++) {
                    if (!_mm256_movemask_epi8(_mm256_cmpgt_epi16(dcv, Dx[q]))) break;
                    Dx[q] = _mm256_max_epi16(dcv, Dx[q]);
                    dcv = _mm256_adds_epi16(Dx[q], tw[(size_t)q * 8 + DPA_HMM_W_DD]);
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

void dpa_hmm_vit2_avx2(const dpa_hmm_profile *p, const dpa_hmm_len_params *lpa, const uint8_t *dsqa,
                       const dpa_hmm_len_params *lpb, const uint8_t *dsqb, void *work, float sc[2]) {
    /* Only models of one or two segments gain: their rows are latency chains, which two
     * targets overlap (M = 1..32: 1.1-1.2x on Zen 4). From three segments on, the two
     * targets' row registers do not fit the 16 ymm registers and the spills made the pair
     * slower than two single runs (M = 71..1297: 0.87-0.9x), so those run one by one. */
    if (p->vf_q[0] > 2) {
        sc[0] = dpa_hmm_vit_avx2(p, lpa, dsqa, work);
        sc[1] = dpa_hmm_vit_avx2(p, lpb, dsqb, work);
        return;
    }
    const __m256i neg0 = _mm256_setr_epi16(-32768, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0);
    vp_avx2_pair(p, lpa, dsqa, lpb, dsqb, work, sc, neg0);
}
