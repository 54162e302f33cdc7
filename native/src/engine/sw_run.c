/*
 * sw_run.c — dpa_sw_compute: validate, sort the pairs by cells, run them on the context's
 * thread pool, pack the CIGARs in pair order.
 *
 * Each pair writes its CIGAR into a private slot of the caller's buffer (at the prefix sum
 * of dpa_sw_cigar_max), so workers never coordinate; afterwards one forward pass packs the
 * CIGARs (a CIGAR never starts after its slot, so memmove forward is safe).
 *
 * Memory: a pair needs ref_len * alt_len traceback bytes. Pairs above BIG_CELLS run one at a
 * time on the calling thread (at most DPA_SW_MAX_CELLS bytes at once); the rest run in
 * chunks on the pool, each worker holding at most BIG_CELLS bytes of scratch.
 *
 * Kernel choice: dpa_sw_select() on the context's allowed ISA mask: AVX-512, else AVX2, else
 * scalar (sw_avx512.c / sw_avx2.c, byte-identical results); a CUDA kernel would drop in behind
 * dpa_sw_ops as PairHMM's does.
 */
#include <pthread.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>

#include "common/status.h"
#include "cpu/sw/sw.h"
#include "engine/context.h"

#define BIG_CELLS ((int64_t)1 << 26)

typedef struct keyed { int64_t cells; int32_t pair; } keyed;

static int cmp_desc(const void *a, const void *b)
{
    const keyed *x = a, *y = b;
    if (x->cells != y->cells) return x->cells > y->cells ? -1 : 1;
    return x->pair < y->pair ? -1 : x->pair > y->pair;
}

typedef struct chunk { int64_t first, count; } chunk;

typedef struct run {
    const dpa_sw_ops *ops;
    const dpa_sw_batch *batch;
    const dpa_sw_params *params;
    const dpa_sw_out *out;
    const int32_t *pairs;
    const chunk *chunks;
    atomic_llong exact;
    atomic_int status; /* first error */
} run;

static void run_chunk(run *R, int64_t first, int64_t count)
{
    int64_t exact = 0;
    dpa_status st = R->ops->compute(R->batch, R->params, R->pairs + first, count, R->out, &exact);
    atomic_fetch_add(&R->exact, exact);
    if (st != DPA_OK) {
        int expected = DPA_OK;
        atomic_compare_exchange_strong(&R->status, &expected, (int)st);
    }
}

static void chunk_job(void *arg, int64_t index)
{
    run *R = arg;
    run_chunk(R, R->chunks[index].first, R->chunks[index].count);
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
    dpa_sw_params defaults;
    if (!params) {
        dpa_sw_params_init(&defaults);
        params = &defaults;
    }
    dpa_status st = dpa_sw_validate(batch, params);
    if (st) return st;
    if (params->backend == DPA_BACKEND_GPU)
        return dpa_fail(DPA_ERR_UNSUPPORTED,
                        "sw: backend gpu requested, but Smith-Waterman has CPU kernels only");
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
    if (n == 0) return DPA_OK;

    keyed *k = malloc(sizeof *k * (size_t)n);
    int32_t *pairs = malloc(sizeof *pairs * (size_t)n);
    chunk *chunks = malloc(sizeof *chunks * (size_t)n);
    if (!k || !pairs || !chunks) {
        st = dpa_fail(DPA_ERR_OUT_OF_MEMORY, "sw: out of memory for %d pairs", n);
        goto cleanup;
    }
    /* slots: pair i writes at the prefix sum of the bounds; cigar_offsets holds them until
     * the packing pass overwrites them with the packed positions */
    int64_t *slots = output->cigar_offsets, pos = 0, cells = 0;
    for (int32_t i = 0; i < n; i++) {
        slots[i] = pos;
        pos += dpa_sw_cigar_max(batch->ref_lengths[i], batch->alt_lengths[i]);
        k[i].cells = (int64_t)batch->ref_lengths[i] * batch->alt_lengths[i];
        k[i].pair = i;
        cells += k[i].cells;
    }
    qsort(k, (size_t)n, sizeof *k, cmp_desc);
    int32_t nbig = 0;
    for (int32_t i = 0; i < n; i++) {
        pairs[i] = k[i].pair;
        if (k[i].cells > BIG_CELLS) nbig++;
    }

    const dpa_sw_out out = { output->cigars, slots, output->cigar_lengths,
                             output->alignment_offsets };
    run R;
    R.ops = &ops;
    R.batch = batch;
    R.params = params;
    R.out = &out;
    R.pairs = pairs;
    R.chunks = chunks;
    atomic_init(&R.exact, 0);
    atomic_init(&R.status, DPA_OK);

    /* big pairs, one at a time on this thread, each parallel-free but memory-bounded */
    for (int32_t i = 0; i < nbig && atomic_load(&R.status) == DPA_OK; i++) run_chunk(&R, i, 1);

    /* the rest: chunks of ~equal cells, most expensive first (dynamic scheduling) */
    int64_t rest_cells = 0;
    for (int32_t i = nbig; i < n; i++) rest_cells += k[i].cells;
    int64_t target = rest_cells / ((int64_t)ctx->cfg.threads * 8);
    if (target < 100000) target = 100000;
    int64_t nchunks = 0;
    for (int32_t i = nbig; i < n;) {
        int64_t start = i, c = 0;
        while (i < n && c < target) c += k[i++].cells;
        chunks[nchunks].first = start;
        chunks[nchunks].count = i - start;
        nchunks++;
    }
    if (atomic_load(&R.status) == DPA_OK && nchunks > 0) {
        if (nchunks == 1)
            chunk_job(&R, 0);
        else
            dpa_pool_run(ctx->pool, nchunks, chunk_job, &R);
    }
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
    if (stats) {
        stats->pairs = n;
        stats->cells = cells;
        stats->exact_matches = atomic_load(&R.exact);
        stats->cigar_bytes = packed;
    }
cleanup:
    free(k);
    free(pairs);
    free(chunks);
    return st;
}
