/*
 * hmm_filter_bench.c — one-thread hmm-filter speed per CPU kernel, through dpaccel.h only.
 *
 * usage: hmm_filter_bench MODELS.hmm TARGETS.fa [repeats [F1]]
 * (a tiny F1, e.g. 1e-300, stops every pair after MSV: the SSV/MSV stage alone)
 * For scalar, AVX2 and AVX-512 (those this CPU has), one context with one thread runs
 * dpa_hmm_filter_compute over every (model, sequence) pair `repeats` times (default 3) and
 * prints the best time, the cells (sum of M x L) per second, and the pass counts; every
 * kernel's results must equal the scalar kernel's byte for byte (exit 1 otherwise).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "dpaccel.h"

static double now(void) {
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec + 1e-9 * (double)t.tv_nsec;
}

typedef struct seqs { char *res; int64_t *off; int32_t *len; int32_t n, cap; size_t used, rcap; } seqs;

static int read_fasta(const char *path, seqs *s) {
    FILE *f = fopen(path, "r");
    if (!f) { perror(path); return -1; }
    char line[65536];
    memset(s, 0, sizeof *s);
    while (fgets(line, sizeof line, f)) {
        size_t l = strcspn(line, "\r\n");
        if (line[0] == '>') {
            if (s->n == s->cap) {
                s->cap = s->cap ? 2 * s->cap : 256;
                s->off = realloc(s->off, sizeof *s->off * (size_t)s->cap);
                s->len = realloc(s->len, sizeof *s->len * (size_t)s->cap);
                if (!s->off || !s->len) return -1;
            }
            s->off[s->n] = (int64_t)s->used;
            s->len[s->n++] = 0;
            continue;
        }
        if (!s->n) continue;
        if (s->used + l > s->rcap) {
            s->rcap = (s->used + l) * 2 + 4096;
            if (!(s->res = realloc(s->res, s->rcap))) return -1;
        }
        memcpy(s->res + s->used, line, l);
        s->used += l;
        s->len[s->n - 1] += (int32_t)l;
    }
    fclose(f);
    return 0;
}

int main(int argc, char **argv) {
    if (argc < 3) {
        fprintf(stderr, "usage: %s MODELS.hmm TARGETS.fa [repeats [F1]]\n", argv[0]);
        return 2;
    }
    int reps = argc > 3 ? atoi(argv[3]) : 3;
    dpa_hmm_filter_params par;
    dpa_hmm_filter_params_init(&par);
    if (argc > 4) par.F1 = atof(argv[4]);
    dpa_hmm_profiles *prof = NULL;
    if (dpa_hmm_profiles_load_file(argv[1], &prof) != DPA_OK) {
        fprintf(stderr, "%s\n", dpa_last_error());
        return 1;
    }
    seqs s;
    if (read_fasta(argv[2], &s) != 0) return 1;
    dpa_hmm_seq_batch b = { s.n, (const uint8_t *)s.res, s.off, s.len };
    const int64_t n = (int64_t)dpa_hmm_profiles_count(prof) * s.n;
    dpa_hmm_filter_result *ref = calloc((size_t)n, sizeof *ref), *res = calloc((size_t)n, sizeof *res);
    if (!ref || !res) return 1;
    static const char *const disable[3] = { "avx512,avx2", "avx512", "" };
    int bad = 0;
    printf("models %d, sequences %d, pairs %lld\n", dpa_hmm_profiles_count(prof), s.n, (long long)n);
    for (int k = 0; k < 3; k++) {
        dpa_options o;
        dpa_options_init(&o);
        o.num_threads = 1;
        o.cpu_disable = disable[k];
        o.gpu_disable = 1;
        dpa_context *ctx = NULL;
        if (dpa_context_create(&o, &ctx) != DPA_OK) return 1;
        dpa_isa isa;
        dpa_context_isa(ctx, &isa);
        if ((int)isa != k) { dpa_context_destroy(ctx); continue; } /* CPU lacks it */
        dpa_hmm_filter_stats st;
        double best = 1e30;
        for (int r = 0; r < reps; r++) {
            double t0 = now();
            if (dpa_hmm_filter_compute(ctx, prof, &b, &par, k ? res : ref, n, &st) != DPA_OK) {
                fprintf(stderr, "%s\n", dpa_last_error());
                return 1;
            }
            double t = now() - t0;
            if (t < best) best = t;
        }
        if (k && memcmp(ref, res, sizeof *res * (size_t)n) != 0) {
            fprintf(stderr, "%s results differ from scalar\n", dpa_isa_name(isa));
            bad = 1;
        }
        printf("%-7s 1 thread: %.3f s, %.2f G cells/s, passed MSV %lld bias %lld Viterbi %lld\n", dpa_isa_name(isa),
               best, (double)st.cells / best / 1e9, (long long)st.passed_msv, (long long)st.passed_bias,
               (long long)st.passed_vit);
        dpa_context_destroy(ctx);
    }
    free(ref);
    free(res);
    free(s.res);
    free(s.off);
    free(s.len);
    dpa_hmm_profiles_free(prof);
    return bad;
}
