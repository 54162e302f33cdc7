/*
 * pairhmm_workload.c — dpa_pairhmm_compute: check the arguments, validate the batch,
 * expand it into one task per (read, haplotype) pair, and hand the job to the scheduler
 * (scheduler.h) with the PairHMM descriptor: its sort, costs, cost model, chunk shape and
 * kernels (the context's CPU kernel, the CUDA library's pairhmm entry).
 */
#include <stdlib.h>
#include <string.h>

#include "common/status.h"
#include "cpu/pairhmm/pairhmm_validate.h"
#include "engine/context.h"
#include "engine/cost_model.h"
#include "engine/entry.h"
#include "engine/pairhmm_prefix_run.h"
#include "engine/scheduler.h"
#include "engine/sort.h"
#include "engine/timing.h"

typedef struct phmm_job {
    const dpa_pairhmm_batch *batch;
    const dpa_phmm_ops *kernel;
    int32_t precision;
    double *out;
    dpa_phmm_task *tasks;
} phmm_job;

/* Groups in order, read-major within a group: task k writes out[k]. */
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
                tasks[k].out = k;
            }
        }
        r0 += nr;
        h0 += nh;
    }
}

/* Cells of the whole batch: per group, its read positions times its haplotype positions
 * (one pass over the lengths instead of one per pair). */
static int64_t batch_cells(const dpa_pairhmm_batch *b)
{
    const int32_t groups = b->num_groups ? b->num_groups : 1;
    int32_t r = 0, h = 0;
    int64_t cells = 0;
    for (int32_t g = 0; g < groups; g++) {
        const int32_t nr = b->num_groups ? b->group_num_reads[g] : b->num_reads;
        const int32_t nh = b->num_groups ? b->group_num_haps[g] : b->num_haps;
        int64_t rl = 0, hl = 0;
        for (int32_t i = 0; i < nr; i++) rl += b->read_lengths[r + i];
        for (int32_t i = 0; i < nh; i++) hl += b->hap_lengths[h + i];
        cells += rl * hl;
        r += nr;
        h += nh;
    }
    return cells;
}

/* Descending by (read length, hap length), ties in task order (both lengths < 2^21): the
 * SIMD kernels take 16 pairs of one read length at a time. */
static dpa_status phmm_sort(void *arg, int64_t n)
{
    phmm_job *j = arg;
    const dpa_pairhmm_batch *b = j->batch;
    if (n < 2) return DPA_OK;
    dpa_sort_item *k = malloc(sizeof *k * 2 * (size_t)n);
    dpa_phmm_task *tmp = malloc(sizeof *tmp * (size_t)n);
    if (!k || !tmp) {
        free(k), free(tmp);
        return dpa_fail(DPA_ERR_OUT_OF_MEMORY, "pairhmm: out of memory sorting %lld tasks",
                        (long long)n);
    }
    for (int64_t i = 0; i < n; i++) {
        k[i].key = ((uint64_t)b->read_lengths[j->tasks[i].read] << 21) |
                   (uint64_t)b->hap_lengths[j->tasks[i].hap];
        k[i].index = i;
    }
    dpa_sort_desc(k, k + n, n);
    for (int64_t i = 0; i < n; i++) tmp[i] = j->tasks[k[i].index];
    memcpy(j->tasks, tmp, sizeof *tmp * (size_t)n);
    free(k), free(tmp);
    return DPA_OK;
}

static int64_t phmm_cost(const void *arg, int64_t i)
{
    const phmm_job *j = arg;
    return (int64_t)j->batch->read_lengths[j->tasks[i].read] * j->batch->hap_lengths[j->tasks[i].hap];
}

static dpa_status phmm_cpu(void *arg, int64_t first, int64_t count, int64_t *recomputes)
{
    phmm_job *j = arg;
    return j->kernel->compute(j->batch, j->tasks + first, count, j->precision, j->out, recomputes);
}

