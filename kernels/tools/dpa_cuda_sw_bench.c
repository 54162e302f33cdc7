/*
 * dpa_cuda_sw_bench.c — Smith-Waterman throughput through the public API (dpa_sw_compute),
 * GPU backend against the CPU backend on the same machine, in one run: wall time of the
 * whole call (validation, packing, copies, kernel, traceback, CIGARs back), median of reps,
 * cells = sum of ref_len * alt_len, TCUPS = cells / median. The GPU's CIGARs and offsets
 * are compared byte for byte with the CPU's.
 *
 * Usage: dpa_cuda_sw_bench [hap|read] [pairs] [reps] [cpu_reps]
 *   hap:  haplotype to reference, 300-1000 bp + 10 N padding each side, SNPs and indels,
 *         (200, -150, -260, -11), INDEL (HaplotypeCaller's shape; default 100000 pairs)
 *   read: 150 bp reads (errors, overhangs) to 300 bp haplotypes, (10, -15, -30, -5),
 *         SOFTCLIP (default 1000000 pairs)
 * Threads: DPACCEL_THREADS (default: all cores). The CUDA library is found next to this
 * binary or through DPACCEL_CUDA_LIB. Also timed: the backend alone (ops->sw with every pair
 * in one call, one stream, pairs sorted by cells beforehand, no engine), to show what the
 * engine's concurrency and host work add or hide.
 */
#define _GNU_SOURCE
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <dlfcn.h>
#include <unistd.h>

#include "dpa_cuda_backend.h"
#include "dpaccel.h"

static uint64_t rng_state = 88172645463325252ull;
static uint64_t rnd(void)
{
    rng_state ^= rng_state << 13;
    rng_state ^= rng_state >> 7;
    rng_state ^= rng_state << 17;
    return rng_state;
}

static double now(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec + 1e-9 * (double)t.tv_nsec;
}

typedef struct buf { uint8_t *p; int64_t len, cap; } buf;

static void put(buf *b, const uint8_t *s, int64_t n)
{
    if (b->len + n > b->cap) {
        b->cap = (b->len + n) * 2;
        b->p = realloc(b->p, (size_t)b->cap);
        if (!b->p) { fprintf(stderr, "out of memory\n"); exit(2); }
    }
    memcpy(b->p + b->len, s, (size_t)n);
    b->len += n;
}

static void random_bases(uint8_t *s, int n)
{
    for (int i = 0; i < n; i++) s[i] = (uint8_t)"ACGT"[rnd() & 3];
}

/* Reference with short tandem repeats and duplicated segments (as the tests draw it). */
static void repetitive(uint8_t *s, int len)
{
    int n = 0;
    while (n < len) {
        const int kind = (int)(rnd() % 4);
        if (kind == 0) {
            uint8_t unit[4];
            const int u = 1 + (int)(rnd() % 4);
            random_bases(unit, u);
            for (int r = 2 + (int)(rnd() % 10); r > 0 && n < len; r--)
                for (int k = 0; k < u && n < len; k++) s[n++] = unit[k];
        } else if (kind == 1 && n > 40) {
            const int from = (int)(rnd() % (uint64_t)(n - 30));
            for (int k = 0; k < 30 && n < len; k++) s[n++] = s[from + k];
        } else {
            const int k = 10 + (int)(rnd() % 40);
            for (int x = 0; x < k && n < len; x++) s[n++] = (uint8_t)"ACGT"[rnd() & 3];
        }
    }
}

/* SNPs and indels (up to max_indel) into dst (room for len + indels * max_indel). */
static int mutate(const uint8_t *src, int len, uint8_t *dst, int snps, int indels, int max_indel)
{
    memcpy(dst, src, (size_t)len);
    int n = len;
    for (int k = 0; k < snps; k++) dst[rnd() % (uint64_t)n] = (uint8_t)"ACGT"[rnd() & 3];
    for (int k = 0; k < indels && n > 2; k++) {
        const int pos = (int)(rnd() % (uint64_t)n), l = 1 + (int)(rnd() % (uint64_t)max_indel);
        if (rnd() & 1) {
            memmove(dst + pos + l, dst + pos, (size_t)(n - pos));
            random_bases(dst + pos, l);
            n += l;
        } else {
            const int e = pos + l > n ? n - pos : l;
            memmove(dst + pos, dst + pos + e, (size_t)(n - pos - e));
            n -= e;
            if (n == 0) dst[n++] = 'A';
        }
    }
    return n;
}

