/*
 * sw_launch.cu — host side of the CUDA Smith-Waterman: cuts the caller's pairs into chunks,
 * packs each chunk into the slot's pinned buffer, and runs H2D -> kernel -> D2H (results)
 * -> D2H (CIGAR text actually used) on the slot's stream, then copies each CIGAR into the
 * caller's slot.
 *
 * Chunks are pipelined (dpa_cuda_sw_run): the host packs chunk k + 1 while chunk k runs and
 * unpacks chunk k while chunk k + 1 runs, from two halves of the slot's pinned buffer. The
 * first chunk of a call holds a quarter of the grid's pairs (each warp takes two) and each
 * later one at most twice its predecessor, so the GPU starts after a small pack, not after
 * the whole call's.
 *
 * Chunk layout, the same offsets on the device and in the pinned buffer (the pinned one
 * stops before the workspace):
 *   descs[np] | bases | counters (u32 x 4) | res[np] | text | workspace (per warp)
 * One H2D copies descs .. counters (counters = 0), one D2H copies counters .. res, a second
 * D2H copies the used bytes of text (a few bytes per pair instead of the 2 * (n + m) bound).
 *
 * Memory: the per-pair regions of a chunk hold at most chunk_bytes (and 2^31: 32-bit
 * offsets). The workspace is one traceback + scratch per warp of the persistent grid, sized
 * for the chunk's largest pair; the grid has as many warps as the GPU holds at once unless
 * their workspace would pass sw_ws_allow() (then fewer warps, at least one) or
 * DPACCEL_SW_GRID_WARPS caps it. The slot's buffers are the PairHMM pool's (device_pool.cu),
 * grown to the largest chunk and kept, so steady-state calls never allocate.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "sw_cuda.h"

/* u32 offsets in dpa_sw_desc / dpa_sw_res: a chunk's per-pair regions stay below 2^31 bytes */
#define SW_CHUNK_MAX_BYTES ((size_t)1 << 31)
#define SW_CHUNK_MAX_PAIRS ((int64_t)1 << 22)

static size_t align_up(size_t x, size_t a) { return (x + a - 1) & ~(a - 1); }

static double wall(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec + 1e-9 * (double)t.tv_nsec;
}

/* DPACCEL_SW_GRID_WARPS=N caps the persistent grid at N warps (tests: few warps, each
 * reusing its workspace for many pairs; measurements of occupancy); 0 or unset: no cap. */
static int64_t sw_grid_cap(void)
{
    const char *e = getenv("DPACCEL_SW_GRID_WARPS");
    const long long v = e ? atoll(e) : 0;
    return v > 0 ? (int64_t)v : 0;
}

/* DPACCEL_SW_TWIN=0 fills every pair alone (measurements, tests of the single fill). */
static int sw_twin_enabled(void)
{
    const char *e = getenv("DPACCEL_SW_TWIN");
    return !(e && e[0] == '0');
}

/* Device bytes the workspaces of one call's grid may take: the chunk budget, or a sixteenth
 * of the device when that is more (a full H100 grid of 1 kb haplotype pairs needs ~1.5 GB:
 * the default 1 GiB budget would idle a third of the GPU). */
static size_t sw_ws_allow(const dpa_cuda_backend *b, const dpa_cuda_dev *d)
{
    const size_t dev16 = (size_t)(d->info.total_memory / 16);
    return b->chunk_bytes > dev16 ? b->chunk_bytes : dev16;
}

static int64_t grow(int64_t max_pairs)
{
    return max_pairs < SW_CHUNK_MAX_PAIRS ? 2 * max_pairs : max_pairs;
}

typedef struct layout {
    size_t desc, bases, used, res, text, ws, end;
} layout;

/* Device bytes one pair adds to a chunk's per-pair regions. */
static size_t pair_bytes(int32_t n, int32_t m)
{
    return sizeof(dpa_sw_desc) + sizeof(dpa_sw_res) + 3 * ((size_t)n + (size_t)m);
}

