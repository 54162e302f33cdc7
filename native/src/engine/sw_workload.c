/*
 * sw_workload.c — dpa_sw_compute: check the arguments, validate the batch, lay out a CIGAR
 * slot per pair, hand the job to the scheduler (scheduler.h) with the Smith-Waterman
 * descriptor, then pack the CIGARs in pair order.
 *
 * Each pair writes its CIGAR into a private slot of the caller's buffer (at the prefix sum
 * of dpa_sw_cigar_max), so workers and devices never coordinate; afterwards one forward pass
 * packs the CIGARs (a CIGAR never starts after its slot, so memmove forward is safe).
 *
 * Memory: a pair needs ref_len * alt_len traceback bytes on the CPU. Pairs above 2^26 cells
 * are solo tasks (one at a time on the calling thread, at most DPA_SW_MAX_CELLS bytes at
 * once); the rest run in chunks on the pool, each worker holding at most 2^26 bytes of
 * scratch. On the GPU (docs/sw-cuda.md) several feeders per device overlap one call's host
 * packing with another's kernels, and the kernels pair neighbours of the sorted order.
 *
 * Kernel choice on the CPU: dpa_sw_select() on the context's allowed ISA mask: AVX-512, else
 * AVX2, else scalar (byte-identical results).
 */
#include <stdlib.h>
#include <string.h>

#include "common/status.h"
#include "cpu/sw/sw.h"
#include "engine/context.h"
#include "engine/cost_model.h"
#include "engine/scheduler.h"
#include "engine/sort.h"
#include "engine/timing.h"

#define SOLO_CELLS ((int64_t)1 << 26)

typedef struct sw_job {
    const dpa_sw_batch *batch;
    const dpa_sw_params *params;
    dpa_sw_ops kernel;
    dpa_sw_out out;       /* cigar_offsets holds the slots until the packing pass */
    dpa_sort_item *keys;  /* cells per pair, sorted by sw_sort */
    int32_t *pairs;       /* the scheduler's task order: pair indices, most cells first */
} sw_job;

/* Sorts by cells, most first, ties in pair order (the GPU pairs neighbours of similar
 * shape); the keys are filled with the slots. */
static dpa_status sw_sort(void *arg, int64_t n)
{
    sw_job *j = arg;
    return dpa_sort_order_desc(j->keys, j->pairs, n, "sw");
}

static int64_t sw_cost(const void *arg, int64_t i)
{
    const sw_job *j = arg;
    return (int64_t)j->keys[i].key;
}

static double sw_cpu_seconds(int64_t cells, int64_t n, int32_t threads, dpa_isa isa)
{
    (void)n;
    return dpa_cost_sw_cpu_seconds(cells, threads, isa);
}

static dpa_status sw_cpu(void *arg, int64_t first, int64_t count, int64_t *exact)
{
    sw_job *j = arg;
    return j->kernel.compute(j->batch, j->params, j->pairs + first, count, &j->out, exact);
}

static dpa_status sw_gpu(void *arg, const void *entry, dpa_cuda_backend *backend, int32_t device,
                         int64_t first, int64_t count, int64_t *exact, char *err, size_t err_len)
{
    sw_job *j = arg;
    const dpa_cuda_sw_entry *e = entry;
    return e->run(backend, device, j->batch, j->params, j->pairs + first, count, j->out.cigars,
                  j->out.slots, j->out.cigar_lengths, j->out.alignment_offsets, exact, err,
                  err_len);
}

static const dpa_workload sw_workload = {
    .name = "sw",
    .title = "Smith-Waterman",
    .cuda_id = DPA_CUDA_WORKLOAD_SW,
    .sort = sw_sort,
    .sort_for_one_gpu = 1,
    .cost = sw_cost,
    .cpu_seconds = sw_cpu_seconds,
    .gpu_seconds = dpa_cost_sw_gpu_seconds,
    .chunks_per_thread = 8,
    .chunk_min_cost = 100000,
    .whole_below_cost = 0,
    .chunk_multiple = 1,
    .solo_cost = SOLO_CELLS,
    .split_min_cost = (int64_t)256 * 1000 * 1000,
    /* four concurrent calls per device (one per big slot of the CUDA pool, device_pool.cu),
     * two units each GPU-only; smaller units under HYBRID so the CPU's share adapts; a unit
     * of at least 2^26 cells amortises a call (docs/sw-cuda.md) */
    .feeders_per_gpu = 4,
    .units_per_feeder = 2,
    /* the cost model's split, one unit a feeder: eight units a feeder (32 calls of 1.5-6.6 k
     * pairs) left HYBRID at 85-98 ms for 100,000 haplotype pairs on an H200 where the GPU
     * alone took 43-48 */
    .hybrid_units_per_feeder = 0,
    .unit_min_cost = (int64_t)1 << 26,
    .cpu = sw_cpu,
    .gpu = sw_gpu,
};

DPA_API void dpa_sw_params_init(dpa_sw_params *p)
{
    if (!p) return;
    p->match = 200;
    p->mismatch = -150;
    p->gap_open = -260;
    p->gap_extend = -11;
    p->overhang = DPA_SW_OVERHANG_SOFTCLIP;
    p->backend = -1;
}

