/*
 * cuda_loader.h — finds and opens libdpaccel_cuda.so at run time. The core library never
 * links CUDA, so it loads and runs on machines with no GPU or driver; the reason the GPU
 * is unavailable is kept for dpa_context_describe() and for the GPU-forced error.
 */
#ifndef DPA_ENGINE_CUDA_LOADER_H
#define DPA_ENGINE_CUDA_LOADER_H

#include "dpa_cuda_backend.h"

typedef struct dpa_cuda {
    void *dl;                       /* dlopen handle, NULL when absent */
    const dpa_cuda_ops *ops;
    dpa_cuda_backend *backend;
    int32_t devices;                /* 0 when unavailable */
    /* each workload's entry table, or NULL when the library has none (ops->entry) */
    const dpa_cuda_entry_header *entries[DPA_CUDA_WORKLOAD_COUNT];
    /* bit id: the library has kernels for that workload that the engine leaves unused until
     * they pass their tests on a GPU (dpa_cuda_drop_unverified) */
    uint32_t unverified;
    char reason[4600];               /* why unavailable, or the library path */
} dpa_cuda;

/* Never fails: when the backend cannot be used, devices = 0 and reason says why. host
 * carries the context's log callback for the backend's diagnostics. */
void dpa_cuda_load(dpa_cuda *cuda, const dpa_cuda_host *host);
void dpa_cuda_unload(dpa_cuda *cuda);
/* Leaves out the entries of workloads whose CUDA kernels have not yet run on a GPU (the
 * engine's list in cuda_loader.c), noting them in cuda->unverified. */
void dpa_cuda_drop_unverified(dpa_cuda *cuda);
/* The mechanism behind it: leaves out the entries of the workloads in mask (bit = id). */
void dpa_cuda_drop_workloads(dpa_cuda *cuda, uint32_t mask);
/* Devices that are still in service (not retired after a fault). */
int32_t dpa_cuda_usable_devices(const dpa_cuda *cuda, int32_t *list, int32_t max);
/* A workload's entry table (NULL: no GPU, or no kernels for it in this library). */
static inline const dpa_cuda_entry_header *dpa_cuda_entry(const dpa_cuda *cuda,
                                                          dpa_cuda_workload_id id)
{
    return cuda->devices > 0 && id > 0 && id < DPA_CUDA_WORKLOAD_COUNT ? cuda->entries[id] : NULL;
}

#endif
