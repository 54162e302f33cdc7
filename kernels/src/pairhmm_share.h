/*
 * pairhmm_share.h — which pairs of a CUDA PairHMM chunk run the prefix-sharing kernel, from
 * which checkpoint each starts and which it saves (host side; the kernel is
 * pairhmm_shared_kernel.cu, the argument for exactness docs/pairhmm.md "Prefix sharing").
 *
 * A region is a run of the chunk's tasks that the engine lays out read-major: several
 * reads, each with the same consecutive haplotypes h0 .. h0 + k - 1 (k >= 2), one task per
 * pair in haplotype order. Tasks in any other order (a sorted multi-device split) form no
 * region and take the all-pairs kernels, with the same results.
 *
 * Per region, the CPU's plan (pairhmm_prefix.h: equal lengths only) orders the haplotypes
 * and says which column each resumes from. On the GPU the pairs stay independent tasks
 * of one launch: a pair that resumes waits for the checkpoint another pair of its read
 * saves. Its level (0: computes from column 0; else its producer's level + 1) orders the
 * launch so that producers come first. Every checkpoint of a read has its own entry (no
 * slot reuse between pairs that run at once).
 */
#ifndef DPA_PAIRHMM_SHARE_H
#define DPA_PAIRHMM_SHARE_H

#include <stdint.h>

#include "cpu/pairhmm/pairhmm.h"
#include "pairhmm_cuda.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Levels of a region's checkpoint tree: a pair whose checkpoint would put it deeper
 * computes from column 0 instead (exact, less shared); bounds how long a chain of pairs
 * can wait on each other. */
#define DPA_PHMM_SHARE_LEVELS 8

typedef struct dpa_phmm_region {
    int64_t t0;     /* first task (chunk-local) */
    int32_t nreads; /* runs of k tasks from t0 on */
    int32_t k, h0;
} dpa_phmm_region;

/* One shared pair. */
typedef struct dpa_phmm_spair {
    int32_t task;      /* chunk-local task index */
    int32_t n2;        /* columns it computes (haplotype length - resume) */
    uint8_t cls, level;
    dpa_phmm_sdesc sd;
} dpa_phmm_spair;

typedef struct dpa_phmm_share {
    /* found by dpa_phmm_share_scan */
    dpa_phmm_region *regions;
    int64_t nregions, cap;
    int64_t pairs_max, saves_max; /* bounds of what dpa_phmm_share_plan writes */
    /* set by the caller before dpa_phmm_share_plan */
    double ratio;        /* a region shares when its lane work is below this fraction of
                          * the all-pairs kernels' */
    int64_t entries_max; /* checkpoint entries of the chunk at most */
    int32_t levels_max;  /* levels of the checkpoint tree at most (1 .. DPA_PHMM_SHARE_LEVELS) */
    /* written by dpa_phmm_share_plan */
    dpa_phmm_spair *sp;  /* nshared pairs, region by region */
    int64_t nshared, nsaves, nentries;
    int32_t levels;      /* highest level + 1 */
    int64_t cells, cells_computed; /* of the shared pairs */
} dpa_phmm_share;

/* Finds the regions of tasks[0..n) whose reads could share (some read of at most 160
 * rows) and bounds the plan's output. Returns DPA_ERR_OUT_OF_MEMORY or DPA_OK; free with
 * dpa_phmm_share_free either way. */
dpa_status dpa_phmm_share_scan(const dpa_pairhmm_batch *batch, const dpa_phmm_task *tasks,
                               int64_t n, dpa_phmm_share *sh);

/* Plans the regions: per region the CPU's plan, its checkpoints numbered and its pairs'
 * levels, then whether sharing pays (estimated lane work against the all-pairs kernels)
 * and fits the entry budget. A region with a haplotype of letters outside the float table
 * (hwide) does not share; nor does a read of more than 160 rows or with such letters
 * (rwide bit 0). Marks shared[k] = 1 for the tasks it takes (0 elsewhere), lists them in
 * sh->sp and writes the regions' saves, (column, entry) word pairs, to ssaves.
 * Returns DPA_ERR_OUT_OF_MEMORY or DPA_OK. */
dpa_status dpa_phmm_share_plan(const dpa_pairhmm_batch *batch, const dpa_phmm_task *tasks,
                               int64_t n, const uint8_t *rwide, const uint8_t *hwide,
                               dpa_phmm_share *sh, uint8_t *shared, int32_t *ssaves);

void dpa_phmm_share_free(dpa_phmm_share *sh);

#ifdef __cplusplus
}
#endif

#endif
