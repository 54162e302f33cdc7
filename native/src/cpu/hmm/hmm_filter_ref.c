/*
 * hmm_filter_ref.c — scalar reference of hmmsearch 3.4's first filters. The kernels emulate
 * HMMER's saturating 8- and 16-bit SIMD arithmetic in node order (unstriped): each cell's
 * value is the same as in HMMER's striped vectors, and the maxima HMMER takes over padding
 * lanes are reproduced where they can matter (the Viterbi filter's M->D of node M feeds its
 * lazy-F test). Float scoring follows p7_Pipeline's types and order.
 */
#include "cpu/hmm/hmm_filter.h"

#include <math.h>
#include <string.h>

#define LOG2_D 0.69314718055994529

static inline uint8_t addu8(int a, int b) { int s = a + b; return (uint8_t)(s > 255 ? 255 : s); }
static inline uint8_t subu8(int a, int b) { int s = a - b; return (uint8_t)(s < 0 ? 0 : s); }
static inline int16_t adds16(int a, int b) {
    int s = a + b;
    return (int16_t)(s > 32767 ? 32767 : (s < -32768 ? -32768 : s));
}

size_t dpa_hmm_work_bytes(int32_t M) {
    /* VF: M, I, D rows of M+2 words, twice (previous, current); MSV: two byte rows; SIMD SSV:
     * one striped row of up to M + 63 bytes, 64-byte aligned (the +128) */
    /* striped Viterbi rows (M, D, I) of two targets (hmm_vit_pair.h) */
    size_t striped_vf = 2 * 3 * sizeof(int16_t) * ((size_t)M + 32);
    size_t rows = (size_t)(M + 2) * (6 * sizeof(int16_t) + 2) + (size_t)M + striped_vf + 64 + 128;
    /* the diagonal SSV's two residue-index arrays (hmm_ssv_diag.h); a constant, so scratch
     * sized for the largest model of a call also serves its small models */
    size_t diag = DPA_HMM_DIAG_WORK;
    return rows > diag ? rows : diag;
}

uint8_t dpa_hmm_ssv_xe_ref(const dpa_hmm_profile *p, const uint8_t *dsq, int32_t L, void *work) {
    (void)work;
    const int M = p->M;
    const size_t cols = (size_t)M + 1;
    const int bias = p->bias_b;
    /* Ungapped diagonals floored at the begin level (signed saturation at -128 in HMMER):
     * T(i,k) = max(0, T(i-1,k-1) + bias - rb(k, x_i)); xE = 128 + max T. A run that would
     * pass 127 has already crossed the overflow level 255 - bias (one step gains at most
     * bias), so it is capped there and reported as 255. */
    int maxT = 0;
    for (int d = 1 - L; d < M; d++) { /* diagonal: k - i = d, i from max(1, 1-d) */
        int i = d >= 0 ? 1 : 1 - d;
        int k = i + d;
        int T = 0;
        for (; i <= L && k <= M; i++, k++) {
            T += bias - p->rb[(size_t)dsq[i - 1] * cols + k];
            if (T < 0) T = 0;
            if (T > maxT) maxT = T;
            if (T > 127) T = 127;
        }
    }
    return (uint8_t)(maxT >= 127 ? 255 : 128 + maxT);
}

int dpa_hmm_ssv_guard(const dpa_hmm_profile *p, const dpa_hmm_len_params *lp) {
    return (int)lp->tjb_b + p->tbm_b + p->tec_b + p->bias_b >= 127;
}

int dpa_hmm_ssv_decide(const dpa_hmm_profile *p, const dpa_hmm_len_params *lp, int xE, float *sc) {
    const int bias = p->bias_b, tjb = lp->tjb_b, tbm = p->tbm_b, tec = p->tec_b, base = p->base_b;
    if (xE >= 255 - bias) {
        *sc = INFINITY;
        return (base - tjb - tbm < 128) ? 1 : 0;
    }
    uint16_t xE16 = (uint16_t)xE;
    xE16 = (uint16_t)(xE16 + (base - tjb - tbm));
    xE16 = (uint16_t)(xE16 - 128);
    if (xE16 >= 255 - bias) {
        *sc = INFINITY;
        return 0;
    }
    uint16_t xJ = (uint16_t)(xE16 - tec);
    if (xJ > base) return 1;
    *sc = dpa_hmm_msv_score(p, lp, xJ);
    return 0;
}

