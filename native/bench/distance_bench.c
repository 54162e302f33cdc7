/*
 * distance_bench.c — one-call timing of dpa_distance_counts (the triangle) on the generated
 * cohort that dpa_gen_genotypes writes for the same arguments, so PLINK can run on the files
 * and this on the same genotypes (docs/distance.md, "Speed"):
 *
 *   dpa_distance_bench SAMPLES VARIANTS SEED THREADS REPS [cpu|gpu|hybrid]
 *
 * prints the median and best wall time and pair-SNPs/s = N(N-1)/2 x autosomal variants / time,
 * plus an FNV-1a checksum of the counts (equal for every ISA and thread count).
 */
#define _GNU_SOURCE
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "dpaccel.h"
#include "io/bed_gen.h"

static double now_s(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec + 1e-9 * (double)t.tv_nsec;
}

static int cmp(const void *a, const void *b)
{
    const double x = *(const double *)a, y = *(const double *)b;
    return x < y ? -1 : x > y;
}

int main(int argc, char **argv)
{
    if (argc != 6 && argc != 7) {
        fprintf(stderr, "usage: %s SAMPLES VARIANTS SEED THREADS REPS [cpu|gpu|hybrid]\n", argv[0]);
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
    const char *be = argc > 6 ? argv[6] : "cpu";
    if (!strcmp(be, "gpu")) o.backend = DPA_BACKEND_GPU;
    else if (!strcmp(be, "hybrid")) o.backend = DPA_BACKEND_HYBRID;
    else if (strcmp(be, "cpu")) {
        fprintf(stderr, "%s: BACKEND is cpu, gpu or hybrid, not '%s'\n", argv[0], be);
        return 2;
    }
    dpa_context *ctx;
    if (dpa_context_create(&o, &ctx)) {
        fprintf(stderr, "%s: %s\n", argv[0], dpa_last_error());
        return 1;
    }
    const dpa_genotype_batch b = { n, m, d.row_bytes, d.genotypes, d.autosomal };
    const int64_t pairs = (int64_t)n * (n - 1) / 2;
    uint32_t *out = malloc(sizeof *out * (size_t)pairs * DPA_DISTANCE_COUNTS);
    double t[100];
    dpa_distance_stats st;
    for (int r = 0; r < reps; r++) {
        const double t0 = now_s();
        if (!out || dpa_distance_counts(ctx, &b, NULL, NULL, out, pairs * DPA_DISTANCE_COUNTS, &st)) {
            fprintf(stderr, "%s: %s\n", argv[0], out ? dpa_last_error() : "out of memory");
            return 1;
        }
        t[r] = now_s() - t0;
    }
    qsort(t, (size_t)reps, sizeof *t, cmp);
    uint64_t h = 1469598103934665603ull;
    for (int64_t k = 0; k < pairs * DPA_DISTANCE_COUNTS; k++) h = (h ^ out[k]) * 1099511628211ull;
    const double work = (double)pairs * (double)st.variants_used;
    printf("distance %s %d x %lld (%lld used) threads %d isa %s: median %.3f s, best %.3f s, "
           "%.2f G pair-SNPs/s (median), checksum %016llx\n", be, n, (long long)m,
           (long long)st.variants_used, threads, dpa_isa_name((dpa_isa)st.isa), t[reps / 2], t[0],
           work / t[reps / 2] / 1e9, (unsigned long long)h);
    free(out);
    dpa_context_destroy(ctx);
    dpa_bed_free(&d);
    return 0;
}
