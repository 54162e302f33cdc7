/*
 * pdhmm_simd.h — the PDHMM kernel template for the AVX2 (4 lanes) and AVX-512 (8 lanes)
 * files. One pair per lane: a vector holds the same cell (i, j) of PD_W pairs, so GATK's
 * data-dependent column states become per-lane masks and every lane does exactly the
 * scalar reference's arithmetic in the same order (no FMA: the files are compiled with
 * -ffp-contract=off), which makes the kernels bit-identical to pdhmm_ref.c.
 *
 * Column states. GATK's state machine is walked along each row and carried from a row's
 * last column into the next row's first. Its step depends only on the column's PD byte
 * (DEL_END -> AFTER_DEL, else DEL_START -> INSIDE_DEL, else AFTER_DEL -> NORMAL, else
 * unchanged), so the state of column j in row 1 is a function of j alone (row 1 starts
 * NORMAL), and in every later row a function of j and the state row 1 ends in, which is a
 * fixed point of the whole-row step (after any flagged column the state no longer depends
 * on where the row began; with none, NORMAL and INSIDE_DEL stay, AFTER_DEL cannot occur).
 * So two mask sets per lane, row 1's and the rest's, computed once per group. With
 * DPA_PDHMM_ROWS_GKL (every row starts NORMAL) the rest's set is row 1's.
 *
 * Lanes of different lengths: a lane past its haplotype's end computes columns nobody
 * reads (nothing flows leftwards); past its read's end, rows nobody reads. Its result is
 * summed when the row loop reaches its own read length, in the reference's order.
 *
 * The including file defines:
 *   PD_W            lanes;  PD_FN(x)  the kernel's name
 *   PD_VEC          double vector;  PD_MASK  its lane mask type
 *   PD_LOAD/STORE   unaligned double loads and stores;  PD_SET1, PD_ADD, PD_MUL, PD_MAX
 *   PD_MASK_OF(p)   mask from PD_W int64 words (all ones / zero) at p; or PD_MASK_BYTES:
 *                   masks kept as one byte per column and converted by a cast
 *   PD_BLEND(m,a,b) m ? b : a per lane
 *   PD_IVEC, PD_LOADI  int64 vector and its unaligned load
 *   PD_PRIOR(x, xbit, y, ymask, match, mismatch)  per lane: x == y || (xbit & ymask) ?
 *                   match : mismatch; x, xbit int64 vectors, y, ymask pointers to them
 *   PD_PRIOR_V      the same with y, ymask vectors;  PD_SET1I  int64 broadcast
 */
#include <stdlib.h>
#include <string.h>

#include "common/fpenv.h"
#include "cpu/pdhmm/pdhmm.h"

/* The PD byte's prior test as two integer comparisons (see dpa_pdhmm_matches): per read
 * base a bit set xbit, per column a bit set ymask, match iff x == y or they intersect.
 * 'N' in the read: every bit, and bit 0 is always in ymask, so it always matches. A/C/G/T:
 * its PD bit. Other bytes: bit 7 only. 'N' in the haplotype: ymask all bits. SNP column:
 * bit 0 and the column's letter bits. */
static inline int64_t PD_FN(xbit)(uint8_t x)
{
    if (x == 'N') return 0xff;
    const uint8_t b = dpa_pdhmm_base_bit(x);
    return b ? b : 0x80;
}

static inline int64_t PD_FN(ymask)(uint8_t y, uint8_t pd)
{
    if (y == 'N') return 0xff;
    return 1 | ((pd & DPA_PD_SNP) ? (pd & (DPA_PD_A | DPA_PD_C | DPA_PD_G | DPA_PD_T)) : 0);
}

enum { PD_NORMAL, PD_INSIDE, PD_AFTER };

static int PD_FN(step)(int s, uint8_t pd)
{
    if (s == PD_AFTER) s = PD_NORMAL;
    if (pd & DPA_PD_DEL_START) s = PD_INSIDE;
    if (pd & DPA_PD_DEL_END) s = PD_AFTER;
    return s;
}

