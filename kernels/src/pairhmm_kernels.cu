/*
 * pairhmm_kernels.cu — the PairHMM forward kernels (device code only; the launcher is
 * pairhmm_launch.cu). See docs/pairhmm-cuda.md for the design and the cost model.
 *
 * One algorithm, one template: a GROUP of G threads computes one (read, haplotype) pair;
 * thread t of the group owns R consecutive read rows and sweeps the haplotype columns
 * along an anti-diagonal wavefront (thread t works on column j = s - t + 1 at step s).
 * Per step a thread receives, from thread t-1 through __shfl_up_sync, the bottom row of
 * t-1 at column j (M, I, D) and the haplotype code of column j; everything else (its R
 * rows of M, I, D and their transition probabilities) stays in registers.
 *   - G = 32, 16, 8, 4: intra-task (a warp holds 32/G pairs), the strategy of the
 *     warp-per-pair GPU PairHMMs;
 *   - G = 1: inter-task, one thread per pair, boundary rows in an interleaved (coalesced)
 *     global layout, the strategy of the thread-per-pair GPU PairHMMs.
 * Reads longer than G*R rows take several passes; the bottom row of a pass is written to a
 * global boundary buffer (cells interleaved across the warp's groups: coalesced) and read
 * back by thread 0 in the next pass.
 *
 * Reads are aligned to the BOTTOM of the group's G*R*passes rows: the rows above the read
 * are "virtual" rows that copy GATK's row 0 exactly (prior 0, mi = md = 0, ii = dd = 1,
 * D column 0 = initial/hap_len), so the last read row is always register R-1 of thread
 * G-1 and the final sum needs no dynamic register index.
 *
 * Float kernels look emission priors up in a per-thread shared-memory table
 * prior[code][row] (one LDS.128 per 4 cells instead of a compare and a select per cell);
 * the double kernel (recompute pass) compares codes.
 *
 * Contents: constants and cell types; group_task (the algorithm); phmm_f32 (float warp
 * tasks); phmm_f64 (double pass over flagged pairs or all pairs); the kernel table.
 */
#include <cuda_runtime.h>

#include "pairhmm_cuda.h"

/* Minimum resident blocks per SM for the R = 16 float kernels (register cap 65536 /
 * (128 * this)); see docs/pairhmm-cuda.md for the measured trade-off. */
#ifndef DPA_PHMM_MINB16
#define DPA_PHMM_MINB16 3
#endif

