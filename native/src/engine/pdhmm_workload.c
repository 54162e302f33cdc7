/*
 * pdhmm_workload.c — dpa_pdhmm_compute: check the arguments, validate the batch, hand the
 * job to the scheduler (scheduler.h) with the PDHMM descriptor, copy the results out once
 * every pair has succeeded (a failed call leaves out untouched).
 *
 * Cost of a pair: read_len * hap_len cells. The sort order (pdhmm_keys) puts the pairs of
 * one haplotype side by side, longest reads first, so a SIMD vector holds reads of one
 * haplotype with similar lengths, which is what keeps its lanes busy and its column states
 * shared.
 *
 * GPU: the CUDA library's DPA_CUDA_WORKLOAD_PDHMM entry (kernels/src/pdhmm_cuda.cu, one
 * thread per pair, bit-identical to the CPU kernels); a library without it leaves PDHMM on
 * the CPU (GPU-forced calls then fail with DPA_ERR_NO_DEVICE naming why).
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "common/fpenv.h"
#include "common/status.h"
#include "cpu/pdhmm/pdhmm.h"
#include "engine/context.h"
#include "engine/scheduler.h"
#include "engine/sort.h"

typedef struct pdhmm_job {
    const dpa_pdhmm_batch *batch;
    int32_t rows;
    dpa_pdhmm_ops kernel;
    double *results;        /* num_pairs, copied to the caller's out on success */
    dpa_sort_item *keys;
    int32_t *pairs;         /* the scheduler's task order */
} pdhmm_job;

/* Cost model (AUTO / HYBRID): measured orders of magnitude, not a promise. One double cell
 * of the PD recurrence is ~12 multiply-adds plus the branch maxima: ~0.25 ns per cell per
 * core with AVX-512 (8 pairs a vector), ~1.5 ns scalar. */
/* Measured 2026-11-28 with `dpaccel bench pdhmm` (GATK-shaped regions, docs/BENCHMARKS.md "PDHMM
 * on the GPU"): AVX-512 0.52-0.65 G cells/s per thread (16 threads of an H200 host, 2 of the
 * development VM), 1.3-1.8 per thread on PdhmmSpeed's many-reads-per-haplotype regions; scalar
 * ~0.1; 0.37-0.40 per thread on pdhmm_bench's pairs (16 threads of an H200 host, 2026-11-29).
 * Priced at the GATK-shaped figure, which is what HaplotypeCaller makes (the price mostly
 * decides HYBRID's split, which a higher CPU price tipped below the GPU alone). */
static double pdhmm_cpu_seconds(int64_t cells, int64_t pairs, int32_t threads, dpa_isa isa)
{
    const double per_thread = isa == DPA_ISA_AVX512 ? 0.55e9 : isa == DPA_ISA_AVX2 ? 0.3e9 : 0.1e9;
    return ((double)cells + 500.0 * (double)pairs) / (per_thread * (threads > 0 ? threads : 1));
}

/* The warp kernel (pdhmm_cuda.cu, DECISIONS 134): 47-56 G cells/s on an H200 for a 4.4 G-cell
 * call of GATK-shaped pairs, transfers, host packing and the call's checks included, where its
 * 16 AVX-512 host threads ran 5.8-6.3 (native/tests/pdhmm_bench, docs/BENCHMARKS.md, session
 * 19; 18.6-23.2 before the host work was split and the class hash sped up). Priced a little
 * below the measurement: AUTO sends large PDHMM calls to a GPU, and HYBRID gives the CPU
 * threads a share they finish with the GPU. */
static double pdhmm_gpu_seconds(int64_t cells, int64_t pairs, int32_t devices)
{
    (void)pairs;
    return 5e-3 + (double)cells / (45e9 * (devices > 0 ? devices : 1));
}

static dpa_status pdhmm_sort(void *arg, int64_t n)
{
    pdhmm_job *j = arg;
    return dpa_sort_order_desc(j->keys, j->pairs, n, "pdhmm");
}

