/*
 * sw_rel16.h — when a pair's fill can run in int16 lanes holding scores relative to the
 * strip's top row (sw_avx2_rel16.c), whatever its length. docs/sw-simd.md, "16-bit lanes",
 * has the proof; in short:
 *
 * With open <= extend <= 0 and no MATRIX_MIN_CUTOFF, two neighbouring cells (left/right or
 * up/down, borders included) differ by at least L = open and at most
 * U = max(0, max(match, mismatch) - open): h >= H[i][j-1] + open gives the low side; for the
 * high side the diagonal gains at most max(s) - L over H[i][j-1], h never exceeds H[i][j-1],
 * and V[i][j] <= V[i][j-1] + U <= H[i][j-1] + U by induction over the rows (extend >= open
 * makes the border column obey the same V inequality). So with M = max(-L, U) a cell is
 * within M * (Manhattan distance) of any other. Every value the 16-lane step computes is a
 * cell (or a cell + open / extend / a score) at most 34 cells away from the base cell the
 * step subtracts (lane 15 is 16 rows down and up to 18 columns left of it: h's oldest
 * contribution, one column more for the high half's one-step lag), so its magnitude is at most
 * R = 34 M + |open| + |extend| + max |s|. The
 * GATK "minus infinity" gap start (Integer.MIN_VALUE / 2) becomes LOW16 = -32768 + M + |extend|
 * and is only ever added to one per-step constant of magnitude <= M + |extend| before it is
 * compared with a real value (>= -R), so it stays below every real value and never wraps if
 * R + 2 (M + |extend|) <= 32767. Then int16 arithmetic equals GATK's int arithmetic on every
 * value that reaches the traceback, the last column or the bottom row.
 */
#ifndef DPA_CPU_SW_REL16_H
#define DPA_CPU_SW_REL16_H

#include <stdint.h>

#include "cpu/sw/sw_simd.h"

/* M above: the largest difference between two neighbouring cells (needs open <= extend <= 0). */
static inline int64_t dpa_sw_rel16_step_bound(const dpa_sw_params *p)
{
    const int64_t smax = p->match > p->mismatch ? p->match : p->mismatch;
    int64_t u = smax - p->gap_open;
    if (u < 0) u = 0;
    return u > -(int64_t)p->gap_open ? u : -(int64_t)p->gap_open;
}

/* The left side of the condition R + 2 (M + |extend|) <= 32767 (for tests at the bound). */
static inline int64_t dpa_sw_rel16_range(const dpa_sw_params *p)
{
    const int64_t mm = dpa_sw_rel16_step_bound(p);
    const int64_t am = p->match < 0 ? -(int64_t)p->match : p->match;
    const int64_t ax = p->mismatch < 0 ? -(int64_t)p->mismatch : p->mismatch;
    return 36 * mm - (int64_t)p->gap_open - 3 * (int64_t)p->gap_extend + (am > ax ? am : ax);
}

/* 1 when dpa_sw_align_avx2_rel16 gives exact results for this pair. */
static inline int dpa_sw_rel16_fits(const dpa_sw_params *p, int32_t n, int32_t m)
{
    if (!(p->gap_open <= p->gap_extend && p->gap_extend <= 0)) return 0;
    if (sw_simd_needs_cutoff(p, n, m)) return 0;
    return dpa_sw_rel16_range(p) <= 32767;
}

#endif
