/*
 * pairhmm_simd.h — the PairHMM forward kernels shared by pairhmm_avx2.c and
 * pairhmm_avx512.c, written once as a template over the vector width and element type
 * (libdeflate's *_template.h idea). See docs/pairhmm-simd.md for the design and numbers.
 *
 * Contents
 *   1. type-independent helpers (static inline, included once): per-call error table,
 *      base codes, task sorting.
 *   2. PH_PART_KERNEL: one instantiation per (ISA, element type):
 *        PH_FN(inter_group)  up to PH_W pairs, one pair per lane, row strips (inter-task)
 *        PH_FN(intra_pair)   one pair, PH_W consecutive read rows per vector, moving along
 *                            the anti-diagonal (intra-task)
 *   3. PH_PART_DRIVER: the dpa_phmm_kernel_fn entry of one ISA (sort, group, float pass,
 *      double recompute, scalar fallback for the few pairs the SIMD codes cannot express).
 *
 * Base comparison. Every byte of a pair gets a one-hot code (first-appearance order, per
 * pair); 'N' gets all ones. Then "bases match" (byte equality, or either is 'N') is just
 * (read_code & hap_code) != 0, one test instruction on AVX-512. Padding cells get code 0
 * (never match). A pair with more than 32 distinct non-N bytes cannot be coded and goes to
 * the scalar reference (only adversarial input does that).
 *
 * Parameters of PH_PART_KERNEL (all must be defined by the includer):
 *   PH_T         element type (float or double)
 *   PH_CODE_T    unsigned integer of the same width as PH_T (uint32_t / uint64_t)
 *   PH_VEC       vector of PH_T; PH_CVEC: vector of PH_CODE_T of the same width
 *   PH_W         lanes per vector
 *   PH_FN(x)     name of the instantiation's function x (e.g. x##_f32_avx512)
 *   PH_LOAD(p) / PH_STORE(p, v)    aligned vector load / store of PH_T
 *   PH_CLOAD(p) / PH_CLOADU(p)     aligned / unaligned load of PH_CODE_T
 *   PH_SET1(x), PH_ZERO()          broadcast, zero
 *   PH_ADD(a, b), PH_MUL(a, b)     lane-wise a+b, a*b
 *   PH_FMA(a, b, c)                a*b + c (fused where the ISA has it)
 *   PH_PRIOR(rc, hc, pm, px)       per lane: (rc & hc) != 0 ? pm : px
 *   PH_SHIFT_IN(v, p)              lanes [*p, v[0], ..., v[W-2]] (p may be unaligned)
 *   PH_STORE_LAST(p, v)            *p = v[W-1], no other byte written
 *   PH_ADD_IF_LE(acc, v, a, b)     per lane: a <= b ? acc + v : acc
 * Parameters of PH_PART_DRIVER:
 *   PH_ENTRY                 name of the exported kernel (dpa_phmm_compute_<isa>)
 *   PH_F32(x), PH_F64(x)     names of the float / double instantiations of x
 *   PH_W32, PH_W64           their lane counts
 *   PH_VBYTES                bytes per vector (alignment of every scratch array)
 *
 * Lane contents are written next to the code as "lane l: ..." (ksw2 style).
 */
#ifndef DPA_CPU_PAIRHMM_SIMD_COMMON_H
#define DPA_CPU_PAIRHMM_SIMD_COMMON_H

#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "common/fpenv.h"
#include "cpu/pairhmm/pairhmm.h"

/* Tallest row strip of the inter-task kernel: rows of one strip stay in registers, so only
 * the strip's top and bottom rows go through memory. 3 measured best (docs). */
#ifndef PH_RMAX
#define PH_RMAX 3
#endif
/* Transition block of one strip row: mm, gm, mi, ii, md, dd, prior-match, prior-mismatch. */
enum { PH_TR_MM = 0, PH_TR_GM, PH_TR_MI, PH_TR_II, PH_TR_MD, PH_TR_DD, PH_TR_PM, PH_TR_PX,
       PH_TR_N };

/* Error probability of the phred values met in this call (256 entries so any byte indexes
 * safely), filled lazily with dpa_phmm_err: every value derived from it is bit-identical to
 * what dpa_phmm_transitions computes, and a call pays one pow() per distinct quality
 * (~45 on GATK data) instead of 256, which matters for small chunks. */
typedef struct ph_tables {
    double err[256];
} ph_tables;

static inline void ph_tables_init(ph_tables *t)
{
    for (int q = 0; q < 256; q++) t->err[q] = -1.0;
}

static inline double ph_err(ph_tables *t, uint8_t q)
{
    double e = t->err[q];
    if (e < 0) e = t->err[q] = dpa_phmm_err(q);
    return e;
}

