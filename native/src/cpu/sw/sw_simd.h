/*
 * sw_simd.h — the Smith-Waterman score / traceback fill shared by sw_avx2.c and
 * sw_avx512.c, written once as a template over the vector width (the same idea as
 * pairhmm_simd.h). Only the fill is vectorised: the exact-substring shortcut, the start
 * cell, the traceback and the CIGAR text are the scalar reference's own code
 * (dpa_sw_exact_shortcut, dpa_sw_finish in sw_ref.c), so results are byte-identical as long
 * as the fill writes the same traceback bytes, last column and bottom row. See
 * docs/sw-simd.md for the design and the numbers.
 *
 * Vectorisation (intra-task, one pair at a time, GATK's one-pair-per-call binding):
 * the reference rows are cut into strips of SW_W rows. Lane k of a vector holds row
 * r0 + k + 1 of the strip starting at row r0; step t of the strip moves every lane one
 * column right, lane k being at column j = t - k + 1 (an anti-diagonal inside the strip).
 * GATK's recurrence (docs/sw.md, sw_ref.c fill()) then has all its inputs in the previous
 * step:
 *   H[i][j-1]      same lane, step t-1                 (Hl)
 *   H[i-1][j]      lane k-1, step t-1 (lane 0: topH[j])  (Hu = shift-in of Hl)
 *   H[i-1][j-1]    Hu of step t-1                      (Hd)
 *   h (best horizontal gap of row i, a running value per row)   stays in lane k
 *   V[j] (best vertical gap of column j, running per column)    lane k-1, step t-1 (lane 0:
 *                  topV[j], the value the previous strip's last row left)
 * so one step is one vector of SW_W cells with no horizontal dependency inside it. The
 * strip's last row (lane ko) is written back into topH / topV in place (column t - ko + 1 is
 * always behind column t + 1, the one lane 0 reads), which makes them the next strip's top
 * row and, after the last strip, the bottom row. Column m is stored into lastcol lane by lane
 * in the strip's last SW_W - 1 steps.
 *
 * Lanes outside the matrix (steps before a lane's column 1, columns beyond m, rows beyond n)
 * compute garbage that only flows to cells further right or down, which are outside the
 * matrix too; the prologue (t < SW_W - 1) forces the not-yet-started lanes to H[i][0] (the
 * border) and h = LOW_INIT, which is what their first real cell reads.
 *
 * Traceback: step t of a strip is SW_TB_STEP consecutive bytes: AVX2 writes SW_W bytes (lane
 * k = byte k, layout SW_LOG2W of sw.h), AVX-512 stores its four compare masks as 16-bit
 * planes (layout DPA_SW_TB_PLANES16: no instruction builds bytes, half the memory). Either
 * decodes (dpa_sw_tb_get) to exactly fill()'s byte (direction with GATK's tie-breaks,
 * H_OPEN / V_OPEN on strictly greater). The MATRIX_MIN_CUTOFF floor
 * is applied only when some cell could reach it (lower bound below), which is exact.
 *
 * Parameters of SW_PART_KERNEL (all defined by the includer):
 *   SW_W, SW_LOG2W     lanes per vector (int32) and its log2
 *   SW_TB_STEP, SW_TB_LAYOUT   traceback bytes per step and the layout (sw.h) they form
 *   SW_VEC             vector of SW_W int32;  SW_MASK: per-lane boolean (k-mask or vector)
 *   SW_BYTES           vector holding (at least) SW_W bytes
 *   SW_FN(x)           name of this ISA's instance of x;  SW_ALIGN, SW_COMPUTE: the entries
 *                      (SW_COMPUTE optional: without it only SW_ALIGN is defined)
 *   SW_CONSTS          declarations of ISA constants the macros below use (once per fill)
 *   SW_SET1(x), SW_LOADU(p)          broadcast; unaligned load of SW_W int32
 *   SW_LOAD_BYTES(p)   SW_W bytes from p (unaligned)
 *   SW_ADD(a, b), SW_MAX(a, b)       int32 lane-wise
 *   SW_GT(a, b)        mask a > b (signed)
 *   SW_BLEND(k, a, b)  per lane k ? a : b
 *   SW_SCORE(rb, p, vm, vx)  per lane: rb byte k == p[k] ? vm : vx
 *   SW_SHIFT_IN(v, p)  lanes [*p, v[0], ..., v[W-2]] (reads at most p[-(W-1)] .. p[0])
 *   SW_STORE_LANE(p, v, k)   p[k] = v[k], nothing else written
 *   SW_STARTED(t)      mask of lanes k <= t
 *   SW_STORE_TB(p, nd, dn, ho, vo)   the traceback of one step (SW_TB_STEP bytes at p) in
 *                      layout SW_TB_LAYOUT (sw.h): cell k is (nd ? (dn ? DOWN : RIGHT) : DIAG)
 *                      | (ho ? H_OPEN : 0) | (vo ? V_OPEN : 0); bytes (AVX2: SW_W of them) or
 *                      four 16-bit planes (AVX-512: nd, nd & dn, ho, vo as stored masks)
 */
