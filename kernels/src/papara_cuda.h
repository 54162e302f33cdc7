/*
 * papara_cuda.h — the CUDA PaPaRa scoring inside the backend (docs/papara.md): the kernel's
 * launcher (papara_kernels.cu) and the host side (papara_launch.cu).
 */
#ifndef DPA_PAPARA_CUDA_H
#define DPA_PAPARA_CUDA_H

#include "backend_internal.h"

/* Rows of the read held in registers per pass over the profile (a stripe). */
#define DPA_PAPARA_CUDA_ROWS 16
#define DPA_PAPARA_CUDA_BLOCK 128
/* The same for the two-profiles-per-thread kernel (papara_pairs_kernel.cu): 32 rows ran
 * 1.25x the speed of 16 and 1.06x that of 24 on an H200 (118 registers, 4 blocks per SM;
 * fewer sweeps over the profile and the boundary rows), docs/lab/2026-11-28-session16.md. */
#define DPA_PAPARA_CUDA_PAIR_ROWS 32

/* One site of a profile pair for papara_pairs_kernel.cu (layout described there). */
typedef struct __align__(16) dpa_papara_pair_word {
    uint32_t x, y, z, w;
} dpa_papara_pair_word;

/* Device arrays of one launch: prof_t is num_sites x np (site-major: consecutive threads
 * read consecutive bytes), reads/offs/lens the launch's reads, bnd 2 x num_sites x
 * (grid x block) x nr int32 of stripe boundaries, out nr x np. */
cudaError_t dpa_cuda_papara_launch(cudaStream_t stream, const uint8_t *prof_t, int64_t num_sites,
                                   int32_t np, const uint8_t *reads, const int64_t *offs,
                                   const int32_t *lens, int32_t nr, const dpa_papara_params *p,
                                   int32_t *bnd, int32_t *out);

/* The 2012 paper's model (papara_paper2012_kernel.cu): the same arrays; bnd needs only its
 * first num_sites x (grid x block) x nr int32 (no SU rows). */
cudaError_t dpa_cuda_papara_paper2012_launch(cudaStream_t stream, const uint8_t *prof_t,
                                             int64_t num_sites, int32_t np, const uint8_t *reads,
                                             const int64_t *offs, const int32_t *lens, int32_t nr,
                                             int32_t *bnd, int32_t *out);

/* The 16-bit kernel: prof is num_sites x ceil(np / 2) pair words (site-major); warps warps
 * (a multiple of the ceil(np / 64) columns of 32 pairs) loop over the nr reads; bnd is
 * 2 x num_sites x (blocks x block) words, next one int32 per column (zeroed here); only for
 * reads with dpa_cuda_papara_fits16. */
cudaError_t dpa_cuda_papara_pairs_launch(cudaStream_t stream, const dpa_papara_pair_word *prof,
                                         int64_t num_sites, int32_t np, const uint8_t *reads,
                                         const int64_t *offs, const int32_t *lens, int32_t nr,
                                         int32_t warps, const dpa_papara_params *p,
                                         uint32_t *bnd, int32_t *next, int32_t *out);
/* Resident blocks of the 16-bit kernel per multiprocessor (>= 1). */
int32_t dpa_cuda_papara_pairs_blocks_per_sm(void);

/* Whether a read of this length runs on the 16-bit kernel under these costs: every cell
 * within +-30000 and each cost's bytes within int8 (papara_pairs_kernel.cu). */
int dpa_cuda_papara_fits16(int32_t read_length, const dpa_papara_params *p);

dpa_status dpa_cuda_papara_run(dpa_cuda_backend *b, dpa_cuda_dev *d, dpa_cuda_slot *s,
                               const dpa_papara_batch *batch, const dpa_papara_params *params,
                               int32_t first_profile, int32_t num_profiles, int32_t first_read,
                               int32_t num_reads, int32_t *out, dpa_cuda_err *err);

#endif
