/*
 * sw_kernels.cu — the Smith-Waterman kernel: a persistent grid of warps, each aligning one
 * pair at a time in its own workspace; GATK 4.6's recurrence and tie-breaking exactly as the
 * scalar reference (native/src/cpu/sw/sw_ref.c, docs/sw.md).
 *
 * Per pair (sw_pair):
 *   1. SOFTCLIP / IGNORE: GATK's exact-substring shortcut, candidates tested 32 at a time
 *      from the last one (the warp's ballot picks the last occurrence);
 *   2. fill: anti-diagonal wavefront over row strips (geometry in sw_cuda.h). A lane keeps
 *      its rows' left score and running horizontal gap in registers; the score and running
 *      vertical gap of its last row go to the next lane by one shuffle each per step; the
 *      strip's last row goes through HV in scratch to the next strip. Column m and row n
 *      are kept for the start cell;
 *   3. start cell (warp reductions with GATK's tie rules);
 *   4. GATK's traceback walked by the whole warp, the CIGAR text built backwards in the
 *      scratch, then appended to the chunk's text region (one atomicAdd reserves it).
 *
 * Integer safety: dpa_sw_validate() bounds every score and gap value of the real cells below
 * 2^30 in magnitude. Rows past n (the last strip's padding) are computed with wrap-around
 * arithmetic and never read.
 */
#include <limits.h>

#include "sw_cuda.h"

#define SW_FULL 0xffffffffu
/* __launch_bounds__ minimum warps per SM: 20 caps the fill at 96 registers without spills
 * (nvcc 13.0, sm_90; 24 spilled) */
#ifndef SW_MIN_BLOCKS
#if defined(__CUDA_ARCH__) && (__CUDA_ARCH__ == 750 || __CUDA_ARCH__ == 860 || __CUDA_ARCH__ == 870 || __CUDA_ARCH__ == 880)
/* these SMs (sm_75/86/87/88) hold at most 16 blocks: asking for 20 is ignored with a ptxas warning */
#define SW_MIN_BLOCKS (16 / SW_WARPS_PER_BLOCK)
#else
#define SW_MIN_BLOCKS (20 / SW_WARPS_PER_BLOCK)
#endif
#endif
#ifndef SW_CHAIN3
#define SW_CHAIN3 1 /* 0: run 8's cell, max(h, V) before max(d, .) (measurement variant) */
#endif
#ifndef SW_SUBTAB
#define SW_SUBTAB 1 /* 0: run 8's compare-and-select substitution only (measurement variant) */
#endif
/* Pairs whose alternate has at most SW_KMAX distinct bases read the substitution score of
 * each cell from a per-warp shared-memory table (one LDS on the memory pipe instead of a
 * compare and a select on the ALU, the fill's busiest pipe); others compare and select. */
#define SW_KMAX 6 /* A, C, G, T, N and one more: 6.2 KB per warp */
typedef struct sw_warp_smem {
    int tab[SW_KMAX * SW_LANE_ROWS * 32]; /* [code][row of the lane][lane]: no bank conflict */
    uint32_t bits[8];                     /* which byte values the alternate holds */
    uint32_t sym[SW_KMAX];                /* code -> byte */
} sw_warp_smem;
#define SW_U 4 /* steps per unrolled block of the fill (steps()): loads and stores take immediate offsets */
#define SW_D 2 /* the fill's loads run SW_D steps ahead (SW_U is a multiple of it) */
#define SW_CUTOFF (-100000000)       /* GATK's MATRIX_MIN_CUTOFF */
#define SW_LOW_INIT (INT_MIN / 2)    /* GATK's initial best gap  */

enum { OV_SOFTCLIP = 0, OV_INDEL = 1, OV_LEADING_INDEL = 2, OV_IGNORE = 3 };
enum { OP_M = 0, OP_I = 1, OP_D = 2, OP_S = 3 };

__device__ __forceinline__ int border(const dpa_sw_kparams &p, int k)
{
    return (p.overhang == OV_INDEL || p.overhang == OV_LEADING_INDEL) ? p.open + (k - 1) * p.extend
                                                                      : 0;
}

/* Nibble of cell (i, j), 1-based, in SW_NIB_* form. The fill appends each cell's four
 * bits after the previous row's, so row q of a lane's word sits at 4 * (rows - 1 - q), and
 * it stores the complements of SW_NIB_* (cell()). */
struct tb_view {
    const uint32_t *tb;
    int m, rows, strip; /* rows per lane, rows per strip */
    __device__ __forceinline__ unsigned get(int i, int j) const
    {
        const int r = i - 1, s = r / strip, w = r - s * strip, lane = w / rows, q = w - lane * rows;
        const uint32_t word = tb[((size_t)s * (m + 31) + (j - 1 + lane)) * 32 + lane];
        return ((word >> (4 * (rows - 1 - q))) & 15u) ^ 15u;
    }
};

/* Writes "<len><op>" so that it ends just before *p (the text is built backwards). */
__device__ __forceinline__ void emit_back(char **p, int len, int op)
{
    char *q = *p;
    *--q = "MIDS"[op];
    do {
        *--q = (char)('0' + len % 10);
        len /= 10;
    } while (len > 0);
    *p = q;
}

/* Constants of the cell update. H values travel biased by +open ("HO": one add serves both
 * gap openings below and to the right), so the diagonal adds the substitution minus open.
 * one and minus_one are 1 and -1 from the kernel parameters: ptxas cannot fold them, so the
 * adds and differences run as IMAD on the FMA pipe while max, compare, select and funnel
 * shift take the integer ALU; the two pipes issue side by side (docs/sw-cuda.md, run 4). */
