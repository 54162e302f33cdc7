/*
 * papara_traceback.c — dpa_papara_traceback: the alignment of one read to one profile with
 * PaPaRa's tie rules (align_freeshift_pvec in papara_nt's stepwise_align.h), for the best
 * edge of each read.
 *
 * Cell choice: SU only when strictly above both SL and SM, then SL when >= SU and > SM,
 * else SM; a gap state is kept (extension) only when strictly better than opening. The end
 * cell is the first maximum in PaPaRa's scan order: for each read base in turn the last
 * site, and on the last read base every site left to right. PaPaRa initialises the
 * insertion row above the read with 0 instead of -inf; with every S >= 0 (match >= 0, and a
 * flagged site's free read gap) such a path never wins strictly, so scores agree with the
 * scoring kernels, as PaPaRa itself asserts.
 */
#include <stdint.h>
#include <stdlib.h>

#include "common/status.h"
#include "cpu/papara/papara.h"
#include "cpu/papara/papara_trace.h"

DPA_API dpa_status dpa_papara_traceback(const uint8_t *profile, int64_t num_sites,
                                        const uint8_t *read, int32_t read_length,
                                        const dpa_papara_params *params, uint8_t *ops,
                                        int64_t *num_ops, int32_t *score)
{
    if (!profile || !read || !params || !ops || !num_ops || !score)
        return dpa_fail(DPA_ERR_NULL_ARG, "dpa_papara_traceback: a pointer argument is NULL");
    if (num_sites < 1 || num_sites > DPA_PAPARA_MAX_SITES || read_length < 1 ||
        read_length > DPA_PAPARA_MAX_READ_LENGTH)
        return dpa_fail(DPA_ERR_LIMIT, "dpa_papara_traceback: %lld sites or read length %d out "
                        "of range", (long long)num_sites, read_length);
    if ((int64_t)read_length * num_sites > DPA_PAPARA_MAX_TRACEBACK_CELLS)
        return dpa_fail(DPA_ERR_LIMIT, "dpa_papara_traceback: %d x %lld cells exceed %lld",
                        read_length, (long long)num_sites,
                        (long long)DPA_PAPARA_MAX_TRACEBACK_CELLS);
    dpa_status st = dpa_papara_check_params(params);
    if (st) return st;
    if (params->score_model != DPA_PAPARA_SCORE_PAPARA2)
        return dpa_fail(DPA_ERR_UNSUPPORTED, "dpa_papara_traceback: only the papara2 score model "
                        "has a traceback");
    for (int32_t j = 0; j < read_length; j++)
        if (read[j] < 1 || read[j] > 15)
            return dpa_fail(DPA_ERR_INVALID_ARG, "dpa_papara_traceback: read base %d = %u is not "
                            "a state mask in [1, 15]", j, read[j]);
    const dpa_papara_params *p = params;
    const int64_t S = num_sites, L = read_length;
    /* int32 is exact here: every S is >= 0 and at most match * L <= 1000 * 2^20, SL and SU
     * at least S + gap_open, well inside int32 with the limits above */
    uint8_t *tb = malloc((size_t)(S * L));
    int32_t *s = malloc(sizeof *s * 5 * (size_t)S);
    uint8_t *rev = malloc((size_t)(S + L));
    uint8_t *state = malloc((size_t)S);
    if (!tb || !s || !rev || !state) {
        free(tb), free(s), free(rev), free(state);
        return dpa_fail(DPA_ERR_OUT_OF_MEMORY, "dpa_papara_traceback: out of memory for %lld "
                        "cells", (long long)(S * L));
    }
    /* per site: the gap-flag terms, so the cell loop has no branch on the data (its choices
     * were ~50% mispredicted branches: 2.6 ms a 100 x 3,060 read before) */
    int32_t *si = s + S, *open_l = s + 2 * S, *ext_l = s + 3 * S, *cg_add = s + 4 * S;
    for (int64_t a = 0; a < S; a++) {
        const int cg = (profile[a] & DPA_PAPARA_CGAP_BIT) != 0;
        s[a] = si[a] = 0;
        state[a] = profile[a] & 15u;
        open_l[a] = cg ? 0 : p->gap_open;
        ext_l[a] = cg ? 0 : p->gap_extend;
        cg_add[a] = cg ? p->match_cgap : 0;
    }
    const int32_t SMALL = INT32_MIN / 4, match = p->match, gap_open = p->gap_open,
                  gap_extend = p->gap_extend;
    int32_t best = SMALL;
    int64_t best_a = 0, best_b = 0;
    for (int64_t b = 0; b < L; b++) {
        const unsigned bc = read[b];
        uint8_t *row = tb + b * S;
        int32_t last_sl = SMALL, last_sc = 0, last_sdiag = 0;
        for (int64_t a = 0; a < S; a++) {
            const int32_t sm = last_sdiag + ((state[a] & bc) ? match : 0) + cg_add[a];
            last_sdiag = s[a];
            const int32_t ol = last_sc + open_l[a], xl = last_sl + ext_l[a];
            const int l_stay = xl > ol;
            const int32_t sl = l_stay ? xl : ol;
            last_sl = sl;
            const int32_t ou = last_sdiag + gap_open, xu = si[a] + gap_extend;
            const int u_stay = xu > ou;
            const int32_t su = u_stay ? xu : ou;
            si[a] = su;
            /* SU only when strictly above both, then SL when >= SU and > SM, else SM: the
             * value is the maximum of the three either way */
            const int take_u = (su > sl) & (su > sm);
            const int take_l = !take_u & (sl >= su) & (sl > sm);
            int32_t sc = sm > sl ? sm : sl;
            sc = sc > su ? sc : su;
            last_sc = sc;
            s[a] = sc;
            row[a] = (uint8_t)(l_stay * DPA_PTB_SL_STAY | u_stay * DPA_PTB_SU_STAY | take_l * DPA_PTB_S_L |
                               take_u * DPA_PTB_S_U);
        }
        /* the end cell in PaPaRa's order: each row's last site, then the last row left to right */
        if (b < L - 1) {
            if (s[S - 1] > best) best = s[S - 1], best_a = S - 1, best_b = b;
        } else {
            for (int64_t a = 0; a < S; a++)
                if (s[a] > best) best = s[a], best_a = a, best_b = b;
        }
    }
    const int64_t n = dpa_papara_trace(tb, 1, S, L, best_a, best_b, rev, ops);
    *num_ops = n;
    *score = (int32_t)best;
    free(tb), free(s), free(rev), free(state);
    return DPA_OK;
}
