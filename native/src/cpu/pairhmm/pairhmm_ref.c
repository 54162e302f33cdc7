/*
 * pairhmm_ref.c — the scalar PairHMM reference (float and double), GATK semantics.
 *
 * This is the code every fast kernel is tested against, so it is written for clarity:
 * one forward pass over the (read+1) x (hap+1) matrices kept as three rolling rows.
 *
 *   M[i][j] = prior(i,j) * (M[i-1][j-1]*mm(i) + (I[i-1][j-1] + D[i-1][j-1])*gm(i))
 *   I[i][j] = M[i-1][j]*mi(i) + I[i-1][j]*ii(i)
 *   D[i][j] = M[i][j-1]*md(i) + D[i][j-1]*dd(i)
 *   D[0][j] = initial / hap_len, every other row-0 and column-0 cell 0
 *   result  = sum_j (M[read_len][j] + I[read_len][j])
 *
 * (transitions of read position i are dpa_phmm_transitions(p, i-1); prior(i,j) compares
 * read[i-1] with hap[j-1].)
 */
#include <stdlib.h>

#include "common/fpenv.h"
#include "cpu/pairhmm/pairhmm.h"

/* One template, two types: the float path must round exactly where a float kernel would,
 * so it is not written as "double, then cast". */
#define DPA_PHMM_FORWARD(NAME, T)                                                           \
    T NAME(const dpa_phmm_pair *p, T initial, T *scratch)                                  \
    {                                                                                      \
        const int32_t n = p->hap_len;                                                      \
        T *m = scratch, *x = scratch + (n + 1), *y = scratch + 2 * (n + 1);                \
        for (int32_t j = 0; j <= n; j++) {                                                 \
            m[j] = 0;                                                                      \
            x[j] = 0;                                                                      \
            y[j] = initial / (T)n;                                                         \
        }                                                                                  \
        for (int32_t i = 1; i <= p->read_len; i++) {                                       \
            double td[6];                                                                  \
            dpa_phmm_transitions(p, i - 1, td);                                            \
            const T mm = (T)td[DPA_T_MM], gm = (T)td[DPA_T_GM], mi = (T)td[DPA_T_MI];       \
            const T ii = (T)td[DPA_T_II], md = (T)td[DPA_T_MD], dd = (T)td[DPA_T_DD];       \
            const double e = dpa_phmm_err(p->base_q[i - 1]);                               \
            const T pm = (T)(1.0 - e), px = (T)(e / 3.0);                                  \
            const uint8_t rb = p->read[i - 1];                                             \
            /* diagonal values of row i-1 at column j-1, carried along the row */          \
            T m_diag = m[0], x_diag = x[0], y_diag = y[0];                                 \
            T m_left = 0, y_left = 0;                                                      \
            m[0] = 0;                                                                      \
            x[0] = 0;                                                                      \
            y[0] = 0;                                                                      \
            for (int32_t j = 1; j <= n; j++) {                                             \
                const T m_up = m[j], x_up = x[j], y_up = y[j];                             \
                const T prior = dpa_phmm_bases_match(rb, p->hap[j - 1]) ? pm : px;         \
                const T mv = prior * (m_diag * mm + (x_diag + y_diag) * gm);               \
                const T xv = m_up * mi + x_up * ii;                                        \
                const T yv = m_left * md + y_left * dd;                                    \
                m_diag = m_up;                                                             \
                x_diag = x_up;                                                             \
                y_diag = y_up;                                                             \
                m[j] = mv;                                                                 \
                x[j] = xv;                                                                 \
                y[j] = yv;                                                                 \
                m_left = mv;                                                               \
                y_left = yv;                                                               \
            }                                                                              \
        }                                                                                  \
        T sum = 0;                                                                         \
        for (int32_t j = 1; j <= n; j++) sum += m[j] + x[j];                               \
        return sum;                                                                        \
    }

DPA_PHMM_FORWARD(dpa_phmm_forward_f64_scalar, double)
DPA_PHMM_FORWARD(dpa_phmm_forward_f32_scalar, float)

dpa_status dpa_phmm_recompute_f64(const dpa_phmm_pair *p, double **scratch, size_t *elems,
                                  double *log10_out)
{
    const size_t need = 3 * ((size_t)p->hap_len + 1);
    if (*elems < need) {
        free(*scratch);
        *scratch = malloc(sizeof **scratch * need);
        *elems = *scratch ? need : 0;
        if (!*scratch) return DPA_ERR_OUT_OF_MEMORY;
    }
    const double s = dpa_phmm_forward_f64_scalar(p, DPA_PHMM_INITIAL_F64, *scratch);
    *log10_out = log10(s) - DPA_PHMM_LOG10_INITIAL_F64;
    return DPA_OK;
}

static double log10_f64(const dpa_phmm_pair *p, double *scratch)
{
    dpa_fpenv env = dpa_fpenv_enter_f64();
    double s = dpa_phmm_forward_f64_scalar(p, DPA_PHMM_INITIAL_F64, scratch);
    dpa_fpenv_leave(env);
    return log10(s) - DPA_PHMM_LOG10_INITIAL_F64;
}

static double log10_rule(const dpa_phmm_pair *p, int32_t precision, void *scratch,
                         int *recomputed)
{
    *recomputed = 0;
    if (precision == DPA_PRECISION_DOUBLE) return log10_f64(p, (double *)scratch);
    dpa_fpenv env = dpa_fpenv_enter_f32();
    float s = dpa_phmm_forward_f32_scalar(p, (float)DPA_PHMM_INITIAL_F32, (float *)scratch);
    dpa_fpenv_leave(env);
    if (!(s >= DPA_PHMM_MIN_ACCEPTED)) {
        *recomputed = 1;
        return log10_f64(p, (double *)scratch);
    }
    /* log10 of the float sum taken in double: GKL takes log10f, which differs by < 1e-7 */
    return log10((double)s) - DPA_PHMM_LOG10_INITIAL_F32;
}

double dpa_phmm_log10_scalar(const dpa_phmm_pair *p, int32_t precision, int *recomputed)
{
    int dummy;
    double *scratch = malloc(sizeof(double) * 3 * ((size_t)p->hap_len + 1));
    if (!scratch) return NAN;
    double r = log10_rule(p, precision, scratch, recomputed ? recomputed : &dummy);
    free(scratch);
    return r;
}

dpa_status dpa_phmm_compute_scalar(const dpa_pairhmm_batch *batch, const dpa_phmm_task *tasks,
                                   int64_t n, int32_t precision, double *out,
                                   int64_t *double_recomputes)
{
    int32_t max_hap = 0;
    for (int64_t k = 0; k < n; k++) {
        int32_t h = batch->hap_lengths[tasks[k].hap];
        if (h > max_hap) max_hap = h;
    }
    double *scratch = malloc(sizeof(double) * 3 * ((size_t)max_hap + 1));
    if (!scratch) return DPA_ERR_OUT_OF_MEMORY;
    int64_t recomputes = 0;
    for (int64_t k = 0; k < n; k++) {
        dpa_phmm_pair p = dpa_phmm_pair_of(batch, &tasks[k]);
        int rec;
        out[tasks[k].out] = log10_rule(&p, precision, scratch, &rec);
        recomputes += rec;
    }
    free(scratch);
    *double_recomputes += recomputes;
    return DPA_OK;
}
