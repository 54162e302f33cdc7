/*
 * pairhmm_suffix.h — sharing a region's haplotype suffixes as well as its prefixes
 * (DPACCEL_PAIRHMM_PREFIX=3; docs/pairhmm.md, "Suffix sharing").
 *
 * Why it is exact (in exact arithmetic). The likelihood is linear in the values of any
 * one column c: L = S_c + sum_{i=1..m} (M_c[i] bM[i] + I_c[i] bI[i] + D_c[i] bD[i])
 *                      + (initial / n) Z
 * where S_c = sum_{j<=c} (M + I)[m][j] (the forward's running sum), b* are the partial
 * derivatives of the rest of the sum, sum_{j>c} (M + I)[m][j], with respect to column c's
 * values through the CROSS-column terms only (M[i+1][c+1] and D[i][c+1]; the in-column
 * terms I[i+1][c] are already inside column c's values), and Z = sum_{j=c..n-1} dL/dD[0][j]
 * is the weight of the first row's constant D[0][j] = initial / n, the paths that start
 * inside the suffix. The b* and Z depend only on the read and on hap[c..n-1], not on the
 * haplotype's prefix nor on its length: haplotypes that end with the same bases share
 * them, and they are computed by a backward recursion from the last column, one column
 * per base of the suffix, shared along a trie of the REVERSED suffixes exactly as the
 * forward columns are shared along the prefix trie (the prefix plan, run on the reversed
 * strings). Only the first-row term carries the length (initial / n), so suffixes are
 * shared across lengths with no rescaling.
 *
 * The backward state at t (column c = n - t), rows 0..m, plus Z_t; B_0 = 0 and, with the
 * full adjoints of column j = n - t
 *   aI[m] = aM[m] = 1,  aI[i] = bI[i] + ii(i+1) aI[i+1],  aM[i] = bM[i] + mi(i+1) aI[i+1],
 *   aD[i] = bD[i],
 * the state at t + 1 (its base hap[n-t-1] gives the prior P(i+1) of row i+1):
 *   g = P(i+1) aM[i+1];  bM[i] = g mm(i+1) + md(i) aD[i];  bI[i] = g gm(i+1);
 *   bD[i] = g gm(i+1) + dd(i) aD[i];  (row 0: bD[0] = g gm(1) only, row m: 0)
 *   Z_{t+1} = Z_t + bD[0]
 * (transitions of row i are those of read position i-1, as in pairhmm_ref.c).
 *
 * Floating point. The result is the same likelihood with other roundings: within the
 * tolerance of the double reference, not the plain kernel's bits (hence opt-in). Float
 * backward values are scaled by binit = DPA_PHMM_INITIAL_F32 (2^120): every backward value
 * is a sub-probability (<= 1: mm + mi + md = gm + ii = gm + dd = 1 and priors <= 1, so by
 * induction from the last row every adjoint is at most 1, up to float rounding that stays
 * below 2^-7 relative for reads and suffixes up to 2^20), so scaled values stay below
 * 2^121 < FLT_MAX: no overflow. Reads whose gap qualities break the model (e_ins + e_del >
 * 1, where mm + mi + md > 1) do not use the backward pass at all (the entry gives them to
 * the prefix kernel). Underflow: a float value flushed to zero is < 2^-126, i.e. a true
 * adjoint < 2^-246; the mass it carried is its forward value (a probability, <= 1, times
 * 2^120 in the forward's scale) times that, so at most 2^-126 in the forward's scale; a
 * pair's backward touches at most 16 flushable operations per cell of its own suffix
 * (m + 1 rows by u + 1 columns), so the mass lost is at most 16 (m + 1)(u + 1) 2^-126. The
 * entry accepts a shared float result only when that bound is below 1e-5 of it (so the
 * log10 moves by less than 4.4e-6); any other pair is recomputed alone by the double
 * kernel, like a pair under 1e-28. The combination itself runs in double (float x float
 * products are exact in double, and cannot overflow or underflow there).
 */
#ifndef DPA_CPU_PAIRHMM_SUFFIX_H
#define DPA_CPU_PAIRHMM_SUFFIX_H

#include <stdint.h>

#include "cpu/pairhmm/pairhmm_prefix.h"