struct cell_k {
    int match_o, mismatch_o, open, extend, one, minus_one, two;
};

/* Appends the sign bit of diff (1: diff < 0) to word. */
__device__ __forceinline__ uint32_t push_sign(uint32_t word, int diff)
{
    return __funnelshift_l((uint32_t)diff, word, 1);
}

/* a * b + c with int32 wrap-around instead of undefined overflow: the rows past n (below)
 * are computed too and their values may leave the score bound; nothing reads them. */
__device__ __forceinline__ int mad(int a, int b, int c)
{
    return (int)((unsigned)a * (unsigned)b + (unsigned)c);
}

#ifndef SW_CELL
/* 2: both gaps by VIADDMNMX (max(a + b, c) in one instruction, native on sm_90 and emulated
 * by two elsewhere) and their sign differences by one 3-input IADD3 each; 3: as 2, but the
 * last of the four traceback bits is appended on the FMA pipe (IMAD.HI + IMAD instead of one
 * funnel shift on the ALU, to unload the ALU: the loop turned out issue-bound);
 * 1: run 9's cell, every add an IMAD (measurement variants; docs/sw-cuda.md, runs 11-12;
 * run 12 measured 3 ~10% slower than 2) */
#define SW_CELL 2
#endif
#ifndef SW_SPLIT_WORD
#define SW_SPLIT_WORD 0 /* 1: two accumulators for the step's traceback word (run 13: 2% slower) */
#endif

/* a + b - c with int32 wrap-around (rows past n, as mad()) */
__device__ __forceinline__ int add_sub(int a, int b, int c)
{
    return (int)((unsigned)a + (unsigned)b - (unsigned)c);
}

/* One cell of GATK's recurrence. The traceback bits are the sign bits of four differences:
 * vertical gap opened (V + e < HO), horizontal gap opened (h + e < leftO), down rather than
 * right (h < V), not diagonal (d < max(h, V)); GATK's ">=" keeps are their complements. The
 * differences cannot overflow in rows 1..n: dpa_sw_validate bounds every value by
 * W * (L + 1) with W * (L + 2) < 2^30, and the lowest operand is the initial gap -2^30 plus
 * one extend. */
template <bool CUT>
__device__ __forceinline__ void cell(int &V, int &hg, int &left_o, int &dg_o, int &ho, int s_o,
                                     const cell_k &k, uint32_t &word)
{
#if SW_CELL >= 2
    /* the gap updates take the ALU's VIADDMNMX and the sign differences IADD3, which leaves
     * the FMA pipe the four IMADs below: per cell 2 + 2 + 1 ALU and 4 FMA-pipe integer
     * instructions besides the 4 funnel shifts (run 9: 2 + 1 ALU, 7 FMA) */
    const int dv = add_sub(V, k.extend, ho);
    V = __viaddmax_s32(V, k.extend, ho);
    const int dh = add_sub(hg, k.extend, left_o);
    hg = __viaddmax_s32(hg, k.extend, left_o);
#else
    const int v_e = mad(V, k.one, k.extend);
    const int dv = mad(ho, k.minus_one, v_e);
    V = max(v_e, ho);
    const int h_e = mad(hg, k.one, k.extend);
    const int dh = mad(left_o, k.minus_one, h_e);
    hg = max(h_e, left_o);
#endif
    const int dr = mad(V, k.minus_one, hg);
    const int d = mad(dg_o, k.one, s_o);
#if SW_CHAIN3
    /* max(d, h) does not wait for the row above, so the dependent chain from one row's HO to
     * the next is max -> max -> IMAD; d - max(d, h, V) is negative exactly when d < max(h, V) */
    int best = max(max(d, hg), V);
    const int dd = mad(best, k.minus_one, d);
#else
    const int hv = max(hg, V);
    const int dd = mad(hv, k.minus_one, d);
    int best = max(d, hv);
#endif
    if (CUT) best = max(best, SW_CUTOFF);
#if SW_CELL == 3
    /* word * 2 + (dd >>> 31): the high half of dd * 2 is its sign bit; k.two keeps ptxas from
     * turning the multiplies back into shifts */
    word = push_sign(push_sign(push_sign(word, dv), dh), dr);
    word = (uint32_t)mad((int)word, k.two, (int)__umulhi((unsigned)dd, (unsigned)k.two));
#else
    word = push_sign(push_sign(push_sign(push_sign(word, dv), dh), dr), dd);
#endif
    dg_o = left_o;
    ho = mad(best, k.one, k.open);
    left_o = ho;
}

/* Per-lane state of the wavefront: the lane's R rows at its current column, the score and
 * vertical gap of its last row (what the next lane reads), and the loads SW_D steps ahead. */
template <int R> struct lane_st {
    int left_o[R], hgap[R]; /* H + open and the running horizontal gap of each row */
    uint32_t rc[R];         /* the rows' reference bases */
    int diag_top, outH, outV;
    int2 ring[SW_D];        /* lane 0: the strip above's last row (H + open, V), SW_D steps ahead */
    uint32_t cb[SW_D];      /* the alternate base of each of the next SW_D steps */
};

/* What a strip's steps read and write besides the lane state. */
struct strip_io {
    const uint8_t *alt;
    int2 *HV;            /* the strip boundary row: (H + open, V) per column, interleaved */
    int32_t *bottom, *lastcol;
    uint32_t *tbs;       /* this strip's traceback words */
    int m, lane, r0, nv;
    int bl, qn;          /* last strip: the lane holding row n, and row n's place in it */
    bool hb_writer, want_lastcol;
    const int *tab;      /* TAB: this lane's column of the substitution table */
};