#ifndef DPA_CPU_SW_SIMD_COMMON_H
#define DPA_CPU_SW_SIMD_COMMON_H

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "common/status.h"
#include "cpu/sw/sw.h"

static inline int sw_simd_grow(void **p, int64_t *cap, int64_t need, size_t elem)
{
    if (need <= *cap) return 1;
    void *q = malloc((size_t)need * elem);
    if (!q) return 0;
    free(*p);
    *p = q;
    *cap = need;
    return 1;
}

/* H[k][0] / H[0][k] for 1 <= k (fill()'s border()); 64-bit so rows past n (garbage lanes of
 * the last strip) cannot overflow, then cut to int32 (those lanes are never read). */
static inline int32_t sw_simd_border(const dpa_sw_params *p, int64_t k)
{
    if (p->overhang != DPA_SW_OVERHANG_INDEL && p->overhang != DPA_SW_OVERHANG_LEADING_INDEL)
        return 0;
    int64_t v = p->gap_open + (k - 1) * (int64_t)p->gap_extend;
    if (v < INT32_MIN / 2) v = INT32_MIN / 2;
    if (v > INT32_MAX / 2) v = INT32_MAX / 2;
    return (int32_t)v;
}

/* 1 when some cell could fall below MATRIX_MIN_CUTOFF: every H[i][j] >= its diagonal
 * predecessor + min(match, mismatch), down to a border cell, so
 * H >= min(0, lowest border) + min(n, m) * min(0, match, mismatch). */
static inline int sw_simd_needs_cutoff(const dpa_sw_params *p, int32_t n, int32_t m)
{
    int64_t lo = 0;
    if (p->overhang == DPA_SW_OVERHANG_INDEL || p->overhang == DPA_SW_OVERHANG_LEADING_INDEL) {
        const int64_t k = n > m ? n : m;
        int64_t b1 = p->gap_open, bk = p->gap_open + (k - 1) * (int64_t)p->gap_extend;
        lo = b1 < bk ? b1 : bk;
        if (lo > 0) lo = 0;
    }
    int64_t s = p->match < p->mismatch ? p->match : p->mismatch;
    if (s > 0) s = 0;
    lo += (int64_t)(n < m ? n : m) * s;
    return lo < DPA_SW_MATRIX_MIN_CUTOFF;
}

#endif /* DPA_CPU_SW_SIMD_COMMON_H */

#ifdef SW_PART_KERNEL

/* One step of a strip (see the top of the file); PRO: prologue (mask lanes not started),
 * EPI: column m is in some lane (store it into lastcol), CUT: apply MATRIX_MIN_CUTOFF. */
