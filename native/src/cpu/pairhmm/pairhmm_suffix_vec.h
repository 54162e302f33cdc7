/*
 * pairhmm_suffix_vec.h — the prefix + suffix shared computation with SV_W reads in the
 * lanes of a vector (DPACCEL_PAIRHMM_PREFIX=3). Included once per ISA file
 * (pairhmm_suffix_avx2.c: 8 lanes, pairhmm_suffix_avx512.c: 16), which defines SV_W and
 * SV_FN and is compiled with that ISA's flags; the vectors are GCC/Clang vector extensions,
 * lowered to that ISA's instructions.
 *
 * Same computation as pairhmm_suffix_ref.c (math and floating-point argument in
 * pairhmm_suffix.h), column by column, all lanes on the same haplotype, so one plan serves
 * the lane group (reads with the same haplotype list). Reads of different lengths share the
 * rows by being aligned at the BOTTOM: a read of length m_l in a group of R - 1 rows starts
 * below p_l = R - m_l >= 1 pad rows whose transitions are mm = gm = mi = ii = md = 0,
 * dd = 1 and whose priors are 0. In the forward, a pad row then keeps M = I = 0 and
 * D = initial / n in every column (D[i][j] = D[i][j-1] * 1), which is exactly the reference's
 * row 0 as seen by the read's first row. In the backward, pad rows above p_l stay 0 (their
 * priors are 0) and row p_l (dd = 1, md = 0) accumulates sum_j g gm(first row), which is Z:
 * so the join is one dot product over rows 1..R, Z included, with no per-lane special case.
 * Every lane has at least one pad row (R = longest read + 1) so the kernel's row 0 is never
 * a read's row 0.
 */
#include <float.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "common/fpenv.h"
#include "cpu/pairhmm/pairhmm_suffix.h"

typedef float SV_FN(svf) __attribute__((vector_size(SV_W * 4)));
typedef int32_t SV_FN(svi) __attribute__((vector_size(SV_W * 4)));
typedef double SV_FN(svd) __attribute__((vector_size(SV_W * 8)));
#define VF SV_FN(svf)
#define VI SV_FN(svi)
#define VD SV_FN(svd)

/* rows of a forward strip: 16 rows x 14 transition vectors x 64 bytes = 14 KiB of AVX-512
 * transitions plus 3 KiB of states, inside a 32 KiB L1 */
#define SV_STRIP 16

/* SV_WORTH (set by the ISA file): a lane group runs the suffix kernel only when its forward
 * + backward columns are at most this fraction of what the prefix plan alone computes; the
 * others go to the ISA's prefix kernel (SV_PREFIX_FN), faster per cell. */

/* checkpoint slot budget of one lane group (bytes), forward and backward each */
#define SV_SLOT_BUDGET ((size_t)32 << 20)

/* per row: mm gm mi ii md dd, the prior against haplotype bases A, C, G, T and N (one load
 * a cell instead of a compare and a blend; PN = the match prior), then, filled only when a
 * haplotype of the group has another byte, the mismatch prior, the read base and its N mask
 * (ints) for the compare */
enum { SV_MM, SV_GM, SV_MI, SV_II, SV_MD, SV_DD, SV_PA, SV_PN = SV_PA + 4, SV_PX, SV_RB, SV_RN,
       SV_ROW };

/* per quality 0..127: 10^(-q/10) in double, and rounded to float: itself, 1 - it, it / 3 */
typedef struct SV_FN(sv_tables) {
    double err[128];
    float e[128], one_minus[128], third[128];
} SV_FN(sv_tables);

/* index of a haplotype byte's precomputed prior, or -1 */
static inline int SV_FN(sv_base)(uint8_t b)
{
    return b == 'A' ? 0 : b == 'C' ? 1 : b == 'G' ? 2 : b == 'T' ? 3 : b == 'N' ? 4 : -1;
}

static void *SV_FN(sv_alloc)(size_t bytes)
{
    return aligned_alloc(64, (bytes + 63) / 64 * 64);
}

