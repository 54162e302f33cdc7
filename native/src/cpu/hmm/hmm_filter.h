/*
 * hmm_filter.h — hmmsearch 3.4's filter pipeline up to the Viterbi filter for one (profile,
 * sequence): scores in nats as p7_MSVFilter (SSV first, MSV when SSV cannot decide),
 * p7_bg_FilterScore and p7_ViterbiFilter return them, then bits, Gumbel P-values and the
 * pass decisions of p7_Pipeline. The scalar functions here are the reference every fast
 * kernel must equal bit for bit.
 */
#ifndef DPA_CPU_HMM_FILTER_H
#define DPA_CPU_HMM_FILTER_H

#include <stddef.h>
#include <stdint.h>

#include "cpu/hmm/hmm_profile.h"

/* The diagonal SSV's scratch (hmm_ssv_diag.h): two index arrays of DPA_HMM_DIAG_PAD + L +
 * M + W bytes each (M <= DPA_HMM_DIAG_MAX_M, W <= 64), each 64-byte aligned. */
#define DPA_HMM_DIAG_PAD 128
#define DPA_HMM_DIAG_WORK (2 * ((size_t)DPA_HMM_MAX_L + 4 * DPA_HMM_DIAG_PAD) + 64)
/* Scratch for one (profile, sequence): sized by dpa_hmm_work_bytes(M); any kernel's. */
size_t dpa_hmm_work_bytes(int32_t M);

/* dsq: L digital codes (0..28). Each returns nats; +inf on 8/16-bit overflow as HMMER. */
float dpa_hmm_ssv_msv_ref(const dpa_hmm_profile *p, const dpa_hmm_len_params *lp, const uint8_t *dsq,
                          void *work);
float dpa_hmm_vit_ref(const dpa_hmm_profile *p, const dpa_hmm_len_params *lp, const uint8_t *dsq, void *work);
float dpa_hmm_bias_filtersc(const dpa_hmm_profile *p, const dpa_hmm_len_params *lp, const uint8_t *dsq);

/* SSV's maximum (HMMER's get_xE): 128 + the best diagonal score above the begin level, any
 * value >= 255 - bias meaning overflow. Kernels: scalar, AVX2, AVX-512 (hmm_ssv_avx*.c);
 * all give the same decision and score through dpa_hmm_ssv. work: dpa_hmm_work_bytes(M). */
typedef uint8_t (*dpa_hmm_ssv_xe_fn)(const dpa_hmm_profile *p, const uint8_t *dsq, int32_t L, void *work);
uint8_t dpa_hmm_ssv_xe_ref(const dpa_hmm_profile *p, const uint8_t *dsq, int32_t L, void *work);
#ifdef DPA_HAVE_AVX2
uint8_t dpa_hmm_ssv_xe_avx2(const dpa_hmm_profile *p, const uint8_t *dsq, int32_t L, void *work);
#endif
#ifdef DPA_HAVE_AVX512
uint8_t dpa_hmm_ssv_xe_avx512(const dpa_hmm_profile *p, const uint8_t *dsq, int32_t L, void *work);
#endif
typedef float (*dpa_hmm_vit_fn)(const dpa_hmm_profile *p, const dpa_hmm_len_params *lp, const uint8_t *dsq,
                                void *work);
#ifdef DPA_HAVE_AVX2
float dpa_hmm_vit_avx2(const dpa_hmm_profile *p, const dpa_hmm_len_params *lp, const uint8_t *dsq, void *work);
#endif
#ifdef DPA_HAVE_AVX512
float dpa_hmm_vit_avx512(const dpa_hmm_profile *p, const dpa_hmm_len_params *lp, const uint8_t *dsq, void *work);
#endif
/* The Viterbi filter of one model against two targets in one sweep (hmm_vit_pair.h):
 * sc[0], sc[1] equal the single kernel's scores of A and B. work: dpa_hmm_work_bytes(M). */
typedef void (*dpa_hmm_vit2_fn)(const dpa_hmm_profile *p, const dpa_hmm_len_params *lpa, const uint8_t *dsqa,
                                const dpa_hmm_len_params *lpb, const uint8_t *dsqb, void *work, float sc[2]);
#ifdef DPA_HAVE_AVX2
void dpa_hmm_vit2_avx2(const dpa_hmm_profile *p, const dpa_hmm_len_params *lpa, const uint8_t *dsqa,
                       const dpa_hmm_len_params *lpb, const uint8_t *dsqb, void *work, float sc[2]);
#endif
#ifdef DPA_HAVE_AVX512
void dpa_hmm_vit2_avx512(const dpa_hmm_profile *p, const dpa_hmm_len_params *lpa, const uint8_t *dsqa,
                         const dpa_hmm_len_params *lpb, const uint8_t *dsqb, void *work, float sc[2]);
#endif
/* The kernels one pipeline run uses. */
typedef struct dpa_hmm_kernels {
    dpa_hmm_ssv_xe_fn ssv;
    dpa_hmm_vit_fn vit;
} dpa_hmm_kernels;
extern const dpa_hmm_kernels dpa_hmm_kernels_ref;
/* SSV alone (p7_SSVFilter): returns 0 and *sc when it decides, 1 when MSV must be run. */
int dpa_hmm_ssv(const dpa_hmm_profile *p, const dpa_hmm_len_params *lp, const uint8_t *dsq, void *work,
                dpa_hmm_ssv_xe_fn xe_fn, float *sc);
