/*
 * sw_run.c — dpa_sw_compute: validate, sort the pairs by cells, pick a backend, run them on
 * the context's thread pool and/or the GPUs, pack the CIGARs in pair order.
 *
 * Each pair writes its CIGAR into a private slot of the caller's buffer (at the prefix sum
 * of dpa_sw_cigar_max), so workers and devices never coordinate; afterwards one forward pass
 * packs the CIGARs (a CIGAR never starts after its slot, so memmove forward is safe).
 *
 * Memory: a pair needs ref_len * alt_len traceback bytes on the CPU. Pairs above BIG_CELLS
 * run one at a time on the calling thread (at most DPA_SW_MAX_CELLS bytes at once); the rest
 * run in chunks on the pool, each worker holding at most BIG_CELLS bytes of scratch.
 *
 * Backends (docs/sw-cuda.md): the sorted pairs are cut into chunks of ~equal cells and put in
 * one two-ended queue, most expensive first. GPU feeders (SW_GPU_FEEDERS per device, each a
 * job of the pool, so their host packing and copies overlap the other feeders' kernels) take
 * units of many chunks from the head and call the CUDA backend's sw entry; in HYBRID, CPU
 * workers take single chunks from the tail (never a big pair). A GPU failure logs one warning
 * per context, stops that feeder and queues its unit for the CPU; whatever is left at the end
 * runs on the CPU with the same kernels as CPU-only, so results never depend on the backend.
 * AUTO picks the GPU only when the cost model (cost_model.c) says it wins for the whole batch.
 *
 * Kernel choice on the CPU: dpa_sw_select() on the context's allowed ISA mask: AVX-512, else
 * AVX2, else scalar (byte-identical results).
 */
#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "common/status.h"
#include "cpu/sw/sw.h"
#include "engine/context.h"
#include "engine/cost_model.h"
#include "engine/sort.h"

#define BIG_CELLS ((int64_t)1 << 26)
#define MAX_GPUS 64
/* Concurrent sw calls per device: at most one per big slot of the CUDA pool (device_pool.cu).
 * DPACCEL_SW_GPU_FEEDERS=1..4 overrides the default (measurements; docs/sw-cuda.md). */
#define SW_GPU_FEEDERS 4

static int32_t sw_gpu_feeders(void)
{
    const char *e = getenv("DPACCEL_SW_GPU_FEEDERS");
    const int v = e ? atoi(e) : 0;
    return v >= 1 && v <= SW_GPU_FEEDERS ? v : SW_GPU_FEEDERS;
}

typedef struct chunk { int64_t first, count, cells; int big; } chunk;

/* DPACCEL_SW_TIMING=1: the call's phases and each GPU unit's start and end on stderr
 * (measurements of the engine's own overhead; docs/sw-cuda.md). */
static int sw_timing(void)
{
    const char *e = getenv("DPACCEL_SW_TIMING");
    return e && e[0] == '1';
}

static double ms_now(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return 1e3 * (double)t.tv_sec + 1e-6 * (double)t.tv_nsec;
}

typedef struct run {
    dpa_context *ctx;
    const dpa_sw_ops *ops;
    const dpa_sw_batch *batch;
    const dpa_sw_params *params;
    const dpa_sw_out *out;
    const int32_t *pairs;
    const chunk *chunks;
    /* queue of chunks [head, tail): GPUs take from the head, CPU workers from the tail */
    pthread_mutex_t lock;
    int64_t head, tail;
    int64_t gpu_unit_cells;
    int64_t *left;
    int timing;
    double t_start; /* ms_now() when the pool started (timing) */     /* chunks the GPUs gave back (failures), then the CPU pass's list */
    int64_t nleft;
    const int32_t *devices;
    int32_t nfeeders;  /* jobs [0, nfeeders) feed GPUs, the rest are CPU workers */
    int32_t ndev;      /* GPUs fed: feeder f feeds devices[f % ndev] */
    atomic_llong exact, gpu_pairs;
    atomic_int status; /* first CPU error */
} run;

