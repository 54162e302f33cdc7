/*
 * papara_kernels.cu — the CUDA PaPaRa scoring kernel: one thread per (profile, read), the
 * recurrence of native/src/cpu/papara/papara_ref.c in int32.
 *
 * A thread sweeps its profile once per stripe of ROWS read bases, holding the stripe's S and
 * SL (left neighbours) in registers; the row above the stripe (S and SU per site) lives in
 * bnd, one int32 pair per site, written by the previous stripe: 8 bytes of global traffic per
 * ROWS cells. Threads of a block share the read (same y), so the stripe's row count is
 * uniform and the unrolled row loop does not diverge. Profiles are site-major (prof_t[site *
 * np + p]) and bnd is site-major over all threads, so every load and store is coalesced.
 * Values: |S| <= 1000 x (2^20 + 2) < 2^31 for validated input; -2^30 stands for -infinity
 * (a sum with it never wins a max against a real value).
 */
#include "papara_cuda.h"

namespace {

constexpr int32_t NEG = -(1 << 30);

template <int ROWS>
__global__ void __launch_bounds__(DPA_PAPARA_CUDA_BLOCK)
papara_stripes(const uint8_t *__restrict__ prof_t, int64_t S, int32_t np,
               const uint8_t *__restrict__ reads, const int64_t *__restrict__ offs,
               const int32_t *__restrict__ lens, int32_t open, int32_t ext, int32_t match,
               int32_t cgap, int32_t *__restrict__ bnd, int32_t *__restrict__ out)
{
    const int32_t p = (int32_t)(blockIdx.x * blockDim.x + threadIdx.x);
    const int32_t r = (int32_t)blockIdx.y;
    if (p >= np) return; /* no block-wide synchronisation below */
    const int64_t T = (int64_t)gridDim.x * blockDim.x * gridDim.y; /* threads of the launch */
    const int64_t me = (int64_t)r * gridDim.x * blockDim.x + p;
    int32_t *bs = bnd + me, *bu = bnd + S * T + me;
    const uint8_t *read = reads + offs[r];
    const int32_t L = lens[r];
    int32_t best = NEG;
    for (int32_t j0 = 0; j0 < L; j0 += ROWS) {
        const int32_t nr = L - j0 < ROWS ? L - j0 : ROWS;
        int32_t b[ROWS], left[ROWS], sl[ROWS];
#pragma unroll
        for (int k = 0; k < ROWS; k++) {
            b[k] = k < nr ? read[j0 + k] : 0;
            left[k] = 0; /* column -1 */
            sl[k] = NEG;
        }
        int32_t diag_top = 0; /* S(j0 - 1, -1) */
        for (int64_t i = 0; i < S; i++) {
            const int32_t site = prof_t[i * np + p];
            const int32_t a = site & 15;
            const bool g = (site & 16) != 0;
            const int32_t up_s = j0 == 0 ? 0 : bs[i * T];
            const int32_t up_su = j0 == 0 ? NEG : bu[i * T];
            int32_t d = diag_top, u_s = up_s, u_su = up_su;
            diag_top = up_s;
            const int32_t inc = g ? cgap : 0, lo = g ? 0 : open, le = g ? 0 : ext;
#pragma unroll
            for (int k = 0; k < ROWS; k++) {
                if (k < nr) {
                    const int32_t sm = d + ((a & b[k]) ? match : 0) + inc;
                    sl[k] = max(left[k] + lo, sl[k] + le);
                    const int32_t su = max(u_s + open, u_su + ext);
                    const int32_t v = max(sm, max(sl[k], su));
                    d = left[k];
                    left[k] = v;
                    u_s = v;
                    u_su = su;
                    if (j0 + k == L - 1) best = max(best, v); /* the last read base */
                }
            }
            bs[i * T] = u_s;
            bu[i * T] = u_su;
        }
#pragma unroll
        for (int k = 0; k < ROWS; k++)
            if (k < nr) best = max(best, left[k]); /* the last site */
    }
    out[(int64_t)r * np + p] = best;
}

} // namespace

cudaError_t dpa_cuda_papara_launch(cudaStream_t stream, const uint8_t *prof_t, int64_t num_sites,
                                   int32_t np, const uint8_t *reads, const int64_t *offs,
                                   const int32_t *lens, int32_t nr, const dpa_papara_params *p,
                                   int32_t *bnd, int32_t *out)
{
    const dim3 grid((unsigned)((np + DPA_PAPARA_CUDA_BLOCK - 1) / DPA_PAPARA_CUDA_BLOCK),
                    (unsigned)nr);
    papara_stripes<DPA_PAPARA_CUDA_ROWS><<<grid, DPA_PAPARA_CUDA_BLOCK, 0, stream>>>(
        prof_t, num_sites, np, reads, offs, lens, p->gap_open, p->gap_extend, p->match,
        p->match_cgap, bnd, out);
    return cudaPeekAtLastError();
}
