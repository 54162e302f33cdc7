/*
 * xdrop_sweep.h — the anti-diagonal sweep of one extension direction, shared by every ISA.
 * Each ISA file passes its own band function (the cells of one anti-diagonal); everything
 * around it — borders, best, band shrinking, termination and SeqAn's longest-extension
 * cell — is this one function, so the kernels can only differ in how fast they fill a band.
 *
 * Coordinates follow SeqAn's _extendSeedGappedXDropOneDirection: anti-diagonal d holds the
 * cells (col, row = d - col); col counts query bases, row target bases; cell (col, row)
 * scores q[col - 1] against t[row - 1]. Each anti-diagonal keeps the columns [lo, hi] SeqAn
 * keeps (its offset and length), but in a buffer indexed by the column itself, so no index
 * is ever shifted and no buffer needs clearing between pairs: every column a later
 * anti-diagonal reads was written when its own anti-diagonal was laid out.
 */
#ifndef DPA_CPU_XDROP_SWEEP_H
#define DPA_CPU_XDROP_SWEEP_H

#include <stdint.h>

#include "cpu/xdrop/xdrop.h"

/* The cells of anti-diagonal d, columns [lo, hi): a3[col] = the best of the two gap moves
 * from a2 and the diagonal move from a1, or DPA_XDROP_UNDEF below floor (= best - X).
 * Returns the largest of those cells, INT32_MIN if none. May also write a3[hi, hi + 16) (the
 * slack a whole last vector covers, so SIMD stores need no mask, and a masked store would
 * stall the next anti-diagonal's loads); the sweep writes the border a3[hi] afterwards, and
 * nothing reads past it. Must not write below lo. */
typedef int32_t (*dpa_xdrop_band_fn)(const int32_t *a1, const int32_t *a2, int32_t *a3,
                                     const uint8_t *qc, const uint8_t *tc, int32_t lo,
                                     int32_t hi, int32_t d, int32_t floor,
                                     const dpa_xdrop_params *p);

/* Codes of seq [*done, need) into buf; sides are read only as far as the band reaches, so
 * a spurious seed in a 20 kb read costs its few cells, not an encoding of the read. */
static inline void dpa_xdrop_fill_codes(const dpa_xdrop_seq *seq, uint8_t *buf, int32_t *done,
                                        int32_t need)
{
    if (need <= *done) return;
    int32_t end = *done + 256 > need ? *done + 256 : need;
    if (end > seq->len) end = seq->len;
    const uint8_t *raw = seq->raw;
    for (int32_t i = *done; i < end; i++) {
        const uint8_t c = dpa_xdrop_code(raw[(int64_t)i * seq->step]);
        buf[i] = seq->comp && c < 4 ? (uint8_t)(3 - c) : c;
    }
    *done = end;
}

static inline int32_t dpa_xdrop_sweep(const dpa_xdrop_seq *qs, const dpa_xdrop_seq *ts,
                                      const dpa_xdrop_params *p, dpa_xdrop_scratch *s,
                                      dpa_xdrop_band_fn band, int32_t *qext, int32_t *text,
                                      int64_t *cells)
{
    *qext = 0;
    *text = 0;
    const int32_t cols = qs->len + 1, rows = ts->len + 1;
    if (rows == 1 || cols == 1) return 0;
    const int32_t U = DPA_XDROP_UNDEF, gap = p->gap, x = p->xdrop;
    uint8_t *qc = s->qc, *tc = s->tc;
    int32_t qdone = 0, tdone = 0;

    int32_t *a1 = s->diag + DPA_XDROP_PAD, *a2 = a1 + s->stride, *a3 = a2 + s->stride;
    int32_t lo1 = 0, hi1 = 0, lo2 = 0, hi2 = 0, lo3 = 0, hi3 = 1;
    a2[0] = 0;                        /* anti-diagonal 0: the seed end */
    a3[0] = a3[1] = -gap > x ? U : gap; /* anti-diagonal 1 */
    int32_t min_col = 1, max_col = 2, d = 1, best = 0;
    int64_t swept = 0;

    while (min_col < max_col) {
        ++d;
        int32_t *t3 = a1;
        a1 = a2;
        a2 = a3;
        a3 = t3;
        lo1 = lo2;
        hi1 = hi2;
        lo2 = lo3;
        hi2 = hi3;
        lo3 = min_col - 1;
        hi3 = max_col;
        dpa_xdrop_fill_codes(qs, qc, &qdone, max_col - 1);
        dpa_xdrop_fill_codes(ts, tc, &tdone, d - min_col);
        const int32_t dbest = band(a1, a2, a3, qc, tc, min_col, max_col, d, best - x, p);
        swept += max_col - min_col;
        /* the two border columns: undefined, or the all-gap path while it is within X (best
         * is still the previous anti-diagonals') */
        a3[lo3] = U;
        a3[hi3] = U;
        if ((int64_t)d * gap > (int64_t)best - x) {
            if (lo3 == 0) a3[0] = d * gap;
            if (d == max_col) a3[hi3] = d * gap;
        }
        if (dbest > best) best = dbest; /* only after the whole anti-diagonal */

        /* shrink the band from both ends past columns undefined on both anti-diagonals */
        while (min_col <= hi3 && a3[min_col] == U && min_col - 1 <= hi2 && a2[min_col - 1] == U)
            ++min_col;
        while (max_col > lo3 && a3[max_col - 1] == U && a2[max_col - 1] == U) --max_col;
        ++max_col;
        if (min_col < d + 2 - rows) min_col = d + 2 - rows; /* target end reached */
        if (max_col > cols) max_col = cols;                 /* query end reached */
    }
    *cells += swept;
    (void)lo1;

    /* SeqAn's longest extension: the last anti-diagonal's end cell (both ends reached),
     * else the two cases on the previous one, else the maximum two anti-diagonals back */
    int32_t col = hi3 - 1, row = d - col, score = a3[col];
    if (score == U) {
        if (a2[hi2 - 1] != U) {
            col = hi2 - 1;
            row = d - 1 - col;
            score = a2[col];
        } else if (hi2 - lo2 + 1 > 2 && a2[hi2 - 2] != U) {
            col = hi2 - 2;
            row = d - 1 - col;
            score = a2[col];
        }
    }
    if (score == U) {
        for (int32_t c = lo1; c <= hi1; c++)
            if (a1[c] > score) {
                score = a1[c];
                col = c;
                row = d - 2 - c;
            }
    }
    if (score == U) return INT32_MIN - gap; /* SeqAn's own value; the seed stays */
    *qext = col;
    *text = row;
    return score;
}

#endif
