/*
 * context.h — what a dpa_context holds. Everything mutable in the library lives here
 * (plus the per-thread error message): configuration resolved once at creation, the
 * CPU kernels chosen for this machine, the thread pool and the CUDA backend, if any.
 */
#ifndef DPA_ENGINE_CONTEXT_H
#define DPA_ENGINE_CONTEXT_H

#include <stdarg.h>

#include "common/status.h"

#include "cpu/pairhmm/pairhmm.h"
#include "engine/config.h"
#include "engine/cuda_loader.h"
#include "engine/threadpool.h"

struct dpa_context {
    dpa_config cfg;
    dpa_phmm_ops phmm;
    dpa_threadpool *pool;
    dpa_cuda cuda;
    int warned_gpu_fallback; /* set once (atomically) when the GPU->CPU fallback warning is logged */
    unsigned next_gpu;       /* round-robin device for batches too small to split (atomic) */
};

void dpa_log(const dpa_context *ctx, dpa_log_level level, const char *fmt, ...)
    DPA_PRINTF(3, 4);

#endif
