/*
 * papara_trace.h — the backward half of a PaPaRa traceback, shared by the scalar
 * dpa_papara_traceback and the 8-read AVX2 one: from the end cell through the per-cell
 * direction bits to the ops of one read.
 */
#ifndef DPA_PAPARA_TRACE_H
#define DPA_PAPARA_TRACE_H

#include <stdint.h>

#include "dpaccel.h"

/* Direction bits of a cell: the gap states kept (extension beat opening), the cell's choice. */
enum { DPA_PTB_SL_STAY = 1, DPA_PTB_SU_STAY = 2, DPA_PTB_S_L = 4, DPA_PTB_S_U = 8 };

/* Ops of the read whose cell (a, b) directions are tb[(b * S + a) * stride] (stride 1 for one
 * read, the lane count for interleaved reads), ending at (best_a, best_b); rev is scratch of
 * S + L bytes. Returns the number of ops written to ops. Backwards as PaPaRa's trace: M a site
 * and a read base, D a site without one, I a read base alone. */
static inline int64_t dpa_papara_trace(const uint8_t *tb, int64_t stride, int64_t S, int64_t L,
                                       int64_t best_a, int64_t best_b, uint8_t *rev, uint8_t *ops)
{
    int64_t n = 0, a = S - 1, b = L - 1;
    int in_l = 0, in_u = 0;
    while (a > best_a) rev[n++] = DPA_PAPARA_OP_D, a--;
    while (b > best_b) rev[n++] = DPA_PAPARA_OP_I, b--;
    while (a >= 0 && b >= 0) {
        const uint8_t t = tb[(b * S + a) * stride];
        if (!in_l && !in_u) {
            in_l = (t & DPA_PTB_S_L) != 0;
            in_u = (t & DPA_PTB_S_U) != 0;
            if (!in_l && !in_u) {
                rev[n++] = DPA_PAPARA_OP_M;
                a--;
                b--;
            }
        }
        if (in_u) {
            rev[n++] = DPA_PAPARA_OP_I;
            b--;
            in_u = (t & DPA_PTB_SU_STAY) != 0;
        } else if (in_l) {
            rev[n++] = DPA_PAPARA_OP_D;
            a--;
            in_l = (t & DPA_PTB_SL_STAY) != 0;
        }
    }
    while (a >= 0) rev[n++] = DPA_PAPARA_OP_D, a--;
    while (b >= 0) rev[n++] = DPA_PAPARA_OP_I, b--;
    for (int64_t k = 0; k < n; k++) ops[k] = rev[n - 1 - k];
    return n;
}

#endif
