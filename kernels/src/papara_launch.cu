/*
 * papara_launch.cu — host side of the CUDA PaPaRa scoring. A call's reads go in two passes:
 * those inside the 16-bit bound (dpa_cuda_papara_fits16) to the two-profiles-per-thread
 * kernel (papara_pairs_kernel.cu), the rest to the int32 kernel (papara_kernels.cu); under
 * the paper2012 model every read goes to its int32 kernel (papara_paper2012_kernel.cu). Each
 * pass sends the caller's profile range once in its kernel's layout, then its reads in
 * chunks that fit the slot's budget: H2D reads -> kernel -> D2H scores, on the slot's
 * stream; the scores go back to each read's own row of out.
 *
 * Device layout of a pass (256-byte aligned regions of the slot's buffer):
 *   profiles | reads | offs (int64 x k) | lens (int32 x k) | out (k x np)
 *   ... | next (int32 per grid column, 16-bit kernel) | bnd
 * bnd holds the stripe boundaries (8 bytes per site per thread, 4 for paper2012): per read
 * for the int32 kernels, which so bounds their reads per launch k (the budget there is the
 * larger of the chunk budget and an eighth of the device's memory); per resident thread for
 * the 16-bit kernel (one wave of grid rows, up to the larger of half the budget and an
 * eighth of the device's memory), which then takes every read that fits the rest of the
 * budget.
 */
#include <stdlib.h>
#include <string.h>

#include "papara_cuda.h"

static size_t align_up(size_t x) { return (x + 255) & ~(size_t)255; }

int dpa_cuda_papara_fits16(int32_t read_length, const dpa_papara_params *p)
{
    int64_t m = p->match;
    if (-(int64_t)p->gap_open > m) m = -(int64_t)p->gap_open;
    if (-(int64_t)p->gap_extend > m) m = -(int64_t)p->gap_extend;
    if (-(int64_t)p->match_cgap > m) m = -(int64_t)p->match_cgap;
    const int64_t lo = (int64_t)p->match + p->match_cgap; /* the smallest and largest byte */
    return m <= 1000 && m * ((int64_t)read_length + 2) <= 30000 && p->match <= 127 &&
           p->match_cgap >= -128 && lo >= -128 && lo <= 127;
}

/* One byte of a pair word: what read base c adds on the diagonal of a site in state s. */
static uint32_t bonus_byte(uint8_t s, int c, const dpa_papara_params *p)
{
    const int32_t v = ((s >> c) & 1 ? p->match : 0) + (s & DPA_PAPARA_CGAP_BIT ? p->match_cgap : 0);
    return (uint32_t)(uint8_t)(int8_t)v;
}

/* Profiles [p0, p0 + np) as pair words, site-major; an odd count's last pair repeats its
 * profile in the unused half (its score is not kept). */
static void build_pair_words(dpa_papara_pair_word *h, const dpa_papara_batch *b, int32_t p0,
                             int32_t np, const dpa_papara_params *p)
{
    const int64_t S = b->num_sites;
    const int32_t npair = (np + 1) / 2;
    for (int32_t t = 0; t < npair; t++) {
        const uint8_t *s0 = b->profiles + (int64_t)(p0 + 2 * t) * S;
        const uint8_t *s1 = b->profiles + (int64_t)(p0 + (2 * t + 1 < np ? 2 * t + 1 : 2 * t)) * S;
        for (int64_t i = 0; i < S; i++) {
            dpa_papara_pair_word w;
            w.x = bonus_byte(s0[i], 0, p) | bonus_byte(s1[i], 0, p) << 8 |
                  bonus_byte(s0[i], 1, p) << 16 | bonus_byte(s1[i], 1, p) << 24;
            w.y = bonus_byte(s0[i], 2, p) | bonus_byte(s1[i], 2, p) << 8 |
                  bonus_byte(s0[i], 3, p) << 16 | bonus_byte(s1[i], 3, p) << 24;
            w.z = (s0[i] & DPA_PAPARA_CGAP_BIT ? 0u : 0xffffu) |
                  (s1[i] & DPA_PAPARA_CGAP_BIT ? 0u : 0xffff0000u);
            w.w = (uint32_t)(s0[i] & 15) | (uint32_t)(s1[i] & 15) << 16;
            h[i * npair + t] = w;
        }
    }
}

