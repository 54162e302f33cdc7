/*
 * hmm_profile.h — a model configured the way hmmsearch 3.4 configures it for its filters:
 * p7_ProfileConfig(hmm, bg, gm, 100, p7_LOCAL) (float scores in nats), p7_oprofile_Convert's
 * byte (MSV/SSV, 1/3 bit) and word (Viterbi filter, 1/500 bit) quantisations, and
 * p7_bg_SetFilter's two-state bias HMM. Tables are kept unstriped, node-major per residue,
 * so every kernel (scalar, SIMD, GPU) can lay them out as it likes; striping is the kernel's
 * business. Length-dependent values (per target length L) come from dpa_hmm_len_params.
 * Float arithmetic follows HMMER's order and precision exactly; compile without FP
 * contraction (-ffp-contract=off) so no fused multiply-add changes a rounding.
 */
#ifndef DPA_CPU_HMM_PROFILE_H
#define DPA_CPU_HMM_PROFILE_H

#include <stdint.h>

#include "cpu/hmm/hmm_model.h"

#define DPA_HMM_MAX_L 100000 /* hmmsearch's pipeline limit on target length */
#define DPA_HMM_DIAG_MAX_M 128 /* models that get the diagonal SSV table (ssv_diag) */

/* word transition indices into M_k (from node k-1) and out of node k */
enum { DPA_HMM_W_BM, DPA_HMM_W_MM, DPA_HMM_W_IM, DPA_HMM_W_DM, DPA_HMM_W_MD, DPA_HMM_W_MI, DPA_HMM_W_II,
       DPA_HMM_W_DD, DPA_HMM_W_N };

typedef struct dpa_hmm_profile {
    int32_t M;
    /* generic profile, nats */
    float *msc; /* (M+1) x 29, row 0 = -inf */
    /* MSV / SSV bytes */
    uint8_t *rb;   /* 29 x (M+1): rb[x*(M+1)+k], biased costs; column 0 unused */
    uint8_t bias_b, base_b, tbm_b, tec_b;
    float scale_b;
    /* Viterbi filter words */
    int16_t *rw;   /* 29 x (M+1) match scores; column 0 unused */
    int16_t *tw;   /* (M+1) x DPA_HMM_W_N; row k: BM,MM,IM,DM into M_k; MD,MI,II,DD out of node k */
    int16_t xw_e_move, xw_e_loop, base_w;
    int32_t ddbound_w;
    float scale_w;
    /* bias filter HMM (state 0 = background, 1 = model composition), before SetLength */
    float fh_t1[3];            /* state 1 -> 0, 1, end */
    float fh_eo[DPA_HMM_KP][2];
    float fh_pi[2];
    /* SSV costs striped for W-byte vectors (W = 32, 64): Q = ceil(M / W) segments; byte z
     * of segment q of residue x holds HMMER's signed sbv (rb - bias, at most 127) of node
     * q + z Q + 1, or 127 past M. ssv[i] is 64-byte aligned; i = 0: W 32, i = 1: W 64. */
    uint8_t *ssv[2];
    int32_t ssv_q[2];
    /* The same signed costs node-major for the diagonal SSV of small models
     * (hmm_ssv_diag.h), M <= DPA_HMM_DIAG_MAX_M only (NULL otherwise): node k's 32 bytes
     * are sbv(k, x) for codes x = 0..31, 127 (the largest cost) for the unused codes 29..31,
     * so code 31 pads the residue windows past either end of the target. */
    uint8_t *ssv_diag;
    /* Viterbi-filter words striped for W int16 lanes, [0]: W 16 (AVX2), [1]: W 32 (AVX-512):
     * Q = vf_q = ceil(M / W); node k = q + z Q + 1 in lane z. vf_rw: residue x, segment q ->
     * W words (rw, -32768 past M); vf_tw: segment q -> 8 vectors in DPA_HMM_W_* order
     * (-32768 past M). 64-byte aligned. */
    int16_t *vf_rw[2], *vf_tw[2];
    int32_t vf_q[2];
    /* calibration */
    float msv_mu, msv_lambda, vit_mu, vit_lambda;
} dpa_hmm_profile;

/* Per target length L (1..DPA_HMM_MAX_L). */
typedef struct dpa_hmm_len_params {
    int32_t L;
    uint8_t tjb_b;
    int16_t xw_move;  /* N, C, J -> move, 1/500 bit */
    float nullsc;     /* p7_bg_NullOne, nats */
    float p1;         /* bg->p1 = L/(L+1) */
} dpa_hmm_len_params;

dpa_status dpa_hmm_profile_build(const dpa_hmm_model *model, dpa_hmm_profile *prof);
void dpa_hmm_profile_free(dpa_hmm_profile *prof);
void dpa_hmm_len_params_init(int32_t L, dpa_hmm_len_params *lp);

/* HMMER's background amino frequencies (p7_AminoFrequencies), float. */
extern const float dpa_hmm_bg_f[DPA_HMM_K];

#endif
