/*
 * pairhmm_suffix_ref.c — the scalar prefix + suffix shared computation and its
 * kernel-contract entry (DPACCEL_PAIRHMM_PREFIX=3; the math is in pairhmm_suffix.h).
 *
 * One read against a plan's haplotypes. First the backward states of every reversed
 * suffix, shared along their prefix plan (a state is rows 0..m of bM, bI, bD plus Z, one
 * checkpoint = one state); then the forward columns as in pairhmm_prefix_ref.c, each
 * haplotype stopping at its cut and joined there with its backward state, in double.
 */
#include <float.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "common/fpenv.h"
#include "cpu/pairhmm/pairhmm_suffix.h"

/* Checkpoint slot budget of one call (bytes), forward and backward each. */
#define SUFFIX_SLOT_BUDGET ((size_t)32 << 20)

#define DPA_PHMM_SUFFIX(NAME, T)                                                            \
    dpa_status NAME(const dpa_phmm_pair *p, const uint8_t *const *haps, const int32_t *lens, \
                    const dpa_phmm_suffix_plan *sp, T initial, T binit, double *sums)       \
    {                                                                                       \
        const int32_t m = p->read_len, k = sp->k;                                           \
        const size_t col = 3 * ((size_t)m + 1) + 1; /* three rows 0..m, then a sum */       \
        const dpa_phmm_prefix_plan *fp = &sp->fwd, *bp = &sp->bwd;                          \
        const int32_t ns = fp->nslots > bp->nslots ? fp->nslots : bp->nslots;               \
        T *tr = malloc(sizeof(T) * 8 * (size_t)m);                                          \
        T *cur = malloc(sizeof(T) * col);                                                   \
        T *aux = malloc(sizeof(T) * 2 * ((size_t)m + 1));                                   \
        T *slots = malloc(sizeof(T) * col * (size_t)(ns > 0 ? ns : 1));                     \
        T *bstate = malloc(sizeof(T) * col * (size_t)(sp->nb > 0 ? sp->nb : 1));            \
        int32_t *bof = malloc(sizeof(int32_t) * (size_t)(k > 0 ? k : 1));                   \
        if (!tr || !cur || !aux || !slots || !bstate || !bof) {                             \
            free(tr), free(cur), free(aux), free(slots), free(bstate), free(bof);           \
            return DPA_ERR_OUT_OF_MEMORY;                                                   \
        }                                                                                   \
        for (int32_t i = 0; i < m; i++) {                                                   \
            double td[6];                                                                   \
            dpa_phmm_transitions(p, i, td);                                                 \
            const double e = dpa_phmm_err(p->base_q[i]);                                    \
            for (int q = 0; q < 6; q++) tr[8 * i + q] = (T)td[q];                           \
            tr[8 * i + 6] = (T)(1.0 - e);                                                   \
            tr[8 * i + 7] = (T)(e / 3.0);                                                   \
        }                                                                                   \
        /* ---- backward: state t -> t + 1 consumes reversed base t ---- */                \
        T *bm = cur, *bi = cur + (m + 1), *bd = cur + 2 * ((size_t)m + 1);                  \
        T *am = aux, *ai = aux + (m + 1);                                                   \
        for (int32_t h = 0; h < k; h++) bof[h] = -1;                                        \
        for (int32_t q = 0; q < bp->k; q++) {                                               \
            const int32_t b = bp->order[q], u = sp->blen[b], r = bp->resume[q];             \
            const uint8_t *rev = sp->brev[b];                                               \
            if (r > 0)                                                                      \
                memcpy(cur, slots + col * (size_t)bp->load_slot[q], sizeof(T) * col);      \
            else                                                                            \
                for (size_t e = 0; e < col; e++) cur[e] = 0; /* t = 0: nothing after */     \
            int32_t s = bp->save_at[q];                                                     \
            for (int32_t t = r + 1; t <= u; t++) {                                          \
                const uint8_t hb = rev[t - 1];                                              \
                /* full adjoints of the column after the new cut, bottom row up */          \
                am[m] = binit;                                                              \
                ai[m] = binit;                                                              \
                for (int32_t i = m - 1; i >= 1; i--) {                                      \
                    const T *n1 = tr + 8 * (size_t)i; /* row i + 1 */                       \
                    ai[i] = bi[i] + n1[DPA_T_II] * ai[i + 1];                               \
                    am[i] = bm[i] + n1[DPA_T_MI] * ai[i + 1];                               \
                }                                                                           \
                /* cross terms into that column, for the values of the new cut column */    \
                {                                                                           \
                    const T g = (dpa_phmm_bases_match(p->read[0], hb) ? tr[6] : tr[7]) * am[1]; \
                    bm[0] = 0;                                                              \
                    bi[0] = 0;                                                              \
                    bd[0] = g * tr[DPA_T_GM];                                               \
                }                                                                           \
                for (int32_t i = 1; i < m; i++) {                                           \
                    const T *n1 = tr + 8 * (size_t)i, *t0 = tr + 8 * (size_t)(i - 1);       \
                    const T g = (dpa_phmm_bases_match(p->read[i], hb) ? n1[6] : n1[7]) * am[i + 1]; \
                    const T gg = g * n1[DPA_T_GM];                                          \
                    const T ad = bd[i];                                                     \
                    bm[i] = g * n1[DPA_T_MM] + t0[DPA_T_MD] * ad;                           \
                    bi[i] = gg;                                                             \
                    bd[i] = gg + t0[DPA_T_DD] * ad;                                         \
                }                                                                           \
                bm[m] = bi[m] = bd[m] = 0;                                                  \
                cur[col - 1] += bd[0];                                                      \
                for (; s < bp->save_at[q + 1] && bp->saves[s].col == t; s++)                \
                    memcpy(slots + col * (size_t)bp->saves[s].slot, cur, sizeof(T) * col);  \
            }                                                                               \
            memcpy(bstate + col * (size_t)b, cur, sizeof(T) * col);                         \
            bof[sp->bhap[b]] = b;                                                           \
        }                                                                                   \
        /* ---- forward, as pairhmm_prefix_ref.c, to each haplotype's cut ---- */           \
        T *cm = cur, *ci = cur + (m + 1), *cd = cur + 2 * ((size_t)m + 1);                  \
        for (int32_t q = 0; q < fp->k; q++) {                                               \
            const int32_t h = fp->order[q], n = lens[h], r = fp->resume[q];                 \
            const int32_t cut = sp->cut[h];                                                 \
            const uint8_t *hap = haps[h];                                                   \
            T sum = 0;                                                                      \
            if (r > 0) {                                                                    \
                memcpy(cur, slots + col * (size_t)fp->load_slot[q], sizeof(T) * col);       \
                if (fp->load_len[q] != n) { /* another length: pairhmm_prefix.h */          \
                    const T f = (initial / (T)n) / (initial / (T)fp->load_len[q]);          \
                    for (size_t e = 0; e < col; e++) cur[e] *= f;                           \
                    cd[0] = initial / (T)n;                                                 \
                }                                                                           \
                sum = cur[col - 1];                                                         \
            } else {                                                                        \
                for (int32_t i = 0; i <= m; i++) cm[i] = ci[i] = cd[i] = 0;                 \
                cd[0] = initial / (T)n;                                                     \
            }                                                                               \
            int32_t s = fp->save_at[q];                                                     \
            for (int32_t j = r + 1; j <= cut; j++) {                                        \
                const uint8_t hb = hap[j - 1];                                              \
                T m_diag = cm[0], x_diag = ci[0], y_diag = cd[0];                           \
                cd[0] = initial / (T)n;                                                     \
                for (int32_t i = 1; i <= m; i++) {                                          \
                    const T *t = tr + 8 * (size_t)(i - 1);                                  \
                    const T prior = dpa_phmm_bases_match(p->read[i - 1], hb) ? t[6] : t[7]; \
                    const T m_left = cm[i], x_left = ci[i], y_left = cd[i];                 \
                    const T mv = prior * (m_diag * t[DPA_T_MM] + (x_diag + y_diag) * t[DPA_T_GM]); \
                    const T xv = cm[i - 1] * t[DPA_T_MI] + ci[i - 1] * t[DPA_T_II];         \
                    const T yv = m_left * t[DPA_T_MD] + y_left * t[DPA_T_DD];               \
                    m_diag = m_left;                                                        \
                    x_diag = x_left;                                                        \
                    y_diag = y_left;                                                        \
                    cm[i] = mv;                                                             \
                    ci[i] = xv;                                                             \
                    cd[i] = yv;                                                             \
                }                                                                           \
                sum += cm[m] + ci[m];                                                       \
                for (; s < fp->save_at[q + 1] && fp->saves[s].col == j; s++) {              \
                    cur[col - 1] = sum;                                                     \
                    memcpy(slots + col * (size_t)fp->saves[s].slot, cur, sizeof(T) * col);  \
                }                                                                           \
            }                                                                               \
            if (cut == n) {                                                                 \
                sums[h] = (double)sum;                                                      \
                continue;                                                                   \
            }                                                                               \
            /* the join, in double: L = S_cut + (F . B + (initial / n) Z) / binit */        \
            const T *st = bstate + col * (size_t)bof[h];                                    \
            const T *sm = st, *si = st + (m + 1), *sd = st + 2 * ((size_t)m + 1);           \
            double dot = (double)(initial / (T)n) * (double)st[col - 1];                    \
            for (int32_t i = 1; i <= m; i++)                                                \
                dot += (double)cm[i] * (double)sm[i] + (double)ci[i] * (double)si[i] +      \
                       (double)cd[i] * (double)sd[i];                                       \
            sums[h] = (double)sum + dot / (double)binit;                                    \
        }                                                                                   \
        free(tr), free(cur), free(aux), free(slots), free(bstate), free(bof);               \
        return DPA_OK;                                                                      \
    }

