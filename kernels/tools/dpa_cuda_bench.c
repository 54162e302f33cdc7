/*
 * dpa_cuda_bench.c — benchmark of the CUDA PairHMM backend through its ops table, with
 * no Java and no engine in the way.
 *
 *   dpa_cuda_bench FILE.in [reps]            GATK-style test file ("R H" header, R read lines
 *                                            "bases quals ins del gcp" phred+33, H haps)
 *   dpa_cuda_bench --shape L N PAIRS [reps]  synthetic: PAIRS pairs of read L x hap N
 *   dpa_cuda_bench --gatk REGIONS [T1 T2 ..] latency: HaplotypeCaller-like regions (150 bp
 *                                            reads, 250-500 bp haps differing by a few
 *                                            variants, 10-300 reads x 1-6 haps, seeded),
 *                                            ONE pairhmm call per region, with T host
 *                                            threads calling concurrently, each on its own
 *                                            REGIONS regions (default T: 1 and 8); p50/p90/
 *                                            p99 per call and aggregate GCUPS
 *
 * Prints the first (cold: allocation, module load) call separately, then the median and
 * minimum of reps timed calls (wall clock around pairhmm(), which includes packing, the
 * H2D copy, kernels, the D2H copy and the scatter), in ms and GCUPS, and the largest
 * difference from the scalar reference on a sample of pairs.
 * Environment: DPACCEL_CUDA_FORCE_CFG (kernel), DPACCEL_CUDA_CHUNK_BYTES,
 * DPACCEL_CUDA_LATENCY=0/1, BENCH_CHECK=n, BENCH_RANDOM_PERMILLE (--gatk: random reads),
 * BENCH_SIMILAR_HAPS=1 (--shape: a group's haplotypes differ from its first in 1% of the
 * bases, so a read scores well against all of them and hardly any pair goes to the double
 * pass; by default 3 of 4 pairs underflow and the wall time mostly measures that pass),
 * BENCH_DUMP=file (--shape, .in: the results of the last call as raw doubles, so that two
 * builds or configurations can be compared bit for bit with cmp).
 */
#define _GNU_SOURCE
#include <math.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "cpu/pairhmm/pairhmm.h"
#include "dpa_cuda_backend.h"
#include "io/pairhmm_in.h"

/* the backend's one export (linked directly here; the engine dlopen()s it) */
const dpa_cuda_ops *dpa_cuda_get_ops(void);

/* DPACCEL_CUDA_TIMING / DPACCEL_TIMING lines arrive on the log callback: print them. */
static void log_stderr(void *user, dpa_log_level level, const char *msg)
{
    (void)user;
    if (level == DPA_LOG_DEBUG || level >= DPA_LOG_WARN) fprintf(stderr, "%s\n", msg);
}
static const dpa_cuda_host stderr_host = { log_stderr, NULL };

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

/* A base of ACGT other than c (c is one of them), chosen at random. */
static uint8_t other_base(uint8_t c)
{
    const char *b = "ACGT";
    int k = 0;
    while (b[k] != (char)c) k++;
    return (uint8_t)b[(k + 1 + rand() % 3) & 3];
}

/* ---- --gatk: per-call latency of HaplotypeCaller-sized calls ----------------------- */

static uint64_t rng_next(uint64_t *s)
{
    uint64_t z = (*s += 0x9e3779b97f4a7c15ULL);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
    return z ^ (z >> 31);
}

typedef struct region {
    dpa_pairhmm_batch b;
    dpa_phmm_task *tasks;
    int64_t n, cells;
    buf rb, bq, iq, dq, gq, hb, ro, rl, ho, hl;
} region;

/* One region: H haplotypes of 250-500 bp (variants of one reference), R reads of 150 bp
 * copied from a haplotype window with 1% substitutions (pm_random per mille of reads
 * random: they underflow in float and go to the double pass; default 1,
 * BENCH_RANDOM_PERMILLE; 1m.in recomputes 0.04% of its pairs), R log-uniform in
 * [10, 300], H uniform in [1, 6]; all reads x all haps. */