namespace {

struct __align__(32) dcell {
    double m, i, d, pad;
};

template <typename T> struct ptraits;
template <> struct ptraits<float> {
    typedef float4 cell;
    static __device__ __forceinline__ float initial() { return 0x1p120f; }
    static constexpr double log10_initial = 36.12359947967774; /* 120 log10(2) */
};
template <> struct ptraits<double> {
    typedef dcell cell;
    static __device__ __forceinline__ double initial() { return 0x1p1020; }
    static constexpr double log10_initial = 307.0505955772608; /* 1020 log10(2) */
};

__device__ __forceinline__ void cell_get(const float4 &c, float &m, float &i, float &d)
{
    m = c.x;
    i = c.y;
    d = c.z;
}
__device__ __forceinline__ void cell_get(const dcell &c, double &m, double &i, double &d)
{
    m = c.m;
    i = c.i;
    d = c.d;
}
__device__ __forceinline__ float4 cell_make(float m, float i, float d)
{
    return make_float4(m, i, d, 0.0f);
}
__device__ __forceinline__ dcell cell_make(double m, double i, double d)
{
    dcell c;
    c.m = m;
    c.i = i;
    c.d = d;
    c.pad = 0;
    return c;
}

/* Explicitly rounded operations: the compiler may not contract or reorder them, so every
 * kernel configuration (G, R, pass structure, architecture) performs exactly the same
 * roundings for a cell and a pair's result does not depend on how it was scheduled. */
__device__ __forceinline__ float xmul(float a, float b) { return __fmul_rn(a, b); }
__device__ __forceinline__ float xadd(float a, float b) { return __fadd_rn(a, b); }
__device__ __forceinline__ float xfma(float a, float b, float c) { return __fmaf_rn(a, b, c); }
__device__ __forceinline__ double xmul(double a, double b) { return __dmul_rn(a, b); }
__device__ __forceinline__ double xadd(double a, double b) { return __dadd_rn(a, b); }
__device__ __forceinline__ double xfma(double a, double b, double c) { return __fma_rn(a, b, c); }

template <int G, typename V> __device__ __forceinline__ V shfl_up1(V v)
{
    if constexpr (G == 1) {
        return v;
    } else {
        return __shfl_up_sync(0xffffffffu, v, 1, G);
    }
}

/*
 * One pass of a group over every haplotype column. LOADB: thread 0 takes the row above
 * from the boundary buffer (else it is GATK's row 0); STOREB: thread G-1 writes its bottom
 * row to the buffer (else it adds it to the final sum). Separate instances keep the hot
 * single-pass loop free of the buffer code.
 */
template <typename T, int G, int R, bool TABLE, bool LOADB, bool STOREB>
__device__ __forceinline__ void sweep(const dpa_phmm_kargs &a, const uint8_t *hap, int n, T d0,
                                      int t, int g, int steps, T pD0,
                                      typename ptraits<T>::cell *scratch, const float4 *tbl,
                                      const T (&mm)[R], const T (&gm)[R], const T (&mi)[R],
                                      const T (&md)[R], const T (&gc)[R], const T (&pm)[R],
                                      const T (&px)[R], const int (&rc)[R], T (&M)[R],
                                      T (&I)[R], T (&D)[R], T &sum)
{
    constexpr int P = 32 / G;
    constexpr int Q = R / 4;
    T pM = 0, pI = 0, pD = pD0;
    int hc_out = 0;
    /* thread 0's next column: haplotype code and boundary row, prefetched a step ahead
     * (the buffer cell it reads is rewritten G-1 steps later at the earliest) */
    int nxt_hc = 0;
    typename ptraits<T>::cell nxt_b = {};
    if (t == 0) {
        nxt_hc = __ldg(hap);
        if (LOADB) nxt_b = scratch[1 * P + g];
    }
    const bool sum_lane = t == G - 1;
#pragma unroll 2
    for (int s = 0; s < steps; s++) {
        const int j = s - t + 1;
        T uM = shfl_up1<G>(M[R - 1]);
        T uI = shfl_up1<G>(I[R - 1]);
        T uD = shfl_up1<G>(D[R - 1]);
        int hc = shfl_up1<G>(hc_out);
        if (t == 0) {
            hc = nxt_hc;
            if (LOADB) {
                cell_get(nxt_b, uM, uI, uD);
            } else {
                uM = 0;
                uI = 0;
                uD = d0;
            }
            const int jn = min(j + 1, n);
            nxt_hc = __ldg(hap + (jn - 1));
            if (LOADB) nxt_b = scratch[jn * P + g];
        }
        if (j >= 1 && j <= n) {
            /* Bottom-up first: D (needs this row's column j-1) and M (needs the row
             * above at column j-1, not yet overwritten), so every update is in place;
             * then top-down I, which needs the row above at column j. */
            const bool hcN = hc == 0;
            float4 pq[Q];
            if constexpr (TABLE) {
                const float4 *tp = tbl + hc * Q * DPA_PHMM_BLOCK;
#pragma unroll
                for (int q = 0; q < Q; q++) pq[q] = tp[q * DPA_PHMM_BLOCK];
            }
#pragma unroll
            for (int r = R - 1; r >= 0; r--) {
                T prior;
                if constexpr (TABLE) {
                    const float4 v = pq[r / 4];
                    prior = (r & 3) == 0 ? v.x : (r & 3) == 1 ? v.y : (r & 3) == 2 ? v.z : v.w;
                } else {
                    prior = (rc[r] == hc || hcN) ? pm[r] : px[r];
                }
                /* D = md M + gc D; M = prior (mm dM + gm (dI + dD)); I = mi uM + gc uI */
                D[r] = xfma(md[r], M[r], xmul(gc[r], D[r]));
                const T dM = r ? M[r - 1] : pM;
                const T dI = r ? I[r - 1] : pI;
                const T dD = r ? D[r - 1] : pD;
                M[r] = xmul(prior, xfma(mm[r], dM, xmul(gm[r], xadd(dI, dD))));
            }
#pragma unroll
            for (int r = 0; r < R; r++)
                I[r] = xfma(mi[r], r ? M[r - 1] : uM, xmul(gc[r], r ? I[r - 1] : uI));
            if (STOREB) {
                if (sum_lane) scratch[j * P + g] = cell_make(M[R - 1], I[R - 1], D[R - 1]);
            } else {
                const T v = xadd(M[R - 1], I[R - 1]);
                if (sum_lane) sum = xadd(sum, v);
            }
        }
        pM = uM;
        pI = uI;
        pD = uD;
        hc_out = hc;
    }
}

/*
 * Computes one pair with a group of G threads (thread t of group g; P groups per warp).
 * All 32 lanes of the warp must call it with the same steps/passes (warp-uniform loops;
 * shuffles use the full mask). Lanes of an inactive group compute a copy of a real pair
 * and write nothing but their own scratch cells.
 * Returns the scaled forward sum in thread G-1 (meaningless elsewhere).
 */
template <typename T, int G, int R, bool TABLE>
__device__ __forceinline__ T group_task(const dpa_phmm_kargs &a, const dpa_phmm_pdesc &pd,
                                        int t, int g, int steps, int passes,
                                        typename ptraits<T>::cell *scratch, float4 *tbl)
{
    constexpr int Q = R / 4; /* float4 quads per thread and code in the table */
    const int L = pd.read_len, n = pd.hap_len;
    const T d0 = ptraits<T>::initial() / (T)n;
    const int pad = passes * G * R - L;
    const uint8_t *hap = a.hcode + pd.hap_off;
    T sum = 0;

    for (int pass = 0; pass < passes; pass++) {
        const int row0 = pass * G * R + t * R; /* padded row index of register 0 */
        const bool last = pass == passes - 1;
        T mm[R], gm[R], mi[R], md[R], gc[R], pm[R], px[R];
        int rc[R];
        T M[R], I[R], D[R];
#pragma unroll
        for (int r = 0; r < R; r++) {
            const int pr = row0 + r - pad; /* read position, < 0: virtual row */
            if (pr >= 0) {
                const uint32_t w = __ldg(a.rdata + pd.read_off + pr);
                const double e = __ldg(a.err + ((w >> 8) & 0xff));
                const double ei = __ldg(a.err + ((w >> 16) & 0xff));
                const double ed = __ldg(a.err + (w >> 24));
                const double eg = __ldg(a.err + __ldg(a.rgcp + pd.read_off + pr));
                /* exactly the reference's double expressions, then one rounding to T */
                mm[r] = (T)(1.0 - fmin(1.0, ei + ed)); /* GATK clamps at 0 */
                gm[r] = (T)(1.0 - eg);
                mi[r] = (T)ei;
                md[r] = (T)ed;
                gc[r] = (T)eg;
                pm[r] = (T)(1.0 - e);
                rc[r] = (int)(w & 0xff);
                px[r] = rc[r] == 0 ? pm[r] : (T)(e / 3.0); /* read N matches anything */
                D[r] = 0;
            } else {
                mm[r] = 0; gm[r] = 0; mi[r] = 0; md[r] = 0; gc[r] = 1;
                pm[r] = 0; px[r] = 0; rc[r] = 0;
                D[r] = d0; /* virtual rows copy row 0: D = initial / n from column 0 on */
            }
            M[r] = 0;
            I[r] = 0;
        }
        if constexpr (TABLE) {
            /* prior[c][row] for every code c; code 0 (N) matches every row */
#pragma unroll
            for (int c = 0; c < DPA_PHMM_TABLE_CODES; c++) {
#pragma unroll
                for (int q = 0; q < Q; q++) {
                    float4 v;
                    v.x = (float)((rc[4 * q + 0] == c || c == 0) ? pm[4 * q + 0] : px[4 * q + 0]);
                    v.y = (float)((rc[4 * q + 1] == c || c == 0) ? pm[4 * q + 1] : px[4 * q + 1]);
                    v.z = (float)((rc[4 * q + 2] == c || c == 0) ? pm[4 * q + 2] : px[4 * q + 2]);
                    v.w = (float)((rc[4 * q + 3] == c || c == 0) ? pm[4 * q + 3] : px[4 * q + 3]);
                    tbl[(c * Q + q) * DPA_PHMM_BLOCK] = v;
                }
            }
        }

        /* row above this thread's first row, at column j-1 (starts at column 0) */
        const T pD0 = (row0 - 1 < pad) ? d0 : (T)0;
        if (passes == 1) {
            sweep<T, G, R, TABLE, false, false>(a, hap, n, d0, t, g, steps, pD0, scratch, tbl,
                                                mm, gm, mi, md, gc, pm, px, rc, M, I, D, sum);
        } else if (pass == 0) {
            sweep<T, G, R, TABLE, false, true>(a, hap, n, d0, t, g, steps, pD0, scratch, tbl,
                                               mm, gm, mi, md, gc, pm, px, rc, M, I, D, sum);
        } else if (!last) {
            sweep<T, G, R, TABLE, true, true>(a, hap, n, d0, t, g, steps, pD0, scratch, tbl,
                                              mm, gm, mi, md, gc, pm, px, rc, M, I, D, sum);
        } else {
            sweep<T, G, R, TABLE, true, false>(a, hap, n, d0, t, g, steps, pD0, scratch, tbl,
                                               mm, gm, mi, md, gc, pm, px, rc, M, I, D, sum);
        }
        __syncwarp(); /* the boundary row written by thread G-1 is read by thread 0 next */
    }
    return sum;
}

/* Writes the result of one pair from thread G-1: log10 of the float sum, or a flag for
 * the double pass when the sum is below 1e-28 (GATK's rule; compared in double as the
 * reference does). */
__device__ __forceinline__ void put_f32(const dpa_phmm_kargs &a, int32_t pidx, int32_t res,
                                        float sum)
{
    const double v = (double)sum;
    if (!(v >= 1e-28)) {
        a.flags[atomicAdd(a.count, 1)] = pidx;
    } else {
        a.res[res] = log10(v) - ptraits<float>::log10_initial;
    }
}

/* One warp task per warp: up to 32/G pairs of one configuration. */
template <int G, int R>
__global__ void __launch_bounds__(DPA_PHMM_BLOCK, R == 16 ? DPA_PHMM_MINB16 : 4) phmm_f32(const dpa_phmm_kargs a)
{
    extern __shared__ float4 smem_tbl[];
    const int wid = blockIdx.x * (DPA_PHMM_BLOCK / 32) + threadIdx.x / 32;
    if (wid >= a.num_warps) return; /* whole warps only */
    const dpa_phmm_wdesc w = a.warps[wid];
    const int lane = threadIdx.x & 31, g = lane / G, t = lane % G;
    const bool active = g < w.count;
    const int32_t pidx = w.first + (active ? g : 0);
    const dpa_phmm_pdesc pd = a.pairs[pidx];
    float4 *scratch = (float4 *)a.scratch + w.scratch;
    const float sum = group_task<float, G, R, true>(a, pd, t, g, w.steps, w.passes, scratch,
                                                    smem_tbl + threadIdx.x);
    if (active && t == G - 1) put_f32(a, pidx, pd.res, sum);
}

/* Double pass: persistent warps, one pair per warp, over the flagged pairs (count/flags
 * from the float kernels, after the pairs with letters outside the float table) or over
 * every pair (flags == NULL: double precision asked for). */
__global__ void __launch_bounds__(DPA_PHMM_BLOCK) phmm_f64(const dpa_phmm_kargs a)
{
    constexpr int G = DPA_PHMM_DOUBLE_G, R = DPA_PHMM_DOUBLE_R;
    const int wid = blockIdx.x * (DPA_PHMM_BLOCK / 32) + threadIdx.x / 32;
    const int nw = gridDim.x * (DPA_PHMM_BLOCK / 32);
    const int lane = threadIdx.x & 31;
    /* pdescs [wide_first, num_pairs) never ran in float (letters outside the table),
     * then the pairs the float kernels flagged */
    const int nwide = a.num_pairs - a.wide_first;
    const int total = a.flags ? nwide + *a.count : a.num_pairs;
    dcell *scratch = (dcell *)a.scratch + (int64_t)wid * (a.max_hap + 1);
    for (int k = wid; k < total; k += nw) {
        const int32_t pidx = !a.flags ? k : k < nwide ? a.wide_first + k : a.flags[k - nwide];
        const dpa_phmm_pdesc pd = a.pairs[pidx];
        const int passes = (pd.read_len + G * R - 1) / (G * R);
        const double sum = group_task<double, G, R, false>(a, pd, lane, 0, pd.hap_len + G - 1,
                                                           passes, scratch, nullptr);
        if (lane == G - 1) a.res[pd.res] = log10(sum) - ptraits<double>::log10_initial;
    }
}

}  // namespace

