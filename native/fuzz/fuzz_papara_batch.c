/*
 * fuzz_papara_batch.c — libFuzzer target for dpa_papara_validate + dpa_papara_score.
 *
 * The bytes become a batch (profile count, sites, site bytes, reads, read lengths and
 * offsets, parameters), with out-of-range values mixed in. Properties: no crash or
 * sanitizer report; dpa_papara_score accepts exactly what dpa_papara_validate accepts;
 * a rejected call leaves the outputs untouched; on accepted batches the scalar, AVX2 and
 * AVX-512 contexts give the same matrix, best and ties, and small ones match the scalar
 * reference cell by cell, and each read's traceback against its best profile reproduces
 * the best score with every site and read base used once. A last byte picks the 2012 score
 * model (scalar reference, no traceback) for the same properties; dpa_papara_traceback_batch
 * must give every read the single traceback's ops and score.
 *
 * Build: cmake -DDPA_FUZZ=ON with clang (see .ci/run); run: fuzz_papara_batch corpus/papara_batch
 */
#include <stdlib.h>
#include <string.h>

#include "cpu/papara/papara.h"
#include "dpaccel.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

typedef struct cursor {
    const uint8_t *p;
    size_t n;
} cursor;

static uint8_t take8(cursor *c)
{
    if (!c->n) return 0;
    c->n--;
    return *c->p++;
}

static int32_t take_score(cursor *c, int32_t usual)
{
    const uint8_t k = take8(c);
    if (k < 170) return usual;
    if (k < 250) return (int32_t)(take8(c) % 13) - 6;
    return k & 1 ? 1001 : -1001;
}

