/*
 * engine_bench.c — times whole engine calls through the public C API only, so the same
 * source builds against two trees (a change and its baseline) and their figures and
 * result checksums can be compared in one run.
 *
 *   engine_bench pairhmm FILE.in BACKEND REPS   the whole file in one dpa_pairhmm_compute,
 *                                               then one call per region (group), REPS
 *                                               rounds each, median and minimum
 *   engine_bench xdrop LEN PAIRS BACKEND REPS   X-drop (X = 100, +1/-1/-1) on seeded long-read
 *                                               pairs: a LEN-base target and a copy with 12%
 *                                               substitutions and indels, seed of 17 in the middle
 *   engine_bench sw hap|read PAIRS BACKEND REPS Smith-Waterman on seeded pairs: "hap"
 *                                               300-1000 bp haplotype to reference with a few
 *                                               variants (GATK 200/-150/-260/-11, INDEL
 *                                               overhangs), "read" 150 bp read to 300 bp
 *                                               haplotype (10/-15/-30/-5, SOFTCLIP)
 *
 * BACKEND: cpu, gpu, hybrid or auto. Prints one line per figure and an FNV-1a checksum of
 * the results (log10 doubles bit for bit; CIGARs and offsets), the same for every backend
 * and build that computes the same bits. DPACCEL_* variables apply as usual.
 */
#define _GNU_SOURCE
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "dpaccel.h"
#include "io/pairhmm_in.h"

static double now_ms(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return 1e3 * (double)t.tv_sec + 1e-6 * (double)t.tv_nsec;
}

