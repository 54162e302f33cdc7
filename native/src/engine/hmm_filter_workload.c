/*
 * hmm_filter_workload.c — dpa_hmm_filter_compute: check the arguments, validate the batch
 * (every residue byte, on the context's threads), and hand the (model, sequence) pairs to the
 * scheduler with the hmm-filter descriptor. The kernels digitise where they read: the CPU per
 * pair into scratch, the GPU through a code map. A task is one pair; its cost is M x L (the SSV cells; the
 * Viterbi filter runs only on the few survivors). Each pair writes its result at its own
 * index, model-major, so nothing is packed afterwards.
 *
 * GPU (the CUDA library's DPA_CUDA_WORKLOAD_HMM_FILTER entry, kernels/src/hmm_filter_*.cu):
 * a unit of pairs runs as hmmsearch's pipeline does, stage by stage: SSV's integer on the GPU
 * for every pair whose SSV can decide, the full MSV on the GPU for the rest, the bias filter
 * and the decisions on the CPU (the context's threads; the bias filter is O(L) and runs on MSV
 * survivors only), then the Viterbi filter on the GPU for the pairs that need it. The GPU
 * returns the DP's final integers; the scores come from the same host functions as the CPU
 * kernels' (dpa_hmm_msv_score, dpa_hmm_vit_score), so results do not depend on the backend.
 * A GPU error leaves the unit to the scheduler, which recomputes it on the CPU.
 * CPU kernels, the fastest the context allows: SSV (the stage every pair runs) in
 * AVX-512, AVX2 or scalar; the Viterbi filter likewise; the
 * full MSV (when SSV cannot decide) and the bias filter scalar, as they are rare or O(L).
 */
#include <math.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/status.h"
#include "cpu/cpu_features.h"
#include "cpu/hmm/hmm_filter.h"
#include "cpu/hmm/hmm_profiles.h"
#include "engine/context.h"
#include "engine/cost_model.h"
#include "engine/scheduler.h"
#include "engine/sort.h"
#include "engine/threadpool.h"
#include "engine/timing.h"

typedef struct hmm_job {
    const dpa_hmm_profiles *profiles;
    const dpa_hmm_seq_batch *batch;
    dpa_hmm_filter_opts opts;
    dpa_hmm_kernels kern;
    dpa_hmm_vit2_fn vit2; /* two targets a sweep, or NULL (scalar) */
    dpa_isa isa;
    uint8_t code_of[256]; /* residue byte -> code (dpa_hmm_code_map): the GPU digitises */
    int32_t max_L;       /* the batch's longest sequence: the digitising scratch */
    int32_t nseq;
    int32_t max_M;
    dpa_hmm_filter_result *results;
    dpa_cuda_hmm_model *gmodels; /* the profiles' quantised tables as the CUDA entry reads them */
    dpa_cuda_hmm_seqs gseqs;
    dpa_hmm_len_params *lp_by_len; /* [L] for every L of the batch (the GPU path's per-pair host cost) */
    uint8_t *dsq_all;    /* digitised residues at the batch's offsets, or NULL (dpa_hmm_filter_compute says when) */
    dpa_sort_item *keys;
    int32_t *order;      /* the scheduler's task order: pair = model * nseq + seq */
    const dpa_context *ctx; /* for DPACCEL_TIMING's lines (cfg.timing) */
} hmm_job;

static dpa_status hmm_sort(void *arg, int64_t n) {
    hmm_job *j = arg;
    return dpa_sort_order_desc(j->keys, j->order, n, "hmm-filter");
}

static int64_t hmm_cost(const void *arg, int64_t i) {
    const hmm_job *j = arg;
    return (int64_t)j->keys[i].key;
}

static void put_result(dpa_hmm_filter_result *r, const dpa_hmm_filter_out *o);

/* The batch's residues were checked before any work: digitising cannot fail here. */
static const uint8_t *digitise(const hmm_job *j, int32_t si, uint8_t *dst) {
    int64_t bad = 0;
    (void)dpa_hmm_digitize(j->batch->residues + j->batch->offsets[si], j->batch->lengths[si], dst, &bad);
    return dst;
}