/* Distinct (haplotype byte, PD letters) columns a uniform group's priors are looked up by. */
enum { PD_UCLS_MAX = 96, PD_USTRIP = 2 };

/* One cell's six values (match, insertion, deletion and their three branch copies). */
typedef struct PD_FN(cell) {
    PD_VEC m, i, d, bm, bi, bd;
} PD_FN(cell);

/* Per group scratch: columns hold PD_W int64 or double words each. */
/* Column masks: PD_MASK_BYTES (AVX-512) keeps one byte per column, bit l = lane l; otherwise
 * PD_W int64 words per column (all ones / zero), what a blendv wants. */
#ifdef PD_MASK_BYTES
typedef uint8_t PD_FN(mask_t);
#define PD_COLMASK(a, j) ((PD_MASK)(a)[j])
#else
typedef int64_t PD_FN(mask_t);
#define PD_COLMASK(a, j) PD_MASK_OF((a) + (size_t)(j) * PD_W)
#endif

typedef struct PD_FN(group) {
    int64_t *y, *ymask;                                   /* (hmax + 1) * PD_W */
    PD_FN(mask_t) *after[2], *inside[2], *delend;         /* per column, see PD_COLMASK */
    double *m, *ins, *del, *bm, *bi, *bd;                  /* (hmax + 1) * PD_W */
    uint8_t *ucode[2], *ucls;                              /* hmax + 1, a shared haplotype */
    double *upri;                                          /* PD_UCLS_MAX * PD_W per strip row */
    int64_t ucls_y[PD_UCLS_MAX], ucls_ym[PD_UCLS_MAX];
    int ucls_n;
    int64_t *x, *xbit;                                     /* PD_W per strip row */
    double *t;                                             /* 8 * PD_W per strip row */
} PD_FN(group);

static inline void PD_FN(set_mask)(PD_FN(mask_t) *a, int32_t j, int l, int on)
{
#ifdef PD_MASK_BYTES
    if (on) a[j] = (uint8_t)(a[j] | (1u << l));
#else
    a[(size_t)j * PD_W + l] = on ? -1 : 0;
#endif
}

static void PD_FN(prepare)(PD_FN(group) *g, const dpa_pdhmm_pair *p, int32_t hmax, int32_t rows)
{
    const size_t cols = (size_t)hmax + 1;
    memset(g->y, 0, sizeof(int64_t) * cols * PD_W);
    memset(g->ymask, 0, sizeof(int64_t) * cols * PD_W);
    PD_FN(mask_t) *const masks[5] = { g->after[0], g->inside[0], g->after[1], g->inside[1],
                                      g->delend };
    const size_t mask_words = sizeof(PD_FN(mask_t)) == 1 ? cols : cols * PD_W;
    for (int a = 0; a < 5; a++) memset(masks[a], 0, sizeof(PD_FN(mask_t)) * mask_words);
    for (int l = 0; l < PD_W; l++) {
        const int32_t H = p[l].hap_len;
        int s = PD_NORMAL;
        for (int pass = 0; pass < 2; pass++) { /* row 1, then every later row */
            if (rows == DPA_PDHMM_ROWS_GKL) s = PD_NORMAL;
            for (int32_t j = 1; j <= H; j++) {
                PD_FN(set_mask)(g->after[pass], j, l, s == PD_AFTER);
                PD_FN(set_mask)(g->inside[pass], j, l, s == PD_INSIDE);
                s = PD_FN(step)(s, p[l].pd[j - 1]);
            }
        }
        for (int32_t j = 1; j <= H; j++) {
            const size_t at = (size_t)j * PD_W + l;
            g->y[at] = p[l].hap[j - 1];
            g->ymask[at] = PD_FN(ymask)(p[l].hap[j - 1], p[l].pd[j - 1]);
            PD_FN(set_mask)(g->delend, j, l, (p[l].pd[j - 1] & DPA_PD_DEL_END) != 0);
        }
    }
}