static void make_region(region *g, uint64_t *rs, int pm_random)
{
    memset(g, 0, sizeof *g);
    const int R = (int)(10.0 * exp(log(30.0) * (double)(rng_next(rs) % 10000) / 10000.0));
    const int H = 1 + (int)(rng_next(rs) % 6);
    const int L = 150;
    /* haplotypes of one region differ by a few variants: a reference of 250-500 bp, then
     * per haplotype 0-3 SNPs and with probability 1/2 a 1-10 bp insertion or deletion */
    uint8_t ref[520];
    const int32_t nref = 250 + (int32_t)(rng_next(rs) % 251);
    for (int i = 0; i < nref; i++) ref[i] = (uint8_t)"ACGT"[rng_next(rs) % 4];
    for (int h = 0; h < H; h++) {
        uint8_t hs[520];
        int32_t n = nref;
        memcpy(hs, ref, (size_t)nref);
        if (h > 0) {
            const int snps = (int)(rng_next(rs) % 4);
            for (int v = 0; v < snps; v++)
                hs[rng_next(rs) % (uint64_t)n] = (uint8_t)"ACGT"[rng_next(rs) % 4];
            if (rng_next(rs) % 2) {
                const int len = 1 + (int)(rng_next(rs) % 10);
                const int at = 20 + (int)(rng_next(rs) % (uint64_t)(n - 40));
                if (rng_next(rs) % 2 && n - len >= 250) { /* deletion */
                    memmove(hs + at, hs + at + len, (size_t)(n - at - len));
                    n -= len;
                } else if (n + len <= 510) { /* insertion */
                    memmove(hs + at + len, hs + at, (size_t)(n - at));
                    for (int i = 0; i < len; i++) hs[at + i] = (uint8_t)"ACGT"[rng_next(rs) % 4];
                    n += len;
                }
            }
        }
        int64_t off = (int64_t)g->hb.n;
        put(&g->ho, &off, 8);
        put(&g->hl, &n, 4);
        put(&g->hb, hs, (size_t)n);
    }
    for (int r = 0; r < R; r++) {
        const int h = (int)(rng_next(rs) % (uint64_t)H);
        const int32_t n = ((int32_t *)g->hl.p)[h];
        const uint8_t *src = g->hb.p + ((int64_t *)g->ho.p)[h];
        const int start = (int)(rng_next(rs) % (uint64_t)(n - L + 1));
        const int rnd = (int)(rng_next(rs) % 1000) < pm_random;
        int64_t off = (int64_t)g->rb.n;
        put(&g->ro, &off, 8);
        put(&g->rl, &L, 4);
        for (int i = 0; i < L; i++) {
            uint8_t c = src[start + i];
            if (rnd || rng_next(rs) % 100 == 0) c = (uint8_t)"ACGT"[rng_next(rs) % 4];
            uint8_t q = (uint8_t)(10 + rng_next(rs) % 31), o = 45, e = 10;
            put(&g->rb, &c, 1);
            put(&g->bq, &q, 1);
            put(&g->iq, &o, 1);
            put(&g->dq, &o, 1);
            put(&g->gq, &e, 1);
        }
    }
    g->b.num_reads = R;
    g->b.read_bases = g->rb.p;
    g->b.base_quals = g->bq.p;
    g->b.ins_quals = g->iq.p;
    g->b.del_quals = g->dq.p;
    g->b.gcp_quals = g->gq.p;
    g->b.read_offsets = (int64_t *)g->ro.p;
    g->b.read_lengths = (int32_t *)g->rl.p;
    g->b.num_haps = H;
    g->b.hap_bases = g->hb.p;
    g->b.hap_offsets = (int64_t *)g->ho.p;
    g->b.hap_lengths = (int32_t *)g->hl.p;
    g->n = (int64_t)R * H;
    g->tasks = malloc(sizeof *g->tasks * (size_t)g->n);
    for (int r = 0; r < R; r++)
        for (int h = 0; h < H; h++) {
            dpa_phmm_task t = { r, h, (int64_t)r * H + h };
            g->tasks[t.out] = t;
            g->cells += (int64_t)L * ((int32_t *)g->hl.p)[h];
        }
}

static void free_region(region *g)
{
    free(g->tasks);
    buf *bs[] = { &g->rb, &g->bq, &g->iq, &g->dq, &g->gq, &g->hb, &g->ro, &g->rl, &g->ho, &g->hl };
    for (size_t i = 0; i < sizeof bs / sizeof bs[0]; i++) free(bs[i]->p);
}

typedef struct gatk_thread {
    const dpa_cuda_ops *ops;
    dpa_cuda_backend *be;
    region *regs;
    int nreg;
    double *lat; /* per call, seconds */
    double t_end;
    int64_t rec;
    int failed;
    pthread_barrier_t *bar;
} gatk_thread;

