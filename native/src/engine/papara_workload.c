/*
 * papara_workload.c — dpa_papara_score: validate, lay the profiles out in blocks of the
 * kernel's width, hand (block, read) tasks to the scheduler, reduce each read's best.
 *
 * Task t is block t / num_reads against read t % num_reads: consecutive tasks share a
 * block, so a chunk keeps one block's profile in cache while it streams reads (PaPaRa's
 * worker does the same, one block of 8 edges against all reads). Each task writes its
 * block's best (score, lowest index, count) for its read at its own slot; the reduction
 * after the run walks the blocks in profile order, so ties go to the lowest profile index
 * whatever order the tasks ran in (scoring_results::offer).
 *
 * Both score models run here: the paper2012 model (lowest wins) lays its own costs into the
 * same block layout and takes the ISA's paper2012 kernel. A read outside the int16 bound
 * (dpa_papara_fits_int16) runs on the ISA's int32 kernel of its model (up to SIMD_MAX_READ
 * bases), or through the scalar reference, profile by profile (longer reads, the scalar ISA).
 *
 * GPU (kernels/src/papara_*.cu, DPA_CUDA_WORKLOAD_PAPARA): a unit of tasks becomes at most
 * three rectangles of profiles x reads (papara_gpu); the GPU writes every score of a
 * rectangle and the same finish_task as the CPU's turns them into the block bests, so the
 * reduction and the tie rule do not depend on the backend. On a GPU error the scheduler
 * reruns the unit on the CPU.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/status.h"
#include "cpu/papara/papara.h"
#include "engine/context.h"
#include "engine/cost_model.h"
#include "engine/scheduler.h"

#define SCALAR_GROUP 16 /* profiles per task for the scalar kernel */
/* The SIMD kernels' scratch grows with the read (4 x width bytes a base: 8 MB a thread at
 * 65,536 bases with AVX-512); longer reads, rare for PaPaRa, take the scalar reference. */
#define SIMD_MAX_READ 65536

typedef struct papara_job {
    const dpa_papara_batch *batch;
    const dpa_papara_params *params;
    dpa_papara_ops ops;
    int32_t width;          /* profiles per block */
    int32_t num_blocks;
    int16_t *pre;           /* SIMD cost layout: num_blocks x num_sites x DPA_PAPARA_PRE x width */
    int32_t *scores;        /* caller's, or NULL */
    int32_t *part_best, *part_idx, *part_ties; /* num_blocks x num_reads */
    int lowest_wins;        /* the paper2012 model: min-plus */
} papara_job;

static inline int better(const papara_job *j, int32_t a, int32_t b)
{
    return j->lowest_wins ? a < b : a > b;
}

static int64_t papara_cost(const void *arg, int64_t t)
{
    const papara_job *j = arg;
    const int32_t n = j->batch->num_reads;
    return (int64_t)j->batch->read_lengths[t % n] * j->batch->num_sites * j->width;
}

/* One block against one read with the scalar reference: lanes [first, first + lanes). */
static void block_ref(const papara_job *j, int32_t first, int32_t lanes, int32_t read,
                      int64_t *scratch, int32_t *out)
{
    const dpa_papara_batch *b = j->batch;
    for (int32_t k = 0; k < lanes; k++) {
        const uint8_t *prof = b->profiles + (int64_t)(first + k) * b->num_sites;
        const uint8_t *rd = b->read_masks + b->read_offsets[read];
        out[k] = j->lowest_wins
                     ? dpa_papara_score_paper2012(prof, b->num_sites, rd, b->read_lengths[read],
                                                  scratch)
                     : dpa_papara_score_ref(prof, b->num_sites, rd, b->read_lengths[read],
                                            j->params, scratch);
    }
}

