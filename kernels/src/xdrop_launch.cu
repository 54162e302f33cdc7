/*
 * xdrop_launch.cu — host side of the CUDA X-drop: puts the unit's sequences on the device
 * once, turns their letters into Dna5 codes there, then per chunk of pairs lays out two side
 * tasks per pair exactly as the CPU's batch loop does (cpu/xdrop/xdrop_pairs.c: left on the
 * prefixes read backwards, right on the suffixes, the reverse strand's target read backwards
 * and complemented), runs the kernel, and assembles the seven outputs from the two sides and
 * the seed's own score (summed here, on the host, as the CPU does).
 *
 * The sequences go over in one of two ways, whichever moves fewer bytes:
 *   - range: the span of the batch's query buffer the unit's pairs use, and the target
 *     buffer's (one copy when both are the same buffer: many seeds share a read). Right for
 *     a unit of neighbouring pairs, or seeds that share reads;
 *   - gather: each pair's query and target, packed through the slot's pinned staging in
 *     halves of at most STAGE_HALF bytes (one half filled while the other's copy may still
 *     be in flight; every second switch also waits for the copy just issued). The
 *     scheduler orders pairs by cost and gives each GPU feeder a share of that order, so a
 *     unit's pairs are spread over the whole batch: a range copy then moved the whole input
 *     once per unit (4 units a GPU: ~4x the bytes, pageable) and several GPUs did not scale.
 *
 * Device buffer (the slot's, grown and kept): sequences | tasks | results | counter |
 * workspace. The workspace is three anti-diagonals of the longest side query + 2 columns
 * per warp of the persistent grid; the grid has as many warps as the GPU holds at once unless
 * their workspace would pass max(chunk budget, device / 16) (then fewer, at least one).
 * Nothing overlaps the host's task building with the kernel yet.
 */
#include <stdlib.h>
#include <string.h>

#include "cpu/xdrop/xdrop.h"
#include "xdrop_cuda.h"

#define ALIGN 256
#define CHUNK_PAIRS ((int64_t)1 << 18)
/* > 2 x the longest sequence (2^20 - 1, dpa_xdrop_validate), so a pair always fits a half */
#define STAGE_HALF ((size_t)8 << 20)

static size_t align_up(size_t x) { return (x + ALIGN - 1) & ~(size_t)(ALIGN - 1); }


/* The side of a pair as the CPU lays it out: element 0 at byte offset `at` of its buffer. */
static void set_side(dpa_xd_task *k, int64_t qat, int32_t qlen, int32_t qstep, int64_t tat,
                     int32_t tlen, int32_t tstep, int32_t tcomp)
{
    /* an empty side is never read: its offsets may point anywhere */
    k->qbase = qlen > 0 ? qat : 0;
    k->tbase = tlen > 0 ? tat : 0;
    k->qlen = qlen, k->tlen = tlen;
    k->qstep = qstep, k->tstep = tstep, k->tcomp = tcomp;
    k->pad = 0;
}

static int64_t seed_score(const dpa_xdrop_batch *b, const dpa_xdrop_params *p, int32_t i)
{
    const uint8_t *q = b->query_bases + b->query_offsets[i];
    const uint8_t *t = b->target_bases + b->target_offsets[i];
    const int32_t qpos = b->qpos[i], tpos = b->tpos[i], len = b->seed_lengths[i];
    const int32_t tlen = b->target_lengths[i];
    const int rev = b->strands[i] == DPA_XDROP_REVERSE;
    int64_t seed = 0;
    for (int32_t j = 0; j < len; j++) {
        const uint8_t a = dpa_xdrop_code(q[qpos + j]);
        uint8_t c = dpa_xdrop_code(rev ? t[tlen - 1 - tpos - j] : t[tpos + j]);
        if (rev && c < 4) c = (uint8_t)(3 - c);
        seed += a == c ? p->match : p->mismatch;
    }
    return seed;
}