static void *gatk_worker(void *arg)
{
    gatk_thread *w = arg;
    char err[512] = "";
    int64_t maxn = 0;
    for (int i = 0; i < w->nreg; i++)
        if (w->regs[i].n > maxn) maxn = w->regs[i].n;
    double *out = malloc(sizeof(double) * (size_t)maxn);
    /* warm-up (slot buffers grown, module loaded), untimed */
    for (int i = 0; i < w->nreg && i < 10; i++) {
        int64_t rec = 0;
        if (dpa_cuda_pairhmm_of(w->ops)->run(w->be, 0, &w->regs[i].b, w->regs[i].tasks, w->regs[i].n,
                            DPA_PRECISION_FLOAT_THEN_DOUBLE, out, &rec, err, sizeof err) != DPA_OK)
            w->failed = 1;
    }
    pthread_barrier_wait(w->bar);
    for (int i = 0; i < w->nreg && !w->failed; i++) {
        const double t0 = now();
        if (dpa_cuda_pairhmm_of(w->ops)->run(w->be, 0, &w->regs[i].b, w->regs[i].tasks, w->regs[i].n,
                            DPA_PRECISION_FLOAT_THEN_DOUBLE, out, &w->rec, err,
                            sizeof err) != DPA_OK) {
            fprintf(stderr, "pairhmm: %s\n", err);
            w->failed = 1;
        }
        w->lat[i] = now() - t0;
    }
    w->t_end = now();
    free(out);
    return NULL;
}

static int gatk_mode(int nreg, const int *nthreads, int nrun)
{
    const dpa_cuda_ops *ops = dpa_cuda_get_ops();
    dpa_cuda_backend *be = NULL;
    char err[512] = "";
    if (ops->open(0, &stderr_host, &be, err, sizeof err) != DPA_OK) {
        fprintf(stderr, "open: %s\n", err);
        return 3;
    }
    dpa_device_info info;
    ops->device_info(be, 0, &info);
    const char *pr = getenv("BENCH_RANDOM_PERMILLE");
    const int pm_random = pr ? atoi(pr) : 1;
    int rc = 0;
    for (int ri = 0; ri < nrun && rc == 0; ri++) {
        const int T = nthreads[ri];
        gatk_thread *w = calloc((size_t)T, sizeof *w);
        pthread_t *th = calloc((size_t)T, sizeof *th);
        pthread_barrier_t bar;
        pthread_barrier_init(&bar, NULL, (unsigned)T + 1);
        int64_t cells = 0, pairs = 0;
        for (int t = 0; t < T; t++) {
            uint64_t rs = 1000003ULL * (uint64_t)(t + 1); /* thread t: its own regions */
            w[t].ops = ops;
            w[t].be = be;
            w[t].nreg = nreg;
            w[t].bar = &bar;
            w[t].regs = calloc((size_t)nreg, sizeof(region));
            w[t].lat = calloc((size_t)nreg, sizeof(double));
            for (int i = 0; i < nreg; i++) {
                make_region(&w[t].regs[i], &rs, pm_random);
                cells += w[t].regs[i].cells;
                pairs += w[t].regs[i].n;
            }
        }
        for (int t = 0; t < T; t++) pthread_create(&th[t], NULL, gatk_worker, &w[t]);
        pthread_barrier_wait(&bar);
        const double t0 = now();
        double t1 = t0;
        int64_t rec = 0;
        for (int t = 0; t < T; t++) {
            pthread_join(th[t], NULL);
            if (w[t].t_end > t1) t1 = w[t].t_end;
            rec += w[t].rec;
            if (w[t].failed) rc = 4;
        }
        const int64_t ncalls = (int64_t)T * nreg;
        double *all = malloc(sizeof(double) * (size_t)ncalls), sum = 0;
        for (int t = 0; t < T; t++)
            for (int i = 0; i < nreg; i++) {
                all[(int64_t)t * nreg + i] = w[t].lat[i];
                sum += w[t].lat[i];
            }
        qsort(all, (size_t)ncalls, sizeof(double), cmpd);
        /* accuracy: thread 0's first regions, every 5th pair, against the reference */
        double maxdiff = 0;
        int64_t checked = 0;
        for (int i = 0; i < nreg && i < 4 && rc == 0; i++) {
            region *g = &w[0].regs[i];
            double *o = malloc(sizeof(double) * (size_t)g->n);
            int64_t r2 = 0;
            if (dpa_cuda_pairhmm_of(ops)->run(be, 0, &g->b, g->tasks, g->n, DPA_PRECISION_FLOAT_THEN_DOUBLE, o,
                             &r2, err, sizeof err) != DPA_OK)
                rc = 4;
            for (int64_t k = 0; k < g->n && rc == 0; k += 5) {
                dpa_phmm_pair p = dpa_phmm_pair_of(&g->b, &g->tasks[k]);
                double d = fabs(dpa_phmm_log10_scalar(&p, DPA_PRECISION_DOUBLE, NULL) -
                                o[g->tasks[k].out]);
                if (d > maxdiff || isnan(d)) maxdiff = isnan(d) ? INFINITY : d;
                checked++;
            }
            free(o);
        }
        if (maxdiff > 1e-4) rc = 5;
        printf("gatk regions on %s: threads %d, %d calls each | mean %.0f pairs, %.2f M cells "
               "per call | per call ms: p50 %.3f p90 %.3f p99 %.3f mean %.3f max %.3f | "
               "aggregate %.1f GCUPS, %.0f calls/s | double recomputes %lld (%.2f%%) | max "
               "|diff| %.2e on %lld pairs\n",
               info.name, T, nreg, (double)pairs / (double)ncalls,
               (double)cells / (double)ncalls * 1e-6, all[ncalls / 2] * 1e3,
               all[ncalls * 9 / 10] * 1e3, all[ncalls * 99 / 100] * 1e3, sum / ncalls * 1e3,
               all[ncalls - 1] * 1e3, (double)cells / (t1 - t0) * 1e-9,
               (double)ncalls / (t1 - t0), (long long)rec, 100.0 * (double)rec / (double)pairs,
               maxdiff, (long long)checked);
        fflush(stdout);
        for (int t = 0; t < T; t++) {
            for (int i = 0; i < nreg; i++) free_region(&w[t].regs[i]);
            free(w[t].regs);
            free(w[t].lat);
        }
        free(all);
        free(w);
        free(th);
        pthread_barrier_destroy(&bar);
    }
    ops->close(be);
    return rc;
}

