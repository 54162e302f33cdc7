/*
 * hmm_filter_kernels.cu — hmmsearch 3.4's filter DP on the GPU, one warp per (model,
 * sequence), the integers of the scalar reference (native/src/cpu/hmm/hmm_filter_ref.c)
 * exactly: SSV's xE, the full MSV's xJ, the Viterbi filter's xC, with HMMER's 8- and 16-bit
 * saturation and overflow rules. Scores, the bias filter and the decisions stay on the host.
 *
 * SSV and MSV: cell (i, k) needs only (i-1, k-1), the same diagonal. The warp's row is a ring
 * of M + 1 byte slots indexed by the diagonal, slot (k - i) mod (M + 1): a cell reads and
 * writes its own slot, so a row needs no shuffles, and no two cells of a row share a slot
 * (M < M + 1). Lane z takes nodes k = 32 j + z + 1. The cell (i, 1) starts a diagonal (its
 * slot still holds (i-2, M)), so it reads 0 as the reference's prev[0]. One __syncwarp a row
 * orders the slot a lane wrote for the lane that reads it next row.
 *
 * Viterbi filter: M(i, k) reads row i-1 at k-1, I(i, k) at k, so the row is kept per node
 * (M, I, D words at k - 1 of the warp's row) and the k-1 neighbours come from __shfl_up,
 * lane 0 taking the previous block's lane 31 (carried in registers, since the block below
 * was already overwritten in place). The D->D chain inside a row is sequential in the
 * reference (its lazy-F pass: when Dmax + ddbound > xB, D(k) = max(D(k), D(k-1) + DD(k-1))
 * for k = 2..M with int16 saturating adds); here it is a max-plus prefix scan across the
 * lanes, carried across blocks:
 *
 *   each node is the map f_k(x) = max(a_k, sat(x + t_k)), a_k = D(k) before the pass,
 *   t_k = DD(k-1). DD <= 0 (a log probability; the host refuses a model otherwise), so
 *   x + t_k can only leave int16 downwards, and sat(y) = max(-32768, y). As a_k >= -32768,
 *   f_k(x) = max(a_k, max(-32768, x + t_k)) = max(a_k, x + t_k) in plain integers: the floor
 *   is absorbed by a_k. Maps of that form compose without saturation,
 *   f_2(f_1(x)) = max(a_2, a_1 + t_2, x + t_1 + t_2) = (max(a_2, a_1 + t_2), t_1 + t_2),
 *   so an inclusive scan of (a, t) pairs in int32 followed by max(a, carry + t) gives the
 *   serial result bit for bit. t is kept >= -65536: below that, x + t < -32768 <= a for any
 *   int16 x, so the clamp changes no result and int32 never overflows.
 *
 * Row storage: shared memory when the row fits the warp's share (DPA_HF_SMEM_PER_WARP),
 * else the warp's slot of global scratch; both through one generic pointer. Every load and
 * store is guarded by k <= M, so ragged lengths touch nothing outside a task's tables,
 * sequence and row.
 */
#include <stdint.h>
#include <stdlib.h>

#include <cuda_runtime.h>

#include "hmm_filter_cuda.h"

#define HF_FULL 0xffffffffu

/* Warp maximum. __reduce_max_sync exists from sm_80 only, and the default build also carries
 * compute_75 PTX (Turing JITs it), so older targets take the five-step butterfly. */
static __device__ __forceinline__ int hf_warp_max(int v)
{
#if __CUDA_ARCH__ >= 800
    return __reduce_max_sync(HF_FULL, v);
#else
    for (int o = 16; o > 0; o >>= 1) v = max(v, __shfl_xor_sync(HF_FULL, v, o));
    return v;
#endif
}
#define HF_NEG (-32768)
/* The template counts 1..16 the register kernels are built for, one C(n) each: the
 * dispatchers below turn a run-time count into a template argument with it. */