#define SW_STEP(PRO, EPI, CUT)                                                               \
    do {                                                                                     \
        const SW_VEC Hu = SW_SHIFT_IN(Hl, topH + t + 1);     /* lane k: H[i-1][j] */         \
        const SW_VEC Vu = SW_SHIFT_IN(V, topV + t + 1);      /* lane k: V[j] before row i */ \
        const SW_VEC diag = SW_ADD(Hd, SW_SCORE(refb, altrev + (m - 1 - t), vmatch, vmis));  \
        const SW_VEC ve = SW_ADD(Vu, vext), vg = SW_ADD(Hu, vopen);                          \
        const SW_MASK vo = SW_GT(vg, ve);                    /* vertical gap opened here */   \
        V = SW_MAX(vg, ve);                                                                  \
        const SW_VEC he = SW_ADD(hh, vext), hg = SW_ADD(Hl, vopen);                          \
        const SW_MASK ho = SW_GT(hg, he);                    /* horizontal gap opened */      \
        hh = SW_MAX(hg, he);                                                                 \
        const SW_VEC gm = SW_MAX(hh, V);                                                     \
        const SW_MASK nd = SW_GT(gm, diag);  /* not diagonal: V > diag or h > diag */         \
        const SW_MASK dn = SW_GT(V, hh);     /* down wins over right (used only under nd) */  \
        SW_VEC Hn = SW_MAX(diag, gm);        /* the chosen value is always the maximum */     \
        if (CUT) Hn = SW_MAX(Hn, vcut);                                                      \
        SW_STORE_TB(tbs + (int64_t)t * SW_TB_STEP, nd, dn, ho, vo);                                \
        if (PRO) {                                                                           \
            const SW_MASK st = SW_STARTED(t);                                                \
            Hn = SW_BLEND(st, Hn, Hinit);                                                    \
            hh = SW_BLEND(st, hh, vlow);                                                     \
        }                                                                                    \
        SW_STORE_LANE(topH + t + 1 - 2 * ko, Hn, ko);        /* row r0+ko+1, column t-ko+1 */ \
        SW_STORE_LANE(topV + t + 1 - 2 * ko, V, ko);                                         \
        if (EPI) SW_STORE_LANE(lastcol + r0 + 1, Hn, t - (m - 1));                           \
        Hd = Hu;                                                                             \
        Hl = Hn;                                                                             \
    } while (0)

static inline __attribute__((always_inline)) void
SW_FN(sw_strip)(const int cut, const uint8_t *refpad, const uint8_t *altrev, int32_t n,
                int32_t m, int32_t r0, const dpa_sw_params *p, uint8_t *tb, int32_t *topH,
                int32_t *topV, int32_t *lastcol)
{
    SW_CONSTS;
    const SW_VEC vopen = SW_SET1(p->gap_open), vext = SW_SET1(p->gap_extend);
    const SW_VEC vmatch = SW_SET1(p->match), vmis = SW_SET1(p->mismatch);
    const SW_VEC vlow = SW_SET1(DPA_SW_LOW_INIT), vcut = SW_SET1(DPA_SW_MATRIX_MIN_CUTOFF);
    (void)vcut;
    (void)vmatch;
    const int32_t ko = n - 1 - r0 < SW_W - 1 ? n - 1 - r0 : SW_W - 1; /* the strip's last row */
    const SW_BYTES refb = SW_LOAD_BYTES(refpad + r0);
    int32_t init[SW_W];
    for (int k = 0; k < SW_W; k++)
        init[k] = r0 + k + 1 <= n ? sw_simd_border(p, (int64_t)r0 + k + 1) : 0;
    const SW_VEC Hinit = SW_LOADU(init);
    SW_VEC Hl = Hinit, hh = vlow, V = vlow, Hd = SW_SET1(topH[0]);
    uint8_t *tbs = tb + (int64_t)(r0 >> SW_LOG2W) * (int64_t)(m + SW_W - 1) * SW_TB_STEP;
    const int32_t T = m + SW_W - 1;
    int32_t t = 0;
    if (cut) {
        for (; t < SW_W - 1; t++) SW_STEP(1, t >= m - 1, 1);
        _Pragma("GCC unroll 2") for (; t < m - 1; t++) SW_STEP(0, 0, 1);
        for (; t < T; t++) SW_STEP(0, 1, 1);
    } else {
        for (; t < SW_W - 1; t++) SW_STEP(1, t >= m - 1, 0);
        _Pragma("GCC unroll 2") for (; t < m - 1; t++) SW_STEP(0, 0, 0);
        for (; t < T; t++) SW_STEP(0, 1, 0);
    }
}
#undef SW_STEP

static void SW_FN(sw_strip_cut)(const uint8_t *refpad, const uint8_t *altrev, int32_t n,
                                int32_t m, int32_t r0, const dpa_sw_params *p, uint8_t *tb,
                                int32_t *topH, int32_t *topV, int32_t *lastcol)
{
    SW_FN(sw_strip)(1, refpad, altrev, n, m, r0, p, tb, topH, topV, lastcol);
}