/* Row i's per-lane constants: transitions, priors and the read byte's codes. A lane past its
 * read's end gets zeros (its rows are never read). */
static void PD_FN(row_constants)(PD_FN(group) *g, const dpa_pdhmm_pair *p, int32_t i, int r)
{
    double *const t8 = g->t + (size_t)r * 8 * PD_W;
    int64_t *const x8 = g->x + (size_t)r * PD_W, *const xb8 = g->xbit + (size_t)r * PD_W;
    for (int l = 0; l < PD_W; l++) {
        double t[6] = { 0, 0, 0, 0, 0, 0 }, match = 0, mismatch = 0;
        int64_t x = 0, xb = 0;
        if (i <= p[l].read_len) {
            dpa_pdhmm_transitions(&p[l], i - 1, t);
            const double e = dpa_pdhmm_err(p[l].base_q[i - 1]);
            match = 1.0 - e;
            mismatch = e / 3.0;
            x = p[l].read[i - 1];
            xb = PD_FN(xbit)(p[l].read[i - 1]);
        }
        for (int k = 0; k < 6; k++) t8[k * PD_W + l] = t[k];
        t8[6 * PD_W + l] = match;
        t8[7 * PD_W + l] = mismatch;
        x8[l] = x;
        xb8[l] = xb;
    }
}

/* ---- Groups of PD_W reads of one haplotype ----------------------------------------------
 * The engine's order keeps a haplotype's pairs together, so most vectors hold PD_W reads of
 * one haplotype (GATK scores every read of a region against every haplotype). Their columns
 * then have the same PD state in every lane: each column gets one code and the sweep does only
 * that state's arithmetic, with no blends: in a NORMAL or INSIDE_DEL column the branch values
 * are copies and the diagonal and left operands are taken as they are, exactly what the
 * blends of the mixed kernel select, so the bits are the same. The prior of a column is one
 * of a few per-row vectors (one per distinct haplotype byte and PD letter set), looked up
 * instead of compared. The branch matrices are stored only in columns whose values the next
 * row reads (a DEL_END column, or one before an AFTER_DEL column), and read only there.
 *
 * Column code: state (0..2) + 3 * DEL_END + 6 * "the next row reads this column's branch
 * values". */
/* Codes and prior classes for a shared haplotype; 0 when it has more than PD_UCLS_MAX
 * distinct (byte, PD letters) columns (the group then runs mixed). */
static int PD_FN(uprepare)(PD_FN(group) *g, const dpa_pdhmm_pair *p, int32_t rows)
{
    const int32_t H = p[0].hap_len;
    g->ucls_n = 0;
    for (int32_t j = 1; j <= H; j++) {
        const int64_t y = p[0].hap[j - 1], ym = PD_FN(ymask)(p[0].hap[j - 1], p[0].pd[j - 1]);
        int c = 0;
        while (c < g->ucls_n && (g->ucls_y[c] != y || g->ucls_ym[c] != ym)) c++;
        if (c == g->ucls_n) {
            if (c == PD_UCLS_MAX) return 0;
            g->ucls_y[c] = y;
            g->ucls_ym[c] = ym;
            g->ucls_n++;
        }
        g->ucls[j] = (uint8_t)c;
    }
    /* states: ucode[pass] holds them first, then the codes */
    int s = PD_NORMAL;
    for (int pass = 0; pass < 2; pass++) {
        if (rows == DPA_PDHMM_ROWS_GKL) s = PD_NORMAL;
        for (int32_t j = 1; j <= H; j++) {
            g->ucode[pass][j] = (uint8_t)s;
            s = PD_FN(step)(s, p[0].pd[j - 1]);
        }
    }
    for (int32_t j = H; j >= 1; j--) {
        const int delend = (p[0].pd[j - 1] & DPA_PD_DEL_END) != 0;
        /* rows after the first read the branch values here at DEL_END, or as the diagonal
         * of an AFTER_DEL column (their states are pass 1's) */
        const int keep = delend || (j < H && g->ucode[1][j + 1] % 3 == PD_AFTER);
        for (int pass = 0; pass < 2; pass++)
            g->ucode[pass][j] = (uint8_t)(g->ucode[pass][j] % 3 + 3 * delend + 6 * keep);
    }
    return 1;
}