#define HF_FOR_1_TO_16(C) \
    C(1) C(2) C(3) C(4) C(5) C(6) C(7) C(8) C(9) C(10) C(11) C(12) C(13) C(14) C(15) C(16)

/* The larger of a word's two int16 halves. */
__device__ __forceinline__ static int hf_hmax16(uint32_t w)
{
    return max((int)(int16_t)(w & 0xffffu), (int)(int16_t)(w >> 16));
}

__device__ __forceinline__ int hf_adds16(int a, int b)
{
    return min(32767, max(-32768, a + b));
}

/* Residue i (0-based) of the sequence, fetched 32 at a time by one coalesced load, and
 * digitised there through the launch's code map when the host sent residue bytes. */
struct hf_residues {
    const uint8_t *s;
    int L, lane, base, cached;
    const uint8_t *map;
    __device__ int at(int i)
    {
        if ((i & 31) == 0) {
            base = i;
            cached = i + lane < L ? s[i + lane] : 0;
            if (map) cached = __ldg(map + cached);
        }
        return __shfl_sync(HF_FULL, cached, i - base);
    }
};

__device__ static int hf_ssv(const dpa_hf_model &md, const uint8_t *tables, const uint8_t *dsq, const uint8_t *code_of,
                             int L, uint8_t *row, int lane)
{
    const int M = md.M, S = M + 1, bias = md.bias_b;
    const uint8_t *rb = tables + md.rb;
    for (int p = lane; p < S; p += 32) row[p] = 0;
    __syncwarp();
    hf_residues res = { dsq, L, lane, 0, 0, code_of };
    int maxT = 0;
    int off = 0; /* (-i) mod S for the row i being computed */
    for (int i = 1; i <= L; i++) {
        off = off == 0 ? S - 1 : off - 1;
        const uint8_t *rs = rb + (size_t)res.at(i - 1) * S;
        for (int k = lane + 1; k <= M; k += 32) {
            int slot = k + off;
            if (slot >= S) slot -= S;
            const int prev = k == 1 ? 0 : row[slot];
            int v = prev + bias - (int)rs[k];
            v = max(v, 0);
            maxT = max(maxT, v);
            row[slot] = (uint8_t)min(v, 127);
        }
        __syncwarp();
        /* past 127 the answer is fixed (overflow): the reference's value does not change */
        if (__any_sync(HF_FULL, maxT >= 127)) break;
    }
    maxT = hf_warp_max(maxT);
    return maxT >= 127 ? 255 : 128 + maxT;
}

/* SSV with the row in registers, for M <= 32 J (J <= 16). Lane z holds node k = 32 j + z + 1
 * in v[j]. Cell (i, k) needs (i-1, k-1): lane z-1 of the same block, or lane 31 of block j-1
 * for lane 0. One rotating shuffle per block carries both: lane 31 offers its block j-1 value
 * (still the old row because blocks run from J-1 down to 0), every other lane its block j
 * value, and lane z reads lane (z + 31) mod 32. Block 0's lane 0 starts a diagonal and takes 0.
 * Per cell that is one shuffle and one profile byte load, against a shared load, a shared
 * store and the profile load (plus a __syncwarp a row) in hf_ssv: the measured bound there
 * was the load/store pipe (ncu, docs/lab/2026-11-28-hmm-gpu2.md). Values are not capped at
 * 127: a cell >= 127 means overflow anyway (the result is 255 whatever follows), and below
 * 127 the capped and uncapped recurrences agree. Lanes with k > M keep 0 and feed no node. */
