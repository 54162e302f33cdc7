/*
 * pairhmm_run.h — the engine's PairHMM entry for callers inside the library.
 */
#ifndef DPA_ENGINE_PAIRHMM_RUN_H
#define DPA_ENGINE_PAIRHMM_RUN_H

#include "dpaccel.h"

/* dpa_pairhmm_compute(); quals_checked = 1 skips the quality-range pass, for a caller that
 * has checked every quality byte while copying it (the kernels index 128-entry tables by
 * quality, so the claim must be true). */
dpa_status dpa_pairhmm_compute_ex(dpa_context *ctx, const dpa_pairhmm_batch *batch,
                                  const dpa_pairhmm_params *params, double *out,
                                  int64_t out_len, dpa_pairhmm_stats *stats, int quals_checked);

#endif