/* A pair whose Viterbi filter waits for a partner of the same model (see hmm_cpu). */
typedef struct vit_wait {
    const dpa_hmm_profile *p;
    const dpa_hmm_len_params *lp;
    const uint8_t *dsq;
    dpa_hmm_filter_out o;
    float filtersc;
    int need, buf; /* buf: which digitising buffer dsq lies in (-1: the call's copy) */
    int32_t pair;
} vit_wait;

static void vit_finish(hmm_job *j, vit_wait *w, float vfsc) {
    dpa_hmm_filter_after_vit(w->p, w->need, vfsc, w->filtersc, &j->opts, &w->o);
    put_result(&j->results[w->pair], &w->o);
}

/* Every pair's SSV/MSV and bias stages in the scheduler's order; a pair that needs the
 * Viterbi filter waits until a second pair of the same model needs it too, and the two run in
 * one sweep (dpa_hmm_vit2_*: the transition loads and the row-to-row latency shared, same
 * scores). Pairs of a model are adjacent in the order when the targets' lengths are alike;
 * a waiting pair whose model changes runs alone. */
static dpa_status hmm_cpu(void *arg, int64_t first, int64_t count, int64_t *cells) {
    hmm_job *j = arg;
    void *work = malloc(dpa_hmm_work_bytes(j->max_M));
    uint8_t *dsq[2] = { malloc((size_t)j->max_L + 1), malloc((size_t)j->max_L + 1) };
    if (!work || !dsq[0] || !dsq[1]) {
        free(work);
        free(dsq[0]);
        free(dsq[1]);
        return dpa_fail(DPA_ERR_OUT_OF_MEMORY, "hmm-filter: scratch for M = %d, L = %d", j->max_M, j->max_L);
    }
    vit_wait w[2];
    int waiting = 0; /* w[0] holds a pair when 1 */
    for (int64_t t = first; t < first + count; t++) {
        const int32_t pair = j->order[t];
        const int32_t mi = pair / j->nseq, si = pair % j->nseq;
        const int32_t L = j->batch->lengths[si];
        dpa_hmm_filter_result *r = &j->results[pair];
        memset(r, 0, sizeof *r);
        if (L == 0) continue;
        const dpa_hmm_profile *p = &j->profiles->prof[mi];
        const dpa_hmm_len_params *lp = &j->lp_by_len[L];
        /* the buffer the waiting pair does not use */
        const int buf = waiting && w[0].buf == 0 ? 1 : 0;
        const uint8_t *q = j->dsq_all ? j->dsq_all + j->batch->offsets[si] : digitise(j, si, dsq[buf]);
        *cells += (int64_t)p->M * L;
        vit_wait *c = &w[waiting];
        const float usc = dpa_hmm_ssv_msv(p, lp, q, work, j->kern.ssv);
        c->need = dpa_hmm_filter_after_msv(p, lp, q, &j->opts, usc, &c->o, &c->filtersc);
        if (c->need == DPA_HMM_VIT_NONE) {
            put_result(r, &c->o);
            continue;
        }
        c->p = p;
        c->lp = lp;
        c->dsq = q;
        c->buf = j->dsq_all ? -1 : buf;
        c->pair = pair;
        if (!j->vit2) {
            vit_finish(j, c, j->kern.vit(p, lp, q, work));
        } else if (!waiting) {
            waiting = 1;
        } else if (w[0].p == p) {
            float sc[2];
            j->vit2(p, w[0].lp, w[0].dsq, lp, q, work, sc);
            vit_finish(j, &w[0], sc[0]);
            vit_finish(j, c, sc[1]);
            waiting = 0;
        } else {
            /* another model: the waiting pair runs alone, this one waits */
            vit_finish(j, &w[0], j->kern.vit(w[0].p, w[0].lp, w[0].dsq, work));
            w[0] = *c;
        }
    }
    if (waiting) vit_finish(j, &w[0], j->kern.vit(w[0].p, w[0].lp, w[0].dsq, work));
    free(work);
    free(dsq[0]);
    free(dsq[1]);
    return DPA_OK;
}

