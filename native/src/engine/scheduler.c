/* scheduler.c — see scheduler.h. */
#include <pthread.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>

#include "common/status.h"
#include "engine/context.h"
#include "engine/scheduler.h"
#include "engine/timing.h"

#define MAX_GPUS 64
#define MAX_FEEDERS_PER_GPU 4

typedef struct chunk {
    int64_t first, count; /* a range of the job's task order */
    int64_t cost;
    int solo;             /* one task above solo_cost: runs alone on the calling thread */
} chunk;

typedef struct run {
    dpa_context *ctx;
    const dpa_workload *w;
    void *job;
    const void *entry;    /* the workload's CUDA entry table */
    chunk *chunks;
    /* the queue [head, tail): GPU feeders take units from the head, CPU workers single
     * chunks from the tail; left holds the chunks failed GPU units gave back */
    pthread_mutex_t lock;
    int64_t head, tail;
    int64_t unit_cost;
    int64_t *left;
    int64_t nleft;
    const int32_t *devices;
    int32_t ndev;
    int32_t nfeeders;     /* feeder k feeds devices[k % ndev] */
    int timing;
    double t0;
    atomic_llong counter, gpu_tasks;
    atomic_int status;    /* first CPU kernel error */
    /* HYBRID: what the CPU workers weigh before taking a chunk (cpu_may_take). queued is
     * the cost in [head, tail) (under lock); the rest are measured as the call runs, the
     * cost model's rates standing in until the first measurement */
    int64_t queued;
    double start_ms;
    double model_cpu_rate, model_gpu_rate; /* cost a ms: one CPU thread; all the GPUs */
    atomic_llong cpu_cost_done, cpu_busy_us, gpu_cost_done;
} run;

/* ---- plan ------------------------------------------------------------------------- */

typedef struct plan {
    dpa_backend backend;
    int32_t devices[MAX_GPUS];
    int32_t ndev;
} plan;

/* commit = 0 only asks (dpa_sched_backend): the round-robin device counter is left alone */
static dpa_status choose_backend(dpa_context *ctx, const dpa_workload *w,
                                 const dpa_sched_call *call, plan *p, int commit)
{
    p->backend = call->backend >= 0 ? (dpa_backend)call->backend : ctx->cfg.backend;
    p->ndev = 0;
    const dpa_cuda_entry_header *entry = dpa_cuda_entry(&ctx->cuda, w->cuda_id);
    if (entry)
        p->ndev = dpa_cuda_usable_devices(&ctx->cuda, p->devices, MAX_GPUS);
    if (p->backend == DPA_BACKEND_GPU && p->ndev == 0)
        return dpa_fail(DPA_ERR_NO_DEVICE, "%s: backend gpu requested but %s", w->name,
                        ctx->cuda.devices == 0 ? ctx->cuda.reason
                        : !entry && (ctx->cuda.unverified >> w->cuda_id & 1u)
                            ? "its CUDA kernels have not yet passed their tests on a GPU "
                              "(DPACCEL_CUDA_UNVERIFIED=1 uses them)"
                        : !entry ? "the CUDA library has no kernels for this workload"
                                 : "every GPU was retired after a fault");
    if (call->tasks == 0) return DPA_OK;

    const int64_t cost = call->total_cost, n = call->tasks;
    const int32_t threads = ctx->cfg.threads;
    if (p->backend == DPA_BACKEND_AUTO)
        p->backend = p->ndev > 0 && w->gpu_seconds(cost, n, p->ndev) <
                                        w->cpu_seconds(cost, n, threads, call->isa)
                         ? DPA_BACKEND_GPU : DPA_BACKEND_CPU;
    if (p->backend == DPA_BACKEND_HYBRID && p->ndev == 0) p->backend = DPA_BACKEND_CPU;
    /* A batch too small to split usefully (a HaplotypeCaller region) gains nothing from CPU
     * workers beside a GPU that is faster on it: waking them and waiting for their chunks
     * made one PairHMM region per call 4x slower than GPU-only on the H100. */
    if (p->backend == DPA_BACKEND_HYBRID && cost < w->split_min_cost &&
        w->gpu_seconds(cost, n, 1) < w->cpu_seconds(cost, n, threads, call->isa))
        p->backend = DPA_BACKEND_GPU;
    const double floor = ctx->cfg.hybrid_min_cpu_pct >= 0 ? ctx->cfg.hybrid_min_cpu_pct / 100.0
                                                         : w->hybrid_min_cpu_share;
    if (p->backend == DPA_BACKEND_HYBRID && floor > 0) {
        /* the CPU's share when both sides finish together: its rate over the sum */
        const double tg = w->gpu_seconds(cost, n, p->ndev);
        const double tc = w->cpu_seconds(cost, n, threads, call->isa);
        if (tc > 0 && tg > 0 && tg / (tc + tg) < floor) p->backend = DPA_BACKEND_GPU;
    }
    if (p->backend == DPA_BACKEND_CPU) p->ndev = 0;
    /* A batch too small to keep several GPUs busy goes whole to one device, round-robin
     * across calls: concurrent callers then spread over the GPUs, and no call pays for
     * splitting and a second synchronisation. */
    if (commit && p->backend == DPA_BACKEND_GPU && p->ndev > 1 && cost < w->split_min_cost) {
        const unsigned k = __atomic_fetch_add(&ctx->next_gpu, 1u, __ATOMIC_RELAXED);
        p->devices[0] = p->devices[k % (unsigned)p->ndev];
        p->ndev = 1;
    }
    return DPA_OK;
}