template <int J>
__device__ static int hf_ssv_reg(const dpa_hf_model &md, const uint8_t *tables,
                                 const uint8_t *dsq, const uint8_t *code_of, int L, int lane)
{
    const int M = md.M, S = M + 1, bias = md.bias_b;
    const uint8_t *rb = tables + md.rb;
    int v[J];
#pragma unroll
    for (int j = 0; j < J; j++) v[j] = 0;
    hf_residues res = { dsq, L, lane, 0, 0, code_of };
    int maxT = 0;
    const int src = (lane + 31) & 31;
    for (int i = 1; i <= L; i++) {
        const uint8_t *rs = rb + (size_t)res.at(i - 1) * S;
#pragma unroll
        for (int j = J - 1; j >= 0; j--) {
            const int offer = lane == 31 ? (j > 0 ? v[j > 0 ? j - 1 : 0] : 0) : v[j];
            int prev = __shfl_sync(HF_FULL, offer, src);
            if (j == 0 && lane == 0) prev = 0;
            const int k = 32 * j + lane + 1;
            if (k <= M) {
                const int x = max(prev + bias - (int)rs[k], 0);
                maxT = max(maxT, x);
                v[j] = x;
            }
        }
        /* past 127 the answer is fixed (overflow); checked every 8 rows to spare the vote */
        if ((i & 7) == 0 && __any_sync(HF_FULL, maxT >= 127)) break;
    }
    maxT = hf_warp_max(maxT);
    return maxT >= 127 ? 255 : 128 + maxT;
}

/* The register SSV for the smallest J that holds M; 0 when M needs more than 16 blocks. */
__device__ static int hf_ssv_reg_any(const dpa_hf_model &md, const uint8_t *tables,
                                     const uint8_t *dsq, const uint8_t *code_of, int L, int lane, bool *done)
{
    const int J = (md.M + 31) / 32;
    *done = true;
    switch (J) {
#define HF_SSV_CASE(n) \
    case n: return hf_ssv_reg<n>(md, tables, dsq, code_of, L, lane);
        HF_FOR_1_TO_16(HF_SSV_CASE)
#undef HF_SSV_CASE
    default: *done = false; return 0;
    }
}

/* SSV in int16 pairs (DECISIONS 133). The row is Q = ceil(M / 64) words a lane, each two
 * int16 halves, striped: node x = k - 1 sits at position p = x / Q (lane p / 2, half p % 2) of
 * word j = x % Q. Its predecessor x - 1 is then the same position of word j - 1 (same lane,
 * same half: no shuffle), except for word 0, whose predecessor is position p - 1 of word Q - 1:
 * the whole warp's word Q - 1 moved up one half, which is one shuffle and one byte permute a
 * row, taken before word Q - 1 is overwritten. Words run from Q - 1 down so word j - 1 is
 * still the old row. A cell is one __viaddmax_s16x2 (Hopper's DPX: max(a + b, 0) on both
 * halves in one instruction) with the packed score bias - rb, read as one coalesced word; the
 * running maximum takes two words per __vimax3_s16x2. Position 0 of word 0 (node 1) starts a
 * diagonal and reads 0: lane 0 gets 0 from the shuffle. Padding nodes (x >= M) score -16384,
 * so they stay 0. The halves do not saturate: as in hf_ssv_reg cells are uncapped and the
 * overflow vote runs every 8 rows, so a cell stays below 127 + 8 x 255 (int16 never wraps). */
template <int Q>
__device__ static int hf_ssv_dpx(const dpa_hf_model &md, const uint8_t *tables,
                                 const uint8_t *dsq, const uint8_t *code_of, int L, int lane)
{
    const uint32_t *prof = (const uint32_t *)(tables + md.s16) + lane;
    uint32_t v[Q];
#pragma unroll
    for (int j = 0; j < Q; j++) v[j] = 0;
    uint32_t mx = 0;
    hf_residues res = { dsq, L, lane, 0, 0, code_of };
    for (int i = 1; i <= L; i++) {
        const uint32_t *sc = prof + (size_t)res.at(i - 1) * (Q * 32);
        uint32_t up = __shfl_up_sync(HF_FULL, v[Q - 1], 1);
        if (lane == 0) up = 0;
        const uint32_t first = __byte_perm(up, v[Q - 1], 0x5432);
#pragma unroll
        for (int j = Q - 1; j >= 1; j--) v[j] = __viaddmax_s16x2(v[j - 1], __ldg(sc + j * 32), 0u);
        v[0] = __viaddmax_s16x2(first, __ldg(sc), 0u);
#pragma unroll
        for (int j = 0; j < Q; j += 2) mx = __vimax3_s16x2(mx, v[j], v[j + 1 < Q ? j + 1 : j]);
        if ((i & 7) == 0) {
            if (__any_sync(HF_FULL, hf_hmax16(mx) >= 127)) break;
        }
    }
    const int maxT = hf_warp_max(hf_hmax16(mx));
    return maxT >= 127 ? 255 : 128 + maxT;
}

