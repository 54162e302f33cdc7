/*
 * pairhmm_run.c — dpa_pairhmm_compute: validate, expand the batch into tasks, sort them
 * by shape, cut them into chunks, pick a backend, run, fall back to the CPU on GPU faults.
 *
 * Work queue: chunks are ordered from most to least expensive. GPU feeders (one thread per
 * device) take large units from the expensive end; CPU workers take one chunk at a time
 * from the cheap end. With only CPUs this degenerates to dynamic scheduling, largest first
 * (balanced for mixed lengths); with only GPUs each device takes an equal share of cells.
 */
#include <pthread.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>

#include "common/status.h"
#include "engine/context.h"
#include "engine/cost_model.h"
#include "engine/sort.h"
#include "engine/pairhmm_run.h"
#include "cpu/pairhmm/pairhmm_validate.h"

#define MAX_GPUS 64
/* Below this many cells (~0.3 s of one CPU core, ~0.1 ms of one H100) a GPU batch is not split
 * across devices. */
#define DPA_GPU_SPLIT_MIN_CELLS ((int64_t)256 * 1000 * 1000)

typedef struct chunk {
    int64_t first, count; /* range of the sorted task array */
    int64_t cells;
} chunk;

typedef struct run {
    dpa_context *ctx;
    const dpa_pairhmm_batch *batch;
    int32_t precision;
    double *out;
    dpa_phmm_task *tasks;
    chunk *chunks;
    int64_t nchunks;
    /* two-ended queue over chunks: GPUs take from head, CPUs from tail */
    pthread_mutex_t lock;
    int64_t head, tail; /* remaining = [head, tail) */
    int64_t gpu_unit_cells;
    atomic_llong recomputes;
    atomic_llong gpu_pairs;
    atomic_int cpu_status; /* first CPU error */
} run;

/* ---- tasks ------------------------------------------------------------------------ */

static int64_t task_cells(const dpa_pairhmm_batch *b, const dpa_phmm_task *t)
{
    return (int64_t)b->read_lengths[t->read] * b->hap_lengths[t->hap];
}

/* Sorted descending by (read length, hap length), ties in task order (both lengths < 2^21). */
static dpa_status sort_tasks(const dpa_pairhmm_batch *b, dpa_phmm_task *tasks, int64_t n)
{
    if (n < 2) return DPA_OK;
    dpa_sort_item *k = malloc(sizeof *k * 2 * (size_t)n);
    dpa_phmm_task *tmp = malloc(sizeof *tmp * (size_t)n);
    if (!k || !tmp) {
        free(k), free(tmp);
        return dpa_fail(DPA_ERR_OUT_OF_MEMORY, "pairhmm: out of memory sorting %lld tasks",
                        (long long)n);
    }
    for (int64_t i = 0; i < n; i++) {
        k[i].key = ((uint64_t)b->read_lengths[tasks[i].read] << 21) |
                   (uint64_t)b->hap_lengths[tasks[i].hap];
        k[i].index = i;
    }
    dpa_sort_desc(k, k + n, n);
    for (int64_t i = 0; i < n; i++) tmp[i] = tasks[k[i].index];
    memcpy(tasks, tmp, sizeof *tmp * (size_t)n);
    free(k), free(tmp);
    return DPA_OK;
}

static void expand_tasks(const dpa_pairhmm_batch *b, dpa_phmm_task *tasks)
{
    int32_t groups = b->num_groups ? b->num_groups : 1;
    int32_t r0 = 0, h0 = 0;
    int64_t k = 0;
    for (int32_t g = 0; g < groups; g++) {
        int32_t nr = b->num_groups ? b->group_num_reads[g] : b->num_reads;
        int32_t nh = b->num_groups ? b->group_num_haps[g] : b->num_haps;
        for (int32_t r = 0; r < nr; r++) {
            for (int32_t h = 0; h < nh; h++, k++) {
                tasks[k].read = r0 + r;
                tasks[k].hap = h0 + h;
                tasks[k].out = k; /* groups in order, read-major within a group */
            }
        }
        r0 += nr;
        h0 += nh;
    }
}

/* Chunks of ~target cells, in multiples of 16 tasks (a full AVX-512 float vector of
 * pairs), never splitting below that. */
static int64_t make_chunks(run *R, int64_t n, int64_t target)
{
    int64_t c = 0, i = 0;
    while (i < n) {
        int64_t start = i, cells = 0;
        while (i < n && (cells < target || (i - start) % 16 != 0)) cells += task_cells(R->batch, &R->tasks[i++]);
        R->chunks[c].first = start;
        R->chunks[c].count = i - start;
        R->chunks[c].cells = cells;
        c++;
    }
    return c;
}