typedef struct data {
    buf refs, alts;
    int64_t *ro, *ao;
    int32_t *rl, *al;
    int32_t n;
    int64_t cells;
} data;

static void add(data *d, int32_t i, const uint8_t *r, int rn, const uint8_t *a, int an)
{
    d->ro[i] = d->refs.len;
    d->ao[i] = d->alts.len;
    put(&d->refs, r, rn);
    put(&d->alts, a, an);
    d->rl[i] = rn;
    d->al[i] = an;
    d->cells += (int64_t)rn * an;
}

static void generate(data *d, int hap, int32_t n)
{
    memset(d, 0, sizeof *d);
    d->n = n;
    d->ro = malloc(sizeof *d->ro * (size_t)n);
    d->ao = malloc(sizeof *d->ao * (size_t)n);
    d->rl = malloc(sizeof *d->rl * (size_t)n);
    d->al = malloc(sizeof *d->al * (size_t)n);
    uint8_t ref[1100], alt[1400], tmp[1400];
    for (int32_t i = 0; i < n; i++) {
        if (hap) {
            const int len = 300 + (int)(rnd() % 701);
            memset(ref, 'N', 10);
            repetitive(ref + 10, len);
            memset(ref + 10 + len, 'N', 10);
            memset(alt, 'N', 10);
            const int an = mutate(ref + 10, len, alt + 10, (int)(rnd() % 8), (int)(rnd() % 4), 60);
            memset(alt + 10 + an, 'N', 10);
            add(d, i, ref, len + 20, alt, an + 20);
        } else {
            repetitive(ref, 300);
            const int start = (int)(rnd() % 200) - 20;
            for (int x = start; x < start + 150; x++)
                tmp[x - start] = x >= 0 && x < 300 ? ref[x] : (uint8_t)"ACGT"[rnd() & 3];
            const int an = mutate(tmp, 150, alt, (int)(rnd() % 6), (int)(rnd() % 3), 8);
            add(d, i, ref, 300, alt, an);
        }
    }
}

typedef struct result {
    char *cigars;
    int64_t *starts;
    int32_t *lens, *offs;
    dpa_sw_stats st;
} result;

static double run(dpa_context *ctx, const data *d, const dpa_sw_params *p, result *r)
{
    dpa_sw_batch b = { d->n, d->refs.p, d->ro, d->rl, d->alts.p, d->ao, d->al };
    int64_t cap = 0;
    dpa_sw_cigar_capacity(&b, &cap);
    dpa_sw_output o = { r->cigars, cap, r->starts, r->lens, r->offs };
    const double t0 = now();
    dpa_status st = dpa_sw_compute(ctx, &b, p, &o, &r->st);
    const double t = now() - t0;
    if (st != DPA_OK) {
        fprintf(stderr, "dpa_sw_compute: %s: %s\n", dpa_status_name(st), dpa_last_error());
        exit(1);
    }
    return t;
}

static int cmp_d(const void *a, const void *b)
{
    const double x = *(const double *)a, y = *(const double *)b;
    return x < y ? -1 : x > y;
}

static double median(double *v, int n)
{
    qsort(v, (size_t)n, sizeof *v, cmp_d);
    return n % 2 ? v[n / 2] : 0.5 * (v[n / 2 - 1] + v[n / 2]);
}