static int cmp_double(const void *a, const void *b)
{
    const double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

static uint64_t fnv(uint64_t h, const void *p, size_t n)
{
    const unsigned char *c = p;
    for (size_t i = 0; i < n; i++) h = (h ^ c[i]) * 0x100000001b3ULL;
    return h;
}

static void report(const char *what, double *ms, int reps, double cells)
{
    qsort(ms, (size_t)reps, sizeof *ms, cmp_double);
    const double med = ms[reps / 2];
    printf("%-28s median %9.3f ms  min %9.3f ms  %8.2f GCUPS (median)\n", what, med, ms[0],
           cells / med * 1e-6);
}

static int parse_backend(const char *s)
{
    return !strcmp(s, "cpu") ? DPA_BACKEND_CPU : !strcmp(s, "gpu") ? DPA_BACKEND_GPU
           : !strcmp(s, "hybrid") ? DPA_BACKEND_HYBRID : !strcmp(s, "auto") ? DPA_BACKEND_AUTO
                                                        : -2;
}

static void die(const char *what)
{
    fprintf(stderr, "engine_bench: %s: %s\n", what, dpa_last_error());
    exit(1);
}

/* One group of the file as a batch of its own (views into the file's arrays). */
static dpa_pairhmm_batch region(const dpa_pairhmm_batch *all, int32_t r0, int32_t h0, int32_t nr,
                                int32_t nh)
{
    dpa_pairhmm_batch b = *all;
    b.num_reads = nr;
    b.num_haps = nh;
    b.num_groups = 0;
    b.group_num_reads = NULL;
    b.group_num_haps = NULL;
    b.read_offsets = all->read_offsets + r0;
    b.read_lengths = all->read_lengths + r0;
    b.hap_offsets = all->hap_offsets + h0;
    b.hap_lengths = all->hap_lengths + h0;
    return b;
}

static int bench_pairhmm(dpa_context *ctx, const char *path, int backend, int reps)
{
    dpa_in_data d;
    if (dpa_in_read_file(path, &d) != DPA_OK) die(path);
    const dpa_pairhmm_batch *b = &d.batch;
    int64_t n;
    dpa_pairhmm_result_count(b, &n);
    double *out = malloc(sizeof *out * (size_t)n), *ms = malloc(sizeof *ms * (size_t)reps);
    dpa_pairhmm_params p;
    dpa_pairhmm_params_init(&p);
    p.backend = backend;
    dpa_pairhmm_stats st;
    double cells = 0;
    if (dpa_pairhmm_compute(ctx, b, &p, out, n, &st) != DPA_OK) die("pairhmm (warm-up)");
    cells = (double)st.cells;
    for (int r = 0; r < reps; r++) {
        const double t0 = now_ms();
        if (dpa_pairhmm_compute(ctx, b, &p, out, n, &st) != DPA_OK) die("pairhmm");
        ms[r] = now_ms() - t0;
    }
    printf("pairhmm %s: %lld pairs, %d regions, %.3f G cells, gpu pairs %lld\n", path,
           (long long)n, b->num_groups, cells * 1e-9, (long long)st.gpu_pairs);
    report("whole file, one call", ms, reps, cells);
#ifdef DPA_PAIRHMM_STATS_CELLS_COMPUTED
    printf("cells computed               %.3f G (%.1f%% of all; GCUPS above count all cells)\n",
           (double)st.cells_computed * 1e-9, 100.0 * (double)st.cells_computed / cells);
#endif
    printf("checksum whole file          %016llx\n",
           (unsigned long long)fnv(0xcbf29ce484222325ULL, out, sizeof *out * (size_t)n));

    /* one call per region, as HaplotypeCaller makes them */
    const int32_t groups = b->num_groups ? b->num_groups : 1;
    double region_computed = 0;
    for (int r = -1; r < reps; r++) {
        int32_t r0 = 0, h0 = 0;
        int64_t o = 0;
        const double t0 = now_ms();
        for (int32_t g = 0; g < groups; g++) {
            const int32_t nr = b->num_groups ? b->group_num_reads[g] : b->num_reads;
            const int32_t nh = b->num_groups ? b->group_num_haps[g] : b->num_haps;
            const dpa_pairhmm_batch rb = region(b, r0, h0, nr, nh);
            dpa_pairhmm_stats rst;
            if (dpa_pairhmm_compute(ctx, &rb, &p, out + o, n - o, &rst) != DPA_OK) die("region");
#ifdef DPA_PAIRHMM_STATS_CELLS_COMPUTED
            if (r < 0) region_computed += (double)rst.cells_computed;
#endif
            o += (int64_t)nr * nh;
            r0 += nr;
            h0 += nh;
        }
        if (r >= 0) ms[r] = now_ms() - t0;
    }
    report("one call per region", ms, reps, cells);
#ifdef DPA_PAIRHMM_STATS_CELLS_COMPUTED
    printf("cells computed               %.3f G (%.1f%% of all)\n", region_computed * 1e-9,
           100.0 * region_computed / cells);
#endif
    printf("checksum per region          %016llx\n",
           (unsigned long long)fnv(0xcbf29ce484222325ULL, out, sizeof *out * (size_t)n));
    free(out);
    free(ms);
    dpa_in_free(&d);
    return 0;
}

static uint64_t rng_next(uint64_t *s)
{
    *s ^= *s << 13;
    *s ^= *s >> 7;
    *s ^= *s << 17;
    return *s;
}

static int bench_sw(dpa_context *ctx, const char *shape, int32_t n, int backend, int reps)
{
    const int hap = !strcmp(shape, "hap");
    uint64_t s = 0x9e3779b97f4a7c15ULL;
    const char acgt[4] = { 'A', 'C', 'G', 'T' };
    int32_t *rl = malloc(sizeof *rl * (size_t)n), *al = malloc(sizeof *al * (size_t)n);
    int64_t *ro = malloc(sizeof *ro * (size_t)n), *ao = malloc(sizeof *ao * (size_t)n);
    int64_t rtot = 0, atot = 0;
    for (int32_t i = 0; i < n; i++) {
        rl[i] = hap ? 300 + (int32_t)(rng_next(&s) % 701) : 300;
        al[i] = hap ? rl[i] + (int32_t)(rng_next(&s) % 21) - 10 : 150;
        ro[i] = rtot;
        ao[i] = atot;
        rtot += rl[i];
        atot += al[i];
    }
    uint8_t *ref = malloc((size_t)rtot), *alt = malloc((size_t)atot);
    double cells = 0;
    for (int32_t i = 0; i < n; i++) {
        uint8_t *r = ref + ro[i], *a = alt + ao[i];
        for (int32_t k = 0; k < rl[i]; k++) r[k] = (uint8_t)acgt[rng_next(&s) & 3];
        /* the alternate: a window of the reference with a few substitutions and indels */
        const int32_t start = hap ? 0 : (int32_t)(rng_next(&s) % (uint64_t)(rl[i] - al[i] + 1));
        int32_t src = start;
        for (int32_t k = 0; k < al[i]; k++) {
            const uint64_t x = rng_next(&s) % 1000;
            if (x < 5 && src + 1 < rl[i]) src++;             /* deletion */
            a[k] = x >= 5 && x < 15 ? (uint8_t)acgt[rng_next(&s) & 3]
                                    : (src < rl[i] ? r[src] : (uint8_t)'A');
            if (!(x >= 15 && x < 18)) src++;                  /* else insertion */
        }
        cells += (double)rl[i] * al[i];
    }
    dpa_sw_batch b = { n, ref, ro, rl, alt, ao, al };
    dpa_sw_params p;
    dpa_sw_params_init(&p);
    if (!hap) {
        p.match = 10, p.mismatch = -15, p.gap_open = -30, p.gap_extend = -5;
    } else {
        p.overhang = DPA_SW_OVERHANG_INDEL;
    }
    p.backend = backend;
    int64_t cap;
    dpa_sw_cigar_capacity(&b, &cap);
    dpa_sw_output o = { malloc((size_t)cap), cap, malloc(sizeof(int64_t) * (size_t)n),
                        malloc(sizeof(int32_t) * (size_t)n), malloc(sizeof(int32_t) * (size_t)n) };
    double *ms = malloc(sizeof *ms * (size_t)reps);
    dpa_sw_stats st;
    if (dpa_sw_compute(ctx, &b, &p, &o, &st) != DPA_OK) die("sw (warm-up)");
    for (int r = 0; r < reps; r++) {
        const double t0 = now_ms();
        if (dpa_sw_compute(ctx, &b, &p, &o, &st) != DPA_OK) die("sw");
        ms[r] = now_ms() - t0;
    }
    printf("sw %s: %d pairs, %.3f G cells, gpu pairs %lld\n", shape, n, cells * 1e-9,
           (long long)st.gpu_pairs);
    report("sw, one call", ms, reps, cells);
    uint64_t h = fnv(0xcbf29ce484222325ULL, o.cigars, (size_t)st.cigar_bytes);
    h = fnv(h, o.cigar_lengths, sizeof(int32_t) * (size_t)n);
    h = fnv(h, o.alignment_offsets, sizeof(int32_t) * (size_t)n);
    printf("checksum sw                  %016llx\n", (unsigned long long)h);
    return 0;
}

/* X-drop on seeded overlapping long-read pairs (public API only). */
static int bench_xdrop(dpa_context *ctx, int32_t len, int32_t n, int backend, int reps)
{
    if (len < 40 || n < 1) {
        fprintf(stderr, "engine_bench xdrop: LEN >= 40, PAIRS >= 1\n");
        return 2;
    }
    uint64_t s = 0x9e3779b97f4a7c15ULL;
    uint8_t *tb = malloc((size_t)len * (size_t)n), *qb = malloc((size_t)len * 2 * (size_t)n);
    int64_t *to = malloc(sizeof(int64_t) * (size_t)n), *qo = malloc(sizeof(int64_t) * (size_t)n);
    int32_t *tl = malloc(sizeof(int32_t) * (size_t)n), *ql = malloc(sizeof(int32_t) * (size_t)n);
    int32_t *qp = malloc(sizeof(int32_t) * (size_t)n), *tp = malloc(sizeof(int32_t) * (size_t)n);
    int32_t *sl = malloc(sizeof(int32_t) * (size_t)n);
    uint8_t *strands = calloc((size_t)n, 1);
    int64_t qn = 0;
    for (int32_t i = 0; i < n; i++) {
        uint8_t *t = tb + (int64_t)i * len;
        for (int32_t k = 0; k < len; k++) t[k] = (uint8_t)"ACGT"[rng_next(&s) & 3];
        to[i] = (int64_t)i * len;
        tl[i] = len;
        /* the seed: 17 exact bases in the middle; elsewhere 12% errors (1/3 each substitution,
         * insertion, deletion), as between two long reads of ~6% error each */
        const int32_t mid = len / 2;
        qo[i] = qn;
        int32_t q = 0;
        for (int32_t k = 0; k < len; k++) {
            const uint32_t r = (uint32_t)(rng_next(&s) % 1000);
            if (k == mid) qp[i] = q;
            if (k >= mid && k < mid + 17) { qb[qn + q++] = t[k]; continue; }
            if (r < 40) qb[qn + q++] = (uint8_t)"ACGT"[rng_next(&s) & 3];
            else if (r < 80) { qb[qn + q++] = (uint8_t)"ACGT"[rng_next(&s) & 3]; qb[qn + q++] = t[k]; }
            else if (r < 120) continue;
            else qb[qn + q++] = t[k];
        }
        ql[i] = q;
        qn += q;
        tp[i] = mid;
        sl[i] = 17;
    }
    /* the same pairs for LOGAN's demo (tools/peers/build-logan.sh): seqV posV seqH posH strand */
    const char *logan = getenv("XDROP_EXPORT_LOGAN");
    if (logan != NULL) {
        FILE *f = fopen(logan, "w");
        if (f == NULL) die(logan);
        for (int32_t i = 0; i < n; i++) {
            fprintf(f, "%.*s\t%d\t%.*s\t%d\tn\n", (int)ql[i], (const char *)qb + qo[i], qp[i],
                    (int)tl[i], (const char *)tb + to[i], tp[i]);
        }
        if (fclose(f) != 0) die(logan);
    }
    const dpa_xdrop_batch b = { n, qb, qo, ql, tb, to, tl, qp, tp, sl, strands };
    dpa_xdrop_params p;
    dpa_xdrop_params_init(&p);
    p.backend = backend;
    /* XDROP_X=N: another X (wider bands: the packed GPU kernel's case, docs/xdrop.md) */
    const char *xs = getenv("XDROP_X");
    if (xs != NULL && *xs) p.xdrop = atoi(xs);
    int32_t *o7 = malloc(sizeof(int32_t) * 7 * (size_t)n);
    dpa_xdrop_output o = { o7, o7 + n, o7 + 2 * (size_t)n, o7 + 3 * (size_t)n, o7 + 4 * (size_t)n,
                           o7 + 5 * (size_t)n, o7 + 6 * (size_t)n };
    double *ms = malloc(sizeof *ms * (size_t)reps);
    dpa_xdrop_stats st;
    if (dpa_xdrop_compute(ctx, &b, &p, &o, &st) != DPA_OK) die("xdrop (warm-up)");
    for (int r = 0; r < reps; r++) {
        const double t0 = now_ms();
        if (dpa_xdrop_compute(ctx, &b, &p, &o, &st) != DPA_OK) die("xdrop");
        ms[r] = now_ms() - t0;
    }
    printf("xdrop %d x %d bp (X %d): %.3f G cells, gpu pairs %lld\n", n, len, (int)p.xdrop,
           (double)st.cells * 1e-9, (long long)st.gpu_pairs);
    report("xdrop, one call", ms, reps, (double)st.cells);
    printf("checksum xdrop               %016llx\n",
           (unsigned long long)fnv(0xcbf29ce484222325ULL, o7, sizeof(int32_t) * 7 * (size_t)n));
    return 0;
}

static void log_stderr(void *user, dpa_log_level level, const char *msg)
{
    (void)user;
    if (level == DPA_LOG_DEBUG || level >= DPA_LOG_WARN) fprintf(stderr, "%s\n", msg);
}

int main(int argc, char **argv)
{
    if (argc != 5 && argc != 6) {
        fprintf(stderr, "usage: engine_bench pairhmm FILE.in BACKEND REPS\n"
                        "       engine_bench sw hap|read PAIRS BACKEND REPS\n"
                        "       engine_bench xdrop LEN PAIRS BACKEND REPS\n"
                        "(xdrop: XDROP_EXPORT_LOGAN=FILE also writes the pairs in LOGAN's demo format; XDROP_X=N sets X)\n");
        return 2;
    }
    const int xd = !strcmp(argv[1], "xdrop");
    const int sw = xd || !strcmp(argv[1], "sw");
    const int backend = parse_backend(argv[sw ? 4 : 3]);
    const int reps = atoi(argv[sw ? 5 : 4]);
    if (backend < -1 || reps < 1 || (sw && argc != 6) || (!sw && argc != 5)) {
        fprintf(stderr, "engine_bench: bad arguments (backend cpu|gpu|hybrid|auto, REPS >= 1)\n");
        return 2;
    }
    dpa_options opt;
    dpa_options_init(&opt);
    opt.log_fn = log_stderr;
    dpa_context *ctx;
    if (dpa_context_create(&opt, &ctx) != DPA_OK) die("context");
    char line[2048];
    dpa_context_describe(ctx, line, sizeof line);
    printf("%s\n", line);
    const int rc = xd ? bench_xdrop(ctx, atoi(argv[2]), atoi(argv[3]), backend, reps)
                 : sw ? bench_sw(ctx, argv[2], atoi(argv[3]), backend, reps)
                      : bench_pairhmm(ctx, argv[2], backend, reps);
    dpa_context_destroy(ctx);
    return rc;
}
