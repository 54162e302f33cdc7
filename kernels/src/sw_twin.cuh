/*
 * sw_twin.cuh — the twin fill: two pairs at once, pair A in the low 16 bits and pair B in the
 * high 16 bits of every register, so each DPX instruction (__viaddmax_s16x2, __vimax3_s16x2)
 * does two cells. Included by sw_kernels.cu; geometry as the single fill (sw_cuda.h) over
 * n = max(n_a, n_b), m = max(m_a, m_b); docs/sw-cuda.md, "Twin fill", has the proof.
 *
 * Values in a half are relative: a half holds value - base + TW_C, where base (one int per
 * pair per lane) follows the lane's first row, so every value the lane holds stays within
 * TW_C +- S (S in dpa_sw_twin_fits) however large the pair's scores grow. Every TW_RB steps
 * each lane moves its bases to its first row's current score (a rebase: one add per held
 * value); values passed to the next lane are moved to its bases by one add (delta).
 *
 * Two views of a register: DPX instructions read its halves; adds read it as the integer
 * hi * 65536 + lo, which has the same bits as long as every half stays in [0, 0x7FFF] (no
 * carry between halves). A difference a - b + 0x8000 then has in bit 15 "lo(a) >= lo(b)" and
 * in bit 31 "hi(a) < hi(b)": the four traceback bits of both cells come from one add each,
 * and one PRMT (sign-replicating bytes 1 and 3) spreads two differences' four signs over four
 * bytes, which one LOP3 merges into the step's word at its own bit slot.
 *
 * Rows and columns past a pair's own n, m (the other pair's are longer) are computed like
 * real ones (reference / alternate byte 0); they are the DP of a longer pair, so they obey
 * the same bounds, and nothing reads them.
 */
#ifndef DPA_SW_TWIN_CUH
#define DPA_SW_TWIN_CUH

#define TW_C 0x4000 /* a half's value at its lane's base */
#define TW_RB DPA_SW_TWIN_REBASE /* steps between rebases: a multiple of SW_U (sw_cuda.h) */

/* The cell's constants (dpa_sw_twin_kparams): tw_e2 extend in both halves (bits, for
 * VIADDMNMX); tw_ke = e * 65536 + e + 0x8000, so V + ke - HO has both gap-open signs;
 * tw_open2, tw_mo2 open and match - open in both halves (as an integer); tw_ndm mismatch -
 * match; tw_low2 GATK's initial gap in both halves. */
typedef dpa_sw_kparams tw_k;

/* Bytes [sign(lo x), sign(hi x), sign(lo y), sign(hi y)], each 0x00 or 0xff. */
__device__ __forceinline__ uint32_t tw_signs(uint32_t x, uint32_t y)
{
    uint32_t r;
    asm("prmt.b32 %0, %1, %2, 0xFDB9;" : "=r"(r) : "r"(x), "r"(y));
    return r;
}

/* One cell of each pair (sw_kernels.cu cell() in halves). slot: the row's place in its word
 * (0..3); each byte of the word gets this row's bits at slots 2 * slot and 2 * slot + 1. */
__device__ __forceinline__ void tw_cell(uint32_t &V, uint32_t &hg, uint32_t &left, uint32_t &dg,
                                        uint32_t &ho, uint32_t rc, uint32_t nap, const tw_k &k,
                                        uint32_t &acc, int slot)
{
    const uint32_t dv = V + k.tw_ke - ho;
    V = __viaddmax_s16x2(V, k.tw_e2, ho);
    const uint32_t dh = hg + k.tw_ke - left;
    hg = __viaddmax_s16x2(hg, k.tw_e2, left);
    const uint32_t dr = hg - V + 0x8000u;
    /* 0 where the bases are equal, else 1: rc - alt with u16 wrap-around, then min(., 1) */
    const uint32_t mm = __viaddmin_u16x2(rc, nap, 0x00010001u);
    const uint32_t d = dg + (mm * k.tw_ndm + k.tw_mo2);
    const uint32_t best = __vimax3_s16x2(d, hg, V);
    const uint32_t dd = d - best + 0x8000u;
    acc |= tw_signs(dv, dh) & (0x01010101u << (2 * slot));
    acc |= tw_signs(dr, dd) & (0x01010101u << (2 * slot + 1));
    dg = left;
    ho = best + k.tw_open2;
    left = ho;
}