/* Per-pair base coder: 'N' = all ones, every other byte a bit of its own. */
typedef struct ph_coder {
    uint32_t map[256];
    int bits;
} ph_coder;

static inline void ph_coder_init(ph_coder *c)
{
    memset(c->map, 0, sizeof c->map);
    c->map['N'] = 0xffffffffu;
    c->bits = 0;
}

/* Code of byte b; 0 when the pair has run out of bits (caller falls back to scalar). */
static inline uint32_t ph_code(ph_coder *c, uint8_t b)
{
    uint32_t v = c->map[b];
    if (v == 0 && c->bits < 32) v = c->map[b] = 1u << c->bits++;
    return v;
}

/* One task resolved for the kernels. */
typedef struct ph_item {
    dpa_phmm_pair p;
    int64_t out;
} ph_item;

static inline int ph_item_cmp(const void *a, const void *b)
{
    const ph_item *x = (const ph_item *)a, *y = (const ph_item *)b;
    /* descending read length, then descending haplotype length, then output index (a total
     * order, so the grouping does not depend on qsort's stability) */
    if (x->p.read_len != y->p.read_len) return x->p.read_len < y->p.read_len ? 1 : -1;
    if (x->p.hap_len != y->p.hap_len) return x->p.hap_len < y->p.hap_len ? 1 : -1;
    return (x->out > y->out) - (x->out < y->out);
}

static inline size_t ph_round_up(size_t x, size_t a) { return (x + a - 1) / a * a; }

/* Scratch of one kernel call. Two aligned blocks, grown on demand to the largest group /
 * pair that needs them (so a chunk with one 2^20-long haplotype that runs intra-task does
 * not also reserve inter-task rows for it). Sizes are in bytes of a vector (VB), so the
 * same block serves the float and the double instantiations. */
typedef struct ph_scratch {
    /* inter-task */
    void *inter_block;
    size_t inter_r, inter_h; /* capacity in rows / columns */
    void *rows;              /* 3 * (max_hap + 1) vectors: M, I, D of the row above a strip */
    void *hcode;             /* max_hap vectors of codes, column j-1 of every lane          */
    void *rcode;             /* max_read vectors of codes, row i-1 of every lane             */
    /* intra-task (lengths in 8-byte elements, the widest type) */
    void *intra_block;
    size_t intra_r, intra_h;
    void *line;  /* 6 * (max_hap + 1 + 2W) elements: top/bottom M, I, D with padding */
    void *hrev;  /* 2 * (max_hap + 2W) codes: haplotype reversed with padding, then in order */
    void *lcode; /* max_read codes of one pair */
    /* scalar fallback */
    double *ref;
    size_t ref_elems;
} ph_scratch;

/* Carves n arrays of sz[k] bytes (64-aligned) from one new block. 0 on failure. */
static inline int ph_carve(void **block, int n, const size_t *sz, void **const *dst)
{
    size_t total = 0;
    for (int k = 0; k < n; k++) total += ph_round_up(sz[k] > 0 ? sz[k] : 1, 64);
    free(*block);
    *block = aligned_alloc(64, total);
    if (!*block) return 0;
    char *at = (char *)*block;
    for (int k = 0; k < n; k++) {
        *dst[k] = at;
        at += ph_round_up(sz[k] > 0 ? sz[k] : 1, 64);
    }
    return 1;
}

/* Room for an inter-task group of up to max_r rows and max_h columns, vectors of vb bytes
 * (vb must be the same on every call). Lengths <= 2^20, so size_t cannot overflow. */
static inline int ph_reserve_inter(ph_scratch *s, int32_t max_r, int32_t max_h, size_t vb)
{
    if ((size_t)max_r <= s->inter_r && (size_t)max_h <= s->inter_h && s->inter_block) return 1;
    const size_t R = (size_t)max_r > s->inter_r ? (size_t)max_r : s->inter_r;
    const size_t H = (size_t)max_h > s->inter_h ? (size_t)max_h : s->inter_h;
    const size_t sz[3] = { 3 * (H + 1) * vb, (H + 1) * vb, (R + 1) * vb };
    void **const dst[3] = { &s->rows, &s->hcode, &s->rcode };
    if (!ph_carve(&s->inter_block, 3, sz, dst)) {
        s->inter_r = s->inter_h = 0;
        return 0;
    }
    s->inter_r = R;
    s->inter_h = H;
    return 1;
}