static void run_chunk(run *R, int64_t c)
{
    int64_t exact = 0;
    dpa_status st = R->ops->compute(R->batch, R->params, R->pairs + R->chunks[c].first,
                                    R->chunks[c].count, R->out, &exact);
    atomic_fetch_add(&R->exact, exact);
    if (st != DPA_OK) {
        int expected = DPA_OK;
        atomic_compare_exchange_strong(&R->status, &expected, (int)st);
    }
}

static void left_job(void *arg, int64_t index)
{
    run *R = arg;
    run_chunk(R, R->left[index]);
}

static void gpu_feeder(run *R, int32_t device)
{
    dpa_cuda *cuda = &R->ctx->cuda;
    for (;;) {
        pthread_mutex_lock(&R->lock);
        int64_t first = R->head, last = R->head, cells = 0;
        while (last < R->tail && cells < R->gpu_unit_cells) cells += R->chunks[last++].cells;
        R->head = last;
        pthread_mutex_unlock(&R->lock);
        if (first == last) return;

        const int64_t t0 = R->chunks[first].first;
        const int64_t nt = R->chunks[last - 1].first + R->chunks[last - 1].count - t0;
        int64_t exact = 0;
        char err[400] = "";
        const double u0 = R->timing ? ms_now() : 0;
        dpa_status st = cuda->ops->sw(cuda->backend, device, R->batch, R->params, R->pairs + t0,
                                      nt, R->out->cigars, R->out->slots, R->out->cigar_lengths,
                                      R->out->alignment_offsets, &exact, err, sizeof err);
        if (R->timing)
            fprintf(stderr, "dpa_sw_compute: gpu %d unit of %lld pairs: %.2f -> %.2f ms\n", device,
                    (long long)nt, u0 - R->t_start, ms_now() - R->t_start);
        if (st == DPA_OK) {
            atomic_fetch_add(&R->exact, exact);
            atomic_fetch_add(&R->gpu_pairs, nt);
            continue;
        }
        /* Faults degrade, never crash: the unit goes back to the CPU, identically. */
        if (__atomic_exchange_n(&R->ctx->warned_gpu_fallback, 1, __ATOMIC_ACQ_REL) == 0)
            dpa_log(R->ctx, DPA_LOG_WARN,
                    "GPU %d failed in Smith-Waterman (%s: %s); recomputing on the CPU (logged "
                    "once per context)", device, dpa_status_name(st), err);
        pthread_mutex_lock(&R->lock);
        for (int64_t c = first; c < last; c++) R->left[R->nleft++] = c;
        pthread_mutex_unlock(&R->lock);
        return;
    }
}

static void cpu_worker(run *R)
{
    for (;;) {
        int64_t c = -1;
        pthread_mutex_lock(&R->lock);
        if (R->tail > R->head && !R->chunks[R->tail - 1].big) c = --R->tail;
        pthread_mutex_unlock(&R->lock);
        if (c < 0 || atomic_load(&R->status) != DPA_OK) return;
        run_chunk(R, c);
    }
}

static void mixed_job(void *arg, int64_t index)
{
    run *R = arg;
    if (index < R->nfeeders)
        gpu_feeder(R, R->devices[index % R->ndev]);
    else
        cpu_worker(R);
}

/* Runs the chunks in R->left[0..nleft) on the CPU: big pairs one at a time on this thread,
 * the rest on the pool. */
static void cpu_pass(run *R)
{
    int64_t nsmall = 0;
    for (int64_t k = 0; k < R->nleft; k++) {
        const int64_t c = R->left[k];
        if (R->chunks[c].big) {
            if (atomic_load(&R->status) == DPA_OK) run_chunk(R, c);
        } else {
            R->left[nsmall++] = c;
        }
    }
    R->nleft = nsmall;
    if (nsmall == 0 || atomic_load(&R->status) != DPA_OK) return;
    if (nsmall == 1)
        left_job(R, 0);
    else
        dpa_pool_run(R->ctx->pool, nsmall, left_job, R);
}

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