dpa_status dpa_sched_backend(dpa_context *ctx, const dpa_workload *w, const dpa_sched_call *call,
                             dpa_backend *backend)
{
    plan p;
    const dpa_status st = choose_backend(ctx, w, call, &p, 0);
    *backend = p.backend;
    return st;
}

/* Chunks of ~target cost in multiples of chunk_multiple tasks; a task above solo_cost is
 * a chunk of its own. */
static int64_t make_chunks(const dpa_workload *w, const void *job, int64_t n, int64_t target,
                           chunk *chunks)
{
    int64_t c = 0, i = 0;
    const int64_t multiple = w->chunk_multiple > 1 ? w->chunk_multiple : 1;
    int64_t next = n > 0 ? w->cost(job, 0) : 0; /* the cost of task i */
    while (i < n) {
        chunk *ch = &chunks[c++];
        ch->first = i;
        ch->cost = 0;
        ch->solo = next > w->solo_cost;
        do {
            ch->cost += next;
            i++;
            next = i < n ? w->cost(job, i) : 0;
        } while (!ch->solo && i < n && !(next > w->solo_cost) &&
                 (ch->cost < target || (i - ch->first) % multiple != 0));
        ch->count = i - ch->first;
    }
    return c;
}

/* In HYBRID a CPU worker's last chunk ends the call when the GPUs are done first, so a
 * chunk is also kept to an eighth of the GPUs' estimated time for the whole call on one
 * thread (measured, X-drop on an H100 host: chunks of 1/128 of the call took ~0.5 s on one
 * thread against 0.33 s for the GPU alone; HYBRID ran 0.55 s). */
static int64_t chunk_target(const dpa_workload *w, const dpa_sched_call *call, int32_t threads,
                            int32_t hybrid_devices)
{
    const int64_t total = call->total_cost;
    if (total < w->whole_below_cost) return total;
    int64_t target = total / ((int64_t)threads * w->chunks_per_thread);
    if (hybrid_devices > 0) {
        const double tg = w->gpu_seconds(total, call->tasks, hybrid_devices);
        const double tc1 = w->cpu_seconds(total, call->tasks, 1, call->isa);
        if (tc1 > 0 && tg > 0) {
            const double cap = (double)total * (tg / 8.0) / tc1;
            if (cap < (double)target) target = (int64_t)cap;
        }
    }
    return target < w->chunk_min_cost ? w->chunk_min_cost : target;
}

static int32_t feeders_per_gpu(const dpa_context *ctx, const dpa_workload *w)
{
    const int32_t f = ctx->cfg.gpu_feeders > 0 ? ctx->cfg.gpu_feeders : w->feeders_per_gpu;
    return f < 1 ? 1 : f > MAX_FEEDERS_PER_GPU ? MAX_FEEDERS_PER_GPU : f;
}

