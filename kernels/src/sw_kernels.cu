/*
 * sw_kernels.cu — the Smith-Waterman kernel: one warp per pair, GATK 4.6's recurrence and
 * tie-breaking exactly as the scalar reference (native/src/cpu/sw/sw_ref.c, docs/sw.md).
 *
 * Per pair:
 *   1. SOFTCLIP / IGNORE: GATK's exact-substring shortcut, candidates tested 32 at a time
 *      from the last one (the warp's ballot picks the last occurrence);
 *   2. fill: anti-diagonal wavefront over row strips (geometry in sw_cuda.h). A lane keeps
 *      its rows' left score and running horizontal gap in registers; the score and running
 *      vertical gap of its last row go to the next lane by one shuffle each per step; the
 *      strip's last row goes through Hb/Vb in scratch to the next strip. Column m and row n
 *      are kept for the start cell;
 *   3. start cell (warp reductions with GATK's tie rules), left in res for
 *   4. sw_tb_kernel (one thread per pair, launched right after on the same stream): GATK's
 *      traceback, the CIGAR text built backwards in the pair's scratch, then appended to
 *      the chunk's text region (one atomicAdd reserves it).
 *
 * Integer safety: dpa_sw_validate() bounds every score and gap value of the real cells below
 * 2^30 in magnitude; rows beyond n are never computed, so nothing here overflows.
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
#define SW_TB_THREADS 32   /* few pairs per block: the traceback spreads over every SM */
#define SW_RES_TRACEBACK (-1) /* res[].exact of a pair whose traceback is still to run */
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
    int match_o, mismatch_o, open, extend, one, minus_one;
};

/* Appends the sign bit of diff (1: diff < 0) to word. */
__device__ __forceinline__ uint32_t push_sign(uint32_t word, int diff)
{
    return __funnelshift_l((uint32_t)diff, word, 1);
}

/* One cell of GATK's recurrence. The traceback bits are the sign bits of four differences:
 * vertical gap opened (V + e < HO), horizontal gap opened (h + e < leftO), down rather than
 * right (h < V), not diagonal (d < max(h, V)); GATK's ">=" keeps are their complements. The
 * differences cannot overflow: dpa_sw_validate bounds every value by W * (L + 1) with
 * W * (L + 2) < 2^30, and the lowest operand is the initial gap -2^30 plus one extend. */
template <bool CUT>
__device__ __forceinline__ void cell(int &V, int &hg, int &left_o, int &dg_o, int &ho, int s_o,
                                     const cell_k &k, uint32_t &word)
{
    const int v_e = V * k.one + k.extend;
    const int dv = ho * k.minus_one + v_e;
    V = max(v_e, ho);
    const int h_e = hg * k.one + k.extend;
    const int dh = left_o * k.minus_one + h_e;
    hg = max(h_e, left_o);
    const int dr = V * k.minus_one + hg;
    const int hv = max(hg, V);
    const int d = dg_o * k.one + s_o;
    const int dd = hv * k.minus_one + d;
    int best = max(d, hv);
    if (CUT) best = max(best, SW_CUTOFF);
    word = push_sign(push_sign(push_sign(push_sign(word, dv), dh), dr), dd);
    dg_o = left_o;
    ho = best * k.one + k.open;
    left_o = ho;
}

/* One lane's cells of one column: R rows, the first nv valid (CHECKED) or all of them. A
 * template per row count so the full strips run without a bounds test per row. */
template <int R, bool CHECKED, bool CUT>
__device__ __forceinline__ uint32_t lane_cells(int (&left_o)[SW_LANE_ROWS], int (&hgap)[SW_LANE_ROWS],
                                               const uint32_t (&rc)[SW_LANE_ROWS], int nv,
                                               unsigned c, const cell_k &k, int dg_o, int &ho,
                                               int &V)
{
    uint32_t word = 0;
#pragma unroll
    for (int q = 0; q < R; q++) {
        if (!CHECKED || q < nv)
            cell<CUT>(V, hgap[q], left_o[q], dg_o, ho, rc[q] == c ? k.match_o : k.mismatch_o, k,
                      word);
    }
    /* rows past n leave their nibbles out: shift the valid ones to their row's place */
    if (CHECKED) word <<= 4 * (R - max(nv, 1)); /* lanes past n: nothing pushed, word 0 */
    return word;
}