static void put_result(dpa_hmm_filter_result *r, const dpa_hmm_filter_out *o) {
    r->msv_bits = o->msv_bits;
    r->bias_bits = o->bias_bits;
    r->vit_bits = o->vit_bits;
    r->msv_pvalue = o->msv_P;
    r->bias_pvalue = o->bias_P;
    r->vit_pvalue = o->vit_P;
    r->pass_msv = o->pass_msv;
    r->pass_bias = o->pass_bias;
    r->pass_vit = o->pass_vit;
    r->computed = o->has;
}

/* One pair of a GPU unit between the stages. */
typedef struct hmm_gpu_pair {
    dpa_hmm_len_params lp;
    dpa_hmm_filter_out o;
    float usc, filtersc;
    int32_t pair, need;
} hmm_gpu_pair;

/* The decisions after MSV (P-values, and the bias filter where it runs, O(L) a survivor: at
 * hmmsearch's thresholds most of a unit's host time) in blocks on the context's threads. */
#define AFTER_BLOCK 256
typedef struct after_job {
    const hmm_job *j;
    hmm_gpu_pair *g;
    int64_t ng;
    atomic_int oom;
} after_job;

static void after_block(void *arg, int64_t k) {
    after_job *a = arg;
    const hmm_job *j = a->j;
    uint8_t *dsq = NULL; /* the bias filter's sequence, for the pairs that need it */
    const int64_t end = (k + 1) * AFTER_BLOCK < a->ng ? (k + 1) * AFTER_BLOCK : a->ng;
    for (int64_t i = k * AFTER_BLOCK; i < end; i++) {
        hmm_gpu_pair *q = &a->g[i];
        const dpa_hmm_profile *p = &j->profiles->prof[q->pair / j->nseq];
        q->need = dpa_hmm_filter_after_msv(p, &q->lp, NULL, &j->opts, q->usc, &q->o, &q->filtersc);
        if (q->need != DPA_HMM_NEEDS_DSQ) continue;
        if (!dsq && !(dsq = malloc((size_t)j->max_L + 1))) {
            atomic_store(&a->oom, 1);
            return;
        }
        q->need = dpa_hmm_filter_after_msv(p, &q->lp, digitise(j, q->pair % j->nseq, dsq), &j->opts, q->usc, &q->o,
                                           &q->filtersc);
    }
    free(dsq);
}

/* Runs kind over the pairs list[0..n) of g (tasks / ints are the caller's scratch of the
 * unit's size); the integers land in ints[0..n). */
static dpa_status hmm_gpu_stage(const hmm_job *j, const dpa_cuda_hmm_filter_entry *e, dpa_cuda_backend *backend,
                                int32_t device, int32_t kind, const hmm_gpu_pair *g, const int64_t *list, int64_t n,
                                dpa_cuda_hmm_task *tasks, int32_t *ints, char *err, size_t err_len) {
    if (n == 0) return DPA_OK;
    for (int64_t i = 0; i < n; i++) {
        const hmm_gpu_pair *q = &g[list[i]];
        tasks[i].model = q->pair / j->nseq;
        tasks[i].seq = q->pair % j->nseq;
        tasks[i].len_param = kind == DPA_CUDA_HMM_MSV ? q->lp.tjb_b : kind == DPA_CUDA_HMM_VIT ? q->lp.xw_move : 0;
    }
    return e->run_mapped(backend, device, j->gmodels, j->profiles->count, &j->gseqs, j->code_of, kind, tasks, n, ints,
                         err, err_len);
}

