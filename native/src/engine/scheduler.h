/*
 * scheduler.h — the one batch scheduler every workload runs through.
 *
 * A workload (PairHMM, Smith-Waterman, ...) is a descriptor, dpa_workload, plus a job: its
 * own struct holding the caller's batch, parameters, outputs and the task array it built.
 * The workload's entry point checks its arguments, builds the job (validation, task count,
 * total cost), then hands both to dpa_sched_run(), which owns everything that is not
 * workload-specific:
 *
 *   backend   the call's choice (AUTO asks the workload's cost model), the usable devices,
 *             round-robin of small batches over several GPUs;
 *   order     largest first (the workload's sort), so CPU workers balance and similar
 *             shapes sit together for the GPU;
 *   chunks    runs of consecutive tasks of ~equal cost, a task above solo_cost on its own;
 *   queue     one two-ended queue of chunks: GPU feeders take units of many chunks from the
 *             expensive end, CPU workers single chunks from the cheap end (HYBRID);
 *   threads   feeder 0 runs on the calling thread, the others on threads of their own
 *             (never more feeders than units); HYBRID's CPU workers are the context's pool;
 *   faults    a GPU error logs one warning per context and gives the unit back; whatever
 *             the GPUs did not finish runs on the CPU with the CPU-only kernels, so results
 *             never depend on the backend;
 *   results   a task writes its result where its task says (the caller's order), so
 *             splitting, sorting and devices never move a result.
 *
 * Tasks are addressed by their position in the job's current order: the workload's kernels
 * compute tasks [first, first + count) of that order.
 */
#ifndef DPA_ENGINE_SCHEDULER_H
#define DPA_ENGINE_SCHEDULER_H

#include <stddef.h>
#include <stdint.h>

#include "dpaccel.h"
#include "dpa_cuda_backend.h"

struct dpa_context;

typedef struct dpa_workload {
    const char *name;          /* "pairhmm", "sw": prefixes error messages */
    const char *title;         /* "PairHMM", "Smith-Waterman": in log lines for people */
    dpa_cuda_workload_id cuda_id; /* the CUDA library's entry table for this workload */

    /* Orders the job's tasks most expensive first (ties in input order). NULL: the job
     * is built in that order already. sort_for_one_gpu = 0 skips the sort when one GPU
     * takes the whole batch (the CUDA side bins pairs itself; the sort would only add
     * latency). */
    dpa_status (*sort)(void *job, int64_t n);
    int sort_for_one_gpu;
    /* The cost of the i-th task in the job's current order (the unit of total_cost). A call
     * per task, not an n-sized array: at 1M pairs an array is 8 MB of fresh pages per call. */
    int64_t (*cost)(const void *job, int64_t i);

    /* Cost model for AUTO and HYBRID (cost_model.c): seconds for the whole batch. */
    double (*cpu_seconds)(int64_t cost, int64_t n, int32_t threads, dpa_isa isa);
    double (*gpu_seconds)(int64_t cost, int64_t n, int32_t devices);

    /* Chunks: about chunks_per_thread per CPU thread, never cheaper than chunk_min_cost, a
     * multiple of chunk_multiple tasks (a SIMD vector of pairs); a batch cheaper than
     * whole_below_cost is one chunk (waking workers would cost more than it saves); a task
     * costlier than solo_cost is a chunk of its own that runs alone on the calling thread
     * (its memory never piles up beside others'). */
    int32_t chunks_per_thread;
    int64_t chunk_min_cost;
    int64_t whole_below_cost;
    int32_t chunk_multiple;
    int64_t solo_cost;

    /* A batch cheaper than this is not split across GPUs (one device takes it, round-robin
     * across calls) and under HYBRID stays whole on a GPU that is faster on it. */
    int64_t split_min_cost;

    /* HYBRID runs as GPU-only when the cost model gives the CPU workers less than this share
     * of the call (0: never): where the GPU is that much faster, the CPU's few chunks do not
     * pay for what sharing costs the GPU side (the sort, smaller units).
     * DPACCEL_HYBRID_MIN_CPU_SHARE (percent) overrides it for every workload. */
    double hybrid_min_cpu_share;

    /* GPU units. GPU-only: feeders x units_per_feeder equal units, fewer when that would
     * make a unit cheaper than unit_min_cost (never a unit below it, unless the whole call
     * is). HYBRID: hybrid_units_per_feeder units per feeder, or 0 for the cost model's GPU
     * share in one unit per feeder, at least unit_min_cost. feeders_per_gpu concurrent calls
     * per device (DPACCEL_GPU_FEEDERS, DPACCEL_GPU_UNITS_PER_FEEDER and
     * DPACCEL_GPU_UNIT_MIN_COST override). */
    int32_t feeders_per_gpu;
    int32_t units_per_feeder;
    int32_t hybrid_units_per_feeder;
    int64_t unit_min_cost;

    /* Kernels: compute tasks [first, first + count) of the job's order. Thread-safe for
     * disjoint ranges. *counter accumulates the workload's own statistic (PairHMM: double
     * recomputes; Smith-Waterman: exact matches). gpu gets the workload's CUDA entry
     * table (cuda_id's); on an error it may have written part of its range,
     * which the CPU then recomputes. */
    dpa_status (*cpu)(void *job, int64_t first, int64_t count, int64_t *counter);
    dpa_status (*gpu)(void *job, const void *cuda_entry, dpa_cuda_backend *backend,
                      int32_t device, int64_t first, int64_t count, int64_t *counter,
                      char *err, size_t err_len);
} dpa_workload;

/* What the workload knows about the call before scheduling. */
typedef struct dpa_sched_call {
    int64_t tasks;       /* n */
    int64_t total_cost;  /* sum of costs */
    int32_t backend;     /* per-call choice, -1 = the context's */
    dpa_isa isa;         /* the CPU kernels' ISA, for the cost model */
} dpa_sched_call;

typedef struct dpa_sched_result {
    int64_t counter;     /* sum of the kernels' counters */
    int64_t gpu_tasks;   /* tasks a GPU finished */
} dpa_sched_result;

/* Runs the job. DPA_ERR_NO_DEVICE when the call asks for the GPU and none is usable (also
 * for n = 0); a CPU kernel's failure is returned with a message naming the workload. */
dpa_status dpa_sched_run(struct dpa_context *ctx, const dpa_workload *w, void *job,
                         const dpa_sched_call *call, dpa_sched_result *result);

/* The backend dpa_sched_run would choose for this call (AUTO and HYBRID resolved by the cost
 * model, CPU without a usable GPU), without running it: for a workload whose preparation
 * differs by backend (distance builds its bit planes on the GPU when the call is GPU-only).
 * Fails as dpa_sched_run would for a GPU-forced call without a GPU. */
dpa_status dpa_sched_backend(struct dpa_context *ctx, const dpa_workload *w,
                             const dpa_sched_call *call, dpa_backend *backend);

#endif
