/*
 * pairhmm.h — internal PairHMM operations shared by the scalar reference, the SIMD
 * kernels and the dispatcher. See docs/pairhmm.md for the recurrence and the
 * float-then-double rule.
 *
 * Contract of every kernel (dpa_phmm_kernel_fn):
 *   - the batch has passed dpa_pairhmm_validate(); kernels never see bad input;
 *   - computes the log10 likelihood of each of the n tasks and writes out[task.out];
 *   - precision DPA_PRECISION_FLOAT_THEN_DOUBLE: float with 2^120 scaling; a pair whose
 *     float sum is below DPA_PHMM_MIN_ACCEPTED is recomputed in double (a normal
 *     outcome, counted in *double_recomputes); DPA_PRECISION_DOUBLE: double only;
 *   - saves the caller's floating-point mode, sets what it needs, restores it on return;
 *   - Errors: DPA_ERR_OUT_OF_MEMORY if scratch cannot be allocated (out is then partly
 *     written); never anything else for validated input.
 */
#ifndef DPA_CPU_PAIRHMM_H
#define DPA_CPU_PAIRHMM_H

#include <math.h>
#include <stdint.h>

#include "dpaccel.h"
#include "common/work.h"

#define DPA_PHMM_MIN_ACCEPTED 1e-28
/* 2^120 and 2^1020, the scalings GATK/GKL use for float and double. */
#define DPA_PHMM_INITIAL_F32 1.329227995784916e+36
#define DPA_PHMM_LOG10_INITIAL_F32 36.12359947967774
#define DPA_PHMM_INITIAL_F64 1.1235582092889474e+307
#define DPA_PHMM_LOG10_INITIAL_F64 307.0505955772608

typedef dpa_status (*dpa_phmm_kernel_fn)(const dpa_pairhmm_batch *batch,
                                         const dpa_phmm_task *tasks, int64_t n,
                                         int32_t precision, double *out,
                                         int64_t *double_recomputes);

/* A kernel that shares a region's haplotype prefixes (pairhmm_prefix.h): the contract of
 * dpa_phmm_kernel_fn, plus *cells_computed += the cells it evaluated (shared columns once
 * per read; double recomputes not counted). */
typedef dpa_status (*dpa_phmm_prefix_fn)(const dpa_pairhmm_batch *batch,
                                         const dpa_phmm_task *tasks, int64_t n,
                                         int32_t precision, double *out,
                                         int64_t *double_recomputes, int64_t *cells_computed,
                                         int32_t across_lengths);

typedef struct dpa_phmm_ops {
    dpa_isa isa;
    const char *name;
    dpa_phmm_kernel_fn compute;
    dpa_phmm_prefix_fn prefix;
    dpa_phmm_prefix_fn suffix; /* prefix + suffix sharing (pairhmm_suffix.h), opt-in */
} dpa_phmm_ops;

/* One pair, resolved to pointers. */
typedef struct dpa_phmm_pair {
    const uint8_t *read, *base_q, *ins_q, *del_q, *gcp_q;
    int32_t read_len;
    const uint8_t *hap;
    int32_t hap_len;
} dpa_phmm_pair;

static inline dpa_phmm_pair dpa_phmm_pair_of(const dpa_pairhmm_batch *b, const dpa_phmm_task *t)
{
    dpa_phmm_pair p;
    int64_t ro = b->read_offsets[t->read];
    p.read = b->read_bases + ro;
    p.base_q = b->base_quals + ro;
    p.ins_q = b->ins_quals + ro;
    p.del_q = b->del_quals + ro;
    p.gcp_q = b->gcp_quals + ro;
    p.read_len = b->read_lengths[t->read];
    p.hap = b->hap_bases + b->hap_offsets[t->hap];
    p.hap_len = b->hap_lengths[t->hap];
    return p;
}

