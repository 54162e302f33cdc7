/*
 * work.h — the unit of work the engine hands to every backend (CPU kernels and the CUDA
 * library alike). The engine expands a dpa_pairhmm_batch (already validated) into one
 * task per (read, haplotype) pair; a backend computes any subset of tasks in any order
 * and writes each result to out[task.out], so results land in the caller's order
 * whatever the split, sort or device.
 */
#ifndef DPA_ENGINE_WORK_H
#define DPA_ENGINE_WORK_H

#include <stdint.h>

typedef struct dpa_phmm_task {
    int32_t read; /* index into the batch's reads      */
    int32_t hap;  /* index into the batch's haplotypes */
    int64_t out;  /* index into the output array       */
} dpa_phmm_task;

#endif