/* The row constants of strip row r, as vectors. */
typedef struct PD_FN(rowc) {
    PD_VEC mm, gm, mi, ii, md, dd;
    const double *pri; /* PD_UCLS_MAX priors */
} PD_FN(rowc);

/* One cell of a uniform group with its column's code as constants (see above): l is the
 * row's left cell, up and diag the row above's cells in this and the previous column. */
static inline __attribute__((always_inline)) PD_FN(cell)
PD_FN(ucell)(const PD_FN(rowc) *c, PD_VEC prior, int state, int delend, PD_FN(cell) l,
             PD_FN(cell) up, PD_FN(cell) diag)
{
    PD_FN(cell) n;
    PD_VEC dm, di, dd_, lm, ld;
    if (state == PD_AFTER) {
        n.bm = PD_MAX(l.bm, l.m);
        n.bd = PD_MAX(l.bd, l.d);
        n.bi = PD_MAX(l.bi, l.i);
        dm = PD_MAX(diag.bm, diag.m);
        di = PD_MAX(diag.bi, diag.i);
        dd_ = PD_MAX(diag.bd, diag.d);
        lm = n.bm;
        ld = n.bd;
    } else {
        if (state == PD_INSIDE) {
            n.bm = l.bm;
            n.bd = l.bd;
            n.bi = l.bi;
        } else {
            n.bm = l.m;
            n.bd = l.d;
            n.bi = l.i;
        }
        dm = diag.m;
        di = diag.i;
        dd_ = diag.d;
        lm = l.m;
        ld = l.d;
    }
    n.m = PD_MUL(prior, PD_ADD(PD_ADD(PD_MUL(dm, c->mm), PD_MUL(di, c->gm)), PD_MUL(dd_, c->gm)));
    n.d = PD_ADD(PD_MUL(lm, c->md), PD_MUL(ld, c->dd));
    const PD_VEC up_m = delend ? PD_MAX(up.bm, up.m) : up.m;
    const PD_VEC up_i = delend ? PD_MAX(up.bi, up.i) : up.i;
    n.i = PD_ADD(PD_MUL(up_m, c->mi), PD_MUL(up_i, c->ii));
    return n;
}

/* One column of a uniform strip of `height` rows (all in the same row set): the row above the
 * strip comes from the row arrays (its branch values only where `keep` says the arrays hold
 * them), each lower row's "up" and "diagonal" from the row above it in registers, and only
 * the strip's last row goes back to the arrays. */
static inline __attribute__((always_inline)) void
PD_FN(ucolumn)(PD_FN(group) *g, size_t j, int height, int state, int delend, int keep,
               const PD_FN(rowc) *c, PD_FN(cell) *left, PD_FN(cell) *top_d)
{
    const size_t o = j * PD_W;
    PD_FN(cell) up;
    up.m = PD_LOAD(g->m + o);
    up.i = PD_LOAD(g->ins + o);
    up.d = PD_LOAD(g->del + o);
    if (keep) {
        up.bm = PD_LOAD(g->bm + o);
        up.bi = PD_LOAD(g->bi + o);
        up.bd = PD_LOAD(g->bd + o);
    } else { /* never read in this column or the next (see uprepare) */
        up.bm = top_d->bm;
        up.bi = top_d->bi;
        up.bd = top_d->bd;
    }
    PD_FN(cell) diag = *top_d;
    *top_d = up;
    const size_t k = g->ucls[j];
    for (int r = 0; r < height; r++) {
        const PD_FN(cell) l = left[r];
        const PD_FN(cell) n =
            PD_FN(ucell)(&c[r], PD_LOAD(c[r].pri + k * PD_W), state, delend, l, up, diag);
        diag = l;
        up = n;
        left[r] = n;
    }
    PD_STORE(g->m + o, up.m);
    PD_STORE(g->ins + o, up.i);
    PD_STORE(g->del + o, up.d);
    if (keep) {
        PD_STORE(g->bm + o, up.bm);
        PD_STORE(g->bi + o, up.bi);
        PD_STORE(g->bd + o, up.bd);
    }
}