static dpa_status phmm_gpu(void *arg, const void *entry, dpa_cuda_backend *backend,
                           int32_t device, int64_t first, int64_t count, int64_t *recomputes,
                           char *err, size_t err_len)
{
    phmm_job *j = arg;
    const dpa_cuda_pairhmm_entry *e = entry;
    return e->run(backend, device, j->batch, j->tasks + first, count, j->precision, j->out,
                  recomputes, err, err_len);
}

static const dpa_workload pairhmm_workload = {
    .name = "pairhmm",
    .title = "PairHMM",
    .cuda_id = DPA_CUDA_WORKLOAD_PAIRHMM,
    .sort = phmm_sort,
    .sort_for_one_gpu = 0,
    .cost = phmm_cost,
    .cpu_seconds = dpa_cost_cpu_seconds,
    .gpu_seconds = dpa_cost_gpu_seconds,
    /* ~16 chunks per thread balance mixed lengths; >= 250 k cells (~40 us on one AVX-512
     * core) amortise a worker's wake-up; under 1 M cells (~0.15 ms; a HaplotypeCaller
     * region is ~0.4 M) one chunk; 16 tasks = one AVX-512 float vector of pairs */
    .chunks_per_thread = 16,
    .chunk_min_cost = 250000,
    .whole_below_cost = 1000000,
    .chunk_multiple = 16,
    .solo_cost = INT64_MAX,
    /* ~0.3 s of one CPU core, ~0.1 ms of one H100 */
    .split_min_cost = (int64_t)256 * 1000 * 1000,
    /* Up to four feeders per GPU, one unit each, units of at least 50 M cells: a call's
     * host steps (scan, pack, sort, warp plan) then overlap another unit's transfers and
     * kernels on their own slots and streams. Measured on an H200 (docs/BENCHMARKS.md,
     * 2026-11-28): 1m.in 1.9 -> 1.2-1.3 ms, a 60 k-pair HaplotypeCaller-shaped call 5.1 ->
     * 4.1-4.6 ms; more units per feeder, or 12 M-cell units (which cut one 26 M-cell
     * region in two), were slower. A HaplotypeCaller region stays one unit on one feeder. */
    .feeders_per_gpu = 4,
    .units_per_feeder = 1,
    .hybrid_units_per_feeder = 0,
    /* measured on an H200 + 16 cores (docs/BENCHMARKS.md): HYBRID with a predicted CPU share
     * of 8% (hcs.in) and 14% (1m.in) took 3.4-5.2 ms and 2.4-2.6 ms where the GPU alone took
     * 3.1-3.4 and 1.2-1.5 (the CPU did ~2% of the pairs; the sort, which breaks the regions'
     * order the one-GPU path keeps, and smaller units cost the GPU more) */
    .hybrid_min_cpu_share = 0.20,
    .unit_min_cost = (int64_t)50 * 1000 * 1000,
    .cpu = phmm_cpu,
    .gpu = phmm_gpu,
};

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

/* The quality check of a large batch, spread over the context's pool in blocks of reads
 * (memory-bound: a 240 k-pair call spent 4-6 ms on it on one thread of an H200 host, as
 * long as the GPU's work). Small batches check on the calling thread. */
#define QUAL_BLOCK_READS 1024

typedef struct qual_job {
    const dpa_pairhmm_batch *batch;
    int32_t *bad; /* per block: the first bad read, or -1 */
} qual_job;

static void qual_block(void *arg, int64_t k)
{
    const qual_job *j = arg;
    const int32_t first = (int32_t)(k * QUAL_BLOCK_READS);
    const int32_t n = j->batch->num_reads - first;
    j->bad[k] = dpa_pairhmm_first_bad_quals(j->batch, first,
                                            first + (n < QUAL_BLOCK_READS ? n : QUAL_BLOCK_READS));
}

