/*
 * fuzz_xdrop_batch.c — libFuzzer target for X-drop batch validation and the batch path
 * (dpa_xdrop_validate, dpa_xdrop_compute on the CPU).
 *
 * The input bytes choose up to 4 pairs over small alphabets (lower case, N, U, IUPAC and now
 * and then a non-letter), lengths mostly 1..60 (sometimes 0, negative or beyond the limit),
 * seeds anywhere (inside, at the ends, past them, negative), the strand (valid and not), the
 * scores and X (mostly in range, sometimes at and past every limit), the per-call backend and
 * the kernel (AVX-512, AVX2 or scalar context). As in the other batch targets, a sequence whose
 * claimed extent would leave the buffer gets offset -1 (validation rejects it).
 *
 * Properties: no crash or sanitizer report; compute returns OK exactly when validation passes
 * and the backend is not GPU, else an error with a message; an OK call equals the scalar
 * kernel run directly on the same batch, every extended seed contains its seed and lies inside
 * both sequences, and score = left + right + the seed's column sum.
 *
 * Build: cmake -DDPA_FUZZ=ON with clang (see .ci/run); run: fuzz_xdrop_batch corpus/xdrop_batch
 */
#include <stdlib.h>
#include <string.h>

#include "cpu/xdrop/xdrop.h"
#include "dpaccel.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

typedef struct cursor { const uint8_t *p; size_t n; } cursor;

static uint8_t take8(cursor *c)
{
    if (!c->n) return 0;
    c->n--;
    return *c->p++;
}

static int32_t take32(cursor *c)
{
    uint32_t v = 0;
    for (int k = 0; k < 4; k++) v = v << 8 | take8(c);
    return (int32_t)v;
}

static int32_t take_len(cursor *c)
{
    const uint8_t k = take8(c);
    switch (k) {
    case 250: return 0;
    case 251: return -1;
    case 252: return DPA_XDROP_MAX_LENGTH + 1;
    case 253: return INT32_MAX;
    case 254: return INT32_MIN;
    default: return 1 + k % 60;
    }
}

/* A seed coordinate for a sequence of length len: mostly inside, sometimes at or past an end. */
static int32_t take_pos(cursor *c, int32_t len)
{
    const uint8_t k = take8(c);
    if (k < 200) return len > 0 ? (int32_t)(k % ((int64_t)len + 1)) : 0;
    if (k < 230) return len;
    if (k < 245) return len < INT32_MAX ? len + 1 : len;
    return -(int32_t)(k % 4) - 1;
}

static int32_t take_score(cursor *c, int32_t usual, int32_t lo, int32_t hi)
{
    const uint8_t k = take8(c);
    if (k < 150) return usual;
    if (k < 230) return lo + (int32_t)(take8(c) % (uint32_t)(hi - lo + 1));
    if (k < 240) return k & 1 ? lo : hi;
    if (k < 250) return k & 1 ? lo - 1 : hi + 1;
    return take32(c);
}