/* A task's block best (score, lowest index, count) into its slot; its scores into the matrix. */
static void finish_task(papara_job *j, int32_t blk, int32_t read, int32_t lanes, const int32_t *out)
{
    const dpa_papara_batch *b = j->batch;
    const int32_t p0 = blk * j->width;
    int32_t best = out[0], idx = p0, ties = 1;
    for (int32_t k = 1; k < lanes; k++) {
        if (better(j, out[k], best)) {
            best = out[k];
            idx = p0 + k;
            ties = 1;
        } else if (out[k] == best) {
            ties++;
        }
    }
    const int64_t slot = (int64_t)blk * b->num_reads + read;
    j->part_best[slot] = best;
    j->part_idx[slot] = idx;
    j->part_ties[slot] = ties;
    if (j->scores)
        memcpy(j->scores + (int64_t)read * b->num_profiles + p0, out, sizeof *out * (size_t)lanes);
}

static dpa_status papara_cpu(void *arg, int64_t first, int64_t count, int64_t *cells)
{
    papara_job *j = arg;
    const dpa_papara_batch *b = j->batch;
    const int32_t W = j->width, n = b->num_reads;
    int64_t *ref_scratch = malloc(sizeof *ref_scratch * 2 * (size_t)b->num_sites);
    int32_t maxlen = 0; /* of the reads the SIMD kernels take */
    for (int64_t t = first; t < first + count; t++)
        if (b->read_lengths[t % n] > maxlen && b->read_lengths[t % n] <= SIMD_MAX_READ)
            maxlen = b->read_lengths[t % n];
    int16_t *simd_scratch =
        j->ops.block
            ? malloc(sizeof *simd_scratch * (size_t)dpa_papara_scratch_int16(b->num_sites, maxlen, W))
            : NULL;
    int32_t *out = malloc(sizeof *out * (size_t)W);
    dpa_status st = DPA_OK;
    if (!ref_scratch || !out || (j->ops.block && !simd_scratch)) {
        st = dpa_fail(DPA_ERR_OUT_OF_MEMORY, "papara: out of memory for %lld sites of scratch",
                      (long long)b->num_sites);
        goto done;
    }
    for (int64_t t = first; t < first + count; t++) {
        const int32_t blk = (int32_t)(t / n), read = (int32_t)(t % n);
        const int32_t p0 = blk * W;
        const int32_t lanes = b->num_profiles - p0 < W ? b->num_profiles - p0 : W;
        const int32_t len = b->read_lengths[read];
        dpa_papara_block_fn fn = NULL; /* the model's int16 or int32 kernel, or the reference */
        if (j->ops.block && len <= SIMD_MAX_READ)
            fn = dpa_papara_fits_int16(len, j->params)
                     ? (j->lowest_wins ? j->ops.block2012 : j->ops.block)
                     : (j->lowest_wins ? j->ops.block2012_32 : j->ops.block32);
        if (fn) {
            const dpa_papara_block bk = { p0, lanes,
                                          j->pre + (int64_t)blk * b->num_sites * DPA_PAPARA_PRE * W };
            fn(&bk, b->num_sites, b->read_masks + b->read_offsets[read], len, j->params,
               simd_scratch, out);
        } else {
            block_ref(j, p0, lanes, read, ref_scratch, out);
        }
        finish_task(j, blk, read, lanes, out);
        *cells += (int64_t)len * b->num_sites * lanes;
    }
done:
    free(ref_scratch);
    free(simd_scratch);
    free(out);
    return st;
}

/* One CUDA call for the blocks [b0, b1) against reads [r0, r1), then each task's finish. */
static dpa_status gpu_rect(papara_job *j, const dpa_cuda_papara_entry *e, dpa_cuda_backend *be,
                           int32_t device, int32_t b0, int32_t b1, int32_t r0, int32_t r1,
                           int64_t *cells, char *err, size_t err_len)
{
    const dpa_papara_batch *b = j->batch;
    const int32_t W = j->width, p0 = b0 * W;
    const int32_t p1 = b1 * W < b->num_profiles ? b1 * W : b->num_profiles;
    const int32_t np = p1 - p0, nr = r1 - r0;
    if (np <= 0 || nr <= 0) return DPA_OK;
    int32_t *out = malloc(sizeof *out * (size_t)np * (size_t)nr);
    if (!out) {
        snprintf(err, err_len, "papara: out of host memory for %d x %d GPU scores", nr, np);
        return DPA_ERR_OUT_OF_MEMORY;
    }
    dpa_status st = e->run(be, device, b, j->params, p0, np, r0, nr, out, err, err_len);
    if (st == DPA_OK)
        for (int32_t r = r0; r < r1; r++) {
            for (int32_t blk = b0; blk < b1; blk++) {
                const int32_t q0 = blk * W - p0;
                const int32_t lanes = b->num_profiles - blk * W < W ? b->num_profiles - blk * W : W;
                finish_task(j, blk, r, lanes, out + (int64_t)(r - r0) * np + q0);
            }
            *cells += (int64_t)b->read_lengths[r] * b->num_sites * np;
        }
    free(out);
    return st;
}