static inline __attribute__((always_inline)) void
PD_FN(ustrip)(PD_FN(group) *g, int32_t hmax, int set, int height)
{
    PD_FN(rowc) c[PD_USTRIP];
    for (int r = 0; r < height; r++) {
        const double *t = g->t + (size_t)r * 8 * PD_W;
        double *pri = g->upri + (size_t)r * PD_UCLS_MAX * PD_W;
        for (int k = 0; k < g->ucls_n; k++)
            PD_STORE(pri + (size_t)k * PD_W,
                     PD_PRIOR_V(PD_LOADI(g->x + r * PD_W), PD_LOADI(g->xbit + r * PD_W),
                                PD_SET1I(g->ucls_y[k]), PD_SET1I(g->ucls_ym[k]),
                                PD_LOAD(t + 6 * PD_W), PD_LOAD(t + 7 * PD_W)));
        c[r].mm = PD_LOAD(t + DPA_PD_MM * PD_W);
        c[r].gm = PD_LOAD(t + DPA_PD_GM * PD_W);
        c[r].mi = PD_LOAD(t + DPA_PD_MI * PD_W);
        c[r].ii = PD_LOAD(t + DPA_PD_II * PD_W);
        c[r].md = PD_LOAD(t + DPA_PD_MD * PD_W);
        c[r].dd = PD_LOAD(t + DPA_PD_DD * PD_W);
        c[r].pri = pri;
    }
    const PD_VEC zero = PD_SET1(0.0);
    /* column 0: the row above's values are the first diagonal (its branch values there are
     * zeros in every row); the strip's own are zeros */
    PD_FN(cell) top_d = { PD_LOAD(g->m), PD_LOAD(g->ins), PD_LOAD(g->del), zero, zero, zero };
    PD_FN(cell) left[PD_USTRIP];
    for (int r = 0; r < height; r++) left[r] = (PD_FN(cell)){ zero, zero, zero, zero, zero, zero };
    PD_STORE(g->m, zero);
    PD_STORE(g->ins, zero);
    PD_STORE(g->del, zero);
    const uint8_t *code = g->ucode[set];
    const size_t cols = (size_t)hmax + 1;
    for (size_t j = 1; j < cols; j++) {
#define PD_UCASE(x)                                                                            \
    case x:                                                                                    \
        PD_FN(ucolumn)(g, j, height, (x) % 3, (x) / 3 % 2, (x) / 6, c, left, &top_d);          \
        break;
        switch (code[j]) {
        PD_UCASE(0) PD_UCASE(1) PD_UCASE(2) PD_UCASE(3) PD_UCASE(4) PD_UCASE(5)
        PD_UCASE(6) PD_UCASE(7) PD_UCASE(8) PD_UCASE(9) PD_UCASE(10) PD_UCASE(11)
        default: break;
        }
#undef PD_UCASE
    }
}

/* Rows i .. i + height - 1 of a uniform group, height 1 or 2 (the strip cut at row 1, whose
 * states differ, and at each lane's last row, which must be in the arrays to be summed). */
static void PD_FN(urows)(PD_FN(group) *g, int32_t hmax, int set, int height)
{
    if (height == 2) PD_FN(ustrip)(g, hmax, set, 2);
    else PD_FN(ustrip)(g, hmax, set, 1);
}