/* One lane's cells of one column: all R rows, also those past n (their values are never
 * read, their nibbles never decoded), so no lane branches on its row count. */
template <int R, bool CUT, bool TAB>
__device__ __forceinline__ uint32_t lane_cells(lane_st<R> &st, unsigned c, const cell_k &k,
                                               const int *tab, int dg_o, int &ho, int &V)
{
    /* TAB: c is the base's code and the table holds the R substitution scores of this lane */
    const int *t = tab + c * (R * 32);
#if SW_SPLIT_WORD
    /* Two accumulators, rows [0, R/2) and [R/2, R): the word's funnel shifts are one serial
     * chain through all 4R traceback bits of the step, longer than the score chain (3
     * instructions per row); split, each half is 2R long, and one shift joins them. */
    constexpr int H = R / 2;
    uint32_t wa = 0, wb = 0;
#pragma unroll
    for (int q = 0; q < R; q++)
        cell<CUT>(V, st.hgap[q], st.left_o[q], dg_o, ho,
                  TAB ? t[q * 32] : st.rc[q] == c ? k.match_o : k.mismatch_o, k,
                  q < H ? wa : wb);
    return H > 0 ? (wa << (4 * (R - H))) | wb : wb;
#else
    uint32_t word = 0;
#pragma unroll
    for (int q = 0; q < R; q++)
        cell<CUT>(V, st.hgap[q], st.left_o[q], dg_o, ho,
                  TAB ? t[q * 32] : st.rc[q] == c ? k.match_o : k.mismatch_o, k, word);
    return word;
#endif
}

/* SW_U consecutive steps from tb0 (a multiple of SW_U). EDGE blocks test every bound; the
 * steady ones (every lane on a column in [1, m - 1], every load ahead inside the row) test
 * nothing. Pointers are set once per block so each step's loads and stores take immediate
 * offsets. BOT: 0 no bottom row here, 1 row n is its lane's last row, 2 anywhere in it. */
template <int R, bool CUT, int BOT, bool EDGE, bool TAB>
__device__ __forceinline__ void steps(lane_st<R> &st, const strip_io &io, const cell_k &k, int tb0)
{
    const int lane = io.lane, m = io.m;
    const uint8_t *alt_p = io.alt + (tb0 - lane + SW_D);
    const int2 *hv_rd = io.HV + (tb0 + 1 + SW_D);
    int2 *hv_wr = io.HV + (tb0 - 30);
    uint32_t *tb_p = io.tbs + (size_t)tb0 * 32 + lane;
    int32_t *bot_p = io.bottom + (tb0 - lane + 1);
#pragma unroll
    for (int u = 0; u < SW_U; u++) {
        const int j = tb0 + u - lane + 1; /* this lane's column */
        int upH = __shfl_up_sync(SW_FULL, st.outH, 1);
        int upV = __shfl_up_sync(SW_FULL, st.outV, 1);
        if (lane == 0) {
            upH = st.ring[u % SW_D].x;
            upV = st.ring[u % SW_D].y;
            if (!EDGE || j + SW_D <= m) st.ring[u % SW_D] = hv_rd[u];
        }
        const unsigned c = st.cb[u % SW_D];
        if (!EDGE || (j + SW_D - 1 >= 0 && j + SW_D - 1 < m)) st.cb[u % SW_D] = alt_p[u];
        if (!EDGE || (j >= 1 && j <= m)) {
            const int dg = st.diag_top;
            st.diag_top = upH;
            int H = upH, V = upV;
            const uint32_t word = lane_cells<R, CUT, TAB>(st, c, k, io.tab, dg, H, V);
            st.outH = H;
            st.outV = V;
            tb_p[u * 32] = word;
            if (io.hb_writer) hv_wr[u] = make_int2(H, V);
            if (BOT && lane == io.bl) {
                int v = H;
                if (BOT == 2) {
                    v = st.left_o[0];
#pragma unroll
                    for (int q = 1; q < R; q++)
                        if (q == io.qn) v = st.left_o[q];
                }
                bot_p[u] = v - k.open;
            }
            if (EDGE && j == m && io.want_lastcol) {
#pragma unroll
                for (int q = 0; q < R; q++)
                    if (q < io.nv) io.lastcol[io.r0 + q + 1] = st.left_o[q] - k.open;
            }
        }
    }
}

/* One strip: m + 31 steps (rounded up to SW_U; the extra steps find every lane past m). */
template <int R, bool CUT, int BOT, bool TAB>
__device__ __forceinline__ void strip_pass(lane_st<R> &st, const strip_io &io, const cell_k &k)
{
    const int m = io.m, T = m + 31;
    int tb0 = 0;
    for (; tb0 < 32 && tb0 < T; tb0 += SW_U) steps<R, CUT, BOT, true, TAB>(st, io, k, tb0);
    for (; tb0 <= m - SW_U - SW_D; tb0 += SW_U) steps<R, CUT, BOT, false, TAB>(st, io, k, tb0);
    for (; tb0 < T; tb0 += SW_U) steps<R, CUT, BOT, true, TAB>(st, io, k, tb0);
}

/* The wavefront over the strips. HV (and every H a lane passes on) holds H + open. TAB:
 * alt holds the alternate's base codes and sm the table's symbols (fill builds the table of
 * each strip). */
