/*
 * hmm_filter_cuda.h — the CUDA HMMER3 filter DP (docs/hmm-filter.md, "CUDA") shared by
 * hmm_filter_kernels.cu (one warp per (model, sequence), lanes across model nodes) and
 * hmm_filter_launch.cu (the tasks' models and sequences packed once per chunk, the kernel
 * launched, the integers copied back).
 *
 * Device copies: every model's tables sit in one region (byte offsets below, 16-aligned),
 * every sequence's digital codes in another; a task names its model by its index in the
 * chunk's model array and its sequence by offset and length.
 */
#ifndef DPA_CUDA_HMM_FILTER_H
#define DPA_CUDA_HMM_FILTER_H

#include <stdint.h>

#include <cuda_runtime.h>

#include "backend_internal.h"

typedef struct dpa_hf_model {
    int64_t rb, rw, tw;      /* byte offsets into the table region */
    int64_t s16;             /* the packed SSV scores (dpa_hf_ssv16_words), when q16 > 0 */
    int32_t M, ddbound_w;
    int32_t bias_b, base_b, tbm_b, tec_b;
    int32_t xw_e_move, xw_e_loop, base_w, q16;
} dpa_hf_model;

typedef struct dpa_hf_task {
    int64_t seq;             /* byte offset of the sequence in the residue region */
    int32_t model, L;
    int32_t len_param, pad;  /* dpa_cuda_hmm_task.len_param */
} dpa_hf_task;

#define DPA_HF_WARPS_PER_BLOCK 4
/* The packed SSV kernel (int16 pairs, hf_ssv_dpx) holds Q = ceil(M / 64) words a lane: up to
 * this many, i.e. M <= 1024. Longer models take the other SSV kernels. */
#define DPA_HF_SSV16_MAX_Q 16

/* Words of the packed SSV table for q words a row: 29 residue codes x q x 32 lanes. Word
 * (c q + j) 32 + z holds nodes x = (2z) q + j + 1 (low half) and (2z + 1) q + j + 1 (high
 * half) as bias - rb[c][x], and -16384 past M (a padding node stays 0). */
__host__ __device__ static inline int64_t dpa_hf_ssv16_words(int32_t q) { return (int64_t)29 * q * 32; }
__host__ __device__ static inline int32_t dpa_hf_ssv16_q(int32_t M)
{
    const int32_t q = (M + 63) / 64;
    return M >= 1 && q <= DPA_HF_SSV16_MAX_Q ? q : 0;
}
/* Shared memory a warp may use for its DP row (4 warps: 48 KB a block, the static limit):
 * a task whose row is longer uses its warp's slot of global scratch instead. */
#define DPA_HF_SMEM_PER_WARP 12288
/* What a warp writes when its task fits neither its shared nor its global row (a launch
 * bug, never a score): the host turns it into DPA_ERR_DEVICE. */
#define DPA_HF_BAD INT32_MIN

#ifdef __cplusplus
extern "C" {
#endif

/* Bytes of one warp's DP row for a model of M nodes (kind: DPA_CUDA_HMM_*): SSV and MSV
 * one byte per diagonal slot (M + 1), the Viterbi filter M, I and D words per node. */
__host__ __device__ static inline int64_t dpa_hf_row_bytes(int32_t kind, int32_t M)
{
    const int64_t b = kind == 2 ? (int64_t)6 * (((int64_t)M + 31) / 32 * 32) : (int64_t)M + 1;
    return (b + 15) / 16 * 16;
}

/* hmm_filter_kernels.cu: `warps` persistent warps (dsq: codes, or bytes that code_of, a device
 * table of 256 codes, maps; NULL: dsq holds codes) (a multiple of DPA_HF_WARPS_PER_BLOCK) take
 * tasks in order through *counter (0 at launch). smem_per_warp bytes of shared memory per
 * warp (at most DPA_HF_SMEM_PER_WARP); warp w's global row is gscratch + w * gstride (gstride
 * 0: none). out[t] gets task t's integer (dpa_cuda_backend.h). */
cudaError_t dpa_hf_launch(int32_t kind, const dpa_hf_model *models, const uint8_t *tables,
                          const uint8_t *dsq, const uint8_t *code_of, const dpa_hf_task *tasks, int32_t ntasks,
                          int32_t *out, uint8_t *gscratch, int64_t gstride, int32_t smem_per_warp,
                          int32_t warps, uint32_t *counter, cudaStream_t stream);
/* Blocks of the kind's kernel one SM holds with that shared memory per warp (0 on error). */
int dpa_hf_blocks_per_sm(int32_t kind, int32_t smem_per_warp);

/* hmm_filter_launch.cu: the entry's work on one slot of one device. */
dpa_status dpa_cuda_hmm_filter_run(const dpa_cuda_backend *b, dpa_cuda_dev *d, dpa_cuda_slot *s,
                                   const dpa_cuda_hmm_model *models, int32_t num_models,
                                   const dpa_cuda_hmm_seqs *seqs, const uint8_t *code_of, int32_t kind,
                                   const dpa_cuda_hmm_task *tasks, int64_t n, int32_t *out,
                                   dpa_cuda_err *err);

#ifdef __cplusplus
}
#endif

#endif