static dpa_context *context(int which)
{
    static dpa_context *ctx[3]; /* one per kernel per fuzzing process */
    static const char *const disable[3] = { "", "avx512", "avx512,avx2" };
    if (!ctx[which]) {
        dpa_options o;
        dpa_options_init(&o);
        o.num_threads = 2;
        o.backend = DPA_BACKEND_CPU;
        o.gpu_disable = 1;
        o.cpu_disable = disable[which];
        if (dpa_context_create(&o, &ctx[which]) != DPA_OK) abort();
    }
    return ctx[which];
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    enum { MAXN = 4, BUF = 200 };
    cursor c = { data, size };
    uint8_t qb[BUF], tb[BUF];
    const char *const alphabets[5] = { "ACGT", "AC", "acgtN", "ACGTURYN", "AC-T" };
    const uint8_t qk = take8(&c), tk = take8(&c); /* now and then a non-letter alphabet */
    const char *qa = alphabets[qk == 9 ? 4 : qk % 4], *ta = alphabets[tk == 9 ? 4 : tk % 4];
    const size_t qn = strlen(qa), tn = strlen(ta);
    for (int i = 0; i < BUF; i++) {
        qb[i] = (uint8_t)qa[take8(&c) % qn];
        tb[i] = (uint8_t)ta[take8(&c) % tn];
    }
    if (take8(&c) & 1) memcpy(tb, qb + (take8(&c) % 32), BUF - 32); /* long matches */

    const int32_t n = take8(&c) % (MAXN + 2) - (take8(&c) == 255); /* -1..5 pairs */
    int64_t qo[MAXN + 1], to[MAXN + 1];
    int32_t ql[MAXN + 1], tl[MAXN + 1], qp[MAXN + 1], tp[MAXN + 1], sl[MAXN + 1];
    uint8_t strand[MAXN + 1];
    for (int32_t i = 0; i < n; i++) {
        ql[i] = take_len(&c);
        tl[i] = take_len(&c);
        const int64_t qs = take8(&c) % 64, ts = take8(&c) % 64;
        qo[i] = ql[i] > 0 && qs + ql[i] <= BUF ? qs : -1;
        to[i] = tl[i] > 0 && ts + tl[i] <= BUF ? ts : -1;
        const uint8_t k = take8(&c);
        sl[i] = k < 240 ? k % 24 : -(int32_t)(k % 3) - 1;
        /* lengths near INT32_MIN: the seed's room is clamped, the lengths stay wrong */
        qp[i] = take_pos(&c, ql[i] > INT32_MIN + 64 ? ql[i] - (sl[i] > 0 ? sl[i] : 0) : 0);
        tp[i] = take_pos(&c, tl[i] > INT32_MIN + 64 ? tl[i] - (sl[i] > 0 ? sl[i] : 0) : 0);
        const uint8_t s = take8(&c);
        strand[i] = s < 250 ? s & 1 : s;
    }
    dpa_xdrop_params p;
    dpa_xdrop_params_init(&p);
    p.match = take_score(&c, 1, 1, DPA_XDROP_MAX_SCORE);
    p.mismatch = take_score(&c, -1, -DPA_XDROP_MAX_SCORE, -1);
    p.gap = take_score(&c, -1, -DPA_XDROP_MAX_SCORE, -1);
    const uint8_t xk = take8(&c);
    p.xdrop = xk < 200 ? xk % 40 : xk < 240 ? DPA_XDROP_MAX_X - (xk & 1) * (DPA_XDROP_MAX_X - 1000)
            : xk < 250 ? (xk & 1 ? -1 : DPA_XDROP_MAX_X + 1) : take32(&c);
    const uint8_t be = take8(&c);
    p.backend = be < 200 ? -1 : be < 250 ? (be % 4) : (int32_t)(int8_t)be;
    const int kernel = take8(&c) % 3;

    const dpa_xdrop_batch b = { n, qb, qo, ql, tb, to, tl, qp, tp, sl, strand };
    const dpa_status valid = dpa_xdrop_validate(&b, &p);
    if (valid != DPA_OK && dpa_last_error()[0] == '\0') abort();
    int32_t v[7][MAXN + 1], w[7][MAXN + 1];
    const dpa_xdrop_output o = { v[0], v[1], v[2], v[3], v[4], v[5], v[6] };
    dpa_xdrop_stats stats;
    const dpa_status st = dpa_xdrop_compute(context(kernel), &b, &p, &o, &stats);
    const int should = valid == DPA_OK && p.backend != DPA_BACKEND_GPU;
    if ((st == DPA_OK) != should) abort();
    if (st != DPA_OK) {
        if (dpa_last_error()[0] == '\0') abort();
        return 0;
    }
    if (n <= 0) return 0;
    int32_t pairs[MAXN + 1];
    for (int32_t i = 0; i < n; i++) pairs[i] = i;
    const dpa_xdrop_output ref = { w[0], w[1], w[2], w[3], w[4], w[5], w[6] };
    int64_t cells = 0;
    if (dpa_xdrop_compute_scalar(&b, &p, pairs, n, &ref, &cells) != DPA_OK) abort();
    if (stats.cells != cells || stats.pairs != n) abort();
    for (int32_t i = 0; i < n; i++) {
        for (int k = 0; k < 7; k++)
            if (v[k][i] != w[k][i]) abort();
        if (v[1][i] < 0 || v[1][i] > qp[i] || v[2][i] < qp[i] + sl[i] || v[2][i] > ql[i]) abort();
        if (v[3][i] < 0 || v[3][i] > tp[i] || v[4][i] < tp[i] + sl[i] || v[4][i] > tl[i]) abort();
        int64_t seed = 0;
        for (int32_t j = 0; j < sl[i]; j++) {
            uint8_t a = dpa_xdrop_code(qb[qo[i] + qp[i] + j]), t;
            if (strand[i]) {
                t = dpa_xdrop_code(tb[to[i] + tl[i] - 1 - tp[i] - j]);
                if (t < 4) t = (uint8_t)(3 - t);
            } else {
                t = dpa_xdrop_code(tb[to[i] + tp[i] + j]);
            }
            seed += a == t ? p.match : p.mismatch;
        }
        if ((int64_t)v[5][i] + v[6][i] + seed != v[0][i]) abort();
    }
    return 0;
}