/* One chunk: pairs [k0, k1) of the call, its layout, its bound on CIGAR text, and its grid:
 * warps warps, each with tb_bytes of traceback and scr_words of scratch. */
typedef struct sw_chunk {
    int64_t k0, k1;
    layout L;
    size_t ntext;
    uint64_t tb_bytes, scr_words;
    int64_t warps;
} sw_chunk;

/* Chunk starting at pair k0: at most max_pairs pairs, as many as the budget holds (at least
 * one); grid of at most grid warps within ws_allow. */
static void plan_chunk(const dpa_sw_batch *batch, const int32_t *pairs, int64_t n, int64_t k0,
                       int64_t max_pairs, size_t budget, int64_t grid, size_t ws_allow,
                       sw_chunk *c)
{
    int64_t k1 = k0;
    size_t dev = 0, nbases = 0, ntext = 0;
    int64_t tb = 128, scr = 4;
    while (k1 < n && k1 - k0 < max_pairs && k1 - k0 < SW_CHUNK_MAX_PAIRS) {
        const int32_t rn = batch->ref_lengths[pairs[k1]], am = batch->alt_lengths[pairs[k1]];
        const size_t pb = pair_bytes(rn, am);
        if (k1 > k0 && dev + pb > budget) break;
        dev += pb;
        nbases += (size_t)rn + (size_t)am;
        ntext += 2 * ((size_t)rn + (size_t)am);
        const int64_t t = dpa_sw_gpu_tb_bytes(rn, am), w = dpa_sw_gpu_scr_words(rn, am);
        if (t > tb) tb = t;
        if (w > scr) scr = w;
        if ((k1 - k0) & 1) {
            /* pairs 2w and 2w + 1 of the chunk may run as a twin (sw_twin.cuh) */
            const int32_t pn = batch->ref_lengths[pairs[k1 - 1]], pm = batch->alt_lengths[pairs[k1 - 1]];
            const int32_t tn = pn > rn ? pn : rn, tm = pm > am ? pm : am;
            const int64_t t2 = dpa_sw_gpu_twin_tb_bytes(tn, tm), w2 = dpa_sw_gpu_twin_scr_words(tn, tm);
            if (t2 > tb) tb = t2;
            if (w2 > scr) scr = w2;
        }
        k1++;
    }
    const size_t np = (size_t)(k1 - k0);
    const size_t per_warp = (size_t)tb + 4 * (size_t)scr;
    int64_t warps = (int64_t)(ws_allow / per_warp);
    if (warps > grid) warps = grid;
    if (warps > (int64_t)(np + 1) / 2) warps = (int64_t)(np + 1) / 2; /* two pairs per warp */
    if (warps < 1) warps = 1;
    layout *L = &c->L;
    L->desc = 0;
    L->bases = np * sizeof(dpa_sw_desc);
    L->used = align_up(L->bases + nbases, 16);
    L->res = L->used + 16;
    L->text = align_up(L->res + np * sizeof(dpa_sw_res), 16);
    L->ws = align_up(L->text + ntext, 128);
    L->end = L->ws + (size_t)warps * per_warp;
    c->k0 = k0;
    c->k1 = k1;
    c->ntext = ntext;
    c->tb_bytes = (uint64_t)tb;
    c->scr_words = (uint64_t)scr;
    c->warps = warps;
}