static void PD_FN(group_run)(PD_FN(group) *g, const dpa_pdhmm_pair *p, int32_t hmax,
                             int32_t rmax, int lanes, int uniform, double *res)
{
    const size_t cols = (size_t)hmax + 1;
    double *const rows[6] = { g->m, g->ins, g->del, g->bm, g->bi, g->bd };
    for (int a = 0; a < 6; a++) memset(rows[a], 0, sizeof(double) * cols * PD_W);
    for (int l = 0; l < PD_W; l++) {
        const double d0 = DPA_PDHMM_INITIAL / p[l].hap_len;
        for (size_t j = 0; j < cols; j++) g->del[j * PD_W + l] = d0;
    }
    for (int32_t i = 1; i <= rmax; i++) {
        const int set = i == 1 ? 0 : 1;
        if (uniform) {
            int height = 1;
            if (i > 1 && i < rmax) {
                height = 2;
                for (int l = 0; l < lanes; l++)
                    if (p[l].read_len == i) height = 1;
            }
            for (int r = 0; r < height; r++) PD_FN(row_constants)(g, p, i + r, r);
            PD_FN(urows)(g, hmax, set, height);
            i += height - 1;
            goto row_done;
        }
        PD_FN(row_constants)(g, p, i, 0);
        const PD_FN(mask_t) *after = g->after[set], *inside = g->inside[set], *delend = g->delend;
        const PD_VEC mm = PD_LOAD(g->t + DPA_PD_MM * PD_W), gm = PD_LOAD(g->t + DPA_PD_GM * PD_W);
        const PD_VEC mi = PD_LOAD(g->t + DPA_PD_MI * PD_W), ii = PD_LOAD(g->t + DPA_PD_II * PD_W);
        const PD_VEC md = PD_LOAD(g->t + DPA_PD_MD * PD_W), dd = PD_LOAD(g->t + DPA_PD_DD * PD_W);
        const PD_VEC match = PD_LOAD(g->t + 6 * PD_W), mismatch = PD_LOAD(g->t + 7 * PD_W);
        const PD_IVEC rx = PD_LOADI(g->x), rxbit = PD_LOADI(g->xbit);
        /* diagonal (row i-1, column j-1) and left (row i, column j-1) values */
        PD_VEC d_m = PD_LOAD(g->m), d_i = PD_LOAD(g->ins), d_d = PD_LOAD(g->del);
        PD_VEC d_bm = PD_LOAD(g->bm), d_bi = PD_LOAD(g->bi), d_bd = PD_LOAD(g->bd);
        const PD_VEC zero = PD_SET1(0.0);
        PD_VEC l_m = zero, l_i = zero, l_d = zero, l_bm = zero, l_bi = zero, l_bd = zero;
        PD_STORE(g->m, zero);
        PD_STORE(g->ins, zero);
        PD_STORE(g->del, zero);
        PD_STORE(g->bm, zero);
        PD_STORE(g->bi, zero);
        PD_STORE(g->bd, zero);
        for (size_t j = 1; j < cols; j++) {
            const size_t o = j * PD_W;
            const PD_MASK is_after = PD_COLMASK(after, j), is_inside = PD_COLMASK(inside, j);
            const PD_MASK is_delend = PD_COLMASK(delend, j);
            const PD_VEC t_m = PD_LOAD(g->m + o), t_i = PD_LOAD(g->ins + o);
            const PD_VEC t_bm = PD_LOAD(g->bm + o), t_bi = PD_LOAD(g->bi + o);
            const PD_VEC t_d = PD_LOAD(g->del + o), t_bd = PD_LOAD(g->bd + o);
            /* branch: NORMAL left, INSIDE_DEL left branch, AFTER_DEL their maximum */
            const PD_VEC mx_m = PD_MAX(l_bm, l_m), mx_d = PD_MAX(l_bd, l_d);
            const PD_VEC mx_i = PD_MAX(l_bi, l_i);
            const PD_VEC b_m = PD_BLEND(is_after, PD_BLEND(is_inside, l_m, l_bm), mx_m);
            const PD_VEC b_d = PD_BLEND(is_after, PD_BLEND(is_inside, l_d, l_bd), mx_d);
            const PD_VEC b_i = PD_BLEND(is_after, PD_BLEND(is_inside, l_i, l_bi), mx_i);
            const PD_VEC dm = PD_BLEND(is_after, d_m, PD_MAX(d_bm, d_m));
            const PD_VEC di = PD_BLEND(is_after, d_i, PD_MAX(d_bi, d_i));
            const PD_VEC dd_ = PD_BLEND(is_after, d_d, PD_MAX(d_bd, d_d));
            const PD_VEC lm = PD_BLEND(is_after, l_m, mx_m);
            const PD_VEC ld = PD_BLEND(is_after, l_d, mx_d);
            const PD_VEC prior = PD_PRIOR(rx, rxbit, g->y + o, g->ymask + o, match, mismatch);
            const PD_VEC m = PD_MUL(prior, PD_ADD(PD_ADD(PD_MUL(dm, mm), PD_MUL(di, gm)),
                                                  PD_MUL(dd_, gm)));
            const PD_VEC d = PD_ADD(PD_MUL(lm, md), PD_MUL(ld, dd));
            const PD_VEC up_m = PD_BLEND(is_delend, t_m, PD_MAX(t_bm, t_m));
            const PD_VEC up_i = PD_BLEND(is_delend, t_i, PD_MAX(t_bi, t_i));
            const PD_VEC in = PD_ADD(PD_MUL(up_m, mi), PD_MUL(up_i, ii));
            PD_STORE(g->m + o, m);
            PD_STORE(g->ins + o, in);
            PD_STORE(g->del + o, d);
            PD_STORE(g->bm + o, b_m);
            PD_STORE(g->bi + o, b_i);
            PD_STORE(g->bd + o, b_d);
            d_m = t_m;
            d_i = t_i;
            d_d = t_d;
            d_bm = t_bm;
            d_bi = t_bi;
            d_bd = t_bd;
            l_m = m;
            l_i = in;
            l_d = d;
            l_bm = b_m;
            l_bi = b_i;
            l_bd = b_d;
        }
    row_done:
        for (int l = 0; l < lanes; l++) {
            if (p[l].read_len != i) continue;
            double sum = 0.0;
            for (int32_t j = 1; j <= p[l].hap_len; j++)
                sum += g->m[(size_t)j * PD_W + l] + g->ins[(size_t)j * PD_W + l];
            res[l] = sum;
        }
    }
}

