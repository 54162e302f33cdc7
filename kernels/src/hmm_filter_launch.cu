/*
 * hmm_filter_launch.cu — the HMM filter entry's work on one slot of one device: check the
 * tasks, pack the models and sequences they name (each once per chunk) into the slot's pinned
 * staging buffer, copy, launch hmm_filter_kernels.cu's warps, copy the integers back.
 *
 * Chunks: tasks in the caller's order until the packed bytes reach DPA_HF_CHUNK in a big slot,
 * DPA_CUDA_SMALL_CHUNK in the others (a task is never split). The warps' global rows (models too long for shared memory) come on top,
 * capped at DPA_HF_GSCRATCH by launching fewer warps.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <cuda_runtime.h>

#include "hmm_filter_cuda.h"

#define DPA_HF_CHUNK ((int64_t)256 << 20)
#define DPA_HF_GSCRATCH ((int64_t)512 << 20)
#define DPA_HF_MAX_L 100000

static int64_t hf_align(int64_t x) { return (x + 15) & ~(int64_t)15; }

/* The packed SSV words a model carries in a launch of this kind (SSV only). */
static int32_t hf_q16(int32_t kind, int32_t M) { return kind == DPA_CUDA_HMM_SSV ? dpa_hf_ssv16_q(M) : 0; }

static int64_t hf_model_bytes(int32_t kind, int32_t M)
{
    const int64_t cols = (int64_t)M + 1;
    return hf_align(29 * cols) + hf_align(29 * cols * 2) + hf_align(cols * 8 * 2) +
           dpa_hf_ssv16_words(hf_q16(kind, M)) * 4;
}

/* The packed SSV table (layout: dpa_hf_ssv16_words). Built per chunk beside the byte table:
 * 29 x 64 q halves, a fraction of the cells any sequence costs. */
static void hf_pack_ssv16(const dpa_cuda_hmm_model *m, int32_t q, uint32_t *out)
{
    const int32_t M = m->M, S = M + 1;
    for (int32_t c = 0; c < 29; c++)
        for (int32_t j = 0; j < q; j++)
            for (int32_t z = 0; z < 32; z++) {
                uint32_t w = 0;
                for (int32_t h = 0; h < 2; h++) {
                    const int32_t x = (2 * z + h) * q + j;
                    const int32_t v = x < M ? m->bias_b - (int32_t)m->rb[(size_t)c * S + x + 1] : -16384;
                    w |= (uint32_t)(uint16_t)(int16_t)v << (16 * h);
                }
                out[((size_t)c * q + j) * 32 + z] = w;
            }
}

/* The residues of a chunk, as runs that are contiguous in the caller's batch and in the
 * staging buffer (a model's sequences in batch order make one run), copied by the device's
 * host team: one feeder thread copying 37 MB of short sequences was ~70% of a unit's time
 * on an H200 (session 18's timing lines). */
typedef struct hf_run {
    int64_t dst, start; /* offset in staging; bytes of the runs before it */
    const uint8_t *src;
    int64_t len;
} hf_run;

typedef struct hf_copy_job {
    const hf_run *runs;
    int64_t nruns, bytes;
    uint8_t *base;
} hf_copy_job;

static void hf_copy_part(void *arg, int part, int nparts)
{
    const hf_copy_job *J = (const hf_copy_job *)arg;
    const int64_t a = J->bytes * part / nparts, e = J->bytes * (part + 1) / nparts;
    if (a >= e) return;
    int64_t lo = 0, hi = J->nruns - 1; /* the last run starting at or before a */
    while (lo < hi) {
        const int64_t mid = (lo + hi + 1) / 2;
        if (J->runs[mid].start <= a) lo = mid;
        else hi = mid - 1;
    }
    for (int64_t r = lo; r < J->nruns && J->runs[r].start < e; r++) {
        const hf_run *x = &J->runs[r];
        const int64_t s0 = a > x->start ? a - x->start : 0;
        const int64_t s1 = e < x->start + x->len ? e - x->start : x->len;
        memcpy(J->base + x->dst + s0, x->src + s0, (size_t)(s1 - s0));
    }
}