static dpa_status hmm_gpu(void *arg, const void *entry, dpa_cuda_backend *backend, int32_t device, int64_t first,
                          int64_t count, int64_t *cells, char *err, size_t err_len) {
    hmm_job *j = arg;
    const dpa_cuda_hmm_filter_entry *e = entry;
    dpa_status st = DPA_OK;
    hmm_gpu_pair *g = malloc(sizeof *g * (size_t)(count > 0 ? count : 1));
    int64_t *ssv = malloc(sizeof *ssv * (size_t)(count > 0 ? count : 1));
    int64_t *msv = malloc(sizeof *msv * (size_t)(count > 0 ? count : 1));
    dpa_cuda_hmm_task *tasks = malloc(sizeof *tasks * (size_t)(count > 0 ? count : 1));
    int32_t *ints = malloc(sizeof *ints * (size_t)(count > 0 ? count : 1));
    if (!g || !ssv || !msv || !tasks || !ints) {
        snprintf(err, err_len, "hmm-filter: host memory for a GPU unit of %lld pairs", (long long)count);
        st = DPA_ERR_OUT_OF_MEMORY;
        goto done;
    }
    int64_t ng = 0, nssv = 0, nmsv = 0, ncells = 0, nmsv_gpu = 0;
    const int timing = j->ctx && j->ctx->cfg.timing;
    double tm[7] = { 0 };
    if (timing) tm[0] = dpa_ms_now();
    for (int64_t t = first; t < first + count; t++) {
        const int32_t pair = j->order[t];
        const int32_t mi = pair / j->nseq, si = pair % j->nseq;
        const int32_t L = j->batch->lengths[si];
        if (L == 0) {
            memset(&j->results[pair], 0, sizeof j->results[pair]);
            continue;
        }
        hmm_gpu_pair *q = &g[ng];
        q->pair = pair;
        q->lp = j->lp_by_len[L];
        if (dpa_hmm_ssv_guard(&j->profiles->prof[mi], &q->lp))
            msv[nmsv++] = ng;
        else
            ssv[nssv++] = ng;
        ncells += (int64_t)j->profiles->prof[mi].M * L;
        ng++;
    }
    /* SSV: decides, or leaves the pair to the full MSV (as p7_MSVFilter does) */
    if (timing) tm[1] = dpa_ms_now();
    if ((st = hmm_gpu_stage(j, e, backend, device, DPA_CUDA_HMM_SSV, g, ssv, nssv, tasks, ints, err, err_len)))
        goto done;
    if (timing) tm[2] = dpa_ms_now();
    for (int64_t i = 0; i < nssv; i++) {
        hmm_gpu_pair *q = &g[ssv[i]];
        if (dpa_hmm_ssv_decide(&j->profiles->prof[q->pair / j->nseq], &q->lp, ints[i], &q->usc)) msv[nmsv++] = ssv[i];
    }
    nmsv_gpu = nmsv;
    if (timing) tm[3] = dpa_ms_now();
    if ((st = hmm_gpu_stage(j, e, backend, device, DPA_CUDA_HMM_MSV, g, msv, nmsv, tasks, ints, err, err_len)))
        goto done;
    if (timing) tm[4] = dpa_ms_now();
    for (int64_t i = 0; i < nmsv; i++) {
        hmm_gpu_pair *q = &g[msv[i]];
        q->usc = ints[i] < 0 ? INFINITY : dpa_hmm_msv_score(&j->profiles->prof[q->pair / j->nseq], &q->lp, ints[i]);
    }
    /* bias filter and decisions; the Viterbi filter's pairs reuse ssv[] */
    after_job aj = { j, g, ng, 0 };
    atomic_init(&aj.oom, 0);
    dpa_pool_run(j->ctx->pool, (ng + AFTER_BLOCK - 1) / AFTER_BLOCK, after_block, &aj);
    if (atomic_load(&aj.oom)) {
        snprintf(err, err_len, "hmm-filter: host memory for the bias filter (L = %d)", j->max_L);
        st = DPA_ERR_OUT_OF_MEMORY;
        goto done;
    }
    int64_t nvit = 0;
    for (int64_t i = 0; i < ng; i++)
        if (g[i].need != DPA_HMM_VIT_NONE) ssv[nvit++] = i;
    if (timing) tm[5] = dpa_ms_now();
    if ((st = hmm_gpu_stage(j, e, backend, device, DPA_CUDA_HMM_VIT, g, ssv, nvit, tasks, ints, err, err_len)))
        goto done;
    if (timing) tm[6] = dpa_ms_now();
    for (int64_t i = 0; i < nvit; i++) {
        hmm_gpu_pair *q = &g[ssv[i]];
        const dpa_hmm_profile *p = &j->profiles->prof[q->pair / j->nseq];
        const float vfsc = ints[i] > 32767 ? INFINITY : dpa_hmm_vit_score(p, &q->lp, ints[i]);
        dpa_hmm_filter_after_vit(p, q->need, vfsc, q->filtersc, &j->opts, &q->o);
    }
    for (int64_t i = 0; i < ng; i++) put_result(&j->results[g[i].pair], &g[i].o);
    *cells += ncells;
    if (timing)
        dpa_log(j->ctx, DPA_LOG_DEBUG,
                "hmm-filter: gpu %d unit of %lld pairs: list %.2f, SSV %.2f (%lld), decide %.2f, MSV %.2f (%lld), "
                "bias+P %.2f, Viterbi %.2f (%lld), rest %.2f ms", device, (long long)ng, tm[1] - tm[0],
                tm[2] - tm[1], (long long)nssv, tm[3] - tm[2], tm[4] - tm[3], (long long)nmsv_gpu, tm[5] - tm[4],
                tm[6] - tm[5], (long long)nvit, dpa_ms_now() - tm[6]);
done:
    free(g);
    free(ssv);
    free(msv);
    free(tasks);
    free(ints);
    return st;
}