static int64_t unit_cost(const dpa_context *ctx, const dpa_workload *w, const dpa_sched_call *call,
                         int hybrid, int32_t ndev, int32_t nfeeders)
{
    const int64_t total = call->total_cost;
    const int64_t min_cost = ctx->cfg.gpu_unit_min_cost >= 0 ? ctx->cfg.gpu_unit_min_cost
                                                             : w->unit_min_cost;
    if (hybrid && w->hybrid_units_per_feeder == 0) {
        /* the cost model's GPU share cut into one unit per feeder: each feeder makes one
         * round trip while the CPU workers take the cheap end, and a device's feeders
         * overlap one unit's host work with another's kernels, as without HYBRID; a GPU
         * that finishes first comes back for what is left. Never below unit_min_cost, so a
         * HaplotypeCaller region stays one unit (a fixed quarter per unit made it four
         * serial GPU round trips). One unit per device left the GPU's share of a 60,000-pair
         * PairHMM call on one feeder: 6.1-7.2 ms on an H200 where GPU alone took 3.2. */
        const double tg = w->gpu_seconds(total, call->tasks, ndev);
        const double tc = w->cpu_seconds(total, call->tasks, ctx->cfg.threads, call->isa);
        const int64_t unit = (int64_t)((double)total * (tc / (tc + tg)) / nfeeders) + 1;
        return unit < min_cost ? min_cost : unit;
    }
    int32_t per = hybrid ? w->hybrid_units_per_feeder : w->units_per_feeder;
    if (ctx->cfg.gpu_units_per_feeder > 0) per = ctx->cfg.gpu_units_per_feeder;
    /* as many equal units as there are feeder turns, but none below the minimum: a call of
     * 1.03 minimums is one unit, not a full one and a sliver (a PairHMM call of 25.7 M cells
     * cut at 25 M ran ~25% slower on an H200 than whole) */
    int64_t units = (int64_t)nfeeders * (per > 0 ? per : 1);
    if (min_cost > 0 && total / min_cost < units) units = total / min_cost;
    if (units < 1) units = 1;
    return total / units + 1;
}

/* ---- CPU side ---------------------------------------------------------------------- */

static void run_chunk(run *R, int64_t c)
{
    int64_t counter = 0;
    dpa_status st = R->w->cpu(R->job, R->chunks[c].first, R->chunks[c].count, &counter);
    atomic_fetch_add(&R->counter, counter);
    if (st != DPA_OK) {
        int expected = DPA_OK;
        atomic_compare_exchange_strong(&R->status, &expected, (int)st);
    }
}

/* Whether a CPU worker should take chunk c (under lock): only if one thread would finish it
 * before the GPUs, at their rate so far, finish everything still queued. The call ends
 * with its last chunk, so a chunk the GPUs would have done sooner only makes it longer;
 * without this rule HYBRID ran PairHMM, PDHMM and Smith-Waterman calls below the GPU alone
 * on an H200 (the cost model's rates were off by up to 3x, and every worker's last chunk
 * came after the GPUs had drained the queue). Rates: one CPU thread's cost per busy ms over
 * the chunks done so far; the GPUs' cost done per ms of the call so far (in flight units
 * not counted, so the GPUs look slower than they are: the rule errs towards the CPU
 * taking a chunk only at the start, before any unit has finished). */
static int cpu_may_take(run *R, int64_t c)
{
    const int64_t cdone = atomic_load(&R->cpu_cost_done), busy = atomic_load(&R->cpu_busy_us);
    const int64_t gdone = atomic_load(&R->gpu_cost_done);
    const double cpu_rate = cdone > 0 && busy > 0 ? (double)cdone / ((double)busy * 1e-3)
                                                  : R->model_cpu_rate;
    const double elapsed = dpa_ms_now() - R->start_ms;
    const double gpu_rate = gdone > 0 && elapsed > 0 ? (double)gdone / elapsed : R->model_gpu_rate;
    if (!(cpu_rate > 0) || !(gpu_rate > 0)) return 1;
    return (double)R->chunks[c].cost / cpu_rate <= (double)R->queued / gpu_rate;
}

