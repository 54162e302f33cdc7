/*
 * pairhmm_prefix_workload.c — the CPU-only PairHMM path that shares haplotype prefixes
 * (docs/pairhmm.md, "Prefix sharing"). Its scheduler task is one READ with all the
 * haplotypes of its group, not one pair: a chunk then holds whole lane groups of reads of
 * one region, which is what the shared kernels need (a pair-task chunk of 16 pairs would
 * hold one or two reads). Results land where the pair path puts them, bit-identical.
 */
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>

#include "common/status.h"
#include "engine/context.h"
#include "engine/cost_model.h"
#include "engine/pairhmm_prefix_run.h"
#include "engine/scheduler.h"
#include "engine/sort.h"

typedef struct read_task {
    int32_t read, hap0, nhaps;
    int64_t out0; /* out index of (read, hap0); (read, hap0 + h) writes out0 + h */
    int64_t cost; /* read_len * sum of the group's haplotype lengths */
    int64_t pair0; /* its pairs in the job's pair list, set in the scheduler's order */
} read_task;

typedef struct prefix_job {
    const dpa_pairhmm_batch *batch;
    const dpa_phmm_ops *kernel;
    int32_t precision;
    double *out;
    read_task *tasks;
    dpa_phmm_task *pairs; /* every pair, the reads' pairs consecutive in task order */
    _Atomic int64_t computed;
    int32_t across_lengths; /* DPACCEL_PAIRHMM_PREFIX=2 or 3 */
    int32_t suffixes;       /* DPACCEL_PAIRHMM_PREFIX=3: kernel->suffix */
} prefix_job;

/* Group by group (a region's reads stay together, so chunks hold lane groups of one
 * haplotype list), longest read first inside a group. */
/* The pairs of the reads in their current order: a chunk of reads is a slice of pairs. */
static void lay_out_pairs(prefix_job *j, int64_t n)
{
    int64_t k = 0;
    for (int64_t i = 0; i < n; i++) {
        read_task *r = &j->tasks[i];
        r->pair0 = k;
        for (int32_t h = 0; h < r->nhaps; h++, k++) {
            j->pairs[k].read = r->read;
            j->pairs[k].hap = r->hap0 + h;
            j->pairs[k].out = r->out0 + h;
        }
    }
}

static dpa_status prefix_sort(void *arg, int64_t n)
{
    prefix_job *j = arg;
    const dpa_pairhmm_batch *b = j->batch;
    if (n < 2) {
        lay_out_pairs(j, n);
        return DPA_OK;
    }
    dpa_sort_item *k = malloc(sizeof *k * 2 * (size_t)n);
    read_task *tmp = malloc(sizeof *tmp * (size_t)n);
    if (!k || !tmp) {
        free(k), free(tmp);
        return dpa_fail(DPA_ERR_OUT_OF_MEMORY, "pairhmm: out of memory sorting %lld reads",
                        (long long)n);
    }
    /* descending sort: the key puts earlier groups (smaller hap0) first */
    for (int64_t i = 0; i < n; i++) {
        k[i].key = ((uint64_t)(INT32_MAX - j->tasks[i].hap0) << 21) |
                   (uint64_t)b->read_lengths[j->tasks[i].read];
        k[i].index = i;
    }
    dpa_sort_desc(k, k + n, n);
    for (int64_t i = 0; i < n; i++) tmp[i] = j->tasks[k[i].index];
    memcpy(j->tasks, tmp, sizeof *tmp * (size_t)n);
    free(k), free(tmp);
    lay_out_pairs(j, n);
    return DPA_OK;
}

static int64_t prefix_cost(const void *arg, int64_t i)
{
    const prefix_job *j = arg;
    return j->tasks[i].cost;
}

static dpa_status prefix_cpu(void *arg, int64_t first, int64_t count, int64_t *recomputes)
{
    prefix_job *j = arg;
    if (count <= 0) return DPA_OK;
    const read_task *last = &j->tasks[first + count - 1];
    const int64_t p0 = j->tasks[first].pair0, pairs = last->pair0 + last->nhaps - p0;
    int64_t computed = 0;
    const dpa_phmm_prefix_fn fn = j->suffixes ? j->kernel->suffix : j->kernel->prefix;
    dpa_status st = fn(j->batch, j->pairs + p0, pairs, j->precision, j->out, recomputes,
                       &computed, j->across_lengths);
    atomic_fetch_add(&j->computed, computed);
    return st;
}