static const dpa_workload hmm_filter_workload = {
    .name = "hmm-filter",
    .title = "HMM filter",
    .cuda_id = DPA_CUDA_WORKLOAD_HMM_FILTER,
    .sort = hmm_sort,
    .sort_for_one_gpu = 1,
    .cost = hmm_cost,
    .cpu_seconds = dpa_cost_hmm_filter_cpu_seconds,
    .gpu_seconds = dpa_cost_hmm_filter_gpu_seconds,
    .chunks_per_thread = 8,
    .chunk_min_cost = 200000,
    .whole_below_cost = 1000000,
    .chunk_multiple = 1,
    .solo_cost = INT64_MAX, /* scratch is two rows of the model: no pair needs to run alone */
    .split_min_cost = (int64_t)1000 * 1000 * 1000,
    /* 4 feeders a GPU (the scheduler's maximum): the host's share of a GPU unit (SSV
     * decisions, bits and P-values, ~0.35 us a pair, and the bias filter, ~37 us a survivor at
     * L = 350, dev VM) is far more than the GPU's (~20 ns a pair at 4 TCUPS for M = 200,
     * L = 350), so the feeders' threads are what runs it in parallel; each takes its own
     * stream and slot */
    .feeders_per_gpu = 4,
    .units_per_feeder = 2,
    .hybrid_units_per_feeder = 8,
    .unit_min_cost = (int64_t)1 << 26,
    .cpu = hmm_cpu,
    .gpu = hmm_gpu,
};

static void select_ssv(unsigned allowed, hmm_job *j) {
    j->kern = dpa_hmm_kernels_ref;
    j->vit2 = NULL;
    j->isa = DPA_ISA_SCALAR;
#ifdef DPA_HAVE_AVX2
    if (allowed & DPA_ISA_BIT(DPA_ISA_AVX2)) {
        j->kern.ssv = dpa_hmm_ssv_xe_avx2;
        j->kern.vit = dpa_hmm_vit_avx2;
        j->vit2 = dpa_hmm_vit2_avx2;
        j->isa = DPA_ISA_AVX2;
    }
#endif
#ifdef DPA_HAVE_AVX512
    if (allowed & DPA_ISA_BIT(DPA_ISA_AVX512)) {
        j->kern.ssv = dpa_hmm_ssv_xe_avx512;
        j->kern.vit = dpa_hmm_vit_avx512;
        j->vit2 = dpa_hmm_vit2_avx512;
        j->isa = DPA_ISA_AVX512;
    }
#endif
    (void)allowed;
}