/* Tasks [first, first + count) are block-major: a partial first block, whole blocks, a
 * partial last block; each is one rectangle of profiles x reads for the GPU. */
static dpa_status papara_gpu(void *arg, const void *cuda_entry, dpa_cuda_backend *be,
                             int32_t device, int64_t first, int64_t count, int64_t *cells,
                             char *err, size_t err_len)
{
    papara_job *j = arg;
    const dpa_cuda_papara_entry *e = cuda_entry;
    const int32_t n = j->batch->num_reads;
    const int64_t last = first + count; /* exclusive */
    int32_t ba = (int32_t)(first / n), ra = (int32_t)(first % n);
    const int32_t bz = (int32_t)(last / n), rz = (int32_t)(last % n);
    dpa_status st;
    if (ba == bz) return gpu_rect(j, e, be, device, ba, ba + 1, ra, rz, cells, err, err_len);
    if (ra > 0) {
        if ((st = gpu_rect(j, e, be, device, ba, ba + 1, ra, n, cells, err, err_len))) return st;
        ba++;
    }
    if ((st = gpu_rect(j, e, be, device, ba, bz, 0, n, cells, err, err_len))) return st;
    return gpu_rect(j, e, be, device, bz, bz + 1, 0, rz, cells, err, err_len);
}

static const dpa_workload papara_workload = {
    .name = "papara",
    .title = "PaPaRa",
    .cuda_id = DPA_CUDA_WORKLOAD_PAPARA,
    .sort = NULL, /* block-major order keeps a block's profiles hot; costs are similar */
    .sort_for_one_gpu = 0,
    .cost = papara_cost,
    .cpu_seconds = dpa_cost_papara_cpu_seconds,
    .gpu_seconds = dpa_cost_papara_gpu_seconds,
    .chunks_per_thread = 8,
    .chunk_min_cost = 1000000,
    .whole_below_cost = 4000000,
    .chunk_multiple = 1,
    .solo_cost = INT64_MAX, /* scratch is linear in the sites */
    .split_min_cost = (int64_t)1 << 30,
    .feeders_per_gpu = 2,
    .units_per_feeder = 2,
    /* HYBRID: one unit per GPU of the cost model's GPU share, the CPU taking the cheap end;
     * units of the block-major order are a few blocks x every read, and eight per feeder
     * made rectangles of ~100 profiles that fill a fraction of the GPU (HYBRID ran at half
     * the GPU alone's speed on an H200, docs/lab/2026-11-28-session16.md) */
    .hybrid_units_per_feeder = 0,
    .unit_min_cost = (int64_t)1 << 26,
    .cpu = papara_cpu,
    .gpu = papara_gpu,
};

/* Site-major, lane-interleaved blocks (dpa_papara_lay_out_block). */
static void lay_out_blocks(papara_job *j)
{
    const int64_t S = j->batch->num_sites;
    const int32_t W = j->width;
    for (int32_t blk = 0; blk < j->num_blocks; blk++)
        dpa_papara_lay_out_block(j->batch, blk * W, W, j->params,
                                 j->pre + (int64_t)blk * S * DPA_PAPARA_PRE * W);
}

