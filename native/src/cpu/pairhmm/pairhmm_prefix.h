/*
 * pairhmm_prefix.h — computing the columns a region's haplotypes share only once
 * (docs/pairhmm.md, "Prefix sharing").
 *
 * Why it is exact. The forward recursion runs along the haplotype: column j of M, I, D
 * depends only on column j-1, the read, hap[j-1] and the first row's deletion value
 * D[0][*] = initial / hap_len. Two haplotypes of the SAME length whose first c bases are
 * equal therefore have bit-identical columns 0..c (same operations on the same operands),
 * and so bit-identical partial sums sum_{j<=c} (M + I)[m][j] when the sum is taken in
 * column order. Haplotypes of different lengths start from different D[0][*]: their
 * columns differ by the factor len2 / len1 only in exact arithmetic, not after rounding, so
 * the plan shares between lengths only when asked (across_lengths, DPACCEL_PAIRHMM_PREFIX=2:
 * the checkpoint is rescaled, within tolerance, not the same bits); by default it does what
 * GATK's Java does (hapStartIndex is 0 when the lengths differ).
 *
 * The plan. The haplotypes are put in (length, bytes) order. Haplotype k resumes from
 * column r_k = the common prefix length with haplotype k-1 when both have the same
 * length, else 0. Column r_k was computed by the latest earlier haplotype k' with
 * r_k' < r_k (every haplotype in between shares the prefix of length r_k, the order being
 * lexicographic), which saves it into a checkpoint slot while it passes. Checkpoints with
 * the same (computing haplotype, column) share one slot; a slot is free again after its
 * last reader. At most max_slots slots are live: a checkpoint that finds none is dropped
 * and its readers start from column 0 (still exact, only less shared).
 */
#ifndef DPA_CPU_PAIRHMM_PREFIX_H
#define DPA_CPU_PAIRHMM_PREFIX_H

#include <stdint.h>

#include "cpu/pairhmm/pairhmm.h"

typedef struct dpa_phmm_save {
    int32_t col, slot;
} dpa_phmm_save;

typedef struct dpa_phmm_prefix_plan {
    int32_t k;          /* haplotypes */
    int32_t *order;     /* compute order: index into the caller's haplotype arrays   */
    int32_t *resume;    /* per position: first column already known (0 = none)        */
    int32_t *load_slot; /* per position: slot holding column resume[p] (-1 if 0)      */
    int32_t *load_len;  /* per position: the length of the haplotype that computed it  */
    int32_t *save_at;   /* per position p: saves[save_at[p] .. save_at[p+1]), by column */
    dpa_phmm_save *saves;
    int32_t nslots;        /* slots the plan uses at most at once */
    int64_t cols_total;    /* sum of lengths                       */
    int64_t cols_computed; /* sum of (length - resume)             */
} dpa_phmm_prefix_plan;

/* Builds the plan of k haplotypes (haps[h], lens[h] >= 1). max_slots >= 0. across_lengths:
 * also resume from a haplotype of another length (order by bytes, then length); the kernels
 * then scale the checkpoint by the ratio of the two first-row deletion values, which is
 * exact in exact arithmetic and one rounding per value in floating point, so results are
 * within tolerance of the plain kernel instead of equal to it (docs/pairhmm.md). Returns
 * DPA_ERR_OUT_OF_MEMORY or DPA_OK; free with dpa_phmm_prefix_plan_free either way. */
dpa_status dpa_phmm_prefix_plan_build(const uint8_t *const *haps, const int32_t *lens,
                                      int32_t k, int32_t max_slots, int across_lengths,
                                      dpa_phmm_prefix_plan *plan);
void dpa_phmm_prefix_plan_free(dpa_phmm_prefix_plan *plan);

/* Length of the common prefix of a and b (n bytes each). */
int32_t dpa_phmm_common_prefix(const uint8_t *a, const uint8_t *b, int32_t n);

/* Scalar reference of the shared computation: one read (read_len >= 1) against the plan's
 * haplotypes, column by column, every cell with the same operations as
 * dpa_phmm_forward_*_scalar, so sums[h] (indexed like the caller's haplotypes) equal the
 * per-pair reference bit for bit. Returns DPA_ERR_OUT_OF_MEMORY or DPA_OK. */
dpa_status dpa_phmm_prefix_f32_scalar(const dpa_phmm_pair *read, const uint8_t *const *haps,
                                      const int32_t *lens, const dpa_phmm_prefix_plan *plan,
                                      float initial, float *sums);
dpa_status dpa_phmm_prefix_f64_scalar(const dpa_phmm_pair *read, const uint8_t *const *haps,
                                      const int32_t *lens, const dpa_phmm_prefix_plan *plan,
                                      double initial, double *sums);

/* dpa_phmm_prefix_fn entries (pairhmm.h): tasks are grouped by read; up to one vector of
 * reads with the same haplotype list run together and share over those haplotypes. Same
 * results, bit for bit, and the same float-then-double rule per pair as the plain kernel
 * of the same ISA. */
dpa_status dpa_phmm_compute_prefix_scalar(const dpa_pairhmm_batch *batch,
                                          const dpa_phmm_task *tasks, int64_t n,
                                          int32_t precision, double *out,
                                          int64_t *double_recomputes, int64_t *cells_computed,
                                          int32_t across_lengths);
#ifdef DPA_HAVE_AVX2
dpa_status dpa_phmm_compute_prefix_avx2(const dpa_pairhmm_batch *batch,
                                        const dpa_phmm_task *tasks, int64_t n,
                                        int32_t precision, double *out,
                                        int64_t *double_recomputes, int64_t *cells_computed,
                                        int32_t across_lengths);
#endif
#ifdef DPA_HAVE_AVX512
dpa_status dpa_phmm_compute_prefix_avx512(const dpa_pairhmm_batch *batch,
                                          const dpa_phmm_task *tasks, int64_t n,
                                          int32_t precision, double *out,
                                          int64_t *double_recomputes, int64_t *cells_computed,
                                          int32_t across_lengths);
#endif

#endif
