/*
 * pairhmm_shared_kernel.cu — PairHMM with prefix sharing on the GPU: the columns that a
 * region's equal-length haplotypes share are computed once per read (why that is exact:
 * docs/pairhmm.md, "Prefix sharing"; the plan, on the host: pairhmm_share.h).
 *
 * Each pair is a task of its own, as in phmm_f32 (a group of G = 8 threads, four pairs a
 * warp, the same wavefront): the GPU keeps the all-pairs kernels' parallelism. A pair that
 * resumes at column c starts its wavefront at column c + 1 from a checkpoint of column c
 * that another pair of the same read saves as its wavefront passes that column: each
 * thread's R rows of M, I, D and its last row's running sum, in one global-memory entry
 * per (read, checkpoint). Thread t of the consumer reads only what thread t of the
 * producer wrote, once that thread's ready flag is set, so a consumer starts while its
 * producer is still running and the call takes about as long as its longest pair, not
 * the sum of a chain of them.
 *
 * Forward progress: a pair only waits on pairs of a lower level of the region's
 * checkpoint tree, whose warps come earlier in the same launch (the launcher orders them
 * so) and are therefore dispatched first; a producer never waits on its consumers. This
 * is the ordering that single-pass GPU scans with decoupled look-back rely on.
 *
 * Every cell is the same operation on the same operands as in the all-pairs kernels and
 * the sum is taken in the same column order, so every result has the all-pairs kernels'
 * bits (test_cuda_pairhmm).
 */
#include "pairhmm_device.cuh"