static inline VF SV_FN(sv_prior)(const VF *row, VI hbv, VI hbn)
{
    const VI rb = (VI)row[SV_RB];
    const VI mask = (rb == hbv) | (VI)row[SV_RN] | hbn;
    return (VF)(((VI)row[SV_PN] & mask) | ((VI)row[SV_PX] & ~mask));
}

/* One lane group: reads[0..nr) (nr <= SV_W; lanes nr.. repeat read 0), the plan of their
 * common haplotype list; sums[h * SV_W + l] = lane l's scaled forward sum for haplotype h. */
static dpa_status SV_FN(sv_group)(const dpa_phmm_pair *reads, int nr,
                                  const uint8_t *const *haps, const int32_t *lens,
                                  const dpa_phmm_suffix_plan *sp,
                                  const SV_FN(sv_tables) *tb, double *sums)
{
    const float initial = (float)DPA_PHMM_INITIAL_F32, binit = (float)DPA_PHMM_INITIAL_F32;
    int32_t R = 0;
    for (int l = 0; l < nr; l++)
        if (reads[l].read_len > R) R = reads[l].read_len;
    R += 1;
    const int k = sp->k;
    const size_t col = 3 * ((size_t)R + 1) + 1; /* vectors: M, I, D rows 0..R, the sum */
    const dpa_phmm_prefix_plan *fp = &sp->fwd, *bp = &sp->bwd;
    const int32_t ns = fp->nslots > bp->nslots ? fp->nslots : bp->nslots;
    VF *tr = SV_FN(sv_alloc)(sizeof(VF) * SV_ROW * ((size_t)R + 1));
    VF *cur = SV_FN(sv_alloc)(sizeof(VF) * col);
    VI *pad = SV_FN(sv_alloc)(sizeof(VI) * ((size_t)R + 1));
    VF *slots = SV_FN(sv_alloc)(sizeof(VF) * col * (size_t)(ns > 0 ? ns : 1));
    VF *bstate = SV_FN(sv_alloc)(sizeof(VF) * col * (size_t)(sp->nb > 0 ? sp->nb : 1));
    int32_t *bof = malloc(sizeof(int32_t) * (size_t)(k > 0 ? k : 1));
    int32_t nmax = 1;
    for (int32_t h = 0; h < k; h++)
        if (lens[h] > nmax) nmax = lens[h];
    VF *edges = SV_FN(sv_alloc)(sizeof(VF) * 6 * ((size_t)nmax + 1));
    VF *edge_in = edges, *edge_out = edges ? edges + 3 * ((size_t)nmax + 1) : NULL;
    if (!tr || !cur || !pad || !slots || !bstate || !bof || !edges) {
        free(tr), free(cur), free(pad), free(slots), free(bstate), free(bof), free(edges);
        return DPA_ERR_OUT_OF_MEMORY;
    }
    /* rows, lane by lane, straight into tr (memcpy of 4 bytes: one store, no aliasing
     * question): pad rows 0..p_l, then the read's rows; the values are
     * dpa_phmm_transitions' and the priors', rounded to float, from the tables */
    char *const trb = (char *)tr, *const padb = (char *)pad;
#define SV_PUT(i, q, l, x) memcpy(trb + ((size_t)(i) * SV_ROW + (q)) * sizeof(VF) + 4 * (size_t)(l), &(x), 4)
    int generic = 0; /* a haplotype byte outside ACGTN: the compare needs its rows */
    for (int32_t h = 0; h < k && !generic; h++)
        for (int32_t j = 0; j < lens[h] && !generic; j++) generic = SV_FN(sv_base)(haps[h][j]) < 0;
    const int nval = generic ? SV_ROW : SV_PN + 1;
    const float f0 = 0.0f, f1 = 1.0f;
    for (int l = 0; l < SV_W; l++) {
        const dpa_phmm_pair *p = &reads[l < nr ? l : 0];
        const int32_t pl = R - p->read_len;
        for (int32_t i = 0; i <= R; i++) {
            const int32_t pv = i <= pl ? -1 : 0;
            memcpy(padb + (size_t)i * sizeof(VI) + 4 * (size_t)l, &pv, 4);
            if (i <= pl) {
                for (int q = 0; q < nval; q++) SV_PUT(i, q, l, f0);
                SV_PUT(i, SV_DD, l, f1);
                continue;
            }
            const int32_t r = i - pl - 1; /* read position */
            const uint8_t qi = p->ins_q[r], qd = p->del_q[r], qg = p->gcp_q[r], qb = p->base_q[r];
            const double sid = tb->err[qi] + tb->err[qd];
            const float mm = (float)(1.0 - (sid < 1.0 ? sid : 1.0));
            SV_PUT(i, SV_MM, l, mm);
            SV_PUT(i, SV_GM, l, tb->one_minus[qg]);
            SV_PUT(i, SV_MI, l, tb->e[qi]);
            SV_PUT(i, SV_II, l, tb->e[qg]);
            SV_PUT(i, SV_MD, l, tb->e[qd]);
            SV_PUT(i, SV_DD, l, tb->e[qg]);
            const float pm = tb->one_minus[qb], px = tb->third[qb];
            const int32_t rb = p->read[r], rn = rb == 'N' ? -1 : 0;
            for (int q = 0; q < 4; q++) {
                const float pq = rb == "ACGT"[q] || rn ? pm : px;
                SV_PUT(i, SV_PA + q, l, pq);
            }
            SV_PUT(i, SV_PN, l, pm);
            if (generic) {
                SV_PUT(i, SV_PX, l, px);
                SV_PUT(i, SV_RB, l, rb);
                SV_PUT(i, SV_RN, l, rn);
            }
        }
    }
#undef SV_PUT
    const VF zero = { 0 }, one = zero + 1.0f;
    /* ---- backward (see pairhmm_suffix.h; row R is every lane's last row) ---- */
    VF *bm = cur, *bi = cur + (R + 1), *bd = cur + 2 * ((size_t)R + 1);
    for (int32_t h = 0; h < k; h++) bof[h] = -1;
    for (int32_t q = 0; q < bp->k; q++) {
        const int32_t b = bp->order[q], u = sp->blen[b], r = bp->resume[q];
        const uint8_t *rev = sp->brev[b];
        if (r > 0)
            memcpy(cur, slots + col * (size_t)bp->load_slot[q], sizeof(VF) * col);
        else
            for (size_t e = 0; e < col; e++) cur[e] = zero;
        /* Strips of SV_STRIP rows, bottom strip first, across all t = r + 1 .. u (as the
         * forward's strips): one pass per strip and column, bottom row up, since row i's
         * new cross terms need the full adjoint of row i + 1 (carried in registers, from
         * edge_in at the strip's bottom: the strip below's, or 1 x binit under row R) and
         * its full adjoint needs row i's old cross terms. Row R stays 0. */
        for (int32_t t = r; t <= u; t++) {
            edge_in[2 * (size_t)t] = one * binit;
            edge_in[2 * (size_t)t + 1] = one * binit;
        }
        for (int32_t i1 = R; i1 > 0; i1 -= SV_STRIP) {
            const int32_t i0 = i1 - SV_STRIP > 0 ? i1 - SV_STRIP : 0;
            int32_t s = bp->save_at[q];
            for (int32_t t = r + 1; t <= u; t++) {
                const uint8_t hb = rev[t - 1];
                const VI hbv = (VI){ 0 } + (int32_t)hb, hbn = (VI){ 0 } - (hb == 'N');
                VF am1 = edge_in[2 * (size_t)t], ai1 = edge_in[2 * (size_t)t + 1];
                const int pb = SV_FN(sv_base)(hb);
                for (int32_t i = i1 - 1; i >= i0; i--) {
                    const VF *n1 = tr + SV_ROW * (size_t)(i + 1), *t0 = tr + SV_ROW * (size_t)i;
                    const VF pr = pb >= 0 ? n1[SV_PA + pb] : SV_FN(sv_prior)(n1, hbv, hbn);
                    const VF g = pr * am1, gg = g * n1[SV_GM];
                    const VF ad = bd[i], bmo = bm[i], bio = bi[i];
                    bm[i] = g * n1[SV_MM] + t0[SV_MD] * ad;
                    bi[i] = gg;
                    bd[i] = gg + t0[SV_DD] * ad;
                    const VF ai_i = bio + n1[SV_II] * ai1;
                    am1 = bmo + n1[SV_MI] * ai1;
                    ai1 = ai_i;
                }
                edge_out[2 * (size_t)t] = am1;
                edge_out[2 * (size_t)t + 1] = ai1;
                for (; s < bp->save_at[q + 1] && bp->saves[s].col == t; s++) {
                    VF *sl = slots + col * (size_t)bp->saves[s].slot;
                    const size_t wb = sizeof(VF) * (size_t)(i1 - i0);
                    memcpy(sl + i0, bm + i0, wb);
                    memcpy(sl + (R + 1) + i0, bi + i0, wb);
                    memcpy(sl + 2 * ((size_t)R + 1) + i0, bd + i0, wb);
                    if (i1 == R) sl[R] = sl[2 * (size_t)R + 1] = sl[3 * (size_t)R + 2] = zero;
                }
            }
            VF *x = edge_in;
            edge_in = edge_out;
            edge_out = x;
        }
        memcpy(bstate + col * (size_t)b, cur, sizeof(VF) * col);
        bof[sp->bhap[b]] = b;
    }
    /* ---- forward to each haplotype's cut, then the join in double ---- */
    VF *cm = cur, *ci = cur + (R + 1), *cd = cur + 2 * ((size_t)R + 1);
    for (int32_t q = 0; q < fp->k; q++) {
        const int32_t h = fp->order[q], n = lens[h], r = fp->resume[q], cut = sp->cut[h];
        const uint8_t *hap = haps[h];
        const float cn = initial / (float)n;
        const VF cnv = one * cn;
        VF sum = zero;
        if (r > 0) {
            memcpy(cur, slots + col * (size_t)fp->load_slot[q], sizeof(VF) * col);
            if (fp->load_len[q] != n) { /* another length: pairhmm_prefix.h */
                const float f = cn / (initial / (float)fp->load_len[q]);
                for (size_t e = 0; e < col; e++) cur[e] *= f;
                for (int32_t i = 0; i <= R; i++) /* pad rows are known exactly */
                    cd[i] = (VF)(((VI)cnv & pad[i]) | ((VI)cd[i] & ~pad[i]));
            }
            sum = cur[col - 1];
        } else {
            for (int32_t i = 0; i <= R; i++) {
                cm[i] = ci[i] = zero;
                cd[i] = (VF)((VI)cnv & pad[i]);
            }
        }
        /* Strips of SV_STRIP rows across all the columns r + 1 .. cut: a strip's rows and
         * transitions stay in L1 (a whole column of 16-lane vectors does not); the row
         * above a strip comes from edge_in (column by column, written by the strip above;
         * row 0 for the first strip), its bottom row goes to edge_out. Same operations on
         * the same operands as a column at a time, in the same order per cell. */
        for (int32_t j = r; j <= cut; j++) {
            edge_in[3 * (size_t)j] = edge_in[3 * (size_t)j + 1] = zero;
            edge_in[3 * (size_t)j + 2] = cnv;
        }
        for (int32_t i0 = 1; i0 <= R; i0 += SV_STRIP) {
            const int32_t i1 = i0 + SV_STRIP <= R + 1 ? i0 + SV_STRIP : R + 1;
            const int last = i1 == R + 1;
            edge_out[3 * (size_t)r] = cm[i1 - 1];
            edge_out[3 * (size_t)r + 1] = ci[i1 - 1];
            edge_out[3 * (size_t)r + 2] = cd[i1 - 1];
            int32_t s = fp->save_at[q];
            for (int32_t j = r + 1; j <= cut; j++) {
                const uint8_t hb = hap[j - 1];
                const VI hbv = (VI){ 0 } + (int32_t)hb, hbn = (VI){ 0 } - (hb == 'N');
                const VF *up = edge_in + 3 * (size_t)j, *dg = edge_in + 3 * (size_t)(j - 1);
                VF m_diag = dg[0], x_diag = dg[1], y_diag = dg[2], m_up = up[0], x_up = up[1];
                const int pb = SV_FN(sv_base)(hb);
                for (int32_t i = i0; i < i1; i++) {
                    const VF *t = tr + SV_ROW * (size_t)i;
                    const VF prior = pb >= 0 ? t[SV_PA + pb] : SV_FN(sv_prior)(t, hbv, hbn);
                    const VF m_left = cm[i], x_left = ci[i], y_left = cd[i];
                    const VF mv = prior * (m_diag * t[SV_MM] + (x_diag + y_diag) * t[SV_GM]);
                    const VF xv = m_up * t[SV_MI] + x_up * t[SV_II];
                    const VF yv = m_left * t[SV_MD] + y_left * t[SV_DD];
                    m_diag = m_left;
                    x_diag = x_left;
                    y_diag = y_left;
                    m_up = mv;
                    x_up = xv;
                    cm[i] = mv;
                    ci[i] = xv;
                    cd[i] = yv;
                }
                VF *eo = edge_out + 3 * (size_t)j;
                eo[0] = cm[i1 - 1];
                eo[1] = ci[i1 - 1];
                eo[2] = cd[i1 - 1];
                if (last) sum += cm[R] + ci[R];
                for (; s < fp->save_at[q + 1] && fp->saves[s].col == j; s++) {
                    VF *sl = slots + col * (size_t)fp->saves[s].slot;
                    const size_t w = sizeof(VF) * (size_t)(i1 - i0);
                    memcpy(sl + i0, cm + i0, w);
                    memcpy(sl + (R + 1) + i0, ci + i0, w);
                    memcpy(sl + 2 * ((size_t)R + 1) + i0, cd + i0, w);
                    if (i0 == 1) { /* row 0 once: M = I = 0, D = initial / n */
                        sl[0] = sl[R + 1] = zero;
                        sl[2 * ((size_t)R + 1)] = cnv;
                    }
                    if (last) sl[col - 1] = sum;
                }
            }
            VF *x = edge_in;
            edge_in = edge_out;
            edge_out = x;
        }
        VD tot = __builtin_convertvector(sum, VD);
        if (cut < n) {
            const VF *st = bstate + col * (size_t)bof[h];
            const VF *sm = st, *si = st + (R + 1), *sd = st + 2 * ((size_t)R + 1);
            VD dot = (VD){ 0 };
            for (int32_t i = 1; i <= R; i++)
                dot += __builtin_convertvector(cm[i], VD) * __builtin_convertvector(sm[i], VD) +
                       __builtin_convertvector(ci[i], VD) * __builtin_convertvector(si[i], VD) +
                       __builtin_convertvector(cd[i], VD) * __builtin_convertvector(sd[i], VD);
            tot += dot / (double)binit;
        }
        for (int l = 0; l < SV_W; l++) sums[(size_t)h * SV_W + l] = tot[l];
    }
    free(tr), free(cur), free(pad), free(slots), free(bstate), free(bof), free(edges);
    return DPA_OK;
}

