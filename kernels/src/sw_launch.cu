/*
 * sw_launch.cu — host side of the CUDA Smith-Waterman: cuts the caller's pairs into chunks
 * of the device budget, packs each chunk into the slot's pinned buffer, and runs
 * H2D -> kernel -> D2H (results) -> D2H (CIGAR text actually used) on the slot's stream,
 * then copies each CIGAR into the caller's slot.
 *
 * Chunks are pipelined (dpa_cuda_sw_run): the host packs chunk k + 1 while chunk k runs and
 * unpacks chunk k while chunk k + 1 runs, from two halves of the slot's pinned buffer.
 *
 * Chunk layout, the same offsets on the device and in the pinned buffer (the pinned one
 * stops after the text):
 *   descs[np] | bases | used (u32, 16 B) | res[np] | text | scratch (int32) | traceback
 * One H2D copies descs .. used (used = 0), one D2H copies used .. res, a second D2H copies
 * the used bytes of text (a few bytes per pair instead of the 2 * (n + m) bound).
 *
 * Memory: the slot's buffers are the PairHMM pool's (device_pool.cu), grown to the largest
 * chunk and kept, so steady-state calls never allocate. A chunk holds at most chunk_bytes
 * of device memory unless one pair alone needs more (at most ~0.55 GB: 2^30 cells).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "sw_cuda.h"

/* u32 offsets in dpa_sw_desc / dpa_sw_res: a chunk's regions stay below 2^31 bytes */
#define SW_CHUNK_MAX_BYTES ((size_t)1 << 31)
#define SW_CHUNK_MAX_PAIRS ((int64_t)1 << 22)

static size_t align_up(size_t x, size_t a) { return (x + a - 1) & ~(a - 1); }

static double wall(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec + 1e-9 * (double)t.tv_nsec;
}

/* DPACCEL_SW_SPLIT_TB=1 moves the traceback into its own kernel (to measure the fused one
 * against it; docs/sw-cuda.md, run 6). */
static int sw_split_tb(void)
{
    const char *e = getenv("DPACCEL_SW_SPLIT_TB");
    return e && e[0] == '1';
}

static int sw_waves(void)
{
    const char *e = getenv("DPACCEL_SW_WAVES");
    return !(e && e[0] == '0');
}

typedef struct layout {
    size_t desc, bases, used, res, text, scr, tb, end;
} layout;

/* Device bytes one pair adds to a chunk (all of its regions, alignment included). */
static size_t pair_bytes(int32_t n, int32_t m)
{
    return sizeof(dpa_sw_desc) + sizeof(dpa_sw_res) + 3 * ((size_t)n + (size_t)m) +
           (size_t)dpa_sw_gpu_scr_words(n, m) * 4 + (size_t)dpa_sw_gpu_tb_bytes(n, m);
}

/* One chunk: pairs [k0, k1) of the call, its layout and its bound on CIGAR text. */
typedef struct sw_chunk {
    int64_t k0, k1;
    layout L;
    size_t ntext;
} sw_chunk;

/* Chunk starting at pair k0: as many pairs as the budget holds (at least one), cut to whole
 * waves unless it is the last. */
static void plan_chunk(const dpa_sw_batch *batch, const int32_t *pairs, int64_t n, int64_t k0,
                       size_t budget, int64_t wave, sw_chunk *c)
{
    int64_t k1 = k0;
    size_t dev = 0, nbases = 0, ntext = 0, nscr = 0, ntb = 0;
    while (k1 < n && k1 - k0 < SW_CHUNK_MAX_PAIRS) {
        const size_t pb = pair_bytes(batch->ref_lengths[pairs[k1]], batch->alt_lengths[pairs[k1]]);
        if (k1 > k0 && dev + pb > budget) break;
        dev += pb;
        k1++;
    }
    if (wave > 0 && k1 < n && k1 - k0 > wave) k1 = k0 + (k1 - k0) / wave * wave;
    for (int64_t k = k0; k < k1; k++) {
        const int32_t rn = batch->ref_lengths[pairs[k]], am = batch->alt_lengths[pairs[k]];
        nbases += (size_t)rn + (size_t)am;
        ntext += 2 * ((size_t)rn + (size_t)am);
        nscr += (size_t)dpa_sw_gpu_scr_words(rn, am);
        ntb += (size_t)dpa_sw_gpu_tb_bytes(rn, am);
    }
    const size_t np = (size_t)(k1 - k0);
    layout *L = &c->L;
    L->desc = 0;
    L->bases = np * sizeof(dpa_sw_desc);
    L->used = align_up(L->bases + nbases, 16);
    L->res = L->used + 16;
    L->text = align_up(L->res + np * sizeof(dpa_sw_res), 16);
    L->scr = align_up(L->text + ntext, 16);
    L->tb = align_up(L->scr + nscr * 4, 128);
    L->end = L->tb + ntb;
    c->k0 = k0;
    c->k1 = k1;
    c->ntext = ntext;
}

