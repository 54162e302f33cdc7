/*
 * hmm_profile.c — hmmsearch 3.4's per-model configuration, reproduced operation by
 * operation (the casts between float and double below are HMMER's, and they decide the
 * last bit of many scores: keep them).
 */
#include "cpu/hmm/hmm_profile.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "common/status.h"

#define LOG2_D 0.69314718055994529 /* eslCONST_LOG2 */

const float dpa_hmm_bg_f[DPA_HMM_K] = {
    0.0787945f, 0.0151600f, 0.0535222f, 0.0668298f, 0.0397062f, 0.0695071f, 0.0229198f,
    0.0590092f, 0.0594422f, 0.0963728f, 0.0237718f, 0.0414386f, 0.0482904f, 0.0395639f,
    0.0540978f, 0.0683364f, 0.0540687f, 0.0673417f, 0.0114135f, 0.0304133f};

/* Easel's amino degeneracies for codes 21..26 (B J Z O U X), as bit masks over 0..19. */
static uint32_t degen_mask(int x) {
    switch (x) {
    case 21: return (1u << 2) | (1u << 11);  /* B = D N */
    case 22: return (1u << 7) | (1u << 9);   /* J = I L */
    case 23: return (1u << 3) | (1u << 13);  /* Z = E Q */
    case 24: return 1u << 8;                 /* O = K */
    case 25: return 1u << 1;                 /* U = C */
    case 26: return (1u << 20) - 1;          /* X = any */
    default: return 0;
    }
}

static uint8_t unbiased_byteify(float scale_b, float sc) {
    sc = -1.0f * roundf(scale_b * sc);
    return (sc > 255.0f) ? 255 : (uint8_t)sc;
}

static uint8_t biased_byteify(float scale_b, uint8_t bias_b, float sc) {
    sc = -1.0f * roundf(scale_b * sc);
    if (sc > 255 - bias_b) return 255;
    /* sc >= -bias_b here because bias_b is the byteified maximum score */
    return (uint8_t)((int)sc + bias_b);
}

static int16_t wordify(float scale_w, float sc) {
    sc = roundf(scale_w * sc);
    if (sc >= 32767.0f) return 32767;
    if (sc <= -32768.0f) return -32768;
    return (int16_t)sc;
}

void dpa_hmm_profile_free(dpa_hmm_profile *prof) {
    if (!prof) return;
    free(prof->msc);
    free(prof->rb);
    free(prof->rw);
    free(prof->tw);
    free(prof->ssv[0]);
    free(prof->ssv[1]);
    free(prof->ssv_diag);
    for (int w = 0; w < 2; w++) {
        free(prof->vf_rw[w]);
        free(prof->vf_tw[w]);
    }
    memset(prof, 0, sizeof *prof);
}

