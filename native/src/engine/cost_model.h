/*
 * cost_model.h — rough time estimates that decide, per batch, whether AUTO sends it to
 * the GPU. The constants are throughputs measured on the reference machines (see
 * docs/BENCHMARKS.md); they only need to be right within a factor of ~2, because the
 * decision matters only far from the crossover.
 */
#ifndef DPA_ENGINE_COST_MODEL_H
#define DPA_ENGINE_COST_MODEL_H

#include <stdint.h>

#include "dpaccel.h"

double dpa_cost_cpu_seconds(int64_t cells, int64_t pairs, int32_t threads, dpa_isa isa);
double dpa_cost_gpu_seconds(int64_t cells, int64_t pairs, int32_t devices);

/* Smith-Waterman (docs/sw-cuda.md): cells = sum of ref_len * alt_len. */
double dpa_cost_sw_cpu_seconds(int64_t cells, int32_t threads, dpa_isa isa);
double dpa_cost_sw_gpu_seconds(int64_t cells, int64_t pairs, int32_t devices);

/* Genotype distance (docs/distance.md): cost = pairs x 64-variant plane words. No CUDA kernel
 * yet, so the GPU figure only has to exist (the scheduler never asks without an entry). */
double dpa_cost_distance_cpu_seconds(int64_t pair_words, int32_t threads, dpa_isa isa);
double dpa_cost_distance_gpu_seconds(int64_t pair_words, int64_t tiles, int32_t devices);

/* X-drop (docs/xdrop.md): cost = the estimated band cells of each seed. No CUDA kernel yet:
 * the GPU figure only has to rank. */
double dpa_cost_xdrop_cpu_seconds(int64_t cells, int64_t seeds, int32_t threads, dpa_isa isa);
double dpa_cost_xdrop_gpu_seconds(int64_t cells, int64_t seeds, int32_t devices);

/* PaPaRa (docs/papara.md): cost = profiles x sites x read bases. No CUDA kernel yet. */
double dpa_cost_papara_cpu_seconds(int64_t cells, int64_t tasks, int32_t threads, dpa_isa isa);
double dpa_cost_papara_gpu_seconds(int64_t cells, int64_t tasks, int32_t devices);
/* HMM filter (docs/hmm-filter.md): cost = M x L cells of each (model, sequence). The GPU
 * figure is an unmeasured placeholder (cost_model.c). */
double dpa_cost_hmm_filter_cpu_seconds(int64_t cells, int64_t pairs, int32_t threads, dpa_isa isa);
double dpa_cost_hmm_filter_gpu_seconds(int64_t cells, int64_t pairs, int32_t devices);

#endif