/* Room for an intra-task pair; wmax = the widest lane count that will use it. */
static inline int ph_reserve_intra(ph_scratch *s, int32_t read_len, int32_t hap_len, size_t wmax)
{
    if ((size_t)read_len <= s->intra_r && (size_t)hap_len <= s->intra_h && s->intra_block)
        return 1;
    const size_t R = (size_t)read_len > s->intra_r ? (size_t)read_len : s->intra_r;
    const size_t H = (size_t)hap_len > s->intra_h ? (size_t)hap_len : s->intra_h;
    const size_t sz[3] = { 6 * (H + 1 + 2 * wmax) * 8, 2 * (H + 2 * wmax) * 8, (R + 1) * 8 };
    void **const dst[3] = { &s->line, &s->hrev, &s->lcode };
    if (!ph_carve(&s->intra_block, 3, sz, dst)) {
        s->intra_r = s->intra_h = 0;
        return 0;
    }
    s->intra_r = R;
    s->intra_h = H;
    return 1;
}

#endif /* DPA_CPU_PAIRHMM_SIMD_COMMON_H */

/* ===================================================================================== */
#if defined(PH_PART_KERNEL)

/* Quantities of read position i of pair p for one lane: t[k*PH_W] = quantity k (see
 * PH_TR_*); all zero when p is NULL or i is past its read, which makes that lane's cells
 * exactly zero from there on. Derived from the error table exactly as
 * dpa_phmm_transitions does, then rounded to PH_T (the scalar reference's rounding). */
static inline void PH_FN(row_transitions)(PH_T *restrict t, const dpa_phmm_pair *p, int32_t i,
                                          ph_tables *tb)
{
    if (p && i < p->read_len) {
        const double ei = ph_err(tb, p->ins_q[i]), ed = ph_err(tb, p->del_q[i]);
        const double eg = ph_err(tb, p->gcp_q[i]), e = ph_err(tb, p->base_q[i]);
        t[PH_TR_MM * PH_W] = (PH_T)(1.0 - fmin(1.0, ei + ed)); /* GATK clamps at 0 */
        t[PH_TR_GM * PH_W] = (PH_T)(1.0 - eg);
        t[PH_TR_MI * PH_W] = (PH_T)ei;
        t[PH_TR_II * PH_W] = (PH_T)eg;
        t[PH_TR_MD * PH_W] = (PH_T)ed;
        t[PH_TR_DD * PH_W] = (PH_T)eg;
        t[PH_TR_PM * PH_W] = (PH_T)(1.0 - e);
        /* a read 'N' matches everything: mismatch prior = match prior */
        t[PH_TR_PX * PH_W] = p->read[i] == 'N' ? (PH_T)(1.0 - e) : (PH_T)(e / 3.0);
    } else {
        for (int k = 0; k < PH_TR_N; k++) t[k * PH_W] = 0;
    }
}

/* Per-strip transition block for rows i0+1 .. i0+R of every lane:
 * tr[(r*PH_TR_N + k)*W + l] = quantity k of read position i0+r in lane l. */
static inline void PH_FN(strip_transitions)(PH_T *restrict tr, const dpa_phmm_pair *const *lane,
                                            int32_t i0, int R, ph_tables *tb)
{
    for (int r = 0; r < R; r++)
        for (int l = 0; l < PH_W; l++)
            PH_FN(row_transitions)(tr + (size_t)r * PH_TR_N * PH_W + l, lane[l], i0 + r, tb);
}

/* R rows of the inter-task kernel over columns 1..ncols. Rows (M,I,D)[c*W + l] hold the
 * row above the strip on entry and the strip's last row on exit. Kept in registers per
 * strip row r: (mp, ip, dp)[r] = row r at column j-1. */