/* The packed SSV for the model's word count; *done false when the launch packed none. */
__device__ static int hf_ssv_dpx_any(const dpa_hf_model &md, const uint8_t *tables,
                                     const uint8_t *dsq, const uint8_t *code_of, int L, int lane, bool *done)
{
    *done = true;
    switch (md.q16) {
#define HF_DPX_CASE(n) \
    case n: return hf_ssv_dpx<n>(md, tables, dsq, code_of, L, lane);
        HF_FOR_1_TO_16(HF_DPX_CASE)
#undef HF_DPX_CASE
    default: *done = false; return 0;
    }
}

__device__ static int hf_msv(const dpa_hf_model &md, const uint8_t *tables, const uint8_t *dsq, const uint8_t *code_of,
                             int L, int tjb, uint8_t *row, int lane)
{
    const int M = md.M, S = M + 1, bias = md.bias_b, base = md.base_b, tec = md.tec_b;
    const int tjbm = (tjb + md.tbm_b) & 0xff; /* (uint8_t)(tjb_b + tbm_b) */
    const uint8_t *rb = tables + md.rb;
    for (int p = lane; p < S; p += 32) row[p] = 0;
    __syncwarp();
    hf_residues res = { dsq, L, lane, 0, 0, code_of };
    int xJ = 0, xB = max(base - tjbm, 0);
    int off = 0;
    for (int i = 1; i <= L; i++) {
        off = off == 0 ? S - 1 : off - 1;
        const uint8_t *rs = rb + (size_t)res.at(i - 1) * S;
        int xE = 0;
        for (int k = lane + 1; k <= M; k += 32) {
            int slot = k + off;
            if (slot >= S) slot -= S;
            const int prev = k == 1 ? 0 : row[slot];
            const int m = max(prev, xB);
            const int sv = max(min(m + bias, 255) - (int)rs[k], 0);
            xE = max(xE, sv);
            row[slot] = (uint8_t)sv;
        }
        __syncwarp();
        xE = hf_warp_max(xE);
        if (xE + bias >= 255) return -1;
        xE = max(xE - tec, 0);
        xJ = max(xJ, xE);
        xB = max(max(xJ, base) - tjbm, 0);
    }
    return xJ;
}

/* The carries of a Viterbi-filter row between 32-node blocks: the previous block's lane 31
 * (M, I, D of row i-1 before its update, and its D(i, k+1) from M). */
struct hf_vit_carry {
    int M, I, D, Dc;
};

/* One 32-node block of row i (hf_vit and hf_vit_reg): node k = 32 j + lane + 1 with its row
 * i-1 values oM, oI, oD (HF_NEG on invalid lanes); returns the node's row i values in nM, nI,
 * nD (to be stored on valid lanes only) and folds xE and Dmax. */
