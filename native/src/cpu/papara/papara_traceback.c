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
#include <stdlib.h>

#include "common/status.h"
#include "cpu/papara/papara.h"

enum { SL_STAY = 1, SU_STAY = 2, S_L = 4, S_U = 8 };

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
    uint8_t *tb = malloc((size_t)(S * L));
    int64_t *s = malloc(sizeof *s * 2 * (size_t)S);
    uint8_t *rev = malloc((size_t)(S + L));
    if (!tb || !s || !rev) {
        free(tb), free(s), free(rev);
        return dpa_fail(DPA_ERR_OUT_OF_MEMORY, "dpa_papara_traceback: out of memory for %lld "
                        "cells", (long long)(S * L));
    }
    int64_t *si = s + S;
    for (int64_t i = 0; i < S; i++) s[i] = si[i] = 0;
    const int64_t SMALL = INT64_MIN / 4;
    int64_t best = SMALL, best_a = 0, best_b = 0;
    for (int64_t b = 0; b < L; b++) {
        const unsigned bc = read[b];
        int64_t last_sl = SMALL, last_sc = 0, last_sdiag = 0;
        for (int64_t a = 0; a < S; a++) {
            uint8_t t = 0;
            const unsigned ac = profile[a] & 15u;
            const int cg = (profile[a] & DPA_PAPARA_CGAP_BIT) != 0;
            int64_t sm = last_sdiag + ((ac & bc) ? p->match : 0);
            last_sdiag = s[a];
            int64_t open_l, stay_l;
            if (cg) {
                open_l = last_sc;
                stay_l = last_sl;
                sm += p->match_cgap;
            } else {
                open_l = last_sc + p->gap_open;
                stay_l = last_sl + p->gap_extend;
            }
            int64_t sl;
            if (stay_l > open_l) {
                sl = stay_l;
                t |= SL_STAY;
            } else {
                sl = open_l;
            }
            last_sl = sl;
            const int64_t open_u = last_sdiag + p->gap_open, stay_u = si[a] + p->gap_extend;
            int64_t su;
            if (stay_u > open_u) {
                su = stay_u;
                t |= SU_STAY;
            } else {
                su = open_u;
            }
            si[a] = su;
            int64_t sc;
            if (su > sl && su > sm) {
                sc = su;
                t |= S_U;
            } else if (sl >= su && sl > sm) {
                sc = sl;
                t |= S_L;
            } else {
                sc = sm;
            }
            last_sc = sc;
            s[a] = sc;
            tb[b * S + a] = t;
            if ((a == S - 1 || b == L - 1) && sc > best) {
                best = sc;
                best_a = a;
                best_b = b;
            }
        }
    }
    /* backwards, as PaPaRa's trace: 0 match, 1 site without read base, 2 read base alone */
    int64_t n = 0, a = S - 1, b = L - 1;
    int in_l = 0, in_u = 0;
    while (a > best_a) rev[n++] = DPA_PAPARA_OP_D, a--;
    while (b > best_b) rev[n++] = DPA_PAPARA_OP_I, b--;
    while (a >= 0 && b >= 0) {
        const uint8_t t = tb[b * S + a];
        if (!in_l && !in_u) {
            in_l = (t & S_L) != 0;
            in_u = (t & S_U) != 0;
            if (!in_l && !in_u) {
                rev[n++] = DPA_PAPARA_OP_M;
                a--;
                b--;
            }
        }
        if (in_u) {
            rev[n++] = DPA_PAPARA_OP_I;
            b--;
            in_u = (t & SU_STAY) != 0;
        } else if (in_l) {
            rev[n++] = DPA_PAPARA_OP_D;
            a--;
            in_l = (t & SL_STAY) != 0;
        }
    }
    while (a >= 0) rev[n++] = DPA_PAPARA_OP_D, a--;
    while (b >= 0) rev[n++] = DPA_PAPARA_OP_I, b--;
    for (int64_t k = 0; k < n; k++) ops[k] = rev[n - 1 - k];
    *num_ops = n;
    *score = (int32_t)best;
    free(tb), free(s), free(rev);
    return DPA_OK;
}
