/*
 * pairhmm_share.h — which pairs of a CUDA PairHMM chunk run the prefix-sharing kernel, and
 * their warp tasks and plans (host side; the kernel is pairhmm_shared_kernel.cu, the
 * argument for exactness docs/pairhmm.md "Prefix sharing").
 *
 * A region is a run of the chunk's tasks that the engine lays out read-major: several
 * reads, each with the same consecutive haplotypes h0 .. h0 + k - 1 (k >= 2), one task
 * per pair in haplotype order. Tasks in any other order (a sorted multi-device split)
 * form no region and take the all-pairs kernels, with the same results.
 */
#ifndef DPA_PAIRHMM_SHARE_H
#define DPA_PAIRHMM_SHARE_H

#include <stdint.h>

#include "cpu/pairhmm/pairhmm.h"
#include "pairhmm_cuda.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef struct dpa_phmm_region {
    int64_t t0;     /* first task (chunk-local) */
    int32_t nreads; /* runs of k tasks from t0 on */
    int32_t k, h0;
} dpa_phmm_region;

typedef struct dpa_phmm_share {
    /* found by dpa_phmm_share_scan */
    dpa_phmm_region *regions;
    int64_t nregions, cap;
    int64_t swarps_max, words_max; /* bounds of what dpa_phmm_share_plan writes */
    /* written by dpa_phmm_share_plan */
    int64_t nswarps[DPA_PHMM_SHARED_CLASSES]; /* class 0's warps first, then class 1's */
    int64_t words, nshared;                   /* plan words; pairs marked shared */
    int64_t cells, cells_computed;            /* of the shared pairs */
} dpa_phmm_share;

/* Finds the regions of tasks[0..n) whose reads could share (some read of at most 160
 * rows) and bounds the plan's output. Returns DPA_ERR_OUT_OF_MEMORY or DPA_OK; free the
 * region list with dpa_phmm_share_free. */
dpa_status dpa_phmm_share_scan(const dpa_pairhmm_batch *batch, const dpa_phmm_task *tasks,
                               int64_t n, dpa_phmm_share *sh);

/* Plans the regions: per region, the haplotype order and checkpoints (the CPU's plan,
 * equal lengths only), then whether sharing pays (cells computed and warp lanes used,
 * against the all-pairs kernels). A region with a haplotype of letters outside the float
 * table (hwide) does not share; nor does a read of more than 160 rows or with such letters
 * (rwide bit 0). Marks shared[k] = 1 for the tasks it takes (0 elsewhere) and writes the
 * warp tasks (pbase relative to the first shared pair, in task order) and the plans.
 * Returns DPA_ERR_OUT_OF_MEMORY or DPA_OK. */
dpa_status dpa_phmm_share_plan(const dpa_pairhmm_batch *batch, const dpa_phmm_task *tasks,
                               int64_t n, const uint8_t *rwide, const uint8_t *hwide,
                               dpa_phmm_share *sh, uint8_t *shared, dpa_phmm_swdesc *swarps,
                               int32_t *words);

void dpa_phmm_share_free(dpa_phmm_share *sh);

#ifdef __cplusplus
}
#endif

#endif