static void alloc_result(result *r, const data *d)
{
    dpa_sw_batch b = { d->n, d->refs.p, d->ro, d->rl, d->alts.p, d->ao, d->al };
    int64_t cap = 0;
    dpa_sw_cigar_capacity(&b, &cap);
    r->cigars = malloc((size_t)cap);
    r->starts = malloc(sizeof *r->starts * (size_t)d->n);
    r->lens = malloc(sizeof *r->lens * (size_t)d->n);
    r->offs = malloc(sizeof *r->offs * (size_t)d->n);
    if (!r->cigars || !r->starts || !r->lens || !r->offs) {
        fprintf(stderr, "out of memory\n");
        exit(2);
    }
}

static const data *sort_data;
static int cmp_cells(const void *a, const void *b)
{
    const int32_t x = *(const int32_t *)a, y = *(const int32_t *)b;
    const int64_t cx = (int64_t)sort_data->rl[x] * sort_data->al[x];
    const int64_t cy = (int64_t)sort_data->rl[y] * sort_data->al[y];
    return cx != cy ? (cx > cy ? -1 : 1) : (x > y) - (x < y);
}

/* DPACCEL_CUDA_TIMING / DPACCEL_TIMING lines arrive on the log callback: print them. */
static void log_stderr(void *user, dpa_log_level level, const char *msg)
{
    (void)user;
    if (level == DPA_LOG_DEBUG || level >= DPA_LOG_WARN) fprintf(stderr, "%s\n", msg);
}
static const dpa_cuda_host stderr_host = { log_stderr, NULL };

/* ops->sw alone: median of reps, or a negative value when the library cannot be used. */
static double backend_only(const data *d, const dpa_sw_params *p, int reps)
{
    char path[4096];
    const char *env = getenv("DPACCEL_CUDA_LIB");
    if (env && *env) {
        snprintf(path, sizeof path, "%s", env);
    } else {
        ssize_t l = readlink("/proc/self/exe", path, sizeof path - 32);
        if (l <= 0) return -1;
        path[l] = 0;
        char *slash = strrchr(path, '/');
        snprintf(slash ? slash + 1 : path, 32, "libdpaccel_cuda.so");
    }
    void *dl = dlopen(path, RTLD_NOW | RTLD_LOCAL);
    dpa_cuda_get_ops_fn get = dl ? (dpa_cuda_get_ops_fn)dlsym(dl, DPA_CUDA_GET_OPS_SYMBOL) : NULL;
    const dpa_cuda_ops *ops = get ? get() : NULL;
    if (!ops || ops->abi_version != DPA_CUDA_ABI_VERSION) return -1;
    dpa_cuda_backend *be = NULL;
    char err[512] = "";
    if (ops->open(1, &stderr_host, &be, err, sizeof err) != DPA_OK) return -1;
    int32_t *order = malloc(sizeof *order * (size_t)d->n);
    int64_t *slots = malloc(sizeof *slots * (size_t)d->n), cap = 0, exact = 0;
    int32_t *lens = malloc(sizeof *lens * (size_t)d->n), *offs = malloc(sizeof *offs * (size_t)d->n);
    for (int32_t i = 0; i < d->n; i++) {
        order[i] = i;
        slots[i] = cap;
        cap += 2 * ((int64_t)d->rl[i] + d->al[i]);
    }
    sort_data = d;
    qsort(order, (size_t)d->n, sizeof *order, cmp_cells);
    char *cig = malloc((size_t)cap);
    dpa_sw_batch b = { d->n, d->refs.p, d->ro, d->rl, d->alts.p, d->ao, d->al };
    double t[64], m = -1;
    int ok = 1;
    for (int r = 0; r <= reps && r < 64 && ok; r++) { /* r = 0 warms the pool */
        const double t0 = now();
        ok = dpa_cuda_sw_of(ops)->run(be, 0, &b, p, order, d->n, cig, slots, lens, offs, &exact, err, sizeof err) == DPA_OK;
        t[r] = now() - t0;
    }
    if (ok && reps > 0) m = median(t + 1, reps < 63 ? reps : 63);
    if (!ok) fprintf(stderr, "backend: %s\n", err);
    ops->close(be);
    free(order);
    free(slots);
    free(lens);
    free(offs);
    free(cig);
    return m;
}