static const dpa_workload pairhmm_prefix_workload = {
    .name = "pairhmm",
    .title = "PairHMM (shared prefixes)",
    .cuda_id = DPA_CUDA_WORKLOAD_PAIRHMM,
    .sort = prefix_sort,
    .sort_for_one_gpu = 1,
    .cost = prefix_cost,
    .cpu_seconds = dpa_cost_cpu_seconds,
    .gpu_seconds = dpa_cost_gpu_seconds,
    /* a chunk is whole lane groups: 16 reads (one AVX-512 float vector) of one region */
    .chunks_per_thread = 8,
    .chunk_min_cost = 4000000,
    .whole_below_cost = 4000000,
    .chunk_multiple = 16,
    .solo_cost = INT64_MAX,
    .split_min_cost = INT64_MAX,
    .feeders_per_gpu = 1,
    .units_per_feeder = 1,
    .hybrid_units_per_feeder = 0,
    .unit_min_cost = 0,
    .cpu = prefix_cpu,
    .gpu = NULL, /* only ever scheduled with the CPU backend (dpa_pairhmm_run_prefix) */
};

int dpa_pairhmm_prefix_applies(const dpa_context *ctx, int32_t backend)
{
    if (!ctx->cfg.pairhmm_prefix || !ctx->phmm.prefix) return 0;
    const dpa_backend b = backend >= 0 ? (dpa_backend)backend : ctx->cfg.backend;
    if (b == DPA_BACKEND_CPU) return 1;
    if (b == DPA_BACKEND_GPU) return 0;
    /* AUTO / HYBRID without a usable GPU run on the CPU anyway */
    return dpa_cuda_entry(&ctx->cuda, DPA_CUDA_WORKLOAD_PAIRHMM) == NULL;
}

dpa_status dpa_pairhmm_run_prefix(dpa_context *ctx, const dpa_pairhmm_batch *b,
                                  int64_t npairs, int32_t precision, double *out,
                                  int64_t *recomputes, int64_t *cells, int64_t *cells_computed)
{
    const int32_t groups = b->num_groups ? b->num_groups : 1;
    int64_t nreads = 0;
    for (int32_t g = 0; g < groups; g++) {
        const int32_t nh = b->num_groups ? b->group_num_haps[g] : b->num_haps;
        if (nh > 0) nreads += b->num_groups ? b->group_num_reads[g] : b->num_reads;
    }
    prefix_job job = { b, &ctx->phmm, precision, out, NULL, NULL, 0,
                        ctx->cfg.pairhmm_prefix >= 2, ctx->cfg.pairhmm_prefix == 3 };
    if ((uint64_t)npairs > SIZE_MAX / sizeof(dpa_phmm_task))
        return dpa_fail(DPA_ERR_LIMIT, "pairhmm batch: %lld pairs exceed addressable memory",
                        (long long)npairs);
    job.tasks = malloc(sizeof *job.tasks * (size_t)(nreads > 0 ? nreads : 1));
    job.pairs = malloc(sizeof *job.pairs * (size_t)npairs);
    if (!job.tasks || !job.pairs) {
        free(job.tasks), free(job.pairs);
        /* the pair path's message: the pair list is what does not fit */
        return dpa_fail(DPA_ERR_OUT_OF_MEMORY, "pairhmm: out of memory for %lld tasks",
                        (long long)npairs);
    }
    /* groups in order, read-major inside a group: the pair path's output order */
    int32_t r0 = 0, h0 = 0;
    int64_t k = 0, o = 0, total = 0;
    for (int32_t g = 0; g < groups; g++) {
        const int32_t nr = b->num_groups ? b->group_num_reads[g] : b->num_reads;
        const int32_t nh = b->num_groups ? b->group_num_haps[g] : b->num_haps;
        int64_t hsum = 0;
        for (int32_t h = 0; h < nh; h++) hsum += b->hap_lengths[h0 + h];
        for (int32_t r = 0; r < nr && nh > 0; r++, k++) {
            job.tasks[k] = (read_task){ r0 + r, h0, nh, o + (int64_t)r * nh,
                                        (int64_t)b->read_lengths[r0 + r] * hsum, 0 };
            total += job.tasks[k].cost;
        }
        o += (int64_t)nr * nh;
        r0 += nr;
        h0 += nh;
    }
    const dpa_sched_call call = { nreads, total, DPA_BACKEND_CPU, ctx->phmm.isa };
    dpa_sched_result res;
    dpa_status st = dpa_sched_run(ctx, &pairhmm_prefix_workload, &job, &call, &res);
    free(job.tasks);
    free(job.pairs);
    if (st != DPA_OK) return st;
    *recomputes = res.counter;
    *cells = total;
    *cells_computed = atomic_load(&job.computed);
    return DPA_OK;
}
