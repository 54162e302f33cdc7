/*
 * pairhmm_prefix_ref.c — the scalar shared computation and its kernel-contract entry.
 *
 * One read against a plan's haplotypes, column by column (the direction the sharing
 * follows): the whole column of M, I, D (rows 0..m) is kept, a checkpoint is a copy of a
 * column plus the running sum of (M + I)[m][1..col]. Each cell is evaluated with the very
 * expression of pairhmm_ref.c (same operands, same order, no contraction), and the sum is
 * taken in column order as there, so every result is bit-identical to the per-pair
 * reference.
 */
#include <stdlib.h>
#include <string.h>

#include "common/fpenv.h"
#include "cpu/pairhmm/pairhmm_prefix.h"

/* Checkpoint slot budget of one call (bytes); more slots than this drop checkpoints. */
#define PREFIX_SLOT_BUDGET ((size_t)32 << 20)

#define DPA_PHMM_PREFIX(NAME, T)                                                            \
    dpa_status NAME(const dpa_phmm_pair *p, const uint8_t *const *haps, const int32_t *lens, \
                    const dpa_phmm_prefix_plan *plan, T initial, T *sums)                   \
    {                                                                                       \
        const int32_t m = p->read_len;                                                      \
        const size_t col = 3 * ((size_t)m + 1) + 1; /* M, I, D rows 0..m, then the sum */   \
        T *tr = malloc(sizeof(T) * 8 * (size_t)m);                                          \
        T *cur = malloc(sizeof(T) * col);                                                   \
        T *slots = malloc(sizeof(T) * col * (size_t)(plan->nslots > 0 ? plan->nslots : 1)); \
        if (!tr || !cur || !slots) {                                                        \
            free(tr), free(cur), free(slots);                                               \
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
        T *cm = cur, *ci = cur + (m + 1), *cd = cur + 2 * ((size_t)m + 1);                  \
        for (int32_t q = 0; q < plan->k; q++) {                                             \
            const int32_t h = plan->order[q], n = lens[h], r = plan->resume[q];             \
            const uint8_t *hap = haps[h];                                                   \
            T sum = 0;                                                                      \
            if (r > 0) {                                                                    \
                memcpy(cur, slots + col * (size_t)plan->load_slot[q], sizeof(T) * col);     \
                if (plan->load_len[q] != n) { /* another length: see plan_build */          \
                    const T f = (initial / (T)n) / (initial / (T)plan->load_len[q]);        \
                    for (size_t e = 0; e < col; e++) cur[e] *= f;                           \
                    cd[0] = initial / (T)n; /* row 0 is known exactly */                    \
                }                                                                           \
                sum = cur[col - 1];                                                         \
            } else {                                                                        \
                /* column 0: D[0][0] = initial / n, everything else 0 */                    \
                for (int32_t i = 0; i <= m; i++) cm[i] = ci[i] = cd[i] = 0;                 \
                cd[0] = initial / (T)n;                                                     \
            }                                                                               \
            int32_t s = plan->save_at[q];                                                   \
            for (int32_t j = r + 1; j <= n; j++) {                                          \
                const uint8_t hb = hap[j - 1];                                              \
                /* row 0 of every column: M = I = 0, D = initial / n */                     \
                T m_diag = cm[0], x_diag = ci[0], y_diag = cd[0];                           \
                cd[0] = initial / (T)n;                                                     \
                for (int32_t i = 1; i <= m; i++) {                                          \
                    const T *t = tr + 8 * (size_t)(i - 1);                                  \
                    const T prior = dpa_phmm_bases_match(p->read[i - 1], hb) ? t[6] : t[7]; \
                    const T m_left = cm[i], x_left = ci[i], y_left = cd[i];                 \
                    const T mv = prior * (m_diag * t[DPA_T_MM] + (x_diag + y_diag) * t[DPA_T_GM]); \
                    const T xv = cm[i - 1] * t[DPA_T_MI] + ci[i - 1] * t[DPA_T_II];         \
                    const T yv = m_left * t[DPA_T_MD] + y_left * t[DPA_T_DD];               \
                    (void)x_left;                                                           \
                    m_diag = m_left;                                                        \
                    x_diag = x_left;                                                        \
                    y_diag = y_left;                                                        \
                    cm[i] = mv;                                                             \
                    ci[i] = xv;                                                             \
                    cd[i] = yv;                                                             \
                }                                                                           \
                sum += cm[m] + ci[m];                                                       \
                for (; s < plan->save_at[q + 1] && plan->saves[s].col == j; s++) {          \
                    cur[col - 1] = sum;                                                     \
                    memcpy(slots + col * (size_t)plan->saves[s].slot, cur, sizeof(T) * col); \
                }                                                                           \
            }                                                                               \
            sums[h] = sum;                                                                  \
        }                                                                                   \
        free(tr), free(cur), free(slots);                                                   \
        return DPA_OK;                                                                      \
    }

DPA_PHMM_PREFIX(dpa_phmm_prefix_f64_scalar, double)
DPA_PHMM_PREFIX(dpa_phmm_prefix_f32_scalar, float)

/* ---- kernel-contract entry ---- */

static int task_by_read(const void *a, const void *b)
{
    const dpa_phmm_task *x = a, *y = b;
    if (x->read != y->read) return x->read < y->read ? -1 : 1;
    if (x->hap != y->hap) return x->hap < y->hap ? -1 : 1;
    return (x->out > y->out) - (x->out < y->out);
}

dpa_status dpa_phmm_compute_prefix_scalar(const dpa_pairhmm_batch *batch,
                                          const dpa_phmm_task *tasks, int64_t n,
                                          int32_t precision, double *out,
                                          int64_t *double_recomputes,
                                          int64_t *cells_computed, int32_t across_lengths)
{
    if (n <= 0) return DPA_OK;
    /* the caller's MXCSR, sticky flags included, comes back on return (pow and log10
     * below raise the precision flag); inside, double mode unless a float pass runs */
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
        for (int32_t q = 0; q < k; q++) {
            dpa_phmm_pair hp = dpa_phmm_pair_of(batch, &t[a + q]);
            haps[q] = hp.hap;
            lens[q] = hp.hap_len;
        }
        const int is_double = precision == DPA_PRECISION_DOUBLE;
        const size_t slot_bytes =
            (3 * ((size_t)rp.read_len + 1) + 1) * (is_double ? sizeof(double) : sizeof(float));
        size_t max_slots = PREFIX_SLOT_BUDGET / slot_bytes;
        if (max_slots > (size_t)k) max_slots = (size_t)k;
        dpa_phmm_prefix_plan plan;
        st = dpa_phmm_prefix_plan_build(haps, lens, k, (int32_t)max_slots, across_lengths, &plan);
        if (st == DPA_OK && plan.cols_computed == plan.cols_total) {
            /* nothing to share: the per-pair reference (its O(haplotype) rows, not a
             * column of the read per checkpoint) */
            dpa_phmm_prefix_plan_free(&plan);
            st = dpa_phmm_compute_scalar(batch, t + a, k, precision, out, &recomputes);
            for (int32_t q = 0; q < k; q++) *cells_computed += (int64_t)rp.read_len * lens[q];
            if (st) goto done;
            a = b;
            continue;
        }
        if (st == DPA_OK) {
            if (is_double) {
                st = dpa_phmm_prefix_f64_scalar(&rp, haps, lens, &plan, DPA_PHMM_INITIAL_F64,
                                                sums);
            } else {
                float *fs = (float *)sums; /* k floats fit in k doubles */
                dpa_fpenv_enter_f32();
                st = dpa_phmm_prefix_f32_scalar(&rp, haps, lens, &plan,
                                                (float)DPA_PHMM_INITIAL_F32, fs);
                dpa_fpenv_enter_f64();
                for (int32_t q = k - 1; q >= 0; q--) sums[q] = (double)fs[q];
            }
        }
        if (st == DPA_OK) *cells_computed += (int64_t)rp.read_len * plan.cols_computed;
        dpa_phmm_prefix_plan_free(&plan);
        if (st) goto done;
        for (int32_t q = 0; q < k; q++) {
            if (is_double) {
                out[t[a + q].out] = log10(sums[q]) - DPA_PHMM_LOG10_INITIAL_F64;
            } else if ((float)sums[q] >= DPA_PHMM_MIN_ACCEPTED) {
                out[t[a + q].out] = log10(sums[q]) - DPA_PHMM_LOG10_INITIAL_F32;
            } else {
                /* the per-pair rule: this pair alone is recomputed in double */
                const dpa_phmm_pair pp = dpa_phmm_pair_of(batch, &t[a + q]);
                if ((st = dpa_phmm_recompute_f64(&pp, &ref, &ref_elems, &out[t[a + q].out])))
                    goto done;
                recomputes++;
            }
        }
        a = b;
    }
    *double_recomputes += recomputes;
done:
    dpa_fpenv_leave(caller);
    free(t), free(haps), free(lens), free(sums), free(ref);
    return st;
}