static inline __attribute__((always_inline)) void
PH_FN(strip)(const int R, const int32_t ncols, PH_T *restrict M, PH_T *restrict I,
             PH_T *restrict D, const PH_CODE_T *restrict hcode, const PH_CODE_T *restrict rcode,
             const PH_T *restrict tr)
{
    PH_VEC mp[PH_RMAX], ip[PH_RMAX], dp[PH_RMAX];
#pragma GCC unroll 8
    for (int r = 0; r < PH_RMAX; r++) mp[r] = ip[r] = dp[r] = PH_ZERO(); /* column 0 */
    /* lane l: (M, I, D) of the row above the strip at column j-1 */
    PH_VEC tm = PH_LOAD(M), ti = PH_LOAD(I), td = PH_LOAD(D);
    for (int32_t j = 1; j <= ncols; j++) {
        const size_t o = (size_t)j * PH_W;
        PH_VEC um = PH_LOAD(M + o), ui = PH_LOAD(I + o); /* up: row above, column j   */
        PH_VEC dm = tm, di = ti, dd = td;                  /* diag: row above, col j-1 */
        tm = um;
        ti = ui;
        td = PH_LOAD(D + o);
        const PH_CVEC hc = PH_CLOAD(hcode + o - PH_W); /* lane l: code of hap[j-1] */
#pragma GCC unroll 8
        for (int r = 0; r < R; r++) {
            const PH_T *t = tr + (size_t)r * PH_TR_N * PH_W;
            const PH_VEC prior = PH_PRIOR(PH_CLOAD(rcode + (size_t)r * PH_W), hc,
                                          PH_LOAD(t + PH_TR_PM * PH_W), PH_LOAD(t + PH_TR_PX * PH_W));
            const PH_VEC nm = PH_MUL(prior, PH_FMA(dm, PH_LOAD(t + PH_TR_MM * PH_W),
                                                   PH_MUL(PH_ADD(di, dd), PH_LOAD(t + PH_TR_GM * PH_W))));
            const PH_VEC ni = PH_FMA(ui, PH_LOAD(t + PH_TR_II * PH_W),
                                     PH_MUL(um, PH_LOAD(t + PH_TR_MI * PH_W)));
            const PH_VEC nd = PH_FMA(dp[r], PH_LOAD(t + PH_TR_DD * PH_W),
                                     PH_MUL(mp[r], PH_LOAD(t + PH_TR_MD * PH_W)));
            dm = mp[r];
            di = ip[r];
            dd = dp[r];
            mp[r] = nm;
            ip[r] = ni;
            dp[r] = nd;
            um = nm;
            ui = ni;
        }
        PH_STORE(M + o, mp[R - 1]);
        PH_STORE(I + o, ip[R - 1]);
        PH_STORE(D + o, dp[R - 1]);
    }
    /* column 0 of every row below row 0 is zero */
    PH_STORE(M, PH_ZERO());
    PH_STORE(I, PH_ZERO());
    PH_STORE(D, PH_ZERO());
}

static void PH_FN(strip_any)(int R, int32_t ncols, PH_T *M, PH_T *I, PH_T *D,
                             const PH_CODE_T *hcode, const PH_CODE_T *rcode, const PH_T *tr)
{
    /* R < PH_RMAX only for the strip that ends at a lane's last row */
    switch (R) {
#if PH_RMAX > 1
    case 1: PH_FN(strip)(1, ncols, M, I, D, hcode, rcode, tr); break;
#endif
#if PH_RMAX > 2
    case 2: PH_FN(strip)(2, ncols, M, I, D, hcode, rcode, tr); break;
#endif
#if PH_RMAX > 3
    case 3: PH_FN(strip)(3, ncols, M, I, D, hcode, rcode, tr); break;
#endif
#if PH_RMAX > 4
    case 4: PH_FN(strip)(4, ncols, M, I, D, hcode, rcode, tr); break;
#endif
#if PH_RMAX > 5
    case 5: PH_FN(strip)(5, ncols, M, I, D, hcode, rcode, tr); break;
#endif
#if PH_RMAX > 6
    case 6: PH_FN(strip)(6, ncols, M, I, D, hcode, rcode, tr); break;
#endif
#if PH_RMAX > 7
    case 7: PH_FN(strip)(7, ncols, M, I, D, hcode, rcode, tr); break;
#endif
    default: PH_FN(strip)(PH_RMAX, ncols, M, I, D, hcode, rcode, tr); break;
    }
}

/* Write the codes of one pair: read codes at rcode[i*stride], hap codes at
 * hcode[j*stride]. Returns 0 if the pair needs more than 32 symbols. */
static inline int PH_FN(code_pair)(const dpa_phmm_pair *p, PH_CODE_T *rcode, PH_CODE_T *hcode,
                                   size_t stride)
{
    ph_coder c;
    ph_coder_init(&c);
    for (int32_t i = 0; i < p->read_len; i++) {
        uint32_t v = ph_code(&c, p->read[i]);
        if (!v) return 0;
        rcode[(size_t)i * stride] = v == 0xffffffffu ? (PH_CODE_T)-1 : (PH_CODE_T)v;
    }
    for (int32_t j = 0; j < p->hap_len; j++) {
        uint32_t v = ph_code(&c, p->hap[j]);
        if (!v) return 0;
        hcode[(size_t)j * stride] = v == 0xffffffffu ? (PH_CODE_T)-1 : (PH_CODE_T)v;
    }
    return 1;
}

/* Inter-task: lane l computes pair in[l] (l < nl). sums[l] receives the scaled forward sum;
 * the bit l of the return value is set where the lane could not be coded (the caller
 * computes that pair with the scalar reference). Pairs with an empty read or haplotype
 * must not be passed. */
