/*
 * hmm_vit_pair.h — the Viterbi filter of one model against two targets at once, shared by
 * hmm_vit_avx2.c and hmm_vit_avx512.c (included after they define VV, VP_W (0: AVX2 tables,
 * 1: AVX-512), V_ADDS, V_MAX, V_SET1, V_NONE_GT, VP_FN and the file's shift_w / hmax_w).
 *
 * Why. One target's row is the algorithm of the single kernels (HMMER's striped
 * p7_ViterbiFilter), and two things bound it: every segment loads seven transition vectors
 * besides its match scores and its three row vectors, and every row ends in a latency chain
 * (xE's horizontal maximum, the specials, xB into the next row) that a small model cannot
 * hide. Two targets against the same model share the transition loads in one sweep and give
 * the out-of-order core two independent chains. Each target keeps its own rows, specials,
 * lazy-F D->D passes and overflow, computed exactly as in the single kernel: the cell values
 * and the score are the same. When one target ends (or overflows) the other goes on alone.
 */

typedef struct vp_seq {
    VV *Mx, *Dx, *Ix;
    const uint8_t *dsq;
    const dpa_hmm_len_params *lp;
    int32_t i, L;
    int16_t xN, xB, xJ, xC;
    int over; /* xE reached 32767: the score is +inf */
} vp_seq;

static inline void VP_FN(init)(vp_seq *s, VV *rows, int Q, const dpa_hmm_profile *p, const dpa_hmm_len_params *lp,
                               const uint8_t *dsq) {
    const VV neg = V_SET1(-32768);
    s->Mx = rows;
    s->Dx = rows + Q;
    s->Ix = rows + 2 * Q;
    for (int q = 0; q < Q; q++) s->Mx[q] = s->Dx[q] = s->Ix[q] = neg;
    s->dsq = dsq;
    s->lp = lp;
    s->i = 0;
    s->L = lp->L;
    s->xN = p->base_w;
    s->xB = (int16_t)(s->xN + lp->xw_move);
    s->xJ = s->xC = -32768;
    s->over = 0;
}

/* One segment of one target's sweep (the single kernel's loop body). */
#define VP_CELL(S, sv, mpv, dpv, ipv, dcv, xEv, Dmaxv, xBv, rsc)                                  \
    do {                                                                                        \
        sv = V_MAX(V_MAX(V_ADDS(xBv, bm), V_ADDS(mpv, mm)), V_MAX(V_ADDS(ipv, im), V_ADDS(dpv, dm))); \
        sv = V_ADDS(sv, rsc[q]);                                                                \
        xEv = V_MAX(xEv, sv);                                                                   \
        mpv = (S)->Mx[q];                                                                       \
        dpv = (S)->Dx[q];                                                                       \
        ipv = (S)->Ix[q];                                                                       \
        (S)->Mx[q] = sv;                                                                        \
        (S)->Dx[q] = dcv;                                                                       \
        dcv = V_ADDS(sv, md);                                                                   \
        Dmaxv = V_MAX(dcv, Dmaxv);                                                              \
        (S)->Ix[q] = V_MAX(V_ADDS(mpv, mi), V_ADDS(ipv, ii));                                   \
    } while (0)

/* The first lazy-F D->D pass over a row's Dx (dcv: the wrapped-in D->D value, already
 * shifted): Dx[q] = max(x_q, Dx[q]) with x_0 = dcv, x_(q+1) = adds(max(x_q, Dx[q]), DD_q);
 * returns x_Q. As one loop this is a chain of two dependent operations a segment. Because a
 * saturating add is monotone, adds(max(u, v), t) = max(adds(u, t), adds(v, t)), so x_q for
 * q >= h equals max(h_q, c_q), where h_q is the same recurrence started at segment h from
 * -32768 (it does not depend on the first half) and c_q is the first half's x_h carried on by
 * saturating adds alone (c_(q+1) = adds(c_q, DD_q)). So with Q >= VP_DD_SPLIT_Q the halves
 * run as two independent chains, then a fix-up pass whose chain is one add a segment puts
 * c_q into the second half: ~1.5 Q cycles instead of ~2 Q, the same values. It paid 2-3% on
 * AVX2 (M = 450, 1297) and lost on AVX-512 (docs/lab/2026-11-29-session22-hmm.md), so only
 * hmm_vit_avx2.c sets VP_DD_SPLIT_Q. */