/* Descriptors and bases of chunk c into the pinned staging area h; returns its cells. */
static int64_t pack_chunk(const dpa_sw_batch *batch, const int32_t *pairs, const sw_chunk *c,
                          uint8_t *h)
{
    dpa_sw_desc *desc = (dpa_sw_desc *)(h + c->L.desc);
    uint8_t *hb = h + c->L.bases;
    size_t bpos = 0, spos = 0, tpos = 0;
    int64_t cells = 0;
    for (int64_t k = 0; k < c->k1 - c->k0; k++) {
        const int32_t i = pairs[c->k0 + k];
        const int32_t rn = batch->ref_lengths[i], am = batch->alt_lengths[i];
        dpa_sw_desc *ds = &desc[k];
        ds->n = rn;
        ds->m = am;
        ds->ref = (uint32_t)bpos;
        memcpy(hb + bpos, batch->ref_bases + batch->ref_offsets[i], (size_t)rn);
        bpos += (size_t)rn;
        ds->alt = (uint32_t)bpos;
        memcpy(hb + bpos, batch->alt_bases + batch->alt_offsets[i], (size_t)am);
        bpos += (size_t)am;
        ds->scr = (uint32_t)spos;
        spos += (size_t)dpa_sw_gpu_scr_words(rn, am);
        ds->tb = (uint32_t)(tpos / 128);
        tpos += (size_t)dpa_sw_gpu_tb_bytes(rn, am);
        ds->pad[0] = ds->pad[1] = 0;
        cells += (int64_t)rn * am;
    }
    memset(h + c->L.used, 0, 16);
    return cells;
}

/* The chunk's CIGARs into the caller's slots (the results and the used text are in h). */
static dpa_status unpack_chunk(const dpa_sw_batch *batch, const int32_t *pairs, const sw_chunk *c,
                               const uint8_t *h, uint32_t used, char *cigars, const int64_t *slots,
                               int32_t *cigar_lengths, int32_t *alignment_offsets,
                               int64_t *exact, dpa_cuda_err *err)
{
    const dpa_sw_res *res = (const dpa_sw_res *)(h + c->L.res);
    const char *text = (const char *)(h + c->L.text);
    for (int64_t k = 0; k < c->k1 - c->k0; k++) {
        const int32_t i = pairs[c->k0 + k];
        const dpa_sw_res r = res[k];
        const int64_t bound = 2 * ((int64_t)batch->ref_lengths[i] + batch->alt_lengths[i]);
        if (r.len <= 0 || r.len > bound || (uint64_t)r.pos + (uint64_t)r.len > used)
            return dpa_cuda_fail_msg(err, DPA_ERR_DEVICE,
                                     "dpa_cuda sw: a pair's CIGAR is outside its bounds "
                                     "(corrupt result)");
        memcpy(cigars + slots[i], text + r.pos, (size_t)r.len);
        cigar_lengths[i] = r.len;
        alignment_offsets[i] = r.offset;
        *exact += r.exact;
    }
    return DPA_OK;
}

/* Chunk c in from the staging area h, its kernel, its results and text counter out; all
 * queued on the slot's stream. */
static cudaError_t launch_chunk(const dpa_cuda_backend *b, dpa_cuda_slot *s, const sw_chunk *c,
                                uint8_t *h, const dpa_sw_kparams *kp)
{
    uint8_t *dbase = (uint8_t *)s->dbuf;
    const layout L = c->L;
    cudaError_t e = cudaMemcpyAsync(dbase, h, L.res, cudaMemcpyHostToDevice, s->stream);
    if (e == cudaSuccess && b->timing) e = cudaEventRecord(s->ev[0], s->stream);
    if (e == cudaSuccess)
        e = dpa_sw_launch((const dpa_sw_desc *)(dbase + L.desc), (int32_t)(c->k1 - c->k0),
                          dbase + L.bases, (uint32_t *)(dbase + L.tb), (int32_t *)(dbase + L.scr),
                          (char *)(dbase + L.text), (uint32_t *)(dbase + L.used),
                          (dpa_sw_res *)(dbase + L.res), *kp, s->stream);
    if (e == cudaSuccess && b->timing) e = cudaEventRecord(s->ev[1], s->stream);
    if (e == cudaSuccess)
        e = cudaMemcpyAsync(h + L.used, dbase + L.used, L.text - L.used, cudaMemcpyDeviceToHost,
                            s->stream);
    return e;
}

/* Chunks run as a two-stage pipeline on the slot's stream: while chunk k's kernel runs, the
 * host packs chunk k + 1 into the other half of the pinned staging buffer, and once chunk
 * k's results are back, queues chunk k + 1 and unpacks chunk k while it runs. One device
 * buffer serves both (chunk k + 1 is copied in only after chunk k's results are out). */