float dpa_hmm_msv_score(const dpa_hmm_profile *p, const dpa_hmm_len_params *lp, int xJ) {
    float s = ((float)(xJ - lp->tjb_b) - (float)p->base_b);
    s /= p->scale_b;
    s = (float)((double)s - 3.0);
    return s;
}

float dpa_hmm_vit_score(const dpa_hmm_profile *p, const dpa_hmm_len_params *lp, int xC) {
    if (xC > -32768) {
        float s = (float)xC + (float)lp->xw_move - (float)p->base_w;
        s /= p->scale_w;
        s = (float)((double)s - 3.0);
        return s;
    }
    return -INFINITY;
}

int dpa_hmm_ssv(const dpa_hmm_profile *p, const dpa_hmm_len_params *lp, const uint8_t *dsq, void *work,
                dpa_hmm_ssv_xe_fn xe_fn, float *sc) {
    if (dpa_hmm_ssv_guard(p, lp)) return 1;
    return dpa_hmm_ssv_decide(p, lp, xe_fn(p, dsq, lp->L, work), sc);
}

int dpa_hmm_ssv_ref(const dpa_hmm_profile *p, const dpa_hmm_len_params *lp, const uint8_t *dsq, float *sc) {
    return dpa_hmm_ssv(p, lp, dsq, NULL, dpa_hmm_ssv_xe_ref, sc);
}

float dpa_hmm_msv_full_ref(const dpa_hmm_profile *p, const dpa_hmm_len_params *lp, const uint8_t *dsq,
                           void *work) {
    const int M = p->M, L = lp->L;
    const size_t cols = (size_t)M + 1;
    const int bias = p->bias_b, base = p->base_b, tec = p->tec_b, tjb = lp->tjb_b;
    const int tjbm = (uint8_t)(lp->tjb_b + p->tbm_b);
    uint8_t *prev = (uint8_t *)work, *cur = prev + M + 2;
    memset(prev, 0, (size_t)M + 2);
    uint8_t xJ = 0;
    uint8_t xB = subu8(base, tjbm);
    for (int i = 1; i <= L; i++) {
        const uint8_t *rsc = p->rb + (size_t)dsq[i - 1] * cols;
        uint8_t xE = 0;
        cur[0] = 0;
        for (int k = 1; k <= M; k++) {
            uint8_t m = prev[k - 1] > xB ? prev[k - 1] : xB;
            uint8_t sv = subu8(addu8(m, bias), rsc[k]);
            if (sv > xE) xE = sv;
            cur[k] = sv;
        }
        if (xE + bias >= 255) return INFINITY;
        xE = subu8(xE, tec);
        if (xE > xJ) xJ = xE;
        xB = subu8(xJ > base ? xJ : base, tjbm);
        uint8_t *tmp = prev;
        prev = cur;
        cur = tmp;
    }
    (void)tjb;
    return dpa_hmm_msv_score(p, lp, xJ);
}

float dpa_hmm_ssv_msv(const dpa_hmm_profile *p, const dpa_hmm_len_params *lp, const uint8_t *dsq, void *work,
                      dpa_hmm_ssv_xe_fn xe_fn) {
    float sc;
    if (dpa_hmm_ssv(p, lp, dsq, work, xe_fn, &sc) == 0) return sc;
    return dpa_hmm_msv_full_ref(p, lp, dsq, work);
}

float dpa_hmm_ssv_msv_ref(const dpa_hmm_profile *p, const dpa_hmm_len_params *lp, const uint8_t *dsq,
                          void *work) {
    return dpa_hmm_ssv_msv(p, lp, dsq, work, dpa_hmm_ssv_xe_ref);
}