template <int R, bool CUT, bool TAB>
__device__ void fill(const uint8_t *ref, int n, const uint8_t *alt, int m, const dpa_sw_kparams &p,
                     uint32_t *tb, int2 *HV, int32_t *bottom, int32_t *lastcol, int lane,
                     int strips, sw_warp_smem *sm, int nsym)
{
    const cell_k k = { p.match - p.open, p.mismatch - p.open, p.open, p.extend, p.one,
                       p.minus_one, p.two };
    const int strip_rows = 32 * R;
    for (int j = lane; j <= m; j += 32)
        HV[j] = make_int2((j == 0 ? 0 : border(p, j)) + p.open, SW_LOW_INIT);
    __syncwarp();
    const bool want_bottom = p.overhang == OV_SOFTCLIP || p.overhang == OV_IGNORE;
    for (int s = 0; s < strips; s++) {
        strip_io io;
        io.alt = alt;
        io.HV = HV;
        io.bottom = bottom;
        io.lastcol = lastcol;
        io.tbs = tb + (size_t)s * (m + 31) * 32;
        io.m = m;
        io.lane = lane;
        io.r0 = s * strip_rows + lane * R; /* 0-based first row of this lane */
        io.nv = min(R, n - io.r0);         /* rows of this lane inside the matrix */
        const bool last = s == strips - 1;
        io.hb_writer = lane == 31 && !last;
        io.want_lastcol = p.overhang != OV_INDEL;
        const int w = n - 1 - s * strip_rows; /* row n in the last strip */
        io.bl = w / R;
        io.qn = w - io.bl * R;
        lane_st<R> st;
#pragma unroll
        for (int q = 0; q < R; q++) {
            /* rows past n: any finite start (their border could overflow) */
            st.rc[q] = q < io.nv ? ref[io.r0 + q] : 0u;
            st.left_o[q] = (q < io.nv ? border(p, io.r0 + q + 1) : 0) + p.open;
            st.hgap[q] = SW_LOW_INIT;
        }
        /* H[r0][j-1] + open, the row above */
        st.diag_top = ((io.r0 == 0 || io.nv <= 0) ? 0 : border(p, io.r0)) + p.open;
        st.outH = st.outV = 0;
        io.tab = sm->tab + lane;
        if (TAB) {
            /* the previous strip's readers are done (__syncwarp below) */
            for (int c = 0; c < nsym; c++) {
                const uint32_t b = sm->sym[c];
#pragma unroll
                for (int q = 0; q < R; q++)
                    sm->tab[(c * R + q) * 32 + lane] = st.rc[q] == b ? k.match_o : k.mismatch_o;
            }
            __syncwarp();
        }
#pragma unroll
        for (int u = 0; u < SW_D; u++) {
            st.ring[u] = (lane == 0 && u + 1 <= m) ? HV[u + 1] : make_int2(0, 0);
            st.cb[u] = (u - lane >= 0 && u - lane < m) ? alt[u - lane] : 0u;
        }
        if (!last || !want_bottom)
            strip_pass<R, CUT, 0, TAB>(st, io, k);
        else if (io.qn == R - 1)
            strip_pass<R, CUT, 1, TAB>(st, io, k);
        else
            strip_pass<R, CUT, 2, TAB>(st, io, k);
        __syncwarp();
    }
}

/* The fills of rare pairs: alternates with more than SW_KMAX distinct bases (no substitution
 * table) and pairs long enough to need GATK's cutoff. Called, not inlined: inlining all 32
 * fills (and the 8 twin fills) into the one persistent kernel made cicc spend ~7 of the
 * ~8.5 minutes this file took for one architecture on a 2-core machine (~3x the total of
 * every other .cu file), and CI compiles it for three targets. The common fill (DNA, no
 * cutoff) and the twin fill stay inlined, so the hot loops' code is unchanged;
 * SW_RARE_NOINLINE 0 inlines everything again (measurement variant). */
#ifndef SW_RARE_NOINLINE
#define SW_RARE_NOINLINE 1
#endif
#if SW_RARE_NOINLINE
#define SW_RARE_ATTR __noinline__
#else
#define SW_RARE_ATTR __forceinline__
#endif
template <int R, bool CUT, bool TAB>
__device__ SW_RARE_ATTR void fill_rare(const uint8_t *ref, int n, const uint8_t *alt, int m,
                                       const dpa_sw_kparams &p, uint32_t *tb, int2 *HV,
                                       int32_t *bottom, int32_t *lastcol, int lane, int strips,
                                       sw_warp_smem *sm, int nsym)
{
    fill<R, CUT, TAB>(ref, n, alt, m, p, tb, HV, bottom, lastcol, lane, strips, sm, nsym);
}

/* The twin fill only where its 16-bit DPX instructions are native (sm_90 on): elsewhere each
 * is emulated by several instructions, which would cost more than the twin saves, and
 * leaving it out keeps the fat binary's build time (12 architectures) in bounds. */
#if !defined(__CUDA_ARCH__) || __CUDA_ARCH__ >= 900
#define SW_TWIN_FILL 1
#include "sw_twin.cuh"
#else
#define SW_TWIN_FILL 0
#endif