/* The wavefront over the strips. Hb (and every H a lane passes on) holds H + open. */
template <int R, bool CUT>
__device__ void fill(const uint8_t *ref, int n, const uint8_t *alt, int m, const dpa_sw_kparams &p,
                     uint32_t *tb, int32_t *Hb, int32_t *Vb, int32_t *bottom, int32_t *lastcol,
                     int lane, int strips)
{
    const cell_k k = { p.match - p.open, p.mismatch - p.open, p.open, p.extend, p.one,
                       p.minus_one };
    const int strip_rows = 32 * R;
    for (int j = lane; j <= m; j += 32) {
        Hb[j] = (j == 0 ? 0 : border(p, j)) + p.open;
        Vb[j] = SW_LOW_INIT;
    }
    __syncwarp();
    const int steps = m + 31;
    for (int s = 0; s < strips; s++) {
        const int r0 = s * strip_rows + lane * R; /* 0-based first row of this lane */
        const int nv = min(R, n - r0);            /* rows of this lane inside the matrix */
        const bool full = nv == R;
        const bool last_strip = s == strips - 1;
        const bool has_bottom = last_strip && nv > 0 && n - r0 <= R;
        int left_o[SW_LANE_ROWS], hgap[SW_LANE_ROWS];
        uint32_t rc[SW_LANE_ROWS];
#pragma unroll
        for (int q = 0; q < SW_LANE_ROWS; q++) {
            /* rows beyond n stay untouched: their border could overflow */
            rc[q] = q < nv ? ref[r0 + q] : 0u;
            left_o[q] = q < nv ? border(p, r0 + q + 1) + p.open : 0;
            hgap[q] = SW_LOW_INIT;
        }
        /* H[r0][j-1] + open, the row above */
        int diag_top = ((r0 == 0 || nv <= 0) ? 0 : border(p, r0)) + p.open;
        int outH = 0, outV = 0;                      /* this lane's last row at its column */
        uint32_t *tbs = tb + (size_t)s * steps * 32;
        /* lane 0 reads the strip above from Hb/Vb two steps ahead; every lane reads its
         * alternate base one step ahead, so no load sits on the wavefront's path */
        int h1 = 0, v1 = 0, h2 = 0, v2 = 0;
        if (lane == 0) {
            if (1 <= m) { h1 = Hb[1]; v1 = Vb[1]; }
            if (2 <= m) { h2 = Hb[2]; v2 = Vb[2]; }
        }
        unsigned c_next = (lane == 0 && m >= 1) ? alt[0] : 0u;
        const bool hb_writer = lane == 31 && !last_strip;
        /* One step. EDGE steps (the wavefront's fill and drain, the last columns) test
         * every bound; the steady steps in between have every lane on a column in [1, m - 1]
         * and lane 0 two columns of Hb ahead inside the row, so they test nothing. */
        auto step = [&](int t, bool edge) {
            int upH = __shfl_up_sync(SW_FULL, outH, 1);
            int upV = __shfl_up_sync(SW_FULL, outV, 1);
            const int j = t - lane + 1;
            if (lane == 0) {
                upH = h1;
                upV = v1;
                h1 = h2;
                v1 = v2;
                if (!edge || j + 2 <= m) {
                    h2 = Hb[j + 2];
                    v2 = Vb[j + 2];
                }
            }
            const unsigned c = c_next;
            if (!edge || (j >= 0 && j < m)) c_next = alt[j]; /* base of column j + 1 */
            if (!edge || (j >= 1 && j <= m && nv > 0)) {
                const int dg = diag_top;
                diag_top = upH;
                int H = upH, V = upV;
                const uint32_t word =
                    full ? lane_cells<R, false, CUT>(left_o, hgap, rc, nv, c, k, dg, H, V)
                         : lane_cells<R, true, CUT>(left_o, hgap, rc, nv, c, k, dg, H, V);
                outH = H;
                outV = V;
                tbs[(size_t)t * 32 + lane] = word;
                if (edge && j == m) {
#pragma unroll
                    for (int q = 0; q < SW_LANE_ROWS; q++)
                        if (q < nv) lastcol[r0 + q + 1] = left_o[q] - p.open;
                }
                if (has_bottom) bottom[j] = H - p.open;
                if (hb_writer) {
                    Hb[j] = H;
                    Vb[j] = V;
                }
            }
        };
        /* steady steps: t in [31, m - 3] (lane 31 at column >= 1, lane 0 reads Hb[t + 3]) */
        const int s0 = min(31, steps), s1 = max(s0, m - 2);
        for (int t = 0; t < s0; t++) step(t, true);
        for (int t = s0; t < s1; t++) step(t, false);
        for (int t = s1; t < steps; t++) step(t, true);
        __syncwarp();
    }
}

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

