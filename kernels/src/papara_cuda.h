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

/* Device arrays of one launch: prof_t is num_sites x np (site-major: consecutive threads
 * read consecutive bytes), reads/offs/lens the launch's reads, bnd 2 x num_sites x
 * (grid x block) x nr int32 of stripe boundaries, out nr x np. */
cudaError_t dpa_cuda_papara_launch(cudaStream_t stream, const uint8_t *prof_t, int64_t num_sites,
                                   int32_t np, const uint8_t *reads, const int64_t *offs,
                                   const int32_t *lens, int32_t nr, const dpa_papara_params *p,
                                   int32_t *bnd, int32_t *out);

dpa_status dpa_cuda_papara_run(dpa_cuda_backend *b, dpa_cuda_dev *d, dpa_cuda_slot *s,
                               const dpa_papara_batch *batch, const dpa_papara_params *params,
                               int32_t first_profile, int32_t num_profiles, int32_t first_read,
                               int32_t num_reads, int32_t *out, dpa_cuda_err *err);

#endif