static void SW_FN(sw_strip_nocut)(const uint8_t *refpad, const uint8_t *altrev, int32_t n,
                                  int32_t m, int32_t r0, const dpa_sw_params *p, uint8_t *tb,
                                  int32_t *topH, int32_t *topV, int32_t *lastcol)
{
    SW_FN(sw_strip)(0, refpad, altrev, n, m, r0, p, tb, topH, topV, lastcol);
}

dpa_status SW_ALIGN(const uint8_t *ref, int32_t n, const uint8_t *alt, int32_t m,
                    const dpa_sw_params *p, dpa_sw_scratch *s, char *cigar, int32_t *cigar_len,
                    int32_t *alignment_offset, int *exact)
{
    *exact = dpa_sw_exact_shortcut(ref, n, alt, m, p, cigar, cigar_len, alignment_offset);
    if (*exact) return DPA_OK;

    /* ints: topH and topV (2W before index 0, m + 2W after), lastcol (n + W + 2), then the
     * padded reversed alternate and padded reference as bytes. */
    const int64_t top = 2 * SW_W + (int64_t)m + 2 * SW_W + 1;
    const int64_t lcn = (int64_t)n + SW_W + 2;
    const int64_t altb = (int64_t)m + 2 * SW_W + 16, refb = (int64_t)n + SW_W + 16;
    const int64_t ints = 2 * top + lcn + (altb + 3) / 4 + (refb + 3) / 4;
    const int64_t strips = ((int64_t)n + SW_W - 1) >> SW_LOG2W;
    if (!sw_simd_grow((void **)&s->tb, &s->tb_cap, strips * (int64_t)(m + SW_W - 1) * SW_TB_STEP,
                      1) ||
        !sw_simd_grow((void **)&s->ints, &s->ints_cap, ints, sizeof(int32_t)) ||
        !sw_simd_grow((void **)&s->elems, &s->elems_cap, (int64_t)n + m + 3, sizeof(int32_t)))
        return dpa_fail(DPA_ERR_OUT_OF_MEMORY,
                        "sw: out of memory for the traceback of a %d x %d pair", n, m);

    int32_t *topH = s->ints + 2 * SW_W;
    int32_t *topV = topH + top;
    int32_t *lastcol = s->ints + 2 * top;
    uint8_t *altrev = (uint8_t *)(lastcol + lcn) + SW_W;
    uint8_t *refpad = (uint8_t *)(lastcol + lcn) + ((altb + 3) & ~(int64_t)3);

    memset(topH - 2 * SW_W, 0, (size_t)top * sizeof(int32_t));
    topH[0] = 0;
    for (int32_t j = 1; j <= m; j++) topH[j] = sw_simd_border(p, j);
    for (int64_t j = -2 * SW_W; j < top - 2 * SW_W; j++) topV[j] = DPA_SW_LOW_INIT;
    memset(altrev - SW_W, 0, (size_t)altb);
    for (int32_t x = 0; x < m; x++) altrev[x] = alt[m - 1 - x]; /* altrev[x] = alt[m-1-x] */
    memcpy(refpad, ref, (size_t)n);
    memset(refpad + n, 0, (size_t)(refb - n));

    const int cut = sw_simd_needs_cutoff(p, n, m);
    for (int32_t r0 = 0; r0 < n; r0 += SW_W) {
        if (cut)
            SW_FN(sw_strip_cut)(refpad, altrev, n, m, r0, p, s->tb, topH, topV, lastcol);
        else
            SW_FN(sw_strip_nocut)(refpad, altrev, n, m, r0, p, s->tb, topH, topV, lastcol);
        topH[0] = sw_simd_border(p, (int64_t)r0 + SW_W); /* H[r0 + W][0], next strip's corner */
    }
    dpa_sw_finish(s->tb, SW_TB_LAYOUT, n, m, topH, lastcol, p, s->elems, cigar, cigar_len,
                  alignment_offset);
    return DPA_OK;
}

#ifdef SW_COMPUTE /* AVX2 defines its own: it picks a fill per pair */
dpa_status SW_COMPUTE(const dpa_sw_batch *b, const dpa_sw_params *p, const int32_t *pairs,
                      int64_t n, const dpa_sw_out *out, int64_t *exact_matches)
{
    return dpa_sw_compute_pairs(SW_ALIGN, b, p, pairs, n, out, exact_matches);
}
#endif

#endif /* SW_PART_KERNEL */