int dpa_hmm_ssv_ref(const dpa_hmm_profile *p, const dpa_hmm_len_params *lp, const uint8_t *dsq, float *sc);
float dpa_hmm_ssv_msv(const dpa_hmm_profile *p, const dpa_hmm_len_params *lp, const uint8_t *dsq, void *work,
                      dpa_hmm_ssv_xe_fn xe_fn);
/* The pieces of dpa_hmm_ssv, for kernels that compute xE elsewhere (CUDA): the guard (1:
 * SSV cannot decide for this L, run the full MSV), and the decision from SSV's xE (0 and
 * *sc, or 1: run the full MSV). */
int dpa_hmm_ssv_guard(const dpa_hmm_profile *p, const dpa_hmm_len_params *lp);
int dpa_hmm_ssv_decide(const dpa_hmm_profile *p, const dpa_hmm_len_params *lp, int xE, float *sc);
/* Nats from the DP's final integers: the full MSV's xJ (0..255; overflow is +inf, not
 * passed here) and the Viterbi filter's xC (-32768 = no path: -inf). Every kernel's
 * float conversion goes through these. */
float dpa_hmm_msv_score(const dpa_hmm_profile *p, const dpa_hmm_len_params *lp, int xJ);
float dpa_hmm_vit_score(const dpa_hmm_profile *p, const dpa_hmm_len_params *lp, int xC);
float dpa_hmm_msv_full_ref(const dpa_hmm_profile *p, const dpa_hmm_len_params *lp, const uint8_t *dsq,
                           void *work);

/* Pipeline decisions. Flags are cumulative: pass_bias implies pass_msv, and so on. */
#define DPA_HMM_HAS_MSV 1u
#define DPA_HMM_HAS_BIAS 2u
#define DPA_HMM_HAS_VIT 4u
typedef struct dpa_hmm_filter_opts {
    double F1, F2;
    int do_bias;     /* hmmsearch default 1; --nobias 0 */
    int all_scores;  /* compute bias and Viterbi scores even where the pipeline stops */
} dpa_hmm_filter_opts;

typedef struct dpa_hmm_filter_out {
    float msv_bits, bias_bits, vit_bits;
    double msv_P, bias_P, vit_P;
    uint8_t pass_msv, pass_bias, pass_vit;
    uint8_t has; /* DPA_HMM_HAS_* : which scores were computed */
} dpa_hmm_filter_out;

double dpa_hmm_gumbel_surv(double x, double mu, double lambda);

/* Runs the pipeline; L must be in [1, DPA_HMM_MAX_L]. k picks the SSV and Viterbi-filter
 * kernels; the full MSV (when SSV cannot decide) and the bias filter are scalar. */
void dpa_hmm_filter_one(const dpa_hmm_profile *p, const uint8_t *dsq, int32_t L, const dpa_hmm_filter_opts *o,
                        void *work, const dpa_hmm_kernels *k, dpa_hmm_filter_out *out);
/* The same with the length parameters of L = lp->L computed by the caller (once per length,
 * not per pair: their logf calls were ~10% of a small model's pair). */
void dpa_hmm_filter_one_lp(const dpa_hmm_profile *p, const dpa_hmm_len_params *lp, const uint8_t *dsq,
                           const dpa_hmm_filter_opts *o, void *work, const dpa_hmm_kernels *k, dpa_hmm_filter_out *out);
/* dpa_hmm_filter_one in two halves around the Viterbi filter, for kernels that batch the
 * DP elsewhere (CUDA): after_msv takes the MSV score usc (nats), fills the MSV and bias
 * fields and flags of out, and says whether the Viterbi filter must run; after_vit adds its
 * score vfsc (nats). filtersc carries the null score from one to the other. */
enum { DPA_HMM_VIT_NONE = 0, DPA_HMM_VIT_SCORE_ONLY = 1, DPA_HMM_VIT_DECIDES = 2 };
/* after_msv's answer when dsq is NULL and the bias filter must read the sequence: nothing
 * was written; call again with the digitised sequence (the GPU path digitises only these). */
enum { DPA_HMM_NEEDS_DSQ = -1 };
int dpa_hmm_filter_after_msv(const dpa_hmm_profile *p, const dpa_hmm_len_params *lp, const uint8_t *dsq,
                             const dpa_hmm_filter_opts *o, float usc, dpa_hmm_filter_out *out, float *filtersc);
void dpa_hmm_filter_after_vit(const dpa_hmm_profile *p, int need, float vfsc, float filtersc,
                              const dpa_hmm_filter_opts *o, dpa_hmm_filter_out *out);
/* The same with the scalar SSV. */
void dpa_hmm_filter_one_ref(const dpa_hmm_profile *p, const uint8_t *dsq, int32_t L, const dpa_hmm_filter_opts *o,
                            void *work, dpa_hmm_filter_out *out);

#endif