static unsigned PH_FN(inter_group)(const ph_item *in, int nl, const ph_scratch *s,
                                   ph_tables *tb, PH_T initial, PH_T *sums)
{
    const dpa_phmm_pair *lane[PH_W];
    int32_t rl[PH_W], hl[PH_W];
    int32_t max_r = 0, max_h = 0;
    unsigned bad = 0;
    PH_CODE_T *hcode = (PH_CODE_T *)s->hcode, *rcode = (PH_CODE_T *)s->rcode;
    for (int l = 0; l < PH_W; l++) {
        lane[l] = l < nl ? &in[l].p : NULL;
        rl[l] = l < nl ? in[l].p.read_len : 0;
        hl[l] = l < nl ? in[l].p.hap_len : 0;
        if (rl[l] > max_r) max_r = rl[l];
        if (hl[l] > max_h) max_h = hl[l];
        sums[l] = 0;
    }
    if (max_r == 0) return 0;
    memset(hcode, 0, (size_t)max_h * PH_W * sizeof(PH_CODE_T));
    memset(rcode, 0, (size_t)max_r * PH_W * sizeof(PH_CODE_T));
    for (int l = 0; l < nl; l++) {
        if (!PH_FN(code_pair)(lane[l], rcode + l, hcode + l, PH_W)) {
            /* drop the lane: zero codes and no rows, so it computes zeros */
            bad |= 1u << l;
            for (int32_t i = 0; i < rl[l]; i++) rcode[(size_t)i * PH_W + l] = 0;
            for (int32_t j = 0; j < hl[l]; j++) hcode[(size_t)j * PH_W + l] = 0;
            lane[l] = NULL;
            rl[l] = 0;
        }
    }
    PH_T *M = (PH_T *)s->rows;
    PH_T *I = M + ((size_t)max_h + 1) * PH_W;
    PH_T *D = I + ((size_t)max_h + 1) * PH_W;
    {
        /* row 0: M = I = 0, D = initial / hap_len (per lane, rounded as the reference) */
        PH_T d0[PH_W] __attribute__((aligned(64)));
        for (int l = 0; l < PH_W; l++) d0[l] = hl[l] > 0 && rl[l] > 0 ? initial / (PH_T)hl[l] : 0;
        const PH_VEC d0v = PH_LOAD(d0);
        for (int32_t j = 0; j <= max_h; j++) {
            PH_STORE(M + (size_t)j * PH_W, PH_ZERO());
            PH_STORE(I + (size_t)j * PH_W, PH_ZERO());
            PH_STORE(D + (size_t)j * PH_W, d0v);
        }
    }
    /* distinct last rows, ascending (lanes are sorted by descending read length, but do
     * not rely on it) */
    int32_t ends[PH_W];
    int ne = 0;
    for (int l = 0; l < PH_W; l++) {
        if (rl[l] <= 0) continue;
        int k = 0;
        while (k < ne && ends[k] < rl[l]) k++;
        if (k < ne && ends[k] == rl[l]) continue;
        memmove(ends + k + 1, ends + k, (size_t)(ne - k) * sizeof ends[0]);
        ends[k] = rl[l];
        ne++;
    }
    PH_T tr[PH_RMAX * PH_TR_N * PH_W] __attribute__((aligned(64)));
    int32_t i0 = 0;
    PH_T hlim[PH_W] __attribute__((aligned(64)));
    for (int l = 0; l < PH_W; l++) hlim[l] = (PH_T)hl[l];
    const PH_VEC hlimv = PH_LOAD(hlim);
    for (int e = 0; e < ne; e++) {
        while (i0 < ends[e]) {
            const int R = ends[e] - i0 < PH_RMAX ? (int)(ends[e] - i0) : PH_RMAX;
            PH_FN(strip_transitions)(tr, lane, i0, R, tb);
            PH_FN(strip_any)(R, max_h, M, I, D, hcode, rcode + (size_t)i0 * PH_W, tr);
            i0 += R;
        }
        /* row ends[e] is in (M, I): lanes ending here sum columns 1..hap_len in order */
        PH_VEC acc = PH_ZERO(), jv = PH_ZERO();
        const PH_VEC one = PH_SET1((PH_T)1);
        for (int32_t j = 1; j <= max_h; j++) {
            const size_t o = (size_t)j * PH_W;
            jv = PH_ADD(jv, one);
            acc = PH_ADD_IF_LE(acc, PH_ADD(PH_LOAD(M + o), PH_LOAD(I + o)), jv, hlimv);
        }
        PH_T a[PH_W] __attribute__((aligned(64)));
        PH_STORE(a, acc);
        for (int l = 0; l < PH_W; l++)
            if (rl[l] == ends[e]) sums[l] = a[l];
    }
    return bad;
}

/* Intra-task: one pair, lane k holds read row i0+1+k of the current stripe; at step s the
 * lane is at column j = s - k + 1 (anti-diagonal wavefront). Returns 0 and leaves *sum
 * alone if the pair could not be coded. Pairs with an empty read or haplotype must not be
 * passed. */