__device__ __forceinline__ static void hf_vit_block(const int16_t *tw, const int16_t *rs, int k,
                                                    bool valid, int lane, int xB, int oM, int oI,
                                                    int oD, hf_vit_carry &c, int &xE, int &Dmax,
                                                    int &nM, int &nI, int &nD)
{
    int pM = __shfl_up_sync(HF_FULL, oM, 1), pI = __shfl_up_sync(HF_FULL, oI, 1),
        pD = __shfl_up_sync(HF_FULL, oD, 1);
    const int tM = __shfl_sync(HF_FULL, oM, 31), tI = __shfl_sync(HF_FULL, oI, 31),
              tD = __shfl_sync(HF_FULL, oD, 31);
    if (lane == 0) {
        pM = c.M;
        pI = c.I;
        pD = c.D;
    }
    c.M = tM;
    c.I = tI;
    c.D = tD;
    int sv = HF_NEG, dc = HF_NEG, ni = HF_NEG;
    if (valid) {
        /* one 16-byte load: BM MM IM DM MD MI II DD of node k (tw rows are 16 bytes, the
         * region 16-aligned) */
        const int4 wv = *(const int4 *)(tw + (size_t)k * 8);
        const int w[8] = { (int16_t)wv.x, (int16_t)(wv.x >> 16), (int16_t)wv.y,
                           (int16_t)(wv.y >> 16), (int16_t)wv.z, (int16_t)(wv.z >> 16),
                           (int16_t)wv.w, (int16_t)(wv.w >> 16) };
        /* transition words are <= 0 (the host refuses a model otherwise) and every value is
         * an int16, so a saturating add is max(a + w, -32768), and a maximum over such sums
         * absorbs the floor: one add-and-max (Hopper's DPX) per term */
        sv = __viaddmax_s32(xB, w[0], HF_NEG);
        sv = __viaddmax_s32(pM, w[1], sv);
        sv = __viaddmax_s32(pI, w[2], sv);
        sv = __viaddmax_s32(pD, w[3], sv);
        sv = hf_adds16(sv, rs[k]); /* emissions can be positive: saturate both ways */
        dc = __viaddmax_s32(sv, w[4], HF_NEG); /* D(i, k+1) from M; k = M feeds Dmax only */
        ni = __viaddmax_s32(oI, w[6], __viaddmax_s32(oM, w[5], HF_NEG));
        xE = max(xE, sv);
        Dmax = max(Dmax, dc);
    }
    int din = __shfl_up_sync(HF_FULL, dc, 1);
    const int tdc = __shfl_sync(HF_FULL, dc, 31);
    if (lane == 0) din = c.Dc; /* D(i, 1) = -32768: Dc starts there */
    c.Dc = tdc;
    nM = sv;
    nI = ni;
    nD = din;
}

/* One 32-node block of the D-D chain's lazy fix-up: D(i, k) = max(D(i, k), D(i, k-1) + DD),
 * a max-plus prefix scan across the warp; a = D(i, k) (HF_NEG on invalid lanes), carry the
 * previous block's lane 31. Returns the fixed D(i, k). */
__device__ __forceinline__ static int hf_vit_dchain(const int16_t *tw, int k, bool valid, int lane,
                                                    int a, int &carry)
{
    int t = valid && k >= 2 ? tw[(size_t)(k - 1) * 8 + 7] : -65536;
#pragma unroll
    for (int o = 1; o < 32; o <<= 1) {
        const int la = __shfl_up_sync(HF_FULL, a, o), lt = __shfl_up_sync(HF_FULL, t, o);
        if (lane >= o) {
            a = max(a, la + t);
            t = max(lt + t, -65536);
        }
    }
    const int nd = max(a, carry + t);
    carry = __shfl_sync(HF_FULL, nd, 31);
    return nd;
}

/* The end of row i: the specials from the row's xE, and whether the D-D chain needs its
 * fix-up. Returns 1 on overflow (xE at the 16-bit ceiling: the filter's answer is +inf). */
__device__ __forceinline__ static int hf_vit_row_end(const dpa_hf_model &md, int xw_move, int xN,
                                                     int &xE, int &Dmax, int &xB, int &xJ,
                                                     int &xC, bool *fix_d)
{
    xE = hf_warp_max(xE);
    Dmax = hf_warp_max(Dmax);
    if (xE >= 32767) return 1;
    xC = (int16_t)max(xC, xE + md.xw_e_move);
    xJ = (int16_t)max(xJ, xE + md.xw_e_loop);
    xB = (int16_t)max(xJ + xw_move, xN + xw_move);
    *fix_d = Dmax + md.ddbound_w > xB;
    return 0;
}

