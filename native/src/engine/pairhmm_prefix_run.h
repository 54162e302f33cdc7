/*
 * pairhmm_prefix_run.h — the CPU PairHMM path that shares haplotype prefixes
 * (pairhmm_prefix_workload.c), called by dpa_pairhmm_compute when it applies.
 */
#ifndef DPA_ENGINE_PAIRHMM_PREFIX_RUN_H
#define DPA_ENGINE_PAIRHMM_PREFIX_RUN_H

#include <stdint.h>

#include "dpaccel.h"

struct dpa_context;

/* 1 when the call runs on the CPU only and the context shares prefixes
 * (DPACCEL_PAIRHMM_PREFIX, on by default). backend: the call's, -1 = the context's. */
int dpa_pairhmm_prefix_applies(const struct dpa_context *ctx, int32_t backend);

/* Computes a validated batch of npairs pairs; *cells = all cells, *cells_computed = those evaluated. */
dpa_status dpa_pairhmm_run_prefix(struct dpa_context *ctx, const dpa_pairhmm_batch *batch,
                                  int64_t npairs, int32_t precision, double *out, int64_t *recomputes,
                                  int64_t *cells, int64_t *cells_computed);

#endif
