/*
 * distance_workload.c — dpa_distance_counts: check the arguments, validate the batch, build
 * the bit planes of the samples the call touches, cut the pairs into square tiles (one task
 * each, cost = pairs x plane words), and hand the job to the scheduler (scheduler.h).
 *
 * Each tile writes its pairs' counts straight into the caller's output at the position the
 * layout (dpaccel.h) gives them, so tiles never coordinate. The planes are built once per call,
 * before the tiles, as a scheduler job of their own (ranges of 64 samples on the context's
 * threads): O(N x M) against the O(N^2 x M) of the counts, but on one thread it was a fifth
 * of a 2,000-sample call, and would be more with many threads.
 *
 * GPU: dist_gpu hands a unit of tiles and the (host) planes to the CUDA library's distance
 * entry (kernels/src/distance_launch.cu), which writes the same counts into the same places;
 * the scheduler splits tiles between GPUs and CPU threads (HYBRID) and recomputes a failed
 * unit on the CPU. When only GPUs run the call (backend GPU), the host builds no planes: each
 * device builds its own from the caller's .bed rows (distance_launch.cu), and a unit that
 * falls back to the CPU after a GPU failure builds the host planes then, once, on the thread
 * that needs them first (slow, but only on that path). Otherwise (CPU, HYBRID, AUTO) the
 * planes are built on the context's threads before the tiles and the GPUs copy them in.
 */
#include <pthread.h>
#include <stdlib.h>
#include <string.h>

#include "common/status.h"
#include "cpu/distance/distance.h"
#include "engine/context.h"
#include "engine/cost_model.h"
#include "engine/scheduler.h"
#include "engine/sort.h"

#define DEFAULT_BLOCK 64
#define MIN_BLOCK 8
#define MAX_BLOCK 4096

typedef struct dist_tile { int32_t r0, r1, c0, c1; } dist_tile;

typedef struct dist_job {
    dpa_dist_ops kernel;
    dpa_dist_planes planes;
    int upper;              /* the triangle: only c > r */
    dpa_distance_tile area; /* what the caller asked for (the triangle: all x all) */
    int32_t n;              /* samples */
    uint32_t *out;
    int64_t words;
    dist_tile *tiles;       /* in the scheduler's order */
    dpa_sort_item *keys;
    /* device_planes: GPU-only call, planes.bits stays NULL until a CPU fallback needs it
     * (built under planes_mu); the GPUs build theirs from the batch */
    int device_planes;
    const dpa_genotype_batch *batch;
    int64_t used;
    pthread_mutex_t planes_mu;
} dist_job;

/* The plane transposition as its own scheduler job: tasks are ranges of PLANE_SAMPLES samples
 * (aligned to 4, so no two share a .bed byte column), all of equal cost. */
#define PLANE_SAMPLES 64

typedef struct planes_job {
    const dpa_genotype_batch *batch;
    int64_t used;
    dpa_dist_planes *planes;
} planes_job;

static int64_t planes_cost(const void *arg, int64_t i)
{
    const planes_job *j = arg;
    (void)i;
    return PLANE_SAMPLES * (j->used / 64 + 1);
}

/* cost = samples x plane words; ~0.44 s for 2,000 x 1,516 words on one thread here */
static double planes_cpu_seconds(int64_t cost, int64_t n, int32_t threads, dpa_isa isa)
{
    (void)n, (void)isa;
    return (double)cost / (7e6 * (threads > 0 ? threads : 1));
}

static dpa_status planes_cpu(void *arg, int64_t first, int64_t count, int64_t *unused)
{
    (void)unused;
    planes_job *j = arg;
    const int32_t lo = j->planes->first, hi = j->planes->first + j->planes->count;
    const int32_t base = lo / PLANE_SAMPLES * PLANE_SAMPLES;
    for (int64_t t = first; t < first + count; t++) {
        int32_t s0 = base + (int32_t)t * PLANE_SAMPLES, s1 = s0 + PLANE_SAMPLES;
        if (s0 < lo) s0 = lo;
        if (s1 > hi) s1 = hi;
        if (s0 < s1) dpa_dist_planes_fill(j->batch, j->used, j->planes, s0, s1);
    }
    return DPA_OK;
}