int main(int argc, char **argv)
{
    buf rb = { 0 }, bq = { 0 }, iq = { 0 }, dq = { 0 }, gq = { 0 }, hb = { 0 };
    buf ro = { 0 }, rl = { 0 }, ho = { 0 }, hl = { 0 }, gr = { 0 }, gh = { 0 }, tk = { 0 };
    int32_t nreads = 0, nhaps = 0, ngroups = 0;
    int64_t cells = 0, ntasks = 0;
    int reps = 20;
    const char *label;
    if (argc >= 3 && !strcmp(argv[1], "--gatk")) {
        int nt[16] = { 1, 8 }, nrun = 2;
        if (argc >= 4) {
            nrun = 0;
            for (int i = 3; i < argc && nrun < 16; i++) nt[nrun++] = atoi(argv[i]);
        }
        return gatk_mode(atoi(argv[2]), nt, nrun);
    }
    if (argc >= 5 && !strcmp(argv[1], "--shape")) {
        /* N may be a range "MIN-MAX": haplotype lengths uniform in it (HaplotypeCaller
         * regions mix lengths); BENCH_PER_POSITION=1 gives every read position its own
         * insertion/deletion quality (BQSR-recalibrated reads), which the uniform kernels
         * do not take. */
        int L = atoi(argv[2]), N = atoi(argv[3]), P = atoi(argv[4]);
        const char *dash = strchr(argv[3] + 1, '-');
        const int Nmax = dash ? atoi(dash + 1) : N;
        const char *pp = getenv("BENCH_PER_POSITION");
        const int per_pos = pp && atoi(pp) != 0;
        if (argc >= 6) reps = atoi(argv[5]);
        if (L < 1 || N < L || Nmax < N || P < 1) {
            fprintf(stderr, "--shape: need 1 <= L <= N[-MAX], PAIRS >= 1\n");
            return 2;
        }
        srand(12345);
        /* P pairs as groups of 8 reads x 4 haps (GATK-like sharing) */
        int per_g_r = 8, per_g_h = 4;
        const char *sim = getenv("BENCH_SIMILAR_HAPS");
        const int similar = sim && atoi(sim) != 0;
        int groups = (P + per_g_r * per_g_h - 1) / (per_g_r * per_g_h);
        for (int g = 0; g < groups; g++) {
            /* haplotypes first; reads are copies of a haplotype window with 1% errors, as
             * in GATK (random reads would underflow and measure the double pass) */
            size_t h0 = hb.n;
            int hlen[4];
            for (int h = 0; h < per_g_h; h++) {
                int64_t off = (int64_t)hb.n;
                const int n_h = Nmax > N ? N + rand() % (Nmax - N + 1) : N;
                hlen[h] = n_h;
                put(&ho, &off, 8);
                put(&hl, &n_h, 4);
                for (int i = 0; i < n_h; i++) {
                    uint8_t c = "ACGT"[rand() % 4];
                    if (similar && h > 0 && i < hlen[0]) {
                        c = hb.p[h0 + (size_t)i]; /* the group's first haplotype, 1% changed */
                        if (rand() % 100 == 0) c = other_base(c);
                    }
                    put(&hb, &c, 1);
                }
            }
            for (int r = 0; r < per_g_r; r++) {
                int64_t off = (int64_t)rb.n;
                size_t src_off = h0;
                for (int h = 0; h < r % per_g_h; h++) src_off += (size_t)hlen[h];
                const uint8_t *src = hb.p + src_off;
                const int n_src = hlen[r % per_g_h];
                int start = n_src > L ? rand() % (n_src - L + 1) : 0;
                put(&ro, &off, 8);
                put(&rl, &L, 4);
                for (int i = 0; i < L; i++) {
                    uint8_t c = start + i < n_src ? src[start + i] : (uint8_t)"ACGT"[rand() % 4];
                    if (rand() % 100 == 0) c = "ACGT"[rand() % 4];
                    uint8_t q = (uint8_t)(10 + rand() % 30), o = 45, e = 10;
                    uint8_t oi = per_pos ? (uint8_t)(30 + rand() % 16) : o;
                    uint8_t od = per_pos ? (uint8_t)(30 + rand() % 16) : o;
                    put(&rb, &c, 1);
                    put(&bq, &q, 1);
                    put(&iq, &oi, 1);
                    put(&dq, &od, 1);
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
        if (argc >= 3) reps = atoi(argv[2]);
        dpa_in_data d;
        if (dpa_in_read_file(argv[1], &d) != DPA_OK) {
            fprintf(stderr, "%s\n", dpa_last_error());
            return 2;
        }
        const size_t nr = (size_t)d.batch.num_reads, nh = (size_t)d.batch.num_haps;
        put(&rb, d.read_bases, (size_t)d.read_bytes);
        put(&bq, d.base_quals, (size_t)d.read_bytes);
        put(&iq, d.ins_quals, (size_t)d.read_bytes);
        put(&dq, d.del_quals, (size_t)d.read_bytes);
        put(&gq, d.gcp_quals, (size_t)d.read_bytes);
        put(&ro, d.read_offsets, nr * 8);
        put(&rl, d.read_lengths, nr * 4);
        put(&hb, d.hap_bases, (size_t)d.hap_bytes);
        put(&ho, d.hap_offsets, nh * 8);
        put(&hl, d.hap_lengths, nh * 4);
        put(&gr, d.group_num_reads, (size_t)d.batch.num_groups * 4);
        put(&gh, d.group_num_haps, (size_t)d.batch.num_groups * 4);
        nreads = d.batch.num_reads;
        nhaps = d.batch.num_haps;
        ngroups = d.batch.num_groups;
        dpa_in_free(&d);
        label = argv[1];
    } else {
        fprintf(stderr, "usage: %s FILE.in [reps] | --shape L N PAIRS [reps] | --gatk REGIONS "
                "[THREADS ...]\n", argv[0]);
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
    if (ops->open(0, &stderr_host, &be, err, sizeof err) != DPA_OK) {
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
    dpa_status st = dpa_cuda_pairhmm_of(ops)->run(be, 0, &b, tasks, ntasks, DPA_PRECISION_FLOAT_THEN_DOUBLE, out,
                                 &rec, err, sizeof err);
    double t_cold = now() - t0;
    if (st != DPA_OK) {
        fprintf(stderr, "pairhmm: %s\n", err);
        return 4;
    }
    int64_t rec_first = rec;
    for (int i = 0; i < reps; i++) {
        t0 = now();
        st = dpa_cuda_pairhmm_of(ops)->run(be, 0, &b, tasks, ntasks, DPA_PRECISION_FLOAT_THEN_DOUBLE, out, &rec,
                          err, sizeof err);
        times[i] = now() - t0;
        if (st != DPA_OK) {
            fprintf(stderr, "pairhmm: %s\n", err);
            return 4;
        }
    }
    qsort(times, (size_t)reps, sizeof(double), cmpd);
    double med = reps > 0 ? times[reps / 2] : t_cold, mn = reps > 0 ? times[0] : t_cold;

    const char *dump = getenv("BENCH_DUMP");
    if (dump) {
        FILE *f = fopen(dump, "wb");
        if (!f || fwrite(out, sizeof(double), (size_t)ntasks, f) != (size_t)ntasks) {
            fprintf(stderr, "BENCH_DUMP: cannot write %s\n", dump);
            return 6;
        }
        fclose(f);
    }
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
