/*
 * papara_pairs_kernel.cu — the CUDA PaPaRa scoring kernel for reads inside the 16-bit bound
 * (dpa_cuda_papara_fits16): two profiles per thread, one in each 16-bit half of every
 * register, so one DPX instruction (__viaddmax_s16x2: per half max(a + b, c)) advances both.
 * The recurrence is papara_ref.c's; the stripes are papara_kernels.cu's (ROWS read bases in
 * registers per sweep of the profile, the row above a stripe in bnd), with the partial stripe
 * first, so the last stripe is whole and its last register row is the read's last base.
 * Unlike that kernel the unit of work is a warp (32 profile pairs, one read: the warp is
 * what must agree on the read), and the grid is one resident wave of warps that loops over
 * the launch's reads, so bnd is per resident thread, not per read: a launch takes every read
 * of a call and keeps the GPU full to its end (a grid row per read ran 0.86 waves per
 * launch), and a rectangle of one profile block (32 profiles) fills half of each warp
 * rather than an eighth of a 128-thread block.
 *
 * Site words (dpa_papara_pair_word, built on the host by papara_launch.cu), one per (site,
 * profile pair), site-major:
 *   x, y  the score a read base adds on the diagonal, one signed byte per (base, profile):
 *         x = {A0, A1, C0, C1}, y = {G0, G1, T0, T1} (the base = bit 0..3 of a read mask), the
 *         byte = match if the profile's state has that base, plus match_cgap on a flagged site;
 *   z     0xffff in each half whose site is not flagged (gap costs apply), else 0;
 *   w     the two state masks, for stripes holding an ambiguity code.
 * A base of one state picks both bytes and sign-extends them with one PRMT; a stripe with a
 * read mask of several bits (N, IUPAC) takes the masks path instead. Threads of a block share
 * the read, so that choice never diverges.
 *
 * Exactness: every real value lies in [-m (L + 2), m L] with m <= 1000 and m (L + 2) <= 30000
 * (the bound of papara_ref.c, checked by dpa_cuda_papara_fits16); NEG16 = -31000 is below
 * all of them and NEG16 plus any one cost (>= -1000) stays above -32768, so no half ever
 * wraps, and a sum with NEG16 is always maxed against a real value before it is used.
 */
#include "papara_cuda.h"

