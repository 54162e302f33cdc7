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

/*
 * Packed 16-bit cells: the same sweep with two columns per 32-bit operation (sm_90's
 * VIADDMNMX / VIMNMX .S16x2 / .U16x2 do the cell in four instructions for two columns).
 *
 * Representation. Anti-diagonal d's cells are stored relative to its own base
 * B_d = F_d - 1, where F_d = best - X is the floor its cells were tested against (best as of
 * the anti-diagonals before d). So a defined cell is >= 1 and every undefined cell is 0: the
 * ".RELU" of the last max does SeqAn's "below best - X becomes undefined" test for free.
 * Reading the two earlier anti-diagonals adds delta2 = B_{d-1} - B_d and delta1 =
 * B_{d-2} - B_d, folded into the per-anti-diagonal constants (gap + delta2, s + delta1).
 *
 * The one place 0 is not -infinity: an undefined diagonal cell plus a positive match could
 * come out >= 1. So the diagonal operand first goes through umin(diag - 1, 0x8000 + H)
 * (unsigned): an undefined 0 becomes 0xffff and is clamped to -32768 + H (signed); a
 * defined one becomes diag - 1 (< 0x8000, untouched); the score constant then adds s + 1 +
 * delta1. With H = G + 2m (G = max(-mismatch, -gap), m = match) an undefined diagonal gives
 * -32768 + H + s + 1 + delta1 in [-32767, 0]: below 1, and no wrap.
 *
 * Bound (why the packed kernel is exact; dpa_xd_int16_ok checks it, else the int32 kernel):
 *   - best grows by at most m per anti-diagonal (a new cell is at most an earlier cell + m and
 *     earlier cells are <= best), and is >= 0; so 0 >= delta2 >= -m, 0 >= delta1 >= -2m;
 *   - a defined cell of anti-diagonal d is in [F_d, best_d + m], i.e. stored in [1, X + m + 1];
 *     a border cell d * gap <= 0 <= best is stored in [1, X + 1]; the seed end (0 at
 *     best 0) is X + 1;
 *   - the gap operand max(l2, r2) + gap + delta2 lies in [-G - m, X + m + 1];
 *   - the diagonal operand, defined: diag + s + delta1 in [-G - 2m + 1, X + 2m + 1];
 *     undefined: in [-32767, -32768 + G + 3m + 1];
 *   so with X + 2m + 1 <= 32767 and G + 3m + 1 <= 32768 no 16-bit lane wraps, every
 *   result >= 1 is the exact int32 cell minus B_d, and every result the int32 kernel marks
 *   undefined (< F_d, i.e. <= 0 here) becomes 0. Everything outside the cells (best, band,
 *   borders, shrinking, the longest extension) stays int32 and reads cells as B + rel.
 * With the validated limits (m, G <= 1000) that is X <= 30,766; above it the call runs the
 * int32 kernel.
 *
 * Layout: each anti-diagonal is int16 indexed by column + 2 (so columns -2, -1 exist); lane
 * l takes the pairs of columns (e + 2p, e + 2p + 1), p = l + 32k, e = (min_col - 1) rounded
 * down to even, up to the right border column max_col: every load and store of a pair is one
 * aligned 32-bit word. Only the first and the last pair hold columns outside the band: the
 * border columns (min_col - 1, max_col), whose values are written in place of the computed
 * ones, and at most one column beyond each border, computed from stale words, stored but
 * never read (later reads stay inside [min_col - 1, max_col] of this anti-diagonal, as in
 * the int32 sweep) and masked out of the shrink tests; the best is taken over borders too,
 * harmless since a border is d * gap < 0 <= best. Sequence reads of those columns can fall
 * up to two bytes outside a sequence: the launch puts the sequences ALIGN bytes into the
 * device buffer, so they stay inside it, and their codes are masked.
 */
#define XD16_OFF 2

__device__ __forceinline__ uint32_t pack16(int32_t v) { return ((uint32_t)v & 0xffffu) * 0x10001u; }

/* One side, packed (see above); same results as sweep(), valid in lane 0. Instantiated per
 * query step QS (+1 right side, -1 left) and complement TC (reverse strand; the target step
 * is then -QS, else QS), so the sequence reads are pointer steps with constant offsets. */