/* A HYBRID CPU worker pops chunks from the cheap end (never a solo one) while cpu_may_take
 * says so, until the queue is empty or a kernel failed; the GPUs take what it leaves. */
static void cpu_worker(run *R)
{
    for (;;) {
        int64_t c = -1;
        pthread_mutex_lock(&R->lock);
        if (R->tail > R->head && !R->chunks[R->tail - 1].solo && cpu_may_take(R, R->tail - 1)) {
            c = --R->tail;
            R->queued -= R->chunks[c].cost;
        }
        pthread_mutex_unlock(&R->lock);
        if (c < 0 || atomic_load(&R->status) != DPA_OK) return;
        const double t = dpa_ms_now();
        run_chunk(R, c);
        atomic_fetch_add(&R->cpu_busy_us, (long long)((dpa_ms_now() - t) * 1e3) + 1);
        atomic_fetch_add(&R->cpu_cost_done, R->chunks[c].cost);
    }
}

static void left_job(void *arg, int64_t index)
{
    run *R = arg;
    if (atomic_load(&R->status) == DPA_OK) run_chunk(R, R->left[index]);
}

/* The CPU pass over R->left (everything when CPU-only; what the GPUs gave back or left):
 * solo chunks one at a time on this thread, the rest on the pool, most expensive first. */
static void cpu_pass(run *R)
{
    int64_t nsmall = 0;
    for (int64_t k = 0; k < R->nleft; k++) {
        const int64_t c = R->left[k];
        if (R->chunks[c].solo) {
            if (atomic_load(&R->status) == DPA_OK) run_chunk(R, c);
        } else {
            R->left[nsmall++] = c;
        }
    }
    R->nleft = nsmall;
    if (nsmall > 0) dpa_pool_run(R->ctx->pool, nsmall, left_job, R);
}

/* ---- GPU side ---------------------------------------------------------------------- */

/* Faults degrade, never crash: the work goes back to the CPU, identically; one warning per
 * context. */
static void warn_fallback(dpa_context *ctx, const dpa_workload *w, int32_t device, dpa_status st,
                          const char *err)
{
    if (__atomic_exchange_n(&ctx->warned_gpu_fallback, 1, __ATOMIC_ACQ_REL) == 0)
        dpa_log(ctx, DPA_LOG_WARN,
                "GPU %d failed in %s (%s: %s); recomputing on the CPU (logged once per context)",
                device, w->title, dpa_status_name(st), err);
}

static void gpu_feeder(run *R, int32_t device)
{
    dpa_cuda *cuda = &R->ctx->cuda;
    for (;;) {
        pthread_mutex_lock(&R->lock);
        int64_t first = R->head, last = R->head, cost = 0;
        while (last < R->tail && cost < R->unit_cost) cost += R->chunks[last++].cost;
        R->head = last;
        R->queued -= cost;
        pthread_mutex_unlock(&R->lock);
        if (first == last) return;

        const int64_t t0 = R->chunks[first].first;
        const int64_t nt = R->chunks[last - 1].first + R->chunks[last - 1].count - t0;
        int64_t counter = 0;
        char err[400] = "";
        const double u0 = R->timing ? dpa_ms_now() : 0;
        dpa_status st = R->w->gpu(R->job, R->entry, cuda->backend, device, t0, nt, &counter,
                                  err, sizeof err);
        if (R->timing)
            dpa_log(R->ctx, DPA_LOG_DEBUG, "%s: gpu %d unit of %lld tasks: %.2f -> %.2f ms",
                    R->w->name, device, (long long)nt, u0 - R->t0, dpa_ms_now() - R->t0);
        if (st == DPA_OK) {
            atomic_fetch_add(&R->counter, counter);
            atomic_fetch_add(&R->gpu_tasks, nt);
            atomic_fetch_add(&R->gpu_cost_done, cost);
            continue;
        }
        warn_fallback(R->ctx, R->w, device, st, err);
        pthread_mutex_lock(&R->lock);
        for (int64_t c = first; c < last; c++) R->left[R->nleft++] = c;
        pthread_mutex_unlock(&R->lock);
        dpa_device_info info;
        if (cuda->ops->device_info(cuda->backend, device, &info) != DPA_OK || !info.usable)
            return; /* retired: the other devices and the CPU take the rest */
    }
}

