/*
 * fuzz_pairhmm_in.c — libFuzzer target for the ".in" reader (src/io/pairhmm_in.c).
 *
 * The input bytes are the file text, as is. Properties: no crash or sanitizer report; a
 * rejected text gets a non-OK status, a message, and an empty result; an accepted text
 * (1) passes dpa_pairhmm_validate, (2) writes back to text that parses to the very same
 * arrays (so the reader neither drops nor invents bytes), and (3) when small, computes on
 * the CPU to log10 values <= 0.
 *
 * Build: cmake -DDPA_FUZZ=ON with clang (see .ci/run); run: fuzz_pairhmm_in corpus/pairhmm_in
 */
#include <stdlib.h>
#include <string.h>

#include "dpaccel.h"
#include "io/pairhmm_in.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

typedef struct text { char *p; size_t n, cap; } text;

static void put(text *t, const void *src, size_t n)
{
    if (t->n + n > t->cap) {
        t->cap = (t->n + n) * 2 + 256;
        t->p = realloc(t->p, t->cap);
        if (!t->p) abort();
    }
    memcpy(t->p + t->n, src, n);
    t->n += n;
}

static void put_count(text *t, int32_t v)
{
    char digits[16];
    int k = 0;
    do digits[15 - k++] = (char)('0' + v % 10); while ((v /= 10) > 0);
    put(t, digits + 16 - k, (size_t)k);
}

/* The canonical text of a parsed batch: single spaces, "\n", no comments. */
static text write_back(const dpa_in_data *d)
{
    const dpa_pairhmm_batch *b = &d->batch;
    const uint8_t *q[4] = { b->base_quals, b->ins_quals, b->del_quals, b->gcp_quals };
    text t = { NULL, 0, 0 };
    int32_t r0 = 0, h0 = 0;
    for (int32_t g = 0; g < b->num_groups; g++) {
        put_count(&t, b->group_num_reads[g]);
        put(&t, " ", 1);
        put_count(&t, b->group_num_haps[g]);
        put(&t, "\n", 1);
        for (int32_t r = r0; r < r0 + b->group_num_reads[g]; r++) {
            const int64_t off = b->read_offsets[r];
            const int32_t len = b->read_lengths[r];
            put(&t, b->read_bases + off, (size_t)len);
            for (int k = 0; k < 4; k++) {
                put(&t, " ", 1);
                for (int32_t i = 0; i < len; i++) {
                    const char c = (char)(q[k][off + i] + 33);
                    put(&t, &c, 1);
                }
            }
            put(&t, "\n", 1);
        }
        for (int32_t h = h0; h < h0 + b->group_num_haps[g]; h++) {
            put(&t, b->hap_bases + b->hap_offsets[h], (size_t)b->hap_lengths[h]);
            put(&t, "\n", 1);
        }
        r0 += b->group_num_reads[g];
        h0 += b->group_num_haps[g];
    }
    return t;
}

static int eq(const void *a, const void *b, size_t n) { return n == 0 || !memcmp(a, b, n); }

static int same(const dpa_in_data *a, const dpa_in_data *b)
{
    const dpa_pairhmm_batch *x = &a->batch, *y = &b->batch;
    if (x->num_reads != y->num_reads || x->num_haps != y->num_haps ||
        x->num_groups != y->num_groups || a->read_bytes != b->read_bytes ||
        a->hap_bytes != b->hap_bytes)
        return 0;
    const size_t nr = (size_t)x->num_reads, nh = (size_t)x->num_haps, ng = (size_t)x->num_groups;
    const size_t rb = (size_t)a->read_bytes, hb = (size_t)a->hap_bytes;
    return eq(a->read_bases, b->read_bases, rb) && eq(a->base_quals, b->base_quals, rb) &&
           eq(a->ins_quals, b->ins_quals, rb) && eq(a->del_quals, b->del_quals, rb) &&
           eq(a->gcp_quals, b->gcp_quals, rb) && eq(a->hap_bases, b->hap_bases, hb) &&
           eq(a->read_offsets, b->read_offsets, nr * 8) &&
           eq(a->read_lengths, b->read_lengths, nr * 4) &&
           eq(a->hap_offsets, b->hap_offsets, nh * 8) && eq(a->hap_lengths, b->hap_lengths, nh * 4) &&
           eq(a->group_num_reads, b->group_num_reads, ng * 4) &&
           eq(a->group_num_haps, b->group_num_haps, ng * 4);
}

static dpa_context *context(void)
{
    static dpa_context *ctx; /* one per fuzzing process: creation is not what is fuzzed */
    if (!ctx) {
        dpa_options o;
        dpa_options_init(&o);
        o.num_threads = 1;
        o.backend = DPA_BACKEND_CPU;
        if (dpa_context_create(&o, &ctx) != DPA_OK) abort();
    }
    return ctx;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    dpa_in_data d;
    if (dpa_in_parse((const char *)data, size, &d) != DPA_OK) {
        if (dpa_last_error()[0] == '\0') abort(); /* every error explains itself */
        if (d.read_bases || d.hap_bases || d.batch.num_groups) abort(); /* nothing left over */
        return 0;
    }
    if (dpa_pairhmm_validate(&d.batch) != DPA_OK) abort(); /* parsed => valid */
    text t = write_back(&d);
    dpa_in_data again;
    if (dpa_in_parse(t.p, t.n, &again) != DPA_OK || !same(&d, &again)) abort();
    dpa_in_free(&again);
    free(t.p);

    int64_t n = 0, cells = 0;
    dpa_pairhmm_result_count(&d.batch, &n);
    for (int32_t r = 0; r < d.batch.num_reads; r++) cells += d.batch.read_lengths[r];
    for (int32_t h = 0; h < d.batch.num_haps; h++) cells += d.batch.hap_lengths[h];
    if (n > 0 && n <= 64 && cells <= 2048) {
        double out[64];
        if (dpa_pairhmm_compute(context(), &d.batch, NULL, out, 64, NULL) != DPA_OK) abort();
        for (int64_t i = 0; i < n; i++)
            if (out[i] > 1e-9) abort(); /* a log10 probability is never positive */
    }
    dpa_in_free(&d);
    return 0;
}
