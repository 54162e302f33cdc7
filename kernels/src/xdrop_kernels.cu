/*
 * xdrop_kernels.cu — SeqAn's gapped X-drop, one extension side per warp (docs/xdrop.md,
 * "CUDA"). The sweep is the CPU's (native/src/cpu/xdrop/xdrop_sweep.h) step for step: the
 * same anti-diagonals, the same band [min_col, max_col), best updated after each whole
 * anti-diagonal, the same borders, shrinking, clipping and longest-extension cell. Only the
 * work inside a step is spread over the lanes:
 *   - the band's cells: lane l takes columns min_col + l, + 32, ... (a cell depends only on
 *     the two anti-diagonals before it), then a warp maximum;
 *   - the shrinking: 32 candidate columns at a time, the first one that stops SeqAn's
 *     while loop found with a ballot;
 * and the scalar state (band, best, ranges) is held identically by every lane. The three
 * anti-diagonals live in the warp's global workspace, indexed by column like the CPU's, so a
 * read never leaves what this side wrote (xdrop_sweep.h) and nothing is cleared between
 * tasks. __syncwarp orders one step's stores before the next step's loads. The sequences
 * arrive as Dna5 codes (dpa_xd_encode, run once per unit over its device copy).
 */
#include "xdrop_cuda.h"

#define FULL 0xffffffffu
/* cpu/xdrop/xdrop.h's DPA_XDROP_UNDEF: below every defined cell, no overflow when scored */
#define UNDEF (-(1 << 30) - 4096)

/* Dna5 code (cpu/xdrop/xdrop.h, dpa_xdrop_code): A C G T either case, U = T, else N = 4. */
__device__ __forceinline__ int code_of(uint32_t b)
{
    const uint32_t l = b | 0x20u;
    return l == 'a' ? 0 : l == 'c' ? 1 : l == 'g' ? 2 : (l == 't' || l == 'u') ? 3 : 4;
}

/* The device copies hold codes (dpa_xd_encode ran over them). */
__device__ __forceinline__ int elem(const uint8_t *__restrict__ s, int64_t base, int32_t i,
                                    int32_t step, int32_t comp)
{
    const int c = s[base + (int64_t)i * step];
    return comp && c < 4 ? 3 - c : c;
}

__global__ void xd_encode_kernel(uint8_t *s, int64_t n)
{
    for (int64_t i = (int64_t)blockIdx.x * blockDim.x + threadIdx.x; i < n;
         i += (int64_t)gridDim.x * blockDim.x)
        s[i] = (uint8_t)code_of(s[i]);
}

/* At least 16 blocks of 2 warps per SM: ptxas then keeps the sweep in 56 registers (72
 * without the bound). Measured on an H100 (docs/lab/2026-11-28-session12.md): 2-3% faster
 * than 72 registers; a 40-register bound (48 warps, a small spill) and taking a2[col - 1]
 * from the lane below by shuffle (-20%) were not. */
#define XD_MIN_BLOCKS 16

__device__ __forceinline__ int32_t warp_max(int32_t v)
{
#if __CUDA_ARCH__ >= 800
    return __reduce_max_sync(FULL, v); /* one redux.sync instead of five shuffles */
#else
#pragma unroll
    for (int o = 16; o; o >>= 1) v = max(v, __shfl_xor_sync(FULL, v, o));
    return v;
#endif
}

__device__ __forceinline__ int32_t warp_min(int32_t v)
{
#if __CUDA_ARCH__ >= 800
    return __reduce_min_sync(FULL, v);
#else
#pragma unroll
    for (int o = 16; o; o >>= 1) v = min(v, __shfl_xor_sync(FULL, v, o));
    return v;
#endif
}