float dpa_hmm_vit_ref(const dpa_hmm_profile *p, const dpa_hmm_len_params *lp, const uint8_t *dsq, void *work) {
    const int M = p->M, L = lp->L;
    const size_t cols = (size_t)M + 1;
    const size_t n = (size_t)M + 2;
    int16_t *Mp = (int16_t *)work, *Ip = Mp + n, *Dp = Ip + n, *Mc = Dp + n, *Ic = Mc + n, *Dc = Ic + n;
    for (size_t k = 0; k < n; k++) Mp[k] = Ip[k] = Dp[k] = -32768;
    Mc[0] = Ic[0] = Dc[0] = -32768;
    const int16_t *tw = p->tw;
    int16_t xN = p->base_w;
    int16_t xB = (int16_t)(xN + lp->xw_move);
    int16_t xJ = -32768, xC = -32768;
    for (int i = 1; i <= L; i++) {
        const int16_t *rsc = p->rw + (size_t)dsq[i - 1] * cols;
        int16_t xE = -32768, Dmax = -32768;
        Dc[1] = -32768;
        for (int k = 1; k <= M; k++) {
            const int16_t *w = tw + (size_t)k * DPA_HMM_W_N;
            int16_t sv = adds16(xB, w[DPA_HMM_W_BM]);
            int16_t c;
            c = adds16(Mp[k - 1], w[DPA_HMM_W_MM]); if (c > sv) sv = c;
            c = adds16(Ip[k - 1], w[DPA_HMM_W_IM]); if (c > sv) sv = c;
            c = adds16(Dp[k - 1], w[DPA_HMM_W_DM]); if (c > sv) sv = c;
            sv = adds16(sv, rsc[k]);
            if (sv > xE) xE = sv;
            Mc[k] = sv;
            int16_t dc = adds16(sv, w[DPA_HMM_W_MD]); /* D(i,k+1) from M; k = M lands in padding */
            if (dc > Dmax) Dmax = dc;
            Dc[k + 1] = dc;
            int16_t a = adds16(Mp[k], w[DPA_HMM_W_MI]), b = adds16(Ip[k], w[DPA_HMM_W_II]);
            Ic[k] = a > b ? a : b;
        }
        if (xE >= 32767) return INFINITY;
        /* NN = CC = JJ = 0 (HMMER's -3 nat approximation); int arithmetic stored to int16 */
        xC = (int16_t)((int)xC > (int)xE + p->xw_e_move ? (int)xC : (int)xE + p->xw_e_move);
        xJ = (int16_t)((int)xJ > (int)xE + p->xw_e_loop ? (int)xJ : (int)xE + p->xw_e_loop);
        {
            int a = (int)xJ + lp->xw_move, b = (int)xN + lp->xw_move;
            xB = (int16_t)(a > b ? a : b);
        }
        if ((int)Dmax + p->ddbound_w > (int)xB) {
            for (int k = 2; k <= M; k++) {
                int16_t c = adds16(Dc[k - 1], tw[(size_t)(k - 1) * DPA_HMM_W_N + DPA_HMM_W_DD]);
                if (c > Dc[k]) Dc[k] = c;
            }
        }
        int16_t *t;
        t = Mp; Mp = Mc; Mc = t;
        t = Ip; Ip = Ic; Ic = t;
        t = Dp; Dp = Dc; Dc = t;
        Mc[0] = Ic[0] = Dc[0] = -32768;
    }
    return dpa_hmm_vit_score(p, lp, xC);
}

float dpa_hmm_bias_filtersc(const dpa_hmm_profile *p, const dpa_hmm_len_params *lp, const uint8_t *dsq) {
    const int L = lp->L;
    float t[2][3];
    t[0][0] = lp->p1; /* p7_bg_SetLength overwrites the background state's loop */
    t[0][1] = 1.0f - lp->p1;
    t[0][2] = 1.0f;
    t[1][0] = p->fh_t1[0];
    t[1][1] = p->fh_t1[1];
    t[1][2] = p->fh_t1[2];
    float dp[2], nd[2];
    float max = 0.0f;
    for (int k = 0; k < 2; k++) {
        dp[k] = p->fh_eo[dsq[0]][k] * p->fh_pi[k];
        max = dp[k] > max ? dp[k] : max;
    }
    for (int k = 0; k < 2; k++) dp[k] /= max;
    float logsc = 0.0f;
    logsc += (float)log((double)max);
    for (int i = 2; i <= L; i++) {
        const int x = dsq[i - 1];
        max = 0.0f;
        for (int k = 0; k < 2; k++) {
            float v = 0.0f;
            for (int m = 0; m < 2; m++) {
                float prod = dp[m] * t[m][k];
                v += prod;
            }
            v *= p->fh_eo[x][k];
            nd[k] = v;
            max = v > max ? v : max;
        }
        for (int k = 0; k < 2; k++) dp[k] = nd[k] / max;
        logsc += (float)log((double)max);
    }
    float end = 0.0f;
    for (int m = 0; m < 2; m++) {
        float prod = dp[m] * t[m][2];
        end += prod;
    }
    logsc += (float)log((double)end);
    float sc = logsc + (float)L * logf(lp->p1);
    sc = sc + logf((float)(1. - (double)lp->p1));
    return sc;
}

