/*
 * xdrop_ref.c — the scalar reference: SeqAn's inner loop, one cell at a time, inside the
 * shared sweep (xdrop_sweep.h). Every other kernel must equal it.
 */
#include "cpu/xdrop/xdrop.h"
#include "cpu/xdrop/xdrop_sweep.h"

static int32_t band_scalar(const int32_t *a1, const int32_t *a2, int32_t *a3, const uint8_t *qc,
                           const uint8_t *tc, int32_t lo, int32_t hi, int32_t d, int32_t floor,
                           const dpa_xdrop_params *p)
{
    int32_t dbest = INT32_MIN;
    for (int32_t col = lo; col < hi; col++) {
        const int32_t up = a2[col - 1] > a2[col] ? a2[col - 1] : a2[col];
        int32_t v = up + p->gap;
        const int32_t diag = a1[col - 1] + (qc[col - 1] == tc[d - col - 1] ? p->match : p->mismatch);
        if (diag > v) v = diag;
        if (v < floor) {
            a3[col] = DPA_XDROP_UNDEF;
        } else {
            a3[col] = v;
            if (v > dbest) dbest = v;
        }
    }
    return dbest;
}

int32_t dpa_xdrop_side_scalar(const dpa_xdrop_seq *q, const dpa_xdrop_seq *t,
                              const dpa_xdrop_params *p, dpa_xdrop_scratch *s, int32_t *qext,
                              int32_t *text, int64_t *cells)
{
    return dpa_xdrop_sweep(q, t, p, s, band_scalar, qext, text, cells);
}

dpa_status dpa_xdrop_compute_scalar(const dpa_xdrop_batch *batch, const dpa_xdrop_params *params,
                                    const int32_t *pairs, int64_t n, const dpa_xdrop_output *out,
                                    int64_t *cells)
{
    return dpa_xdrop_compute_pairs(dpa_xdrop_side_scalar, batch, params, pairs, n, out, cells);
}
