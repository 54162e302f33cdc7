/*
 * papara_traceback_workload.c — dpa_papara_traceback_batch: the tracebacks a caller keeps
 * (each read against its chosen profile) on the context's CPU threads through the
 * scheduler, one task per read, each one dpa_papara_traceback with its own scratch. CPU only:
 * a traceback keeps read length x sites bytes of directions, and the scoring has already
 * picked the pairs, so the work is a small fraction of the scoring's.
 */
#include <stdio.h>
#include <stdlib.h>

#include "common/status.h"
#include "cpu/papara/papara.h"
#include "engine/context.h"
#include "engine/cost_model.h"
#include "engine/scheduler.h"

typedef struct tb_job {
    int lanes8;             /* the AVX2 kernel of eight reads at a time is allowed */
    const dpa_papara_batch *b;
    const int32_t *profile_of_read;
    const dpa_papara_params *p;
    uint8_t *ops;
    const int64_t *ops_offsets;
    int64_t *num_ops;
    int32_t *scores;
} tb_job;

static int64_t tb_cost(const void *arg, int64_t r)
{
    const tb_job *j = arg;
    return (int64_t)j->b->read_lengths[r] * j->b->num_sites;
}

static double tb_cpu_seconds(int64_t cost, int64_t n, int32_t threads, dpa_isa isa)
{
    (void)isa;
    return dpa_cost_papara_cpu_seconds(cost, n, threads, DPA_ISA_SCALAR);
}

/* Eight reads' directions at most this many bytes, else one read at a time. */
#define TB_LANES_MAX_BYTES ((int64_t)256 << 20)

static dpa_status tb_cpu(void *arg, int64_t first, int64_t count, int64_t *cells)
{
    tb_job *j = arg;
    const dpa_papara_batch *b = j->b;
    int64_t r = first;
    const int64_t end = first + count;
#ifdef DPA_HAVE_AVX2
    while (j->lanes8 && end - r >= 2) {
        const int32_t k = end - r < 8 ? (int32_t)(end - r) : 8;
        const uint8_t *prof[8], *rd[8];
        uint8_t *out[8];
        int32_t len[8];
        int64_t maxL = 0;
        for (int32_t i = 0; i < k; i++) {
            prof[i] = b->profiles + (int64_t)j->profile_of_read[r + i] * b->num_sites;
            rd[i] = b->read_masks + b->read_offsets[r + i];
            len[i] = b->read_lengths[r + i];
            out[i] = j->ops + j->ops_offsets[r + i];
            if (len[i] > maxL) maxL = len[i];
        }
        if (8 * maxL * b->num_sites > TB_LANES_MAX_BYTES) break;
        const dpa_status st = dpa_papara_traceback8_avx2(prof, b->num_sites, rd, len, k, j->p, out,
                                                         j->num_ops + r, j->scores + r);
        if (st != DPA_OK) {
            char msg[600];
            snprintf(msg, sizeof msg, "%s", dpa_last_error());
            return dpa_fail(st, "reads %lld-%lld: %s", (long long)r, (long long)(r + k - 1), msg);
        }
        for (int32_t i = 0; i < k; i++) *cells += (int64_t)len[i] * b->num_sites;
        r += k;
    }
#endif
    for (; r < end; r++) {
        const dpa_status st = dpa_papara_traceback(
            b->profiles + (int64_t)j->profile_of_read[r] * b->num_sites, b->num_sites,
            b->read_masks + b->read_offsets[r], b->read_lengths[r], j->p,
            j->ops + j->ops_offsets[r], &j->num_ops[r], &j->scores[r]);
        if (st != DPA_OK) {
            char msg[600];
            snprintf(msg, sizeof msg, "%s", dpa_last_error());
            return dpa_fail(st, "read %lld: %s", (long long)r, msg);
        }
        *cells += (int64_t)b->read_lengths[r] * b->num_sites;
    }
    return DPA_OK;
}