namespace {

constexpr uint32_t NEG2 = 0x86E886E8u; /* (int16)-31000 in both halves */
constexpr uint32_t ONE2 = 0x00010001u;

__device__ __forceinline__ uint32_t prmt(uint32_t lo, uint32_t hi, uint32_t sel)
{
    uint32_t r;
    asm("prmt.b32 %0, %1, %2, %3;" : "=r"(r) : "r"(lo), "r"(hi), "r"(sel));
    return r;
}

/* The PRMT selector of a one-state read mask (bit c): bytes 2c and 2c + 1 of {x, y}, each
 * copied to a half's low byte and its sign replicated into the high byte. */
__device__ __forceinline__ uint32_t selector(uint32_t mask)
{
    const uint32_t c = (uint32_t)(__ffs((int)mask) - 1), i0 = 2 * c, i1 = 2 * c + 1;
    return i0 | (i0 | 8u) << 4 | i1 << 8 | (i1 | 8u) << 12;
}

struct costs2 {
    uint32_t open, ext, match, cgap; /* each in both halves */
};

/* One sweep of the profile pair with rows [0, nr) of rd in registers; FIRST: the row above
 * is row -1 (S 0, SU -inf), else it is read from bnd; LAST: the stripe holds the read's last
 * base, so its row's maximum over sites enters best (and nothing is written to bnd). */
template <int ROWS, bool PARTIAL, bool AMBIG>
__device__ __forceinline__ void sweep(const dpa_papara_pair_word *__restrict__ prof, int64_t S,
                                      int32_t npair, int32_t t, const uint8_t *rd, int nr,
                                      bool first, bool last, uint32_t *bs, uint32_t *bu, int64_t T,
                                      const costs2 &q, uint32_t &best)
{
    uint32_t code[ROWS], left[ROWS], sl[ROWS];
#pragma unroll
    for (int k = 0; k < ROWS; k++) {
        const uint32_t b = (!PARTIAL || k < nr) ? rd[k] : 1u;
        code[k] = AMBIG ? b * ONE2 : selector(b);
        left[k] = 0; /* column -1 */
        sl[k] = NEG2;
    }
    uint32_t diag_top = 0; /* S(row above, -1) */
    /* two sites per iteration let the compiler rename instead of moving d, left and u_s
     * (7.5 instead of ~9 instructions per step for both profiles, SASS on sm_90) */
#pragma unroll 2
    for (int64_t i = 0; i < S; i++) {
        const dpa_papara_pair_word w = prof[i * npair + t];
        const uint32_t lo = w.z & q.open, le = w.z & q.ext;
        const uint32_t inc = AMBIG ? ~w.z & q.cgap : 0;
        uint32_t u_s = first ? 0u : bs[i * T], u_su = first ? NEG2 : bu[i * T];
        uint32_t d = diag_top;
        diag_top = u_s;
#pragma unroll
        for (int k = 0; k < ROWS; k++) {
            if (!PARTIAL || k < nr) {
                uint32_t bonus;
                if (AMBIG)
                    bonus = __viaddmax_s16x2(__vcmpne2(w.w & code[k], 0) & q.match, inc, NEG2);
                else
                    bonus = prmt(w.x, w.y, code[k]);
                const uint32_t l = __viaddmax_s16x2(left[k], lo, __viaddmax_s16x2(sl[k], le, NEG2));
                const uint32_t su = __viaddmax_s16x2(u_s, q.open, __viaddmax_s16x2(u_su, q.ext, NEG2));
                const uint32_t v = __viaddmax_s16x2(d, bonus, __vmaxs2(l, su));
                sl[k] = l;
                d = left[k];
                left[k] = v;
                u_s = v;
                u_su = su;
            }
        }
        if (last) {
            best = __vmaxs2(best, u_s); /* u_s is the stripe's last row: the read's last base */
        } else {
            bs[i * T] = u_s;
            bu[i * T] = u_su;
        }
    }
#pragma unroll
    for (int k = 0; k < ROWS; k++)
        if (!PARTIAL || k < nr) best = __vmaxs2(best, left[k]); /* the last site */
}

template <int ROWS, bool PARTIAL>
__device__ __forceinline__ void sweep_any(const dpa_papara_pair_word *prof, int64_t S, int32_t npair,
                                          int32_t t, const uint8_t *rd, int nr, bool first,
                                          bool last, uint32_t *bs, uint32_t *bu, int64_t T,
                                          const costs2 &q, uint32_t &best)
{
    bool ambig = false;
    for (int k = 0; k < nr; k++) ambig |= (rd[k] & (rd[k] - 1)) != 0;
    if (ambig)
        sweep<ROWS, PARTIAL, true>(prof, S, npair, t, rd, nr, first, last, bs, bu, T, q, best);
    else
        sweep<ROWS, PARTIAL, false>(prof, S, npair, t, rd, nr, first, last, bs, bu, T, q, best);
}

template <int ROWS>
__global__ void __launch_bounds__(DPA_PAPARA_CUDA_BLOCK)
papara_pairs(const dpa_papara_pair_word *__restrict__ prof, int64_t S, int32_t np,
             const uint8_t *__restrict__ reads, const int64_t *__restrict__ offs,
             const int32_t *__restrict__ lens, int32_t nreads, int32_t warps, costs2 q,
             uint32_t *__restrict__ bnd, int32_t *__restrict__ next, int32_t *__restrict__ out)
{
    const int32_t npair = (np + 1) / 2, columns = (npair + 31) / 32;
    const int32_t lane = (int32_t)(threadIdx.x & 31);
    const int64_t me = (int64_t)blockIdx.x * blockDim.x + threadIdx.x;
    const int32_t warp = (int32_t)(me >> 5);
    if (warp >= warps) return; /* whole warps; nothing below synchronises the block */
    const int32_t column = warp % columns, t = column * 32 + lane;
    const bool on = t < npair;
    const int32_t tc = on ? t : npair - 1; /* a lane past the last pair repeats it, unkept */
    const int64_t T = (int64_t)gridDim.x * blockDim.x;
    uint32_t *bs = bnd + me, *bu = bnd + S * T + me;
    for (;;) {
        /* the warps of one column (the same 32 profile pairs) share a read counter: the
         * grid is one wave, so a warp that finishes early takes the next read */
        int32_t r = 0;
        if (lane == 0) r = atomicAdd(next + column, 1);
        r = __shfl_sync(0xffffffffu, r, 0);
        if (r >= nreads) return;
        const uint8_t *read = reads + offs[r];
        const int32_t L = lens[r];
        const int32_t nr0 = L - ROWS * ((L - 1) / ROWS); /* rows of the first stripe, 1..ROWS */
        uint32_t best = NEG2;
        if (nr0 < ROWS)
            sweep_any<ROWS, true>(prof, S, npair, tc, read, nr0, true, nr0 == L, bs, bu, T, q, best);
        else
            sweep_any<ROWS, false>(prof, S, npair, tc, read, ROWS, true, nr0 == L, bs, bu, T, q, best);
        for (int32_t j0 = nr0; j0 < L; j0 += ROWS)
            sweep_any<ROWS, false>(prof, S, npair, tc, read + j0, ROWS, false, j0 + ROWS == L, bs,
                                   bu, T, q, best);
        if (on) {
            out[(int64_t)r * np + 2 * t] = (int16_t)(best & 0xffffu);
            if (2 * t + 1 < np) out[(int64_t)r * np + 2 * t + 1] = (int16_t)(best >> 16);
        }
    }
}

uint32_t both(int32_t v) { return (uint32_t)(uint16_t)(int16_t)v * ONE2; }

} // namespace

