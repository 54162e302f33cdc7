/*
 * pairhmm_simd_prefix.h — the shared (prefix) inter-task kernel and its driver, a template
 * over the same parameters as pairhmm_simd.h (include it right after each part of that
 * file, with the same PH_PART_* defined). Design: docs/pairhmm.md, "Prefix sharing".
 *
 * Lanes are up to PH_W READS of one region; every lane runs the same haplotype, in the
 * plan's order (pairhmm_prefix.h). A haplotype that resumes from column c starts every row
 * strip with the strip rows' (M, I, D) at column c and the row above at column c taken
 * from a checkpoint slot, and continues with the exact operations of PH_FN(strip), so
 * every cell equals the one the plain kernels compute. The sum of (M + I) over the last
 * row is kept per lane in column order and checkpointed with the columns.
 *
 * Slot layout (vectors): rows 1..max_r of column c, (M, I, D) per row, then one vector of
 * per-lane partial sums (lane l: sum over columns 1..c of its last row).
 */
#include "cpu/pairhmm/pairhmm_prefix.h"

/* ===================================================================================== */
#if defined(PH_PART_KERNEL)

/* Columns j0..j1 of R strip rows; st holds (mp, ip, dp) per strip row, then the row
 * above's (M, I, D) at column j0-1, and receives them at column j1. */