/* No CUDA entry for the transposition (cuda_id 0 has none): it always runs on the CPU. */
static const dpa_workload planes_workload = {
    .name = "distance",
    .cuda_id = (dpa_cuda_workload_id)0,
    .sort = NULL,
    .cost = planes_cost,
    .cpu_seconds = planes_cpu_seconds,
    .gpu_seconds = dpa_cost_distance_gpu_seconds,
    .chunks_per_thread = 4,
    .chunk_min_cost = (int64_t)1 << 16,
    .whole_below_cost = (int64_t)1 << 18,
    .chunk_multiple = 1,
    .solo_cost = INT64_MAX,
    .split_min_cost = INT64_MAX,
    .feeders_per_gpu = 1,
    .units_per_feeder = 1,
    .hybrid_units_per_feeder = 1,
    .unit_min_cost = INT64_MAX,
    .cpu = planes_cpu,
    .gpu = NULL,
};

/* Fills the planes on the context's threads. */
static dpa_status build_planes(dpa_context *ctx, const dpa_genotype_batch *b, int64_t used,
                               int32_t lo, int32_t hi, int32_t backend, dpa_dist_planes *p)
{
    dpa_status st = dpa_dist_planes_alloc(used, lo, hi - lo, p);
    if (st) return st;
    planes_job j = { b, used, p };
    const int64_t tasks = (hi - 1) / PLANE_SAMPLES - lo / PLANE_SAMPLES + 1;
    (void)backend; /* the counts' backend; the transposition is CPU work (planes_workload) */
    dpa_sched_call call = { tasks, tasks * PLANE_SAMPLES * (used / 64 + 1), DPA_BACKEND_CPU,
                            DPA_ISA_SCALAR };
    dpa_sched_result res;
    return dpa_sched_run(ctx, &planes_workload, &j, &call, &res);
}

static int64_t tile_pairs(const dist_job *j, const dist_tile *t)
{
    if (!j->upper) return (int64_t)(t->r1 - t->r0) * (t->c1 - t->c0);
    int64_t p = 0;
    for (int32_t r = t->r0; r < t->r1; r++) {
        const int32_t cs = t->c0 > r + 1 ? t->c0 : r + 1;
        if (cs < t->c1) p += t->c1 - cs;
    }
    return p;
}

static int64_t tile_cost(const dist_job *j, const dist_tile *t)
{
    return tile_pairs(j, t) * (j->words > 0 ? j->words : 1);
}

static dpa_status dist_sort(void *arg, int64_t n)
{
    dist_job *j = arg;
    dpa_sort_item *tmp = malloc(sizeof *tmp * (size_t)n);
    dist_tile *t = malloc(sizeof *t * (size_t)n);
    if (!tmp || !t) {
        free(tmp), free(t);
        return dpa_fail(DPA_ERR_OUT_OF_MEMORY, "distance: out of memory sorting %lld tiles",
                        (long long)n);
    }
    dpa_sort_desc(j->keys, tmp, n);
    for (int64_t i = 0; i < n; i++) t[i] = j->tiles[j->keys[i].index];
    memcpy(j->tiles, t, sizeof *t * (size_t)n);
    for (int64_t i = 0; i < n; i++) j->keys[i].index = i;
    free(tmp), free(t);
    return DPA_OK;
}

static int64_t dist_cost(const void *arg, int64_t i)
{
    const dist_job *j = arg;
    return (int64_t)j->keys[i].key;
}

static double dist_cpu_seconds(int64_t cost, int64_t n, int32_t threads, dpa_isa isa)
{
    (void)n;
    return dpa_cost_distance_cpu_seconds(cost, threads, isa);
}