/* Descriptors and bases of chunk c into the pinned staging area h; returns its cells. */
static int64_t pack_chunk(const dpa_sw_batch *batch, const int32_t *pairs, const sw_chunk *c,
                          uint8_t *h)
{
    dpa_sw_desc *desc = (dpa_sw_desc *)(h + c->L.desc);
    uint8_t *hb = h + c->L.bases;
    size_t bpos = 0;
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
                          dbase + L.bases, dbase + L.ws, c->tb_bytes, c->scr_words,
                          (int32_t)c->warps, (char *)(dbase + L.text),
                          (uint32_t *)(dbase + L.used), (dpa_sw_res *)(dbase + L.res), *kp,
                          s->stream);
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
    dpa_sw_kparams kp = { params->match, params->mismatch, params->gap_open,
                                params->gap_extend, params->overhang, 1, -1, 2,
                                sw_twin_enabled() && dpa_sw_twin_fits(params->match,
                                                                      params->mismatch,
                                                                      params->gap_open,
                                                                      params->gap_extend) };
    dpa_sw_twin_kparams(&kp);
    size_t budget = b->chunk_bytes < SW_CHUNK_MAX_BYTES ? b->chunk_bytes : SW_CHUNK_MAX_BYTES;
    const size_t ws_allow = sw_ws_allow(b, d);
    int64_t exact = 0, nchunks = 0, cells = 0, grid, first_pairs, max_pairs;
    size_t dmax = 0, hmax = 0;
    sw_chunk cur, next;
    uint8_t *hhalf[2];
    /* DPACCEL_CUDA_TIMING=1: per-call phase times on the host log (as the PairHMM path does) */
    double t_pack = 0, t_wait = 0, t_unpack = 0, t_call = b->timing ? wall() : 0, t0 = 0;
    float k_ms = 0;
    *exact_matches = 0;
    DPA_CUDA_TRY(err, cudaSetDevice(d->cuda_id));
    grid = (int64_t)d->sms * dpa_sw_resident_warps_per_sm();
    if (grid < 1) grid = 1;
    {
        const int64_t cap = sw_grid_cap();
        if (cap > 0 && cap < grid) grid = cap;
    }
    /* The first chunk: a quarter of the grid's pairs (a warp takes two at a time), and each
     * later one at most twice the one before. The engine runs 4 calls per device at once, so
     * their first chunks together fill the grid, and each is packed in ~1 ms instead of ~4.5
     * (run 15: engine 46.8 against 48.2 ms for hap 100k with a full grid's 5,280 pairs). */
    first_pairs = grid / 2 > 32 ? grid / 2 : 32;
    {
        /* DPACCEL_SW_FIRST_PAIRS=N: the first chunk's pairs (measurements of the start-up) */
        const char *e = getenv("DPACCEL_SW_FIRST_PAIRS");
        const long long v = e ? atoll(e) : 0;
        if (v > 0) first_pairs = (int64_t)v;
    }
    /* the buffers are sized once for the largest chunk: both staging halves stay valid */
    max_pairs = first_pairs;
    for (int64_t k0 = 0; k0 < n; k0 = cur.k1, max_pairs = grow(max_pairs)) {
        plan_chunk(batch, pairs, n, k0, max_pairs, budget, grid, ws_allow, &cur);
        if (cur.L.end > dmax) dmax = cur.L.end;
        if (cur.L.ws > hmax) hmax = cur.L.ws; /* the text comes back into the staging half too */
    }
    hmax = align_up(hmax, 128);
    status = dpa_cuda_slot_reserve(s, dmax, 2 * hmax, err);
    if (status != DPA_OK) goto cleanup;
    hhalf[0] = (uint8_t *)s->hbuf;
    hhalf[1] = (uint8_t *)s->hbuf + hmax;

    if (b->timing) t0 = wall();
    max_pairs = first_pairs;
    plan_chunk(batch, pairs, n, 0, max_pairs, budget, grid, ws_allow, &cur);
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
            max_pairs = grow(max_pairs);
            plan_chunk(batch, pairs, n, cur.k1, max_pairs, budget, grid, ws_allow, &next);
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
        dpa_cuda_log(b, DPA_LOG_DEBUG, "dpa_cuda sw: %lld pairs, %.3f G cells, %lld chunks, grid %lld warps: call "
                "%.2f ms = pack %.2f + wait %.2f (kernels %.2f ms, %.3f TCUPS) + d2h/unpack "
                "%.2f",
                (long long)n, (double)cells * 1e-9, (long long)nchunks, (long long)grid,
                (wall() - t_call) * 1e3,
                t_pack * 1e3, t_wait * 1e3, k_ms, k_ms > 0 ? (double)cells / k_ms * 1e-9 : 0.0,
                t_unpack * 1e3);
cleanup:
    return status;
}