template <int QS, int TC>
__device__ dpa_xd_res sweep16(const uint8_t *__restrict__ q, const uint8_t *__restrict__ t,
                              const dpa_xd_task &T, int32_t *ws, int64_t stride,
                              const dpa_xd_kparams &p, int lane)
{
    dpa_xd_res r = { 0, 0, 0, 0, 0 };
    const int32_t cols = T.qlen + 1, rows = T.tlen + 1;
    if (rows == 1 || cols == 1) return r;
    const int32_t U = UNDEF, gap = p.gap, x = p.xdrop, match = p.match;
    const int32_t G = max(-p.mismatch, -gap);
    const uint32_t kclamp = p.noclamp ? 0xffffffffu : pack16(0x8000 + G + 2 * match);
    /* int16 views, column c at [c + XD16_OFF] */
    int16_t *a1 = (int16_t *)ws + XD16_OFF, *a2 = (int16_t *)(ws + stride) + XD16_OFF,
            *a3 = (int16_t *)(ws + 2 * stride) + XD16_OFF;
    int32_t lo1 = 0, hi1 = 0, lo2 = 0, hi2 = 0, lo3 = 0, hi3 = 1;
    /* anti-diagonals 0 and 1 both have best 0: base -X - 1 */
    int32_t B1 = -x - 1, B2 = -x - 1, B3 = -x - 1;
    if (lane == 0) {
        a2[0] = (int16_t)(x + 1);                                     /* the seed end, 0 */
        a3[0] = a3[1] = (int16_t)(-gap > x ? 0 : gap + x + 1);       /* anti-diagonal 1 */
    }
    __syncwarp();
    int32_t min_col = 1, max_col = 2, d = 1, best = 0;
    int64_t swept = 0;
    constexpr int TS = TC ? -QS : QS;
    const uint8_t *qp = q + T.qbase, *tp = t + T.tbase;
    while (min_col < max_col) {
        ++d;
        int16_t *t3 = a1;
        a1 = a2;
        a2 = a3;
        a3 = t3;
        B1 = B2, B2 = B3, B3 = best - x - 1;
        lo1 = lo2, hi1 = hi2, lo2 = lo3, hi2 = hi3;
        lo3 = min_col - 1, hi3 = max_col;
        const uint32_t g2 = pack16(gap + B2 - B3);
        const uint32_t sm = pack16(match + 1 + B1 - B3), smm = pack16(p.mismatch + 1 + B1 - B3);
        /* the two border columns (best is still the earlier anti-diagonals') */
        int32_t b_lo = 0, b_hi = 0;
        if ((int64_t)d * gap > (int64_t)best - x) {
            if (lo3 == 0) b_lo = d * gap - B3;
            if (d == max_col) b_hi = d * gap - B3;
        }
        const int32_t e = lo3 & ~1;
        const int32_t plast = (hi3 - e) >> 1;
        /* masks (band halves) and overrides (border halves) of the first and the last pair.
         * The band is not empty, so max_col >= min_col + 1 and the two pairs differ (plast >= 1).
         * First pair (e, e + 1): lo3 even: (border, band), else (beyond, border). Last pair
         * (c, c + 1), c = e + 2 plast: hi3 odd: (band, border), else (border, beyond). */
        const uint32_t mf = lo3 & 1 ? 0u : 0xffff0000u;
        const uint32_t of = lo3 & 1 ? (uint32_t)b_lo << 16 : (uint32_t)b_lo;
        const uint32_t ml = hi3 & 1 ? 0xffffu : 0u;
        const uint32_t ol = hi3 & 1 ? (uint32_t)b_hi << 16 : (uint32_t)b_hi;
        const uint32_t *w1 = (const uint32_t *)(a1 - XD16_OFF), *w2 = (const uint32_t *)(a2 - XD16_OFF);
        uint32_t *w3 = (uint32_t *)(a3 - XD16_OFF);
        uint32_t acc = 0, wlo = 0, whi = 0;
        int32_t stop_lo = INT32_MAX, stop_hi = -1;
        /* query element c - 1 and target element d - c - 1 of this lane's first pair */
        const uint8_t *qc = qp + (int64_t)(e + 2 * lane - 1) * QS;
        const uint8_t *tc = tp + (int64_t)(d - e - 2 * lane - 1) * TS;
        for (int32_t pi = lane; pi <= plast; pi += 32, qc += 64 * QS, tc -= 64 * TS) {
            const int32_t c = e + 2 * pi;
            const int32_t wi = (c + XD16_OFF) >> 1;
            const uint32_t A = w2[wi - 1], R = w2[wi];
            const uint32_t L = __byte_perm(A, R, 0x5432); /* (a2[c - 1], a2[c]) */
            const uint32_t D = __byte_perm(w1[wi - 1], w1[wi], 0x5432);
            /* codes: query c - 1 and c, target d - c - 1 and d - c - 2 */
            const uint32_t qa = qc[0], qb = qc[QS];
            uint32_t ta = tc[0], tb = tc[-TS];
            if (TC) {
                ta = ta < 4 ? 3 - ta : ta;
                tb = tb < 4 ? 3 - tb : tb;
            }
            const uint32_t xq = (qa ^ ta) | ((qb ^ tb) << 16);
            uint32_t eq; /* 0xffff where equal: xq - 1 per half, its sign replicated (prmt's
                          * sign mode, which __byte_perm's 3-bit selectors cannot ask for) */
            asm("prmt.b32 %0, %1, 0, 0xbb99;" : "=r"(eq) : "r"(__vadd2(xq, 0xffffffffu)));
            const uint32_t s = (eq & sm) | (~eq & smm);
            const uint32_t ds = __vadd2(__viaddmin_u16x2(D, 0xffffffffu, kclamp), s);
            const uint32_t v = __viaddmax_s16x2_relu(__vmaxs2(L, R), g2, ds);
            const uint32_t m = pi == 0 ? mf : pi == plast ? ml : 0xffffffffu;
            const uint32_t o = pi == 0 ? of : pi == plast ? ol : 0u;
            const uint32_t y = (v & m) | o;
            w3[wi] = y;
            acc = __vmaxs2(acc, y);
            const uint32_t clo = __vmaxs2(y, L) & m, chi = __vmaxs2(y, R) & m;
            /* this lane's first pair that stops the left loop and last that stops the right
             * one (its pairs come in column order); which half, after the loop */
            if (clo && !wlo) stop_lo = c, wlo = clo;
            if (chi) stop_hi = c, whi = chi;
        }
        if (wlo && !(wlo & 0xffffu)) stop_lo++;
        if (whi >> 16) stop_hi++;
        int32_t dbest = max((int32_t)(acc & 0xffffu), (int32_t)(acc >> 16));
        dbest = warp_max(dbest);
        stop_lo = warp_min(stop_lo);
        stop_hi = warp_max(stop_hi);
        swept += max_col - min_col;
        if (dbest > 0 && dbest + B3 > best) best = dbest + B3; /* only after the whole anti-diagonal */
        __syncwarp(); /* this anti-diagonal's stores before its reads below and the next one's */
        if (stop_lo == INT32_MAX)
            stop_lo = b_hi == 0 && hi3 - 1 <= hi2 && a2[hi3 - 1] == 0 ? hi3 + 1 : hi3;
        if (stop_hi < 0) stop_hi = b_lo == 0 && a2[lo3] == 0 ? lo3 - 1 : lo3;
        min_col = stop_lo;
        max_col = stop_hi + 1;
        ++max_col;
        if (min_col < d + 2 - rows) min_col = d + 2 - rows; /* target end reached */
        if (max_col > cols) max_col = cols;                 /* query end reached */
    }
    r.cells = swept;
    if (lane != 0) return r;
    /* SeqAn's longest extension, on absolute values (0 = undefined) */
#define ABS16(a, B, c) ((a)[c] > 0 ? (int32_t)(a)[c] + (B) : U)
    int32_t col = hi3 - 1, row = d - col, score = ABS16(a3, B3, col);
    if (score == U) {
        if (a2[hi2 - 1] > 0) {
            col = hi2 - 1;
            row = d - 1 - col;
            score = ABS16(a2, B2, col);
        } else if (hi2 - lo2 + 1 > 2 && a2[hi2 - 2] > 0) {
            col = hi2 - 2;
            row = d - 1 - col;
            score = ABS16(a2, B2, col);
        }
    }
    if (score == U) {
        for (int32_t c = lo1; c <= hi1; c++) {
            const int32_t v = ABS16(a1, B1, c);
            if (v > score) {
                score = v;
                col = c;
                row = d - 2 - c;
            }
        }
    }
#undef ABS16
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
xd16_kernel(const uint8_t *__restrict__ q, const uint8_t *__restrict__ t,
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
        const dpa_xd_res r = T.qstep > 0 ? (T.tcomp ? sweep16<1, 1>(q, t, T, mine, stride, p, lane)
                                                   : sweep16<1, 0>(q, t, T, mine, stride, p, lane))
                                         : (T.tcomp ? sweep16<-1, 1>(q, t, T, mine, stride, p, lane)
                                                    : sweep16<-1, 0>(q, t, T, mine, stride, p, lane));
        if (lane == 0) res[k] = r;
        __syncwarp();
    }
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
                          int32_t warps, uint32_t *counter, dpa_xd_kparams p, int int16,
                          cudaStream_t stream)
{
    if (ntasks <= 0) return cudaSuccess;
    const int32_t blocks = (warps + DPA_XD_WARPS_PER_BLOCK - 1) / DPA_XD_WARPS_PER_BLOCK;
    if (int16)
        xd16_kernel<<<blocks, 32 * DPA_XD_WARPS_PER_BLOCK, 0, stream>>>(q, t, tasks, ntasks, res,
                                                                         ws, stride, counter, p);
    else
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

/* The packed kernel's bound (see sweep16): X + 2m + 1 <= 32767 and G + 3m + 1 <= 32768. */
extern "C" int dpa_xd_int16_ok(dpa_xd_kparams p)
{
    const int64_t m = p.match, G = -(int64_t)(p.mismatch < p.gap ? p.mismatch : p.gap);
    return m >= 0 && G >= 0 && p.xdrop >= 0 && p.xdrop + 2 * m + 1 <= 32767 && G + 3 * m + 1 <= 32768;
}