/* The configurations, in the order of the kernel table below. */
extern "C" const dpa_phmm_cfg dpa_phmm_cfgs[DPA_PHMM_NUM_CFG] = {
    { 1, 8 }, { 1, 16 }, { 4, 8 }, { 4, 16 }, { 8, 8 },
    { 8, 16 }, { 16, 8 }, { 16, 16 }, { 32, 8 }, { 32, 16 },
};

extern "C" const void *dpa_phmm_kernel_f32(int32_t cfg)
{
    switch (cfg) {
    case 0: return (const void *)phmm_f32<1, 8>;
    case 1: return (const void *)phmm_f32<1, 16>;
    case 2: return (const void *)phmm_f32<4, 8>;
    case 3: return (const void *)phmm_f32<4, 16>;
    case 4: return (const void *)phmm_f32<8, 8>;
    case 5: return (const void *)phmm_f32<8, 16>;
    case 6: return (const void *)phmm_f32<16, 8>;
    case 7: return (const void *)phmm_f32<16, 16>;
    case 8: return (const void *)phmm_f32<32, 8>;
    case 9: return (const void *)phmm_f32<32, 16>;
    default: return nullptr;
    }
}

extern "C" const void *dpa_phmm_kernel_f64(void) { return (const void *)phmm_f64; }

extern "C" size_t dpa_phmm_smem_f32(int32_t cfg)
{
    return (size_t)DPA_PHMM_TABLE_CODES * (size_t)dpa_phmm_cfgs[cfg].r * DPA_PHMM_BLOCK *
           sizeof(float);
}