__device__ static int hf_vit(const dpa_hf_model &md, const uint8_t *tables, const uint8_t *dsq, const uint8_t *code_of,
                             int L, int xw_move, int16_t *row, int lane)
{
    const int M = md.M, cols = M + 1, Mpad = (M + 31) / 32 * 32;
    const int16_t *rw = (const int16_t *)(tables + md.rw);
    const int16_t *tw = (const int16_t *)(tables + md.tw);
    int16_t *Mr = row, *Ir = row + Mpad, *Dr = row + 2 * Mpad;
    for (int p = lane; p < Mpad; p += 32) Mr[p] = Ir[p] = Dr[p] = HF_NEG;
    hf_residues res = { dsq, L, lane, 0, 0, code_of };
    const int xN = md.base_w;
    int xB = (int16_t)(xN + xw_move), xJ = HF_NEG, xC = HF_NEG;
    for (int i = 1; i <= L; i++) {
        const int16_t *rs = rw + (size_t)res.at(i - 1) * cols;
        hf_vit_carry c = { HF_NEG, HF_NEG, HF_NEG, HF_NEG };
        int xE = HF_NEG, Dmax = HF_NEG;
        for (int j = 0; j < Mpad; j += 32) {
            const int p = j + lane, k = p + 1;
            const bool valid = k <= M;
            int nM, nI, nD;
            hf_vit_block(tw, rs, k, valid, lane, xB, valid ? Mr[p] : HF_NEG,
                         valid ? Ir[p] : HF_NEG, valid ? Dr[p] : HF_NEG, c, xE, Dmax, nM, nI, nD);
            if (valid) {
                Mr[p] = (int16_t)nM;
                Ir[p] = (int16_t)nI;
                Dr[p] = (int16_t)nD;
            }
        }
        bool fix_d;
        if (hf_vit_row_end(md, xw_move, xN, xE, Dmax, xB, xJ, xC, &fix_d)) return 32768;
        if (fix_d) {
            int carry = HF_NEG;
            for (int j = 0; j < Mpad; j += 32) {
                const int p = j + lane, k = p + 1;
                const bool valid = k <= M;
                const int nd = hf_vit_dchain(tw, k, valid, lane, valid ? Dr[p] : HF_NEG, carry);
                if (valid) Dr[p] = (int16_t)nd;
            }
        }
    }
    return xC;
}

/* The Viterbi filter with the row in registers, for M <= 32 J (J <= 16): hf_vit with Mr, Ir
 * and Dr of node 32 j + lane + 1 in m[j], ii[j], dd[j] instead of the warp's row in memory,
 * which takes three 16-bit loads and three stores per cell off the load/store pipe. The same
 * block, chain and row-end steps in the same order, so the arithmetic is hf_vit's. */