/* Output position (in pairs) of pair (r, 0) for each row of a tile: out + 7 * (base + c). */
static void row_bases(const dist_job *j, int32_t r0, int32_t r1, int64_t *base)
{
    const int64_t n = j->n;
    for (int32_t r = r0; r < r1; r++)
        base[r - r0] = j->upper ? (int64_t)r * n - (int64_t)r * (r + 1) / 2 - r - 1
                                : (int64_t)(r - j->area.row0) * (j->area.col1 - j->area.col0) - j->area.col0;
}

/* The host planes of a GPU-only call whose unit fell back to the CPU: built once. */
static dpa_status host_planes(dist_job *j)
{
    if (!j->device_planes) return DPA_OK;
    dpa_status st = DPA_OK;
    pthread_mutex_lock(&j->planes_mu);
    if (!j->planes.bits && j->words > 0) {
        dpa_dist_planes p;
        st = dpa_dist_planes_build(j->batch, j->used, j->planes.first, j->planes.count, &p);
        if (st == DPA_OK) j->planes = p;
    }
    pthread_mutex_unlock(&j->planes_mu);
    return st;
}

static dpa_status dist_cpu(void *arg, int64_t first, int64_t count, int64_t *unused)
{
    (void)unused;
    dist_job *j = arg;
    int64_t base[MAX_BLOCK];
    const dpa_status st = host_planes(j);
    if (st != DPA_OK) return st;
    for (int64_t i = first; i < first + count; i++) {
        const dist_tile *t = &j->tiles[i];
        row_bases(j, t->r0, t->r1, base);
        j->kernel.tile(&j->planes, t->r0, t->r1, t->c0, t->c1, j->upper, base, j->out);
    }
    return DPA_OK;
}

/* Tiles [first, first + count) of the order on one GPU; *pairs = the pairs it wrote. */
static dpa_status dist_gpu(void *arg, const void *entry, dpa_cuda_backend *backend,
                           int32_t device, int64_t first, int64_t count, int64_t *pairs,
                           char *err, size_t err_len)
{
    dist_job *j = arg;
    const dpa_cuda_distance_entry *e = entry;
    dpa_cuda_dist_planes planes = { j->planes.bits, j->planes.first, j->planes.count,
                                    j->planes.words, NULL, 0, 0, NULL };
    if (j->device_planes) {
        pthread_mutex_lock(&j->planes_mu); /* a CPU fallback may be building host planes */
        planes.bits = j->planes.bits;
        pthread_mutex_unlock(&j->planes_mu);
        if (!planes.bits) {
            planes.bed = j->batch->genotypes;
            planes.row_bytes = j->batch->row_bytes;
            planes.num_variants = j->batch->num_variants;
            planes.variant_use = j->batch->variant_use;
        }
    }
    const dpa_cuda_dist_layout layout = { j->upper, j->n, j->area.row0, j->area.col0,
                                          j->area.col1 - j->area.col0 };
    /* dist_tile and dpa_cuda_dist_tile are the same four int32 (checked below) */
    return e->run(backend, device, &planes, (const dpa_cuda_dist_tile *)(const void *)(j->tiles + first),
                  count, &layout, j->out, pairs, err, err_len);
}
_Static_assert(sizeof(dist_tile) == sizeof(dpa_cuda_dist_tile), "tile layouts differ");

static const dpa_workload distance_workload = {
    .name = "distance",
    .title = "genotype distance",
    .cuda_id = DPA_CUDA_WORKLOAD_DISTANCE,
    .sort = dist_sort,
    .sort_for_one_gpu = 1,
    .cost = dist_cost,
    .cpu_seconds = dist_cpu_seconds,
    .gpu_seconds = dpa_cost_distance_gpu_seconds,
    .chunks_per_thread = 4,
    .chunk_min_cost = (int64_t)1 << 20,
    .whole_below_cost = (int64_t)1 << 22,
    .chunk_multiple = 1,
    .solo_cost = INT64_MAX,
    .split_min_cost = (int64_t)1 << 34,
    .feeders_per_gpu = 1,
    .units_per_feeder = 2,
    /* HYBRID: the cost model's split, and GPU-only under a 5% predicted CPU share. Eight
     * units a feeder ran a 20,000 x 100,000 call in 1.3-2.5 s on an H200 where the GPU alone
     * took 0.18 (each unit of ~6 k tiles 0.27-0.68 s: the planes go over per unit) while
     * the CPU's predicted share was 0.1% */
    .hybrid_units_per_feeder = 0,
    .hybrid_min_cpu_share = 0.05,
    .unit_min_cost = (int64_t)1 << 30,
    .cpu = dist_cpu,
    .gpu = dist_gpu,
};

