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
 *   3. start cell (warp reductions with GATK's tie rules), then lane 0 walks the traceback
 *      and writes the CIGAR text backwards into the pair's scratch;
 *   4. the text is appended to the chunk's text region (one atomicAdd reserves it).
 *
 * Integer safety: dpa_sw_validate() bounds every score and gap value of the real cells below
 * 2^30 in magnitude; rows beyond n are never computed, so nothing here overflows.
 */
#include <limits.h>

#include "sw_cuda.h"

#define SW_FULL 0xffffffffu
/* __launch_bounds__ minimum blocks per SM: 5 caps the fill at 96 registers (20 warps per SM)
 * without spills (nvcc 13.0, sm_90; 1 gave 126, 6 spilled) */
#ifndef SW_MIN_BLOCKS
#define SW_MIN_BLOCKS 5
#endif
#define SW_CUTOFF (-100000000)       /* GATK's MATRIX_MIN_CUTOFF */
#define SW_LOW_INIT (INT_MIN / 2)    /* GATK's initial best gap  */

enum { OV_SOFTCLIP = 0, OV_INDEL = 1, OV_LEADING_INDEL = 2, OV_IGNORE = 3 };
enum { OP_M = 0, OP_I = 1, OP_D = 2, OP_S = 3 };

__device__ __forceinline__ int border(const dpa_sw_kparams &p, int k)
{
    return (p.overhang == OV_INDEL || p.overhang == OV_LEADING_INDEL) ? p.open + (k - 1) * p.extend
                                                                      : 0;
}

/* Nibble of cell (i, j), 1-based. */
struct tb_view {
    const uint32_t *tb;
    int m, rows, strip; /* rows per lane, rows per strip */
    __device__ __forceinline__ unsigned get(int i, int j) const
    {
        const int r = i - 1, s = r / strip, w = r - s * strip, lane = w / rows, q = w - lane * rows;
        const uint32_t word = tb[((size_t)s * (m + 31) + (j - 1 + lane)) * 32 + lane];
        return (word >> (4 * q)) & 15u;
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

/* One lane's cells of one column: R rows, the first nv valid (CHECKED) or all of them. A
 * template per row count so the full strips run without a bounds test per row. */
template <int R, bool CHECKED>
__device__ __forceinline__ uint32_t lane_cells(int (&left)[SW_LANE_ROWS], int (&hgap)[SW_LANE_ROWS],
                                               const uint32_t (&rc)[SW_LANE_ROWS], int nv,
                                               unsigned c, const dpa_sw_kparams &p, int dg,
                                               int &H, int &V)
{
    uint32_t word = 0;
#pragma unroll
    for (int q = 0; q < R; q++) {
        if (!CHECKED || q < nv) {
            const int d = dg + (rc[q] == c ? p.match : p.mismatch);
            bool v_keep, h_keep, right, diag;
            /* GATK: the gap opens only when strictly better (a >= b keeps) */
            V = __vibmax_s32(V + p.extend, H + p.open, &v_keep);
            hgap[q] = __vibmax_s32(hgap[q] + p.extend, left[q] + p.open, &h_keep);
            const int hv = __vibmax_s32(hgap[q], V, &right);
            const int best = __vibmax_s32(d, hv, &diag);
            const int val = max(best, SW_CUTOFF);
            word |= ((diag ? (uint32_t)SW_NIB_DIAG : 0u) | (right ? (uint32_t)SW_NIB_RIGHT : 0u) |
                     (h_keep ? (uint32_t)SW_NIB_H_KEEP : 0u) |
                     (v_keep ? (uint32_t)SW_NIB_V_KEEP : 0u))
                    << (4 * q);
            dg = left[q];
            left[q] = val;
            H = val;
        }
    }
    return word;
}

template <int R>
__device__ void fill(const uint8_t *ref, int n, const uint8_t *alt, int m, const dpa_sw_kparams &p,
                     uint32_t *tb, int32_t *Hb, int32_t *Vb, int32_t *bottom, int32_t *lastcol,
                     int lane, int strips)
{
    const int strip_rows = 32 * R;
    for (int j = lane; j <= m; j += 32) {
        Hb[j] = j == 0 ? 0 : border(p, j);
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
        int left[SW_LANE_ROWS], hgap[SW_LANE_ROWS];
        uint32_t rc[SW_LANE_ROWS];
#pragma unroll
        for (int q = 0; q < SW_LANE_ROWS; q++) {
            /* rows beyond n stay untouched: their border could overflow */
            rc[q] = q < nv ? ref[r0 + q] : 0u;
            left[q] = q < nv ? border(p, r0 + q + 1) : 0;
            hgap[q] = SW_LOW_INIT;
        }
        int diag_top = (r0 == 0 || nv <= 0) ? 0 : border(p, r0); /* H[r0][j-1], row above */
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
        for (int t = 0; t < steps; t++) {
            int upH = __shfl_up_sync(SW_FULL, outH, 1);
            int upV = __shfl_up_sync(SW_FULL, outV, 1);
            const int j = t - lane + 1;
            if (lane == 0) {
                upH = h1;
                upV = v1;
                h1 = h2;
                v1 = v2;
                if (j + 2 <= m) {
                    h2 = Hb[j + 2];
                    v2 = Vb[j + 2];
                }
            }
            const unsigned c = c_next;
            if (j >= 0 && j < m) c_next = alt[j]; /* base of column j + 1, next step */
            if (j >= 1 && j <= m && nv > 0) {
                const int dg = diag_top;
                diag_top = upH;
                int H = upH, V = upV;
                const uint32_t word = full ? lane_cells<R, false>(left, hgap, rc, nv, c, p, dg, H, V)
                                           : lane_cells<R, true>(left, hgap, rc, nv, c, p, dg, H, V);
                outH = H;
                outV = V;
                tbs[(size_t)t * 32 + lane] = word;
                if (j == m) {
#pragma unroll
                    for (int q = 0; q < SW_LANE_ROWS; q++)
                        if (q < nv) lastcol[r0 + q + 1] = left[q];
                }
                if (has_bottom) bottom[j] = H;
                if (lane == 31 && !last_strip) {
                    Hb[j] = H;
                    Vb[j] = V;
                }
            }
        }
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
        switch (rows) { /* rows is 1..8 (sw_cuda.h) */
        case 1: fill<1>(ref, n, alt, m, p, ptb, Hb, Vb, bottom, lastcol, lane, strips); break;
        case 2: fill<2>(ref, n, alt, m, p, ptb, Hb, Vb, bottom, lastcol, lane, strips); break;
        case 3: fill<3>(ref, n, alt, m, p, ptb, Hb, Vb, bottom, lastcol, lane, strips); break;
        case 4: fill<4>(ref, n, alt, m, p, ptb, Hb, Vb, bottom, lastcol, lane, strips); break;
        case 5: fill<5>(ref, n, alt, m, p, ptb, Hb, Vb, bottom, lastcol, lane, strips); break;
        case 6: fill<6>(ref, n, alt, m, p, ptb, Hb, Vb, bottom, lastcol, lane, strips); break;
        case 7: fill<7>(ref, n, alt, m, p, ptb, Hb, Vb, bottom, lastcol, lane, strips); break;
        default: fill<8>(ref, n, alt, m, p, ptb, Hb, Vb, bottom, lastcol, lane, strips); break;
        }
        int p1, p2, seg;
        start_cell(n, m, p.overhang, bottom, lastcol, lane, &p1, &p2, &seg);
        __syncwarp(); /* the scratch becomes the text buffer */
        if (lane == 0) {
            const tb_view tv = { ptb, m, rows, 32 * rows };
            txt = traceback(tv, p1, p2, seg, p.overhang, text_end, &offset);
        }
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

extern "C" cudaError_t dpa_sw_launch(const dpa_sw_desc *descs, int32_t np, const uint8_t *bases,
                                     uint32_t *tb, int32_t *scr, char *text, uint32_t *text_used,
                                     dpa_sw_res *res, dpa_sw_kparams p, cudaStream_t stream)
{
    if (np <= 0) return cudaSuccess;
    const int blocks = (np + SW_WARPS_PER_BLOCK - 1) / SW_WARPS_PER_BLOCK;
    sw_kernel<<<blocks, 32 * SW_WARPS_PER_BLOCK, 0, stream>>>(descs, np, bases, tb, scr, text,
                                                               text_used, res, p);
    return cudaGetLastError();
}