template <int J>
__device__ static int hf_vit_reg(const dpa_hf_model &md, const uint8_t *tables,
                                 const uint8_t *dsq, const uint8_t *code_of, int L, int xw_move, int lane)
{
    const int M = md.M, cols = M + 1;
    const int16_t *rw = (const int16_t *)(tables + md.rw);
    const int16_t *tw = (const int16_t *)(tables + md.tw);
    int m[J], ii[J], dd[J];
#pragma unroll
    for (int j = 0; j < J; j++) m[j] = ii[j] = dd[j] = HF_NEG;
    hf_residues res = { dsq, L, lane, 0, 0, code_of };
    const int xN = md.base_w;
    int xB = (int16_t)(xN + xw_move), xJ = HF_NEG, xC = HF_NEG;
    for (int i = 1; i <= L; i++) {
        const int16_t *rs = rw + (size_t)res.at(i - 1) * cols;
        hf_vit_carry c = { HF_NEG, HF_NEG, HF_NEG, HF_NEG };
        int xE = HF_NEG, Dmax = HF_NEG;
#pragma unroll
        for (int j = 0; j < J; j++) {
            const int k = 32 * j + lane + 1;
            const bool valid = k <= M;
            int nM, nI, nD;
            hf_vit_block(tw, rs, k, valid, lane, xB, valid ? m[j] : HF_NEG,
                         valid ? ii[j] : HF_NEG, valid ? dd[j] : HF_NEG, c, xE, Dmax, nM, nI, nD);
            if (valid) {
                m[j] = (int16_t)nM;
                ii[j] = (int16_t)nI;
                dd[j] = (int16_t)nD;
            }
        }
        bool fix_d;
        if (hf_vit_row_end(md, xw_move, xN, xE, Dmax, xB, xJ, xC, &fix_d)) return 32768;
        if (fix_d) {
            int carry = HF_NEG;
#pragma unroll
            for (int j = 0; j < J; j++) {
                const int k = 32 * j + lane + 1;
                const bool valid = k <= M;
                const int nd = hf_vit_dchain(tw, k, valid, lane, valid ? dd[j] : HF_NEG, carry);
                if (valid) dd[j] = (int16_t)nd;
            }
        }
    }
    return xC;
}

__device__ static int hf_vit_reg_any(const dpa_hf_model &md, const uint8_t *tables,
                                     const uint8_t *dsq, const uint8_t *code_of, int L, int xw_move, int lane,
                                     bool *done)
{
    const int J = (md.M + 31) / 32;
    *done = true;
    switch (J) {
#define HF_VIT_CASE(n) \
    case n: return hf_vit_reg<n>(md, tables, dsq, code_of, L, xw_move, lane);
        HF_FOR_1_TO_16(HF_VIT_CASE)
#undef HF_VIT_CASE
    default: *done = false; return 0;
    }
}

template <int KIND>
__global__ void __launch_bounds__(DPA_HF_WARPS_PER_BLOCK * 32)
    hf_kernel(const dpa_hf_model *models, const uint8_t *tables, const uint8_t *dsq, const uint8_t *code_of,
              const dpa_hf_task *tasks, int32_t ntasks, int32_t *out, uint8_t *gscratch,
              int64_t gstride, int32_t smem_per_warp, uint32_t *counter, int32_t ssv_reg)
{
    extern __shared__ __align__(16) uint8_t hf_smem[];
    const int lane = threadIdx.x & 31, wib = threadIdx.x >> 5;
    const int64_t gw = (int64_t)blockIdx.x * DPA_HF_WARPS_PER_BLOCK + wib;
    uint8_t *srow = hf_smem + (size_t)wib * smem_per_warp;
    uint8_t *grow = gstride > 0 ? gscratch + gw * gstride : nullptr;
    for (;;) {
        int t = 0;
        if (lane == 0) t = (int)atomicAdd(counter, 1u);
        t = __shfl_sync(HF_FULL, t, 0);
        if (t >= ntasks) break;
        const dpa_hf_task tk = tasks[t];
        const dpa_hf_model md = models[tk.model];
        const int64_t need = dpa_hf_row_bytes(KIND, md.M);
        uint8_t *row = need <= smem_per_warp ? srow : need <= gstride ? grow : nullptr;
        int r = DPA_HF_BAD;
        bool done = false;
        if constexpr (KIND == 0) {
            if (ssv_reg == 2 && tk.L >= 1 && md.q16 > 0)
                r = hf_ssv_dpx_any(md, tables, dsq + tk.seq, code_of, tk.L, lane, &done);
            if (!done && ssv_reg && tk.L >= 1 && md.M <= 32 * 16)
                r = hf_ssv_reg_any(md, tables, dsq + tk.seq, code_of, tk.L, lane, &done);
        } else if constexpr (KIND == 2) {
            if (ssv_reg && tk.L >= 1 && md.M <= 32 * 16)
                r = hf_vit_reg_any(md, tables, dsq + tk.seq, code_of, tk.L, tk.len_param, lane, &done);
        }
        if (!done && row && tk.L >= 1) {
            if (KIND == 0)
                r = hf_ssv(md, tables, dsq + tk.seq, code_of, tk.L, row, lane);
            else if (KIND == 1)
                r = hf_msv(md, tables, dsq + tk.seq, code_of, tk.L, tk.len_param, row, lane);
            else
                r = hf_vit(md, tables, dsq + tk.seq, code_of, tk.L, tk.len_param, (int16_t *)row, lane);
        }
        if (lane == 0) out[t] = r;
        __syncwarp(); /* the next task's row initialisation follows this task's last reads */
    }
}

