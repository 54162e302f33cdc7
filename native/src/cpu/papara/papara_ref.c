/*
 * papara_ref.c — the scalar reference of PaPaRa 2's scoring DP (pvec_aligner_vec::align in
 * papara_nt's stepwise_align.h), written for clarity: row j = read base, column i =
 * profile site, one pass over the rows keeping the previous row's S and SU.
 *
 * PaPaRa computes in int16 with -32000 as "minus infinity"; for inputs inside its int16
 * range that is the exact max-plus recurrence below, which this file computes in int64.
 */
#include "cpu/papara/papara.h"

#define NEG_INF (INT64_MIN / 4)

int dpa_papara_fits_int16(int32_t read_length, const dpa_papara_params *p)
{
    /* paper2012: every real cell <= 6 x read_length (the diagonal from row -1); a gap opened
     * from it adds 4, and 32000 keeps the LARGE sentinel 32767 above them all */
    if (p->score_model == DPA_PAPARA_SCORE_PAPER2012) return 6 * (int64_t)read_length + 4 <= 32000;
    int64_t m = p->match;
    if (-(int64_t)p->gap_open > m) m = -(int64_t)p->gap_open;
    if (-(int64_t)p->gap_extend > m) m = -(int64_t)p->gap_extend;
    if (-(int64_t)p->match_cgap > m) m = -(int64_t)p->match_cgap;
    /* Every S, SL, SU, SM lies in [-(m (L + 2)), m L] (docs/papara.md), and the SIMD
     * kernels shift it up by at most |extend| x (L + COLB) (papara_simd.h); 32000 leaves the
     * saturating sentinel -32768 below every real value. */
    return m * ((int64_t)read_length + 2) - (int64_t)p->gap_extend * ((int64_t)read_length + DPA_PAPARA_COLB) <= 32000;
}

int32_t dpa_papara_score_ref(const uint8_t *profile, int64_t num_sites, const uint8_t *read,
                             int32_t read_length, const dpa_papara_params *p,
                             int64_t *scratch)
{
    int64_t *s = scratch;
    int64_t *su = s + num_sites;
    for (int64_t i = 0; i < num_sites; i++) {
        s[i] = 0;        /* row -1 */
        su[i] = NEG_INF;
    }
    int64_t best = NEG_INF;
    for (int32_t j = 0; j < read_length; j++) {
        const unsigned b = read[j];
        int64_t diag = 0, left = 0, sl = NEG_INF; /* column -1 */
        for (int64_t i = 0; i < num_sites; i++) {
            const unsigned a = profile[i] & 15u;
            const int cg = (profile[i] & DPA_PAPARA_CGAP_BIT) != 0;
            const int64_t sm = diag + ((a & b) ? p->match : 0) + (cg ? p->match_cgap : 0);
            const int64_t lo = left + (cg ? 0 : p->gap_open);
            const int64_t le = sl + (cg ? 0 : p->gap_extend);
            sl = lo > le ? lo : le;
            const int64_t up = s[i];
            const int64_t uo = up + p->gap_open, ue = su[i] + p->gap_extend;
            su[i] = uo > ue ? uo : ue;
            int64_t v = sm > sl ? sm : sl;
            if (su[i] > v) v = su[i];
            diag = up;
            left = v;
            s[i] = v;
            if (j == read_length - 1 && v > best) best = v;
        }
        if (left > best) best = left; /* the last column */
    }
    return (int32_t)best;
}
