/*
 * papara_paper2012_kernel.cu — the CUDA kernel of the 2012 paper's score model
 * (native/src/cpu/papara/papara_paper2012.c): one thread per (profile, read), min-plus, int32.
 *
 * The shape of papara_kernels.cu (a stripe of ROWS read bases in registers per sweep, the
 * stripe's last row in bnd for the next one), with the band: row j meets sites [j, j + WB]
 * only, WB = sites - read length. A stripe sweeps the union of its rows' bands, and a row
 * outside its band at a site gives LARGE (PaPaRa's "outside the band"), so the cells inside
 * are those of the one-array band of the reference. Threads of a block share the read, so
 * the band tests are uniform across the block and do not diverge.
 * Values: real cells <= 6 x read length (< 2^24 for any validated read); LARGE = 2^29 keeps
 * every sum with it above them without overflow.
 */
#include "papara_cuda.h"

namespace {

constexpr int32_t LARGE = 1 << 29;
constexpr int32_t MISMATCH = 3, CG = 3, OPEN_EXT = 4, EXT = 1; /* papara.h's DPA_PAPER2012_* */

template <int ROWS>
__global__ void __launch_bounds__(DPA_PAPARA_CUDA_BLOCK)
paper2012_stripes(const uint8_t *__restrict__ prof_t, int64_t S, int32_t np,
                  const uint8_t *__restrict__ reads, const int64_t *__restrict__ offs,
                  const int32_t *__restrict__ lens, int32_t *__restrict__ bnd,
                  int32_t *__restrict__ out)
{
    const int32_t p = (int32_t)(blockIdx.x * blockDim.x + threadIdx.x);
    const int32_t r = (int32_t)blockIdx.y;
    if (p >= np) return; /* no block-wide synchronisation below */
    const int64_t T = (int64_t)gridDim.x * blockDim.x * gridDim.y; /* threads of the launch */
    const int64_t me = (int64_t)r * gridDim.x * blockDim.x + p;
    int32_t *bs = bnd + me;
    const uint8_t *read = reads + offs[r];
    const int32_t L = lens[r];
    const int64_t wb = S - L;
    int32_t best = LARGE;
    for (int32_t j0 = 0; j0 < L; j0 += ROWS) {
        const int32_t nr = L - j0 < ROWS ? L - j0 : ROWS;
        int32_t b[ROWS], left[ROWS], gap[ROWS];
#pragma unroll
        for (int k = 0; k < ROWS; k++) {
            b[k] = k < nr ? read[j0 + k] : 0;
            left[k] = LARGE; /* column j0 - 1 is left of every band of the stripe */
            gap[k] = LARGE;
        }
        /* S(j0 - 1, j0 - 1): row -1 is 0 there (site -1 < WB) */
        int32_t diag_top = j0 == 0 ? 0 : bs[(int64_t)(j0 - 1) * T];
        const int64_t hi = (int64_t)j0 + nr + wb; /* one past the last row's band */
        for (int64_t i = j0; i < hi; i++) {
            const int32_t site = prof_t[i * np + p];
            const int32_t a = site & 15;
            const bool g = (site & 16) != 0;
            /* S(j0 - 1, i): row -1 is 0 below WB; the row above ends its band at j0 - 1 + WB */
            const int32_t up = j0 == 0 ? (i < wb ? 0 : LARGE) : (i <= j0 - 1 + wb ? bs[i * T] : LARGE);
            int32_t d = diag_top, u = up;
            diag_top = up;
            const int32_t cg = g ? CG : 0, oe = g ? 0 : OPEN_EXT, e = g ? 0 : EXT;
#pragma unroll
            for (int k = 0; k < ROWS; k++) {
                if (k < nr) {
                    int32_t v = LARGE;
                    if (i >= j0 + k && i <= j0 + k + wb) {
                        gap[k] = min(left[k] + oe, gap[k] + e);
                        v = min(min(d + ((a & b[k]) ? 0 : MISMATCH) + cg, gap[k]), u + MISMATCH);
                        if (j0 + k == L - 1) best = min(best, v); /* the last read base's band */
                    } else {
                        gap[k] = LARGE;
                    }
                    d = left[k];
                    left[k] = v;
                    u = v;
                }
            }
            bs[i * T] = u;
        }
    }
    out[(int64_t)r * np + p] = best;
}

} // namespace

cudaError_t dpa_cuda_papara_paper2012_launch(cudaStream_t stream, const uint8_t *prof_t,
                                             int64_t num_sites, int32_t np, const uint8_t *reads,
                                             const int64_t *offs, const int32_t *lens, int32_t nr,
                                             int32_t *bnd, int32_t *out)
{
    const dim3 grid((unsigned)((np + DPA_PAPARA_CUDA_BLOCK - 1) / DPA_PAPARA_CUDA_BLOCK),
                    (unsigned)nr);
    paper2012_stripes<DPA_PAPARA_CUDA_ROWS><<<grid, DPA_PAPARA_CUDA_BLOCK, 0, stream>>>(
        prof_t, num_sites, np, reads, offs, lens, bnd, out);
    return cudaPeekAtLastError();
}