#ifndef VP_DD_SPLIT_Q
#define VP_DD_SPLIT_Q 0x7fffffff
#endif
static inline VV VP_FN(dd_first)(VV *Dx, const VV *tw, int Q, VV dcv) {
    if (Q < VP_DD_SPLIT_Q) {
        for (int q = 0; q < Q; q++) {
            Dx[q] = V_MAX(dcv, Dx[q]);
            dcv = V_ADDS(Dx[q], tw[(size_t)q * 8 + DPA_HMM_W_DD]);
        }
        return dcv;
    }
    const int h = Q / 2;
    VV a = dcv, b = V_SET1(-32768);
    for (int q = 0; q < h; q++) {
        Dx[q] = V_MAX(a, Dx[q]);
        a = V_ADDS(Dx[q], tw[(size_t)q * 8 + DPA_HMM_W_DD]);
        Dx[h + q] = V_MAX(b, Dx[h + q]);
        b = V_ADDS(Dx[h + q], tw[(size_t)(h + q) * 8 + DPA_HMM_W_DD]);
    }
    if (Q & 1) { /* segment Q - 1 = 2h: the second chain's last step */
        Dx[Q - 1] = V_MAX(b, Dx[Q - 1]);
        b = V_ADDS(Dx[Q - 1], tw[(size_t)(Q - 1) * 8 + DPA_HMM_W_DD]);
    }
    for (int q = h; q < Q; q++) {
        Dx[q] = V_MAX(a, Dx[q]);
        a = V_ADDS(a, tw[(size_t)q * 8 + DPA_HMM_W_DD]);
    }
    return V_MAX(a, b);
}

/* The end of a row: specials, overflow, the lazy-F D->D passes (the single kernel's). */
static inline void VP_FN(tail)(vp_seq *s, const dpa_hmm_profile *p, const VV *tw, int Q, VV xEv, VV Dmaxv, VV dcv,
                               VV neg0) {
    const int16_t xE = hmax_w(xEv);
    if (xE >= 32767) {
        s->over = 1;
        return;
    }
    s->xC = (int16_t)((int)s->xC > (int)xE + p->xw_e_move ? (int)s->xC : (int)xE + p->xw_e_move);
    s->xJ = (int16_t)((int)s->xJ > (int)xE + p->xw_e_loop ? (int)s->xJ : (int)xE + p->xw_e_loop);
    {
        int a = (int)s->xJ + s->lp->xw_move, b = (int)s->xN + s->lp->xw_move;
        s->xB = (int16_t)(a > b ? a : b);
    }
    VV *Dx = s->Dx;
    if ((int)hmax_w(Dmaxv) + p->ddbound_w > (int)s->xB) {
        dcv = VP_FN(dd_first)(Dx, tw, Q, shift_w(dcv, neg0));
        int q;
        do {
            dcv = shift_w(dcv, neg0);
            for (q = 0; q < Q; q++) {
                if (V_NONE_GT(dcv, Dx[q])) break;
                Dx[q] = V_MAX(dcv, Dx[q]);
                dcv = V_ADDS(Dx[q], tw[(size_t)q * 8 + DPA_HMM_W_DD]);
            }
        } while (q == Q);
    } else {
        Dx[0] = shift_w(dcv, neg0);
    }
    s->i++;
}