dpa_status dpa_cuda_xdrop_run(const dpa_cuda_backend *b, dpa_cuda_dev *d, dpa_cuda_slot *s,
                              const dpa_xdrop_batch *batch, const dpa_xdrop_params *params,
                              const int32_t *pairs, int64_t n, const dpa_xdrop_output *out,
                              int64_t *cells, dpa_cuda_err *err)
{
    dpa_status status = DPA_OK;
    const double t0 = b->timing ? dpa_cuda_now_s() : 0;
    double t_seq = 0, t_kernel = 0;
    int64_t qlo = INT64_MAX, qhi = 0, tlo = INT64_MAX, thi = 0, swept = 0, need = 0;
    int32_t maxq = 0;
    for (int64_t k = 0; k < n; k++) {
        const int32_t i = pairs[k];
        const int64_t qo = batch->query_offsets[i], to = batch->target_offsets[i];
        if (qo < qlo) qlo = qo;
        if (qo + batch->query_lengths[i] > qhi) qhi = qo + batch->query_lengths[i];
        if (to < tlo) tlo = to;
        if (to + batch->target_lengths[i] > thi) thi = to + batch->target_lengths[i];
        need += (int64_t)batch->query_lengths[i] + batch->target_lengths[i];
        const int32_t ql = batch->qpos[i], qr = batch->query_lengths[i] - batch->qpos[i] -
                                                batch->seed_lengths[i];
        if (ql > maxq) maxq = ql;
        if (qr > maxq) maxq = qr;
    }
    /* one copy when queries and targets share a buffer (the Java API stores each read once) */
    const int shared = batch->query_bases == batch->target_bases;
    const int64_t lo = shared ? (qlo < tlo ? qlo : tlo) : qlo;
    const int64_t range_q = (shared ? (qhi > thi ? qhi : thi) : qhi) - lo;
    const int64_t range_t = shared ? 0 : thi - tlo;
    const int gather = b->xdrop_copy >= 0 ? b->xdrop_copy : need < range_q + range_t;
    const int64_t qbytes = gather ? need : range_q, tbytes = gather ? 0 : range_t;
    const int64_t tbase0 = shared ? lo : tlo; /* target buffer offset of the device copy's byte 0 */
    const int64_t chunk = n < CHUNK_PAIRS ? n : CHUNK_PAIRS;
    const int64_t stride = ((int64_t)maxq + 2 + 31) / 32 * 32;
    /* ALIGN bytes before and after the sequences: the packed kernel reads up to two bytes
     * past a sequence's ends (masked; xdrop_kernels.cu, sweep16) */
    const size_t seq_bytes = align_up((size_t)qbytes) + align_up((size_t)tbytes) + 2 * ALIGN;
    const size_t task_bytes = align_up(sizeof(dpa_xd_task) * 2 * (size_t)chunk);
    const size_t res_bytes = align_up(sizeof(dpa_xd_res) * 2 * (size_t)chunk);
    const size_t per_warp = 3 * (size_t)stride * sizeof(int32_t);
    const size_t dev16 = (size_t)(d->info.total_memory / 16);
    const size_t ws_allow = b->chunk_bytes > dev16 ? b->chunk_bytes : dev16;
    if (seq_bytes > (size_t)(d->info.total_memory / 2))
        return dpa_cuda_fail_msg(err, DPA_ERR_LIMIT, "dpa_cuda xdrop: the call's sequences "
                                 "exceed half of the device's memory");
    /* gather: per pair, the device offsets of its query's and its target's element 0 */
    int64_t *gofs = NULL;
    if (gather) {
        gofs = (int64_t *)dpa_cuda_slot_scratch(s, sizeof(int64_t) * 2 * (size_t)n);
        if (!gofs)
            return dpa_cuda_fail_msg(err, DPA_ERR_OUT_OF_MEMORY, "dpa_cuda xdrop: out of host "
                                     "memory for the gathered sequences' offsets");
    }
    DPA_CUDA_TRY(err, cudaSetDevice(d->cuda_id));
    {
        int64_t warps = (int64_t)d->sms * dpa_xd_resident_warps_per_sm();
        if (warps < 1) warps = 1;
        if (warps > (int64_t)(ws_allow / per_warp)) warps = (int64_t)(ws_allow / per_warp);
        if (warps > 2 * chunk) warps = 2 * chunk;
        if (warps < 1) warps = 1;
        /* whole blocks: every warp the grid starts has its workspace */
        warps = (warps + DPA_XD_WARPS_PER_BLOCK - 1) / DPA_XD_WARPS_PER_BLOCK * DPA_XD_WARPS_PER_BLOCK;
        const size_t ws_off = seq_bytes + task_bytes + res_bytes + ALIGN;
        /* staging: two halves, each no larger than the unit needs */
        const size_t hsz = (size_t)need < STAGE_HALF ? align_up((size_t)need) : STAGE_HALF;
        status = dpa_cuda_slot_reserve(s, ws_off + (size_t)warps * per_warp,
                                       task_bytes + res_bytes + (gather ? 2 * hsz : 0), err);
        if (status != DPA_OK) goto cleanup;
        uint8_t *dbase = (uint8_t *)s->dbuf;
        uint8_t *dq = dbase + ALIGN, *dt = shared || gather ? dq : dq + align_up((size_t)qbytes);
        dpa_xd_task *dtask = (dpa_xd_task *)(dbase + seq_bytes);
        dpa_xd_res *dres = (dpa_xd_res *)(dbase + seq_bytes + task_bytes);
        uint32_t *dcounter = (uint32_t *)(dbase + seq_bytes + task_bytes + res_bytes);
        int32_t *dws = (int32_t *)(dbase + ws_off);
        dpa_xd_task *htask = (dpa_xd_task *)s->hbuf;
        const dpa_xd_res *hres = (const dpa_xd_res *)((uint8_t *)s->hbuf + task_bytes);
        const dpa_xd_kparams kp = { params->match, params->mismatch, params->gap, params->xdrop,
                                    b->xdrop_int16 == 2 };
        /* the packed kernel when asked for and its 16-bit bound holds, else int32 */
        const int wide = (int64_t)params->xdrop >= (int64_t)b->xdrop_auto_x * -(int64_t)params->gap;
        const int int16 = (b->xdrop_int16 == 3 ? wide : b->xdrop_int16 != 0) && dpa_xd_int16_ok(kp);
        if (gather) {
            uint8_t *stage = (uint8_t *)s->hbuf + task_bytes + res_bytes;
            int cur = 0, pending[2] = { 0, 0 }; /* the half being filled; copies in flight */
            size_t used = 0;
            int64_t dcur = 0;
            for (int64_t k = 0; k < n; k++) {
                const int32_t i = pairs[k];
                const int32_t ql = batch->query_lengths[i], tl = batch->target_lengths[i];
                if ((size_t)ql + (size_t)tl > STAGE_HALF) { /* validated input never */
                    status = dpa_cuda_fail_msg(err, DPA_ERR_LIMIT, "dpa_cuda xdrop: a pair's "
                                               "sequences exceed the staging half (validate first)");
                    goto cleanup;
                }
                if (used + (size_t)ql + (size_t)tl > hsz) {
                    DPA_CUDA_TRY(err, cudaMemcpyAsync(dq + dcur, stage + cur * hsz, used,
                                                      cudaMemcpyHostToDevice, s->stream));
                    pending[cur] = 1;
                    dcur += (int64_t)used;
                    used = 0;
                    cur ^= 1;
                    if (pending[cur]) { /* its copy is older than the one just issued */
                        DPA_CUDA_TRY(err, cudaStreamSynchronize(s->stream));
                        pending[0] = pending[1] = 0;
                    }
                }
                uint8_t *h = stage + cur * hsz + used;
                memcpy(h, batch->query_bases + batch->query_offsets[i], (size_t)ql);
                memcpy(h + ql, batch->target_bases + batch->target_offsets[i], (size_t)tl);
                gofs[2 * k] = dcur + (int64_t)used;
                gofs[2 * k + 1] = dcur + (int64_t)used + ql;
                used += (size_t)ql + (size_t)tl;
            }
            if (used > 0)
                DPA_CUDA_TRY(err, cudaMemcpyAsync(dq + dcur, stage + cur * hsz, used,
                                                  cudaMemcpyHostToDevice, s->stream));
        } else {
            if (qbytes > 0)
                DPA_CUDA_TRY(err, cudaMemcpyAsync(dq, batch->query_bases + lo, (size_t)qbytes,
                                                  cudaMemcpyHostToDevice, s->stream));
            if (tbytes > 0)
                DPA_CUDA_TRY(err, cudaMemcpyAsync(dt, batch->target_bases + tlo, (size_t)tbytes,
                                                  cudaMemcpyHostToDevice, s->stream));
        }
        /* letters to Dna5 codes, in place: the kernel then reads codes */
        DPA_CUDA_TRY(err, dpa_xd_encode(dq, qbytes, s->stream));
        if (tbytes > 0) DPA_CUDA_TRY(err, dpa_xd_encode(dt, tbytes, s->stream));
        if (b->timing) {
            DPA_CUDA_TRY(err, cudaStreamSynchronize(s->stream));
            t_seq = dpa_cuda_now_s() - t0;
        }
        for (int64_t k0 = 0; k0 < n; k0 += chunk) {
            const int64_t m = n - k0 < chunk ? n - k0 : chunk;
            for (int64_t k = 0; k < m; k++) {
                const int32_t i = pairs[k0 + k];
                const int32_t qlen = batch->query_lengths[i], tlen = batch->target_lengths[i];
                const int32_t qpos = batch->qpos[i], tpos = batch->tpos[i], len = batch->seed_lengths[i];
                const int64_t qo = gather ? gofs[2 * (k0 + k)] : batch->query_offsets[i] - lo;
                const int64_t to = gather ? gofs[2 * (k0 + k) + 1] : batch->target_offsets[i] - tbase0;
                const int32_t qr = qlen - qpos - len, tr = tlen - tpos - len;
                const int rev = batch->strands[i] == DPA_XDROP_REVERSE;
                /* left: query[qpos - 1 - j]; target t[tpos - 1 - j], or complement(t[tlen - tpos + j]) */
                if (rev)
                    set_side(&htask[2 * k], qo + qpos - 1, qpos, -1, to + tlen - tpos, tpos, 1, 1);
                else
                    set_side(&htask[2 * k], qo + qpos - 1, qpos, -1, to + tpos - 1, tpos, -1, 0);
                /* right: query[qpos + len + j]; t[tpos + len + j], or complement(t[tr - 1 - j]) */
                if (rev)
                    set_side(&htask[2 * k + 1], qo + qpos + len, qr, 1, to + tr - 1, tr, -1, 1);
                else
                    set_side(&htask[2 * k + 1], qo + qpos + len, qr, 1, to + tpos + len, tr, 1, 0);
            }
            const double tk = b->timing ? dpa_cuda_now_s() : 0;
            DPA_CUDA_TRY(err, cudaMemcpyAsync(dtask, htask, sizeof *htask * 2 * (size_t)m,
                                              cudaMemcpyHostToDevice, s->stream));
            DPA_CUDA_TRY(err, cudaMemsetAsync(dcounter, 0, sizeof *dcounter, s->stream));
            DPA_CUDA_TRY(err, dpa_xd_launch(dq, dt, dtask, (int32_t)(2 * m), dres, dws, stride,
                                            (int32_t)warps, dcounter, kp, int16, s->stream));
            DPA_CUDA_TRY(err, cudaMemcpyAsync((void *)hres, dres, sizeof *hres * 2 * (size_t)m,
                                              cudaMemcpyDeviceToHost, s->stream));
            DPA_CUDA_TRY(err, cudaStreamSynchronize(s->stream));
            if (b->timing) t_kernel += dpa_cuda_now_s() - tk;
            for (int64_t k = 0; k < m; k++) {
                const int32_t i = pairs[k0 + k];
                const dpa_xd_res L = hres[2 * k], R = hres[2 * k + 1];
                const int32_t qpos = batch->qpos[i], tpos = batch->tpos[i], len = batch->seed_lengths[i];
                /* |left + right + seed| < 2^31 for validated input; only SeqAn's "undefined"
                 * side result can leave int32 (clamped as the CPU clamps it) */
                int64_t score = (int64_t)L.score + R.score + seed_score(batch, params, i);
                if (score < INT32_MIN) score = INT32_MIN;
                out->score[i] = (int32_t)score;
                out->left[i] = L.score;
                out->right[i] = R.score;
                out->qbeg[i] = qpos - L.qext;
                out->tbeg[i] = tpos - L.text;
                out->qend[i] = qpos + len + R.qext;
                out->tend[i] = tpos + len + R.text;
                swept += L.cells + R.cells;
            }
        }
    }
    *cells += swept;
    if (b->timing)
        dpa_cuda_log(b, DPA_LOG_DEBUG, "dpaccel cuda timing: xdrop device %d, %lld pairs, %.3f G "
                     "cells, %s %lld bytes of sequence (%lld needed): sequences %.3f ms, kernels "
                     "%.3f ms (%.1f GCUPS), call %.3f ms", d->cuda_id, (long long)n,
                     (double)swept * 1e-9, gather ? "gathered" : "range", (long long)(qbytes + tbytes),
                     (long long)need, t_seq * 1e3, t_kernel * 1e3,
                     t_kernel > 0 ? (double)swept / t_kernel * 1e-9 : 0.0,
                     (dpa_cuda_now_s() - t0) * 1e3);
cleanup:
    return status;
}