DPA_PHMM_SUFFIX(dpa_phmm_suffix_f64_scalar, double)
DPA_PHMM_SUFFIX(dpa_phmm_suffix_f32_scalar, float)

/* ---- kernel-contract entry ---- */

static int task_by_read(const void *a, const void *b)
{
    const dpa_phmm_task *x = a, *y = b;
    if (x->read != y->read) return x->read < y->read ? -1 : 1;
    if (x->hap != y->hap) return x->hap < y->hap ? -1 : 1;
    return (x->out > y->out) - (x->out < y->out);
}

/* e_ins + e_del > 1 somewhere: mm + mi + md > 1 there, the backward values are no longer
 * sub-probabilities and the scaling argument of pairhmm_suffix.h does not hold */
static int breaks_model(const dpa_phmm_pair *p)
{
    for (int32_t i = 0; i < p->read_len; i++)
        if (dpa_phmm_err(p->ins_q[i]) + dpa_phmm_err(p->del_q[i]) > 1.0) return 1;
    return 0;
}

dpa_status dpa_phmm_compute_suffix_scalar(const dpa_pairhmm_batch *batch,
                                          const dpa_phmm_task *tasks, int64_t n,
                                          int32_t precision, double *out,
                                          int64_t *double_recomputes,
                                          int64_t *cells_computed, int32_t unused)
{
    (void)unused;
    if (n <= 0) return DPA_OK;
    if (precision == DPA_PRECISION_DOUBLE)
        return dpa_phmm_compute_prefix_scalar(batch, tasks, n, precision, out,
                                              double_recomputes, cells_computed, 1);
    const dpa_fpenv caller = dpa_fpenv_enter_f64();
    dpa_status st = DPA_OK;
    dpa_phmm_task *t = malloc(sizeof *t * (size_t)n);
    const uint8_t **haps = malloc(sizeof *haps * (size_t)n);
    int32_t *lens = malloc(sizeof *lens * (size_t)n);
    double *sums = malloc(sizeof *sums * (size_t)n);
    double *ref = NULL;
    size_t ref_elems = 0;
    int64_t recomputes = 0;
    if (!t || !haps || !lens || !sums) {
        st = DPA_ERR_OUT_OF_MEMORY;
        goto done;
    }
    memcpy(t, tasks, sizeof *t * (size_t)n);
    qsort(t, (size_t)n, sizeof *t, task_by_read);
    for (int64_t a = 0; a < n;) {
        int64_t b = a;
        while (b < n && t[b].read == t[a].read) b++;
        const int32_t k = (int32_t)(b - a);
        const dpa_phmm_pair rp = dpa_phmm_pair_of(batch, &t[a]);
        if (breaks_model(&rp)) {
            st = dpa_phmm_compute_prefix_scalar(batch, t + a, k, precision, out, &recomputes,
                                                cells_computed, 1);
            if (st) goto done;
            a = b;
            continue;
        }
        for (int32_t q = 0; q < k; q++) {
            dpa_phmm_pair hp = dpa_phmm_pair_of(batch, &t[a + q]);
            haps[q] = hp.hap;
            lens[q] = hp.hap_len;
        }
        const size_t slot_bytes = (3 * ((size_t)rp.read_len + 1) + 1) * sizeof(float);
        size_t max_slots = SUFFIX_SLOT_BUDGET / slot_bytes;
        if (max_slots > (size_t)k) max_slots = (size_t)k;
        dpa_phmm_suffix_plan plan;
        st = dpa_phmm_suffix_plan_build(haps, lens, k, (int32_t)max_slots, &plan);
        if (st == DPA_OK) {
            dpa_fpenv_enter_f32();
            st = dpa_phmm_suffix_f32_scalar(&rp, haps, lens, &plan,
                                            (float)DPA_PHMM_INITIAL_F32,
                                            (float)DPA_PHMM_INITIAL_F32, sums);
            dpa_fpenv_enter_f64();
        }
        if (st == DPA_OK)
            *cells_computed +=
                (int64_t)rp.read_len * (plan.cols_forward + plan.cols_backward);
        const double m1 = (double)rp.read_len + 1.0;
        for (int32_t q = 0; q < k && st == DPA_OK; q++) {
            const int32_t u = plan.k ? lens[q] - plan.cut[q] : 0;
            /* pairhmm_suffix.h: mass lost to flushed backward values, forward's scale */
            const double lost = 16.0 * m1 * ((double)u + 1.0) * (double)FLT_MIN;
            const double s = sums[q];
            if ((float)s >= DPA_PHMM_MIN_ACCEPTED && isfinite((float)s) &&
                (u == 0 || s * 1e-5 >= lost)) {
                out[t[a + q].out] = log10(s) - DPA_PHMM_LOG10_INITIAL_F32;
                continue;
            }
            /* the per-pair rule: this pair alone is recomputed in double */
            const dpa_phmm_pair pp = dpa_phmm_pair_of(batch, &t[a + q]);
            if ((st = dpa_phmm_recompute_f64(&pp, &ref, &ref_elems, &out[t[a + q].out])))
                break;
            recomputes++;
        }
        dpa_phmm_suffix_plan_free(&plan);
        if (st) goto done;
        a = b;
    }
    *double_recomputes += recomputes;
done:
    dpa_fpenv_leave(caller);
    free(t), free(haps), free(lens), free(sums), free(ref);
    return st;
}