static dpa_status check_output(const dpa_sw_batch *batch, const dpa_sw_output *output)
{
    int64_t capacity;
    dpa_status st = dpa_sw_cigar_capacity(batch, &capacity);
    if (st || batch->num_pairs == 0) return st;
    if (!output) return dpa_fail(DPA_ERR_NULL_ARG, "dpa_sw_compute: output is NULL");
    if (!output->cigars || !output->cigar_offsets || !output->cigar_lengths ||
        !output->alignment_offsets)
        return dpa_fail(DPA_ERR_NULL_ARG, "dpa_sw_compute: output->%s is NULL",
                        !output->cigars ? "cigars"
                        : !output->cigar_offsets ? "cigar_offsets"
                        : !output->cigar_lengths ? "cigar_lengths" : "alignment_offsets");
    if (output->cigar_capacity < capacity)
        return dpa_fail(DPA_ERR_INVALID_ARG,
                        "dpa_sw_compute: output->cigar_capacity = %lld, the batch needs %lld "
                        "(dpa_sw_cigar_capacity)", (long long)output->cigar_capacity,
                        (long long)capacity);
    return DPA_OK;
}

/* Pair i's slot is the prefix sum of the CIGAR bounds, in cigar_offsets until packing. */
static int64_t lay_out_slots(const dpa_sw_batch *batch, int64_t *slots, dpa_sort_item *keys)
{
    int64_t pos = 0, cells = 0;
    for (int32_t i = 0; i < batch->num_pairs; i++) {
        slots[i] = pos;
        pos += dpa_sw_cigar_max(batch->ref_lengths[i], batch->alt_lengths[i]);
        keys[i].key = (uint64_t)batch->ref_lengths[i] * (uint64_t)batch->alt_lengths[i];
        keys[i].index = i;
        cells += (int64_t)keys[i].key;
    }
    return cells;
}

/* Moves each CIGAR from its slot to the packed position, in pair order. */
static int64_t pack_cigars(int32_t n, const dpa_sw_output *output)
{
    int64_t packed = 0;
    for (int32_t i = 0; i < n; i++) {
        const int32_t len = output->cigar_lengths[i];
        const int64_t slot = output->cigar_offsets[i];
        if (packed != slot) memmove(output->cigars + packed, output->cigars + slot, (size_t)len);
        output->cigar_offsets[i] = packed;
        packed += len;
    }
    return packed;
}

DPA_API dpa_status dpa_sw_compute(dpa_context *ctx, const dpa_sw_batch *batch,
                                  const dpa_sw_params *params, const dpa_sw_output *output,
                                  dpa_sw_stats *stats)
{
    if (!ctx) return dpa_fail(DPA_ERR_NULL_ARG, "dpa_sw_compute: ctx is NULL");
    const double t0 = ctx->cfg.timing ? dpa_ms_now() : 0;
    dpa_sw_params defaults;
    if (!params) {
        dpa_sw_params_init(&defaults);
        params = &defaults;
    }
    dpa_status st = dpa_sw_validate(batch, params);
    if (st || (st = check_output(batch, output))) return st;
    sw_job job;
    memset(&job, 0, sizeof job);
    job.batch = batch;
    job.params = params;
    dpa_sw_select(ctx->cfg.isa_mask, &job.kernel);
    if (stats) {
        memset(stats, 0, sizeof *stats);
        stats->isa = job.kernel.isa;
    }
    const int32_t n = batch->num_pairs;
    dpa_sched_call call = { n, 0, params->backend, job.kernel.isa };
    dpa_sched_result res;
    if (n == 0) return dpa_sched_run(ctx, &sw_workload, &job, &call, &res); /* GPU-forced check */

    job.keys = malloc(sizeof *job.keys * (size_t)n);
    job.pairs = malloc(sizeof *job.pairs * (size_t)n);
    if (!job.keys || !job.pairs) {
        st = dpa_fail(DPA_ERR_OUT_OF_MEMORY, "sw: out of memory for %d pairs", n);
        goto cleanup;
    }
    job.out = (dpa_sw_out){ output->cigars, output->cigar_offsets, output->cigar_lengths,
                            output->alignment_offsets };
    call.total_cost = lay_out_slots(batch, output->cigar_offsets, job.keys);
    const double t1 = ctx->cfg.timing ? dpa_ms_now() : 0;
    if ((st = dpa_sched_run(ctx, &sw_workload, &job, &call, &res)) != DPA_OK) goto cleanup;
    const double t2 = ctx->cfg.timing ? dpa_ms_now() : 0;
    const int64_t packed = pack_cigars(n, output);
    if (ctx->cfg.timing)
        dpa_log(ctx, DPA_LOG_DEBUG, "sw: %d pairs: %.2f ms = checks+slots %.2f + scheduler %.2f "
                "+ packing %.2f", n, dpa_ms_now() - t0, t1 - t0, t2 - t1, dpa_ms_now() - t2);
    if (stats) {
        stats->pairs = n;
        stats->cells = call.total_cost;
        stats->exact_matches = res.counter;
        stats->cigar_bytes = packed;
        stats->gpu_pairs = res.gpu_tasks;
    }
cleanup:
    free(job.keys);
    free(job.pairs);
    return st;
}