static int64_t pdhmm_cost(const void *arg, int64_t i)
{
    const pdhmm_job *j = arg;
    const int32_t k = j->pairs[i];
    return (int64_t)j->batch->read_lengths[k] * j->batch->hap_lengths[k];
}

/* A haplotype's bases and PD flags hashed eight bytes at a time in two independent multiply
 * chains, folded at the end so the table's low bits see every byte. Equality is decided by
 * dpa_pdhmm_same_hap, so the hash only has to spread. (FNV-1a a byte at a time was one
 * dependent multiply per byte: ~160 ms of a 200 ms GPU call of 100 k pairs, session 19.) */
static uint64_t hap_hash(const dpa_pdhmm_pair *p)
{
    const uint64_t K = 0x9e3779b97f4a7c15ull;
    uint64_t x = 14695981039346656037ull ^ (uint64_t)p->hap_len, y = 0x243f6a8885a308d3ull;
    int32_t j = 0;
    for (; j + 8 <= p->hap_len; j += 8) {
        uint64_t a, c;
        memcpy(&a, p->hap + j, 8);
        memcpy(&c, p->pd + j, 8);
        x = (x ^ a) * K;
        y = (y ^ c) * K;
    }
    for (; j < p->hap_len; j++) {
        x = (x ^ p->hap[j]) * K;
        y = (y ^ p->pd[j]) * K;
    }
    uint64_t h = x ^ (y * 0xff51afd7ed558ccdull);
    h ^= h >> 32;
    h *= 0xc4ceb9fe1a85ec53ull;
    return h ^ (h >> 29);
}

/* Sort keys that put the pairs of one haplotype next to each other, longest reads first,
 * haplotypes longest first: the SIMD kernels give a vector to PD_W reads of one haplotype,
 * whose columns then share their PD states (cpu/pdhmm/pdhmm_simd.h). Haplotypes are told
 * apart by content through an open-addressing table of hap_hash values; classes are numbered
 * in order of first appearance. Key: hap_len (17 bits) | class (30) | read_len (17). */
static dpa_status pdhmm_keys(const dpa_pdhmm_batch *b, dpa_sort_item *keys)
{
    const int32_t n = b->num_pairs;
    size_t cap = 64;
    while (cap < 2 * (size_t)n) cap *= 2;
    int32_t *slot = malloc(sizeof *slot * cap); /* representative pair + 1, 0 = empty */
    int32_t *cls = malloc(sizeof *cls * (size_t)n);
    if (!slot || !cls) {
        free(slot);
        free(cls);
        return dpa_fail(DPA_ERR_OUT_OF_MEMORY, "pdhmm: out of memory for %d pairs' keys", n);
    }
    memset(slot, 0, sizeof *slot * cap);
    int32_t classes = 0;
    for (int32_t i = 0; i < n; i++) {
        const dpa_pdhmm_pair p = dpa_pdhmm_pair_of(b, i);
        size_t at = (size_t)hap_hash(&p) & (cap - 1);
        while (slot[at]) {
            const dpa_pdhmm_pair q = dpa_pdhmm_pair_of(b, slot[at] - 1);
            if (dpa_pdhmm_same_hap(&q, &p)) break;
            at = (at + 1) & (cap - 1);
        }
        if (!slot[at]) {
            slot[at] = i + 1;
            cls[i] = classes++;
        } else {
            cls[i] = cls[slot[at] - 1];
        }
    }
    for (int32_t i = 0; i < n; i++) {
        keys[i].key = (uint64_t)b->hap_lengths[i] << 47 | (uint64_t)(classes - 1 - cls[i]) << 17 |
                      (uint64_t)b->read_lengths[i];
        keys[i].index = i;
    }
    free(slot);
    free(cls);
    return DPA_OK;
}

static dpa_status pdhmm_cpu(void *arg, int64_t first, int64_t count, int64_t *counter)
{
    pdhmm_job *j = arg;
    (void)counter;
    return j->kernel.compute(j->batch, j->pairs + first, count, j->rows, j->results);
}