static int PH_FN(intra_pair)(const dpa_phmm_pair *p, const ph_scratch *s, ph_tables *tb,
                             PH_T initial, PH_T *sum)
{
    const int32_t n = p->hap_len, m = p->read_len;
    const size_t W = PH_W;
    const size_t len = (size_t)n + 1 + 2 * W; /* one line: W padding, columns 0..n, W padding */
    PH_T *line = (PH_T *)s->line;
    /* top (row above the stripe) and bottom (stripe's last row), index W + j = column j */
    PH_T *top[3] = { line, line + len, line + 2 * len };
    PH_T *bot[3] = { line + 3 * len, line + 4 * len, line + 5 * len };
    PH_CODE_T *hrev = (PH_CODE_T *)s->hrev;
    PH_CODE_T *rc = (PH_CODE_T *)s->lcode;
    PH_CODE_T *hlin = hrev + (size_t)n + 2 * W; /* hap codes in order, then reversed */
    if (!PH_FN(code_pair)(p, rc, hlin, 1)) return 0;
    /* hrev[t] = code of hap[Q - W - t], Q = n + 2W - 1, zero outside the haplotype: the
     * load at hrev + (n + W - 1 - s) gives lane k the code of hap[s - k]. */
    const size_t Q = (size_t)n + 2 * W - 1;
    for (size_t t = 0; t <= Q; t++) {
        const int64_t x = (int64_t)Q - (int64_t)W - (int64_t)t;
        hrev[t] = x >= 0 && x < n ? hlin[x] : 0;
    }
    for (size_t c = 0; c < len; c++) {
        top[0][c] = top[1][c] = 0;
        top[2][c] = c >= W && c <= W + (size_t)n ? initial / (PH_T)n : 0;
        bot[0][c] = bot[1][c] = bot[2][c] = 0;
    }
    PH_T tr[PH_TR_N * PH_W] __attribute__((aligned(64)));
    PH_CODE_T rcs[PH_W] __attribute__((aligned(64)));
    PH_VEC acc = PH_ZERO();
    int kend = 0;
    for (int32_t i0 = 0; i0 < m; i0 += (int32_t)W) {
        const int last = (int64_t)i0 + (int64_t)W >= m;
        /* lane k: read position i0+k */
        for (size_t k = 0; k < W; k++) {
            const int32_t i = i0 + (int32_t)k;
            PH_FN(row_transitions)(tr + k, p, i, tb);
            rcs[k] = i < m ? rc[i] : 0;
        }
        const PH_VEC mm = PH_LOAD(tr + PH_TR_MM * PH_W), gm = PH_LOAD(tr + PH_TR_GM * PH_W);
        const PH_VEC mi = PH_LOAD(tr + PH_TR_MI * PH_W), ii = PH_LOAD(tr + PH_TR_II * PH_W);
        const PH_VEC md = PH_LOAD(tr + PH_TR_MD * PH_W), dd = PH_LOAD(tr + PH_TR_DD * PH_W);
        const PH_VEC pm = PH_LOAD(tr + PH_TR_PM * PH_W), px = PH_LOAD(tr + PH_TR_PX * PH_W);
        const PH_CVEC rcv = PH_CLOAD(rcs);
        const PH_T *tM = top[0] + W, *tI = top[1] + W, *tD = top[2] + W;
        PH_T *bM = bot[0] + W, *bI = bot[1] + W, *bD = bot[2] + W;
        /* lane k: cell (row i0+1+k, column s-k+1) of the previous step; zero before the
         * lane starts (column 0) */
        PH_VEC cm = PH_ZERO(), ci = PH_ZERO(), cd = PH_ZERO();
        /* lane k: diagonal (row i0+k, column s-k); lane 0 from the top line */
        PH_VEC gmv = PH_SHIFT_IN(PH_ZERO(), tM), giv = PH_SHIFT_IN(PH_ZERO(), tI),
               gdv = PH_SHIFT_IN(PH_ZERO(), tD);
        int64_t smax = (int64_t)n + (int64_t)W - 2;
        int64_t sacc = INT64_MAX;
        if (last) {
            kend = m - 1 - i0;
            smax = (int64_t)n + kend - 1;
            sacc = kend;
        }
        for (int64_t st = 0; st <= smax; st++) {
            /* lane k: up (row i0+k, column s-k+1) */
            const PH_VEC um = PH_SHIFT_IN(cm, tM + st + 1);
            const PH_VEC ui = PH_SHIFT_IN(ci, tI + st + 1);
            const PH_VEC ud = PH_SHIFT_IN(cd, tD + st + 1);
            const PH_CVEC hc = PH_CLOADU(hrev + ((size_t)n + W - 1 - (size_t)st));
            const PH_VEC prior = PH_PRIOR(rcv, hc, pm, px);
            const PH_VEC nm = PH_MUL(prior, PH_FMA(gmv, mm, PH_MUL(PH_ADD(giv, gdv), gm)));
            const PH_VEC ni = PH_FMA(ui, ii, PH_MUL(um, mi));
            const PH_VEC nd = PH_FMA(cd, dd, PH_MUL(cm, md));
            gmv = um;
            giv = ui;
            gdv = ud;
            cm = nm;
            ci = ni;
            cd = nd;
            /* lane W-1 is the stripe's last row, at column st - W + 2 (>= -(W-2)) */
            const int64_t jb = st - (int64_t)W + 2;
            PH_STORE_LAST(bM + jb, nm);
            PH_STORE_LAST(bI + jb, ni);
            PH_STORE_LAST(bD + jb, nd);
            if (st >= sacc) acc = PH_ADD(acc, PH_ADD(nm, ni));
        }
        if (!last) {
            for (int q = 0; q < 3; q++) {
                PH_T *x = top[q];
                top[q] = bot[q];
                bot[q] = x;
                /* column 0 of rows below row 0 is zero; the columns past n of the new
                 * top hold finite leftovers that only reach columns past n */
                top[q][W] = 0;
            }
        }
    }
    PH_T a[PH_W] __attribute__((aligned(64)));
    PH_STORE(a, acc);
    *sum = a[kend];
    return 1;
}