DPA_API dpa_status dpa_sw_compute(dpa_context *ctx, const dpa_sw_batch *batch,
                                  const dpa_sw_params *params, const dpa_sw_output *output,
                                  dpa_sw_stats *stats)
{
    if (!ctx) return dpa_fail(DPA_ERR_NULL_ARG, "dpa_sw_compute: ctx is NULL");
    const int timing = sw_timing();
    double tm[6] = { 0 };
    if (timing) tm[0] = ms_now();
    dpa_sw_params defaults;
    if (!params) {
        dpa_sw_params_init(&defaults);
        params = &defaults;
    }
    dpa_status st = dpa_sw_validate(batch, params);
    if (st) return st;
    int64_t capacity;
    if ((st = dpa_sw_cigar_capacity(batch, &capacity))) return st;
    const int32_t n = batch->num_pairs;
    if (n > 0) {
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
    }
    dpa_sw_ops ops;
    dpa_sw_select(ctx->cfg.isa_mask, &ops);
    if (stats) {
        memset(stats, 0, sizeof *stats);
        stats->isa = ops.isa;
    }
    /* backend for this call */
    dpa_backend backend = params->backend >= 0 ? (dpa_backend)params->backend : ctx->cfg.backend;
    int32_t devices[MAX_GPUS];
    int32_t ndev = ctx->cuda.devices > 0 ? dpa_cuda_usable_devices(&ctx->cuda, devices, MAX_GPUS) : 0;
    if (backend == DPA_BACKEND_GPU && ndev == 0)
        return dpa_fail(DPA_ERR_NO_DEVICE, "sw: backend gpu requested but %s",
                        ctx->cuda.devices > 0 ? "every GPU was retired after a fault"
                                              : ctx->cuda.reason);
    if (n == 0) return DPA_OK;

    if (timing) tm[1] = ms_now();
    dpa_sort_item *k = malloc(sizeof *k * (size_t)n);
    int32_t *pairs = malloc(sizeof *pairs * (size_t)n);
    chunk *chunks = malloc(sizeof *chunks * (size_t)n);
    int64_t *left = malloc(sizeof *left * (size_t)n);
    if (!k || !pairs || !chunks || !left) {
        st = dpa_fail(DPA_ERR_OUT_OF_MEMORY, "sw: out of memory for %d pairs", n);
        goto cleanup;
    }
    /* slots: pair i writes at the prefix sum of the bounds; cigar_offsets holds them until
     * the packing pass overwrites them with the packed positions */
    int64_t *slots = output->cigar_offsets, pos = 0, cells = 0;
    for (int32_t i = 0; i < n; i++) {
        slots[i] = pos;
        pos += dpa_sw_cigar_max(batch->ref_lengths[i], batch->alt_lengths[i]);
        k[i].key = (uint64_t)batch->ref_lengths[i] * (uint64_t)batch->alt_lengths[i];
        k[i].index = i;
        cells += (int64_t)k[i].key;
    }
    /* chunks is free until the chunking below: it holds the radix sort's second buffer */
    dpa_sort_desc(k, (dpa_sort_item *)(void *)chunks, n);
    for (int32_t i = 0; i < n; i++) pairs[i] = (int32_t)k[i].index;

    if (backend == DPA_BACKEND_AUTO)
        backend = ndev > 0 && dpa_cost_sw_gpu_seconds(cells, n, ndev) <
                                  dpa_cost_sw_cpu_seconds(cells, ctx->cfg.threads, ops.isa)
                      ? DPA_BACKEND_GPU : DPA_BACKEND_CPU;
    if (backend == DPA_BACKEND_CPU || (backend == DPA_BACKEND_HYBRID && ndev == 0)) ndev = 0;

    /* chunks of ~equal cells, most expensive first; a big pair is a chunk of its own */
    int64_t target = cells / ((int64_t)ctx->cfg.threads * 8);
    if (target < 100000) target = 100000;
    int64_t nchunks = 0;
    for (int32_t i = 0; i < n;) {
        chunk *c = &chunks[nchunks++];
        c->first = i;
        c->cells = 0;
        c->big = k[i].key > (uint64_t)BIG_CELLS;
        if (c->big) {
            c->cells = (int64_t)k[i++].key;
        } else {
            while (i < n && c->cells < target) c->cells += (int64_t)k[i++].key;
        }
        c->count = i - c->first;
    }

    const dpa_sw_out out = { output->cigars, slots, output->cigar_lengths,
                             output->alignment_offsets };
    run R;
    memset(&R, 0, sizeof R);
    R.ctx = ctx;
    R.ops = &ops;
    R.batch = batch;
    R.params = params;
    R.out = &out;
    R.pairs = pairs;
    R.chunks = chunks;
    R.left = left;
    R.devices = devices;
    R.head = 0;
    R.tail = nchunks;
    R.timing = timing;
    if (timing) R.t_start = tm[2] = ms_now();
    atomic_init(&R.exact, 0);
    atomic_init(&R.gpu_pairs, 0);
    atomic_init(&R.status, DPA_OK);
    if (ndev > 0) {
        const int hybrid = backend == DPA_BACKEND_HYBRID;
        R.nfeeders = ndev * sw_gpu_feeders();
        R.ndev = ndev;
        /* GPU-only: two units per feeder; HYBRID: smaller units so the CPU's share adapts */
        R.gpu_unit_cells = cells / ((int64_t)R.nfeeders * (hybrid ? 8 : 2)) + 1;
        if (R.gpu_unit_cells < ((int64_t)1 << 26)) R.gpu_unit_cells = (int64_t)1 << 26;
        pthread_mutex_init(&R.lock, NULL);
        dpa_pool_run(ctx->pool, R.nfeeders + (hybrid ? ctx->cfg.threads : 0), mixed_job, &R);
        pthread_mutex_destroy(&R.lock);
    }
    if (timing) tm[3] = ms_now();
    /* the CPU pass: everything (CPU-only), or what the GPUs gave back or left */
    for (int64_t c = R.head; c < R.tail; c++) R.left[R.nleft++] = c;
    cpu_pass(&R);
    if (timing) tm[4] = ms_now();
    st = (dpa_status)atomic_load(&R.status);
    if (st != DPA_OK) {
        st = dpa_fail(st, "sw: a kernel failed (%s)", dpa_status_name(st));
        goto cleanup;
    }

    /* pack in pair order */
    int64_t packed = 0;
    for (int32_t i = 0; i < n; i++) {
        const int32_t len = output->cigar_lengths[i];
        if (packed != slots[i]) memmove(output->cigars + packed, output->cigars + slots[i], (size_t)len);
        output->cigar_offsets[i] = packed;
        packed += len;
    }
    if (timing)
        fprintf(stderr, "dpa_sw_compute: %d pairs: %.2f ms = checks %.2f + slots/sort/chunks %.2f + "
                "gpu feeders %.2f + cpu %.2f + packing %.2f\n", n, ms_now() - tm[0],
                tm[1] - tm[0], tm[2] - tm[1], tm[3] - tm[2], tm[4] - tm[3], ms_now() - tm[4]);
    if (stats) {
        stats->pairs = n;
        stats->cells = cells;
        stats->exact_matches = atomic_load(&R.exact);
        stats->cigar_bytes = packed;
        stats->gpu_pairs = atomic_load(&R.gpu_pairs);
    }
cleanup:
    free(k);
    free(pairs);
    free(chunks);
    free(left);
    return st;
}
