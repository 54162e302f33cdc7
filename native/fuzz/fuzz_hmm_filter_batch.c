/*
 * fuzz_hmm_filter_batch.c — libFuzzer target for the hmm-filter batch path
 * (dpa_hmm_filter_validate, dpa_hmm_filter_compute on the CPU).
 *
 * The input bytes choose the parameters (F1/F2 in and out of (0, 1], NaN, flags 0/1/other,
 * backend) and up to 6 sequences over the accepted symbols plus, now and then, a rejected
 * byte, with lengths mostly 0..80 and sometimes past the limit. The profiles are two fixed
 * models (M = 1 and M = 37) written here as HMMER3/f text.
 *
 * Properties: no crash or sanitizer report; compute returns OK exactly when validation passes
 * and the backend is not GPU; a failed call writes nothing; an OK call equals the scalar
 * reference run directly, with cumulative flags.
 *
 * Build: cmake -DDPA_FUZZ=ON with clang (see .ci/run); run: fuzz_hmm_filter_batch corpus/hmm_filter_batch
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cpu/hmm/hmm_filter.h"
#include "cpu/hmm/hmm_profiles.h"
#include "dpaccel.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

typedef struct cursor { const uint8_t *p; size_t n; } cursor;
static uint8_t take8(cursor *c) { if (!c->n) return 0; c->n--; return *c->p++; }

static void put(char **s, size_t *n, size_t *cap, const char *t) {
    size_t k = strlen(t);
    if (*n + k + 1 > *cap) {
        *cap = (*n + k + 1) * 2;
        *s = realloc(*s, *cap);
        if (!*s) abort();
    }
    memcpy(*s + *n, t, k + 1);
    *n += k;
}

/* Deterministic model text: node k's emissions peak on residue k mod 20. */
static char *model_text(const char *name, int M) {
    char *s = NULL, line[512];
    size_t n = 0, cap = 0;
    snprintf(line, sizeof line, "HMMER3/f [3.4]\nNAME %s\nLENG %d\nALPH amino\nSTATS LOCAL MSV -8.5 0.71\n"
             "STATS LOCAL VITERBI -9.0 0.71\nSTATS LOCAL FORWARD -4.0 0.71\nHMM A C D E F G H I K L M N P Q R S T V W Y\n"
             " m->m m->i m->d i->m i->i d->m d->d\n COMPO", name, M);
    put(&s, &n, &cap, line);
    for (int x = 0; x < 20; x++) put(&s, &n, &cap, " 2.99573");
    put(&s, &n, &cap, "\n");
    for (int x = 0; x < 20; x++) put(&s, &n, &cap, " 2.99573");
    put(&s, &n, &cap, "\n 0.05 3.5 4.0 0.6 0.8 0.0 *\n");
    for (int k = 1; k <= M; k++) {
        snprintf(line, sizeof line, " %d", k);
        put(&s, &n, &cap, line);
        for (int x = 0; x < 20; x++) put(&s, &n, &cap, x == k % 20 ? " 0.20000" : " 4.50000");
        put(&s, &n, &cap, " - - - - -\n");
        for (int x = 0; x < 20; x++) put(&s, &n, &cap, " 2.99573");
        put(&s, &n, &cap, k < M ? "\n 0.05 3.5 4.0 0.6 0.8 0.4 1.1\n" : "\n 0.03 3.5 * 0.6 0.8 0.0 *\n");
    }
    put(&s, &n, &cap, "//\n");
    return s;
}

static const dpa_hmm_profiles *profiles(void) {
    static dpa_hmm_profiles *p; /* built once per fuzzing process */
    if (!p) {
        char *a = model_text("one", 1), *b = model_text("m37", 37);
        size_t la = strlen(a), lb = strlen(b);
        char *t = malloc(la + lb);
        if (!t) abort();
        memcpy(t, a, la);
        memcpy(t + la, b, lb);
        if (dpa_hmm_profiles_load_buffer(t, la + lb, &p) != DPA_OK) abort();
        free(a);
        free(b);
        free(t);
    }
    return p;
}