static void reduce(const papara_job *j, const dpa_papara_output *o)
{
    const int32_t n = j->batch->num_reads;
    for (int32_t r = 0; r < n; r++) {
        int32_t best = j->part_best[r], idx = j->part_idx[r], ties = j->part_ties[r];
        for (int32_t blk = 1; blk < j->num_blocks; blk++) {
            const int64_t s = (int64_t)blk * n + r;
            if (better(j, j->part_best[s], best)) {
                best = j->part_best[s];
                idx = j->part_idx[s];
                ties = j->part_ties[s];
            } else if (j->part_best[s] == best) {
                ties += j->part_ties[s];
            }
        }
        o->best_score[r] = best;
        o->best_profile[r] = idx;
        if (o->num_tied) o->num_tied[r] = ties;
    }
}

DPA_API dpa_status dpa_papara_score(dpa_context *ctx, const dpa_papara_batch *batch,
                                    const dpa_papara_params *params,
                                    const dpa_papara_output *output, dpa_papara_stats *stats)
{
    if (!ctx) return dpa_fail(DPA_ERR_NULL_ARG, "dpa_papara_score: ctx is NULL");
    dpa_papara_params defaults;
    if (!params) {
        dpa_papara_params_init(&defaults);
        params = &defaults;
    }
    dpa_status st = dpa_papara_validate(batch, params);
    if (st) return st;
    if (batch->num_reads > 0 && batch->num_profiles == 0)
        return dpa_fail(DPA_ERR_INVALID_ARG, "dpa_papara_score: %d reads but no profiles",
                        batch->num_reads);
    if (batch->num_reads > 0 && (!output || !output->best_score || !output->best_profile))
        return dpa_fail(DPA_ERR_NULL_ARG,
                        "dpa_papara_score: output, best_score or best_profile is NULL");
    papara_job job;
    memset(&job, 0, sizeof job);
    job.batch = batch;
    job.params = params;
    dpa_papara_select(ctx->cfg.isa_mask, &job.ops);
    dpa_sched_call call = { 0, 0, params->backend, job.ops.isa };
    job.lowest_wins = params->score_model == DPA_PAPARA_SCORE_PAPER2012;
    job.width = job.ops.block ? job.ops.width : SCALAR_GROUP;
    if (stats) {
        memset(stats, 0, sizeof *stats);
        stats->isa = job.ops.isa;
    }
    const int64_t n = batch->num_reads;
    dpa_sched_result res;
    if (n == 0) return dpa_sched_run(ctx, &papara_workload, &job, &call, &res); /* GPU check */

    job.num_blocks = (batch->num_profiles + job.width - 1) / job.width;
    job.scores = output->scores;
    const size_t parts = (size_t)job.num_blocks * (size_t)n;
    job.part_best = malloc(sizeof(int32_t) * parts);
    job.part_idx = malloc(sizeof(int32_t) * parts);
    job.part_ties = malloc(sizeof(int32_t) * parts);
    if (job.ops.block) {
        const size_t cells = (size_t)job.num_blocks * (size_t)batch->num_sites * job.width;
        job.pre = malloc(sizeof(int16_t) * DPA_PAPARA_PRE * cells);
    }
    if (!job.part_best || !job.part_idx || !job.part_ties ||
        (job.ops.block && !job.pre)) {
        st = dpa_fail(DPA_ERR_OUT_OF_MEMORY, "papara: out of memory for %d profiles x %lld "
                      "sites", batch->num_profiles, (long long)batch->num_sites);
        goto cleanup;
    }
    if (job.ops.block) lay_out_blocks(&job);
    call.tasks = (int64_t)job.num_blocks * n;
    for (int64_t t = 0; t < call.tasks; t++) call.total_cost += papara_cost(&job, t);
    if ((st = dpa_sched_run(ctx, &papara_workload, &job, &call, &res)) != DPA_OK) goto cleanup;
    reduce(&job, output);
    if (stats) {
        int64_t cells = 0;
        for (int32_t r = 0; r < batch->num_reads; r++) cells += batch->read_lengths[r];
        stats->cells = cells * batch->num_sites * batch->num_profiles;
        stats->gpu_tasks = res.gpu_tasks;
    }
cleanup:
    free(job.part_best);
    free(job.part_idx);
    free(job.part_ties);
    free(job.pre);
    return st;
}