template <int R> struct tw_st {
    uint32_t left[R], hg[R], rc[R]; /* H + open, running horizontal gap, reference bytes */
    uint32_t diag, outH, outV;
    int baseA, baseB, cA, cB; /* bases, and TW_C - base (lane 0's conversion) */
    uint32_t delta;           /* the previous lane's bases minus this lane's, as one add */
    int4 ring[SW_D];          /* lane 0: the strip above's last row of both pairs, ahead */
    uint32_t nap[SW_D];       /* negated alternate bytes of the next SW_D steps */
};

struct tw_io {
    const uint32_t *nap; /* per column (0-based): -alt_a | -alt_b << 16 */
    int4 *HV;            /* strip boundary row: (H + open, V) of A, then of B, absolute */
    int32_t *botA, *botB, *lcA, *lcB;
    uint2 *tbs;
    int m, lane, r0, nvA, nvB, mA, mB;
    int blA, qnA, blB, qnB; /* lane and row of each pair's row n in this strip, or -1 */
    bool hb_writer, want_lastcol;
};

/* Absolute value of half 0 (A) or 1 (B) of x. */
template <int HALF> __device__ __forceinline__ int tw_abs(uint32_t x, int base)
{
    return (HALF ? (int)(x >> 16) : (int)(x & 0xffffu)) + base - TW_C;
}

/* An absolute value into a half of this lane: max(x - base + TW_C, low), no int overflow
 * for |x| <= 2^30 (GATK's initial gap included, which becomes low). */
__device__ __forceinline__ uint32_t tw_in(int x, int c, int low)
{
    return (uint32_t)__viaddmax_s32(x, c, low);
}

template <int R> __device__ __forceinline__ void tw_deltas(tw_st<R> &st)
{
    const int pA = __shfl_up_sync(SW_FULL, st.baseA, 1), pB = __shfl_up_sync(SW_FULL, st.baseB, 1);
    st.delta = (uint32_t)(pB - st.baseB) * 65536u + (uint32_t)(pA - st.baseA);
    st.cA = TW_C - st.baseA;
    st.cB = TW_C - st.baseB;
}

/* Moves both bases to the lane's first row (left[0] becomes TW_C in both halves). */
template <int R> __device__ __forceinline__ void tw_rebase(tw_st<R> &st)
{
    const uint32_t l0 = st.left[0];
    const uint32_t adj = (uint32_t)TW_C * 65537u - l0;
#pragma unroll
    for (int q = 0; q < R; q++) {
        st.left[q] += adj;
        st.hg[q] += adj;
    }
    st.diag += adj;
    st.outH += adj;
    st.outV += adj;
    st.baseA += (int)(l0 & 0xffffu) - TW_C;
    st.baseB += (int)(l0 >> 16) - TW_C;
    tw_deltas(st);
}

