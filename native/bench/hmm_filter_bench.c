/*
 * hmm_filter_bench.c — hmm-filter speed per backend, through dpaccel.h only.
 *
 * usage: hmm_filter_bench MODELS.hmm TARGETS.fa [repeats [F1]]
 *        hmm_filter_bench --synthetic M RESIDUES [SEQ_LEN [repeats]]
 *
 * File mode: a tiny F1, e.g. 1e-300, stops every pair after MSV (the SSV/MSV stage alone).
 *
 *        hmm_filter_bench --stages MODELS.hmm TARGETS.fa [repeats]
 *
 * Stage mode, for tools/hmm/hmmer_filter_bench.c's figures on the same files: with the
 * context's best ISA (DPACCEL_CPU_DISABLE=avx512 for AVX2), one thread, the best of `repeats`
 * runs of "msv" (F1 = 1e-300: SSV/MSV, null score and P-value of every pair), "pipeline"
 * (hmmsearch's defaults) and "msv+vit" (--nobias --all-scores: MSV and the Viterbi filter on
 * every pair); "vit" is cells / (t(msv+vit) - t(msv)). Cells = sum of M x L over all pairs
 * for every stage, as the harness counts them.
 * For scalar, AVX2 and AVX-512 (those this CPU has), one context with one thread runs
 * dpa_hmm_filter_compute over every (model, sequence) pair `repeats` times (default 3; the
 * scalar reference once) and prints the best time, the cells (sum of M x L) per second, and
 * the pass counts; then, when
 * a GPU is usable (DPACCEL_CUDA_LIB names libdpaccel_cuda.so for a static build), the same
 * with backend GPU. Every backend's results must equal the scalar kernel's byte for byte
 * (exit 1 otherwise).
 *
 * Synthetic mode, the GPU goal (one model against many residues): one seeded random
 * model of M nodes, RESIDUES residues of uniform random protein in sequences of SEQ_LEN
 * (default 350). Three runs per backend (the CPU with all cores at its best ISA, then the GPU
 * when usable): "msv" (F1 = 1e-300: every pair stops after MSV), "msv+vit" (--nobias
 * --all-scores: MSV and the Viterbi filter on every pair, no bias filter), "default"
 * (hmmsearch's thresholds). Prints G cells/s for each and the Viterbi filter's own rate,
 * cells / (t(msv+vit) - t(msv)); the GPU's results must equal the CPU's byte for byte.
 */
#include <math.h>
#include <stdint.h>
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