/* GATK's start cell (docs/sw.md, "Start cell"): *p1, *p2 and the trailing overhang. */
__device__ void start_cell(int n, int m, int ov, const int32_t *bottom, const int32_t *lastcol,
                           int lane, int *p1_out, int *p2_out, int *seg_out)
{
    if (ov == OV_INDEL) {
        *p1_out = n;
        *p2_out = m;
        *seg_out = 0;
        return;
    }
    /* last column: the best value, ties to the lowest row (largest i) */
    int bv = INT_MIN, bi = 0;
    for (int i = 1 + lane; i <= n; i += 32) {
        const int v = lastcol[i];
        if (v >= bv) {
            bv = v;
            bi = i;
        }
    }
    for (int o = 16; o > 0; o >>= 1) {
        const int ov2 = __shfl_xor_sync(SW_FULL, bv, o), oi = __shfl_xor_sync(SW_FULL, bi, o);
        if (ov2 > bv || (ov2 == bv && oi > bi)) {
            bv = ov2;
            bi = oi;
        }
    }
    int p1 = bi, p2 = m, seg = 0;
    if (ov != OV_LEADING_INDEL) {
        /* bottom row: the best value, then the closest to the diagonal, then the first;
         * it replaces the last column's cell when strictly better, or equal and strictly
         * closer (GATK's sequential scan gives exactly this) */
        int wv = INT_MIN, wd = INT_MAX, wj = 0;
        for (int j = 1 + lane; j <= m; j += 32) {
            const int v = bottom[j], dist = abs(n - j);
            if (v > wv || (v == wv && dist < wd)) {
                wv = v;
                wd = dist;
                wj = j;
            }
        }
        for (int o = 16; o > 0; o >>= 1) {
            const int ov2 = __shfl_xor_sync(SW_FULL, wv, o), od = __shfl_xor_sync(SW_FULL, wd, o),
                      oj = __shfl_xor_sync(SW_FULL, wj, o);
            if (ov2 > wv || (ov2 == wv && (od < wd || (od == wd && oj < wj)))) {
                wv = ov2;
                wd = od;
                wj = oj;
            }
        }
        if (wj > 0 && (wv > bv || (wv == bv && wd < abs(p1 - p2)))) {
            p1 = n;
            p2 = wj;
            seg = m - wj;
        }
    }
    *p1_out = p1;
    *p2_out = p2;
    *seg_out = seg;
}

/* GATK's traceback and CIGAR, walked by the whole warp (every lane holds the same p1, p2,
 * state and run; lane 0 writes the text, which ends at end). A probe reads 32 cells at once:
 * the diagonal ahead, or the row / column back to where a gap was opened, so a pair costs
 * about (n + m) / 32 + 2 x gaps dependent loads instead of n + m. Returns the text length. */
template <class TV>
__device__ int traceback_warp(const TV &tv, int p1, int p2, int seg, int ov, char *end,
                              int *offset, int lane)
{
    char *w = end;
    if (seg > 0 && ov == OV_SOFTCLIP) {
        if (lane == 0) emit_back(&w, seg, OP_S);
        seg = 0;
    }
    int state = OP_M;
    while (p1 > 0 && p2 > 0) {
        /* diagonal run: lane l reads (p1 - l, p2 - l) */
        const bool valid = p1 - lane >= 1 && p2 - lane >= 1;
        const unsigned t = valid ? tv.get(p1 - lane, p2 - lane) : 0u;
        const unsigned nd = __ballot_sync(SW_FULL, valid && !(t & SW_NIB_DIAG));
        const int f = nd ? __ffs(nd) - 1 : __popc(__ballot_sync(SW_FULL, valid));
        if (f > 0) {
            if (state == OP_M) {
                seg += f;
            } else {
                if (seg > 0 && lane == 0) emit_back(&w, seg, state);
                seg = f;
                state = OP_M;
            }
            p1 -= f;
            p2 -= f;
            if (!nd) continue; /* 32 diagonal steps, or the matrix's edge reached */
        }
        /* (p1, p2) is a gap step: lane f read its nibble */
        const unsigned t0 = __shfl_sync(SW_FULL, t, f);
        int nstate, step;
        if (t0 & SW_NIB_RIGHT) {
            /* the gap GATK recorded: back to the column where it was opened */
            int k = p2;
            for (;;) {
                const int kk = k - lane;
                const bool go = kk > 1 && (tv.get(p1, kk) & SW_NIB_H_KEEP);
                const unsigned stop = __ballot_sync(SW_FULL, !go);
                if (stop) {
                    k -= __ffs(stop) - 1;
                    break;
                }
                k -= 32;
            }
            nstate = OP_I;
            step = p2 - k + 1;
            p2 -= step;
        } else {
            int r = p1;
            for (;;) {
                const int rr = r - lane;
                const bool go = rr > 1 && (tv.get(rr, p2) & SW_NIB_V_KEEP);
                const unsigned stop = __ballot_sync(SW_FULL, !go);
                if (stop) {
                    r -= __ffs(stop) - 1;
                    break;
                }
                r -= 32;
            }
            nstate = OP_D;
            step = p1 - r + 1;
            p1 -= step;
        }
        if (nstate == state) {
            seg += step;
        } else {
            if (seg > 0 && lane == 0) emit_back(&w, seg, state);
            seg = step;
            state = nstate;
        }
    }

    if (lane == 0) {
        if (ov == OV_SOFTCLIP) {
            emit_back(&w, seg, state);
            if (p2 > 0) emit_back(&w, p2, OP_S);
        } else if (ov == OV_IGNORE) {
            emit_back(&w, seg + p2, state); /* the leading overhang joins the last state */
        } else {
            emit_back(&w, seg, state);
            if (p1 > 0)
                emit_back(&w, p1, OP_D);
            else if (p2 > 0)
                emit_back(&w, p2, OP_I);
        }
    }
    *offset = ov == OV_SOFTCLIP ? p1 : ov == OV_IGNORE ? p1 - p2 : 0;
    return __shfl_sync(SW_FULL, (int)(end - w), 0);
}

/* Last r with ref[r .. r + m) == alt (GATK Utils.lastIndexOf), or -1; the whole warp. */
__device__ int last_index_of(const uint8_t *ref, int n, const uint8_t *alt, int m, int lane)
{
    for (int base = n - m; base >= 0; base -= 32) {
        const int r = base - lane;
        bool ok = r >= 0;
        for (int k = 0; ok && k < m; k++) ok = ref[r + k] == alt[k];
        const unsigned hit = __ballot_sync(SW_FULL, ok);
        if (hit) return base - (__ffs(hit) - 1); /* lowest lane = last occurrence */
    }
    return -1;
}