/* GATK's traceback and CIGAR (one thread): the text ends at end; returns its start. */
__device__ char *traceback(const tb_view &tv, int p1, int p2, int seg, int ov, char *end,
                           int *offset)
{
    char *w = end;
    if (seg > 0 && ov == OV_SOFTCLIP) {
        emit_back(&w, seg, OP_S);
        seg = 0;
    }
    int state = OP_M;
    do {
        const unsigned t = tv.get(p1, p2);
        int nstate, step;
        if (t & SW_NIB_DIAG) {
            nstate = OP_M;
            step = 1;
            p1--;
            p2--;
        } else if (t & SW_NIB_RIGHT) {
            /* the gap GATK recorded: back to the column where it was opened */
            int k = p2;
            while (k > 1 && (tv.get(p1, k) & SW_NIB_H_KEEP)) k--;
            nstate = OP_I;
            step = p2 - k + 1;
            p2 -= step;
        } else {
            int r = p1;
            while (r > 1 && (tv.get(r, p2) & SW_NIB_V_KEEP)) r--;
            nstate = OP_D;
            step = p1 - r + 1;
            p1 -= step;
        }
        if (nstate == state) {
            seg += step;
        } else {
            if (seg > 0) emit_back(&w, seg, state);
            seg = step;
            state = nstate;
        }
    } while (p1 > 0 && p2 > 0);

    if (ov == OV_SOFTCLIP) {
        emit_back(&w, seg, state);
        if (p2 > 0) emit_back(&w, p2, OP_S);
        *offset = p1;
    } else if (ov == OV_IGNORE) {
        emit_back(&w, seg + p2, state); /* the leading overhang joins the last state */
        *offset = p1 - p2;
    } else {
        emit_back(&w, seg, state);
        if (p1 > 0)
            emit_back(&w, p1, OP_D);
        else if (p2 > 0)
            emit_back(&w, p2, OP_I);
        *offset = 0;
    }
    return w;
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

__global__ void __launch_bounds__(32 * SW_WARPS_PER_BLOCK, SW_MIN_BLOCKS)
    sw_kernel(const dpa_sw_desc *__restrict__ descs, int np, const uint8_t *__restrict__ bases,
              uint32_t *tb, int32_t *scr, char *text, uint32_t *text_used,
              dpa_sw_res *res, dpa_sw_kparams p)
{
    const int pair = blockIdx.x * SW_WARPS_PER_BLOCK + (threadIdx.x >> 5);
    const int lane = threadIdx.x & 31;
    if (pair >= np) return; /* the whole warp leaves together */
    const dpa_sw_desc dsc = descs[pair];
    const int n = dsc.n, m = dsc.m;
    const uint8_t *ref = bases + dsc.ref, *alt = bases + dsc.alt;
    int32_t *S = scr + dsc.scr;
    char *const text_end = (char *)(S + dpa_sw_gpu_scr_words(n, m));
    char *txt = text_end;
    int offset = 0, exact = 0;

    if ((p.overhang == OV_SOFTCLIP || p.overhang == OV_IGNORE) && m <= n) {
        const int r = last_index_of(ref, n, alt, m, lane);
        if (r >= 0) {
            exact = 1;
            offset = r;
            if (lane == 0) emit_back(&txt, m, OP_M);
        }
    }
    if (!exact) {
        const int strips = dpa_sw_gpu_strips(n), rows = dpa_sw_gpu_lane_rows(n);
        int32_t *Hb = S, *Vb = S + (m + 1), *bottom = S + 2 * (m + 1), *lastcol = S + 3 * (m + 1);
        uint32_t *ptb = tb + (size_t)dsc.tb * 32;
        /* MATRIX_MIN_CUTOFF can bind only when some value may fall below it */
        const int64_t w = (int64_t)abs(p.match) + abs(p.mismatch) + abs(p.open) + abs(p.extend);
        const bool cut = w * ((int64_t)n + m + 1) >= -(int64_t)SW_CUTOFF;
#define SW_FILL(R)                                                                                 \
    (cut ? fill<R, true>(ref, n, alt, m, p, ptb, Hb, Vb, bottom, lastcol, lane, strips)            \
         : fill<R, false>(ref, n, alt, m, p, ptb, Hb, Vb, bottom, lastcol, lane, strips))
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
        /* the traceback runs in sw_tb_kernel, one thread per pair: a lane walking it here
         * would hold the whole warp's slot idle for ~n + m dependent loads */
        if (lane == 0) {
            dpa_sw_res r;
            r.pos = (uint32_t)p1;
            r.len = p2;
            r.offset = seg;
            r.exact = SW_RES_TRACEBACK;
            res[pair] = r;
        }
        return;
    }
    int len = (int)(text_end - txt);
    len = __shfl_sync(SW_FULL, len, 0);
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
        res[pair] = r;
    }
}