double dpa_hmm_gumbel_surv(double x, double mu, double lambda) {
    double y = lambda * (x - mu);
    double ey = -exp(-y);
    if (fabs(ey) < 5e-9) return -ey;
    return 1 - exp(ey);
}

static float to_bits(float sc, float base) { return (float)((double)(sc - base) / LOG2_D); }

void dpa_hmm_filter_one_ref(const dpa_hmm_profile *p, const uint8_t *dsq, int32_t L, const dpa_hmm_filter_opts *o,
                            void *work, dpa_hmm_filter_out *out) {
    dpa_hmm_filter_one(p, dsq, L, o, work, &dpa_hmm_kernels_ref, out);
}

const dpa_hmm_kernels dpa_hmm_kernels_ref = { dpa_hmm_ssv_xe_ref, dpa_hmm_vit_ref };

int dpa_hmm_filter_after_msv(const dpa_hmm_profile *p, const dpa_hmm_len_params *lp, const uint8_t *dsq,
                             const dpa_hmm_filter_opts *o, float usc, dpa_hmm_filter_out *out, float *filtersc_out) {
    const float msv_bits = to_bits(usc, lp->nullsc);
    const double msv_P = dpa_hmm_gumbel_surv(msv_bits, p->msv_mu, p->msv_lambda);
    if (!dsq && o->do_bias && (msv_P <= o->F1 || o->all_scores)) return DPA_HMM_NEEDS_DSQ;
    memset(out, 0, sizeof *out);
    out->msv_bits = msv_bits;
    out->msv_P = msv_P;
    out->has = DPA_HMM_HAS_MSV;
    out->pass_msv = out->msv_P <= o->F1;
    int go = out->pass_msv;
    float filtersc = lp->nullsc;
    double P = out->msv_P;
    if (o->do_bias && (go || o->all_scores)) {
        filtersc = dpa_hmm_bias_filtersc(p, lp, dsq);
        out->bias_bits = to_bits(usc, filtersc);
        out->bias_P = dpa_hmm_gumbel_surv(out->bias_bits, p->msv_mu, p->msv_lambda);
        out->has |= DPA_HMM_HAS_BIAS;
        P = out->bias_P;
        go = go && out->bias_P <= o->F1;
    }
    out->pass_bias = (uint8_t)go;
    out->pass_vit = (uint8_t)go; /* final unless the Viterbi filter decides */
    *filtersc_out = filtersc;
    if (go && P > o->F2) return DPA_HMM_VIT_DECIDES;
    return o->all_scores ? DPA_HMM_VIT_SCORE_ONLY : DPA_HMM_VIT_NONE;
}

void dpa_hmm_filter_after_vit(const dpa_hmm_profile *p, int need, float vfsc, float filtersc,
                              const dpa_hmm_filter_opts *o, dpa_hmm_filter_out *out) {
    out->vit_bits = to_bits(vfsc, filtersc);
    out->vit_P = dpa_hmm_gumbel_surv(out->vit_bits, p->vit_mu, p->vit_lambda);
    out->has |= DPA_HMM_HAS_VIT;
    if (need == DPA_HMM_VIT_DECIDES) out->pass_vit = out->vit_P <= o->F2;
}

void dpa_hmm_filter_one(const dpa_hmm_profile *p, const uint8_t *dsq, int32_t L, const dpa_hmm_filter_opts *o,
                        void *work, const dpa_hmm_kernels *k, dpa_hmm_filter_out *out) {
    dpa_hmm_len_params lp;
    dpa_hmm_len_params_init(L, &lp);
    dpa_hmm_filter_one_lp(p, &lp, dsq, o, work, k, out);
}

void dpa_hmm_filter_one_lp(const dpa_hmm_profile *p, const dpa_hmm_len_params *lp, const uint8_t *dsq,
                           const dpa_hmm_filter_opts *o, void *work, const dpa_hmm_kernels *k, dpa_hmm_filter_out *out) {
    const float usc = dpa_hmm_ssv_msv(p, lp, dsq, work, k->ssv);
    float filtersc;
    const int need = dpa_hmm_filter_after_msv(p, lp, dsq, o, usc, out, &filtersc);
    if (need != DPA_HMM_VIT_NONE) dpa_hmm_filter_after_vit(p, need, k->vit(p, lp, dsq, work), filtersc, o, out);
}