#endif /* PH_PART_KERNEL */

/* ===================================================================================== */
#if defined(PH_PART_DRIVER)

/* Scalar reference for one pair (pairs the SIMD kernels do not take), in the precision of
 * the current phase. Returns 0 on allocation failure. */
static int PH_F32(scalar_fallback)(ph_scratch *s, const dpa_phmm_pair *p, int is_double,
                                   double *val)
{
    const size_t need = 3 * ((size_t)p->hap_len + 1);
    if (s->ref_elems < need) {
        free(s->ref);
        s->ref = (double *)malloc(need * sizeof(double));
        s->ref_elems = s->ref ? need : 0;
        if (!s->ref) return 0;
    }
    if (is_double)
        *val = dpa_phmm_forward_f64_scalar(p, DPA_PHMM_INITIAL_F64, s->ref);
    else
        *val = (double)dpa_phmm_forward_f32_scalar(p, (float)DPA_PHMM_INITIAL_F32, (float *)s->ref);
    return 1;
}

/* A group of lanes runs inter-task only if its useful cells fill at least this fraction
 * of the W * max_read * max_hap cells the vectors compute; otherwise each of its pairs
 * runs intra-task. The threshold is the measured ratio of the two kernels' speeds (docs);
 * the includer may set it (2 forces intra-task, 0 inter-task). */
#define PH_WMAX (PH_W32 > PH_W64 ? PH_W32 : PH_W64)

#ifndef PH_INTRA_RATIO
#define PH_INTRA_RATIO 0.5
#endif

/* Lanes for the next group: up to w consecutive pairs with both sides non-empty, taken
 * from items[idx[k]] (idx NULL: items[k]). Returns the count and whether the group is
 * full enough for the inter-task kernel. */
static int PH_F32(next_group)(const ph_item *items, const int64_t *idx, int64_t k, int64_t n,
                              int w, int *use_inter, int32_t *max_r, int32_t *max_h)
{
    int nl = 0;
    int32_t mr = 0, mh = 0;
    double useful = 0;
    while (nl < w && k + nl < n) {
        const dpa_phmm_pair *p = &items[idx ? idx[k + nl] : k + nl].p;
        if (p->read_len <= 0 || p->hap_len <= 0) break;
        if (p->read_len > mr) mr = p->read_len;
        if (p->hap_len > mh) mh = p->hap_len;
        useful += (double)p->read_len * (double)p->hap_len;
        nl++;
    }
    *use_inter = nl > 0 && useful >= PH_INTRA_RATIO * (double)w * (double)mr * (double)mh;
    *max_r = mr;
    *max_h = mh;
    return nl;
}