/* Phred to error probability, 10^(-q/10), computed exactly in double. */
static inline double dpa_phmm_err(uint8_t q) { return pow(10.0, -0.1 * (double)q); }

/* Transition probabilities of read position i (GATK PairHMMModel.qualToTransProbs):
 * m2m = 1 - min(1, e_ins + e_del)  (GATK's matchToMatchProb: its table clamps the sum at 1,
 *                              so Q0/Q1 gap penalties give 0, never a negative probability;
 *                              computed exactly rather than with its Jacobian-table
 *                              approximation of log10(sum); differences < 1e-9)
 * i2m = 1 - e_gcp (both indel-to-match transitions), m2i = e_ins, i2i = e_gcp,
 * m2d = e_del, d2d = e_gcp. */
enum { DPA_T_MM = 0, DPA_T_GM = 1, DPA_T_MI = 2, DPA_T_II = 3, DPA_T_MD = 4, DPA_T_DD = 5 };

static inline void dpa_phmm_transitions(const dpa_phmm_pair *p, int32_t i, double t[6])
{
    double ei = dpa_phmm_err(p->ins_q[i]);
    double ed = dpa_phmm_err(p->del_q[i]);
    double eg = dpa_phmm_err(p->gcp_q[i]);
    t[DPA_T_MM] = 1.0 - fmin(1.0, ei + ed);
    t[DPA_T_GM] = 1.0 - eg;
    t[DPA_T_MI] = ei;
    t[DPA_T_II] = eg;
    t[DPA_T_MD] = ed;
    t[DPA_T_DD] = eg;
}

/* Emission prior: match (equal bytes or either is 'N') 1 - e, mismatch e / 3. */
static inline int dpa_phmm_bases_match(uint8_t r, uint8_t h)
{
    return r == h || r == 'N' || h == 'N';
}

/* Scalar reference on one pair: returns the scaled forward sum (sum over the last row of
 * M + I, with D's first row at initial / hap_len). scratch must hold 3*(hap_len+1)
 * elements of the matching type. */
double dpa_phmm_forward_f64_scalar(const dpa_phmm_pair *p, double initial, double *scratch);
float dpa_phmm_forward_f32_scalar(const dpa_phmm_pair *p, float initial, float *scratch);

/* The per-pair half of GATK's rule for kernels that computed a float sum below the threshold:
 * this pair alone in double, log10 into *log10_out. *scratch (*elems doubles, caller-owned,
 * freed with free()) grows as needed; DPA_ERR_OUT_OF_MEMORY when it cannot. Runs in the
 * caller's floating-point environment. */
dpa_status dpa_phmm_recompute_f64(const dpa_phmm_pair *p, double **scratch, size_t *elems,
                                  double *log10_out);

/* Whole-pair reference with GATK's rule, in log10: float then double, or double only. */
double dpa_phmm_log10_scalar(const dpa_phmm_pair *p, int32_t precision, int *recomputed);

dpa_status dpa_phmm_compute_scalar(const dpa_pairhmm_batch *batch, const dpa_phmm_task *tasks,
                                   int64_t n, int32_t precision, double *out,
                                   int64_t *double_recomputes);
#ifdef DPA_HAVE_AVX2
dpa_status dpa_phmm_compute_avx2(const dpa_pairhmm_batch *batch, const dpa_phmm_task *tasks,
                                 int64_t n, int32_t precision, double *out,
                                 int64_t *double_recomputes);
#endif
#ifdef DPA_HAVE_AVX512
dpa_status dpa_phmm_compute_avx512(const dpa_pairhmm_batch *batch, const dpa_phmm_task *tasks,
                                   int64_t n, int32_t precision, double *out,
                                   int64_t *double_recomputes);
#endif

/* Fastest kernel whose ISA bit is set in allowed_isa_mask (bit i = dpa_isa i). */
void dpa_phmm_select(unsigned allowed_isa_mask, dpa_phmm_ops *out);

#endif