/* One pass: the reads idx[0, n) (call-relative) on one kernel. */
static dpa_status run_pass(dpa_cuda_backend *b, dpa_cuda_dev *d, dpa_cuda_slot *s, const dpa_papara_batch *batch,
                           const dpa_papara_params *params, int32_t first_profile, int32_t np,
                           int32_t first_read, const int32_t *idx, int32_t n, int pairs,
                           int32_t *out, dpa_cuda_err *err)
{
    dpa_status status = DPA_OK;
    const int64_t S = batch->num_sites;
    /* threads per grid row: int32 kernel, a thread per profile in blocks; 16-bit kernel,
     * a lane per profile pair in warps (columns of 32 pairs) */
    const int32_t lanes = pairs ? (np + 1) / 2 : np;
    const int64_t unit = pairs ? 32 : DPA_PAPARA_CUDA_BLOCK;
    const int64_t threads_per_read = (lanes + unit - 1) / unit * unit;
    const size_t prof_bytes =
        align_up(pairs ? (size_t)S * (size_t)lanes * sizeof(dpa_papara_pair_word) : (size_t)S * (size_t)np);
    int32_t maxlen = 0;
    for (int32_t r = 0; r < n; r++)
        if (batch->read_lengths[first_read + idx[r]] > maxlen) maxlen = batch->read_lengths[first_read + idx[r]];
    /* int32 kernel: a grid row per read, so every read of a launch has its own boundary
     * rows; 16-bit kernel: one resident wave of grid rows loops over all the launch's reads */
    /* S and SU per site and thread; the paper2012 kernel keeps only S */
    const int m12 = params->score_model == DPA_PAPARA_SCORE_PAPER2012;
    const size_t bnd_row = (size_t)((m12 && !pairs ? 4 : 8) * S * threads_per_read);
    int64_t rows = 0; /* 16-bit kernel: warps per column */
    if (pairs) {
        const int64_t columns = threads_per_read / 32;
        const int64_t wave = (int64_t)d->sms * dpa_cuda_papara_pairs_blocks_per_sm() *
                             (DPA_PAPARA_CUDA_BLOCK / 32);
        rows = wave / columns;
        /* one wave needs ~24 KiB per resident thread at 3,060 sites (1.2 GB on an H200):
         * it may pass the chunk budget, up to an eighth of the device's memory */
        size_t cap = (size_t)(d->info.total_memory / 8);
        if (cap < b->chunk_bytes / 2) cap = b->chunk_bytes / 2;
        cap = cap > prof_bytes ? cap - prof_bytes : 0;
        if ((size_t)rows * bnd_row > cap) rows = (int64_t)(cap / bnd_row);
        if (rows > n) rows = n;
        if (rows < 1) rows = 1;
    }
    const size_t per_read = (pairs ? 0 : bnd_row) + 4 * (size_t)np + 12 + (size_t)maxlen;
    /* the 16-bit kernel's reads and scores get the other half of the budget */
    size_t budget = pairs ? b->chunk_bytes / 2
                          : (b->chunk_bytes > prof_bytes ? b->chunk_bytes - prof_bytes : 0);
    if (!pairs) {
        /* the int32 kernels' boundary rows are tens of MB per read at thousands of sites
         * (40 MB at 3,060 sites x 1,605 profiles): within the chunk budget alone a launch
         * held ~25 reads and filled a sixth of an H200, so, like the 16-bit kernel's wave,
         * a launch may use up to an eighth of the device's memory (unless
         * DPACCEL_CUDA_CHUNK_BYTES sets the budget: the tests split launches with it) */
        const size_t cap = (size_t)(d->info.total_memory / 8);
        if (!b->chunk_bytes_set && cap > prof_bytes && cap - prof_bytes > budget)
            budget = cap - prof_bytes;
    }
    if (budget < per_read) budget = per_read;
    int64_t k = (int64_t)(budget / per_read);
    if (k < 1) k = 1;
    if (k > n) k = n;
    if (!pairs && k > 65535) k = 65535; /* gridDim.y */
    const size_t reads_cap = align_up((size_t)k * (size_t)maxlen);
    const size_t o_reads = prof_bytes, o_offs = o_reads + reads_cap;
    const size_t o_lens = o_offs + align_up(8 * (size_t)k), o_out = o_lens + align_up(4 * (size_t)k);
    const size_t o_next = o_out + align_up(4 * (size_t)k * (size_t)np);
    const size_t o_bnd = o_next + align_up(4 * (size_t)(threads_per_read / 32));
    /* the 16-bit kernel's grid rounds its warps up to whole blocks */
    const size_t dbytes = o_bnd + (pairs ? 8 * (size_t)S *
                                               (((size_t)rows * (size_t)threads_per_read +
                                                 DPA_PAPARA_CUDA_BLOCK - 1) / DPA_PAPARA_CUDA_BLOCK *
                                                DPA_PAPARA_CUDA_BLOCK)
                                         : bnd_row * (size_t)k);
    if ((status = dpa_cuda_slot_reserve(s, dbytes, o_bnd, err)) != DPA_OK) goto cleanup;
    {
        uint8_t *h = (uint8_t *)s->hbuf, *dv = (uint8_t *)s->dbuf;
        if (pairs) {
            build_pair_words((dpa_papara_pair_word *)(void *)h, batch, first_profile, np, params);
        } else {
            for (int64_t i = 0; i < S; i++)
                for (int32_t q = 0; q < np; q++)
                    h[i * np + q] = batch->profiles[(int64_t)(first_profile + q) * S + i];
        }
        DPA_CUDA_TRY(err, cudaMemcpyAsync(dv, h, prof_bytes, cudaMemcpyHostToDevice, s->stream));
        for (int64_t r0 = 0; r0 < n; r0 += k) {
            const int32_t kk = (int32_t)(n - r0 < k ? n - r0 : k);
            /* the profile copy above reads h[0, prof_bytes): wait before reusing the rest */
            DPA_CUDA_TRY(err, cudaStreamSynchronize(s->stream));
            int64_t *offs = (int64_t *)(void *)(h + o_offs);
            int32_t *lens = (int32_t *)(void *)(h + o_lens);
            int64_t at = 0;
            for (int32_t r = 0; r < kk; r++) {
                const int32_t g = first_read + idx[r0 + r];
                lens[r] = batch->read_lengths[g];
                offs[r] = at;
                memcpy(h + o_reads + at, batch->read_masks + batch->read_offsets[g], (size_t)lens[r]);
                at += lens[r];
            }
            DPA_CUDA_TRY(err, cudaMemcpyAsync(dv + o_reads, h + o_reads, o_out - o_reads,
                                              cudaMemcpyHostToDevice, s->stream));
            const int64_t *d_offs = (const int64_t *)(void *)(dv + o_offs);
            const int32_t *d_lens = (const int32_t *)(void *)(dv + o_lens);
            int32_t *d_out = (int32_t *)(void *)(dv + o_out);
            if (pairs)
                DPA_CUDA_TRY(err, dpa_cuda_papara_pairs_launch(
                                      s->stream, (const dpa_papara_pair_word *)(void *)dv, S, np,
                                      dv + o_reads, d_offs, d_lens, kk,
                                      (int32_t)((rows < kk ? rows : kk) * (threads_per_read / 32)),
                                      params,
                                      (uint32_t *)(void *)(dv + o_bnd),
                                      (int32_t *)(void *)(dv + o_next), d_out));
            else if (params->score_model == DPA_PAPARA_SCORE_PAPER2012)
                DPA_CUDA_TRY(err, dpa_cuda_papara_paper2012_launch(
                                      s->stream, dv, S, np, dv + o_reads, d_offs, d_lens, kk,
                                      (int32_t *)(void *)(dv + o_bnd), d_out));
            else
                DPA_CUDA_TRY(err, dpa_cuda_papara_launch(s->stream, dv, S, np, dv + o_reads, d_offs,
                                                         d_lens, kk, params,
                                                         (int32_t *)(void *)(dv + o_bnd), d_out));
            DPA_CUDA_TRY(err, cudaMemcpyAsync(h + o_out, dv + o_out, 4 * (size_t)kk * (size_t)np,
                                              cudaMemcpyDeviceToHost, s->stream));
            DPA_CUDA_TRY(err, cudaStreamSynchronize(s->stream));
            for (int32_t r = 0; r < kk; r++)
                memcpy(out + (int64_t)idx[r0 + r] * np, h + o_out + 4 * (size_t)r * (size_t)np,
                       4 * (size_t)np);
        }
    }
cleanup:
    return status;
}