static void VP_FN(row1)(vp_seq *a, const dpa_hmm_profile *p, const VV *tw, const VV *rw, int Q, VV neg0) {
    const VV neg = V_SET1(-32768);
    const VV *rsc = rw + (size_t)a->dsq[a->i] * Q;
    VV dcv = neg, xEv = neg, Dmaxv = neg, xBv = V_SET1(a->xB), sv;
    VV mpv = shift_w(a->Mx[Q - 1], neg0), dpv = shift_w(a->Dx[Q - 1], neg0), ipv = shift_w(a->Ix[Q - 1], neg0);
    const VV *t = tw;
    for (int q = 0; q < Q; q++, t += 8) {
        const VV bm = t[DPA_HMM_W_BM], mm = t[DPA_HMM_W_MM], im = t[DPA_HMM_W_IM], dm = t[DPA_HMM_W_DM],
                 md = t[DPA_HMM_W_MD], mi = t[DPA_HMM_W_MI], ii = t[DPA_HMM_W_II];
        VP_CELL(a, sv, mpv, dpv, ipv, dcv, xEv, Dmaxv, xBv, rsc);
    }
    VP_FN(tail)(a, p, tw, Q, xEv, Dmaxv, dcv, neg0);
}

static void VP_FN(row2)(vp_seq *a, vp_seq *b, const dpa_hmm_profile *p, const VV *tw, const VV *rw, int Q, VV neg0) {
    const VV neg = V_SET1(-32768);
    const VV *ra = rw + (size_t)a->dsq[a->i] * Q, *rb = rw + (size_t)b->dsq[b->i] * Q;
    VV dca = neg, xEa = neg, Dma = neg, xBa = V_SET1(a->xB), sa;
    VV dcb = neg, xEb = neg, Dmb = neg, xBb = V_SET1(b->xB), sb;
    VV mpa = shift_w(a->Mx[Q - 1], neg0), dpa = shift_w(a->Dx[Q - 1], neg0), ipa = shift_w(a->Ix[Q - 1], neg0);
    VV mpb = shift_w(b->Mx[Q - 1], neg0), dpb = shift_w(b->Dx[Q - 1], neg0), ipb = shift_w(b->Ix[Q - 1], neg0);
    const VV *t = tw;
    for (int q = 0; q < Q; q++, t += 8) {
        const VV bm = t[DPA_HMM_W_BM], mm = t[DPA_HMM_W_MM], im = t[DPA_HMM_W_IM], dm = t[DPA_HMM_W_DM],
                 md = t[DPA_HMM_W_MD], mi = t[DPA_HMM_W_MI], ii = t[DPA_HMM_W_II];
        VP_CELL(a, sa, mpa, dpa, ipa, dca, xEa, Dma, xBa, ra);
        VP_CELL(b, sb, mpb, dpb, ipb, dcb, xEb, Dmb, xBb, rb);
    }
    VP_FN(tail)(a, p, tw, Q, xEa, Dma, dca, neg0);
    VP_FN(tail)(b, p, tw, Q, xEb, Dmb, dcb, neg0);
}

/* Scores of targets A and B (nats, as dpa_hmm_vit_ref; +inf on overflow). work: scratch of
 * dpa_hmm_work_bytes(M) (two targets' rows). */
static void VP_FN(pair)(const dpa_hmm_profile *p, const dpa_hmm_len_params *lpa, const uint8_t *dsqa,
                        const dpa_hmm_len_params *lpb, const uint8_t *dsqb, void *work, float sc[2], VV neg0) {
    const int Q = p->vf_q[VP_W];
    const VV *tw = (const VV *)(const void *)p->vf_tw[VP_W], *rw = (const VV *)(const void *)p->vf_rw[VP_W];
    VV *rows = (VV *)(((uintptr_t)work + 63) & ~(uintptr_t)63);
    vp_seq a, b;
    VP_FN(init)(&a, rows, Q, p, lpa, dsqa);
    VP_FN(init)(&b, rows + 3 * (size_t)Q, Q, p, lpb, dsqb);
    while (a.i < a.L && b.i < b.L && !a.over && !b.over) VP_FN(row2)(&a, &b, p, tw, rw, Q, neg0);
    while (a.i < a.L && !a.over) VP_FN(row1)(&a, p, tw, rw, Q, neg0);
    while (b.i < b.L && !b.over) VP_FN(row1)(&b, p, tw, rw, Q, neg0);
    sc[0] = a.over ? INFINITY : dpa_hmm_vit_score(p, a.lp, a.xC);
    sc[1] = b.over ? INFINITY : dpa_hmm_vit_score(p, b.lp, b.xC);
}

#undef VP_CELL
