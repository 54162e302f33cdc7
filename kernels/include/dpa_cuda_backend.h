/*
 * dpa_cuda_backend.h — the C ABI between the engine (libdpaccel) and the CUDA backend
 * (libdpaccel_cuda.so). The engine dlopen()s the backend and calls the one exported
 * symbol DPA_CUDA_GET_OPS_SYMBOL; everything else goes through the versioned ops table,
 * so the core library has no link-time dependency on CUDA and loads on machines with no
 * GPU or no driver.
 *
 * Rules for the backend:
 *   - never prints, exits or aborts; errors are returned as dpa_status with a message in
 *     err (NUL-terminated, truncated to err_len);
 *   - every entry point is thread-safe; concurrent pairhmm / sw calls on one device run on
 *     different pooled streams;
 *   - no cudaMalloc on the hot path: buffers are pooled per stream for the life of the
 *     backend object and grown only when a larger batch arrives;
 *   - a sticky CUDA error marks the device unusable (device_info().usable = 0) and is
 *     returned as DPA_ERR_DEVICE; the engine then recomputes the work on the CPU.
 */
#ifndef DPA_CUDA_BACKEND_H
#define DPA_CUDA_BACKEND_H

#include <stddef.h>
#include <stdint.h>

#include "dpaccel.h"
#include "common/work.h"

#ifdef __cplusplus
extern "C" {
#endif

/* 2: the sw entry (Smith-Waterman) was appended. */
#define DPA_CUDA_ABI_VERSION 2
#define DPA_CUDA_GET_OPS_SYMBOL "dpa_cuda_get_ops"

typedef struct dpa_cuda_backend dpa_cuda_backend;

/* Test-only fault kinds for inject_fault (reliability tests). */
typedef enum dpa_cuda_fault {
    DPA_CUDA_FAULT_NONE = 0,
    DPA_CUDA_FAULT_OOM = 1,    /* next pairhmm or sw call on the device fails as out of memory */
    DPA_CUDA_FAULT_STICKY = 2  /* next pairhmm or sw call fails as a sticky error: device retired */
} dpa_cuda_fault;

typedef struct dpa_cuda_ops {
    uint32_t abi_version;  /* DPA_CUDA_ABI_VERSION */
    uint32_t struct_size;  /* sizeof(dpa_cuda_ops) */

    /* Opens every visible device (at most max_devices; <= 0 = all). A machine with no
     * driver or no device gives DPA_ERR_NO_DEVICE and a reason in err. */
    dpa_status (*open)(int32_t max_devices, dpa_cuda_backend **out, char *err, size_t err_len);
    void (*close)(dpa_cuda_backend *backend);
    int32_t (*device_count)(const dpa_cuda_backend *backend);
    dpa_status (*device_info)(const dpa_cuda_backend *backend, int32_t device,
                              dpa_device_info *out);

    /* Computes n tasks of a validated batch on one device, writing out[task.out] (log10
     * likelihoods, same rule as the CPU kernels: float, then double for pairs whose float
     * sum is below 1e-28, or double only). Splits internally when the work exceeds
     * device memory. *double_recomputes is incremented by the pairs recomputed. */
    dpa_status (*pairhmm)(dpa_cuda_backend *backend, int32_t device,
                          const dpa_pairhmm_batch *batch, const dpa_phmm_task *tasks,
                          int64_t n, int32_t precision, double *out,
                          int64_t *double_recomputes, char *err, size_t err_len);

    /* Test-only switch: arms a fault for the next pairhmm or sw call on device. */
    dpa_status (*inject_fault)(dpa_cuda_backend *backend, int32_t device, int32_t fault);

    /* Smith-Waterman (GATK semantics, docs/sw.md, docs/sw-cuda.md) of the pairs
     * pairs[0..n) of a batch that passed dpa_sw_validate(), on one device. For each pair p,
     * writes its CIGAR text at cigars + slots[p] (at most 2 * (ref_len + alt_len) bytes),
     * its length in cigar_lengths[p] and the alignment offset in alignment_offsets[p];
     * byte-identical to the CPU kernels. *exact_matches is set to the pairs answered by the
     * exact-substring shortcut. Splits internally into chunks of the device budget. On an
     * error the outputs are partly written: the caller recomputes the pairs. */
    dpa_status (*sw)(dpa_cuda_backend *backend, int32_t device, const dpa_sw_batch *batch,
                     const dpa_sw_params *params, const int32_t *pairs, int64_t n, char *cigars,
                     const int64_t *slots, int32_t *cigar_lengths, int32_t *alignment_offsets,
                     int64_t *exact_matches, char *err, size_t err_len);
} dpa_cuda_ops;

typedef const dpa_cuda_ops *(*dpa_cuda_get_ops_fn)(void);

/* The one exported symbol (looked up with dlsym by the engine; tests may link it). */
const dpa_cuda_ops *dpa_cuda_get_ops(void);

#ifdef __cplusplus
}
#endif
#endif