namespace {

constexpr int SG = DPA_PHMM_SHARED_G;

/* Minimum resident blocks per SM (register cap 65536 / (128 * this)). 3 (168 registers,
 * ~1 KB of spills per thread at R = 20) ran the kernel 2.3x slower than 2 on an H200
 * (10s.in, every pair from column 0: 0.28-0.30 against 0.12-0.14 ms; docs/BENCHMARKS.md). */
#ifndef DPA_PHMM_SHARED_MINB
#define DPA_PHMM_SHARED_MINB 2
#endif

/* Float k of thread t in an entry (k < 3 R + 1: row r's M, I, D at 3 r .. 3 r + 2, the sum
 * at 3 R): consecutive threads, consecutive floats. */
__device__ __forceinline__ int64_t entry_at(int64_t e, int k, int t)
{
    return e * DPA_PHMM_ENTRY_FLOATS + (int64_t)k * SG + t;
}

/* Saves the thread's rows when it has just computed the next save column (columns relative
 * to the pair's resume column). */
template <int R> struct ckpt_saver {
    float *ck;          /* the checkpoint entries */
    int32_t *ready;     /* their flags */
    const int32_t *sv;  /* (column, entry relative to ebase) of the next save */
    int left, col, resume, ebase, t;
    __device__ __forceinline__ void operator()(int j, const rows<float, R, false> &w, float sum)
    {
        if (left > 0 && j == col) {
            const int64_t e = ebase + sv[1];
#pragma unroll
            for (int r = 0; r < R; r++) {
                ck[entry_at(e, 3 * r, t)] = w.M[r];
                ck[entry_at(e, 3 * r + 1, t)] = w.I[r];
                ck[entry_at(e, 3 * r + 2, t)] = w.D[r];
            }
            ck[entry_at(e, 3 * R, t)] = sum;
            __threadfence(); /* the entry before its flag, for readers on other SMs */
            atomicExch(ready + e * SG + t, 1);
            sv += 2;
            if (--left > 0) col = sv[0] - resume;
        }
    }
};

template <int R>
__global__ void __launch_bounds__(DPA_PHMM_BLOCK, DPA_PHMM_SHARED_MINB) phmm_f32_shared(const dpa_phmm_kargs a)
{
    constexpr int G = SG;
    extern __shared__ float4 smem_tbl[];
    float4 *tbl = smem_tbl + threadIdx.x;
    const int wid = blockIdx.x * (DPA_PHMM_BLOCK / 32) + threadIdx.x / 32;
    if (wid >= a.num_warps) return; /* whole warps only */
    const dpa_phmm_wdesc w = a.warps[wid];
    const int lane = threadIdx.x & 31, g = lane / G, t = lane % G;
    const bool active = g < w.count;
    /* an unused group computes a copy of group 0's pair and saves nothing */
    const int32_t pidx = w.first + (active ? g : 0);
    const dpa_phmm_pdesc pd = a.pairs[pidx];
    const dpa_phmm_sdesc sd = a.sdesc[pidx - a.shared_first];
    const int n = pd.hap_len, n2 = n - sd.resume;
    const float d0 = ptraits<float>::initial() / (float)n;
    const int pad = G * R - pd.read_len, row0 = t * R;
    rows<float, R, false> rw;
    bool mm_zero = false;
    load_rows<float, R, false, true>(a, pd, row0, pad, d0, rw, tbl, mm_zero);
    float sum = 0;
    if (sd.load >= 0) {
        const int64_t e = sd.ebase + sd.load;
        const volatile int32_t *flag = a.ready + e * SG + t;
        while (*flag == 0) __nanosleep(32);
        __threadfence();
        /* from L2 (__ldcg): the producer may have run on another SM */
#pragma unroll
        for (int r = 0; r < R; r++) {
            rw.M[r] = __ldcg(a.ckpt + entry_at(e, 3 * r, t));
            rw.I[r] = __ldcg(a.ckpt + entry_at(e, 3 * r + 1, t));
            rw.D[r] = __ldcg(a.ckpt + entry_at(e, 3 * r + 2, t));
        }
        sum = __ldcg(a.ckpt + entry_at(e, 3 * R, t));
    }
    __syncwarp();
    int nmin = n2; /* the shortest new part among the warp's groups */
#pragma unroll
    for (int o = 16; o >= G; o /= 2) nmin = min(nmin, __shfl_xor_sync(0xffffffffu, nmin, o));
    const uint8_t *hap = a.hcode + pd.hap_off + sd.resume;
    const float pD0 = row0 - 1 < pad ? d0 : 0.0f;
    const int saves = active ? sd.save1 - sd.save0 : 0;
    if (__any_sync(0xffffffffu, saves > 0)) { /* warp-uniform */
        const int32_t *sv = a.ssaves + 2 * (int64_t)sd.save0;
        ckpt_saver<R> save = { a.ckpt, a.ready, sv, saves, saves > 0 ? sv[0] - sd.resume : 0,
                               sd.resume, sd.ebase, t };
        sweep<float, G, R, false, true, false, false>(hap, n2, nmin, d0, t, g, w.steps, pD0,
                                                      nullptr, tbl, rw, sum, save);
    } else {
        sweep<float, G, R, false, true, false, false>(hap, n2, nmin, d0, t, g, w.steps, pD0,
                                                      nullptr, tbl, rw, sum);
    }
    const unsigned votes = __ballot_sync(0xffffffffu, mm_zero);
    const bool fold_ok = (votes & (((1u << G) - 1u) << (g * G))) == 0;
    if (active && t == G - 1) put_f32(a, pidx, pd.res, sum, fold_ok);
}

}  // namespace

extern "C" const void *dpa_phmm_kernel_shared(int32_t cls)
{
    return cls == 0 ? (const void *)phmm_f32_shared<16>
                    : (const void *)phmm_f32_shared<DPA_PHMM_SHORT8_R>;
}

extern "C" int32_t dpa_phmm_shared_rows(int32_t cls)
{
    return cls == 0 ? 16 : DPA_PHMM_SHORT8_R;
}

extern "C" size_t dpa_phmm_smem_shared(int32_t cls)
{
    return (size_t)DPA_PHMM_TABLE_CODES * (size_t)dpa_phmm_shared_rows(cls) * DPA_PHMM_BLOCK *
           sizeof(float);
}
