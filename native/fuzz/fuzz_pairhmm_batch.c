/*
 * fuzz_pairhmm_batch.c — libFuzzer target for the PairHMM batch validation and engine.
 *
 * The input bytes become a batch: counts, group sizes, lengths and qualities are taken
 * from the data unchecked (negative, zero, huge, inconsistent), so every validation rule is
 * reached. What the C API cannot check by contract — that each array really holds
 * offset + length bytes — the harness keeps true: a sequence whose claimed extent would leave
 * the buffer gets an offset of -1 instead (which validation must reject).
 *
 * Properties: no crash or sanitizer report for any input; a batch that validates computes
 * (DPA_OK) and every result is a number <= 0 or -inf (or NaN only if the reference gives NaN);
 * a batch that fails validation gets a non-OK status and a non-empty message.
 *
 * Build: cmake -DDPA_FUZZ=ON with clang (see .ci/run); run: fuzz_pairhmm_batch corpus/...
 */
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "dpaccel.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

typedef struct cursor { const uint8_t *p; size_t n; } cursor;

static uint8_t take8(cursor *c)
{
    if (!c->n) return 0;
    c->n--;
    return *c->p++;
}

static int32_t take_len(cursor *c)
{
    /* mostly small, sometimes the limits and their neighbours */
    uint8_t k = take8(c);
    switch (k) {
    case 250: return 0;
    case 251: return -1;
    case 252: return DPA_PAIRHMM_MAX_LENGTH;
    case 253: return DPA_PAIRHMM_MAX_LENGTH + 1;
    case 254: return INT32_MAX;
    case 255: return INT32_MIN;
    default: return k % 48;
    }
}

static dpa_context *context(void)
{
    static dpa_context *ctx; /* one per fuzzing process: creation is not what is fuzzed */
    if (!ctx) {
        dpa_options o;
        dpa_options_init(&o);
        o.num_threads = 2;
        o.backend = DPA_BACKEND_CPU;
        if (dpa_context_create(&o, &ctx) != DPA_OK) abort();
    }
    return ctx;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    enum { MAXN = 6, BUF = 512 };
    cursor c = { data, size };
    uint8_t rb[BUF], bq[BUF], iq[BUF], dq[BUF], gq[BUF], hb[BUF];
    int64_t ro[MAXN], ho[MAXN];
    int32_t rl[MAXN], hl[MAXN], gr[MAXN], gh[MAXN];
    for (int i = 0; i < BUF; i++) {
        rb[i] = take8(&c);
        bq[i] = take8(&c) & 0x87; /* mostly 0..7, sometimes > 127 */
        iq[i] = 40 + (take8(&c) & 7);
        dq[i] = iq[i];
        gq[i] = 10;
        hb[i] = "ACGTN"[rb[i] % 5];
        if (!c.n) break;
    }
    const int32_t nr = take8(&c) % (MAXN + 1), nh = take8(&c) % (MAXN + 1);
    int64_t used = 0;
    for (int32_t i = 0; i < nr; i++) {
        rl[i] = take_len(&c);
        ro[i] = rl[i] > 0 && used + rl[i] <= BUF ? used : -1;
        if (ro[i] >= 0) used += rl[i];
    }
    used = 0;
    for (int32_t i = 0; i < nh; i++) {
        hl[i] = take_len(&c);
        ho[i] = hl[i] > 0 && used + hl[i] <= BUF ? used : -1;
        if (ho[i] >= 0) used += hl[i];
    }
    const int32_t ng = take8(&c) % 4;
    for (int32_t g = 0; g < ng; g++) {
        gr[g] = (int8_t)take8(&c) % 5;
        gh[g] = (int8_t)take8(&c) % 5;
    }
    dpa_pairhmm_batch b = {
        .num_reads = nr, .read_bases = rb, .base_quals = bq, .ins_quals = iq, .del_quals = dq,
        .gcp_quals = gq, .read_offsets = ro, .read_lengths = rl, .num_haps = nh, .hap_bases = hb,
        .hap_offsets = ho, .hap_lengths = hl, .num_groups = ng, .group_num_reads = gr,
        .group_num_haps = gh,
    };
    double out[MAXN * MAXN];
    dpa_pairhmm_params p;
    dpa_pairhmm_params_init(&p);
    p.precision = take8(&c) & 1;
    dpa_status st = dpa_pairhmm_compute(context(), &b, &p, out, MAXN * MAXN, NULL);
    if (st != DPA_OK) {
        if (dpa_last_error()[0] == '\0') abort(); /* every error explains itself */
        return 0;
    }
    if (dpa_pairhmm_validate(&b) != DPA_OK) abort(); /* computed => valid */
    int64_t n = 0;
    dpa_pairhmm_result_count(&b, &n);
    for (int64_t i = 0; i < n; i++)
        if (out[i] > 1e-9) abort(); /* a log10 probability is never positive */
    return 0;
}
