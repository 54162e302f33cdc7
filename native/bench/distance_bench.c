/*
 * distance_bench.c — one-call timing of dpa_distance_counts (the triangle) on the generated
 * cohort that dpa_gen_genotypes writes for the same arguments, so PLINK can run on the files
 * and this on the same genotypes (docs/distance.md, "Speed"):
 *
 *   dpa_distance_bench SAMPLES VARIANTS SEED THREADS REPS [cpu|gpu|hybrid|auto[,...]]
 *
 * prints the median and best wall time and pair-SNPs/s = N(N-1)/2 x autosomal variants / time,
 * plus an FNV-1a checksum of the counts (equal for every ISA and thread count).
 *
 * DPA_BENCH_CHECK=K also counts K random pairs (a fresh seed each run, printed) and the
 * first and last pair straight from the .bed codes, here, and exits 1 on any difference.
 * DPACCEL_TIMING=1 or DPACCEL_CUDA_TIMING=1 print the library's timing lines to stderr.
 */
#define _GNU_SOURCE
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "dpaccel.h"
#include "io/bed_gen.h"

static double now_s(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec + 1e-9 * (double)t.tv_nsec;
}

static void log_stderr(void *user, dpa_log_level level, const char *message)
{
    (void)user, (void)level;
    fprintf(stderr, "[%.3f] %s\n", now_s(), message);
}

/* PLINK 1 .bed codes: 0 hom A1, 1 missing, 2 het, 3 hom A2 */
static int code_at(const dpa_bed_data *d, int64_t v, int32_t k)
{
    return (d->genotypes[v * d->row_bytes + k / 4] >> (2 * (k % 4))) & 3;
}

/* The seven counts of pair (i, j) written out from their definitions (docs/distance.md),
 * independent of the library's code. */
static void count_pair(const dpa_bed_data *d, int64_t m, int32_t i, int32_t j, uint32_t c[7])
{
    memset(c, 0, 7 * sizeof *c);
    for (int64_t v = 0; v < m; v++) {
        if (d->autosomal && !d->autosomal[v]) continue;
        const int x = code_at(d, v, i), y = code_at(d, v, j);
        if (x == 1 || y == 1) continue;
        c[0]++;
        if (x == y) c[3]++;
        else if (x == 2 || y == 2) c[2]++;
        else c[1]++;
        c[4] += x == 2 && y == 2;
        c[5] += x == 2 && y != 2;
        c[6] += x != 2 && y == 2;
    }
}

static int cmp(const void *a, const void *b)
{
    const double x = *(const double *)a, y = *(const double *)b;
    return x < y ? -1 : x > y;
}

