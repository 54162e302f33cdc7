/*
 * pairhmm_kernels.cu — the all-pairs PairHMM kernels (the launcher is pairhmm_launch.cu;
 * the algorithm, one template for every configuration, is in pairhmm_device.cuh):
 * phmm_f32 (float warp tasks of one configuration), phmm_f64 (the double pass over
 * flagged pairs or all pairs) and the kernel table. See docs/pairhmm-cuda.md.
 */
#include "pairhmm_device.cuh"

/* Minimum resident blocks per SM for the R = 16 float kernels (register cap 65536 /
 * (128 * this)); see docs/pairhmm-cuda.md for the measured trade-off. */
#ifndef DPA_PHMM_MINB16
#define DPA_PHMM_MINB16 3
#endif
/* <8,16> also holds the 20-rows-per-thread path for reads of 129-160 rows: at 3 blocks per
 * SM (168 registers) it spills ~1 KB per thread and still ran HC-shaped whole calls 4-7%
 * faster on an H200 than at 2 blocks (211 registers, no spills), and single regions 20%
 * faster (docs/BENCHMARKS.md, 2026-11-28). */
#ifndef DPA_PHMM_MINB8_16
#define DPA_PHMM_MINB8_16 3
#endif
/* The same for the uniform-coefficient R = 16 kernels: 4 (128 registers, small spills) fits
 * more warps, but 3 (no spills) measured 2-5% faster at every shape (docs/pairhmm-cuda.md). */
#ifndef DPA_PHMM_MINB16U
#define DPA_PHMM_MINB16U 3
#endif
/* DPA_PHMM_SHORT_R (pairhmm_cuda.h): rows per thread of phmm_f32<32, 8> for reads of at
 * most 32 * that many rows (one pass); the table it builds fits the R = 8 table's shared
 * memory. */

namespace {

/* One warp task per warp: up to 32/G pairs of one configuration. U: uniform coefficients
 * (coefs<T, R, true>), which need 4 R fewer registers: R = 16 then fits 4 blocks per SM. */
template <int G, int R, bool U>
__global__ void __launch_bounds__(DPA_PHMM_BLOCK, R == 32 ? 2 : U ? DPA_PHMM_MINB16U : (G == 8 && R == 16) ? DPA_PHMM_MINB8_16 : R == 16 ? DPA_PHMM_MINB16 : 4) phmm_f32(const dpa_phmm_kargs a)
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
    bool fold_ok;
    float sum;
    bool short_read = false;
    if constexpr (G == 32 && R == 8 && !U) {
        /* One pair per warp (G = 32; warp-uniform branch): a read that fits 32 x 5 rows
         * runs with 5 rows per thread, 5/8 of the work per step; latency-bound small calls
         * (HaplotypeCaller's 150 bp reads) take this path. Same cells, same roundings,
         * the rows above the read are exact copies of row 0: the bits do not change. */
        short_read = w.passes == 1 && pd.read_len <= 32 * DPA_PHMM_SHORT_R;
        if (short_read)
            sum = group_task<float, G, DPA_PHMM_SHORT_R, false, true>(a, pd, t, g, w.steps, 1, scratch,
                                                               smem_tbl + threadIdx.x, &fold_ok);
    }
    if constexpr (G == 8 && R == 16 && !U) {
        /* The same for four pairs per warp: a warp planned as one pass whose longest read
         * needs more than 8 x 16 rows (a 151-bp read) runs 20 rows per thread, one pass of
         * n + 7 steps instead of two; the branch is warp-uniform (the warp's maximum). */
        int lmax = pd.read_len; /* (a shuffle reduction: sm_75 has no __reduce_max_sync) */
#pragma unroll
        for (int o = 16; o >= 1; o /= 2) lmax = max(lmax, __shfl_xor_sync(0xffffffffu, lmax, o));
        short_read = w.passes == 1 && lmax > G * R;
        if (short_read)
            sum = group_task<float, G, DPA_PHMM_SHORT8_R, false, true>(
                a, pd, t, g, w.steps, 1, scratch, smem_tbl + threadIdx.x, &fold_ok);
    }
    if (!short_read)
        sum = group_task<float, G, R, U, true>(a, pd, t, g, w.steps, w.passes, scratch,
                                            smem_tbl + threadIdx.x, &fold_ok);
    if (active && t == G - 1) put_f32(a, pidx, pd.res, sum, fold_ok);
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
        bool fold_ok;
        double sum;
        /* a read of at most G * DPA_PHMM_SHORT_R rows (151-bp Illumina reads) runs with
         * that many rows per thread: a step's dependent chain is 5 rows instead of 8, and
         * the pass is latency-bound (one pair per warp, ~1,000 flagged pairs per
         * HaplotypeCaller-sized unit) */
        if (pd.read_len <= G * DPA_PHMM_SHORT_R)
            sum = group_task<double, G, DPA_PHMM_SHORT_R, false, false>(
                a, pd, lane, 0, pd.hap_len + G - 1, 1, scratch, nullptr, &fold_ok);
        else
            sum = group_task<double, G, R, false, false>(a, pd, lane, 0, pd.hap_len + G - 1,
                                                         passes, scratch, nullptr, &fold_ok);
        if (lane == G - 1) a.res[pd.res] = log10(sum) - ptraits<double>::log10_initial;
    }
}

}  // namespace

