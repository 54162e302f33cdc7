/*
 * pairhmm_shared_kernel.cu — PairHMM with prefix sharing on the GPU: the columns that a
 * region's equal-length haplotypes share are computed once per read (why that is exact:
 * docs/pairhmm.md, "Prefix sharing"; the plan is built on the host, pairhmm_share.cu).
 *
 * A warp of four groups of G = 8 threads takes up to four reads of one region and walks
 * the region's haplotypes in the plan's order, every group on the same haplotype at the
 * same time (all loops warp-uniform, as in phmm_f32). A read's rows, coefficients and
 * prior table are set up once for all its haplotypes. A haplotype that resumes at column
 * c starts its wavefront at column c + 1 from the checkpoint an earlier haplotype saved
 * there: each thread's R rows of M, I, D at column c and its last row's running sum. A
 * haplotype saves a checkpoint as the wavefront passes the column (thread t right after
 * it computed that column). Every cell is the same operation on the same operands as in
 * the all-pairs kernels and the sum is taken in the same column order, so every result
 * has the all-pairs kernels' bits (test_cuda_pairhmm).
 *
 * The grid is persistent: a warp takes shared warp tasks wid, wid + (warps of the grid),
 * ... and keeps its checkpoint slots in global memory (DPA_PHMM_SHARED_SLOTS x (3 R + 1)
 * floats per lane, ~60 KB per warp, L2-resident), written and read by the same lane:
 * no synchronisation beyond the warp's own order.
 */
#include "pairhmm_device.cuh"

namespace {

constexpr int SG = DPA_PHMM_SHARED_G;

/* Floats of one checkpoint slot of a warp (per lane: R rows of M, I, D and the sum). */
template <int R> __host__ __device__ constexpr int64_t slot_floats() { return (3 * R + 1) * 32; }

/* Saves the thread's rows when it has just computed the next save column (columns
 * relative to the haplotype's resume column, ascending, one save per column). */
template <int R> struct ckpt_saver {
    float *ck;          /* the warp's slots, offset by the lane */
    const int32_t *sv;  /* (column, slot) of the next save */
    int left, col, resume;
    __device__ __forceinline__ void operator()(int j, const rows<float, R, false> &w, float sum)
    {
        if (left > 0 && j == col) {
            float *p = ck + (int64_t)sv[1] * slot_floats<R>();
#pragma unroll
            for (int r = 0; r < R; r++) {
                p[(3 * r) * 32] = w.M[r];
                p[(3 * r + 1) * 32] = w.I[r];
                p[(3 * r + 2) * 32] = w.D[r];
            }
            p[3 * R * 32] = sum;
            sv += 2;
            if (--left > 0) col = sv[0] - resume;
        }
    }
};

template <int R>
__global__ void __launch_bounds__(DPA_PHMM_BLOCK, 3) phmm_f32_shared(const dpa_phmm_kargs a)
{
    constexpr int G = SG;
    extern __shared__ float4 smem_tbl[];
    float4 *tbl = smem_tbl + threadIdx.x;
    const int wid0 = blockIdx.x * (DPA_PHMM_BLOCK / 32) + threadIdx.x / 32;
    const int nw = gridDim.x * (DPA_PHMM_BLOCK / 32);
    const int lane = threadIdx.x & 31, g = lane / G, t = lane % G;
    float *ck = a.ckpt + (int64_t)wid0 * a.ckpt_warp + lane;
    for (int wi = wid0; wi < a.num_swarps; wi += nw) { /* warp-uniform */
        const dpa_phmm_swdesc w = a.swarps[wi];
        const bool active = g < w.count;
        /* an unused group computes a copy of group 0's read and writes no result */
        const int32_t base = a.shared_first + w.pbase[active ? g : 0];
        const int32_t *plan = a.splan + w.plan;
        const dpa_phmm_pdesc pr = a.pairs[base];
        const int pad = G * R - pr.read_len, row0 = t * R;
        rows<float, R, false> rw;
        bool mm_zero = false;
        load_rows<float, R, false, true>(a, pr, row0, pad, 0.0f, rw, tbl, mm_zero);
        const unsigned votes = __ballot_sync(0xffffffffu, mm_zero);
        const bool fold_ok = (votes & (((1u << G) - 1u) << (g * G))) == 0;
        for (int p = 0; p < w.k; p++) {
            const int32_t *pp = plan + DPA_PHMM_PLAN_WORDS * p;
            const int h = pp[0], resume = pp[1], slot = pp[2], s0 = pp[3], s1 = pp[4];
            const int32_t pidx = base + h;
            const dpa_phmm_pdesc pd = a.pairs[pidx];
            const int n = pd.hap_len, n2 = n - resume;
            const float d0 = ptraits<float>::initial() / (float)n;
            float sum = 0;
            if (resume > 0) {
                const float *q = ck + (int64_t)slot * slot_floats<R>();
#pragma unroll
                for (int r = 0; r < R; r++) {
                    rw.M[r] = q[(3 * r) * 32];
                    rw.I[r] = q[(3 * r + 1) * 32];
                    rw.D[r] = q[(3 * r + 2) * 32];
                }
                sum = q[3 * R * 32];
            } else {
#pragma unroll
                for (int r = 0; r < R; r++) {
                    rw.M[r] = 0;
                    rw.I[r] = 0;
                    rw.D[r] = row0 + r - pad < 0 ? d0 : 0.0f; /* virtual rows copy row 0 */
                }
            }
            if (n2 > 0) { /* n2 = 0: an identical haplotype, its sum is the checkpoint's */
                const uint8_t *hap = a.hcode + pd.hap_off + resume;
                const float pD0 = row0 - 1 < pad ? d0 : 0.0f;
                if (s1 > s0) {
                    const int32_t *sv = plan + DPA_PHMM_PLAN_WORDS * w.k + 2 * s0;
                    ckpt_saver<R> save = { ck, sv, s1 - s0, sv[0] - resume, resume };
                    sweep<float, G, R, false, true, false, false>(hap, n2, n2, d0, t, g,
                                                                  n2 + G - 1, pD0, nullptr,
                                                                  tbl, rw, sum, save);
                } else {
                    sweep<float, G, R, false, true, false, false>(hap, n2, n2, d0, t, g,
                                                                  n2 + G - 1, pD0, nullptr,
                                                                  tbl, rw, sum);
                }
            }
            if (active && t == G - 1) put_f32(a, pidx, pd.res, sum, fold_ok);
            __syncwarp(); /* this haplotype's saves before a later one's loads */
        }
    }
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
