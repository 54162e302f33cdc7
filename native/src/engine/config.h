/*
 * config.h — a context's configuration, resolved once at creation from dpa_options, the
 * environment and defaults (config.c), then read-only.
 */
#ifndef DPA_ENGINE_CONFIG_H
#define DPA_ENGINE_CONFIG_H

#include <stdint.h>

#include "dpaccel.h"

#define DPA_MAX_GPU_DEVICES 64

typedef struct dpa_config {
    int32_t threads;
    dpa_backend backend;
    unsigned isa_mask;     /* supported & not disabled */
    unsigned disabled_mask;
    int gpu_disable;
    int32_t gpu_devices[DPA_MAX_GPU_DEVICES]; /* CUDA ordinals to open; none = all visible */
    int32_t num_gpu_devices;
    int32_t gpu_feeders;   /* DPACCEL_GPU_FEEDERS: concurrent calls per GPU, 0 = per workload */
    int32_t gpu_units_per_feeder; /* DPACCEL_GPU_UNITS_PER_FEEDER: 0 = per workload */
    int64_t gpu_unit_min_cost;    /* DPACCEL_GPU_UNIT_MIN_COST: -1 = per workload */
    int32_t hybrid_min_cpu_pct;   /* DPACCEL_HYBRID_MIN_CPU_SHARE (percent): -1 = per workload */
    int timing;            /* DPACCEL_TIMING: phase timings on the log callback */
    int pairhmm_prefix;    /* DPACCEL_PAIRHMM_PREFIX: CPU PairHMM shares haplotype prefixes */
    int cuda_unverified;   /* DPACCEL_CUDA_UNVERIFIED: use CUDA paths not yet run on a GPU */
    dpa_log_fn log_fn;
    void *log_user;
} dpa_config;

/* Resolves options + environment + defaults into cfg. A bad value is an error naming its
 * source. */
dpa_status dpa_config_resolve(const dpa_options *opt, dpa_config *cfg);

#endif