extern "C" cudaError_t dpa_hf_launch(int32_t kind, const dpa_hf_model *models,
                                     const uint8_t *tables, const uint8_t *dsq, const uint8_t *code_of,
                                     const dpa_hf_task *tasks, int32_t ntasks, int32_t *out,
                                     uint8_t *gscratch, int64_t gstride, int32_t smem_per_warp,
                                     int32_t warps, uint32_t *counter, cudaStream_t stream)
{
    /* DPACCEL_HMM_SSV_REG: 0 runs SSV and the Viterbi filter with the row in memory for every
     * M, 1 with the row in registers (one cell a lane) where M <= 512, 2 (default) SSV in
     * packed int16 pairs where M <= 1024: A/B switches for the kernels (same results), read at
     * each launch (no process-wide state outside the context). */
    const char *ssv_env = getenv("DPACCEL_HMM_SSV_REG");
    const int ssv_reg = ssv_env && (ssv_env[0] == '0' || ssv_env[0] == '1') ? ssv_env[0] - '0' : 2;
    const int blocks = warps / DPA_HF_WARPS_PER_BLOCK;
    const size_t smem = (size_t)smem_per_warp * DPA_HF_WARPS_PER_BLOCK;
    const dim3 grid(blocks > 0 ? blocks : 1), block(DPA_HF_WARPS_PER_BLOCK * 32);
    if (kind == 0)
        hf_kernel<0><<<grid, block, smem, stream>>>(models, tables, dsq, code_of, tasks, ntasks, out,
                                                     gscratch, gstride, smem_per_warp, counter, ssv_reg);
    else if (kind == 1)
        hf_kernel<1><<<grid, block, smem, stream>>>(models, tables, dsq, code_of, tasks, ntasks, out,
                                                     gscratch, gstride, smem_per_warp, counter, ssv_reg);
    else
        hf_kernel<2><<<grid, block, smem, stream>>>(models, tables, dsq, code_of, tasks, ntasks, out,
                                                     gscratch, gstride, smem_per_warp, counter, ssv_reg);
    return cudaGetLastError();
}

extern "C" int dpa_hf_blocks_per_sm(int32_t kind, int32_t smem_per_warp)
{
    int nb = 0;
    const size_t smem = (size_t)smem_per_warp * DPA_HF_WARPS_PER_BLOCK;
    cudaError_t e;
    if (kind == 0)
        e = cudaOccupancyMaxActiveBlocksPerMultiprocessor(&nb, hf_kernel<0>, DPA_HF_WARPS_PER_BLOCK * 32, smem);
    else if (kind == 1)
        e = cudaOccupancyMaxActiveBlocksPerMultiprocessor(&nb, hf_kernel<1>, DPA_HF_WARPS_PER_BLOCK * 32, smem);
    else
        e = cudaOccupancyMaxActiveBlocksPerMultiprocessor(&nb, hf_kernel<2>, DPA_HF_WARPS_PER_BLOCK * 32, smem);
    if (e != cudaSuccess) {
        (void)cudaGetLastError();
        return 0;
    }
    return nb;
}