typedef struct SV_FN(sv_run) {
    const dpa_phmm_task *t; /* its tasks (one read, its haplotypes by index) */
    int64_t count;
    int32_t read, len, alone; /* alone: gap qualities break the model */
} SV_FN(sv_run);

static int SV_FN(sv_task_cmp)(const void *a, const void *b)
{
    const dpa_phmm_task *x = a, *y = b;
    if (x->read != y->read) return x->read < y->read ? -1 : 1;
    if (x->hap != y->hap) return x->hap < y->hap ? -1 : 1;
    return (x->out > y->out) - (x->out < y->out);
}

static int SV_FN(sv_same_haps)(const SV_FN(sv_run) *x, const SV_FN(sv_run) *y)
{
    if (x->count != y->count) return 0;
    for (int64_t q = 0; q < x->count; q++)
        if (x->t[q].hap != y->t[q].hap) return 0;
    return 1;
}

/* runs with the same haplotype list next to each other, longest read first (less padding) */
static int SV_FN(sv_run_cmp)(const void *a, const void *b)
{
    const SV_FN(sv_run) *x = a, *y = b;
    if (x->count != y->count) return x->count < y->count ? -1 : 1;
    for (int64_t q = 0; q < x->count; q++)
        if (x->t[q].hap != y->t[q].hap) return x->t[q].hap < y->t[q].hap ? -1 : 1;
    if (x->len != y->len) return x->len > y->len ? -1 : 1;
    return (x->read > y->read) - (x->read < y->read);
}

