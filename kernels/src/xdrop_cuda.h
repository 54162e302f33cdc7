/*
 * xdrop_cuda.h — the CUDA X-drop (docs/xdrop.md, "CUDA") shared by xdrop_kernels.cu (one warp
 * per extension side, the anti-diagonal sweep of SeqAn's _extendSeedGappedXDropOneDirection
 * with the band's columns across the lanes) and xdrop_launch.cu (the call's sequences copied
 * once, the pairs in chunks, two side tasks per pair, outputs assembled on the host).
 *
 * A side task reads its query element i at q[qbase + i * qstep] and its target element j at
 * t[tbase + j * tstep] (complemented when tcomp), exactly the CPU's dpa_xdrop_seq views
 * (cpu/xdrop/xdrop_pairs.c): the left side reads the prefixes backwards, the reverse strand
 * reads the target backwards and complemented.
 */
#ifndef DPA_CUDA_XDROP_H
#define DPA_CUDA_XDROP_H

#include <stdint.h>

#include <cuda_runtime.h>

#include "backend_internal.h"

typedef struct dpa_xd_task {
    int64_t qbase, tbase; /* byte offsets of element 0 in the device query / target copies */
    int32_t qlen, tlen;   /* the side's lengths (0: an empty side, result 0) */
    int32_t qstep, tstep; /* +1 or -1 */
    int32_t tcomp, pad;
} dpa_xd_task;

typedef struct dpa_xd_res {
    int32_t score, qext, text, pad;
    int64_t cells;
} dpa_xd_res;

typedef struct dpa_xd_kparams {
    int32_t match, mismatch, gap, xdrop;
    /* packed kernel only, tests only (DPACCEL_CUDA_XDROP_KERNEL=int16-noclamp): leave out the
     * undefined-diagonal clamp, so the tests can show that they catch a wrong kernel */
    int32_t noclamp;
} dpa_xd_kparams;

#define DPA_XD_WARPS_PER_BLOCK 2

#ifdef __cplusplus
extern "C" {
#endif

/* xdrop_kernels.cu: `warps` persistent warps take the tasks in order through *counter (0 at
 * launch); warp w's three anti-diagonals are ws + w * 3 * stride (stride >= the longest
 * side query + 2). */
cudaError_t dpa_xd_launch(const uint8_t *q, const uint8_t *t, const dpa_xd_task *tasks,
                          int32_t ntasks, dpa_xd_res *res, int32_t *ws, int64_t stride,
                          int32_t warps, uint32_t *counter, dpa_xd_kparams p, int int16,
                          cudaStream_t stream);
/* xdrop_kernels.cu: whether the packed 16-bit kernel (int16 != 0 above) is exact for these
 * scores (its bound, proved in xdrop_kernels.cu); the sequences must then start at least 2
 * bytes into a device allocation and end 2 bytes before its end. */
int dpa_xd_int16_ok(dpa_xd_kparams p);
/* xdrop_kernels.cu: letters to Dna5 codes in place (A C G T any case, U = T: 0-3; else 4). */
cudaError_t dpa_xd_encode(uint8_t *s, int64_t n, cudaStream_t stream);
/* Warps of the kernel one SM holds at once (0 if the query fails). */
int dpa_xd_resident_warps_per_sm(void);

/* xdrop_launch.cu: the xdrop entry's work on one slot of one device. */
dpa_status dpa_cuda_xdrop_run(const dpa_cuda_backend *b, dpa_cuda_dev *d, dpa_cuda_slot *s,
                              const dpa_xdrop_batch *batch, const dpa_xdrop_params *params,
                              const int32_t *pairs, int64_t n, const dpa_xdrop_output *out,
                              int64_t *cells, dpa_cuda_err *err);

#ifdef __cplusplus
}
#endif
#endif