static dpa_status pdhmm_gpu(void *arg, const void *entry, dpa_cuda_backend *backend,
                            int32_t device, int64_t first, int64_t count, int64_t *counter,
                            char *err, size_t err_len)
{
    pdhmm_job *j = arg;
    const dpa_cuda_pdhmm_entry *e = entry;
    (void)counter;
    return e->run(backend, device, j->batch, j->pairs + first, count, j->rows, j->results, err,
                  err_len);
}

static const dpa_workload pdhmm_workload = {
    .name = "pdhmm",
    .title = "PDHMM",
    .cuda_id = DPA_CUDA_WORKLOAD_PDHMM,
    .sort = pdhmm_sort,
    .sort_for_one_gpu = 1,
    .cost = pdhmm_cost,
    .cpu_seconds = pdhmm_cpu_seconds,
    .gpu_seconds = pdhmm_gpu_seconds,
    .chunks_per_thread = 8,
    .chunk_min_cost = 200000,
    .whole_below_cost = 400000,
    .chunk_multiple = 8,     /* one AVX-512 vector of pairs */
    .solo_cost = INT64_MAX,  /* scratch is linear in the haplotype: nothing needs to run alone */
    .split_min_cost = (int64_t)256 * 1000 * 1000,
    .feeders_per_gpu = 2,
    .units_per_feeder = 2,
    /* the cost model's split: eight units a feeder (~5 k pairs) ran 39-43 G cells/s on an
     * H200 where GPU alone ran 50-59 (each unit's fixed costs, several times over) */
    .hybrid_units_per_feeder = 0,
    .unit_min_cost = (int64_t)1 << 24,
    .cpu = pdhmm_cpu,
    .gpu = pdhmm_gpu,
};

/* GATK's PDPairHMM throws when a result is not a log10 probability (above 0 or NaN), and
 * GKL's PDHMM returns its failure status. Two inputs do it: a read position whose gap-open
 * error probabilities sum past 1 (the forward sum grows until it overflows), named in the
 * message; and PD flags that branch so often on a short pair that the branch paths' sum passes
 * 1 (every flag on every base, CI 2026-11-25). We refuse the call the same way rather than
 * hand back +Infinity, NaN or a "probability" above 1. -Infinity (an underflow) is a 0. */
static dpa_status check_result(const dpa_pdhmm_batch *b, int32_t k, double r)
{
    if (!(isnan(r) || r > 0.0)) return DPA_OK;
    const dpa_pdhmm_pair p = dpa_pdhmm_pair_of(b, k);
    for (int32_t i = 0; i < p.read_len; i++)
        if (dpa_pdhmm_err(p.ins_q[i]) + dpa_pdhmm_err(p.del_q[i]) > 1.0)
            return dpa_fail(DPA_ERR_INVALID_ARG,
                            "pdhmm batch: pair %d: result %g is not a log10 probability (GATK "
                            "throws \"PairHMM Log Probability cannot be greater than 0\"): at "
                            "read position %d ins_quals = %d and del_quals = %d give gap-open "
                            "probabilities that sum past 1",
                            k, r, i, p.ins_q[i], p.del_q[i]);
    return dpa_fail(DPA_ERR_INVALID_ARG,
                    "pdhmm batch: pair %d: result %g is not a log10 probability (GATK throws "
                    "\"PairHMM Log Probability cannot be greater than 0\")",
                    k, r);
}

DPA_API void dpa_pdhmm_params_init(dpa_pdhmm_params *p)
{
    if (!p) return;
    p->backend = -1;
    p->rows = DPA_PDHMM_ROWS_GATK;
    p->result = DPA_PDHMM_RESULT_LOG10;
}