/* The pair's CIGAR text (len bytes ending at text_end) appended to the chunk's text region,
 * and its result; the whole warp. */
__device__ void put_result(const char *text_end, int len, int offset, int exact, char *text,
                           uint32_t *text_used, dpa_sw_res *res, int lane)
{
    uint32_t pos = 0;
    if (lane == 0) pos = atomicAdd(text_used, (uint32_t)len);
    pos = __shfl_sync(SW_FULL, pos, 0);
    __syncwarp();
    const char *src = text_end - len;
    for (int k = lane; k < len; k += 32) text[pos + k] = src[k];
    if (lane == 0) {
        dpa_sw_res r;
        r.pos = pos;
        r.len = len;
        r.offset = offset;
        r.exact = exact;
        *res = r;
    }
    __syncwarp(); /* every lane has copied its bytes before the scratch is reused */
}

/* The traceback of a filled pair whose start cell is (p1, p2) with trailing overhang seg;
 * the CIGAR text is built backwards at the end of the pair's scratch (its score rows are
 * dead by now). */
__device__ void finish_pair(const dpa_sw_desc &dsc, const uint32_t *tb, int32_t *S, int p1,
                            int p2, int seg, int ov, char *text, uint32_t *text_used,
                            dpa_sw_res *res, int lane)
{
    const int n = dsc.n, m = dsc.m, rows = dpa_sw_gpu_lane_rows(n);
    char *const text_end = (char *)(S + dpa_sw_gpu_scr_words(n, m));
    const tb_view tv = { tb, m, rows, 32 * rows };
    int offset = 0;
    const int len = traceback_warp(tv, p1, p2, seg, ov, text_end, &offset, lane);
    __syncwarp();
    put_result(text_end, len, offset, 0, text, text_used, res, lane);
}

/* GATK's exact-substring shortcut (SOFTCLIP, IGNORE): true when it answered the pair. */
__device__ bool exact_pair(const dpa_sw_desc &dsc, const uint8_t *bases, int32_t *S, char *text,
                           uint32_t *text_used, dpa_sw_res *res, const dpa_sw_kparams &p, int lane)
{
    const int n = dsc.n, m = dsc.m;
    if (!((p.overhang == OV_SOFTCLIP || p.overhang == OV_IGNORE) && m <= n)) return false;
    const int r = last_index_of(bases + dsc.ref, n, bases + dsc.alt, m, lane);
    if (r < 0) return false;
    char *const text_end = (char *)(S + dpa_sw_gpu_scr_words(n, m));
    char *txt = text_end;
    if (lane == 0) emit_back(&txt, m, OP_M);
    const int len = __shfl_sync(SW_FULL, (int)(text_end - txt), 0);
    put_result(text_end, len, r, 1, text, text_used, res, lane);
    return true;
}

/* MATRIX_MIN_CUTOFF can bind only when some value may fall below it */
__device__ __forceinline__ bool needs_cutoff(const dpa_sw_kparams &p, int n, int m)
{
    const int64_t w = (int64_t)abs(p.match) + abs(p.mismatch) + abs(p.open) + abs(p.extend);
    return w * ((int64_t)n + m + 1) >= -(int64_t)SW_CUTOFF;
}

/* Cells the fill of an n x m pair computes (rows past n and the strips' fill/drain steps). */
__device__ __forceinline__ int64_t fill_cells(int n, int m)
{
    return (int64_t)dpa_sw_gpu_strips(n) * 32 * dpa_sw_gpu_lane_rows(n) * ((int64_t)m + 31);
}