static dpa_context *context(int which)
{
    static dpa_context *ctx[3];
    static const char *const disable[3] = { "", "avx512", "avx512,avx2" };
    if (!ctx[which]) {
        dpa_options o;
        dpa_options_init(&o);
        o.num_threads = 1 + which % 2;
        o.cpu_disable = disable[which];
        o.gpu_disable = 1;
        if (dpa_context_create(&o, &ctx[which])) abort();
    }
    return ctx[which];
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    cursor c = { data, size };
    const int32_t E = take8(&c) % 40;
    const uint8_t sk = take8(&c);
    const int64_t S = sk == 255 ? 0 : 1 + sk % 90;
    const int32_t R = take8(&c) % 12;
    dpa_papara_params p;
    dpa_papara_params_init(&p);
    p.gap_open = take_score(&c, -3);
    p.gap_extend = take_score(&c, -1);
    p.match = take_score(&c, 2);
    p.match_cgap = take_score(&c, -3);
    uint8_t *prof = malloc((size_t)(E * (S ? S : 1)) + 1);
    int64_t *offs = malloc(sizeof *offs * (size_t)(R + 1));
    int32_t *lens = malloc(sizeof *lens * (size_t)(R + 1));
    uint8_t *masks = malloc((size_t)R * 64 + 1);
    if (!prof || !offs || !lens || !masks) abort();
    for (int64_t i = 0; i < (int64_t)E * S; i++) {
        uint8_t b = take8(&c);
        prof[i] = b < 250 ? (uint8_t)(b & 0x1f) : b;
    }
    int64_t at = 0;
    for (int32_t r = 0; r < R; r++) {
        const uint8_t k = take8(&c);
        lens[r] = k == 255 ? 0 : k == 254 ? -1 : 1 + k % 64;
        offs[r] = at;
        const int32_t l = lens[r] > 0 ? lens[r] : 0;
        for (int32_t j = 0; j < l; j++) {
            const uint8_t b = take8(&c);
            masks[at + j] = b < 250 ? (uint8_t)(1 + b % 15) : (uint8_t)(b & 16);
        }
        at += l;
    }
    /* last, so inputs written before the 2012 model keep their meaning (0 when exhausted) */
    if (take8(&c) & 1) p.score_model = DPA_PAPARA_SCORE_PAPER2012;
    dpa_papara_batch b = { E, S, prof, R, masks, offs, lens };
    const dpa_status v = dpa_papara_validate(&b, &p);
    const size_t cells = (size_t)R * (size_t)(E ? E : 1);
    int32_t *m[3], *best[3], *idx[3], *ties[3];
    for (int k = 0; k < 3; k++) {
        m[k] = malloc(sizeof(int32_t) * cells + 4);
        best[k] = malloc(sizeof(int32_t) * (size_t)(R + 1));
        idx[k] = malloc(sizeof(int32_t) * (size_t)(R + 1));
        ties[k] = malloc(sizeof(int32_t) * (size_t)(R + 1));
        if (!m[k] || !best[k] || !idx[k] || !ties[k]) abort();
        memset(best[k], 0x5a, sizeof(int32_t) * (size_t)(R + 1));
        dpa_papara_output o = { m[k], best[k], idx[k], ties[k] };
        const dpa_status st = dpa_papara_score(context(k), &b, &p, &o, NULL);
        const int want_ok = v == DPA_OK && !(R > 0 && E == 0);
        if ((st == DPA_OK) != want_ok) abort();
        if (st != DPA_OK)
            for (int32_t r = 0; r < R; r++)
                if (best[k][r] != 0x5a5a5a5a) abort(); /* untouched */
    }
    if (v == DPA_OK && E > 0 && R > 0) {
        for (int k = 1; k < 3; k++)
            if (memcmp(m[0], m[k], sizeof(int32_t) * cells) ||
                memcmp(best[0], best[k], sizeof(int32_t) * (size_t)R) ||
                memcmp(idx[0], idx[k], sizeof(int32_t) * (size_t)R) ||
                memcmp(ties[0], ties[k], sizeof(int32_t) * (size_t)R))
                abort();
        int64_t *scratch = malloc(sizeof *scratch * 2 * (size_t)S);
        if (!scratch) abort();
        uint8_t *ops = malloc((size_t)S + 64);
        if (!ops) abort();
        const int paper = p.score_model == DPA_PAPARA_SCORE_PAPER2012;
        int64_t *tb_n = malloc(sizeof *tb_n * (size_t)R), *tb_off = malloc(sizeof *tb_off * (size_t)R);
        int64_t tb_len = 0;
        for (int32_t r = 0; r < R; r++) tb_off[r] = tb_len, tb_len += S + lens[r];
        uint8_t *tb_ops = malloc((size_t)tb_len + 1);
        if (!tb_n || !tb_off || !tb_ops) abort();
        for (int32_t r = 0; r < R; r++) {
            for (int32_t e = 0; e < E; e++)
                if (m[0][(size_t)r * E + e] !=
                    (paper ? dpa_papara_score_paper2012(prof + (int64_t)e * S, S, masks + offs[r],
                                                        lens[r], scratch)
                           : dpa_papara_score_ref(prof + (int64_t)e * S, S, masks + offs[r],
                                                  lens[r], &p, scratch)))
                    abort();
            if (paper) continue; /* no traceback for the 2012 model */
            /* the traceback against the best profile: same score, every site and base once */
            int64_t n = 0, sites = 0, bases = 0;
            int32_t sc = 0;
            if (dpa_papara_traceback(prof + (int64_t)idx[0][r] * S, S, masks + offs[r], lens[r], &p,
                                     ops, &n, &sc))
                abort();
            for (int64_t k = 0; k < n; k++) {
                if (ops[k] > DPA_PAPARA_OP_I) abort();
                sites += ops[k] != DPA_PAPARA_OP_I;
                bases += ops[k] != DPA_PAPARA_OP_D;
            }
            if (sc != best[0][r] || sites != S || bases != lens[r]) abort();
            tb_n[r] = n;
            memcpy(tb_ops + tb_off[r], ops, (size_t)n);
        }
        if (!paper) { /* the batch traceback on the context's threads: the same, read by read */
            int64_t *bn = malloc(sizeof *bn * (size_t)R);
            int32_t *bs = malloc(sizeof *bs * (size_t)R);
            uint8_t *bo = malloc((size_t)tb_len + 1);
            if (!bn || !bs || !bo) abort();
            if (dpa_papara_traceback_batch(context(0), &b, idx[0], &p, bo, tb_len, tb_off, bn, bs))
                abort();
            for (int32_t r = 0; r < R; r++)
                if (bn[r] != tb_n[r] || bs[r] != best[0][r] ||
                    memcmp(bo + tb_off[r], tb_ops + tb_off[r], (size_t)bn[r]))
                    abort();
            free(bn), free(bs), free(bo);
        }
        free(tb_n), free(tb_off), free(tb_ops);
        free(ops);
        free(scratch);
    }
    for (int k = 0; k < 3; k++) {
        free(m[k]);
        free(best[k]);
        free(idx[k]);
        free(ties[k]);
    }
    free(prof);
    free(offs);
    free(lens);
    free(masks);
    return 0;
}