/* ---- CPU side ---------------------------------------------------------------------- */

static void cpu_chunk(run *R, const chunk *ch)
{
    int64_t rec = 0;
    dpa_status st = R->ctx->phmm.compute(R->batch, R->tasks + ch->first, ch->count, R->precision,
                                         R->out, &rec);
    atomic_fetch_add(&R->recomputes, rec);
    if (st != DPA_OK) {
        int expected = DPA_OK;
        atomic_compare_exchange_strong(&R->cpu_status, &expected, (int)st);
    }
}

/* A CPU worker pops chunks from the cheap end until the queue is empty. */
static void cpu_worker(void *arg, int64_t index)
{
    (void)index;
    run *R = arg;
    for (;;) {
        pthread_mutex_lock(&R->lock);
        int64_t c = R->head < R->tail ? --R->tail : -1;
        pthread_mutex_unlock(&R->lock);
        if (c < 0) return;
        cpu_chunk(R, &R->chunks[c]);
    }
}

typedef struct cpu_range { run *R; int64_t first, last; } cpu_range;

static void cpu_range_job(void *arg, int64_t index)
{
    cpu_range *cr = arg;
    cpu_chunk(cr->R, &cr->R->chunks[cr->first + index]);
}

/* ---- GPU side ---------------------------------------------------------------------- */

typedef struct feeder { run *R; int32_t device; pthread_t thread; } feeder;

static void *gpu_feeder(void *arg)
{
    feeder *f = arg;
    run *R = f->R;
    dpa_cuda *cuda = &R->ctx->cuda;
    for (;;) {
        pthread_mutex_lock(&R->lock);
        int64_t first = R->head, last = R->head, cells = 0;
        while (last < R->tail && cells < R->gpu_unit_cells) cells += R->chunks[last++].cells;
        R->head = last;
        pthread_mutex_unlock(&R->lock);
        if (first == last) return NULL;

        const int64_t t0 = R->chunks[first].first;
        const int64_t nt = R->chunks[last - 1].first + R->chunks[last - 1].count - t0;
        int64_t rec = 0;
        char err[400] = "";
        dpa_status st = cuda->ops->pairhmm(cuda->backend, f->device, R->batch, R->tasks + t0, nt,
                                           R->precision, R->out, &rec, err, sizeof err);
        if (st == DPA_OK) {
            atomic_fetch_add(&R->recomputes, rec);
            atomic_fetch_add(&R->gpu_pairs, nt);
            continue;
        }
        /* Faults degrade, never crash: recompute this unit on the CPU, identically. */
        if (__atomic_exchange_n(&R->ctx->warned_gpu_fallback, 1, __ATOMIC_ACQ_REL) == 0)
            dpa_log(R->ctx, DPA_LOG_WARN,
                    "GPU %d failed (%s: %s); recomputing on the CPU (logged once per context)",
                    f->device, dpa_status_name(st), err);
        cpu_range cr = { R, first, last };
        dpa_pool_run(R->ctx->pool, last - first, cpu_range_job, &cr);
        dpa_device_info info;
        if (cuda->ops->device_info(cuda->backend, f->device, &info) == DPA_OK && !info.usable)
            return NULL; /* retired: leave the rest to the other devices and the CPU */
    }
}

/* Runs the GPU feeders (devices 1.. on new threads, device 0 on the caller) and, in
 * HYBRID, CPU workers on the pool; whatever remains when the GPUs stop (retired devices)
 * is finished on the CPU. */
static void run_queue(run *R, const int32_t *devices, int32_t ndev, int use_cpu)
{
    feeder f[MAX_GPUS];
    int started[MAX_GPUS] = { 0 };
    /* In HYBRID the caller joins the CPU workers, so every device gets its own feeder;
     * otherwise the caller feeds device 0 itself. */
    const int32_t first_thread = use_cpu ? 0 : 1;
    for (int32_t d = 0; d < ndev; d++) {
        f[d].R = R;
        f[d].device = devices[d];
        if (d >= first_thread)
            started[d] = pthread_create(&f[d].thread, NULL, gpu_feeder, &f[d]) == 0;
    }
    if (!use_cpu && ndev > 0) gpu_feeder(&f[0]);
    if (use_cpu) dpa_pool_run(R->ctx->pool, R->ctx->cfg.threads, cpu_worker, R);
    for (int32_t d = 0; d < ndev; d++)
        if (started[d]) pthread_join(f[d].thread, NULL);
    /* leftovers: no GPU, a thread that failed to start, or every device retired. Checked
     * first so that a GPU call does not wake every pool worker for nothing. */
    pthread_mutex_lock(&R->lock);
    const int64_t left = R->tail - R->head;
    pthread_mutex_unlock(&R->lock);
    if (left > 0) {
        const int64_t workers = left < R->ctx->cfg.threads ? left : R->ctx->cfg.threads;
        dpa_pool_run(R->ctx->pool, workers, cpu_worker, R);
    }
}