/* The residues' check on the context's threads: blocks of whole sequences of about
 * CHECK_BLOCK residues; each block notes its first bad residue, and the lowest block's is
 * reported, so the message names the same sequence as the serial check would. At 200 M
 * residues the one serial pass was about a third of a GPU call. Nothing is written: the
 * kernels digitise each sequence where they read it (the CPU per pair into its scratch,
 * the GPU through the code map), since a digitised copy of a 300 M-residue batch cost more
 * in fresh pages than the check itself (docs/lab/2026-11-29-session18.md). */
#define CHECK_BLOCK ((int64_t)1 << 20)
typedef struct check_bad {
    int32_t seq; /* the block's first bad sequence, or -1 */
    int64_t pos;
} check_bad;
typedef struct check_job {
    const dpa_hmm_seq_batch *b;
    uint8_t *dsq_all; /* NULL: check only */
    const int32_t *first; /* block k: sequences [first[k], first[k + 1]) */
    check_bad *bad;
} check_job;

static void check_block(void *arg, int64_t k) {
    check_job *d = arg;
    d->bad[k].seq = -1;
    for (int32_t i = d->first[k]; i < d->first[k + 1]; i++) {
        const int32_t L = d->b->lengths[i];
        if (L == 0) continue;
        int64_t j = 0;
        uint8_t *to = d->dsq_all ? d->dsq_all + d->b->offsets[i] : NULL;
        if (dpa_hmm_digitize(d->b->residues + d->b->offsets[i], L, to, &j) != DPA_OK) {
            d->bad[k].seq = i;
            d->bad[k].pos = j;
            return;
        }
    }
}

static dpa_status check_residues(dpa_context *ctx, const dpa_hmm_seq_batch *b, uint8_t *dsq_all) {
    /* at most one block per sequence */
    int32_t *first = malloc(sizeof *first * ((size_t)b->num_seqs + 1));
    if (!first) return dpa_fail(DPA_ERR_OUT_OF_MEMORY, "hmm-filter: out of memory for %d sequences", b->num_seqs);
    int64_t in_block = 0, nblocks = 0;
    first[0] = 0;
    for (int32_t i = 0; i < b->num_seqs; i++) {
        in_block += b->lengths[i];
        if (in_block >= CHECK_BLOCK || i == b->num_seqs - 1) {
            first[++nblocks] = i + 1;
            in_block = 0;
        }
    }
    check_bad *bad = malloc(sizeof *bad * (size_t)nblocks);
    if (!bad) {
        free(first);
        return dpa_fail(DPA_ERR_OUT_OF_MEMORY, "hmm-filter: out of memory for %lld residue blocks", (long long)nblocks);
    }
    check_job d = { b, dsq_all, first, bad };
    dpa_pool_run(ctx->pool, nblocks, check_block, &d);
    dpa_status st = DPA_OK;
    for (int64_t k = 0; k < nblocks; k++)
        if (bad[k].seq >= 0) {
            st = dpa_hmm_filter_residue_error(b, bad[k].seq, bad[k].pos);
            break;
        }
    free(first);
    free(bad);
    return st;
}

DPA_API void dpa_hmm_filter_params_init(dpa_hmm_filter_params *p) {
    if (!p) return;
    p->F1 = 0.02;
    p->F2 = 1e-3;
    p->bias_filter = 1;
    p->all_scores = 0;
    p->backend = -1;
}

