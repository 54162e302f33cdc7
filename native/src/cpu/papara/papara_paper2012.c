/*
 * papara_paper2012.c — the scalar reference of the score model of PaPaRa's 2012 paper (the
 * SIMD/GPU kernel, papara_nt's align_pvec_score; papara_core 2.5 no longer calls it).
 *
 * Min-plus, lowest cost wins, the whole read aligned inside a band of the profile: with
 * W = num_sites - read_length (PaPaRa asserts the read is shorter), read base j only meets
 * sites i in [j, j + W]. PaPaRa keeps the band as one array indexed by i - j, so the cell
 * above the band's last cell and the cell left of its first are its "LARGE" (here +inf).
 * Costs (issue 23's for the paper's kernel; papara_nt's testbench uses others): mismatch M = 3, flagged site CG = 3, gap in the
 * read OE = open + extend = 4 then E = 1 (both 0 on a flagged site), insertion = M:
 *   SM = S(j-1, i-1) + (read & site ? 0 : M) + (flag ? CG : 0)
 *   D  = min(S(j, i-1) + (flag ? 0 : OE), D(j, i-1) + (flag ? 0 : E))
 *   S  = min(SM, D, S(j-1, i) + M);  S(-1, i) = 0;  score = min of the last row's band.
 * int64 cells; PaPaRa's int16 lanes give the same values while 6 x read_length < 32000.
 */
#include "cpu/papara/papara.h"

#define INF (INT64_MAX / 4)

static inline int64_t min64(int64_t a, int64_t b)
{
    return a < b ? a : b;
}

int32_t dpa_papara_score_paper2012(const uint8_t *profile, int64_t num_sites, const uint8_t *read,
                                   int32_t read_length, int64_t *scratch)
{
    const int64_t W = num_sites - read_length;
    int64_t *s = scratch; /* s[k] = S(j, j + k); s[W + 1] stays +inf */
    for (int64_t k = 0; k <= W; k++) s[k] = 0;
    s[W + 1] = INF;
    for (int32_t j = 0; j < read_length; j++) {
        const unsigned b = read[j];
        int64_t diag = s[0], left = INF, d = INF;
        for (int64_t k = 0; k <= W; k++) {
            const uint8_t site = profile[j + k];
            const int cg = (site & DPA_PAPARA_CGAP_BIT) != 0;
            const int64_t sm = diag + ((site & 15u & b) ? 0 : DPA_PAPER2012_MISMATCH) +
                               (cg ? DPA_PAPER2012_CGAP : 0);
            d = min64(left + (cg ? 0 : DPA_PAPER2012_OPEN + DPA_PAPER2012_EXTEND),
                      d + (cg ? 0 : DPA_PAPER2012_EXTEND));
            const int64_t up = s[k + 1];
            const int64_t v = min64(min64(sm, d), up + DPA_PAPER2012_MISMATCH);
            diag = up;
            s[k] = v;
            left = v;
        }
    }
    int64_t best = INF;
    for (int64_t k = 0; k <= W; k++) best = min64(best, s[k]);
    return (int32_t)best;
}
