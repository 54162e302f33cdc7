/*
 * entry.h — entry points of the engine for the library's own front ends (the JNI glue),
 * beside the public API in dpaccel.h. Hidden in libdpaccel.so (no DPA_API), so no other
 * caller can reach them.
 */
#ifndef DPA_ENGINE_ENTRY_H
#define DPA_ENGINE_ENTRY_H

#include "dpaccel.h"

/* dpa_pairhmm_compute() for a caller that has checked every quality byte (0..127) while
 * copying it, so the engine skips that pass: quals_checked = 1. The kernels index
 * 128-entry tables by quality, so the claim must be true; everything else is validated as
 * usual. */
dpa_status dpa_pairhmm_compute_ex(dpa_context *ctx, const dpa_pairhmm_batch *batch,
                                  const dpa_pairhmm_params *params, double *out,
                                  int64_t out_len, dpa_pairhmm_stats *stats, int quals_checked);

#endif