static void cpu_job(void *arg, int64_t index)
{
    (void)index;
    cpu_worker(arg);
}

typedef struct feeder_thread { run *R; int32_t device; pthread_t thread; int started; } feeder_thread;

static void *feeder_main(void *arg)
{
    feeder_thread *f = arg;
    gpu_feeder(f->R, f->device);
    return NULL;
}

/* Feeds the GPUs and, in HYBRID, runs CPU workers beside them. Feeder 0 runs on the calling
 * thread (GPU-only) and every other feeder on a thread of its own, started per call: pool
 * jobs would wait behind other callers' jobs on a shared pool, and a device whose feeder
 * waits is a device lost (feeder 0 drains the queue alone). In HYBRID the calling thread and
 * the pool are the CPU workers and start at once, so the CPU takes the cheap end before a
 * fast GPU can come back for everything (measured: a GPU feeder on the caller left the CPU
 * nothing of a 432 M-cell PairHMM batch on the H100). */
static void run_gpus(run *R, int hybrid)
{
    feeder_thread f[MAX_GPUS * MAX_FEEDERS_PER_GPU];
    const int32_t first = hybrid ? 0 : 1;
    for (int32_t k = first; k < R->nfeeders; k++) {
        f[k].R = R;
        f[k].device = R->devices[k % R->ndev];
        f[k].started = pthread_create(&f[k].thread, NULL, feeder_main, &f[k]) == 0;
    }
    if (hybrid)
        dpa_pool_run(R->ctx->pool, R->ctx->cfg.threads, cpu_job, R);
    else
        gpu_feeder(R, R->devices[0]);
    for (int32_t k = first; k < R->nfeeders; k++)
        if (f[k].started) pthread_join(f[k].thread, NULL);
}

/* ---- entry ------------------------------------------------------------------------- */

