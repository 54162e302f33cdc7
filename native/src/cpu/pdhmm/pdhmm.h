/*
 * pdhmm.h — internal PDHMM operations shared by the scalar reference, the SIMD kernels and
 * the engine (engine/pdhmm_workload.c). Semantics: GATK 4.6 LoglessPDPairHMM, docs/pdhmm.md.
 *
 * Contract of every kernel (dpa_pdhmm_kernel_fn):
 *   - the batch has passed dpa_pdhmm_validate(); kernels never see bad input;
 *   - for each of the n pair indices writes that pair's scaled sum to out[pair]: the sum of
 *     M + I over the last row, 2^1020 times the probability (dpa_pdhmm_log10_of turns it
 *     into the log10 likelihood; the engine does that once, so that a JVM caller can take
 *     the log10 with its own Math.log10 and match GATK's Java to the bit);
 *   - double precision only, IEEE mode (no FTZ: GATK's Java never flushes), the caller's
 *     floating-point mode restored on return;
 *   - Errors: DPA_ERR_OUT_OF_MEMORY when scratch cannot be allocated (out partly written).
 */
#ifndef DPA_CPU_PDHMM_H
#define DPA_CPU_PDHMM_H

#include <math.h>
#include <stdint.h>
#include <string.h>

#include "dpaccel.h"

/* GATK's INITIAL_CONDITION, 2^1020: D's first row starts at it over hap_len and the result
 * is log10(sum) - log10(2^1020). */
#define DPA_PDHMM_INITIAL ldexp(1.0, 1020)

/* The log10 likelihood of a kernel's scaled sum, as GKL's C code takes it. */
static inline double dpa_pdhmm_log10_of(double scaled_sum)
{
    return log10(scaled_sum) - log10(DPA_PDHMM_INITIAL);
}

/* One pair, resolved to pointers. */
typedef struct dpa_pdhmm_pair {
    const uint8_t *hap, *pd;
    int32_t hap_len;
    const uint8_t *read, *base_q, *ins_q, *del_q, *gcp_q;
    int32_t read_len;
} dpa_pdhmm_pair;

static inline dpa_pdhmm_pair dpa_pdhmm_pair_of(const dpa_pdhmm_batch *b, int32_t k)
{
    dpa_pdhmm_pair p;
    const int64_t ho = b->hap_offsets[k], ro = b->read_offsets[k];
    p.hap = b->hap_bases + ho;
    p.pd = b->hap_pd_bases + ho;
    p.hap_len = b->hap_lengths[k];
    p.read = b->read_bases + ro;
    p.base_q = b->base_quals + ro;
    p.ins_q = b->ins_quals + ro;
    p.del_q = b->del_quals + ro;
    p.gcp_q = b->gcp_quals + ro;
    p.read_len = b->read_lengths[k];
    return p;
}

/* Same haplotype: the same bases and PD bytes. GATK packs a copy per pair, so equal offsets
 * are the shortcut, not the rule. */
static inline int dpa_pdhmm_same_hap(const dpa_pdhmm_pair *a, const dpa_pdhmm_pair *b)
{
    if (a->hap_len != b->hap_len) return 0;
    const size_t len = (size_t)a->hap_len;
    return a->hap == b->hap ||
           (memcmp(a->hap, b->hap, len) == 0 && memcmp(a->pd, b->pd, len) == 0);
}

/* QualityUtils.qualToErrorProb: written q / -10.0 as GATK does, so the double is the same
 * bit pattern as its cache entry. */
static inline double dpa_pdhmm_err(uint8_t q) { return pow(10.0, (double)q / -10.0); }

/* GATK's MathUtils.fastRound. */
static inline int32_t dpa_pdhmm_round(double d)
{
    return d > 0.0 ? (int32_t)(d + 0.5) : (int32_t)(d - 0.5);
}

/* PairHMMModel.matchToMatchProb for qualities <= 254: its table entry is
 * 10^(log1p(-min(1, 10^s)) / ln 10) with s = approximateLog10SumLog10(-q_max/10, -q_min/10),
 * whose Jacobian correction is log10(1 + 10^(-k * 1e-4)) at k = round(diff * 1e4) (the
 * 8.0 tolerance drops it). Recomputed from the same formula per read position rather than
 * kept in a table, so there is no global state; the values are the table's to the last ulp
 * up to libm differences. */
