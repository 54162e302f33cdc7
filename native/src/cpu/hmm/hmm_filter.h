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
/* The same with the scalar SSV. */
void dpa_hmm_filter_one_ref(const dpa_hmm_profile *p, const uint8_t *dsq, int32_t L, const dpa_hmm_filter_opts *o,
                            void *work, dpa_hmm_filter_out *out);

#endif