/* One pair's fill, start cell and CIGAR, by the whole warp in its workspace (tb, S). */
__device__ __forceinline__ void fill_pair(const dpa_sw_desc &dsc, const uint8_t *bases, uint32_t *tb, int32_t *S,
                          sw_warp_smem *sm, char *text, uint32_t *text_used, dpa_sw_res *res,
                          const dpa_sw_kparams &p, int lane)
{
    const int n = dsc.n, m = dsc.m;
    const uint8_t *ref = bases + dsc.ref, *alt = bases + dsc.alt;
    const int strips = dpa_sw_gpu_strips(n), rows = dpa_sw_gpu_lane_rows(n);
    int2 *HV = (int2 *)S;
    int32_t *bottom = S + 2 * (m + 1), *lastcol = S + 3 * (m + 1);
    /* the alternate's distinct bases: a table of substitution scores when few */
    int nsym = SW_KMAX + 1;
    const uint8_t *fill_alt = alt;
    if (SW_SUBTAB) {
        if (lane < 8) sm->bits[lane] = 0;
        __syncwarp();
        for (int j0 = 0; j0 < m; j0 += 32) {
            const int v = j0 + lane < m ? (int)alt[j0 + lane] : -1;
            const unsigned g = __match_any_sync(SW_FULL, v);
            if (v >= 0 && lane == __ffs(g) - 1) atomicOr(&sm->bits[v >> 5], 1u << (v & 31));
        }
        __syncwarp();
        nsym = 0;
        for (int w8 = 0; w8 < 8; w8++) nsym += __popc(sm->bits[w8]);
        if (nsym <= SW_KMAX) {
            uint8_t *acode = (uint8_t *)(S + 3 * (m + 1) + n + 1);
            if (lane == 0) {
                int c = 0;
                for (int w8 = 0; w8 < 8; w8++)
                    for (uint32_t b = sm->bits[w8]; b; b &= b - 1) sm->sym[c++] = 32 * w8 + __ffs(b) - 1;
            }
            for (int j = lane; j < m; j += 32) {
                const int v = alt[j];
                int c = __popc(sm->bits[v >> 5] & ((1u << (v & 31)) - 1));
                for (int w8 = 0; w8 < (v >> 5); w8++) c += __popc(sm->bits[w8]);
                acode[j] = (uint8_t)c;
            }
            __syncwarp();
            fill_alt = acode;
        }
    }
    const bool cut = needs_cutoff(p, n, m);
#define SW_FILL(R)                                                                                 \
    (!cut && nsym <= SW_KMAX                                                                       \
         ? fill<R, false, true>(ref, n, fill_alt, m, p, tb, HV, bottom, lastcol, lane, strips, sm, \
                                nsym)                                                              \
         : cut && nsym <= SW_KMAX                                                                  \
               ? fill_rare<R, true, true>(ref, n, fill_alt, m, p, tb, HV, bottom, lastcol, lane,   \
                                          strips, sm, nsym)                                        \
               : cut ? fill_rare<R, true, false>(ref, n, alt, m, p, tb, HV, bottom, lastcol, lane, \
                                                 strips, sm, 0)                                    \
                     : fill_rare<R, false, false>(ref, n, alt, m, p, tb, HV, bottom, lastcol,     \
                                                  lane, strips, sm, 0))
    switch (rows) { /* rows is 1..8 (sw_cuda.h) */
    case 1: SW_FILL(1); break;
    case 2: SW_FILL(2); break;
    case 3: SW_FILL(3); break;
    case 4: SW_FILL(4); break;
    case 5: SW_FILL(5); break;
    case 6: SW_FILL(6); break;
    case 7: SW_FILL(7); break;
    default: SW_FILL(8); break;
    }
#undef SW_FILL
    int p1, p2, seg;
    start_cell(n, m, p.overhang, bottom, lastcol, lane, &p1, &p2, &seg);
    __syncwarp(); /* the text overwrites lastcol */
    finish_pair(dsc, tb, S, p1, p2, seg, p.overhang, text, text_used, res, lane);
}


#if SW_TWIN_FILL
/* Pairs A and B filled together (sw_twin.cuh), then each one's start cell and CIGAR. */
__device__ __forceinline__ void twin_pair(const dpa_sw_desc &dA, const dpa_sw_desc &dB, const uint8_t *bases,
                          uint32_t *tb, int32_t *S, char *text, uint32_t *text_used,
                          dpa_sw_res *resA, dpa_sw_res *resB, const dpa_sw_kparams &p, int lane)
{
    const int n = max(dA.n, dB.n), m = max(dA.m, dB.m);
    const int strips = dpa_sw_gpu_strips(n), rows = dpa_sw_gpu_lane_rows(n);
    int4 *HV = (int4 *)S;
    int32_t *botA = S + 4 * (m + 1), *botB = botA + (m + 1), *lcA = botB + (m + 1),
            *lcB = lcA + (n + 1);
    uint32_t *nap = (uint32_t *)(lcB + (n + 1));
    const uint8_t *altA = bases + dA.alt, *altB = bases + dB.alt;
    for (int j = lane; j < m; j += 32) {
        const uint32_t a = j < dA.m ? altA[j] : 0u, b = j < dB.m ? altB[j] : 0u;
        nap[j] = ((0x10000u - a) & 0xffffu) | (((0x10000u - b) & 0xffffu) << 16);
    }
    __syncwarp();
    const uint8_t *refA = bases + dA.ref, *refB = bases + dB.ref;
    uint2 *tb2 = (uint2 *)tb;
#define TW_FILL(R)                                                                                 \
    tw_fill<R>(refA, dA.n, dA.m, refB, dB.n, dB.m, nap, n, m, p, tb2, HV, botA, botB, lcA, lcB,  \
               lane, strips)
    switch (rows) {
    case 1: TW_FILL(1); break;
    case 2: TW_FILL(2); break;
    case 3: TW_FILL(3); break;
    case 4: TW_FILL(4); break;
    case 5: TW_FILL(5); break;
    case 6: TW_FILL(6); break;
    case 7: TW_FILL(7); break;
    default: TW_FILL(8); break;
    }
#undef TW_FILL
    int p1a, p2a, sega, p1b, p2b, segb;
    start_cell(dA.n, dA.m, p.overhang, botA, lcA, lane, &p1a, &p2a, &sega);
    start_cell(dB.n, dB.m, p.overhang, botB, lcB, lane, &p1b, &p2b, &segb);
    __syncwarp(); /* the text overwrites the scratch */
    char *const text_end = (char *)(S + dpa_sw_gpu_twin_scr_words(n, m));
    for (int h = 0; h < 2; h++) {
        const tb_view2 tv = { tb2, m, rows, 32 * rows, h };
        int offset = 0;
        const int len = traceback_warp(tv, h ? p1b : p1a, h ? p2b : p2a, h ? segb : sega,
                                       p.overhang, text_end, &offset, lane);
        __syncwarp();
        put_result(text_end, len, offset, 0, text, text_used, h == 0 ? resA : resB, lane);
        __syncwarp();
    }
}
#endif

/* Pairs a and b (b < 0: none) of the chunk: exact-substring answers first; the others are
 * filled together when both fit the twin fill's range and the twin's cells (over the larger
 * n and m) cost less than their two single fills (a twin cell costs ~1.17 single cells:
 * docs/sw-cuda.md, "Twin fill"), else one after the other. */