int32_t dpa_cuda_papara_pairs_blocks_per_sm(void)
{
    int nb = 0;
    if (cudaOccupancyMaxActiveBlocksPerMultiprocessor(&nb, papara_pairs<DPA_PAPARA_CUDA_PAIR_ROWS>,
                                                      DPA_PAPARA_CUDA_BLOCK, 0) != cudaSuccess) {
        (void)cudaGetLastError();
        nb = 1;
    }
    return nb < 1 ? 1 : nb;
}

cudaError_t dpa_cuda_papara_pairs_launch(cudaStream_t stream, const dpa_papara_pair_word *prof,
                                         int64_t num_sites, int32_t np, const uint8_t *reads,
                                         const int64_t *offs, const int32_t *lens, int32_t nr,
                                         int32_t warps, const dpa_papara_params *p,
                                         uint32_t *bnd, int32_t *next, int32_t *out)
{
    const int32_t columns = ((np + 1) / 2 + 31) / 32;
    const unsigned blocks = (unsigned)((warps * 32 + DPA_PAPARA_CUDA_BLOCK - 1) / DPA_PAPARA_CUDA_BLOCK);
    const costs2 q = { both(p->gap_open), both(p->gap_extend), both(p->match), both(p->match_cgap) };
    cudaError_t e = cudaMemsetAsync(next, 0, sizeof *next * (size_t)columns, stream);
    if (e != cudaSuccess) return e;
    papara_pairs<DPA_PAPARA_CUDA_PAIR_ROWS><<<blocks, DPA_PAPARA_CUDA_BLOCK, 0, stream>>>(
        prof, num_sites, np, reads, offs, lens, nr, warps, q, bnd, next, out);
    return cudaPeekAtLastError();
}