static void log_stderr(void *user, dpa_log_level level, const char *message)
{
    (void)user, (void)level;
    fprintf(stderr, "[%.3f] %s\n", now(), message);
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

/* One random protein model in HMMER3/f text: emission and transition distributions with a
 * random peak, plausible STATS (the P-values only need to be finite). */
static uint64_t rng_state = 0x9e3779b97f4a7c15ull;
static double urand(void) {
    rng_state ^= rng_state << 13;
    rng_state ^= rng_state >> 7;
    rng_state ^= rng_state << 17;
    return (double)(rng_state >> 11) / 9007199254740992.0;
}
static void put_dist(char **p, int n, double peak) {
    double v[20], sum = 0;
    for (int i = 0; i < n; i++) sum += (v[i] = 0.01 + urand());
    v[(int)(urand() * n) % n] += peak * sum;
    sum = 0;
    for (int i = 0; i < n; i++) sum += v[i];
    for (int i = 0; i < n; i++) *p += sprintf(*p, " %.5f", -log(v[i] / sum));
}
static void put_trans(char **p, int k, int M) {
    double mm[3], im[2], dm[2], s = 0;
    for (int i = 0; i < 3; i++) s += (mm[i] = 0.01 + urand() + (i == 0 ? 4.0 : 0.0));
    for (int i = 0; i < 3; i++) mm[i] /= s;
    s = 0;
    for (int i = 0; i < 2; i++) s += (im[i] = 0.05 + urand());
    for (int i = 0; i < 2; i++) im[i] /= s;
    s = 0;
    for (int i = 0; i < 2; i++) s += (dm[i] = 0.05 + urand());
    for (int i = 0; i < 2; i++) dm[i] /= s;
    if (k == M) { mm[0] += mm[2]; mm[2] = 0; }
    if (k == 0 || k == M) { dm[0] = 1; dm[1] = 0; }
    const double all[7] = { mm[0], mm[1], mm[2], im[0], im[1], dm[0], dm[1] };
    *p += sprintf(*p, "  ");
    for (int i = 0; i < 7; i++) *p += all[i] > 0 ? sprintf(*p, " %.5f", -log(all[i])) : sprintf(*p, " *");
    *p += sprintf(*p, "\n");
}
static char *synthetic_model(int M) {
    char *t = malloc((size_t)M * 640 + 4096), *p = t;
    if (!t) return NULL;
    p += sprintf(p, "HMMER3/f [3.4 | Aug 2023]\nNAME  synthetic\nLENG  %d\nALPH  amino\n"
                    "STATS LOCAL MSV      -9.0000 0.70000\nSTATS LOCAL VITERBI  -9.3000 0.70000\n"
                    "STATS LOCAL FORWARD  -4.0 0.7\nHMM  A C D E F G H I K L M N P Q R S T V W Y\n"
                    "  m->m m->i m->d i->m i->i d->m d->d\n  COMPO", M);
    put_dist(&p, 20, 0.5);
    p += sprintf(p, "\n  ");
    put_dist(&p, 20, 0.0);
    p += sprintf(p, "\n");
    put_trans(&p, 0, M);
    for (int k = 1; k <= M; k++) {
        p += sprintf(p, "  %d", k);
        put_dist(&p, 20, (double)((int)(urand() * 4)) * 1.5);
        p += sprintf(p, " %d a - - -\n  ", k);
        put_dist(&p, 20, 0.0);
        p += sprintf(p, "\n");
        put_trans(&p, k, M);
    }
    sprintf(p, "//\n");
    return t;
}

static int run_synthetic(int argc, char **argv) {
    if (argc < 4) {
        fprintf(stderr, "usage: %s --synthetic M RESIDUES [SEQ_LEN [repeats]]\n", argv[0]);
        return 2;
    }
    const int M = atoi(argv[2]);
    const int64_t total = atoll(argv[3]);
    const int seqlen = argc > 4 ? atoi(argv[4]) : 350;
    const int reps = argc > 5 ? atoi(argv[5]) : 3;
    if (M < 1 || total < 1 || seqlen < 1 || seqlen > 100000 || reps < 1 || total / seqlen > INT32_MAX) {
        fprintf(stderr, "bad arguments\n");
        return 2;
    }
    char *text = synthetic_model(M);
    dpa_hmm_profiles *prof = NULL;
    if (!text || dpa_hmm_profiles_load_buffer(text, strlen(text), &prof) != DPA_OK) {
        fprintf(stderr, "model: %s\n", dpa_last_error());
        return 1;
    }
    free(text);
    const int32_t n = (int32_t)((total + seqlen - 1) / seqlen);
    char *res = malloc((size_t)n * (size_t)seqlen);
    int64_t *off = malloc(sizeof *off * (size_t)n);
    int32_t *len = malloc(sizeof *len * (size_t)n);
    dpa_hmm_filter_result *a = calloc((size_t)n, sizeof *a), *g = calloc((size_t)n, sizeof *g);
    if (!res || !off || !len || !a || !g) {
        fprintf(stderr, "out of memory for %d sequences\n", n);
        return 1;
    }
    static const char aa[] = "ACDEFGHIKLMNPQRSTVWY";
    for (int64_t i = 0; i < (int64_t)n * seqlen; i++) res[i] = aa[(int)(urand() * 20) % 20];
    for (int32_t i = 0; i < n; i++) {
        off[i] = (int64_t)i * seqlen;
        len[i] = seqlen;
    }
    dpa_hmm_seq_batch b = { n, (const uint8_t *)res, off, len };
    printf("synthetic: M %d, %d sequences of %d = %lld residues, %.3g cells per pass\n", M, n, seqlen,
           (long long)n * seqlen, (double)n * seqlen * M);
    dpa_context *ctx = NULL;
    /* DPACCEL_TIMING=1: the engine's phase times on stderr */
    dpa_options o;
    dpa_options_init(&o);
    const char *tv = getenv("DPACCEL_TIMING"), *cv = getenv("DPACCEL_CUDA_TIMING");
    if ((tv && *tv && *tv != '0') || (cv && *cv && *cv != '0')) o.log_fn = log_stderr;
    if (dpa_context_create(&o, &ctx) != DPA_OK) {
        fprintf(stderr, "%s\n", dpa_last_error());
        return 1;
    }
    int32_t devices = 0, threads = 0;
    dpa_context_device_count(ctx, &devices);
    dpa_context_threads(ctx, &threads);
    dpa_isa isa;
    dpa_context_isa(ctx, &isa);
    if (devices == 0) printf("no usable GPU (set DPACCEL_CUDA_LIB to libdpaccel_cuda.so): CPU only\n");
    int bad = 0;
    const char *mode_name[3] = { "msv", "msv+vit", "default" };
    for (int be = 0; be < (devices > 0 ? 2 : 1); be++) {
        double t_mode[3] = { 0, 0, 0 };
        for (int mode = 0; mode < 3; mode++) {
            dpa_hmm_filter_params par;
            dpa_hmm_filter_params_init(&par);
            if (mode == 0) par.F1 = 1e-300;
            if (mode == 1) { par.bias_filter = 0; par.all_scores = 1; }
            par.backend = be ? DPA_BACKEND_GPU : DPA_BACKEND_CPU;
            dpa_hmm_filter_stats st;
            double best = 1e30;
            for (int r = 0; r < reps; r++) {
                double t0 = now();
                if (dpa_hmm_filter_compute(ctx, prof, &b, &par, be ? g : a, n, &st) != DPA_OK) {
                    fprintf(stderr, "%s %s: %s\n", be ? "GPU" : "CPU", mode_name[mode], dpa_last_error());
                    return 1;
                }
                double t = now() - t0;
                if (t < best) best = t;
            }
            t_mode[mode] = best;
            if (be) {
                /* the GPU against the CPU run of the same mode (recomputed: a and g alternate) */
                par.backend = DPA_BACKEND_CPU;
                if (dpa_hmm_filter_compute(ctx, prof, &b, &par, a, n, NULL) != DPA_OK) return 1;
                if (memcmp(a, g, sizeof *a * (size_t)n) != 0) {
                    fprintf(stderr, "GPU %s results differ from the CPU's\n", mode_name[mode]);
                    bad = 1;
                }
            }
            printf("%-4s %-7s %-8s: %.3f s, %.1f G cells/s, GPU pairs %lld, passed MSV %lld bias %lld Viterbi %lld\n",
                   be ? "GPU" : "CPU", be ? "" : dpa_isa_name(isa), mode_name[mode], best,
                   (double)st.cells / best / 1e9, (long long)st.gpu_pairs, (long long)st.passed_msv,
                   (long long)st.passed_bias, (long long)st.passed_vit);
        }
        const double cells = (double)n * seqlen * M;
        if (t_mode[1] > t_mode[0])
            printf("%-4s Viterbi filter alone (cells / (t(msv+vit) - t(msv))): %.1f G cells/s%s\n", be ? "GPU" : "CPU",
                   cells / (t_mode[1] - t_mode[0]) / 1e9, be ? "" : "");
        if (!be) printf("CPU: %d threads\n", threads);
    }
    dpa_context_destroy(ctx);
    dpa_hmm_profiles_free(prof);
    free(res);
    free(off);
    free(len);
    free(a);
    free(g);
    return bad;
}

static int run_stages(int argc, char **argv) {
    if (argc < 4) {
        fprintf(stderr, "usage: %s --stages MODELS.hmm TARGETS.fa [repeats]\n", argv[0]);
        return 2;
    }
    const int reps = argc > 4 ? atoi(argv[4]) : 3;
    dpa_hmm_profiles *prof = NULL;
    if (dpa_hmm_profiles_load_file(argv[2], &prof) != DPA_OK) {
        fprintf(stderr, "%s\n", dpa_last_error());
        return 1;
    }
    seqs s;
    if (read_fasta(argv[3], &s) != 0) return 1;
    dpa_hmm_seq_batch b = { s.n, (const uint8_t *)s.res, s.off, s.len };
    const int64_t n = (int64_t)dpa_hmm_profiles_count(prof) * s.n;
    dpa_hmm_filter_result *res = calloc((size_t)n, sizeof *res);
    dpa_options o;
    dpa_options_init(&o);
    o.num_threads = 1;
    o.gpu_disable = 1;
    dpa_context *ctx = NULL;
    if (!res || dpa_context_create(&o, &ctx) != DPA_OK) return 1;
    dpa_isa isa;
    dpa_context_isa(ctx, &isa);
    static const char *const name[3] = { "msv", "pipeline", "msv+vit" };
    double t[3];
    int64_t cells = 0;
    for (int mode = 0; mode < 3; mode++) {
        dpa_hmm_filter_params par;
        dpa_hmm_filter_params_init(&par);
        if (mode == 0) par.F1 = 1e-300;
        if (mode == 2) { par.bias_filter = 0; par.all_scores = 1; }
        dpa_hmm_filter_stats st;
        t[mode] = 1e30;
        for (int r = 0; r < reps; r++) {
            double t0 = now();
            if (dpa_hmm_filter_compute(ctx, prof, &b, &par, res, n, &st) != DPA_OK) {
                fprintf(stderr, "%s\n", dpa_last_error());
                return 1;
            }
            double dt = now() - t0;
            if (dt < t[mode]) t[mode] = dt;
        }
        cells = st.cells;
        printf("%-7s %-8s: %.4f s, %.2f G cells/s, %.1f ns/pair, passed MSV %lld bias %lld Viterbi %lld\n",
               dpa_isa_name(isa), name[mode], t[mode], (double)cells / t[mode] / 1e9, t[mode] / (double)n * 1e9,
               (long long)st.passed_msv, (long long)st.passed_bias, (long long)st.passed_vit);
    }
    if (t[2] > t[0])
        printf("%-7s %-8s: %.4f s, %.2f G cells/s (t(msv+vit) - t(msv))\n", dpa_isa_name(isa), "vit", t[2] - t[0],
               (double)cells / (t[2] - t[0]) / 1e9);
    dpa_context_destroy(ctx);
    dpa_hmm_profiles_free(prof);
    free(res);
    free(s.res);
    free(s.off);
    free(s.len);
    return 0;
}

int main(int argc, char **argv) {
    if (argc > 1 && strcmp(argv[1], "--synthetic") == 0) return run_synthetic(argc, argv);
    if (argc > 1 && strcmp(argv[1], "--stages") == 0) return run_stages(argc, argv);
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
        /* scalar once: it is the reference for the byte comparison, and repeating a run
         * 100x slower would make a repeated SIMD comparison cost minutes */
        for (int r = 0; r < (k ? reps : 1); r++) {
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
    {
        /* the GPU, when one is usable, against the scalar results */
        dpa_context *ctx = NULL;
        int32_t devices = 0;
        if (dpa_context_create(NULL, &ctx) != DPA_OK) return 1;
        dpa_context_device_count(ctx, &devices);
        if (devices == 0) {
            printf("GPU     : none usable (set DPACCEL_CUDA_LIB to libdpaccel_cuda.so for a static build)\n");
        } else {
            dpa_hmm_filter_stats st;
            double best = 1e30;
            par.backend = DPA_BACKEND_GPU;
            for (int r = 0; r < reps; r++) {
                double t0 = now();
                if (dpa_hmm_filter_compute(ctx, prof, &b, &par, res, n, &st) != DPA_OK) {
                    fprintf(stderr, "GPU: %s\n", dpa_last_error());
                    return 1;
                }
                double t = now() - t0;
                if (t < best) best = t;
            }
            if (memcmp(ref, res, sizeof *res * (size_t)n) != 0) {
                fprintf(stderr, "GPU results differ from scalar\n");
                bad = 1;
            }
            printf("GPU     %d device(s): %.3f s, %.2f G cells/s, GPU pairs %lld, passed MSV %lld bias %lld Viterbi %lld\n",
                   devices, best, (double)st.cells / best / 1e9, (long long)st.gpu_pairs, (long long)st.passed_msv,
                   (long long)st.passed_bias, (long long)st.passed_vit);
        }
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