static const dpa_workload traceback_workload = {
    .name = "papara-traceback",
    .title = "PaPaRa traceback",
    .cuda_id = (dpa_cuda_workload_id)0,
    .sort = NULL,
    .cost = tb_cost,
    .cpu_seconds = tb_cpu_seconds,
    .gpu_seconds = dpa_cost_papara_gpu_seconds,
    .chunks_per_thread = 8,
    .chunk_min_cost = 1000000,
    .whole_below_cost = 2000000,
    .chunk_multiple = 1,
    .solo_cost = (int64_t)1 << 30, /* a pair whose directions take 1 GB runs alone */
    .split_min_cost = INT64_MAX,
    .feeders_per_gpu = 1,
    .units_per_feeder = 1,
    .hybrid_units_per_feeder = 1,
    .unit_min_cost = INT64_MAX,
    .cpu = tb_cpu,
    .gpu = NULL,
};

DPA_API dpa_status dpa_papara_traceback_batch(dpa_context *ctx, const dpa_papara_batch *batch,
                                              const int32_t *profile_of_read,
                                              const dpa_papara_params *params, uint8_t *ops,
                                              int64_t ops_len, const int64_t *ops_offsets,
                                              int64_t *num_ops, int32_t *scores)
{
    if (!ctx) return dpa_fail(DPA_ERR_NULL_ARG, "dpa_papara_traceback_batch: ctx is NULL");
    dpa_papara_params defaults;
    if (!params) {
        dpa_papara_params_init(&defaults);
        params = &defaults;
    }
    dpa_status st = dpa_papara_validate(batch, params);
    if (st) return st;
    if (params->score_model != DPA_PAPARA_SCORE_PAPARA2)
        return dpa_fail(DPA_ERR_UNSUPPORTED, "dpa_papara_traceback_batch: only the papara2 score "
                        "model has a traceback");
    const int32_t n = batch->num_reads;
    if (n == 0) return DPA_OK;
    if (!profile_of_read || !ops || !ops_offsets || !num_ops || !scores)
        return dpa_fail(DPA_ERR_NULL_ARG, "dpa_papara_traceback_batch: profile_of_read, ops, "
                        "ops_offsets, num_ops or scores is NULL");
    const int64_t S = batch->num_sites;
    int64_t end = 0, cost = 0;
    for (int32_t r = 0; r < n; r++) {
        const int32_t e = profile_of_read[r], len = batch->read_lengths[r];
        if (e < 0 || e >= batch->num_profiles)
            return dpa_fail(DPA_ERR_INVALID_ARG, "dpa_papara_traceback_batch: profile_of_read[%d] "
                            "= %d outside [0, %d)", r, e, batch->num_profiles);
        if ((int64_t)len * S > DPA_PAPARA_MAX_TRACEBACK_CELLS)
            return dpa_fail(DPA_ERR_LIMIT, "dpa_papara_traceback_batch: read %d: %d x %lld cells "
                            "exceed %lld", r, len, (long long)S,
                            (long long)DPA_PAPARA_MAX_TRACEBACK_CELLS);
        if (ops_offsets[r] < end)
            return dpa_fail(DPA_ERR_INVALID_ARG, "dpa_papara_traceback_batch: ops_offsets[%d] = "
                            "%lld overlaps the slot before (it ends at %lld)", r,
                            (long long)ops_offsets[r], (long long)end);
        end = ops_offsets[r] + S + len;
        if (end > ops_len)
            return dpa_fail(DPA_ERR_LIMIT, "dpa_papara_traceback_batch: read %d's ops slot ends at "
                            "%lld, past ops_len = %lld", r, (long long)end, (long long)ops_len);
        cost += (int64_t)len * S;
    }
    dpa_papara_ops isa;
    dpa_papara_select(ctx->cfg.isa_mask, &isa);
    tb_job job = { isa.isa >= DPA_ISA_AVX2, batch, profile_of_read, params, ops, ops_offsets, num_ops, scores };
    const dpa_sched_call call = { n, cost, DPA_BACKEND_CPU, DPA_ISA_SCALAR };
    dpa_sched_result res;
    return dpa_sched_run(ctx, &traceback_workload, &job, &call, &res);
}