dpa_status dpa_cuda_sw_run(const dpa_cuda_backend *b, dpa_cuda_dev *d, dpa_cuda_slot *s,
                           const dpa_sw_batch *batch, const dpa_sw_params *params,
                           const int32_t *pairs, int64_t n, char *cigars, const int64_t *slots,
                           int32_t *cigar_lengths, int32_t *alignment_offsets,
                           int64_t *exact_matches, dpa_cuda_err *err)
{
    dpa_status status = DPA_OK;
    const dpa_sw_kparams kp = { params->match, params->mismatch, params->gap_open,
                                params->gap_extend, params->overhang, 1, -1,
                                sw_split_tb() };
    size_t budget = b->chunk_bytes < SW_CHUNK_MAX_BYTES ? b->chunk_bytes : SW_CHUNK_MAX_BYTES;
    int64_t exact = 0, nchunks = 0, cells = 0, wave = 0;
    size_t dmax = 0, hmax = 0;
    sw_chunk cur, next;
    uint8_t *hhalf[2];
    /* DPACCEL_CUDA_TIMING=1: per-call phase times on stderr (as the PairHMM path does) */
    double t_pack = 0, t_wait = 0, t_unpack = 0, t_call = b->timing ? wall() : 0, t0 = 0;
    float k_ms = 0;
    *exact_matches = 0;
    DPA_CUDA_TRY(err, cudaSetDevice(d->cuda_id));
    /* A chunk of similar pairs (the engine sorts them) runs in waves of `wave` warps; a
     * chunk cut to whole waves leaves no half-empty last wave (DPACCEL_SW_WAVES=0: off). */
    if (sw_waves()) wave = (int64_t)d->sms * dpa_sw_resident_warps_per_sm();
    /* the buffers are sized once for the largest chunk: both staging halves stay valid */
    for (int64_t k0 = 0; k0 < n; k0 = cur.k1) {
        plan_chunk(batch, pairs, n, k0, budget, wave, &cur);
        if (cur.L.end > dmax) dmax = cur.L.end;
        if (cur.L.scr > hmax) hmax = cur.L.scr;
    }
    hmax = align_up(hmax, 128);
    status = dpa_cuda_slot_reserve(s, dmax, 2 * hmax, err);
    if (status != DPA_OK) goto cleanup;
    hhalf[0] = (uint8_t *)s->hbuf;
    hhalf[1] = (uint8_t *)s->hbuf + hmax;

    if (b->timing) t0 = wall();
    plan_chunk(batch, pairs, n, 0, budget, wave, &cur);
    cells += pack_chunk(batch, pairs, &cur, hhalf[0]);
    if (b->timing) t_pack += wall() - t0;
    DPA_CUDA_TRY(err, launch_chunk(b, s, &cur, hhalf[0], &kp));
    for (int64_t ci = 0;; ci++) {
        uint8_t *h = hhalf[ci & 1];
        const int have_next = cur.k1 < n;
        nchunks++;
        /* chunk ci + 1 is packed while chunk ci runs */
        if (b->timing) t0 = wall();
        if (have_next) {
            plan_chunk(batch, pairs, n, cur.k1, budget, wave, &next);
            cells += pack_chunk(batch, pairs, &next, hhalf[(ci + 1) & 1]);
        }
        if (b->timing) {
            t_pack += wall() - t0;
            t0 = wall();
        }
        DPA_CUDA_TRY(err, cudaStreamSynchronize(s->stream));
        uint32_t used;
        memcpy(&used, h + cur.L.used, sizeof used);
        if (used > cur.ntext) {
            status = dpa_cuda_fail_msg(err, DPA_ERR_DEVICE,
                                       "dpa_cuda sw: the kernel reported more CIGAR text than "
                                       "the bound (corrupt result)");
            goto cleanup;
        }
        if (used > 0) {
            DPA_CUDA_TRY(err, cudaMemcpyAsync(h + cur.L.text, (uint8_t *)s->dbuf + cur.L.text,
                                              used, cudaMemcpyDeviceToHost, s->stream));
            DPA_CUDA_TRY(err, cudaStreamSynchronize(s->stream));
        }
        if (b->timing) {
            float ms = 0;
            t_wait += wall() - t0;
            if (cudaEventElapsedTime(&ms, s->ev[0], s->ev[1]) == cudaSuccess) k_ms += ms;
        }
        /* the device buffer is free: chunk ci + 1 runs while chunk ci is unpacked */
        const sw_chunk done = cur;
        if (have_next) {
            cur = next;
            DPA_CUDA_TRY(err, launch_chunk(b, s, &cur, hhalf[(ci + 1) & 1], &kp));
        }
        if (b->timing) t0 = wall();
        status = unpack_chunk(batch, pairs, &done, h, used, cigars, slots, cigar_lengths,
                              alignment_offsets, &exact, err);
        if (status != DPA_OK) goto cleanup;
        if (b->timing) t_unpack += wall() - t0;
        if (!have_next) break;
    }
    *exact_matches = exact;
    if (b->timing)
        fprintf(stderr, "dpa_cuda sw: %lld pairs, %.3f G cells, %lld chunks: call %.2f ms = pack "
                "%.2f + wait %.2f (kernels %.2f ms, %.3f TCUPS) + d2h/unpack %.2f\n",
                (long long)n, (double)cells * 1e-9, (long long)nchunks, (wall() - t_call) * 1e3,
                t_pack * 1e3, t_wait * 1e3, k_ms, k_ms > 0 ? (double)cells / k_ms * 1e-9 : 0.0,
                t_unpack * 1e3);
cleanup:
    return status;
}