dpa_status dpa_sched_run(dpa_context *ctx, const dpa_workload *w, void *job,
                         const dpa_sched_call *call, dpa_sched_result *result)
{
    memset(result, 0, sizeof *result);
    plan p;
    dpa_status st = choose_backend(ctx, w, call, &p, 1);
    if (st != DPA_OK || call->tasks == 0) return st;
    const int64_t n = call->tasks;
    const int timing = ctx->cfg.timing;
    double tm[4] = { 0 };
    if (timing) tm[0] = dpa_ms_now();

    /* largest first: for the CPU queue, and to split across devices */
    if (w->sort && (w->sort_for_one_gpu || !(p.backend == DPA_BACKEND_GPU && p.ndev == 1)) &&
        (st = w->sort(job, n)) != DPA_OK)
        return st;

    /* Fast paths for a batch that goes whole to one place (a HaplotypeCaller region): no
     * chunk table, no queue. A failed GPU call falls through to the CPU pass below. */
    const int one_gpu = p.backend == DPA_BACKEND_GPU && p.ndev == 1 && feeders_per_gpu(ctx, w) == 1;
    if (p.ndev == 0 && call->total_cost < w->whole_below_cost && call->total_cost <= w->solo_cost) {
        int64_t counter = 0;
        st = w->cpu(job, 0, n, &counter);
        if (st != DPA_OK)
            return dpa_fail(st, "%s: a CPU kernel failed (%s)", w->name, dpa_status_name(st));
        result->counter = counter;
        return DPA_OK;
    }
    if (one_gpu) {
        int64_t counter = 0;
        char err[400] = "";
        st = w->gpu(job, dpa_cuda_entry(&ctx->cuda, w->cuda_id), ctx->cuda.backend, p.devices[0],
                    0, n, &counter, err, sizeof err);
        if (st == DPA_OK) {
            result->counter = counter;
            result->gpu_tasks = n;
            return DPA_OK;
        }
        warn_fallback(ctx, w, p.devices[0], st, err);
        p.ndev = 0;
    }

    if ((uint64_t)n > SIZE_MAX / sizeof(chunk))
        return dpa_fail(DPA_ERR_LIMIT, "%s: %lld tasks exceed addressable memory", w->name,
                        (long long)n);
    /* room for n chunks, of which only the first nchunks are touched (so only their pages) */
    chunk *chunks = malloc(sizeof *chunks * (size_t)n);
    if (!chunks)
        return dpa_fail(DPA_ERR_OUT_OF_MEMORY, "%s: out of memory for %lld tasks", w->name,
                        (long long)n);
    const int64_t nchunks =
        make_chunks(w, job, n,
                    chunk_target(w, call, ctx->cfg.threads,
                                 p.backend == DPA_BACKEND_HYBRID ? p.ndev : 0),
                    chunks);
    int64_t *left = malloc(sizeof *left * (size_t)nchunks);
    if (!left) {
        free(chunks);
        return dpa_fail(DPA_ERR_OUT_OF_MEMORY, "%s: out of memory for %lld chunks", w->name,
                        (long long)nchunks);
    }

    run R;
    memset(&R, 0, sizeof R);
    R.ctx = ctx;
    R.w = w;
    R.job = job;
    R.chunks = chunks;
    R.left = left;
    R.head = 0;
    R.tail = nchunks;
    R.devices = p.devices;
    R.ndev = p.ndev;
    R.timing = timing;
    atomic_init(&R.counter, 0);
    atomic_init(&R.gpu_tasks, 0);
    atomic_init(&R.status, DPA_OK);
    atomic_init(&R.cpu_cost_done, 0);
    atomic_init(&R.cpu_busy_us, 0);
    atomic_init(&R.gpu_cost_done, 0);
    R.queued = 0;
    for (int64_t c = 0; c < nchunks; c++) R.queued += chunks[c].cost;
    R.start_ms = dpa_ms_now();
    R.model_cpu_rate = R.model_gpu_rate = 0;
    if (p.ndev > 0 && p.backend == DPA_BACKEND_HYBRID) {
        const double tc1 = w->cpu_seconds(call->total_cost, n, 1, call->isa);
        const double tg = w->gpu_seconds(call->total_cost, n, p.ndev);
        R.model_cpu_rate = tc1 > 0 ? (double)call->total_cost / (tc1 * 1e3) : 0;
        R.model_gpu_rate = tg > 0 ? (double)call->total_cost / (tg * 1e3) : 0;
    }
    if (timing) R.t0 = tm[1] = dpa_ms_now();
    if (p.ndev > 0) {
        const int hybrid = p.backend == DPA_BACKEND_HYBRID;
        R.entry = dpa_cuda_entry(&ctx->cuda, w->cuda_id);
        R.nfeeders = p.ndev * feeders_per_gpu(ctx, w);
        R.unit_cost = unit_cost(ctx, w, call, hybrid, p.ndev, R.nfeeders);
        /* no more feeders than units (a small batch is one unit: no thread starts) */
        const int64_t units = (call->total_cost + R.unit_cost - 1) / R.unit_cost;
        if (R.nfeeders > units) R.nfeeders = (int32_t)units;
        pthread_mutex_init(&R.lock, NULL);
        run_gpus(&R, hybrid);
        pthread_mutex_destroy(&R.lock);
    }
    if (timing) tm[2] = dpa_ms_now();
    for (int64_t c = R.head; c < R.tail; c++) R.left[R.nleft++] = c;
    cpu_pass(&R);
    if (timing) {
        tm[3] = dpa_ms_now();
        dpa_log(ctx, DPA_LOG_DEBUG,
                "%s: %lld tasks, %lld chunks, backend %s on %d GPU(s): sort+chunks %.2f ms, "
                "gpu feeders %.2f ms, cpu %.2f ms", w->name, (long long)n, (long long)nchunks,
                dpa_backend_name(p.backend), p.ndev, tm[1] - tm[0], tm[2] - tm[1],
                tm[3] - tm[2]);
    }
    free(chunks);
    free(left);
    st = (dpa_status)atomic_load(&R.status);
    if (st != DPA_OK)
        return dpa_fail(st, "%s: a CPU kernel failed (%s)", w->name, dpa_status_name(st));
    result->counter = atomic_load(&R.counter);
    result->gpu_tasks = atomic_load(&R.gpu_tasks);
    return DPA_OK;
}