template <int R, bool BOT, bool EDGE>
__device__ __forceinline__ void tw_steps(tw_st<R> &st, const tw_io &io, const tw_k &k, int tb0)
{
    const int lane = io.lane, m = io.m;
    const uint32_t *nap_p = io.nap + (tb0 - lane + SW_D);
    const int4 *hv_rd = io.HV + (tb0 + 1 + SW_D);
    int4 *hv_wr = io.HV + (tb0 - 30);
    uint2 *tb_p = io.tbs + (size_t)tb0 * 32 + lane;
    int32_t *bA = io.botA + (tb0 - lane + 1), *bB = io.botB + (tb0 - lane + 1);
#pragma unroll
    for (int u = 0; u < SW_U; u++) {
        const int j = tb0 + u - lane + 1;
        uint32_t upH = __shfl_up_sync(SW_FULL, st.outH, 1) + st.delta;
        uint32_t upV = __shfl_up_sync(SW_FULL, st.outV, 1) + st.delta;
        if (lane == 0) {
            const int4 r = st.ring[u % SW_D];
            upH = __byte_perm(tw_in(r.x, st.cA, k.tw_low), tw_in(r.z, st.cB, k.tw_low), 0x5410);
            upV = __byte_perm(tw_in(r.y, st.cA, k.tw_low), tw_in(r.w, st.cB, k.tw_low), 0x5410);
            if (!EDGE || j + SW_D <= m) st.ring[u % SW_D] = hv_rd[u];
        }
        const uint32_t nap = st.nap[u % SW_D];
        if (!EDGE || (j + SW_D - 1 >= 0 && j + SW_D - 1 < m)) st.nap[u % SW_D] = nap_p[u];
        if (!EDGE || (j >= 1 && j <= m)) {
            uint32_t dg = st.diag;
            st.diag = upH;
            uint32_t H = upH, V = upV, w0 = 0, w1 = 0;
#pragma unroll
            for (int q = 0; q < R; q++)
                tw_cell(V, st.hg[q], st.left[q], dg, H, st.rc[q], nap, k, q < 4 ? w0 : w1, q & 3);
            st.outH = H;
            st.outV = V;
            tb_p[u * 32] = make_uint2(w0, w1);
            if (io.hb_writer)
                hv_wr[u] = make_int4(tw_abs<0>(H, st.baseA), tw_abs<0>(V, st.baseA),
                                     tw_abs<1>(H, st.baseB), tw_abs<1>(V, st.baseB));
            if (BOT) {
                if (lane == io.blA) {
                    uint32_t v = st.left[0];
#pragma unroll
                    for (int q = 1; q < R; q++)
                        if (q == io.qnA) v = st.left[q];
                    bA[u] = tw_abs<0>(v, st.baseA) - k.open;
                }
                if (lane == io.blB) {
                    uint32_t v = st.left[0];
#pragma unroll
                    for (int q = 1; q < R; q++)
                        if (q == io.qnB) v = st.left[q];
                    bB[u] = tw_abs<1>(v, st.baseB) - k.open;
                }
            }
            if (EDGE && io.want_lastcol) {
                if (j == io.mA) {
#pragma unroll
                    for (int q = 0; q < R; q++)
                        if (q < io.nvA) io.lcA[io.r0 + q + 1] = tw_abs<0>(st.left[q], st.baseA) - k.open;
                }
                if (j == io.mB) {
#pragma unroll
                    for (int q = 0; q < R; q++)
                        if (q < io.nvB) io.lcB[io.r0 + q + 1] = tw_abs<1>(st.left[q], st.baseB) - k.open;
                }
            }
        }
    }
}

/* One strip; steady blocks (no bound tested) end before any lane reaches the last column
 * of either pair when the last columns are kept. */
template <int R, bool BOT>
__device__ __forceinline__ void tw_strip(tw_st<R> &st, const tw_io &io, const tw_k &k)
{
    const int m = io.m, T = m + 31;
    const int steady_end = (io.want_lastcol ? min(io.mA, io.mB) : m) - SW_U - SW_D;
    int tb0 = 0;
    for (; tb0 < 32 && tb0 < T; tb0 += SW_U) {
        if (tb0 > 0 && tb0 % TW_RB == 0) tw_rebase(st);
        tw_steps<R, BOT, true>(st, io, k, tb0);
    }
    for (; tb0 <= steady_end; tb0 += SW_U) {
        if (tb0 % TW_RB == 0) tw_rebase(st);
        tw_steps<R, BOT, false>(st, io, k, tb0);
    }
    for (; tb0 < T; tb0 += SW_U) {
        if (tb0 % TW_RB == 0) tw_rebase(st);
        tw_steps<R, BOT, true>(st, io, k, tb0);
    }
}

