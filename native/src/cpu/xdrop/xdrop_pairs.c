/*
 * xdrop_pairs.c — the batch loop every X-drop kernel shares: lays out each pair's two sides
 * as SeqAn's extendSeed does (left on the prefixes read backwards from the seed start, right
 * on the suffixes from the seed end; the reverse strand reads the target backwards and
 * complemented, which is its reverse complement without building it), scores the seed's own
 * columns, runs the ISA's side function twice and writes the outputs.
 */
#include <stdlib.h>
#include <string.h>

#include "common/status.h"
#include "cpu/xdrop/xdrop.h"

void dpa_xdrop_scratch_free(dpa_xdrop_scratch *s)
{
    free(s->diag);
    free(s->qc);
    free(s->tc);
    memset(s, 0, sizeof *s);
}

dpa_status dpa_xdrop_scratch_reserve(dpa_xdrop_scratch *s, int32_t qlen, int32_t tlen)
{
    /* columns 0..qlen + 1 of three anti-diagonals, slack on both sides of each */
    const int64_t stride = (int64_t)qlen + 2 + 2 * DPA_XDROP_PAD;
    if (stride > s->stride) {
        int32_t *d = malloc(sizeof *d * (size_t)(3 * stride + DPA_XDROP_PAD));
        if (!d) return dpa_fail(DPA_ERR_OUT_OF_MEMORY, "xdrop: out of memory for a query of %d",
                                qlen);
        free(s->diag);
        s->diag = d;
        s->stride = stride;
    }
    const int64_t codes = (int64_t)(qlen > tlen ? qlen : tlen) + 2 * DPA_XDROP_PAD;
    if (codes > s->codes_cap) {
        uint8_t *q = calloc((size_t)codes, 1), *t = calloc((size_t)codes, 1);
        if (!q || !t) {
            free(q);
            free(t);
            return dpa_fail(DPA_ERR_OUT_OF_MEMORY, "xdrop: out of memory for sequences of %d",
                            qlen > tlen ? qlen : tlen);
        }
        free(s->qc);
        free(s->tc);
        s->qc = q;
        s->tc = t;
        s->codes_cap = codes;
    }
    return DPA_OK;
}

/* Element i of a side: raw[i * step]; a NULL raw for an empty side (its start may lie
 * outside the sequence). */
static dpa_xdrop_seq side(const uint8_t *raw, int32_t len, int32_t step, int32_t comp)
{
    dpa_xdrop_seq s = { len > 0 ? raw : NULL, len, step, comp };
    return s;
}

dpa_status dpa_xdrop_compute_pairs(dpa_xdrop_side_fn extend, const dpa_xdrop_batch *b,
                                   const dpa_xdrop_params *p, const int32_t *pairs, int64_t n,
                                   const dpa_xdrop_output *out, int64_t *cells)
{
    dpa_xdrop_scratch s;
    memset(&s, 0, sizeof s);
    dpa_status st = DPA_OK;
    for (int64_t k = 0; k < n; k++) {
        const int32_t i = pairs[k];
        const int32_t qlen = b->query_lengths[i], tlen = b->target_lengths[i];
        const int32_t qpos = b->qpos[i], tpos = b->tpos[i], len = b->seed_lengths[i];
        const uint8_t *q = b->query_bases + b->query_offsets[i];
        const uint8_t *t = b->target_bases + b->target_offsets[i];
        if ((st = dpa_xdrop_scratch_reserve(&s, qlen, tlen)) != DPA_OK) break;
        /* the scratch codes start DPA_XDROP_PAD in, so SIMD reads just outside a side hit
         * allocated bytes */
        dpa_xdrop_scratch view = s;
        view.qc += DPA_XDROP_PAD;
        view.tc += DPA_XDROP_PAD;

        const int rev = b->strands[i] == DPA_XDROP_REVERSE;
        const int32_t qr = qlen - qpos - len, tr = tlen - tpos - len;
        /* target element j of the strand-oriented target is t[j], or complement(t[tlen-1-j]) */
        dpa_xdrop_seq ql = side(q + qpos - 1, qpos, -1, 0);
        dpa_xdrop_seq qrt = side(q + qpos + len, qr, 1, 0);
        dpa_xdrop_seq tl = rev ? side(t + tlen - tpos, tpos, 1, 1) : side(t + tpos - 1, tpos, -1, 0);
        dpa_xdrop_seq trt = rev ? side(t + tr - 1, tr, -1, 1) : side(t + tpos + len, tr, 1, 0);

        int64_t seed = 0;
        for (int32_t j = 0; j < len; j++) {
            const uint8_t a = dpa_xdrop_code(q[qpos + j]);
            uint8_t c;
            if (rev) {
                c = dpa_xdrop_code(t[tlen - 1 - tpos - j]);
                if (c < 4) c = (uint8_t)(3 - c);
            } else {
                c = dpa_xdrop_code(t[tpos + j]);
            }
            seed += a == c ? p->match : p->mismatch;
        }
        int32_t lq, lt, rq, rt;
        const int32_t left = extend(&ql, &tl, p, &view, &lq, &lt, cells);
        const int32_t right = extend(&qrt, &trt, p, &view, &rq, &rt, cells);
        /* |left + right + seed| <= 1000 * (qlen + tlen) < 2^31 for validated input
         * (dpaccel.h); only SeqAn's "undefined" side result could leave int32 */
        int64_t score = (int64_t)left + right + seed;
        if (score < INT32_MIN) score = INT32_MIN;
        out->score[i] = (int32_t)score;
        out->left[i] = left;
        out->right[i] = right;
        out->qbeg[i] = qpos - lq;
        out->tbeg[i] = tpos - lt;
        out->qend[i] = qpos + len + rq;
        out->tend[i] = tpos + len + rt;
    }
    dpa_xdrop_scratch_free(&s);
    return st;
}