DPA_API dpa_status dpa_pdhmm_compute(dpa_context *ctx, const dpa_pdhmm_batch *batch,
                                     const dpa_pdhmm_params *params, double *out,
                                     int64_t out_len, dpa_pdhmm_stats *stats)
{
    if (!ctx) return dpa_fail(DPA_ERR_NULL_ARG, "dpa_pdhmm_compute: ctx is NULL");
    dpa_pdhmm_params defaults;
    if (!params) {
        dpa_pdhmm_params_init(&defaults);
        params = &defaults;
    }
    if (params->backend < -1 || params->backend > DPA_BACKEND_HYBRID)
        return dpa_fail(DPA_ERR_INVALID_ARG, "pdhmm params: backend = %d, must be -1..3",
                        params->backend);
    if (params->rows != DPA_PDHMM_ROWS_GATK && params->rows != DPA_PDHMM_ROWS_GKL)
        return dpa_fail(DPA_ERR_INVALID_ARG, "pdhmm params: rows = %d, must be 0 (GATK) or 1 (GKL)",
                        params->rows);
    if (params->result != DPA_PDHMM_RESULT_LOG10 && params->result != DPA_PDHMM_RESULT_SCALED_SUM)
        return dpa_fail(DPA_ERR_INVALID_ARG,
                        "pdhmm params: result = %d, must be 0 (log10) or 1 (scaled sum)",
                        params->result);
    dpa_status st = dpa_pdhmm_validate(batch);
    if (st) return st;
    const int32_t n = batch->num_pairs;
    if (n > 0 && !out) return dpa_fail(DPA_ERR_NULL_ARG, "dpa_pdhmm_compute: out is NULL");
    if (out_len < n)
        return dpa_fail(DPA_ERR_INVALID_ARG,
                        "dpa_pdhmm_compute: out_len = %lld, the batch has %d pairs",
                        (long long)out_len, n);
    pdhmm_job job;
    memset(&job, 0, sizeof job);
    job.batch = batch;
    job.rows = params->rows;
    dpa_pdhmm_select(ctx->cfg.isa_mask, &job.kernel);
    if (stats) {
        memset(stats, 0, sizeof *stats);
        stats->isa = job.kernel.isa;
    }
    dpa_sched_call call = { n, 0, params->backend, job.kernel.isa };
    dpa_sched_result res;
    if (n == 0) return dpa_sched_run(ctx, &pdhmm_workload, &job, &call, &res); /* GPU check */

    job.keys = malloc(sizeof *job.keys * (size_t)n);
    job.pairs = malloc(sizeof *job.pairs * (size_t)n);
    job.results = malloc(sizeof *job.results * (size_t)n);
    if (!job.keys || !job.pairs || !job.results) {
        st = dpa_fail(DPA_ERR_OUT_OF_MEMORY, "pdhmm: out of memory for %d pairs", n);
        goto cleanup;
    }
    int64_t total = 0;
    for (int32_t i = 0; i < n; i++) {
        total += (int64_t)batch->read_lengths[i] * batch->hap_lengths[i];
        job.pairs[i] = i; /* the order pdhmm_cost sees before the sort */
    }
    if ((st = pdhmm_keys(batch, job.keys)) != DPA_OK) goto cleanup;
    call.total_cost = total;
    if ((st = dpa_sched_run(ctx, &pdhmm_workload, &job, &call, &res)) != DPA_OK) goto cleanup;
    /* the kernels hand back scaled sums (cpu/pdhmm/pdhmm.h); the log10 in the kernels' IEEE
     * mode, whatever the caller's (a DAZ caller would turn a denormal sum into -Infinity) */
    dpa_fpenv env = dpa_fpenv_enter_f64();
    for (int32_t i = 0; i < n && st == DPA_OK; i++) {
        const double r = dpa_pdhmm_log10_of(job.results[i]);
        st = check_result(batch, i, r);
        if (params->result == DPA_PDHMM_RESULT_LOG10) job.results[i] = r;
    }
    dpa_fpenv_leave(env);
    if (st != DPA_OK) goto cleanup;
    memcpy(out, job.results, sizeof *out * (size_t)n);
    if (stats) {
        stats->pairs = n;
        stats->cells = total;
        stats->gpu_pairs = res.gpu_tasks;
    }
cleanup:
    free(job.keys);
    free(job.pairs);
    free(job.results);
    return st;
}