DPA_API void dpa_distance_params_init(dpa_distance_params *p)
{
    if (!p) return;
    p->backend = -1;
    p->block = 0;
}

static dpa_status check_params(const dpa_distance_params *p)
{
    if (p->backend < -1 || p->backend > DPA_BACKEND_HYBRID)
        return dpa_fail(DPA_ERR_INVALID_ARG, "distance params: backend = %d, must be -1..3",
                        p->backend);
    if (p->block != 0 && (p->block < MIN_BLOCK || p->block > MAX_BLOCK))
        return dpa_fail(DPA_ERR_INVALID_ARG, "distance params: block = %d, must be 0 or %d..%d",
                        p->block, MIN_BLOCK, MAX_BLOCK);
    return DPA_OK;
}

/* Square tiles of side b over the area; in the triangle only those touching c > r. */
static int64_t make_tiles(dist_job *j, int32_t b, dist_tile *tiles)
{
    int64_t k = 0;
    const dpa_distance_tile *a = &j->area;
    for (int32_t r = a->row0; r < a->row1; r += b) {
        const int32_t r1 = a->row1 - r < b ? a->row1 : r + b;
        for (int32_t c = j->upper ? r : a->col0; c < a->col1; c += b) {
            const int32_t c1 = a->col1 - c < b ? a->col1 : c + b;
            dist_tile t = { r, r1, c, c1 };
            if (tiles) tiles[k] = t;
            k++;
        }
    }
    return k;
}

