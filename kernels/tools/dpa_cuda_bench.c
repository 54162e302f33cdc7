/*
 * dpa_cuda_bench.c — benchmark of the CUDA PairHMM backend through its ops table, with
 * no Java and no engine in the way.
 *
 *   dpa_cuda_bench FILE.in [reps]            GATK-style test file ("R H" header, R read lines
 *                                            "bases quals ins del gcp" phred+33, H haps)
 *   dpa_cuda_bench --shape L N PAIRS [reps]  synthetic: PAIRS pairs of read L x hap N
 *
 * Prints the first (cold: allocation, module load) call separately, then the median and
 * minimum of reps timed calls (wall clock around pairhmm(), which includes packing, the
 * H2D copy, kernels, the D2H copy and the scatter), in ms and GCUPS, and the largest
 * difference from the scalar reference on a sample of pairs.
 * Environment: DPACCEL_CUDA_FORCE_CFG (kernel), DPACCEL_CUDA_CHUNK_BYTES, BENCH_CHECK=n.
 */
#define _GNU_SOURCE
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "cpu/pairhmm/pairhmm.h"
#include "dpa_cuda_backend.h"

/* the backend's one export (linked directly here; the engine dlopen()s it) */
const dpa_cuda_ops *dpa_cuda_get_ops(void);

typedef struct buf {
    uint8_t *p;
    size_t n, cap;
} buf;

static void put(buf *b, const void *src, size_t n)
{
    if (b->n + n > b->cap) {
        b->cap = (b->n + n) * 2 + 1024;
        b->p = realloc(b->p, b->cap);
        if (!b->p) {
            fprintf(stderr, "out of memory\n");
            exit(2);
        }
    }
    memcpy(b->p + b->n, src, n);
    b->n += n;
}

static double now(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return t.tv_sec + 1e-9 * t.tv_nsec;
}

static int cmpd(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return x < y ? -1 : x > y;
}

