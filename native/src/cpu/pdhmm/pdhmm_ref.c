/*
 * pdhmm_ref.c — the scalar PDHMM reference, GATK 4.6 LoglessPDPairHMM semantics.
 *
 * Every fast kernel is tested against this code, so it follows GATK's recurrence literally:
 * the three-state column machine (NORMAL, INSIDE_DEL, AFTER_DEL) walked cell by cell, with
 * two full rows (previous, current) of each of the six matrices. With x' the previous row
 * and state s of column j:
 *
 *   branch b[j]   NORMAL: x[j-1];  INSIDE_DEL: b[j-1];  AFTER_DEL: max(b[j-1], x[j-1])
 *                 (for M, I and D alike)
 *   diagonal      AFTER_DEL: max(bx'[j-1], x'[j-1]), otherwise x'[j-1]
 *   left (D only) AFTER_DEL: max(bx[j-1], x[j-1]),   otherwise x[j-1]
 *   M[j] = prior * (dM * mm + dI * gm + dD * gm)
 *   D[j] = lM * md + lD * dd
 *   I[j] = (pd[j-1] & DEL_END) ? max(bM'[j], M'[j]) * mi + max(bI'[j], I'[j]) * ii
 *                              : M'[j] * mi + I'[j] * ii
 *   then s: AFTER_DEL -> NORMAL; pd[j-1] & DEL_START -> INSIDE_DEL; pd[j-1] & DEL_END ->
 *   AFTER_DEL (the last wins).
 *
 * s is not reset between rows: GATK declares it outside the row loop, so the state the
 * last column leaves is the first column's state in the next row. With rows =
 * DPA_PDHMM_ROWS_GKL every row starts NORMAL instead, as GKL 0.9.1's native kernels do. Row 0: D = 2^1020 /
 * hap_len, everything else 0; column 0 is 0 in every matrix. Result: the scaled sum
 * sum_j (M[R][j] + I[R][j]) (the log10 likelihood is its log10 minus log10(2^1020)).
 */
#include <stdlib.h>
#include <string.h>

#include "common/fpenv.h"
#include "cpu/pdhmm/pdhmm.h"

enum { NORMAL, INSIDE_DEL, AFTER_DEL };

static double maxd(double a, double b) { return a > b ? a : b; } /* Math.max on non-NaN */

double dpa_pdhmm_sum_scalar(const dpa_pdhmm_pair *p, int32_t rows, double *scratch)
{
    const int32_t H = p->hap_len;
    const size_t w = (size_t)H + 1;
    /* previous row: pm pi pd pbm pbi pbd; current row: cm ci cd cbm cbi cbd */
    double *pm = scratch, *pi = pm + w, *pdl = pi + w, *pbm = pdl + w, *pbi = pbm + w,
           *pbd = pbi + w;
    double *cm = pbd + w, *ci = cm + w, *cd = ci + w, *cbm = cd + w, *cbi = cbm + w,
           *cbd = cbi + w;
    memset(scratch, 0, sizeof(double) * DPA_PDHMM_REF_ROWS * w);
    const double d0 = DPA_PDHMM_INITIAL / H;
    for (int32_t j = 0; j <= H; j++) pdl[j] = d0;

    int s = NORMAL;
    for (int32_t i = 1; i <= p->read_len; i++) {
        double t[6];
        dpa_pdhmm_transitions(p, i - 1, t);
        const uint8_t x = p->read[i - 1];
        const double e = dpa_pdhmm_err(p->base_q[i - 1]);
        const double match = 1.0 - e, mismatch = e / 3.0;
        cm[0] = ci[0] = cd[0] = cbm[0] = cbi[0] = cbd[0] = 0.0;
        if (rows == DPA_PDHMM_ROWS_GKL) s = NORMAL;
        for (int32_t j = 1; j <= H; j++) {
            double dm = pm[j - 1], di = pi[j - 1], dd = pdl[j - 1];
            double lm = cm[j - 1], ld = cd[j - 1];
            if (s == NORMAL) {
                cbm[j] = cm[j - 1];
                cbd[j] = cd[j - 1];
                cbi[j] = ci[j - 1];
            } else if (s == INSIDE_DEL) {
                cbm[j] = cbm[j - 1];
                cbd[j] = cbd[j - 1];
                cbi[j] = cbi[j - 1];
            } else {
                cbm[j] = maxd(cbm[j - 1], cm[j - 1]);
                cbd[j] = maxd(cbd[j - 1], cd[j - 1]);
                cbi[j] = maxd(cbi[j - 1], ci[j - 1]);
                dm = maxd(pbm[j - 1], dm);
                di = maxd(pbi[j - 1], di);
                dd = maxd(pbd[j - 1], dd);
                lm = maxd(cbm[j - 1], lm);
                ld = maxd(cbd[j - 1], ld);
            }
            const uint8_t pdb = p->pd[j - 1];
            const double prior = dpa_pdhmm_matches(x, p->hap[j - 1], pdb) ? match : mismatch;
            cm[j] = prior * (dm * t[DPA_PD_MM] + di * t[DPA_PD_GM] + dd * t[DPA_PD_GM]);
            cd[j] = lm * t[DPA_PD_MD] + ld * t[DPA_PD_DD];
            if (pdb & DPA_PD_DEL_END)
                ci[j] = maxd(pbm[j], pm[j]) * t[DPA_PD_MI] + maxd(pbi[j], pi[j]) * t[DPA_PD_II];
            else
                ci[j] = pm[j] * t[DPA_PD_MI] + pi[j] * t[DPA_PD_II];
            if (s == AFTER_DEL) s = NORMAL;
            if (pdb & DPA_PD_DEL_START) s = INSIDE_DEL;
            if (pdb & DPA_PD_DEL_END) s = AFTER_DEL;
        }
        /* the current row becomes the previous one */
        double *tmp;
#define SWAP_ROWS(a, b) (tmp = a, a = b, b = tmp)
        SWAP_ROWS(pm, cm);
        SWAP_ROWS(pi, ci);
        SWAP_ROWS(pdl, cd);
        SWAP_ROWS(pbm, cbm);
        SWAP_ROWS(pbi, cbi);
        SWAP_ROWS(pbd, cbd);
#undef SWAP_ROWS
    }
    double sum = 0.0;
    for (int32_t j = 1; j <= H; j++) sum += pm[j] + pi[j];
    return sum;
}

dpa_status dpa_pdhmm_compute_scalar(const dpa_pdhmm_batch *batch, const int32_t *pairs,
                                    int64_t n, int32_t rows, double *out)
{
    int32_t max_hap = 0;
    for (int64_t k = 0; k < n; k++)
        if (batch->hap_lengths[pairs[k]] > max_hap) max_hap = batch->hap_lengths[pairs[k]];
    double *scratch = malloc(sizeof(double) * DPA_PDHMM_REF_ROWS * ((size_t)max_hap + 1));
    if (!scratch) return DPA_ERR_OUT_OF_MEMORY;
    dpa_fpenv env = dpa_fpenv_enter_f64();
    for (int64_t k = 0; k < n; k++) {
        const dpa_pdhmm_pair p = dpa_pdhmm_pair_of(batch, pairs[k]);
        out[pairs[k]] = dpa_pdhmm_sum_scalar(&p, rows, scratch);
    }
    dpa_fpenv_leave(env);
    free(scratch);
    return DPA_OK;
}