int main(int argc, char **argv)
{
    if (argc != 6 && argc != 7) {
        fprintf(stderr, "usage: %s SAMPLES VARIANTS SEED THREADS REPS [cpu|gpu|hybrid|auto[,...]]\n", argv[0]);
        return 2;
    }
    const int32_t n = (int32_t)atol(argv[1]);
    const int64_t m = atoll(argv[2]);
    const int threads = atoi(argv[4]), reps = atoi(argv[5]);
    if (n < 2 || m < 1 || threads < 1 || reps < 1 || reps > 100) {
        fprintf(stderr, "%s: SAMPLES >= 2, VARIANTS >= 1, THREADS >= 1, REPS 1..100\n", argv[0]);
        return 2;
    }
    dpa_bed_data d;
    if (dpa_bed_generate(n, m, strtoull(argv[3], NULL, 10), &d)) {
        fprintf(stderr, "%s: %s\n", argv[0], dpa_last_error());
        return 1;
    }
    dpa_options o;
    dpa_options_init(&o);
    o.num_threads = threads;
    o.backend = DPA_BACKEND_CPU;
    const char *tv = getenv("DPACCEL_TIMING"), *cv = getenv("DPACCEL_CUDA_TIMING");
    if ((tv && *tv && *tv != '0') || (cv && *cv && *cv != '0')) o.log_fn = log_stderr;
    /* several backends (a comma list) run in interleaved rounds on the same data */
    enum { MAXB = 8 };
    char list[64];
    snprintf(list, sizeof list, "%s", argc > 6 ? argv[6] : "cpu");
    const char *names[MAXB];
    dpa_backend backends[MAXB];
    int nb = 0;
    for (char *tok = strtok(list, ","); tok && nb < MAXB; tok = strtok(NULL, ",")) {
        if (!strcmp(tok, "gpu")) backends[nb] = DPA_BACKEND_GPU;
        else if (!strcmp(tok, "hybrid")) backends[nb] = DPA_BACKEND_HYBRID;
        else if (!strcmp(tok, "cpu")) backends[nb] = DPA_BACKEND_CPU;
        else if (!strcmp(tok, "auto")) backends[nb] = DPA_BACKEND_AUTO;
        else {
            fprintf(stderr, "%s: BACKEND is cpu, gpu, hybrid or auto, not '%s'\n", argv[0], tok);
            return 2;
        }
        names[nb++] = tok;
    }
    o.backend = nb == 1 ? backends[0] : DPA_BACKEND_AUTO; /* AUTO: the context opens the GPUs */
    dpa_context *ctx;
    if (dpa_context_create(&o, &ctx)) {
        fprintf(stderr, "%s: %s\n", argv[0], dpa_last_error());
        return 1;
    }
    const dpa_genotype_batch b = { n, m, d.row_bytes, d.genotypes, d.autosomal };
    const int64_t pairs = (int64_t)n * (n - 1) / 2;
    uint32_t *out = malloc(sizeof *out * (size_t)pairs * DPA_DISTANCE_COUNTS);
    double t[MAXB][100];
    dpa_distance_stats st;
    uint64_t h[MAXB];
    for (int r = 0; r < reps; r++)
        for (int k = 0; k < nb; k++) {
            dpa_distance_params p;
            dpa_distance_params_init(&p);
            p.backend = backends[k];
            const double t0 = now_s();
            if (!out || dpa_distance_counts(ctx, &b, NULL, &p, out, pairs * DPA_DISTANCE_COUNTS, &st)) {
                fprintf(stderr, "%s: %s\n", argv[0], out ? dpa_last_error() : "out of memory");
                return 1;
            }
            t[k][r] = now_s() - t0;
            if (r < reps - 1) continue; /* the checksum of the last round's counts */
            h[k] = 1469598103934665603ull;
            for (int64_t q = 0; q < pairs * DPA_DISTANCE_COUNTS; q++) h[k] = (h[k] ^ out[q]) * 1099511628211ull;
        }
    for (int k = 0; k < nb; k++) {
        qsort(t[k], (size_t)reps, sizeof *t[k], cmp);
        const double work = (double)pairs * (double)st.variants_used;
        printf("distance %s %d x %lld (%lld used) threads %d isa %s: median %.3f s, best %.3f s, "
               "%.2f G pair-SNPs/s (median), checksum %016llx\n", names[k], n, (long long)m,
               (long long)st.variants_used, threads, dpa_isa_name((dpa_isa)st.isa), t[k][reps / 2],
               t[k][0], work / t[k][reps / 2] / 1e9, (unsigned long long)h[k]);
    }
    const char *ck = getenv("DPA_BENCH_CHECK");
    if (ck && atoi(ck) > 0) {
        const int k = atoi(ck);
        const unsigned seed = (unsigned)time(NULL) ^ (unsigned)getpid();
        srand(seed);
        int bad = 0;
        for (int q = 0; q < k + 2 && !bad; q++) {
            int32_t i, j;
            if (q == 0) i = 0, j = 1;
            else if (q == 1) i = n - 2, j = n - 1;
            else {
                i = (int32_t)(((uint64_t)rand() << 16 ^ (uint64_t)rand()) % (uint64_t)n);
                j = (int32_t)(((uint64_t)rand() << 16 ^ (uint64_t)rand()) % (uint64_t)n);
                if (i == j) continue;
                if (i > j) { const int32_t x = i; i = j; j = x; }
            }
            uint32_t c[7];
            count_pair(&d, m, i, j, c);
            const uint32_t *g = out + 7 * ((int64_t)i * n - (int64_t)i * (i + 1) / 2 + j - i - 1);
            if (memcmp(c, g, sizeof c)) {
                fprintf(stderr, "%s: pair (%d, %d) differs from the .bed count: %u %u %u %u %u %u %u "
                        "vs %u %u %u %u %u %u %u\n", argv[0], i, j, g[0], g[1], g[2], g[3], g[4],
                        g[5], g[6], c[0], c[1], c[2], c[3], c[4], c[5], c[6]);
                bad = 1;
            }
        }
        printf("check: %d random pairs + first + last against the .bed codes (seed %u): %s\n", k,
               seed, bad ? "DIFFER" : "equal");
        if (bad) return 1;
    }
    free(out);
    dpa_context_destroy(ctx);
    dpa_bed_free(&d);
    return 0;
}
