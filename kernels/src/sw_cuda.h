/*
 * sw_cuda.h — the CUDA Smith-Waterman (docs/sw-cuda.md) shared by sw_kernels.cu (the
 * kernel: one warp per pair, or per two pairs in 16-bit halves (sw_twin.cuh), anti-diagonal
 * wavefront over row strips, traceback nibbles in
 * device memory, start cell, traceback and CIGAR text on the GPU) and sw_launch.cu (chunks,
 * packing, copies, unpacking into the caller's slots).
 *
 * Geometry of one pair (n = ref_len rows, m = alt_len columns): the rows are cut into
 * strips = ceil(n / 256) strips of 32 * rows_per_lane rows, rows_per_lane =
 * ceil(n / (32 * strips)) <= 8, so the last strip wastes fewer than 32 rows. Lane k of the
 * warp holds rows_per_lane consecutive rows of the strip and at step t works on column
 * j = t - k + 1, so one step is one anti-diagonal of lanes; a strip takes m + 31 steps. Each
 * lane writes one 32-bit word per step, 4 bits per row (SW_NIB_*), at word
 * (strip * (m + 31) + t) * 32 + k of its warp's workspace: the warp's 32 words of a step
 * are 128 contiguous bytes.
 */
#ifndef DPA_CUDA_SW_H
#define DPA_CUDA_SW_H

#include <stdint.h>

#include <cuda_runtime.h>

#include "backend_internal.h"

#define SW_LANE_ROWS 8 /* rows per lane at most: a lane's 8 nibbles fill one word */
#define SW_STRIP_MAX (32 * SW_LANE_ROWS)
#define SW_WARPS_PER_BLOCK 1 /* warps leave one by one: no block waits for its longest pair */

/* Traceback nibble of one cell on the device. The bits are the predicates the fill gets
 * from __vibmax_s32 (a >= b), so no negation is spent per cell; the traceback decodes them
 * into GATK's steps (docs/sw-cuda.md). */
enum {
    SW_NIB_DIAG = 1,       /* diag >= max(right, down): diagonal step                     */
    SW_NIB_RIGHT = 2,      /* right >= down: the step is right (insertion) when not diag  */
    SW_NIB_H_KEEP = 4,     /* horizontal gap extended (not opened) here: GATK's !H_OPEN   */
    SW_NIB_V_KEEP = 8      /* vertical gap extended (not opened) here: GATK's !V_OPEN     */
};

/* One pair of a chunk, as the kernel reads it. Offsets are relative to the chunk's bases
 * region (sw_launch.cu), so 32 bits hold them for any chunk the budget admits. The pair's
 * traceback and scratch are not per pair: each warp of the persistent grid owns one
 * workspace (sw_kernels.cu) and reuses it for every pair it takes. */
typedef struct dpa_sw_desc {
    uint32_t ref;   /* byte offset of the reference in the bases region */
    uint32_t alt;   /* byte offset of the alternate */
    int32_t n, m;   /* ref_len, alt_len */
} dpa_sw_desc;

/* One pair's result: CIGAR text at text[pos .. pos + len), the alignment offset and whether
 * the exact-substring shortcut answered. */
typedef struct dpa_sw_res {
    uint32_t pos;
    int32_t len;
    int32_t offset;
    int32_t exact;
} dpa_sw_res;

typedef struct dpa_sw_kparams {
    int32_t match, mismatch, open, extend, overhang;
    int32_t one, minus_one, two; /* 1, -1, 2: multipliers ptxas cannot fold (sw_kernels.cu, cell_k) */
    int32_t twin;                /* 1: pairs may be filled two at a time in int16 halves (sw_twin.cuh) */
    /* the twin fill's constants (dpa_sw_twin_kparams): from the host, so ptxas sees opaque
     * operands and cannot re-associate them into extra multiply-adds per cell */
    uint32_t tw_e2, tw_ke, tw_open2, tw_mo2, tw_ndm, tw_low2;
    int32_t tw_low;
} dpa_sw_kparams;