/* Every task's indices, lengths and (for the Viterbi filter) the DD words, before work. */
static dpa_status hf_check(const dpa_cuda_hmm_model *models, int32_t num_models,
                           const dpa_cuda_hmm_seqs *seqs, int32_t kind,
                           const dpa_cuda_hmm_task *tasks, int64_t n, dpa_cuda_err *err)
{
    char msg[256];
    for (int64_t t = 0; t < n; t++) {
        const dpa_cuda_hmm_task *k = &tasks[t];
        if (k->model < 0 || k->model >= num_models || k->seq < 0 || k->seq >= seqs->count) {
            snprintf(msg, sizeof msg, "dpa_cuda hmm-filter: task %lld names model %d of %d, sequence %d of %d",
                     (long long)t, k->model, num_models, k->seq, seqs->count);
            return dpa_cuda_fail_msg(err, DPA_ERR_INVALID_ARG, msg);
        }
        const dpa_cuda_hmm_model *m = &models[k->model];
        const int32_t L = seqs->lengths[k->seq];
        if (m->M < 1 || !m->rb || !m->rw || !m->tw || L < 1 || L > DPA_HF_MAX_L) {
            snprintf(msg, sizeof msg, "dpa_cuda hmm-filter: task %lld: model %d M = %d, sequence %d L = %d "
                     "(need M >= 1 with tables, L in [1, %d])", (long long)t, k->model, m->M, k->seq, L,
                     DPA_HF_MAX_L);
            return dpa_cuda_fail_msg(err, DPA_ERR_INVALID_ARG, msg);
        }
        if (kind == DPA_CUDA_HMM_MSV && (k->len_param < 0 || k->len_param > 255)) {
            snprintf(msg, sizeof msg, "dpa_cuda hmm-filter: task %lld: tjb_b = %d outside 0..255", (long long)t,
                     k->len_param);
            return dpa_cuda_fail_msg(err, DPA_ERR_INVALID_ARG, msg);
        }
    }
    if (kind == DPA_CUDA_HMM_VIT)
        for (int32_t i = 0; i < num_models; i++) {
            for (int32_t k = 1; k < models[i].M; k++)
                if (models[i].tw[(size_t)k * 8 + 7] > 0) {
                    snprintf(msg, sizeof msg, "dpa_cuda hmm-filter: model %d node %d: DD word %d > 0 "
                             "(the D->D scan needs DD <= 0)", i, k, models[i].tw[(size_t)k * 8 + 7]);
                    return dpa_cuda_fail_msg(err, DPA_ERR_INVALID_ARG, msg);
                }
            /* the kernel's one-instruction saturating adds need every transition word <= 0
             * (log probabilities: no model gives another) */
            for (int32_t k = 1; k <= models[i].M; k++)
                for (int w = 0; w < 7; w++)
                    if (models[i].tw[(size_t)k * 8 + w] > 0) {
                        snprintf(msg, sizeof msg, "dpa_cuda hmm-filter: model %d node %d: transition word %d "
                                 "is %d > 0 (log probabilities are <= 0)", i, k, w, models[i].tw[(size_t)k * 8 + w]);
                        return dpa_cuda_fail_msg(err, DPA_ERR_INVALID_ARG, msg);
                    }
        }
    return DPA_OK;
}