/* The configurations, in the order of the kernel table below; the first DPA_PHMM_NUM_CFG
 * are the cost model's choices, the others their uniform-coefficient forms (u = 1). */
extern "C" const dpa_phmm_cfg dpa_phmm_cfgs[DPA_PHMM_NUM_KERN] = {
    { 1, 8, 0 }, { 1, 16, 0 }, { 4, 8, 0 }, { 4, 16, 0 }, { 8, 8, 0 },
    { 8, 16, 0 }, { 16, 8, 0 }, { 16, 16, 0 }, { 32, 8, 0 }, { 32, 16, 0 },
    { 8, 16, 1 }, { 16, 16, 1 }, { 32, 16, 1 }, { 16, 32, 1 }, { 32, 32, 1 },
};

extern "C" const void *dpa_phmm_kernel_f32(int32_t cfg)
{
    switch (cfg) {
    case 0: return (const void *)phmm_f32<1, 8, false>;
    case 1: return (const void *)phmm_f32<1, 16, false>;
    case 2: return (const void *)phmm_f32<4, 8, false>;
    case 3: return (const void *)phmm_f32<4, 16, false>;
    case 4: return (const void *)phmm_f32<8, 8, false>;
    case 5: return (const void *)phmm_f32<8, 16, false>;
    case 6: return (const void *)phmm_f32<16, 8, false>;
    case 7: return (const void *)phmm_f32<16, 16, false>;
    case 8: return (const void *)phmm_f32<32, 8, false>;
    case 9: return (const void *)phmm_f32<32, 16, false>;
    case 10: return (const void *)phmm_f32<8, 16, true>;
    case 11: return (const void *)phmm_f32<16, 16, true>;
    case 12: return (const void *)phmm_f32<32, 16, true>;
    case 13: return (const void *)phmm_f32<16, 32, true>;
    case 14: return (const void *)phmm_f32<32, 32, true>;
    default: return nullptr;
    }
}

extern "C" const void *dpa_phmm_kernel_f64(void) { return (const void *)phmm_f64; }

extern "C" size_t dpa_phmm_smem_f32(int32_t cfg)
{
    /* <8,16> also holds its short path's table (20 rows) */
    const size_t r = cfg == DPA_PHMM_CFG_8_16 ? DPA_PHMM_SHORT8_R : (size_t)dpa_phmm_cfgs[cfg].r;
    return (size_t)DPA_PHMM_TABLE_CODES * r * DPA_PHMM_BLOCK * sizeof(float);
}