#ifdef __cplusplus
extern "C" {
#endif

#ifdef __CUDACC__
#define SW_HD __host__ __device__
#else
#define SW_HD
#endif

/* Pair geometry (see above), shared by the planner and the kernel. */
static inline SW_HD int32_t dpa_sw_gpu_strips(int32_t n) { return (n + SW_STRIP_MAX - 1) / SW_STRIP_MAX; }
static inline SW_HD int32_t dpa_sw_gpu_lane_rows(int32_t n)
{
    const int32_t s = dpa_sw_gpu_strips(n);
    return (n + 32 * s - 1) / (32 * s);
}
/* Traceback bytes of a pair (a multiple of 128). */
static inline SW_HD int64_t dpa_sw_gpu_tb_bytes(int32_t n, int32_t m)
{
    return (int64_t)dpa_sw_gpu_strips(n) * ((int64_t)m + 31) * 128;
}
/* int32 scratch words of a pair, rounded up to 4 (16-byte alignment): HV (2 per column),
 * bottom, lastcol, then one byte per column for the alternate's base codes. */
static inline SW_HD int64_t dpa_sw_gpu_scr_words(int32_t n, int32_t m)
{
    return ((3 * ((int64_t)m + 1) + (int64_t)n + 1 + ((int64_t)m + 3) / 4) + 3) & ~(int64_t)3;
}

/* Twin fill (sw_twin.cuh): pairs 2w and 2w + 1 of a chunk filled together, one in each
 * 16-bit half of every register, over the geometry of n = max(n_a, n_b), m = max(m_a, m_b).
 * Each lane stores two words per step (its rows' 4 bits of both pairs), so the traceback
 * is twice a single pair's; the scratch holds (H + open, V) of both pairs per column (int4),
 * both pairs' bottom rows and last columns, and the alternates' negated bases per column. */
static inline SW_HD int64_t dpa_sw_gpu_twin_tb_bytes(int32_t n, int32_t m)
{
    return 2 * dpa_sw_gpu_tb_bytes(n, m);
}
static inline SW_HD int64_t dpa_sw_gpu_twin_scr_words(int32_t n, int32_t m)
{
    return (7 * ((int64_t)m + 1) + 2 * ((int64_t)n + 1) + 3) & ~(int64_t)3;
}

/* The twin fill's value range (sw_twin.cuh; docs/sw-cuda.md, "Twin fill"): a half holds
 * a value minus its lane's base plus 0x4000; GATK's initial gap is dpa_sw_twin_low. With
 * open <= extend <= 0 two neighbouring cells differ by at most M = max(-open, max(match,
 * mismatch) - open), every value a lane holds between two rebases is within 8 + 16 + 2 cells
 * of its base cell, so within S = 26 M + max(match, mismatch, 0) + |open| of the base; S must
 * leave the initial gap below every real value and every half inside [0, 0x7fff]. */
#define DPA_SW_TWIN_REBASE 16 /* steps between two rebases of a lane's bases (sw_twin.cuh) */
static inline SW_HD int32_t dpa_sw_twin_low(int32_t extend)
{
    return 0x100 - extend;
}
static inline SW_HD int dpa_sw_twin_fits(int32_t match, int32_t mismatch, int32_t open,
                                         int32_t extend)
{
    if (!(open <= extend && extend <= 0) || open < -0x4000) return 0;
    const int64_t smax = match > mismatch ? match : mismatch;
    int64_t u = smax - (int64_t)open;
    if (u < 0) u = 0;
    const int64_t M = u > -(int64_t)open ? u : -(int64_t)open;
    const int64_t S = (SW_LANE_ROWS + DPA_SW_TWIN_REBASE + 2) * M + (smax > 0 ? smax : 0) -
                      (int64_t)open;
    return S < 0x4000 - (int64_t)dpa_sw_twin_low(extend);
}

/* The twin fill's constants (sw_twin.cuh, tw_cell) from the scoring parameters. */
static inline void dpa_sw_twin_kparams(dpa_sw_kparams *k)
{
    const uint32_t e = (uint32_t)k->extend;
    k->tw_e2 = (e & 0xffffu) * 65537u;
    k->tw_ke = e * 65536u + (uint32_t)(k->extend + 0x8000);
    k->tw_open2 = (uint32_t)k->open * 65537u;
    k->tw_mo2 = (uint32_t)(k->match - k->open) * 65537u;
    k->tw_ndm = (uint32_t)(k->mismatch - k->match);
    k->tw_low = dpa_sw_twin_low(k->extend);
    k->tw_low2 = (uint32_t)k->tw_low * 65537u;
}

/* sw_kernels.cu: launches the persistent grid of `warps` warps over np pairs on stream.
 * Warp w's workspace starts at ws + w * (tb_bytes + 4 * scr_words): tb_bytes of traceback
 * (a multiple of 128), then scr_words of scratch (a multiple of 4), both at least the
 * largest pair's. counters[0] is the CIGAR text used, counters[1] the next pair to take;
 * both must be 0 at launch. */
cudaError_t dpa_sw_launch(const dpa_sw_desc *descs, int32_t np, const uint8_t *bases,
                          uint8_t *ws, uint64_t tb_bytes, uint64_t scr_words, int32_t warps,
                          char *text, uint32_t *counters, dpa_sw_res *res, dpa_sw_kparams p,
                          cudaStream_t stream);

/* sw_kernels.cu: warps of sw_kernel one SM of the current device holds at once (0 if the
 * query fails). */
int dpa_sw_resident_warps_per_sm(void);

/* sw_launch.cu: the sw ops entry's work on one slot of one device. */
dpa_status dpa_cuda_sw_run(const dpa_cuda_backend *b, dpa_cuda_dev *d, dpa_cuda_slot *s,
                           const dpa_sw_batch *batch, const dpa_sw_params *params,
                           const int32_t *pairs, int64_t n, char *cigars, const int64_t *slots,
                           int32_t *cigar_lengths, int32_t *alignment_offsets,
                           int64_t *exact_matches, dpa_cuda_err *err);

#ifdef __cplusplus
}
#endif
#endif