int main(int argc, char **argv)
{
    buf rb = { 0 }, bq = { 0 }, iq = { 0 }, dq = { 0 }, gq = { 0 }, hb = { 0 };
    buf ro = { 0 }, rl = { 0 }, ho = { 0 }, hl = { 0 }, gr = { 0 }, gh = { 0 }, tk = { 0 };
    int32_t nreads = 0, nhaps = 0, ngroups = 0;
    int64_t cells = 0, ntasks = 0;
    int reps = 20;
    const char *label;
    if (argc >= 5 && !strcmp(argv[1], "--shape")) {
        int L = atoi(argv[2]), N = atoi(argv[3]), P = atoi(argv[4]);
        if (argc >= 6) reps = atoi(argv[5]);
        srand(12345);
        /* P pairs as groups of 8 reads x 4 haps (GATK-like sharing) */
        int per_g_r = 8, per_g_h = 4;
        int groups = (P + per_g_r * per_g_h - 1) / (per_g_r * per_g_h);
        for (int g = 0; g < groups; g++) {
            /* haplotypes first; reads are copies of a haplotype window with 1% errors, as
             * in GATK (random reads would underflow and measure the double pass) */
            size_t h0 = hb.n;
            for (int h = 0; h < per_g_h; h++) {
                int64_t off = (int64_t)hb.n;
                put(&ho, &off, 8);
                put(&hl, &N, 4);
                for (int i = 0; i < N; i++) {
                    uint8_t c = "ACGT"[rand() % 4];
                    put(&hb, &c, 1);
                }
            }
            for (int r = 0; r < per_g_r; r++) {
                int64_t off = (int64_t)rb.n;
                const uint8_t *src = hb.p + h0 + (size_t)(r % per_g_h) * N;
                int start = N > L ? rand() % (N - L + 1) : 0;
                put(&ro, &off, 8);
                put(&rl, &L, 4);
                for (int i = 0; i < L; i++) {
                    uint8_t c = start + i < N ? src[start + i] : (uint8_t)"ACGT"[rand() % 4];
                    if (rand() % 100 == 0) c = "ACGT"[rand() % 4];
                    uint8_t q = (uint8_t)(10 + rand() % 30), o = 45, e = 10;
                    put(&rb, &c, 1);
                    put(&bq, &q, 1);
                    put(&iq, &o, 1);
                    put(&dq, &o, 1);
                    put(&gq, &e, 1);
                }
            }
            put(&gr, &per_g_r, 4);
            put(&gh, &per_g_h, 4);
            nreads += per_g_r;
            nhaps += per_g_h;
            ngroups++;
        }
        label = "synthetic";
    } else if (argc >= 2) {
        FILE *f = fopen(argv[1], "r");
        if (!f) {
            perror(argv[1]);
            return 2;
        }
        if (argc >= 3) reps = atoi(argv[2]);
        char *line = NULL;
        size_t lcap = 0;
        int R, H;
        while (getline(&line, &lcap, f) > 0) {
            if (sscanf(line, "%d %d", &R, &H) != 2) continue;
            for (int r = 0; r < R; r++) {
                if (getline(&line, &lcap, f) <= 0) return 2;
                char *s = strtok(line, " \t\n"), *q = strtok(NULL, " \t\n"),
                     *ii = strtok(NULL, " \t\n"), *dd = strtok(NULL, " \t\n"),
                     *gg = strtok(NULL, " \t\n");
                if (!gg) return 2;
                int32_t L = (int32_t)strlen(s);
                int64_t off = (int64_t)rb.n;
                put(&ro, &off, 8);
                put(&rl, &L, 4);
                put(&rb, s, L);
                for (int i = 0; i < L; i++) {
                    uint8_t a = (uint8_t)(q[i] - 33), b = (uint8_t)(ii[i] - 33),
                            c = (uint8_t)(dd[i] - 33), d = (uint8_t)(gg[i] - 33);
                    put(&bq, &a, 1);
                    put(&iq, &b, 1);
                    put(&dq, &c, 1);
                    put(&gq, &d, 1);
                }
            }
            for (int h = 0; h < H; h++) {
                if (getline(&line, &lcap, f) <= 0) return 2;
                char *s = strtok(line, " \t\n");
                int32_t n = (int32_t)strlen(s);
                int64_t off = (int64_t)hb.n;
                put(&ho, &off, 8);
                put(&hl, &n, 4);
                put(&hb, s, n);
            }
            put(&gr, &R, 4);
            put(&gh, &H, 4);
            nreads += R;
            nhaps += H;
            ngroups++;
        }
        free(line);
        fclose(f);
        label = argv[1];
    } else {
        fprintf(stderr, "usage: %s FILE.in [reps] | --shape L N PAIRS [reps]\n", argv[0]);
        return 2;
    }

    dpa_pairhmm_batch b;
    memset(&b, 0, sizeof b);
    b.num_reads = nreads;
    b.read_bases = rb.p;
    b.base_quals = bq.p;
    b.ins_quals = iq.p;
    b.del_quals = dq.p;
    b.gcp_quals = gq.p;
    b.read_offsets = (int64_t *)ro.p;
    b.read_lengths = (int32_t *)rl.p;
    b.num_haps = nhaps;
    b.hap_bases = hb.p;
    b.hap_offsets = (int64_t *)ho.p;
    b.hap_lengths = (int32_t *)hl.p;
    b.num_groups = ngroups;
    b.group_num_reads = (int32_t *)gr.p;
    b.group_num_haps = (int32_t *)gh.p;
    {
        int32_t r0 = 0, h0 = 0;
        for (int32_t g = 0; g < ngroups; g++) {
            int32_t R = ((int32_t *)gr.p)[g], H = ((int32_t *)gh.p)[g];
            for (int32_t r = 0; r < R; r++)
                for (int32_t h = 0; h < H; h++) {
                    dpa_phmm_task t = { r0 + r, h0 + h, ntasks };
                    put(&tk, &t, sizeof t);
                    cells += (int64_t)b.read_lengths[r0 + r] * b.hap_lengths[h0 + h];
                    ntasks++;
                }
            r0 += R;
            h0 += H;
        }
    }
    const dpa_phmm_task *tasks = (const dpa_phmm_task *)tk.p;

    const dpa_cuda_ops *ops = dpa_cuda_get_ops();
    dpa_cuda_backend *be = NULL;
    char err[512] = "";
    double t0 = now();
    if (ops->open(0, &be, err, sizeof err) != DPA_OK) {
        fprintf(stderr, "open: %s\n", err);
        return 3;
    }
    double t_open = now() - t0;
    dpa_device_info info;
    ops->device_info(be, 0, &info);
    double *out = malloc(sizeof(double) * (size_t)ntasks);
    double *times = malloc(sizeof(double) * (size_t)(reps > 0 ? reps : 1));
    int64_t rec = 0;
    t0 = now();
    dpa_status st = ops->pairhmm(be, 0, &b, tasks, ntasks, DPA_PRECISION_FLOAT_THEN_DOUBLE, out,
                                 &rec, err, sizeof err);
    double t_cold = now() - t0;
    if (st != DPA_OK) {
        fprintf(stderr, "pairhmm: %s\n", err);
        return 4;
    }
    int64_t rec_first = rec;
    for (int i = 0; i < reps; i++) {
        t0 = now();
        st = ops->pairhmm(be, 0, &b, tasks, ntasks, DPA_PRECISION_FLOAT_THEN_DOUBLE, out, &rec,
                          err, sizeof err);
        times[i] = now() - t0;
        if (st != DPA_OK) {
            fprintf(stderr, "pairhmm: %s\n", err);
            return 4;
        }
    }
    qsort(times, (size_t)reps, sizeof(double), cmpd);
    double med = reps > 0 ? times[reps / 2] : t_cold, mn = reps > 0 ? times[0] : t_cold;

    /* accuracy on a sample: every k-th pair against the float-then-double reference */
    const char *ck = getenv("BENCH_CHECK");
    int64_t want = ck ? atoll(ck) : 200;
    double maxdiff = 0;
    int64_t step = want > 0 && ntasks > want ? ntasks / want : 1, checked = 0;
    for (int64_t k = 0; want > 0 && k < ntasks; k += step) {
        dpa_phmm_pair p = dpa_phmm_pair_of(&b, &tasks[k]);
        double r = dpa_phmm_log10_scalar(&p, DPA_PRECISION_DOUBLE, NULL);
        double d = fabs(r - out[tasks[k].out]);
        if (d > maxdiff || isnan(d)) maxdiff = isnan(d) ? INFINITY : d;
        checked++;
    }
    printf("%s on %s (cc %d.%d, %d SMs): pairs %lld cells %lld | open %.1f ms | cold call "
           "%.3f ms | median %.3f ms (min %.3f) over %d reps | %.1f GCUPS median, %.1f best | "
           "double recomputes %lld | max |diff| vs double ref %.2e on %lld pairs\n",
           label, info.name, info.cc_major, info.cc_minor, info.multiprocessors,
           (long long)ntasks, (long long)cells, t_open * 1e3, t_cold * 1e3, med * 1e3, mn * 1e3,
           reps, cells / med * 1e-9, cells / mn * 1e-9, (long long)rec_first, maxdiff,
           (long long)checked);
    ops->close(be);
    return maxdiff <= 1e-4 ? 0 : 5;
}