static inline __attribute__((always_inline)) void
PH_FN(pstrip)(const int R, const int32_t j0, const int32_t j1, PH_T *restrict M,
              PH_T *restrict I, PH_T *restrict D, const PH_CODE_T *restrict hcode,
              const PH_CODE_T *restrict rcode, const PH_T *restrict tr, PH_VEC *st)
{
    PH_VEC mp[PH_RMAX], ip[PH_RMAX], dp[PH_RMAX];
#pragma GCC unroll 8
    for (int r = 0; r < R; r++) {
        mp[r] = st[3 * r];
        ip[r] = st[3 * r + 1];
        dp[r] = st[3 * r + 2];
    }
    PH_VEC tm = st[3 * PH_RMAX], ti = st[3 * PH_RMAX + 1], td = st[3 * PH_RMAX + 2];
    for (int32_t j = j0; j <= j1; j++) {
        const size_t o = (size_t)j * PH_W;
        PH_VEC um = PH_LOAD(M + o), ui = PH_LOAD(I + o);
        PH_VEC dm = tm, di = ti, dd = td;
        tm = um;
        ti = ui;
        td = PH_LOAD(D + o);
        const PH_CVEC hc = PH_CLOAD(hcode + o - PH_W);
#pragma GCC unroll 8
        for (int r = 0; r < R; r++) {
            /* the expressions of PH_FN(strip), operand for operand */
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
#pragma GCC unroll 8
    for (int r = 0; r < R; r++) {
        st[3 * r] = mp[r];
        st[3 * r + 1] = ip[r];
        st[3 * r + 2] = dp[r];
    }
    st[3 * PH_RMAX] = tm;
    st[3 * PH_RMAX + 1] = ti;
    st[3 * PH_RMAX + 2] = td;
}

static void PH_FN(pstrip_any)(int R, int32_t j0, int32_t j1, PH_T *M, PH_T *I, PH_T *D,
                              const PH_CODE_T *hcode, const PH_CODE_T *rcode, const PH_T *tr,
                              PH_VEC *st)
{
    if (j0 > j1) return;
    switch (R) {
#if PH_RMAX > 1
    case 1: PH_FN(pstrip)(1, j0, j1, M, I, D, hcode, rcode, tr, st); break;
#endif
#if PH_RMAX > 2
    case 2: PH_FN(pstrip)(2, j0, j1, M, I, D, hcode, rcode, tr, st); break;
#endif
#if PH_RMAX > 3
    case 3: PH_FN(pstrip)(3, j0, j1, M, I, D, hcode, rcode, tr, st); break;
#endif
    default: PH_FN(pstrip)(PH_RMAX, j0, j1, M, I, D, hcode, rcode, tr, st); break;
    }
}

/* Scratch of the shared kernel, carved by the driver (sizes in its reserve function). */
typedef struct PH_FN(pscratch) {
    PH_T *rows;       /* 3 (max_hap + 1) vectors                   */
    PH_CODE_T *hcode; /* max_hap vectors                           */
    PH_CODE_T *rcode; /* max_read vectors                          */
    PH_T *tr;         /* max_read * PH_TR_N vectors                */
    PH_T *slots;      /* nslots * (3 max_read + 1) vectors         */
} PH_FN(pscratch);

/* nl reads (lane l: reads[l], read fields only) against the plan's haplotypes;
 * sums[h * PH_W + l] = scaled forward sum of (read l, haplotype h). Returns 0, computing
 * nothing, when the block needs more than 32 base symbols (the caller runs it plainly). */
static int PH_FN(prefix_block)(const dpa_phmm_pair *reads, int nl, const uint8_t *const *haps,
                               const int32_t *lens, const dpa_phmm_prefix_plan *plan,
                               const PH_FN(pscratch) *s, ph_tables *tb, PH_T initial,
                               PH_T *sums)
{
    const dpa_phmm_pair *lane[PH_W];
    int32_t rl[PH_W], max_r = 0;
    for (int l = 0; l < PH_W; l++) {
        lane[l] = l < nl ? &reads[l] : NULL;
        rl[l] = l < nl ? reads[l].read_len : 0;
        if (rl[l] > max_r) max_r = rl[l];
    }
    /* one coder for the block: equal bytes get equal codes in every lane and haplotype */
    ph_coder c;
    ph_coder_init(&c);
    memset(s->rcode, 0, (size_t)max_r * PH_W * sizeof(PH_CODE_T));
    for (int l = 0; l < nl; l++)
        for (int32_t i = 0; i < rl[l]; i++) {
            const uint32_t v = ph_code(&c, lane[l]->read[i]);
            if (!v) return 0;
            s->rcode[(size_t)i * PH_W + l] = v == 0xffffffffu ? (PH_CODE_T)-1 : (PH_CODE_T)v;
        }
    for (int32_t h = 0; h < plan->k; h++)
        for (int32_t j = 0; j < lens[h]; j++)
            if (!ph_code(&c, haps[h][j])) return 0;
    for (int32_t i0 = 0; i0 < max_r; i0++)
        for (int l = 0; l < PH_W; l++)
            PH_FN(row_transitions)(s->tr + (size_t)i0 * PH_TR_N * PH_W + l, lane[l], i0, tb);

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
    const size_t slot_vecs = 3 * (size_t)max_r + 1;
    int32_t max_h = 0;
    for (int32_t h = 0; h < plan->k; h++)
        if (lens[h] > max_h) max_h = lens[h];
    PH_T *M = s->rows, *I = M + ((size_t)max_h + 1) * PH_W, *D = I + ((size_t)max_h + 1) * PH_W;
    PH_VEC st[3 * PH_RMAX + 3];

    for (int32_t q = 0; q < plan->k; q++) {
        const int32_t h = plan->order[q], n = lens[h], c0 = plan->resume[q];
        const PH_T *in = c0 > 0 ? s->slots + (size_t)plan->load_slot[q] * slot_vecs * PH_W : NULL;
        /* a checkpoint of another length: scaled by the ratio of the first-row deletion
         * values (pairhmm_prefix.h), the scalar reference's expression */
        const int scale = in && plan->load_len[q] != n;
        const PH_VEC fv = PH_SET1(scale ? (initial / (PH_T)n) / (initial / (PH_T)plan->load_len[q])
                                        : (PH_T)1);
#define PH_LOAD_CP(p) (scale ? PH_MUL(PH_LOAD(p), fv) : PH_LOAD(p))
        const dpa_phmm_save *sv = plan->saves + plan->save_at[q];
        const int nsv = plan->save_at[q + 1] - plan->save_at[q];
        for (int32_t j = c0 + 1; j <= n; j++) {
            const uint32_t v = c.map[haps[h][j - 1]];
            const PH_CODE_T code = v == 0xffffffffu ? (PH_CODE_T)-1 : (PH_CODE_T)v;
            for (int l = 0; l < PH_W; l++) s->hcode[(size_t)(j - 1) * PH_W + l] = code;
        }
        /* row 0: M = I = 0, D = initial / n (rounded as the reference) */
        const PH_VEC d0v = PH_SET1(initial / (PH_T)n);
        for (int32_t j = c0; j <= n; j++) {
            PH_STORE(M + (size_t)j * PH_W, PH_ZERO());
            PH_STORE(I + (size_t)j * PH_W, PH_ZERO());
            PH_STORE(D + (size_t)j * PH_W, d0v);
        }
        int32_t i0 = 0;
        for (int e = 0; e < ne; e++) {
            while (i0 < ends[e]) {
                const int R = ends[e] - i0 < PH_RMAX ? (int)(ends[e] - i0) : PH_RMAX;
                const size_t oc = (size_t)c0 * PH_W;
                for (int r = 0; r < R; r++) {
                    if (in) {
                        const PH_T *x = in + ((size_t)(i0 + r) * 3) * PH_W;
                        st[3 * r] = PH_LOAD_CP(x);
                        st[3 * r + 1] = PH_LOAD_CP(x + PH_W);
                        st[3 * r + 2] = PH_LOAD_CP(x + 2 * PH_W);
                    } else {
                        st[3 * r] = st[3 * r + 1] = st[3 * r + 2] = PH_ZERO();
                    }
                }
                if (i0 > 0) {
                    /* the row above at column c0: row i0 of the checkpoint, or column 0 */
                    if (in) {
                        const PH_T *x = in + ((size_t)(i0 - 1) * 3) * PH_W;
                        PH_STORE(M + oc, PH_LOAD_CP(x));
                        PH_STORE(I + oc, PH_LOAD_CP(x + PH_W));
                        PH_STORE(D + oc, PH_LOAD_CP(x + 2 * PH_W));
                    } else {
                        PH_STORE(M + oc, PH_ZERO());
                        PH_STORE(I + oc, PH_ZERO());
                        PH_STORE(D + oc, PH_ZERO());
                    }
                }
                st[3 * PH_RMAX] = PH_LOAD(M + oc);
                st[3 * PH_RMAX + 1] = PH_LOAD(I + oc);
                st[3 * PH_RMAX + 2] = PH_LOAD(D + oc);
                const PH_CODE_T *rc = s->rcode + (size_t)i0 * PH_W;
                const PH_T *tr = s->tr + (size_t)i0 * PH_TR_N * PH_W;
                int32_t cur = c0;
                for (int a = 0; a < nsv; a++) {
                    PH_FN(pstrip_any)(R, cur + 1, sv[a].col, M, I, D, s->hcode, rc, tr, st);
                    cur = sv[a].col;
                    PH_T *x = s->slots + (size_t)sv[a].slot * slot_vecs * PH_W +
                              ((size_t)i0 * 3) * PH_W;
                    for (int r = 0; r < R; r++) {
                        PH_STORE(x + (size_t)(3 * r) * PH_W, st[3 * r]);
                        PH_STORE(x + (size_t)(3 * r + 1) * PH_W, st[3 * r + 1]);
                        PH_STORE(x + (size_t)(3 * r + 2) * PH_W, st[3 * r + 2]);
                    }
                }
                PH_FN(pstrip_any)(R, cur + 1, n, M, I, D, s->hcode, rc, tr, st);
                i0 += R;
            }
            /* row ends[e]: lanes ending here sum columns 1..n in order, resuming from the
             * checkpoint's partial sums and leaving theirs in the saved slots */
            PH_VEC acc = in ? PH_LOAD_CP(in + (slot_vecs - 1) * PH_W) : PH_ZERO();
            int32_t cur = c0;
            for (int a = 0; a <= nsv; a++) {
                const int32_t to = a < nsv ? sv[a].col : n;
                for (int32_t j = cur + 1; j <= to; j++) {
                    const size_t o = (size_t)j * PH_W;
                    acc = PH_ADD(acc, PH_ADD(PH_LOAD(M + o), PH_LOAD(I + o)));
                }
                cur = to;
                PH_T av[PH_W] __attribute__((aligned(64)));
                PH_STORE(av, acc);
                PH_T *dst = a < nsv ? s->slots + ((size_t)sv[a].slot * slot_vecs + slot_vecs - 1) * PH_W
                                    : sums + (size_t)h * PH_W;
                for (int l = 0; l < PH_W; l++)
                    if (rl[l] == ends[e]) dst[l] = av[l];
            }
        }
#undef PH_LOAD_CP
    }
    return 1;
}

#endif /* PH_PART_KERNEL */

/* ===================================================================================== */
#if defined(PH_PART_DRIVER)

/* Checkpoint memory of one call, bytes: beyond it the plan drops checkpoints (exact,
 * less shared). */
#ifndef PH_PREFIX_SLOT_BUDGET
#define PH_PREFIX_SLOT_BUDGET ((size_t)32 << 20)
#endif

typedef struct ph_pitem {
    int32_t read, hap, read_len;
    int64_t out;
} ph_pitem;

static int ph_pitem_cmp(const void *a, const void *b)
{
    const ph_pitem *x = (const ph_pitem *)a, *y = (const ph_pitem *)b;
    if (x->read != y->read) return x->read < y->read ? -1 : 1;
    if (x->hap != y->hap) return x->hap < y->hap ? -1 : 1;
    return (x->out > y->out) - (x->out < y->out);
}

/* One read's tasks: items[start .. start + k), haplotypes ascending. */
typedef struct ph_prow {
    int64_t start;
    int32_t k, first_hap, read_len, read;
} ph_prow;

/* Reads of one haplotype list together (a region's reads share its first haplotype
 * index), longest first inside it so lane groups have similar lengths. */
static int ph_prow_cmp(const void *a, const void *b)
{
    const ph_prow *x = (const ph_prow *)a, *y = (const ph_prow *)b;
    if (x->first_hap != y->first_hap) return x->first_hap < y->first_hap ? -1 : 1;
    if (x->k != y->k) return x->k < y->k ? -1 : 1;
    if (x->read_len != y->read_len) return x->read_len < y->read_len ? 1 : -1;
    return (x->read > y->read) - (x->read < y->read);
}

typedef struct PH_F32(pstate) {
    void *block;
    size_t cap;
} PH_F32(pstate);

/* Carves the shared kernel's scratch (vectors of vb bytes, codes of cb bytes). */
static int PH_F32(preserve)(PH_F32(pstate) *ps, int32_t max_r, int32_t max_h, int32_t nslots,
                            size_t vb, void **rows, void **hcode, void **rcode, void **tr,
                            void **slots)
{
    const size_t sz[5] = { 3 * ((size_t)max_h + 1) * vb, (size_t)max_h * vb, (size_t)max_r * vb,
                           (size_t)max_r * PH_TR_N * vb,
                           (size_t)nslots * (3 * (size_t)max_r + 1) * vb };
    size_t total = 0;
    for (int k = 0; k < 5; k++) total += ph_round_up(sz[k] > 0 ? sz[k] : 1, 64);
    if (total > ps->cap) {
        free(ps->block);
        ps->block = aligned_alloc(64, total);
        ps->cap = ps->block ? total : 0;
        if (!ps->block) return 0;
    }
    char *at = (char *)ps->block;
    void **dst[5] = { rows, hcode, rcode, tr, slots };
    for (int k = 0; k < 5; k++) {
        *dst[k] = at;
        at += ph_round_up(sz[k] > 0 ? sz[k] : 1, 64);
    }
    return 1;
}

/* Sharing pays when the vector cells the shared kernel computes are fewer than the
 * useful cells (what the plain kernels cost at full occupancy). */
#ifndef PH_PREFIX_RATIO
#define PH_PREFIX_RATIO 1.0
#endif

dpa_status PH_PREFIX_ENTRY(const dpa_pairhmm_batch *batch, const dpa_phmm_task *tasks,
                           int64_t n, int32_t precision, double *out,
                           int64_t *double_recomputes, int64_t *cells_computed,
                           int32_t across_lengths)
{
    if (n <= 0) return DPA_OK;
    dpa_status status = DPA_OK;
    const int is_double = precision == DPA_PRECISION_DOUBLE;
    const int W = is_double ? PH_W64 : PH_W32;
    const size_t esz = is_double ? sizeof(double) : sizeof(float);
    ph_pitem *it = (ph_pitem *)malloc((size_t)n * sizeof *it);
    dpa_phmm_task *plain = (dpa_phmm_task *)malloc((size_t)n * sizeof *plain);
    dpa_phmm_task *redo = (dpa_phmm_task *)malloc((size_t)n * sizeof *redo);
    ph_prow *rows = (ph_prow *)malloc((size_t)n * sizeof *rows);
    const uint8_t **haps = NULL;
    int32_t *lens = NULL;
    double *sums = NULL;
    PH_F32(pstate) ps = { NULL, 0 };
    int64_t nplain = 0, nredo = 0, nrows = 0;
    ph_tables tb;
    /* the caller's MXCSR (sticky flags included) is restored on return, as PH_ENTRY does */
    const dpa_fpenv caller = dpa_fpenv_enter_f64();
    if (!it || !plain || !redo || !rows) {
        status = DPA_ERR_OUT_OF_MEMORY;
        goto done;
    }
    for (int64_t k = 0; k < n; k++) {
        it[k].read = tasks[k].read;
        it[k].hap = tasks[k].hap;
        it[k].read_len = batch->read_lengths[tasks[k].read];
        it[k].out = tasks[k].out;
    }
    qsort(it, (size_t)n, sizeof *it, ph_pitem_cmp);
    for (int64_t k = 0; k < n; k++) {
        if (k == 0 || it[k].read != it[k - 1].read)
            rows[nrows++] = (ph_prow){ k, 0, it[k].hap, it[k].read_len, it[k].read };
        rows[nrows - 1].k++;
    }
    qsort(rows, (size_t)nrows, sizeof *rows, ph_prow_cmp);
    ph_tables_init(&tb);

    for (int64_t r = 0; r < nrows;) {
        /* a block: up to W consecutive reads with the same haplotype list */
        const int64_t a0 = rows[r].start;
        const int32_t K = rows[r].k;
        int nl = 1;
        while (nl < W && r + nl < nrows && rows[r + nl].k == K) {
            const ph_pitem *x = it + rows[r + nl].start;
            int same = 1;
            for (int32_t q = 0; q < K && same; q++) same = x[q].hap == it[a0 + q].hap;
            if (!same) break;
            nl++;
        }
        int shared = 0;
        if (K > 1) {
            haps = (const uint8_t **)realloc((void *)haps, (size_t)K * sizeof *haps);
            lens = (int32_t *)realloc(lens, (size_t)K * sizeof *lens);
            sums = (double *)realloc(sums, (size_t)K * PH_WMAX * sizeof *sums);
            if (!haps || !lens || !sums) {
                status = DPA_ERR_OUT_OF_MEMORY;
                goto done;
            }
            int32_t max_h = 0;
            for (int32_t q = 0; q < K; q++) {
                haps[q] = batch->hap_bases + batch->hap_offsets[it[a0 + q].hap];
                lens[q] = batch->hap_lengths[it[a0 + q].hap];
                if (lens[q] > max_h) max_h = lens[q];
            }
            const int32_t max_r = it[a0].read_len; /* reads sorted by descending length */
            const size_t slot_bytes = (3 * (size_t)max_r + 1) * (size_t)W * esz;
            size_t max_slots = PH_PREFIX_SLOT_BUDGET / slot_bytes;
            if (max_slots > (size_t)K) max_slots = (size_t)K;
            dpa_phmm_prefix_plan plan;
            if (dpa_phmm_prefix_plan_build(haps, lens, K, (int32_t)max_slots, across_lengths,
                                           &plan)) {
                dpa_phmm_prefix_plan_free(&plan);
                status = DPA_ERR_OUT_OF_MEMORY;
                goto done;
            }
            double useful = 0;
            for (int l = 0; l < nl; l++)
                useful += (double)it[rows[r + l].start].read_len * (double)plan.cols_total;
            if ((double)W * max_r * (double)plan.cols_computed < PH_PREFIX_RATIO * useful) {
                void *rowbuf, *hcode, *rcode, *tr, *slots;
                if (!PH_F32(preserve)(&ps, max_r, max_h, plan.nslots, (size_t)W * esz, &rowbuf,
                                      &hcode, &rcode, &tr, &slots)) {
                    dpa_phmm_prefix_plan_free(&plan);
                    status = DPA_ERR_OUT_OF_MEMORY;
                    goto done;
                }
                dpa_phmm_pair rd[PH_WMAX];
                for (int l = 0; l < nl; l++) {
                    dpa_phmm_task t0 = { it[rows[r + l].start].read, it[rows[r + l].start].hap, 0 };
                    rd[l] = dpa_phmm_pair_of(batch, &t0);
                }
                if (is_double) {
                    PH_F64(pscratch) sc = { (double *)rowbuf, (uint64_t *)hcode,
                                             (uint64_t *)rcode, (double *)tr, (double *)slots };
                    shared = PH_F64(prefix_block)(rd, nl, haps, lens, &plan, &sc, &tb,
                                                  DPA_PHMM_INITIAL_F64, sums);
                } else {
                    PH_F32(pscratch) sc = { (float *)rowbuf, (uint32_t *)hcode,
                                             (uint32_t *)rcode, (float *)tr, (float *)slots };
                    float *fs = (float *)sums;
                    dpa_fpenv_enter_f32();
                    shared = PH_F32(prefix_block)(rd, nl, haps, lens, &plan, &sc, &tb,
                                                  (float)DPA_PHMM_INITIAL_F32, fs);
                    dpa_fpenv_enter_f64();
                }
            }
            if (shared)
                for (int l = 0; l < nl; l++)
                    *cells_computed += (int64_t)it[rows[r + l].start].read_len * plan.cols_computed;
            dpa_phmm_prefix_plan_free(&plan);
        }
        for (int l = 0; l < nl; l++) {
            const ph_pitem *x = it + rows[r + l].start;
            for (int32_t q = 0; q < K; q++) {
                const dpa_phmm_task t = { x[q].read, x[q].hap, x[q].out };
                if (!shared) {
                    plain[nplain++] = t;
                    *cells_computed += (int64_t)x[q].read_len * batch->hap_lengths[x[q].hap];
                } else if (is_double) {
                    out[t.out] = log10(sums[(size_t)q * W + l]) - DPA_PHMM_LOG10_INITIAL_F64;
                } else {
                    const float v = ((const float *)sums)[(size_t)q * W + l];
                    if (!(v >= DPA_PHMM_MIN_ACCEPTED))
                        redo[nredo++] = t; /* the per-pair rule */
                    else
                        out[t.out] = log10((double)v) - DPA_PHMM_LOG10_INITIAL_F32;
                }
            }
        }
        r += nl;
    }
    if (nplain > 0 &&
        (status = PH_ENTRY(batch, plain, nplain, precision, out, double_recomputes)))
        goto done;
    if (nredo > 0) {
        int64_t none = 0;
        if ((status = PH_ENTRY(batch, redo, nredo, DPA_PRECISION_DOUBLE, out, &none))) goto done;
        *double_recomputes += nredo;
    }
done:
    dpa_fpenv_leave(caller);
    free(ps.block);
    free(sums);
    free(lens);
    free((void *)haps);
    free(rows);
    free(redo);
    free(plain);
    free(it);
    return status;
}

#endif /* PH_PART_DRIVER */