typedef struct dpa_phmm_suffix_plan {
    int32_t k;
    dpa_phmm_prefix_plan fwd; /* forward: the prefix plan across lengths                 */
    int32_t *cut;             /* per caller's haplotype: forward stops at this column;   */
                              /* lens[h] - cut[h] columns come from the backward state   */
    int32_t nb;               /* haplotypes with a suffix (cut < length)                 */
    int32_t *bhap;            /* per backward string: its caller's haplotype             */
    const uint8_t **brev;     /* per backward string: the suffix reversed                */
    int32_t *blen;            /* per backward string: its length, lens[h] - cut[h]       */
    uint8_t *rev_bytes;
    dpa_phmm_prefix_plan bwd; /* backward: the prefix plan over the reversed suffixes    */
    int64_t cols_total;       /* sum of lengths                                          */
    int64_t cols_forward;     /* forward columns computed                                */
    int64_t cols_backward;    /* backward columns computed                               */
    int64_t joins;            /* haplotypes joined at a cut (one dot product of m rows)   */
} dpa_phmm_suffix_plan;

/* Builds the plan of k haplotypes (haps[h], lens[h] >= 1); max_slots bounds the forward's
 * and the backward's checkpoint slots each. The cut of haplotype h is as early as the
 * forward allows (its resume column and the columns later haplotypes resume from) and no
 * earlier than the longest suffix it shares with another haplotype that can use it; a
 * suffix nobody shares costs as much backward as forward, so it is not taken. Returns
 * DPA_ERR_OUT_OF_MEMORY or DPA_OK; free with dpa_phmm_suffix_plan_free either way. */
dpa_status dpa_phmm_suffix_plan_build(const uint8_t *const *haps, const int32_t *lens,
                                      int32_t k, int32_t max_slots,
                                      dpa_phmm_suffix_plan *plan);
void dpa_phmm_suffix_plan_free(dpa_phmm_suffix_plan *plan);

/* Scalar shared computation of one read (read_len >= 1) against the plan's haplotypes:
 * sums[h] (indexed like the caller's haplotypes) = the scaled forward sum, as
 * dpa_phmm_forward_*_scalar would give in exact arithmetic. binit scales the backward
 * values (DPA_PHMM_INITIAL_F32 in float, 1 in double: see above). Returns
 * DPA_ERR_OUT_OF_MEMORY or DPA_OK. */
dpa_status dpa_phmm_suffix_f32_scalar(const dpa_phmm_pair *read, const uint8_t *const *haps,
                                      const int32_t *lens, const dpa_phmm_suffix_plan *plan,
                                      float initial, float binit, double *sums);
dpa_status dpa_phmm_suffix_f64_scalar(const dpa_phmm_pair *read, const uint8_t *const *haps,
                                      const int32_t *lens, const dpa_phmm_suffix_plan *plan,
                                      double initial, double binit, double *sums);

/* The dpa_phmm_prefix_fn contract (pairhmm.h) with suffix sharing, scalar. Float passes
 * share prefixes across lengths and suffixes; each pair keeps the float-then-double rule
 * (below 1e-28, not finite, or above the underflow bound above: recomputed alone by the
 * double kernel). Double-precision calls and reads whose gap qualities break the model
 * run the prefix kernel across lengths (DPACCEL_PAIRHMM_PREFIX=2's). */
dpa_status dpa_phmm_compute_suffix_scalar(const dpa_pairhmm_batch *batch,
                                          const dpa_phmm_task *tasks, int64_t n,
                                          int32_t precision, double *out,
                                          int64_t *double_recomputes, int64_t *cells_computed,
                                          int32_t unused);
/* The same with 8 (AVX2) / 16 (AVX-512) reads of one haplotype list in the lanes
 * (pairhmm_suffix_vec.h); double-precision calls go to that ISA's prefix kernel. */
#ifdef DPA_HAVE_AVX2
dpa_status dpa_phmm_compute_suffix_avx2(const dpa_pairhmm_batch *batch,
                                        const dpa_phmm_task *tasks, int64_t n,
                                        int32_t precision, double *out,
                                        int64_t *double_recomputes, int64_t *cells_computed,
                                        int32_t unused);
#endif
#ifdef DPA_HAVE_AVX512
dpa_status dpa_phmm_compute_suffix_avx512(const dpa_pairhmm_batch *batch,
                                          const dpa_phmm_task *tasks, int64_t n,
                                          int32_t precision, double *out,
                                          int64_t *double_recomputes, int64_t *cells_computed,
                                          int32_t unused);
#endif

#endif
