/*
 * xdrop_workload.c — dpa_xdrop_compute: check the arguments, validate the batch (the
 * sequences' bytes on the context's threads), hand the job to the scheduler (scheduler.h)
 * with the X-drop descriptor. Each pair writes its outputs at
 * its own index, so nothing is packed afterwards.
 *
 * Cost of a pair (the scheduler's unit, for chunking and ordering only; stats.cells reports
 * the cells actually swept): an extension sweeps about two anti-diagonals per base of the
 * shorter side until X-drop stops it, each about 2 X / |gap| + 1 cells wide while the band
 * straddles the alignment. Before running, nothing says where X-drop will stop, so the
 * estimate assumes both sides run to the shorter sequence's end, with the band capped at
 * 256: (min(qpos, tpos) + min(query rest, target rest) + 1) * min(2 X / |gap| + 1, 256).
 * Spurious seeds stop after a few anti-diagonals, so this overestimates them; it only
 * orders the work (largest first) and sizes chunks.
 *
 * GPU: xdrop_gpu hands a unit of pairs to the CUDA library's X-drop entry
 * (kernels/src/xdrop_launch.cu), which writes the same outputs at the same indices; the
 * scheduler splits units between GPUs and CPU threads (HYBRID) and recomputes a failed unit
 * on the CPU.
 *
 * Kernel choice on the CPU: dpa_xdrop_select() on the context's allowed ISA mask.
 */
#include <stdlib.h>
#include <string.h>

#include "common/status.h"
#include "cpu/xdrop/xdrop.h"
#include "engine/context.h"
#include "engine/cost_model.h"
#include "engine/scheduler.h"
#include "engine/sort.h"
#include "engine/threadpool.h"

#define BAND_CAP 256

typedef struct xdrop_job {
    const dpa_xdrop_batch *batch;
    const dpa_xdrop_params *params;
    dpa_xdrop_ops kernel;
    const dpa_xdrop_output *out;
    dpa_sort_item *keys;
    int32_t *pairs; /* the scheduler's task order */
} xdrop_job;

static dpa_status xdrop_sort(void *arg, int64_t n)
{
    xdrop_job *j = arg;
    return dpa_sort_order_desc(j->keys, j->pairs, n, "xdrop");
}

static int64_t xdrop_cost(const void *arg, int64_t i)
{
    const xdrop_job *j = arg;
    return (int64_t)j->keys[i].key;
}

static dpa_status xdrop_cpu(void *arg, int64_t first, int64_t count, int64_t *cells)
{
    xdrop_job *j = arg;
    return j->kernel.compute(j->batch, j->params, j->pairs + first, count, j->out, cells);
}

static dpa_status xdrop_gpu(void *arg, const void *entry, dpa_cuda_backend *backend,
                            int32_t device, int64_t first, int64_t count, int64_t *cells,
                            char *err, size_t err_len)
{
    xdrop_job *j = arg;
    const dpa_cuda_xdrop_entry *e = entry;
    return e->run(backend, device, j->batch, j->params, j->pairs + first, count, j->out, cells,
                  err, err_len);
}

static const dpa_workload xdrop_workload = {
    .name = "xdrop",
    .title = "X-drop",
    .cuda_id = DPA_CUDA_WORKLOAD_XDROP,
    .sort = xdrop_sort,
    .sort_for_one_gpu = 1,
    .cost = xdrop_cost,
    .cpu_seconds = dpa_cost_xdrop_cpu_seconds,
    .gpu_seconds = dpa_cost_xdrop_gpu_seconds,
    .chunks_per_thread = 8,
    .chunk_min_cost = 100000,
    .whole_below_cost = 200000,
    .chunk_multiple = 1,
    .solo_cost = INT64_MAX,  /* scratch is linear in the query: no pair needs to run alone */
    .split_min_cost = (int64_t)256 * 1000 * 1000,
    .feeders_per_gpu = 4, /* measured: 1 GPU +7%, 4 GPUs +17% over 2 (docs/BENCHMARKS.md) */
    .units_per_feeder = 2,
    .hybrid_units_per_feeder = 8,
    .unit_min_cost = (int64_t)1 << 24,
    .cpu = xdrop_cpu,
    .gpu = xdrop_gpu,
};

/* The sequences' letters, checked on the context's threads in ranges of pairs of about
 * LETTER_BLOCK bytes; the lowest range's first bad pair is reported, so the message is the
 * serial check's (DECISIONS 112). */
#define LETTER_BLOCK ((int64_t)1 << 20)
typedef struct letters_job {
    const dpa_xdrop_batch *b;
    const int32_t *first; /* range k: pairs [first[k], first[k + 1]) */
    int32_t *bad;         /* range k's first bad pair, or -1 */
} letters_job;

static void letters_range(void *arg, int64_t k)
{
    letters_job *j = arg;
    j->bad[k] = dpa_xdrop_first_bad_letters(j->b, j->first[k], j->first[k + 1]);
}