static inline double dpa_pdhmm_m2m(uint8_t ins, uint8_t del)
{
    const int32_t lo = ins < del ? ins : del, hi = ins < del ? del : ins;
    const double a = -0.1 * hi, b = -0.1 * lo;
    const double diff = b - a;
    double s = b;
    if (diff < 8.0) {
        const int32_t k = dpa_pdhmm_round(diff * (1.0 / 0.0001));
        s += log10(1.0 + pow(10.0, (double)(-k) * 0.0001));
    }
    const double l = log1p(-fmin(1.0, pow(10.0, s))) * (1.0 / log(10.0));
    return pow(10.0, l);
}

/* Transitions of one read position (PairHMMModel.qualToTransProbs). */
enum { DPA_PD_MM = 0, DPA_PD_GM = 1, DPA_PD_MI = 2, DPA_PD_II = 3, DPA_PD_MD = 4, DPA_PD_DD = 5 };

static inline void dpa_pdhmm_transitions(const dpa_pdhmm_pair *p, int32_t i, double t[6])
{
    const double eg = dpa_pdhmm_err(p->gcp_q[i]);
    t[DPA_PD_MM] = dpa_pdhmm_m2m(p->ins_q[i], p->del_q[i]);
    t[DPA_PD_GM] = 1.0 - eg;
    t[DPA_PD_MI] = dpa_pdhmm_err(p->ins_q[i]);
    t[DPA_PD_II] = eg;
    t[DPA_PD_MD] = dpa_pdhmm_err(p->del_q[i]);
    t[DPA_PD_DD] = eg;
}

/* The PD bit a read byte selects at a SNP position (0 for anything but A C G T). */
static inline uint8_t dpa_pdhmm_base_bit(uint8_t x)
{
    switch (x) {
    case 'A': case 'a': return DPA_PD_A;
    case 'C': case 'c': return DPA_PD_C;
    case 'G': case 'g': return DPA_PD_G;
    case 'T': case 't': return DPA_PD_T;
    default: return 0;
    }
}

/* LoglessPDPairHMM.initializePriors' match test; validation has excluded the byte pairs
 * for which GATK throws. */
static inline int dpa_pdhmm_matches(uint8_t x, uint8_t y, uint8_t pd)
{
    return x == y || x == 'N' || y == 'N' ||
           ((pd & DPA_PD_SNP) && (pd & dpa_pdhmm_base_bit(x)));
}

/* Scalar reference on one pair; rows is dpa_pdhmm_rows. scratch holds DPA_PDHMM_REF_ROWS *
 * (hap_len + 1) doubles. */
#define DPA_PDHMM_REF_ROWS 12
double dpa_pdhmm_sum_scalar(const dpa_pdhmm_pair *p, int32_t rows, double *scratch);

typedef dpa_status (*dpa_pdhmm_kernel_fn)(const dpa_pdhmm_batch *batch, const int32_t *pairs,
                                          int64_t n, int32_t rows, double *out);

typedef struct dpa_pdhmm_ops {
    dpa_isa isa;
    const char *name;
    dpa_pdhmm_kernel_fn compute;
} dpa_pdhmm_ops;

dpa_status dpa_pdhmm_compute_scalar(const dpa_pdhmm_batch *batch, const int32_t *pairs,
                                    int64_t n, int32_t rows, double *out);
#ifdef DPA_HAVE_AVX2
dpa_status dpa_pdhmm_compute_avx2(const dpa_pdhmm_batch *batch, const int32_t *pairs,
                                  int64_t n, int32_t rows, double *out);
#endif
#ifdef DPA_HAVE_AVX512
dpa_status dpa_pdhmm_compute_avx512(const dpa_pdhmm_batch *batch, const int32_t *pairs,
                                    int64_t n, int32_t rows, double *out);
#endif

/* Fastest kernel whose ISA bit is set in allowed_isa_mask (bit i = dpa_isa i). */
static inline void dpa_pdhmm_select(unsigned allowed_isa_mask, dpa_pdhmm_ops *out)
{
#ifdef DPA_HAVE_AVX512
    if (allowed_isa_mask & (1u << DPA_ISA_AVX512)) {
        out->isa = DPA_ISA_AVX512;
        out->name = "avx512";
        out->compute = dpa_pdhmm_compute_avx512;
        return;
    }
#endif
#ifdef DPA_HAVE_AVX2
    if (allowed_isa_mask & (1u << DPA_ISA_AVX2)) {
        out->isa = DPA_ISA_AVX2;
        out->name = "avx2";
        out->compute = dpa_pdhmm_compute_avx2;
        return;
    }
#endif
    (void)allowed_isa_mask;
    out->isa = DPA_ISA_SCALAR;
    out->name = "scalar";
    out->compute = dpa_pdhmm_compute_scalar;
}

#endif