dpa_status dpa_hmm_profile_build(const dpa_hmm_model *hmm, dpa_hmm_profile *p) {
    memset(p, 0, sizeof *p);
    const int M = hmm->M;
    const size_t cols = (size_t)M + 1;
    float *tsc = malloc(sizeof(float) * cols * 8);   /* HMMER p7P order MM IM DM BM MD DD MI II */
    float *occ = malloc(sizeof(float) * cols);
    p->msc = malloc(sizeof(float) * cols * DPA_HMM_KP);
    p->rb = malloc(cols * DPA_HMM_KP);
    p->rw = malloc(sizeof(int16_t) * cols * DPA_HMM_KP);
    p->tw = malloc(sizeof(int16_t) * cols * DPA_HMM_W_N);
    if (!tsc || !occ || !p->msc || !p->rb || !p->rw || !p->tw) {
        free(tsc);
        free(occ);
        dpa_hmm_profile_free(p);
        return dpa_fail(DPA_ERR_OUT_OF_MEMORY, "hmm profile of M = %d", M);
    }
    enum { MM, IM, DM, BM, MD, DD, MI, II };
    p->M = M;
    const float *const t = hmm->t;
#define T(k, s) t[(size_t)(k) * DPA_HMM_NTRANS + (s)]
#define TSC(k, s) tsc[(size_t)(k) * 8 + (s)]
    for (int s = 0; s < 8; s++) TSC(0, s) = -INFINITY;
    /* local entry: occupancy-weighted (p7_hmm_CalculateOccupancy, p7_ProfileConfig) */
    occ[0] = 0.0f;
    occ[1] = T(0, DPA_HMM_T_MI) + T(0, DPA_HMM_T_MM);
    for (int k = 2; k <= M; k++)
        occ[k] = (float)((double)(occ[k - 1] * (T(k - 1, DPA_HMM_T_MM) + T(k - 1, DPA_HMM_T_MI))) +
                         (1.0 - (double)occ[k - 1]) * (double)T(k - 1, DPA_HMM_T_DM));
    float Z = 0.0f;
    for (int k = 1; k <= M; k++) Z += occ[k] * (float)(M - k + 1);
    for (int k = 1; k <= M; k++) TSC(k - 1, BM) = (float)log((double)(occ[k] / Z));
    for (int k = 1; k < M; k++) {
        TSC(k, MM) = (float)log((double)T(k, DPA_HMM_T_MM));
        TSC(k, MI) = (float)log((double)T(k, DPA_HMM_T_MI));
        TSC(k, MD) = (float)log((double)T(k, DPA_HMM_T_MD));
        TSC(k, IM) = (float)log((double)T(k, DPA_HMM_T_IM));
        TSC(k, II) = (float)log((double)T(k, DPA_HMM_T_II));
        TSC(k, DM) = (float)log((double)T(k, DPA_HMM_T_DM));
        TSC(k, DD) = (float)log((double)T(k, DPA_HMM_T_DD));
    }
    free(occ);
    /* match scores, degenerate residues as background-weighted expectations */
    for (int x = 0; x < DPA_HMM_KP; x++) p->msc[x] = -INFINITY; /* row 0 */
    for (int k = 1; k <= M; k++) {
        float *sc = p->msc + (size_t)k * DPA_HMM_KP;
        for (int x = 0; x < DPA_HMM_K; x++)
            sc[x] = (float)log((double)hmm->mat[(size_t)k * DPA_HMM_K + x] / (double)dpa_hmm_bg_f[x]);
        sc[20] = sc[27] = sc[28] = -INFINITY;
        for (int x = 21; x <= 26; x++) {
            float result = 0.0f, denom = 0.0f;
            uint32_t mask = degen_mask(x);
            for (int y = 0; y < DPA_HMM_K; y++)
                if (mask & (1u << y)) {
                    float prod = sc[y] * dpa_hmm_bg_f[y];
                    result += prod;
                    denom += dpa_hmm_bg_f[y];
                }
            sc[x] = result / denom;
        }
    }
#define MSC(k, x) p->msc[(size_t)(k) * DPA_HMM_KP + (x)]
    /* MSV bytes (mf_conversion) */
    float max = 0.0f;
    for (int x = 0; x < DPA_HMM_K; x++)
        for (int k = 0; k <= M; k++) {
            /* HMMER scans match and insert scores; inserts are 0 (k < M) or -inf, and max starts at 0 */
            if (MSC(k, x) > max) max = MSC(k, x);
        }
    p->scale_b = (float)(3.0 / LOG2_D);
    p->base_b = 190;
    p->bias_b = unbiased_byteify(p->scale_b, -1.0f * max);
    for (int x = 0; x < DPA_HMM_KP; x++) {
        p->rb[(size_t)x * cols] = 255;
        for (int k = 1; k <= M; k++) p->rb[(size_t)x * cols + k] = biased_byteify(p->scale_b, p->bias_b, MSC(k, x));
    }
    p->tbm_b = unbiased_byteify(p->scale_b, logf(2.0f / ((float)M * (float)(M + 1))));
    p->tec_b = unbiased_byteify(p->scale_b, logf(0.5f));
    /* Viterbi filter words (vf_conversion) */
    p->scale_w = (float)(500.0 / LOG2_D);
    p->base_w = 12000;
    for (int x = 0; x < DPA_HMM_KP; x++) {
        p->rw[(size_t)x * cols] = -32768;
        for (int k = 1; k <= M; k++) p->rw[(size_t)x * cols + k] = wordify(p->scale_w, MSC(k, x));
    }
    for (int k = 0; k <= M; k++) {
        int16_t *w = p->tw + (size_t)k * DPA_HMM_W_N;
        static const int into[4] = {BM, MM, IM, DM};
        for (int j = 0; j < 4; j++) {
            int16_t v = (k >= 1) ? wordify(p->scale_w, TSC(k - 1, into[j])) : -32768;
            w[DPA_HMM_W_BM + j] = v <= 0 ? v : 0;
        }
        int16_t v;
        v = (k >= 1 && k < M) ? wordify(p->scale_w, TSC(k, MD)) : -32768;
        w[DPA_HMM_W_MD] = v <= 0 ? v : 0;
        v = (k >= 1 && k < M) ? wordify(p->scale_w, TSC(k, MI)) : -32768;
        w[DPA_HMM_W_MI] = v <= 0 ? v : 0;
        v = (k >= 1 && k < M) ? wordify(p->scale_w, TSC(k, II)) : -32768;
        w[DPA_HMM_W_II] = v <= -1 ? v : -1; /* HMMER forbids a zero-cost II */
        w[DPA_HMM_W_DD] = (k >= 1 && k < M) ? wordify(p->scale_w, TSC(k, DD)) : -32768;
    }
    p->xw_e_move = wordify(p->scale_w, (float)-LOG2_D);
    p->xw_e_loop = p->xw_e_move;
    p->ddbound_w = -32768;
    for (int k = 2; k < M - 1; k++) {
        int dd = (int)wordify(p->scale_w, TSC(k, DD)) + (int)wordify(p->scale_w, TSC(k + 1, DM)) -
                 (int)wordify(p->scale_w, TSC(k + 1, BM));
        if (dd > p->ddbound_w) p->ddbound_w = dd;
    }
    free(tsc);
    /* bias filter HMM (p7_bg_SetFilter + esl_hmm_Configure) */
    float L1 = (float)((float)M / 8.0);
    p->fh_t1[0] = 1.0f / (L1 + 1.0f);
    p->fh_t1[1] = L1 / (L1 + 1.0f);
    p->fh_t1[2] = 1.0f;
    p->fh_pi[0] = 0.999f;
    p->fh_pi[1] = 0.001f;
    const float *e[2] = {dpa_hmm_bg_f, hmm->compo};
    for (int x = 0; x < DPA_HMM_K; x++)
        for (int k = 0; k < 2; k++) p->fh_eo[x][k] = e[k][x] / dpa_hmm_bg_f[x];
    for (int k = 0; k < 2; k++) p->fh_eo[20][k] = p->fh_eo[27][k] = p->fh_eo[28][k] = 1.0f;
    for (int x = 21; x <= 26; x++)
        for (int k = 0; k < 2; k++) {
            float num = 0.0f, denom = 0.0f;
            uint32_t mask = degen_mask(x);
            for (int y = 0; y < DPA_HMM_K; y++)
                if (mask & (1u << y)) {
                    num += e[k][y];
                    denom += dpa_hmm_bg_f[y];
                }
            p->fh_eo[x][k] = denom > 0.0f ? num / denom : 0.0f;
        }
    for (int w = 0; w < 2; w++) {
        const int W = w ? 64 : 32, Q = (M + W - 1) / W;
        size_t bytes = (size_t)DPA_HMM_KP * (size_t)Q * W;
        p->ssv_q[w] = Q;
        p->ssv[w] = aligned_alloc(64, (bytes + 63) / 64 * 64);
        if (!p->ssv[w]) {
            dpa_hmm_profile_free(p);
            return dpa_fail(DPA_ERR_OUT_OF_MEMORY, "hmm profile of M = %d: SSV tables", M);
        }
        for (int x = 0; x < DPA_HMM_KP; x++)
            for (int q = 0; q < Q; q++)
                for (int z = 0; z < W; z++) {
                    const int k = q + z * Q + 1;
                    /* sf_conversion: ((127 + bias) -sat rbv) ^ 127, read as signed */
                    int u = 127 + p->bias_b - (k <= M ? p->rb[(size_t)x * cols + k] : 255);
                    p->ssv[w][((size_t)x * Q + q) * W + z] = (uint8_t)((u < 0 ? 0 : u) ^ 127);
                }
    }
    if (M <= DPA_HMM_DIAG_MAX_M) {
        /* C11's aligned_alloc wants a multiple of the alignment (ASan enforces it) */
        p->ssv_diag = aligned_alloc(64, ((size_t)M * 32 + 63) / 64 * 64);
        if (!p->ssv_diag) {
            dpa_hmm_profile_free(p);
            return dpa_fail(DPA_ERR_OUT_OF_MEMORY, "hmm profile of M = %d: SSV tables", M);
        }
        for (int k = 1; k <= M; k++)
            for (int x = 0; x < 32; x++) {
                int u = 127 + p->bias_b - (x < DPA_HMM_KP ? p->rb[(size_t)x * cols + k] : 255);
                p->ssv_diag[(size_t)(k - 1) * 32 + x] = (uint8_t)((u < 0 ? 0 : u) ^ 127);
            }
    }
    for (int w = 0; w < 2; w++) {
        const int W = w ? 32 : 16, Q = (M + W - 1) / W;
        size_t rbytes = sizeof(int16_t) * DPA_HMM_KP * (size_t)Q * W, tbytes = sizeof(int16_t) * (size_t)Q * 8 * W;
        p->vf_q[w] = Q;
        p->vf_rw[w] = aligned_alloc(64, (rbytes + 63) / 64 * 64);
        p->vf_tw[w] = aligned_alloc(64, (tbytes + 63) / 64 * 64);
        if (!p->vf_rw[w] || !p->vf_tw[w]) {
            dpa_hmm_profile_free(p);
            return dpa_fail(DPA_ERR_OUT_OF_MEMORY, "hmm profile of M = %d: Viterbi-filter tables", M);
        }
        for (int q = 0; q < Q; q++)
            for (int z = 0; z < W; z++) {
                const int k = q + z * Q + 1;
                for (int x = 0; x < DPA_HMM_KP; x++)
                    p->vf_rw[w][((size_t)x * Q + q) * W + z] = k <= M ? p->rw[(size_t)x * cols + k] : -32768;
                for (int tr = 0; tr < 8; tr++)
                    p->vf_tw[w][((size_t)q * 8 + tr) * W + z] = k <= M ? p->tw[(size_t)k * DPA_HMM_W_N + tr] : -32768;
            }
    }
    p->msv_mu = hmm->msv_mu;
    p->msv_lambda = hmm->msv_lambda;
    p->vit_mu = hmm->vit_mu;
    p->vit_lambda = hmm->vit_lambda;
    return DPA_OK;
#undef T
#undef TSC
#undef MSC
}

void dpa_hmm_len_params_init(int32_t L, dpa_hmm_len_params *lp) {
    lp->L = L;
    lp->tjb_b = unbiased_byteify((float)(3.0 / LOG2_D), logf(3.0f / (float)(L + 3)));
    float pmove = (2.0f + 1.0f) / ((float)L + 2.0f + 1.0f);
    lp->xw_move = wordify((float)(500.0 / LOG2_D), logf(pmove));
    lp->p1 = (float)L / (float)(L + 1);
    lp->nullsc = (float)((double)(float)L * log((double)lp->p1) + log(1. - (double)lp->p1));
}