dpa_status dpa_cuda_papara_run(dpa_cuda_backend *b, dpa_cuda_dev *d, dpa_cuda_slot *s,
                               const dpa_papara_batch *batch, const dpa_papara_params *params,
                               int32_t first_profile, int32_t num_profiles, int32_t first_read,
                               int32_t num_reads, int32_t *out, dpa_cuda_err *err)
{
    dpa_status status = DPA_OK;
    if (num_profiles <= 0 || num_reads <= 0) return DPA_OK;
    int32_t *idx = (int32_t *)malloc(sizeof *idx * (size_t)num_reads);
    if (!idx) {
        if (err->msg)
            snprintf(err->msg, err->len, "papara: out of host memory for %d read indices", num_reads);
        return DPA_ERR_OUT_OF_MEMORY;
    }
    /* the 16-bit reads first, then the rest, each in call order; the paper2012 model has
     * only its int32 kernel */
    const int pairs_ok = params->score_model != DPA_PAPARA_SCORE_PAPER2012;
    int32_t n16 = 0, nw = num_reads;
    for (int32_t r = 0; r < num_reads; r++) {
        if (pairs_ok && dpa_cuda_papara_fits16(batch->read_lengths[first_read + r], params)) idx[n16++] = r;
        else idx[--nw] = r;
    }
    for (int32_t i = nw, j = num_reads - 1; i < j; i++, j--) { /* back into call order */
        const int32_t x = idx[i];
        idx[i] = idx[j];
        idx[j] = x;
    }
    DPA_CUDA_TRY(err, cudaSetDevice(d->cuda_id));
    if (n16 > 0 &&
        (status = run_pass(b, d, s, batch, params, first_profile, num_profiles, first_read, idx, n16,
                           1, out, err)) != DPA_OK)
        goto cleanup;
    if (nw < num_reads)
        status = run_pass(b, d, s, batch, params, first_profile, num_profiles, first_read, idx + nw,
                          num_reads - nw, 0, out, err);
cleanup:
    free(idx);
    return status;
}