int main(int argc, char **argv)
{
    const int hap = argc < 2 || strcmp(argv[1], "read") != 0;
    const int32_t n = argc > 2 ? atoi(argv[2]) : hap ? 100000 : 1000000;
    const int reps = argc > 3 ? atoi(argv[3]) : 5;
    const int cpu_reps = argc > 4 ? atoi(argv[4]) : 3;
    data d;
    double t0 = now();
    generate(&d, hap, n);
    printf("shape %s: %d pairs, %.3f G cells, generated in %.1f s\n",
           hap ? "hap-to-ref 300-1000 bp + 10 N pads, 200/-150/-260/-11 INDEL"
               : "read 150 bp to hap 300 bp, 10/-15/-30/-5 SOFTCLIP",
           n, (double)d.cells * 1e-9, now() - t0);

    dpa_options o;
    dpa_options_init(&o);
    o.gpu_disable = 0;
    o.log_fn = log_stderr;
    dpa_context *ctx = NULL;
    if (dpa_context_create(&o, &ctx) != DPA_OK) {
        fprintf(stderr, "context: %s\n", dpa_last_error());
        return 1;
    }
    char line[2048];
    dpa_context_describe(ctx, line, sizeof line);
    printf("context: %s\n", line);

    dpa_sw_params p;
    dpa_sw_params_init(&p);
    if (hap) {
        p.overhang = DPA_SW_OVERHANG_INDEL;
    } else {
        p.match = 10;
        p.mismatch = -15;
        p.gap_open = -30;
        p.gap_extend = -5;
        p.overhang = DPA_SW_OVERHANG_SOFTCLIP;
    }
    result g, c;
    alloc_result(&g, &d);
    alloc_result(&c, &d);
    double tg[64], tc[64];
    int ng = reps < 64 ? reps : 64, nc = cpu_reps < 64 ? cpu_reps : 64;
    p.backend = DPA_BACKEND_GPU;
    const double warm = run(ctx, &d, &p, &g); /* first call grows the pooled buffers */
    for (int r = 0; r < ng; r++) tg[r] = run(ctx, &d, &p, &g);
    p.backend = DPA_BACKEND_CPU;
    for (int r = 0; r < nc; r++) tc[r] = run(ctx, &d, &p, &c);
    const double mb = backend_only(&d, &p, ng);
    if (mb > 0)
        printf("backend alone (ops->sw, 1 call, 1 stream, no engine): median of %d: %.2f ms = %.3f TCUPS\n",
               ng, mb * 1e3, (double)d.cells / mb * 1e-12);
    const double mg = median(tg, ng), mc = nc > 0 ? median(tc, nc) : 0;

    int64_t diff = 0;
    if (nc > 0) {
        for (int32_t i = 0; i < n; i++)
            if (g.lens[i] != c.lens[i] || g.offs[i] != c.offs[i] || g.starts[i] != c.starts[i] ||
                memcmp(g.cigars + g.starts[i], c.cigars + c.starts[i], (size_t)g.lens[i]) != 0)
                diff++;
    }
    printf("gpu: first call %.1f ms; median of %d: %.2f ms = %.3f TCUPS (gpu_pairs %lld, exact %lld)\n",
           warm * 1e3, ng, mg * 1e3, (double)d.cells / mg * 1e-12, (long long)g.st.gpu_pairs,
           (long long)g.st.exact_matches);
    if (nc > 0)
        printf("cpu (%s): median of %d: %.2f ms = %.3f TCUPS\ngpu / cpu speed-up: %.2fx; pairs "
               "whose CIGAR or offset differ: %lld\n",
               dpa_isa_name((dpa_isa)c.st.isa), nc, mc * 1e3, (double)d.cells / mc * 1e-12,
               mc / mg, (long long)diff);
    dpa_context_destroy(ctx);
    return diff != 0;
}