static dpa_status check_letters(dpa_context *ctx, const dpa_xdrop_batch *b)
{
    const int32_t n = b->num_pairs;
    int32_t *first = malloc(sizeof *first * ((size_t)n + 1));
    int32_t *bad = malloc(sizeof *bad * (size_t)n);
    if (!first || !bad) {
        free(first);
        free(bad);
        return dpa_fail(DPA_ERR_OUT_OF_MEMORY, "xdrop: out of memory for %d pairs", n);
    }
    int64_t in_range = 0, ranges = 0;
    first[0] = 0;
    for (int32_t i = 0; i < n; i++) {
        /* count only what the scan reads: a sequence the previous pair also used is skipped
         * (seeds on one read pair come together; counting them would cut 10,000 seeds on
         * two 600 kb reads into 10,000 ranges that each rescan both) */
        in_range += (dpa_xdrop_new_query(b, i) ? (int64_t)b->query_lengths[i] : 0) +
                    (dpa_xdrop_new_target(b, i) ? b->target_lengths[i] : 0);
        if (in_range >= LETTER_BLOCK || i == n - 1) {
            first[++ranges] = i + 1;
            in_range = 0;
        }
    }
    letters_job j = { b, first, bad };
    dpa_pool_run(ctx->pool, ranges, letters_range, &j);
    dpa_status st = DPA_OK;
    for (int64_t k = 0; k < ranges; k++)
        if (bad[k] >= 0) {
            st = dpa_xdrop_letters_error(b, bad[k]);
            break;
        }
    free(first);
    free(bad);
    return st;
}

DPA_API void dpa_xdrop_params_init(dpa_xdrop_params *p)
{
    if (!p) return;
    p->match = 1;
    p->mismatch = -1;
    p->gap = -1;
    p->xdrop = 100;
    p->backend = -1;
}

static dpa_status check_output(const dpa_xdrop_output *o)
{
    if (!o) return dpa_fail(DPA_ERR_NULL_ARG, "dpa_xdrop_compute: output is NULL");
    const void *ptrs[7] = { o->score, o->qbeg, o->qend, o->tbeg, o->tend, o->left, o->right };
    static const char *const names[7] = { "score", "qbeg", "qend", "tbeg", "tend", "left",
                                          "right" };
    for (int k = 0; k < 7; k++)
        if (!ptrs[k])
            return dpa_fail(DPA_ERR_NULL_ARG, "dpa_xdrop_compute: output->%s is NULL", names[k]);
    return DPA_OK;
}

static int64_t lay_out_costs(const dpa_xdrop_batch *b, const dpa_xdrop_params *p,
                             dpa_sort_item *keys)
{
    int64_t band = 2 * (int64_t)p->xdrop / -p->gap + 1, total = 0;
    if (band > BAND_CAP) band = BAND_CAP;
    for (int32_t i = 0; i < b->num_pairs; i++) {
        const int32_t qpos = b->qpos[i], tpos = b->tpos[i], len = b->seed_lengths[i];
        const int32_t qr = b->query_lengths[i] - qpos - len;
        const int32_t tr = b->target_lengths[i] - tpos - len;
        const int64_t diags = (int64_t)(qpos < tpos ? qpos : tpos) + (qr < tr ? qr : tr) + 1;
        keys[i].key = (uint64_t)(diags * band);
        keys[i].index = i;
        total += diags * band;
    }
    return total;
}

DPA_API dpa_status dpa_xdrop_compute(dpa_context *ctx, const dpa_xdrop_batch *batch,
                                     const dpa_xdrop_params *params,
                                     const dpa_xdrop_output *output, dpa_xdrop_stats *stats)
{
    if (!ctx) return dpa_fail(DPA_ERR_NULL_ARG, "dpa_xdrop_compute: ctx is NULL");
    dpa_xdrop_params defaults;
    if (!params) {
        dpa_xdrop_params_init(&defaults);
        params = &defaults;
    }
    dpa_status st = dpa_xdrop_validate_shape(batch, params);
    if (st || (batch->num_pairs > 0 && (st = check_letters(ctx, batch)))) return st;
    if (batch->num_pairs > 0 && (st = check_output(output))) return st;
    xdrop_job job;
    memset(&job, 0, sizeof job);
    job.batch = batch;
    job.params = params;
    job.out = output;
    dpa_xdrop_select(ctx->cfg.isa_mask, &job.kernel);
    if (stats) {
        memset(stats, 0, sizeof *stats);
        stats->isa = job.kernel.isa;
    }
    const int32_t n = batch->num_pairs;
    dpa_sched_call call = { n, 0, params->backend, job.kernel.isa };
    dpa_sched_result res;
    if (n == 0) return dpa_sched_run(ctx, &xdrop_workload, &job, &call, &res); /* GPU check */

    job.keys = malloc(sizeof *job.keys * (size_t)n);
    job.pairs = malloc(sizeof *job.pairs * (size_t)n);
    if (!job.keys || !job.pairs) {
        st = dpa_fail(DPA_ERR_OUT_OF_MEMORY, "xdrop: out of memory for %d pairs", n);
        goto cleanup;
    }
    call.total_cost = lay_out_costs(batch, params, job.keys);
    if ((st = dpa_sched_run(ctx, &xdrop_workload, &job, &call, &res)) != DPA_OK) goto cleanup;
    if (stats) {
        stats->pairs = n;
        stats->cells = res.counter;
        stats->gpu_pairs = res.gpu_tasks;
    }
cleanup:
    free(job.keys);
    free(job.pairs);
    return st;
}