static dpa_status validate_batch(dpa_context *ctx, const dpa_pairhmm_batch *b)
{
    dpa_status st = dpa_pairhmm_validate_shape(b);
    if (st) return st;
    const int64_t blocks = ((int64_t)b->num_reads + QUAL_BLOCK_READS - 1) / QUAL_BLOCK_READS;
    int32_t first_bad = -1;
    int32_t *bad = blocks >= 4 && ctx->cfg.threads >= 2 ? malloc(sizeof *bad * (size_t)blocks)
                                                        : NULL;
    if (bad) {
        qual_job job = { b, bad };
        dpa_pool_run(ctx->pool, blocks, qual_block, &job);
        for (int64_t k = 0; k < blocks && first_bad < 0; k++) first_bad = bad[k];
        free(bad);
    } else {
        first_bad = dpa_pairhmm_first_bad_quals(b, 0, b->num_reads);
    }
    return first_bad < 0 ? DPA_OK : dpa_pairhmm_quals_error(b, first_bad);
}

static dpa_status check_params(const dpa_pairhmm_params *params)
{
    if (params->precision != DPA_PRECISION_FLOAT_THEN_DOUBLE &&
        params->precision != DPA_PRECISION_DOUBLE)
        return dpa_fail(DPA_ERR_INVALID_ARG, "pairhmm params: precision = %d, must be 0 or 1",
                        params->precision);
    if (params->backend < -1 || params->backend > DPA_BACKEND_HYBRID)
        return dpa_fail(DPA_ERR_INVALID_ARG, "pairhmm params: backend = %d, must be -1..3",
                        params->backend);
    return DPA_OK;
}

dpa_status dpa_pairhmm_compute_ex(dpa_context *ctx, const dpa_pairhmm_batch *batch,
                                  const dpa_pairhmm_params *params, double *out,
                                  int64_t out_len, dpa_pairhmm_stats *stats, int quals_checked)
{
    if (!ctx) return dpa_fail(DPA_ERR_NULL_ARG, "dpa_pairhmm_compute: ctx is NULL");
    const double t0 = ctx->cfg.timing ? dpa_ms_now() : 0;
    dpa_pairhmm_params defaults;
    if (!params) {
        dpa_pairhmm_params_init(&defaults);
        params = &defaults;
    }
    dpa_status st = check_params(params);
    if (st) return st;
    st = quals_checked ? dpa_pairhmm_validate_shape(batch) : validate_batch(ctx, batch);
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
    if (dpa_pairhmm_prefix_applies(ctx, params->backend)) {
        int64_t rec = 0, cells = 0, computed = 0;
        st = dpa_pairhmm_run_prefix(ctx, batch, n, params->precision, out, &rec, &cells, &computed);
        if (st != DPA_OK) return st;
        if (stats) {
            stats->pairs = n;
            stats->cells = cells;
            stats->double_recomputes = rec;
            stats->cells_computed = computed;
        }
        return DPA_OK;
    }
    if ((uint64_t)n > SIZE_MAX / sizeof(dpa_phmm_task))
        return dpa_fail(DPA_ERR_LIMIT, "pairhmm batch: %lld pairs exceed addressable memory",
                        (long long)n);

    phmm_job job = { batch, &ctx->phmm, params->precision, out, NULL };
    job.tasks = malloc(sizeof *job.tasks * (size_t)n);
    if (!job.tasks)
        return dpa_fail(DPA_ERR_OUT_OF_MEMORY, "pairhmm: out of memory for %lld tasks", (long long)n);
    expand_tasks(batch, job.tasks);
    const int64_t cells = batch_cells(batch);

    const dpa_sched_call call = { n, cells, params->backend, ctx->phmm.isa };
    dpa_sched_result res;
    const double t1 = ctx->cfg.timing ? dpa_ms_now() : 0;
    st = dpa_sched_run(ctx, &pairhmm_workload, &job, &call, &res);
    free(job.tasks);
    if (ctx->cfg.timing)
        dpa_log(ctx, DPA_LOG_DEBUG, "pairhmm call: checks and tasks %.3f ms, scheduler %.3f ms",
                t1 - t0, dpa_ms_now() - t1);
    if (st != DPA_OK) return st;
    if (stats) {
        stats->pairs = n;
        stats->cells = cells;
        stats->double_recomputes = res.counter;
        stats->gpu_pairs = res.gpu_tasks;
        stats->cells_computed = cells;
    }
    return DPA_OK;
}