/* The twin wavefront over the strips of n = max(nA, nB) rows. */
template <int R>
__device__ void tw_fill(const uint8_t *refA, int nA, int mA, const uint8_t *refB, int nB, int mB,
                        const uint32_t *nap, int n, int m, const dpa_sw_kparams &p, uint2 *tb,
                        int4 *HV, int32_t *botA, int32_t *botB, int32_t *lcA, int32_t *lcB,
                        int lane, int strips)
{
    const tw_k &k = p;
    const int strip_rows = 32 * R;
    for (int j = lane; j <= m; j += 32) {
        const int h = (j == 0 ? 0 : border(p, j)) + p.open;
        HV[j] = make_int4(h, SW_LOW_INIT, h, SW_LOW_INIT);
    }
    __syncwarp();
    const bool want_bottom = p.overhang == OV_SOFTCLIP || p.overhang == OV_IGNORE;
    const int sA = (nA - 1) / strip_rows, sB = (nB - 1) / strip_rows;
    for (int s = 0; s < strips; s++) {
        tw_io io;
        io.nap = nap;
        io.HV = HV;
        io.botA = botA;
        io.botB = botB;
        io.lcA = lcA;
        io.lcB = lcB;
        io.tbs = tb + (size_t)s * (m + 31) * 32;
        io.m = m;
        io.mA = mA;
        io.mB = mB;
        io.lane = lane;
        io.r0 = s * strip_rows + lane * R;
        io.nvA = min(R, nA - io.r0);
        io.nvB = min(R, nB - io.r0);
        io.hb_writer = lane == 31 && s < strips - 1;
        io.want_lastcol = p.overhang != OV_INDEL;
        io.blA = io.blB = -1;
        io.qnA = io.qnB = 0;
        if (want_bottom && s == sA) {
            const int w = nA - 1 - s * strip_rows;
            io.blA = w / R;
            io.qnA = w - io.blA * R;
        }
        if (want_bottom && s == sB) {
            const int w = nB - 1 - s * strip_rows;
            io.blB = w / R;
            io.qnB = w - io.blB * R;
        }
        tw_st<R> st;
        /* bases: the lane's first row's left border (the same for both pairs) */
        const int base = border(p, io.r0 + 1) + p.open;
        st.baseA = st.baseB = base;
#pragma unroll
        for (int q = 0; q < R; q++) {
            const int r = io.r0 + q;
            st.rc[q] = (r < nA ? (uint32_t)refA[r] : 0u) | (r < nB ? (uint32_t)refB[r] << 16 : 0u);
            st.left[q] = (uint32_t)(border(p, r + 1) + p.open - base + TW_C) * 65537u;
            st.hg[q] = k.tw_low2;
        }
        st.diag = (uint32_t)((io.r0 == 0 ? 0 : border(p, io.r0)) + p.open - base + TW_C) * 65537u;
        st.outH = st.outV = (uint32_t)TW_C * 65537u;
        tw_deltas(st);
#pragma unroll
        for (int u = 0; u < SW_D; u++) {
            st.ring[u] = (lane == 0 && u + 1 <= m) ? HV[u + 1] : make_int4(0, 0, 0, 0);
            st.nap[u] = (u - lane >= 0 && u - lane < m) ? nap[u - lane] : 0u;
        }
        if (io.blA >= 0 || io.blB >= 0)
            tw_strip<R, true>(st, io, k);
        else
            tw_strip<R, false>(st, io, k);
        __syncwarp();
    }
}

/* Nibble of cell (i, j) of one pair (half 0: A, 1: B) of a twin traceback, SW_NIB_* form.
 * Word q >> 2 of the lane's step; in it, byte half holds (dv, dr) and byte 2 + half (dh, dd)
 * at bits 2 (q & 3) and 2 (q & 3) + 1; A's bits are "difference >= 0", B's "< 0". */
struct tb_view2 {
    const uint2 *tb;
    int m, rows, strip, half;
    __device__ __forceinline__ unsigned get(int i, int j) const
    {
        const int r = i - 1, s = r / strip, w = r - s * strip, lane = w / rows, q = w - lane * rows;
        const uint2 wd = tb[((size_t)s * (m + 31) + (j - 1 + lane)) * 32 + lane];
        const uint32_t x = (q < 4 ? wd.x : wd.y) >> (8 * half + 2 * (q & 3));
        const unsigned nib = ((x & 1u) << 3) | (((x >> 16) & 1u) << 2) | (((x >> 1) & 1u) << 1) |
                             ((x >> 17) & 1u);
        return half ? nib ^ 15u : nib;
    }
};

#endif