dpa_status dpa_cuda_hmm_filter_run(const dpa_cuda_backend *b, dpa_cuda_dev *d, dpa_cuda_slot *s,
                                   const dpa_cuda_hmm_model *models, int32_t num_models,
                                   const dpa_cuda_hmm_seqs *seqs, const uint8_t *code_of, int32_t kind,
                                   const dpa_cuda_hmm_task *tasks, int64_t n, int32_t *out,
                                   dpa_cuda_err *err)
{
    const double t0 = b->timing ? dpa_cuda_now_s() : 0;
    double t_pack = 0, t_dev = 0;
    int64_t nchunks = 0;
    dpa_status status = hf_check(models, num_models, seqs, kind, tasks, n, err);
    if (status != DPA_OK) return status;
    if (code_of)
        for (int c = 0; c < 256; c++)
            if (code_of[c] >= 29) {
                char msg[128];
                snprintf(msg, sizeof msg, "dpa_cuda hmm-filter: code_of[%d] = %d (codes are 0..28)", c, code_of[c]);
                return dpa_cuda_fail_msg(err, DPA_ERR_INVALID_ARG, msg);
            }
    /* per model / sequence: the chunk that packed it last (stamp) and its packed position */
    const size_t mark_n = (size_t)num_models + (size_t)seqs->count;
    int64_t *marks = (int64_t *)dpa_cuda_slot_scratch(s, mark_n * 2 * sizeof(int64_t) + (size_t)n * sizeof(hf_run));
    if (!marks) return dpa_cuda_fail_msg(err, DPA_ERR_OUT_OF_MEMORY, "dpa_cuda hmm-filter: host scratch");
    int64_t *stamp = marks, *pos = marks + mark_n;
    hf_run *runs = (hf_run *)(marks + 2 * mark_n);
    /* only the entries the tasks name are read: a unit names a slice of a large batch, whose
     * whole stamp array (857 k sequences: 7 MB) each entry call used to clear */
    for (int64_t t = 0; t < n; t++) stamp[tasks[t].model] = stamp[num_models + (int64_t)tasks[t].seq] = -1;
    DPA_CUDA_TRY(err, cudaSetDevice(d->cuda_id));
    for (int64_t first = 0, chunk = 0; first < n; chunk++) {
        /* the small slots (concurrent feeders beyond the big slots) keep small pinned buffers */
        const int64_t chunk_cap = s->big ? DPA_HF_CHUNK : (int64_t)DPA_CUDA_SMALL_CHUNK;
        /* the chunk's extent and sizes */
        int64_t last = first, nmod = 0, tab_b = 0, seq_b = 0, total = 0;
        int32_t maxM = 0;
        while (last < n) {
            const dpa_cuda_hmm_task *k = &tasks[last];
            int64_t add = (int64_t)sizeof(dpa_hf_task) + 4;
            const int newm = stamp[k->model] != chunk, news = stamp[num_models + k->seq] != chunk;
            if (newm) add += hf_model_bytes(kind, models[k->model].M) + (int64_t)sizeof(dpa_hf_model);
            if (news) add += seqs->lengths[k->seq];
            if (last > first && total + add > chunk_cap) break;
            total += add;
            if (newm) {
                stamp[k->model] = chunk;
                pos[k->model] = nmod++;
                tab_b += hf_model_bytes(kind, models[k->model].M);
            }
            if (news) {
                stamp[num_models + k->seq] = chunk;
                pos[num_models + k->seq] = seq_b;
                seq_b += seqs->lengths[k->seq];
            }
            if (models[k->model].M > maxM) maxM = models[k->model].M;
            last++;
        }
        const int32_t cn = (int32_t)(last - first);
        /* staging: [models][tables][tasks][code map][residues] then the outputs */
        const int64_t mod_o = 0, tab_o = hf_align(nmod * (int64_t)sizeof(dpa_hf_model));
        const int64_t task_o = tab_o + tab_b, map_o = task_o + hf_align((int64_t)cn * sizeof(dpa_hf_task));
        const int64_t seq_o = map_o + (code_of ? 256 : 0);
        const int64_t in_b = hf_align(seq_o + seq_b), out_o = in_b, out_b = hf_align((int64_t)cn * 4);
        /* row storage: shared up to the per-warp share, global above */
        const int64_t row_max = dpa_hf_row_bytes(kind, maxM);
        const int32_t smem = (int32_t)(row_max < DPA_HF_SMEM_PER_WARP ? row_max : DPA_HF_SMEM_PER_WARP);
        int64_t gstride = 0;
        for (int64_t t = first; t < last; t++) {
            const int64_t r = dpa_hf_row_bytes(kind, models[tasks[t].model].M);
            if (r > smem && r > gstride) gstride = r;
        }
        int64_t warps = (int64_t)dpa_hf_blocks_per_sm(kind, smem) * DPA_HF_WARPS_PER_BLOCK * d->sms;
        if (warps <= 0) warps = DPA_HF_WARPS_PER_BLOCK * (d->sms > 0 ? d->sms : 1);
        const int64_t want = ((int64_t)cn + DPA_HF_WARPS_PER_BLOCK - 1) / DPA_HF_WARPS_PER_BLOCK *
                             DPA_HF_WARPS_PER_BLOCK;
        if (warps > want) warps = want;
        if (gstride > 0 && warps * gstride > DPA_HF_GSCRATCH) {
            warps = DPA_HF_GSCRATCH / gstride / DPA_HF_WARPS_PER_BLOCK * DPA_HF_WARPS_PER_BLOCK;
            if (warps < DPA_HF_WARPS_PER_BLOCK) warps = DPA_HF_WARPS_PER_BLOCK;
        }
        const int64_t cnt_o = out_o + out_b, gs_o = cnt_o + 16;
        const int64_t dbytes = gs_o + warps * gstride, hbytes = in_b + out_b;
        if ((status = dpa_cuda_slot_reserve(s, (size_t)dbytes, (size_t)hbytes, err)) != DPA_OK) goto cleanup;
        {
            const double tp = b->timing ? dpa_cuda_now_s() : 0;
            nchunks++;
            uint8_t *h = (uint8_t *)s->hbuf, *dv = (uint8_t *)s->dbuf;
            dpa_hf_model *hm = (dpa_hf_model *)(h + mod_o);
            dpa_hf_task *ht = (dpa_hf_task *)(h + task_o);
            int64_t to = 0, nruns = 0, run_bytes = 0;
            for (int64_t t = first; t < last; t++) {
                const dpa_cuda_hmm_task *k = &tasks[t];
                const dpa_cuda_hmm_model *m = &models[k->model];
                const int64_t mi = pos[k->model];
                if (stamp[k->model] == chunk) { /* first use in this chunk: pack it */
                    const int64_t cols = (int64_t)m->M + 1;
                    dpa_hf_model *x = &hm[mi];
                    memset(x, 0, sizeof *x);
                    x->M = m->M;
                    x->ddbound_w = m->ddbound_w;
                    x->bias_b = m->bias_b;
                    x->base_b = m->base_b;
                    x->tbm_b = m->tbm_b;
                    x->tec_b = m->tec_b;
                    x->xw_e_move = m->xw_e_move;
                    x->xw_e_loop = m->xw_e_loop;
                    x->base_w = m->base_w;
                    x->rb = to;
                    memcpy(h + tab_o + to, m->rb, (size_t)(29 * cols));
                    to += hf_align(29 * cols);
                    x->rw = to;
                    memcpy(h + tab_o + to, m->rw, (size_t)(29 * cols * 2));
                    to += hf_align(29 * cols * 2);
                    x->tw = to;
                    memcpy(h + tab_o + to, m->tw, (size_t)(cols * 16));
                    to += hf_align(cols * 16);
                    x->q16 = hf_q16(kind, m->M);
                    x->s16 = to;
                    if (x->q16 > 0) hf_pack_ssv16(m, x->q16, (uint32_t *)(h + tab_o + to));
                    to += dpa_hf_ssv16_words(x->q16) * 4;
                    stamp[k->model] = -2 - chunk; /* packed */
                }
                const int64_t so = num_models + (int64_t)k->seq;
                if (stamp[so] == chunk) {
                    const uint8_t *src = seqs->dsq + seqs->offsets[k->seq];
                    const int64_t dst = seq_o + pos[so], len = seqs->lengths[k->seq];
                    hf_run *prev = nruns > 0 ? &runs[nruns - 1] : NULL;
                    if (prev && prev->src + prev->len == src && prev->dst + prev->len == dst) {
                        prev->len += len;
                    } else {
                        runs[nruns++] = (hf_run){ dst, run_bytes, src, len };
                    }
                    run_bytes += len;
                    stamp[so] = -2 - chunk;
                }
                dpa_hf_task *y = &ht[t - first];
                y->seq = pos[so];
                y->model = (int32_t)mi;
                y->L = seqs->lengths[k->seq];
                y->len_param = k->len_param;
                y->pad = 0;
            }
            if (nruns > 0) {
                hf_copy_job cj = { runs, nruns, run_bytes, h };
                /* below a few MB the team's wake-up costs more than the copy */
                dpa_cuda_team_run(d, hf_copy_part, &cj, run_bytes >= ((int64_t)4 << 20) ? dpa_cuda_team_parts(d) : 1);
            }
            if (code_of) memcpy(h + map_o, code_of, 256);
            /* the stamps now read -2 - chunk: a later chunk (>= chunk + 1) repacks */
            const double td = b->timing ? dpa_cuda_now_s() : 0;
            if (b->timing) t_pack += td - tp;
            DPA_CUDA_TRY(err, cudaMemcpyAsync(dv, h, (size_t)in_b, cudaMemcpyHostToDevice, s->stream));
            DPA_CUDA_TRY(err, cudaMemsetAsync(dv + cnt_o, 0, 16, s->stream));
            DPA_CUDA_TRY(err, dpa_hf_launch(kind, (const dpa_hf_model *)(dv + mod_o), dv + tab_o, dv + seq_o,
                                            code_of ? dv + map_o : NULL,
                                            (const dpa_hf_task *)(dv + task_o), cn, (int32_t *)(dv + out_o),
                                            gstride > 0 ? dv + gs_o : NULL, gstride, smem, (int32_t)warps,
                                            (uint32_t *)(dv + cnt_o), s->stream));
            DPA_CUDA_TRY(err, cudaMemcpyAsync(h + out_o, dv + out_o, (size_t)cn * 4, cudaMemcpyDeviceToHost,
                                              s->stream));
            DPA_CUDA_TRY(err, cudaStreamSynchronize(s->stream));
            if (b->timing) t_dev += dpa_cuda_now_s() - td;
            const int32_t *r = (const int32_t *)(h + out_o);
            for (int32_t i = 0; i < cn; i++) {
                if (r[i] == DPA_HF_BAD) {
                    status = dpa_cuda_fail_msg(err, DPA_ERR_DEVICE,
                                               "dpa_cuda hmm-filter: a warp found no row storage (launch bug)");
                    goto cleanup;
                }
                out[first + i] = r[i];
            }
        }
        first = last;
    }
cleanup:
    if (b->timing && status == DPA_OK)
        dpa_cuda_log(b, DPA_LOG_DEBUG, "dpaccel cuda timing: hmm-filter device %d kind %d, %lld tasks in %lld "
                     "chunks: pack %.3f ms, copies and kernels %.3f ms, call %.3f ms", d->cuda_id, kind,
                     (long long)n, (long long)nchunks, t_pack * 1e3, t_dev * 1e3, (dpa_cuda_now_s() - t0) * 1e3);
    return status;
}