/* ---- entry point ------------------------------------------------------------------- */

DPA_API void dpa_pairhmm_params_init(dpa_pairhmm_params *p)
{
    if (!p) return;
    p->precision = DPA_PRECISION_FLOAT_THEN_DOUBLE;
    p->backend = -1;
}

DPA_API dpa_status dpa_pairhmm_compute(dpa_context *ctx, const dpa_pairhmm_batch *batch,
                                       const dpa_pairhmm_params *params, double *out,
                                       int64_t out_len, dpa_pairhmm_stats *stats)
{
    return dpa_pairhmm_compute_ex(ctx, batch, params, out, out_len, stats, 0);
}

dpa_status dpa_pairhmm_compute_ex(dpa_context *ctx, const dpa_pairhmm_batch *batch,
                                  const dpa_pairhmm_params *params, double *out,
                                  int64_t out_len, dpa_pairhmm_stats *stats, int quals_checked)
{
    if (!ctx) return dpa_fail(DPA_ERR_NULL_ARG, "dpa_pairhmm_compute: ctx is NULL");
    dpa_pairhmm_params defaults;
    if (!params) {
        dpa_pairhmm_params_init(&defaults);
        params = &defaults;
    }
    if (params->precision != DPA_PRECISION_FLOAT_THEN_DOUBLE &&
        params->precision != DPA_PRECISION_DOUBLE)
        return dpa_fail(DPA_ERR_INVALID_ARG, "pairhmm params: precision = %d, must be 0 or 1",
                        params->precision);
    if (params->backend < -1 || params->backend > DPA_BACKEND_HYBRID)
        return dpa_fail(DPA_ERR_INVALID_ARG, "pairhmm params: backend = %d, must be -1..3",
                        params->backend);
    dpa_status st = quals_checked ? dpa_pairhmm_validate_shape(batch) : dpa_pairhmm_validate(batch);
    if (st) return st;
    int64_t n;
    dpa_pairhmm_result_count(batch, &n);
    if (n > 0 && !out) return dpa_fail(DPA_ERR_NULL_ARG, "dpa_pairhmm_compute: out is NULL");
    if (out_len < n)
        return dpa_fail(DPA_ERR_INVALID_ARG,
                        "dpa_pairhmm_compute: out_len = %lld, the batch produces %lld results",
                        (long long)out_len, (long long)n);
    if (stats) {
        memset(stats, 0, sizeof *stats);
        stats->isa = ctx->phmm.isa;
    }
    if (n == 0) return DPA_OK;
    if ((uint64_t)n > SIZE_MAX / sizeof(dpa_phmm_task))
        return dpa_fail(DPA_ERR_LIMIT, "pairhmm batch: %lld pairs exceed addressable memory",
                        (long long)n);

    run R;
    memset(&R, 0, sizeof R);
    R.ctx = ctx;
    R.batch = batch;
    R.precision = params->precision;
    R.out = out;
    R.tasks = malloc(sizeof *R.tasks * (size_t)n);
    R.chunks = malloc(sizeof *R.chunks * (size_t)n);
    if (!R.tasks || !R.chunks) {
        free(R.tasks), free(R.chunks);
        return dpa_fail(DPA_ERR_OUT_OF_MEMORY, "pairhmm: out of memory for %lld tasks", (long long)n);
    }
    expand_tasks(batch, R.tasks);
    int64_t cells = 0;
    for (int64_t i = 0; i < n; i++) cells += task_cells(batch, &R.tasks[i]);

    /* backend for this call */
    dpa_backend backend = params->backend >= 0 ? (dpa_backend)params->backend : ctx->cfg.backend;
    int32_t devices[MAX_GPUS];
    int32_t ndev = ctx->cuda.devices > 0 ? dpa_cuda_usable_devices(&ctx->cuda, devices, MAX_GPUS) : 0;
    if (backend == DPA_BACKEND_GPU && ndev == 0) {
        free(R.tasks), free(R.chunks);
        return dpa_fail(DPA_ERR_NO_DEVICE, "pairhmm: backend gpu requested but %s",
                        ctx->cuda.devices > 0 ? "every GPU was retired after a fault"
                                              : ctx->cuda.reason);
    }
    if (backend == DPA_BACKEND_AUTO)
        backend = ndev > 0 && dpa_cost_gpu_seconds(cells, n, ndev) <
                                  dpa_cost_cpu_seconds(cells, n, ctx->cfg.threads, ctx->phmm.isa)
                      ? DPA_BACKEND_GPU : DPA_BACKEND_CPU;
    if (backend == DPA_BACKEND_HYBRID && ndev == 0) backend = DPA_BACKEND_CPU;
    /* A batch too small to split usefully (a HaplotypeCaller region) gains nothing from CPU
     * workers beside a GPU that is faster on it: waking them and waiting for their chunks
     * made one region per call 4x slower than GPU-only on the H100 (BENCHMARKS.md). */
    if (backend == DPA_BACKEND_HYBRID && cells < DPA_GPU_SPLIT_MIN_CELLS &&
        dpa_cost_gpu_seconds(cells, n, 1) <
            dpa_cost_cpu_seconds(cells, n, ctx->cfg.threads, ctx->phmm.isa))
        backend = DPA_BACKEND_GPU;
    if (backend == DPA_BACKEND_CPU) ndev = 0;
    /* A batch too small to keep several GPUs busy (a HaplotypeCaller region) goes whole to one
     * device, round-robin across calls: concurrent callers then spread over the GPUs, and no
     * call pays for splitting, a second feeder thread and a second synchronisation. */
    if (backend == DPA_BACKEND_GPU && ndev > 1 && cells < DPA_GPU_SPLIT_MIN_CELLS) {
        unsigned k = __atomic_fetch_add(&ctx->next_gpu, 1u, __ATOMIC_RELAXED);
        devices[0] = devices[k % (unsigned)ndev];
        ndev = 1;
    }

    /* The sort orders work largest first and groups similar shapes into chunks, for the CPU
     * queue and for splitting across devices. One GPU taking the whole batch bins pairs
     * itself, so the engine's sort would only add latency to every HaplotypeCaller call. */
    if (!(backend == DPA_BACKEND_GPU && ndev == 1) && (st = sort_tasks(batch, R.tasks, n))) {
        free(R.tasks), free(R.chunks);
        return st;
    }

    /* chunks: small enough to balance threads (~16 per thread), big enough to amortise a
     * worker's wake-up (>= 250 k cells, ~40 us on one AVX-512 core). A batch under 1 M cells
     * (~0.15 ms on one core; a typical HaplotypeCaller region is ~0.4 M) is not split at all:
     * waking workers would cost more than it saves. */
    int64_t target = cells / ((int64_t)ctx->cfg.threads * 16);
    if (target < 250000) target = 250000;
    if (cells < 1000000) target = cells;
    R.nchunks = make_chunks(&R, n, target);
    R.head = 0;
    R.tail = R.nchunks;
    R.gpu_unit_cells = cells / (ndev > 0 ? ndev : 1) + 1;
    if (backend == DPA_BACKEND_HYBRID) {
        /* A GPU's unit is its cost-model share of the batch, so each device makes one round
         * trip while the CPU workers take the cheap end; a GPU that finishes first comes back
         * for what is left. A fixed quarter per unit made a HaplotypeCaller region four serial
         * GPU round trips: 0.41 ms per region against 0.07 ms GPU-only (H100, BENCHMARKS.md). */
        const double tg = dpa_cost_gpu_seconds(cells, n, ndev);
        const double tc = dpa_cost_cpu_seconds(cells, n, ctx->cfg.threads, ctx->phmm.isa);
        R.gpu_unit_cells = (int64_t)((double)cells * (tc / (tc + tg)) / ndev) + 1;
    }
    pthread_mutex_init(&R.lock, NULL);
    atomic_init(&R.recomputes, 0);
    atomic_init(&R.gpu_pairs, 0);
    atomic_init(&R.cpu_status, DPA_OK);

    run_queue(&R, devices, ndev, backend == DPA_BACKEND_HYBRID);

    pthread_mutex_destroy(&R.lock);
    free(R.tasks);
    free(R.chunks);
    st = (dpa_status)atomic_load(&R.cpu_status);
    if (st != DPA_OK)
        return dpa_fail(st, "pairhmm: a CPU kernel failed (%s)", dpa_status_name(st));
    if (stats) {
        stats->pairs = n;
        stats->cells = cells;
        stats->double_recomputes = atomic_load(&R.recomputes);
        stats->gpu_pairs = atomic_load(&R.gpu_pairs);
    }
    return DPA_OK;
}