__device__ __forceinline__ void sw_two(const dpa_sw_desc *descs, int a, int b, const uint8_t *bases, uint32_t *tb,
                       int32_t *S, sw_warp_smem *sm, char *text, uint32_t *text_used,
                       dpa_sw_res *res, const dpa_sw_kparams &p, int lane)
{
    const dpa_sw_desc dA = descs[a];
    const bool needA = !exact_pair(dA, bases, S, text, text_used, &res[a], p, lane);
    dpa_sw_desc dB = dA;
    bool needB = false;
    if (b >= 0) {
        dB = descs[b];
        needB = !exact_pair(dB, bases, S, text, text_used, &res[b], p, lane);
    }
#if SW_TWIN_FILL
    if (needA && needB && p.twin && !needs_cutoff(p, dA.n, dA.m) && !needs_cutoff(p, dB.n, dB.m) &&
        7 * fill_cells(max(dA.n, dB.n), max(dA.m, dB.m)) <
            6 * (fill_cells(dA.n, dA.m) + fill_cells(dB.n, dB.m))) {
        twin_pair(dA, dB, bases, tb, S, text, text_used, &res[a], &res[b], p, lane);
        return;
    }
#endif
    /* one call site: the single fill is inlined once */
    for (int h = 0; h < 2; h++) {
        if (h == 0 ? needA : needB)
            fill_pair(h == 0 ? dA : dB, bases, tb, S, sm, text, text_used, &res[h == 0 ? a : b],
                      p, lane);
        __syncwarp();
    }
}

/* The persistent grid: as many warps as the GPU holds at once (or fewer: the workspace
 * budget, DPACCEL_SW_GRID_WARPS), each taking the next pair from counters[1] until none is
 * left. The engine sorts pairs by cells, largest first, so the last pairs taken are the
 * shortest and the warps finish close together; no warp ever waits for a block or a wave,
 * and a warp's traceback and scratch are allocated once, for the chunk's largest pair,
 * instead of once per pair. */
__global__ void __launch_bounds__(32 * SW_WARPS_PER_BLOCK, SW_MIN_BLOCKS)
    sw_kernel(const dpa_sw_desc *__restrict__ descs, int np, const uint8_t *__restrict__ bases,
              uint8_t *ws, uint64_t tb_bytes, uint64_t scr_words, char *text, uint32_t *counters,
              dpa_sw_res *res, dpa_sw_kparams p)
{
    const int warp = blockIdx.x * SW_WARPS_PER_BLOCK + (threadIdx.x >> 5);
    const int lane = threadIdx.x & 31;
    uint8_t *const mine = ws + (size_t)warp * (size_t)(tb_bytes + 4 * scr_words);
    uint32_t *const tb = (uint32_t *)mine;
    int32_t *const S = (int32_t *)(mine + tb_bytes);
    extern __shared__ unsigned char sw_smem_raw[];
    sw_warp_smem *sm = (sw_warp_smem *)sw_smem_raw + (threadIdx.x >> 5);
    for (;;) {
        unsigned taken = 0;
        if (lane == 0) taken = atomicAdd(&counters[1], 1u); /* pairs 2 taken and 2 taken + 1 */
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 800
        /* REDUX writes a uniform register: ptxas then knows the whole warp takes the same
         * pair and keeps the loop convergent. With a shuffle it does not, and every global
         * access of the fill re-derives its memory descriptor (2 R2UR each, ~6% of the
         * steady loop's issue slots). */
        const int pair = (int)__reduce_max_sync(SW_FULL, taken);
#else
        const int pair = (int)__shfl_sync(SW_FULL, taken, 0);
#endif
        if (2 * pair >= np) return; /* the whole warp leaves together */
        sw_two(descs, 2 * pair, 2 * pair + 1 < np ? 2 * pair + 1 : -1, bases, tb, S, sm, text,
               &counters[0], res, p, lane);
        __syncwarp(); /* every lane is done with the workspace before the next pair's fill */
    }
}

#define SW_SMEM_BYTES (SW_WARPS_PER_BLOCK * sizeof(sw_warp_smem))

/* Shared memory before L1: 20 warps x 6.2 KB of tables need the larger carveout. */
static void sw_prefer_shared(void)
{
    (void)cudaFuncSetAttribute(sw_kernel, cudaFuncAttributePreferredSharedMemoryCarveout,
                               cudaSharedmemCarveoutMaxShared);
    (void)cudaGetLastError();
}

extern "C" int dpa_sw_resident_warps_per_sm(void)
{
    sw_prefer_shared();
    int nb = 0;
    if (cudaOccupancyMaxActiveBlocksPerMultiprocessor(&nb, sw_kernel, 32 * SW_WARPS_PER_BLOCK,
                                                      SW_SMEM_BYTES) != cudaSuccess) {
        (void)cudaGetLastError();
        return 0;
    }
    return nb * SW_WARPS_PER_BLOCK;
}

extern "C" cudaError_t dpa_sw_launch(const dpa_sw_desc *descs, int32_t np, const uint8_t *bases,
                                     uint8_t *ws, uint64_t tb_bytes, uint64_t scr_words,
                                     int32_t warps, char *text, uint32_t *counters,
                                     dpa_sw_res *res, dpa_sw_kparams p, cudaStream_t stream)
{
    if (np <= 0) return cudaSuccess;
    if (warps > (np + 1) / 2) warps = (np + 1) / 2; /* a warp takes two pairs at a time */
    if (warps < 1) warps = 1;
    const int blocks = (warps + SW_WARPS_PER_BLOCK - 1) / SW_WARPS_PER_BLOCK;
    sw_prefer_shared();
    sw_kernel<<<blocks, 32 * SW_WARPS_PER_BLOCK, SW_SMEM_BYTES, stream>>>(
        descs, np, bases, ws, tb_bytes, scr_words, text, counters, res, p);
    return cudaGetLastError();
}