/* GATK's traceback of the pairs the fill left marked (p1, p2, trailing overhang in res),
 * one thread per pair; the CIGAR text is built backwards in the pair's scratch, whose score
 * rows are dead by now, then appended to the chunk's text region. */
__global__ void __launch_bounds__(SW_TB_THREADS)
    sw_tb_kernel(const dpa_sw_desc *__restrict__ descs, int np, const uint32_t *tb, int32_t *scr,
                 char *text, uint32_t *text_used, dpa_sw_res *res, int overhang)
{
    const int pair = blockIdx.x * SW_TB_THREADS + threadIdx.x;
    if (pair >= np) return;
    const dpa_sw_res in = res[pair];
    if (in.exact != SW_RES_TRACEBACK) return;
    const dpa_sw_desc dsc = descs[pair];
    const int n = dsc.n, m = dsc.m, rows = dpa_sw_gpu_lane_rows(n);
    char *const text_end = (char *)(scr + dsc.scr + dpa_sw_gpu_scr_words(n, m));
    const tb_view tv = { tb + (size_t)dsc.tb * 32, m, rows, 32 * rows };
    int offset = 0;
    const char *txt = traceback(tv, (int)in.pos, in.len, in.offset, overhang, text_end, &offset);
    const int len = (int)(text_end - txt);
    const uint32_t pos = atomicAdd(text_used, (uint32_t)len);
    for (int k = 0; k < len; k++) text[pos + k] = txt[k];
    dpa_sw_res r;
    r.pos = pos;
    r.len = len;
    r.offset = offset;
    r.exact = 0;
    res[pair] = r;
}

extern "C" cudaError_t dpa_sw_launch(const dpa_sw_desc *descs, int32_t np, const uint8_t *bases,
                                     uint32_t *tb, int32_t *scr, char *text, uint32_t *text_used,
                                     dpa_sw_res *res, dpa_sw_kparams p, cudaStream_t stream)
{
    if (np <= 0) return cudaSuccess;
    const int blocks = (np + SW_WARPS_PER_BLOCK - 1) / SW_WARPS_PER_BLOCK;
    sw_kernel<<<blocks, 32 * SW_WARPS_PER_BLOCK, 0, stream>>>(descs, np, bases, tb, scr, text,
                                                               text_used, res, p);
    const cudaError_t e = cudaGetLastError();
    if (e != cudaSuccess) return e;
    sw_tb_kernel<<<(np + SW_TB_THREADS - 1) / SW_TB_THREADS, SW_TB_THREADS, 0, stream>>>(
        descs, np, tb, scr, text, text_used, res, p.overhang);
    return cudaGetLastError();
}
