/*
 * distance_cuda.h — the CUDA genotype distance (docs/distance.md, "CUDA") shared by
 * distance_kernels.cu (the kernel: one 64 x 64 block of sample pairs per thread block, four
 * binary GEMMs of the bit planes on the tensor cores, `mma ... b1 .and.popc`) and
 * distance_launch.cu (sample ranges and variant chunks to the device budget, copies, the
 * scatter into the caller's layout).
 *
 * On the device the planes of samples [lo, hi) of one group are stored as 32-bit words:
 * sample s (relative to lo), plane p (0 homA1, 1 homA2, 2 het) at (s*3 + p) * words32, where
 * words32 = 2 x the variant chunk's 64-bit words (a multiple of 16). A job is one block of at
 * most 64 rows x 64 columns; pair (r, c) of it has DPA_DIST_GPU_COUNTS uint32 at counts + out
 * + (r * ld + c) * DPA_DIST_GPU_COUNTS (ld > nc: the jobs of one row band share rows): NSNP,
 * IBS0, HETHET, HET1_HOM2, HET2_HOM1. The host's scatter writes the caller's seven, IBS1 =
 * HET1_HOM2 + HET2_HOM1 and IBS2 = NSNP - IBS0 - IBS1, so 5/7 of the bytes cross the bus and
 * the host's memory (which the scatter's bandwidth shares with those copies: session 19).
 */
#ifndef DPA_CUDA_DISTANCE_H
#define DPA_CUDA_DISTANCE_H

#include <stdint.h>

#include <cuda_runtime.h>

#include "backend_internal.h"

#define DPA_DIST_GPU_BLOCK 64   /* rows and columns of one job */
#define DPA_DIST_GPU_KWORDS 16  /* 32-bit words of each plane per shared-memory stage */
#define DPA_DIST_GPU_COUNTS 5   /* uint32 per pair in the count buffers */

typedef struct dpa_dist_gjob {
    int32_t r0, c0;  /* first row and column, relative to the group's first sample */
    int32_t nr, nc;  /* 1..64 each */
    int64_t out;     /* first count of the job in the counts buffer */
    int64_t ld;      /* pairs from one row of the job to the next in the counts buffer */
} dpa_dist_gjob;

#ifdef __cplusplus
extern "C" {
#endif

/* distance_kernels.cu: one thread block per job. accumulate = 0 overwrites the job's counts,
 * 1 adds to them (later variant chunks). popc = 1 runs the integer-popcount path instead of
 * the tensor cores (devices below sm_80 always do; DPACCEL_DIST_CUDA_POPC=1 forces it, a
 * cross-check of the MMA path). */
cudaError_t dpa_dist_launch(const dpa_dist_gjob *jobs, int32_t njobs, const uint32_t *planes,
                            int64_t words32, uint32_t *counts, int accumulate, int popc,
                            cudaStream_t stream);

/* distance_kernels.cu: planes of samples [first, first + count) from the .bed rows on the
 * device, in the host planes' layout (uint64: sample s, plane p, word w at (s*3 + p) * words
 * + w); vmap[w * 64 + k] = the .bed row of used variant w * 64 + k, -1 for padding. */
cudaError_t dpa_dist_planes_launch(const uint8_t *bed, int64_t row_bytes, const int64_t *vmap,
                                   int32_t first, int32_t count, int64_t words, uint64_t *planes,
                                   cudaStream_t stream);

/* distance_launch.cu: the distance entry's work on one slot of one device. */
dpa_status dpa_cuda_distance_run(const dpa_cuda_backend *b, dpa_cuda_dev *d, dpa_cuda_slot *s,
                                 const dpa_cuda_dist_planes *planes,
                                 const dpa_cuda_dist_tile *tiles, int64_t ntiles,
                                 const dpa_cuda_dist_layout *layout, uint32_t *out,
                                 int64_t *pairs_done, dpa_cuda_err *err);

#ifdef __cplusplus
}
#endif
#endif