static int SV_FN(sv_breaks_model)(const dpa_phmm_pair *p, const double *err)
{
    for (int32_t i = 0; i < p->read_len; i++)
        if (err[p->ins_q[i]] + err[p->del_q[i]] > 1.0) return 1;
    return 0;
}

dpa_status SV_FN(dpa_phmm_compute_suffix)(const dpa_pairhmm_batch *batch,
                                          const dpa_phmm_task *tasks, int64_t n,
                                          int32_t precision, double *out,
                                          int64_t *double_recomputes, int64_t *cells_computed,
                                          int32_t unused)
{
    (void)unused;
    if (n <= 0) return DPA_OK;
    if (precision == DPA_PRECISION_DOUBLE) /* suffixes are shared in float passes only */
        return SV_PREFIX_FN(batch, tasks, n, precision, out, double_recomputes,
                            cells_computed, 1);
    const dpa_fpenv caller = dpa_fpenv_enter_f64();
    dpa_status st = DPA_OK;
    int64_t recomputes = 0, nruns = 0;
    dpa_phmm_task *t = malloc(sizeof *t * (size_t)n);
    SV_FN(sv_run) *runs = malloc(sizeof *runs * (size_t)n);
    const uint8_t **haps = malloc(sizeof *haps * (size_t)n);
    int32_t *lens = malloc(sizeof *lens * (size_t)n);
    double *sums = malloc(sizeof *sums * (size_t)n * SV_W);
    dpa_phmm_task *gt = malloc(sizeof *gt * (size_t)n); /* a group's tasks, contiguous */
    double *ref = NULL;
    size_t ref_elems = 0;
    if (!t || !runs || !haps || !lens || !sums || !gt) {
        st = DPA_ERR_OUT_OF_MEMORY;
        goto done;
    }
    /* qualities are 0..127 (validated at the API): 128 pow calls instead of 5 a row */
    SV_FN(sv_tables) tb;
    for (int q = 0; q < 128; q++) {
        const double e = dpa_phmm_err((uint8_t)q);
        tb.err[q] = e;
        tb.e[q] = (float)e;
        tb.one_minus[q] = (float)(1.0 - e);
        tb.third[q] = (float)(e / 3.0);
    }
    const double *err = tb.err;
    memcpy(t, tasks, sizeof *t * (size_t)n);
    int sorted = 1; /* the engine lays out each read's pairs in haplotype order */
    for (int64_t a = 1; a < n && sorted; a++) sorted = SV_FN(sv_task_cmp)(&t[a - 1], &t[a]) <= 0;
    if (!sorted) qsort(t, (size_t)n, sizeof *t, SV_FN(sv_task_cmp));
    for (int64_t a = 0; a < n;) {
        int64_t b = a;
        while (b < n && t[b].read == t[a].read) b++;
        const dpa_phmm_pair rp = dpa_phmm_pair_of(batch, &t[a]);
        runs[nruns++] = (SV_FN(sv_run)){ t + a, b - a, t[a].read, rp.read_len,
                                          SV_FN(sv_breaks_model)(&rp, err) };
        a = b;
    }
    qsort(runs, (size_t)nruns, sizeof *runs, SV_FN(sv_run_cmp));
    for (int64_t a = 0; a < nruns;) {
        if (runs[a].alone) {
            st = SV_PREFIX_FN(batch, runs[a].t, runs[a].count, precision, out, &recomputes,
                              cells_computed, 1);
            if (st) goto done;
            a++;
            continue;
        }
        int64_t b = a + 1;
        while (b < nruns && b - a < SV_W && !runs[b].alone && SV_FN(sv_same_haps)(&runs[a], &runs[b]))
            b++;
        const int nr = (int)(b - a);
        const int32_t k = (int32_t)runs[a].count;
        dpa_phmm_pair rp[SV_W];
        for (int l = 0; l < nr; l++) rp[l] = dpa_phmm_pair_of(batch, &runs[a + l].t[0]);
        for (int32_t q = 0; q < k; q++) {
            dpa_phmm_pair hp = dpa_phmm_pair_of(batch, &runs[a].t[q]);
            haps[q] = hp.hap;
            lens[q] = hp.hap_len;
        }
        /* the longest read is first (sort order): R = its length + 1 */
        const size_t slot_bytes = (3 * ((size_t)runs[a].len + 2) + 1) * SV_W * sizeof(float);
        size_t max_slots = SV_SLOT_BUDGET / slot_bytes;
        if (max_slots > (size_t)k) max_slots = (size_t)k;
        dpa_phmm_suffix_plan plan;
        st = dpa_phmm_suffix_plan_build(haps, lens, k, (int32_t)max_slots, &plan);
        if (st == DPA_OK && (double)(plan.cols_forward + plan.cols_backward) >
                                SV_WORTH * (double)plan.fwd.cols_computed) {
            /* suffixes save too little here: the prefix kernels (about twice as fast per
             * cell, pairhmm_suffix.h's plan minus the suffixes) take the group */
            dpa_phmm_suffix_plan_free(&plan);
            for (int l = 0; l < nr; l++)
                memcpy(gt + (size_t)l * k, runs[a + l].t, sizeof *gt * (size_t)k);
            st = SV_PREFIX_FN(batch, gt, (int64_t)nr * k, precision, out, &recomputes,
                              cells_computed, 1);
            if (st) goto done;
            a = b;
            continue;
        }
        if (st == DPA_OK) {
            dpa_fpenv_enter_f32();
            st = SV_FN(sv_group)(rp, nr, haps, lens, &plan, &tb, sums);
            dpa_fpenv_enter_f64();
        }
        for (int l = 0; l < nr && st == DPA_OK; l++) {
            *cells_computed += (int64_t)rp[l].read_len * (plan.cols_forward + plan.cols_backward);
            const double m1 = (double)rp[l].read_len + 1.0;
            for (int32_t q = 0; q < k; q++) {
                const dpa_phmm_task *tk = &runs[a + l].t[q];
                const int32_t u = lens[q] - plan.cut[q];
                /* pairhmm_suffix.h: mass lost to flushed backward values */
                const double lost = 16.0 * (m1 + 1.0) * ((double)u + 1.0) * (double)FLT_MIN;
                const double s = sums[(size_t)q * SV_W + l];
                if ((float)s >= DPA_PHMM_MIN_ACCEPTED && isfinite((float)s) &&
                    (u == 0 || s * 1e-5 >= lost)) {
                    out[tk->out] = log10(s) - DPA_PHMM_LOG10_INITIAL_F32;
                    continue;
                }
                const dpa_phmm_pair pp = dpa_phmm_pair_of(batch, tk);
                if ((st = dpa_phmm_recompute_f64(&pp, &ref, &ref_elems, &out[tk->out]))) break;
                recomputes++;
            }
        }
        dpa_phmm_suffix_plan_free(&plan);
        if (st) goto done;
        a = b;
    }
    *double_recomputes += recomputes;
done:
    dpa_fpenv_leave(caller);
    free(t), free(runs), free(haps), free(lens), free(sums), free(gt), free(ref);
    return st;
}

#undef VF
#undef VI
#undef VD
