/*
 * papara_launch.cu — host side of the CUDA PaPaRa scoring: the caller's profile range goes
 * to the device once per call (transposed to site-major), then the reads in chunks that fit
 * the slot's budget: H2D reads -> kernel -> D2H scores, on the slot's stream.
 *
 * Device layout of a call (256-byte aligned regions of the slot's buffer):
 *   prof_t (sites x np) | reads | offs (int64 x k) | lens (int32 x k) | out (k x np) | bnd
 * bnd is 2 x sites x threads int32 (the stripe boundaries, papara_kernels.cu), which bounds
 * the reads per launch k: the whole call fits chunk_bytes unless one read alone does not.
 */
#include <stdlib.h>
#include <string.h>

#include "papara_cuda.h"

static size_t align_up(size_t x) { return (x + 255) & ~(size_t)255; }

dpa_status dpa_cuda_papara_run(dpa_cuda_backend *b, dpa_cuda_dev *d, dpa_cuda_slot *s,
                               const dpa_papara_batch *batch, const dpa_papara_params *params,
                               int32_t first_profile, int32_t num_profiles, int32_t first_read,
                               int32_t num_reads, int32_t *out, dpa_cuda_err *err)
{
    dpa_status status = DPA_OK;
    const int64_t S = batch->num_sites;
    const int32_t np = num_profiles;
    if (np <= 0 || num_reads <= 0) return DPA_OK;
    const int64_t threads_per_read =
        (int64_t)((np + DPA_PAPARA_CUDA_BLOCK - 1) / DPA_PAPARA_CUDA_BLOCK) * DPA_PAPARA_CUDA_BLOCK;
    const size_t prof_bytes = align_up((size_t)S * (size_t)np);
    int32_t maxlen = 0;
    for (int32_t r = 0; r < num_reads; r++)
        if (batch->read_lengths[first_read + r] > maxlen) maxlen = batch->read_lengths[first_read + r];
    const size_t per_read = (size_t)(8 * S * threads_per_read) + 4 * (size_t)np + 12 + (size_t)maxlen;
    const size_t budget = b->chunk_bytes > prof_bytes + per_read ? b->chunk_bytes - prof_bytes : per_read;
    int64_t k = (int64_t)(budget / per_read);
    if (k < 1) k = 1;
    if (k > num_reads) k = num_reads;
    if (k > 65535) k = 65535; /* gridDim.y */
    const size_t reads_cap = align_up((size_t)k * (size_t)maxlen);
    const size_t o_reads = prof_bytes, o_offs = o_reads + reads_cap;
    const size_t o_lens = o_offs + align_up(8 * (size_t)k), o_out = o_lens + align_up(4 * (size_t)k);
    const size_t o_bnd = o_out + align_up(4 * (size_t)k * (size_t)np);
    const size_t dbytes = o_bnd + 8 * (size_t)S * (size_t)threads_per_read * (size_t)k;
    DPA_CUDA_TRY(err, cudaSetDevice(d->cuda_id));
    if ((status = dpa_cuda_slot_reserve(s, dbytes, o_bnd, err)) != DPA_OK) goto cleanup;
    {
        uint8_t *h = (uint8_t *)s->hbuf, *dv = (uint8_t *)s->dbuf;
        for (int64_t i = 0; i < S; i++)
            for (int32_t q = 0; q < np; q++)
                h[i * np + q] = batch->profiles[(int64_t)(first_profile + q) * S + i];
        DPA_CUDA_TRY(err, cudaMemcpyAsync(dv, h, (size_t)S * (size_t)np, cudaMemcpyHostToDevice,
                                          s->stream));
        for (int64_t r0 = 0; r0 < num_reads; r0 += k) {
            const int32_t kk = (int32_t)(num_reads - r0 < k ? num_reads - r0 : k);
            /* the profile copy above reads h[0, prof_bytes): wait before reusing the rest */
            DPA_CUDA_TRY(err, cudaStreamSynchronize(s->stream));
            int64_t *offs = (int64_t *)(void *)(h + o_offs);
            int32_t *lens = (int32_t *)(void *)(h + o_lens);
            int64_t at = 0;
            for (int32_t r = 0; r < kk; r++) {
                const int32_t g = first_read + (int32_t)r0 + r;
                lens[r] = batch->read_lengths[g];
                offs[r] = at;
                memcpy(h + o_reads + at, batch->read_masks + batch->read_offsets[g], (size_t)lens[r]);
                at += lens[r];
            }
            DPA_CUDA_TRY(err, cudaMemcpyAsync(dv + o_reads, h + o_reads, o_out - o_reads,
                                              cudaMemcpyHostToDevice, s->stream));
            DPA_CUDA_TRY(err, dpa_cuda_papara_launch(s->stream, dv, S, np, dv + o_reads,
                                                     (const int64_t *)(void *)(dv + o_offs),
                                                     (const int32_t *)(void *)(dv + o_lens), kk,
                                                     params, (int32_t *)(void *)(dv + o_bnd),
                                                     (int32_t *)(void *)(dv + o_out)));
            DPA_CUDA_TRY(err, cudaMemcpyAsync(h + o_out, dv + o_out, 4 * (size_t)kk * (size_t)np,
                                              cudaMemcpyDeviceToHost, s->stream));
            DPA_CUDA_TRY(err, cudaStreamSynchronize(s->stream));
            memcpy(out + r0 * np, h + o_out, 4 * (size_t)kk * (size_t)np);
        }
    }
cleanup:
    return status;
}