dpa_status PD_FN(dpa_pdhmm_compute)(const dpa_pdhmm_batch *batch, const int32_t *pairs,
                                    int64_t n, int32_t rows, double *out)
{
    int32_t hmax_all = 0;
    for (int64_t k = 0; k < n; k++)
        if (batch->hap_lengths[pairs[k]] > hmax_all) hmax_all = batch->hap_lengths[pairs[k]];
    const size_t words = ((size_t)hmax_all + 1) * PD_W;
    const size_t mwords = sizeof(PD_FN(mask_t)) == 1 ? (size_t)hmax_all + 1 : words;
    /* 2 int64 column arrays, 6 double matrix rows, 2 row codes, 8 row constants, then the 5
     * mask arrays (their size depends on the mask type) */
    const size_t cols = (size_t)hmax_all + 1;
    const size_t bytes = sizeof(int64_t) * (8 * words + (2 * PD_W + 8 * PD_W) * PD_USTRIP) +
                         sizeof(double) * PD_UCLS_MAX * PD_W * PD_USTRIP +
                         sizeof(PD_FN(mask_t)) * 5 * mwords + 3 * cols;
    void *mem = malloc(bytes);
    if (!mem) return DPA_ERR_OUT_OF_MEMORY;
    PD_FN(group) g;
    int64_t *w = mem;
    g.y = w; w += words;
    g.ymask = w; w += words;
    double *dw = (double *)w;
    g.m = dw; dw += words;
    g.ins = dw; dw += words;
    g.del = dw; dw += words;
    g.bm = dw; dw += words;
    g.bi = dw; dw += words;
    g.bd = dw; dw += words;
    g.x = (int64_t *)dw;
    g.xbit = g.x + PD_W * PD_USTRIP;
    g.t = (double *)(g.xbit + PD_W * PD_USTRIP);
    g.upri = g.t + 8 * PD_W * PD_USTRIP;
    PD_FN(mask_t) *mw = (PD_FN(mask_t) *)(g.upri + PD_UCLS_MAX * PD_W * PD_USTRIP);
    g.after[0] = mw; mw += mwords;
    g.inside[0] = mw; mw += mwords;
    g.after[1] = mw; mw += mwords;
    g.inside[1] = mw; mw += mwords;
    g.delend = mw;
    g.ucode[0] = (uint8_t *)(mw + mwords);
    g.ucode[1] = g.ucode[0] + cols;
    g.ucls = g.ucode[1] + cols;
    int32_t *const rest = malloc(sizeof *rest * (size_t)(n > 0 ? n : 1));
    if (!rest) {
        free(mem);
        return DPA_ERR_OUT_OF_MEMORY;
    }

    dpa_fpenv env = dpa_fpenv_enter_f64();
    /* Runs of one haplotype fill uniform groups of PD_W; what is left of each run (and a
     * haplotype with too many column classes) goes to mixed groups afterwards. */
    int64_t nrest = 0;
    for (int64_t k = 0; k < n;) {
        const dpa_pdhmm_pair first = dpa_pdhmm_pair_of(batch, pairs[k]);
        int64_t e = k + 1;
        while (e < n) {
            const dpa_pdhmm_pair q = dpa_pdhmm_pair_of(batch, pairs[e]);
            if (!dpa_pdhmm_same_hap(&q, &first)) break;
            e++;
        }
        const int64_t full = k + (e - k) / PD_W * PD_W;
        if (full > k && PD_FN(uprepare)(&g, &first, rows)) {
            for (; k < full; k += PD_W) {
                dpa_pdhmm_pair p[PD_W];
                int32_t rmax = 0;
                for (int l = 0; l < PD_W; l++) {
                    p[l] = dpa_pdhmm_pair_of(batch, pairs[k + l]);
                    if (p[l].read_len > rmax) rmax = p[l].read_len;
                }
                double res[PD_W];
                PD_FN(group_run)(&g, p, first.hap_len, rmax, PD_W, 1, res);
                for (int l = 0; l < PD_W; l++) out[pairs[k + l]] = res[l];
            }
        }
        for (; k < e; k++) rest[nrest++] = pairs[k];
    }
    for (int64_t k = 0; k < nrest; k += PD_W) {
        const int lanes = nrest - k < PD_W ? (int)(nrest - k) : PD_W;
        dpa_pdhmm_pair p[PD_W];
        int32_t hmax = 0, rmax = 0;
        for (int l = 0; l < PD_W; l++) {
            /* spare lanes repeat the group's last pair; their results are dropped */
            p[l] = dpa_pdhmm_pair_of(batch, rest[k + (l < lanes ? l : lanes - 1)]);
            if (p[l].hap_len > hmax) hmax = p[l].hap_len;
            if (p[l].read_len > rmax) rmax = p[l].read_len;
        }
        double res[PD_W];
        PD_FN(prepare)(&g, p, hmax, rows);
        PD_FN(group_run)(&g, p, hmax, rmax, lanes, 0, res);
        for (int l = 0; l < lanes; l++) out[rest[k + l]] = res[l];
    }
    dpa_fpenv_leave(env);
    free(rest);
    free(mem);
    return DPA_OK;
}