static dpa_context *context(void) {
    static dpa_context *ctx;
    if (!ctx && dpa_context_create(NULL, &ctx) != DPA_OK) abort();
    return ctx;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
    static const char ok_syms[] = "ACDEFGHIKLMNPQRSTVWYacdefghiklmnpqrstvwyBJZOUXbjzoux*~";
    static const char bad_syms[] = "-.0 9\n";
    cursor c = { data, size };
    dpa_hmm_filter_params p;
    dpa_hmm_filter_params_init(&p);
    const double th[8] = { 0.02, 1e-3, 1.0, 0.5, 0.0, -0.1, 1.5, NAN };
    uint8_t b = take8(&c);
    p.F1 = th[b & 7];
    p.F2 = th[(b >> 3) & 7];
    b = take8(&c);
    p.bias_filter = (b & 3) == 3 ? 2 : (b & 1);
    p.all_scores = ((b >> 2) & 3) == 3 ? -1 : ((b >> 2) & 1);
    p.backend = (b >> 4) % 6 - 1; /* -1..4 */
    const int ns = take8(&c) % 7;
    char buf[6 * 300];
    int64_t off[6];
    int32_t len[6];
    size_t used = 0;
    for (int i = 0; i < ns; i++) {
        uint8_t l = take8(&c);
        int L = l < 240 ? l % 81 : (l < 250 ? 200 + l : (l == 255 ? 100001 : -1));
        len[i] = L;
        off[i] = (int64_t)used;
        int real = L > 0 && L <= 290 ? L : 0;
        for (int j = 0; j < real; j++) {
            uint8_t r = take8(&c);
            buf[used + j] = r < 250 ? ok_syms[r % (sizeof ok_syms - 1)] : bad_syms[r % (sizeof bad_syms - 1)];
        }
        used += (size_t)real;
        if (L > 290) off[i] = -1; /* claimed extent would leave the buffer: validation must reject (limit) */
    }
    dpa_hmm_seq_batch batch = { ns, (const uint8_t *)buf, off, len };
    /* sequences claiming more than the buffer holds only pass validation if <= limit: avoid */
    for (int i = 0; i < ns; i++)
        if (len[i] > 290 && len[i] <= DPA_HMM_MAX_SEQ_LENGTH) len[i] = 0;
    const dpa_hmm_profiles *prof = profiles();
    const int64_t n = (int64_t)prof->count * ns;
    dpa_hmm_filter_result res[12];
    memset(res, 0x5A, sizeof res);
    dpa_status v = dpa_hmm_filter_validate(&batch, &p);
    dpa_status st = dpa_hmm_filter_compute(context(), prof, &batch, &p, res, n, NULL);
    if (v != DPA_OK || p.backend == DPA_BACKEND_GPU || p.backend > DPA_BACKEND_HYBRID) {
        if (st == DPA_OK) abort();
        for (size_t i = 0; i < sizeof res; i++)
            if (((unsigned char *)res)[i] != 0x5A) abort();
        return 0;
    }
    if (st != DPA_OK) abort();
    dpa_hmm_filter_opts o = { p.F1, p.F2, p.bias_filter, p.all_scores };
    for (int32_t mi = 0; mi < prof->count; mi++) {
        const dpa_hmm_profile *pr = &prof->prof[mi];
        void *work = malloc(dpa_hmm_work_bytes(pr->M));
        if (!work) abort();
        for (int i = 0; i < ns; i++) {
            const dpa_hmm_filter_result *r = &res[mi * ns + i];
            if (len[i] == 0) {
                if (r->computed || r->pass_msv) abort();
                continue;
            }
            uint8_t dsq[300];
            for (int j = 0; j < len[i]; j++) dsq[j] = (uint8_t)dpa_hmm_residue_code((unsigned char)buf[off[i] + j]);
            dpa_hmm_filter_out out;
            dpa_hmm_filter_one_ref(pr, dsq, len[i], &o, work, &out);
            if (memcmp(&r->msv_bits, &out.msv_bits, 4) || r->pass_msv != out.pass_msv ||
                r->pass_bias != out.pass_bias || r->pass_vit != out.pass_vit || r->computed != out.has)
                abort();
            if (r->pass_vit > r->pass_bias || r->pass_bias > r->pass_msv) abort();
        }
        free(work);
    }
    return 0;
}