DPA_API dpa_status dpa_distance_counts(dpa_context *ctx, const dpa_genotype_batch *batch,
                                       const dpa_distance_tile *tile,
                                       const dpa_distance_params *params, uint32_t *out,
                                       int64_t out_len, dpa_distance_stats *stats)
{
    if (!ctx) return dpa_fail(DPA_ERR_NULL_ARG, "dpa_distance_counts: ctx is NULL");
    dpa_distance_params defaults;
    if (!params) {
        dpa_distance_params_init(&defaults);
        params = &defaults;
    }
    int64_t used = 0, pairs = 0;
    dpa_status st = check_params(params);
    if (st || (st = dpa_dist_check_batch(batch, &used)) || (st = dpa_dist_check_tile(batch, tile)))
        return st;
    /* the batch and tile passed: the count without validating them a second time */
    pairs = tile ? (int64_t)(tile->row1 - tile->row0) * (tile->col1 - tile->col0)
                 : (int64_t)batch->num_samples * (batch->num_samples - 1) / 2;
    if (pairs > 0 && !out) return dpa_fail(DPA_ERR_NULL_ARG, "dpa_distance_counts: out is NULL");
    if (out_len < pairs * DPA_DISTANCE_COUNTS)
        return dpa_fail(DPA_ERR_INVALID_ARG, "dpa_distance_counts: out_len = %lld, the call "
                        "writes %lld pairs x %d = %lld uint32", (long long)out_len,
                        (long long)pairs, DPA_DISTANCE_COUNTS, (long long)pairs * DPA_DISTANCE_COUNTS);
    const int64_t words = dpa_dist_words(used);
    if (words > 0 && pairs > INT64_MAX / 4 / words)
        return dpa_fail(DPA_ERR_LIMIT, "distance: %lld pairs x %lld variants is beyond the "
                        "scheduler's int64 cost", (long long)pairs, (long long)used);

    dist_job job;
    memset(&job, 0, sizeof job);
    dpa_dist_select(ctx->cfg.isa_mask, &job.kernel);
    job.n = batch->num_samples;
    job.upper = tile == NULL;
    job.area = tile ? *tile : (dpa_distance_tile){ 0, batch->num_samples, 0, batch->num_samples };
    job.out = out;
    job.words = words;
    if (stats) {
        memset(stats, 0, sizeof *stats);
        stats->isa = job.kernel.isa;
    }
    const int32_t b = params->block ? params->block : DEFAULT_BLOCK;
    const int64_t ntiles = pairs > 0 ? make_tiles(&job, b, NULL) : 0;
    dpa_sched_call call = { ntiles, 0, params->backend, job.kernel.isa };
    dpa_sched_result res;
    if (ntiles == 0) { /* nothing to count; the scheduler still refuses a GPU-forced call */
        st = dpa_sched_run(ctx, &distance_workload, &job, &call, &res);
        goto done;
    }
    int gpu_only = params->backend == DPA_BACKEND_GPU ||
                         (params->backend < 0 && ctx->cfg.backend == DPA_BACKEND_GPU);
    if (gpu_only) {
        /* a GPU-forced call without a usable GPU fails before the planes are built */
        dpa_sched_call probe = { 0, 0, params->backend, job.kernel.isa };
        if ((st = dpa_sched_run(ctx, &distance_workload, &job, &probe, &res)) != DPA_OK) goto done;
    }
    /* planes of the samples the area touches */
    const int32_t lo = job.area.row0 < job.area.col0 ? job.area.row0 : job.area.col0;
    const int32_t hi = job.area.row1 > job.area.col1 ? job.area.row1 : job.area.col1;
    job.tiles = malloc(sizeof *job.tiles * (size_t)ntiles);
    job.keys = malloc(sizeof *job.keys * (size_t)ntiles);
    if (!job.tiles || !job.keys) {
        st = dpa_fail(DPA_ERR_OUT_OF_MEMORY, "distance: out of memory for %lld tiles",
                      (long long)ntiles);
        goto done;
    }
    make_tiles(&job, b, job.tiles);
    for (int64_t i = 0; i < ntiles; i++) {
        job.keys[i].key = (uint64_t)tile_cost(&job, &job.tiles[i]);
        job.keys[i].index = i;
        call.total_cost += (int64_t)job.keys[i].key;
    }
    /* AUTO and HYBRID calls that the cost model sends to the GPU alone (a 20,000-sample call
     * on an H200) get the GPU-only path too: host planes cost 0.3 s of a 0.5 s call there */
    dpa_backend chosen = DPA_BACKEND_CPU;
    if (!gpu_only && (st = dpa_sched_backend(ctx, &distance_workload, &call, &chosen)) != DPA_OK)
        goto done;
    if (chosen == DPA_BACKEND_GPU) {
        gpu_only = 1;
        call.backend = DPA_BACKEND_GPU;
    }
    if (gpu_only) {
        job.device_planes = 1;
        job.batch = batch;
        job.used = used;
        job.planes.first = lo, job.planes.count = hi - lo, job.planes.words = words;
        pthread_mutex_init(&job.planes_mu, NULL);
    } else if ((st = build_planes(ctx, batch, used, lo, hi, params->backend, &job.planes)) != DPA_OK)
        goto done;
    st = dpa_sched_run(ctx, &distance_workload, &job, &call, &res);
    if (job.device_planes) pthread_mutex_destroy(&job.planes_mu);
done:
    if (st == DPA_OK && stats) {
        stats->pairs = pairs;
        stats->variants_used = used;
        stats->variants_skipped = batch->num_variants - used;
        stats->pair_variants = pairs * used;
        stats->gpu_pairs = res.counter; /* only dist_gpu counts pairs */
    }
    dpa_dist_planes_free(&job.planes);
    free(job.tiles);
    free(job.keys);
    return st;
}