dpa_status PH_ENTRY(const dpa_pairhmm_batch *batch, const dpa_phmm_task *tasks, int64_t n,
                    int32_t precision, double *out, int64_t *double_recomputes)
{
    dpa_status status = DPA_OK;
    ph_item *items = NULL;
    int64_t *redo = NULL;
    ph_scratch s;
    memset(&s, 0, sizeof s);
    ph_tables tb;
    int64_t recomputes = 0;
    if (n <= 0) return DPA_OK;
    /* from here on the caller's MXCSR (sticky flags included) is saved: even the setup's
     * pow() would otherwise raise its precision flag; double mode is the default inside */
    const dpa_fpenv caller = dpa_fpenv_enter_f64();

    items = (ph_item *)malloc((size_t)n * sizeof *items);
    redo = (int64_t *)malloc((size_t)n * sizeof *redo);
    if (!items || !redo) {
        status = DPA_ERR_OUT_OF_MEMORY;
        goto cleanup;
    }
    for (int64_t k = 0; k < n; k++) {
        items[k].p = dpa_phmm_pair_of(batch, &tasks[k]);
        items[k].out = tasks[k].out;
    }
    qsort(items, (size_t)n, sizeof *items, ph_item_cmp);
    ph_tables_init(&tb);

    int64_t nredo = 0;
    if (precision != DPA_PRECISION_DOUBLE) {
        /* ---- float pass ---- */
        dpa_fpenv_enter_f32();
        const float initial = (float)DPA_PHMM_INITIAL_F32;
        for (int64_t k = 0; k < n;) {
            float sums[PH_W32] __attribute__((aligned(64)));
            unsigned simd = 0; /* bit l: lane l got a SIMD result */
            int nl = 0;
            /* pairs with an empty side and pairs the coder rejects go to the scalar path */
            int inter = 0;
            int32_t gr, gh;
            nl = PH_F32(next_group)(items, NULL, k, n, PH_W32, &inter, &gr, &gh);
            if (nl == 0) {
                nl = 1;
            } else if (inter) {
                if (!ph_reserve_inter(&s, gr, gh, PH_VBYTES)) goto oom;
                unsigned bad = PH_F32(inter_group)(items + k, nl, &s, &tb, initial, sums);
                simd = ((nl == 32 ? 0u : (1u << nl)) - 1u) & ~bad;
            } else {
                for (int l = 0; l < nl; l++) {
                    const dpa_phmm_pair *p = &items[k + l].p;
                    if (!ph_reserve_intra(&s, p->read_len, p->hap_len, PH_WMAX)) goto oom;
                    if (PH_F32(intra_pair)(p, &s, &tb, initial, &sums[l])) simd |= 1u << l;
                }
            }
            for (int l = 0; l < nl; l++) {
                double v;
                if (simd >> l & 1u) {
                    v = (double)sums[l];
                } else if (!PH_F32(scalar_fallback)(&s, &items[k + l].p, 0, &v)) {
                    status = DPA_ERR_OUT_OF_MEMORY;
                    goto cleanup;
                }
                if (!((float)v >= DPA_PHMM_MIN_ACCEPTED))
                    redo[nredo++] = k + l;
                else
                    out[items[k + l].out] = log10(v) - DPA_PHMM_LOG10_INITIAL_F32;
            }
            k += nl;
        }
        dpa_fpenv_enter_f64();
        recomputes = nredo;
    } else {
        for (int64_t k = 0; k < n; k++) redo[k] = k;
        nredo = n;
    }

    if (nredo > 0) {
        /* ---- double pass: recomputes (sorted order kept) or everything ---- */
        const double initial = DPA_PHMM_INITIAL_F64;
        ph_item group[PH_W64];
        for (int64_t k = 0; k < nredo;) {
            double sums[PH_W64] __attribute__((aligned(64)));
            unsigned simd = 0;
            int nl = 0;
            int inter = 0;
            int32_t gr, gh;
            nl = PH_F32(next_group)(items, redo, k, nredo, PH_W64, &inter, &gr, &gh);
            if (nl == 0) {
                nl = 1;
            } else if (inter) {
                if (!ph_reserve_inter(&s, gr, gh, PH_VBYTES)) goto oom;
                for (int l = 0; l < nl; l++) group[l] = items[redo[k + l]];
                unsigned bad = PH_F64(inter_group)(group, nl, &s, &tb, initial, sums);
                simd = ((1u << nl) - 1u) & ~bad;
            } else {
                for (int l = 0; l < nl; l++) {
                    const dpa_phmm_pair *p = &items[redo[k + l]].p;
                    if (!ph_reserve_intra(&s, p->read_len, p->hap_len, PH_WMAX)) goto oom;
                    if (PH_F64(intra_pair)(p, &s, &tb, initial, &sums[l])) simd |= 1u << l;
                }
            }
            for (int l = 0; l < nl; l++) {
                const ph_item *it = &items[redo[k + l]];
                double v;
                if (simd >> l & 1u) {
                    v = sums[l];
                } else if (!PH_F32(scalar_fallback)(&s, &it->p, 1, &v)) {
                    status = DPA_ERR_OUT_OF_MEMORY;
                    goto cleanup;
                }
                out[it->out] = log10(v) - DPA_PHMM_LOG10_INITIAL_F64;
            }
            k += nl;
        }
    }
    *double_recomputes += recomputes;
    goto cleanup;

oom:
    status = DPA_ERR_OUT_OF_MEMORY;
cleanup:
    free(s.ref);
    free(s.inter_block);
    free(s.intra_block);
    free(redo);
    free(items);
    dpa_fpenv_leave(caller);
    return status;
}

#endif /* PH_PART_DRIVER */