DPA_API dpa_status dpa_hmm_filter_compute(dpa_context *ctx, const dpa_hmm_profiles *profiles,
                                          const dpa_hmm_seq_batch *batch, const dpa_hmm_filter_params *params,
                                          dpa_hmm_filter_result *results, int64_t results_len,
                                          dpa_hmm_filter_stats *stats) {
    if (!ctx) return dpa_fail(DPA_ERR_NULL_ARG, "dpa_hmm_filter_compute: ctx is NULL");
    if (!profiles) return dpa_fail(DPA_ERR_NULL_ARG, "dpa_hmm_filter_compute: profiles is NULL");
    dpa_hmm_filter_params defaults;
    if (!params) {
        dpa_hmm_filter_params_init(&defaults);
        params = &defaults;
    }
    /* Validation and digitising in one pass over the residues, on the context's threads (at
     * hundreds of millions of residues the calling thread's passes were most of a GPU call);
     * nothing else is written before every check has passed. */
    hmm_job job;
    memset(&job, 0, sizeof job);
    job.ctx = ctx;
    const double t_call = ctx->cfg.timing ? dpa_ms_now() : 0;
    dpa_status st = dpa_hmm_filter_validate_shape(batch, params);
    if (st) return st;
    if (batch->num_seqs > 0) {
        /* A CPU-only call with several models digitises every sequence once, here, instead of
         * once per pair: at 350 residues a pair the per-pair digitising was ~0.2 us, half of a
         * small model's whole pair (docs/lab/2026-11-29-session22-hmm.md). Calls that may use
         * a GPU keep checking only: the GPU maps residues itself, and the copy's fresh pages
         * cost more than the check at hundreds of millions of residues (session 18). */
        int32_t devices = 0;
        (void)dpa_context_device_count(ctx, &devices);
        if (profiles->count >= 2 && (params->backend == DPA_BACKEND_CPU || devices == 0)) {
            int64_t span = 0;
            for (int32_t i = 0; i < batch->num_seqs; i++)
                if (batch->lengths[i] > 0 && batch->offsets[i] + batch->lengths[i] > span)
                    span = batch->offsets[i] + batch->lengths[i];
            job.dsq_all = malloc((size_t)span + 1);
            if (!job.dsq_all) {
                st = dpa_fail(DPA_ERR_OUT_OF_MEMORY, "hmm-filter: out of memory for %lld digitised residues",
                              (long long)span);
                goto cleanup;
            }
        }
        if ((st = check_residues(ctx, batch, job.dsq_all))) goto cleanup;
    }
    const double t_checked = ctx->cfg.timing ? dpa_ms_now() : 0;
    const int64_t n = (int64_t)profiles->count * batch->num_seqs;
    if (n > INT32_MAX) {
        st = dpa_fail(DPA_ERR_LIMIT, "hmm-filter: %d models x %d sequences = %lld pairs exceeds %d per call",
                      profiles->count, batch->num_seqs, (long long)n, INT32_MAX);
        goto cleanup;
    }
    if (results_len != n) {
        st = dpa_fail(DPA_ERR_INVALID_ARG, "hmm-filter: results_len = %lld, expected %d models x %d sequences = %lld",
                      (long long)results_len, profiles->count, batch->num_seqs, (long long)n);
        goto cleanup;
    }
    if (n > 0 && !results) {
        st = dpa_fail(DPA_ERR_NULL_ARG, "dpa_hmm_filter_compute: results is NULL");
        goto cleanup;
    }
    select_ssv(ctx->cfg.isa_mask, &job);
    if (stats) {
        memset(stats, 0, sizeof *stats);
        stats->isa = job.isa;
    }
    job.profiles = profiles;
    job.batch = batch;
    job.opts.F1 = params->F1;
    job.opts.F2 = params->F2;
    job.opts.do_bias = params->bias_filter;
    job.opts.all_scores = params->all_scores;
    job.results = results;
    job.nseq = batch->num_seqs;
    for (int32_t i = 0; i < profiles->count; i++)
        if (profiles->prof[i].M > job.max_M) job.max_M = profiles->prof[i].M;
    dpa_sched_call call = { n, 0, params->backend, job.isa };
    dpa_sched_result res;
    /* A GPU-forced call with no usable GPU fails here, before anything is written. */
    dpa_sched_call probe = { 0, 0, params->backend, job.isa };
    if ((st = dpa_sched_run(ctx, &hmm_filter_workload, &job, &probe, &res)) != DPA_OK || n == 0) goto cleanup;

    job.keys = malloc(sizeof *job.keys * (size_t)n);
    job.order = malloc(sizeof *job.order * (size_t)n);
    job.gmodels = malloc(sizeof *job.gmodels * (size_t)(profiles->count > 0 ? profiles->count : 1));
    if (!job.keys || !job.order || !job.gmodels) {
        st = dpa_fail(DPA_ERR_OUT_OF_MEMORY, "hmm-filter: out of memory for %lld pairs", (long long)n);
        goto cleanup;
    }
    {
        /* length parameters once per distinct L (logf and friends: ~100 ns each, too much to
         * repeat per pair when the GPU takes a pair in ~20 ns) */
        int32_t maxL = 0;
        for (int32_t i = 0; i < batch->num_seqs; i++)
            if (batch->lengths[i] > maxL) maxL = batch->lengths[i];
        job.max_L = maxL;
        job.lp_by_len = calloc((size_t)maxL + 1, sizeof *job.lp_by_len);
        if (!job.lp_by_len) {
            st = dpa_fail(DPA_ERR_OUT_OF_MEMORY, "hmm-filter: out of memory for %d lengths", maxL);
            goto cleanup;
        }
        for (int32_t i = 0; i < batch->num_seqs; i++) {
            const int32_t L = batch->lengths[i];
            if (L > 0 && job.lp_by_len[L].L != L) dpa_hmm_len_params_init(L, &job.lp_by_len[L]);
        }
    }
    dpa_hmm_code_map(job.code_of);
    job.gseqs.dsq = batch->residues;
    job.gseqs.offsets = batch->offsets;
    job.gseqs.lengths = batch->lengths;
    job.gseqs.count = batch->num_seqs;
    for (int32_t i = 0; i < profiles->count; i++) {
        const dpa_hmm_profile *p = &profiles->prof[i];
        dpa_cuda_hmm_model *g = &job.gmodels[i];
        g->rb = p->rb;
        g->rw = p->rw;
        g->tw = p->tw;
        g->M = p->M;
        g->ddbound_w = p->ddbound_w;
        g->bias_b = p->bias_b;
        g->base_b = p->base_b;
        g->tbm_b = p->tbm_b;
        g->tec_b = p->tec_b;
        g->xw_e_move = p->xw_e_move;
        g->xw_e_loop = p->xw_e_loop;
        g->base_w = p->base_w;
    }
    /* model-major pairs, without a division per pair (a million pairs took ~5 ms that way) */
    for (int32_t mi = 0, pair = 0; mi < profiles->count; mi++) {
        const int64_t M = profiles->prof[mi].M;
        for (int32_t si = 0; si < job.nseq; si++, pair++) {
            const int64_t c = M * batch->lengths[si];
            job.keys[pair].key = (uint64_t)c;
            job.keys[pair].index = pair;
            call.total_cost += c;
        }
    }
    if (ctx->cfg.timing)
        dpa_log(ctx, DPA_LOG_DEBUG, "hmm-filter: argument and residue checks %.2f ms, task list %.2f ms", t_checked - t_call,
                dpa_ms_now() - t_checked);
    if ((st = dpa_sched_run(ctx, &hmm_filter_workload, &job, &call, &res)) != DPA_OK) {
        memset(results, 0, sizeof *results * (size_t)n); /* a kernel's failure (memory): no partial output */
        goto cleanup;
    }
    if (stats) {
        int64_t nonempty = 0;
        for (int32_t si = 0; si < job.nseq; si++) nonempty += batch->lengths[si] > 0;
        stats->pairs = nonempty * profiles->count;
        for (int64_t pair = 0; pair < n; pair++) {
            stats->passed_msv += results[pair].pass_msv;
            stats->passed_bias += results[pair].pass_bias;
            stats->passed_vit += results[pair].pass_vit;
        }
        stats->cells = res.counter;
        stats->gpu_pairs = res.gpu_tasks;
    }
cleanup:
    free(job.keys);
    free(job.order);
    free(job.gmodels);
    free(job.lp_by_len);
    free(job.dsq_all);
    return st;
}