/* One side (the CPU's dpa_xdrop_sweep); the result is valid in lane 0. */
__device__ dpa_xd_res sweep(const uint8_t *__restrict__ q, const uint8_t *__restrict__ t,
                            const dpa_xd_task &T, int32_t *ws, int64_t stride,
                            const dpa_xd_kparams &p, int lane)
{
    dpa_xd_res r = { 0, 0, 0, 0, 0 };
    const int32_t cols = T.qlen + 1, rows = T.tlen + 1;
    if (rows == 1 || cols == 1) return r;
    const int32_t U = UNDEF, gap = p.gap, x = p.xdrop;
    int32_t *a1 = ws, *a2 = ws + stride, *a3 = ws + 2 * stride;
    int32_t lo1 = 0, hi1 = 0, lo2 = 0, hi2 = 0, lo3 = 0, hi3 = 1;
    if (lane == 0) {
        a2[0] = 0;                           /* anti-diagonal 0: the seed end */
        a3[0] = a3[1] = -gap > x ? U : gap;  /* anti-diagonal 1 */
    }
    __syncwarp();
    int32_t min_col = 1, max_col = 2, d = 1, best = 0;
    int64_t swept = 0;
    while (min_col < max_col) {
        ++d;
        int32_t *t3 = a1;
        a1 = a2;
        a2 = a3;
        a3 = t3;
        lo1 = lo2, hi1 = hi2, lo2 = lo3, hi2 = hi3;
        lo3 = min_col - 1, hi3 = max_col;
        const int32_t floor = best - x;
        int32_t dbest = INT32_MIN;
        /* SeqAn's two shrinking loops, answered in the same pass as the cells: the left loop
         * runs on while a3[c] and a2[c - 1] are both undefined, the right one while a3[c - 1]
         * and a2[c - 1] are; per lane the first column that stops the left loop and the last
         * one that stops the right loop, then a warp minimum and maximum */
        int32_t stop_lo = INT32_MAX, stop_hi = -1;
        for (int32_t col = min_col + lane; col < max_col; col += 32) {
            const int32_t l2 = a2[col - 1], r2 = a2[col];
            const int same = elem(q, T.qbase, col - 1, T.qstep, 0) ==
                             elem(t, T.tbase, d - col - 1, T.tstep, T.tcomp);
            const int32_t v = max(max(l2, r2) + gap, a1[col - 1] + (same ? p.match : p.mismatch));
            const bool undef = v < floor;
            a3[col] = undef ? U : v;
            if (!undef) dbest = max(dbest, v);
            if (!(undef && l2 == U)) stop_lo = min(stop_lo, col);
            if (!(undef && r2 == U)) stop_hi = col;
        }
        dbest = warp_max(dbest);
        stop_lo = warp_min(stop_lo);
        stop_hi = warp_max(stop_hi);
        swept += max_col - min_col;
        /* the two border columns (best is still the earlier anti-diagonals') */
        int32_t b_lo = U, b_hi = U;
        if ((int64_t)d * gap > (int64_t)best - x) {
            if (lo3 == 0) b_lo = d * gap;
            if (d == max_col) b_hi = d * gap;
        }
        if (lane == 0) {
            a3[lo3] = b_lo;
            a3[hi3] = b_hi;
        }
        if (dbest > best) best = dbest; /* only after the whole anti-diagonal */
        /* no computed cell stopped a loop: it reaches the border column (hi3 on the left
         * loop's way up, lo3 on the right loop's way down) */
        if (stop_lo == INT32_MAX)
            stop_lo = b_hi == U && hi3 - 1 <= hi2 && a2[hi3 - 1] == U ? hi3 + 1 : hi3;
        if (stop_hi < 0) stop_hi = b_lo == U && a2[lo3] == U ? lo3 - 1 : lo3;
        min_col = stop_lo;
        max_col = stop_hi + 1;
        ++max_col;
        if (min_col < d + 2 - rows) min_col = d + 2 - rows; /* target end reached */
        if (max_col > cols) max_col = cols;                 /* query end reached */
        __syncwarp(); /* this anti-diagonal's stores before the next one's loads */
    }
    r.cells = swept;
    if (lane != 0) return r;
    /* SeqAn's longest extension (xdrop_sweep.h) */
    int32_t col = hi3 - 1, row = d - col, score = a3[col];
    if (score == U) {
        if (a2[hi2 - 1] != U) {
            col = hi2 - 1;
            row = d - 1 - col;
            score = a2[col];
        } else if (hi2 - lo2 + 1 > 2 && a2[hi2 - 2] != U) {
            col = hi2 - 2;
            row = d - 1 - col;
            score = a2[col];
        }
    }
    if (score == U) {
        for (int32_t c = lo1; c <= hi1; c++)
            if (a1[c] > score) {
                score = a1[c];
                col = c;
                row = d - 2 - c;
            }
    }
    if (score == U) {
        r.score = INT32_MIN - gap; /* SeqAn's own value; the seed stays */
        return r;
    }
    r.score = score;
    r.qext = col;
    r.text = row;
    return r;
}

__global__ void __launch_bounds__(32 * DPA_XD_WARPS_PER_BLOCK, XD_MIN_BLOCKS)
xd_kernel(const uint8_t *__restrict__ q, const uint8_t *__restrict__ t,
          const dpa_xd_task *__restrict__ tasks, int32_t ntasks, dpa_xd_res *__restrict__ res,
          int32_t *ws, int64_t stride, uint32_t *counter, dpa_xd_kparams p)
{
    const int lane = threadIdx.x & 31;
    const int64_t warp = (int64_t)blockIdx.x * DPA_XD_WARPS_PER_BLOCK + (threadIdx.x >> 5);
    int32_t *mine = ws + warp * 3 * stride;
    for (;;) {
        uint32_t k = 0;
        if (lane == 0) k = atomicAdd(counter, 1u);
        k = __shfl_sync(FULL, k, 0);
        if (k >= (uint32_t)ntasks) break;
        const dpa_xd_task T = tasks[k];
        const dpa_xd_res r = sweep(q, t, T, mine, stride, p, lane);
        if (lane == 0) res[k] = r;
        __syncwarp(); /* the next task reuses the workspace */
    }
}

cudaError_t dpa_xd_encode(uint8_t *s, int64_t n, cudaStream_t stream)
{
    if (n <= 0) return cudaSuccess;
    int64_t blocks = (n + 255) / 256;
    if (blocks > 4096) blocks = 4096;
    xd_encode_kernel<<<(unsigned)blocks, 256, 0, stream>>>(s, n);
    return cudaGetLastError();
}

cudaError_t dpa_xd_launch(const uint8_t *q, const uint8_t *t, const dpa_xd_task *tasks,
                          int32_t ntasks, dpa_xd_res *res, int32_t *ws, int64_t stride,
                          int32_t warps, uint32_t *counter, dpa_xd_kparams p, cudaStream_t stream)
{
    if (ntasks <= 0) return cudaSuccess;
    const int32_t blocks = (warps + DPA_XD_WARPS_PER_BLOCK - 1) / DPA_XD_WARPS_PER_BLOCK;
    xd_kernel<<<blocks, 32 * DPA_XD_WARPS_PER_BLOCK, 0, stream>>>(q, t, tasks, ntasks, res, ws,
                                                                   stride, counter, p);
    return cudaGetLastError();
}

extern "C" int dpa_xd_resident_warps_per_sm(void)
{
    int nb = 0;
    if (cudaOccupancyMaxActiveBlocksPerMultiprocessor(&nb, xd_kernel, 32 * DPA_XD_WARPS_PER_BLOCK,
                                                      0) != cudaSuccess) {
        (void)cudaGetLastError();
        return 0;
    }
    return nb * DPA_XD_WARPS_PER_BLOCK;
}
