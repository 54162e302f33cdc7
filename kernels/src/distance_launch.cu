/*
 * distance_launch.cu — host side of the CUDA genotype distance: cuts the caller's tiles into
 * jobs of at most 64 x 64 pairs (dropping those wholly on or below the diagonal of the
 * triangle), groups the jobs so that their counts and the planes of the samples they touch
 * fit the device budget, and per group copies the planes in (in variant chunks when all of
 * them do not fit), runs the kernel once per chunk (later chunks add to the counts), copies
 * the counts back and copies each row of each job into the caller's layout.
 *
 * Budget: half of b->chunk_bytes (DPACCEL_CUDA_CHUNK_BYTES, 1 GiB by default) for the counts
 * of a group, half for its planes. A group's sample span s and variant chunk of V 64-bit
 * words take s x 3 x V x 8 bytes, so V shrinks as the span grows: a group is closed before
 * its span would leave less than 8 words (512 variants) per chunk. The planes are copied
 * from the engine's (pageable) buffer with one strided copy per chunk; nothing overlaps the
 * copies with the kernels yet (docs/distance.md, "What is missing").
 *
 * Device buffer (the slot's, grown and kept): jobs | planes | counts. Pinned staging: jobs |
 * counts.
 */
#include <stdlib.h>
#include <string.h>

#include "distance_cuda.h"

#define ALIGN 256
#define MAX_CHUNK_WORDS ((int64_t)1 << 24) /* 2^30 variants: int32 MMA accumulators hold them */

static size_t align_up(size_t x) { return (x + ALIGN - 1) & ~(size_t)(ALIGN - 1); }

/* DPACCEL_DIST_CUDA_POPC=1: the integer-popcount kernel on every device (cross-check). */
static int force_popc(void)
{
    const char *e = getenv("DPACCEL_DIST_CUDA_POPC");
    return e && e[0] == '1';
}

/* One job with absolute sample indices (converted to the group's at launch). */
typedef struct job {
    int32_t r0, c0, nr, nc;
} job;

static int64_t out_pos(const dpa_cuda_dist_layout *L, int32_t r, int32_t c)
{
    if (L->upper) return (int64_t)r * L->n - (int64_t)r * (r + 1) / 2 + c - r - 1;
    return (int64_t)(r - L->row0) * L->cols + (c - L->col0);
}

/* Jobs of the tiles; *njobs. NULL when out of memory. */
static job *make_jobs(const dpa_cuda_dist_tile *tiles, int64_t ntiles, int upper, int64_t *njobs)
{
    int64_t n = 0, cap = 0;
    job *jobs = NULL;
    for (int64_t k = 0; k < ntiles; k++) {
        const dpa_cuda_dist_tile t = tiles[k];
        for (int32_t r = t.r0; r < t.r1; r += DPA_DIST_GPU_BLOCK) {
            const int32_t nr = t.r1 - r < DPA_DIST_GPU_BLOCK ? t.r1 - r : DPA_DIST_GPU_BLOCK;
            for (int32_t c = t.c0; c < t.c1; c += DPA_DIST_GPU_BLOCK) {
                const int32_t nc = t.c1 - c < DPA_DIST_GPU_BLOCK ? t.c1 - c : DPA_DIST_GPU_BLOCK;
                if (upper && c + nc - 1 <= r) continue; /* no c > r in it */
                if (n == cap) {
                    cap = cap ? 2 * cap : 1024;
                    job *g = (job *)realloc(jobs, sizeof *jobs * (size_t)cap);
                    if (!g) {
                        free(jobs);
                        return NULL;
                    }
                    jobs = g;
                }
                jobs[n++] = (job){ r, c, nr, nc };
            }
        }
    }
    *njobs = n;
    if (!jobs) jobs = (job *)malloc(sizeof *jobs); /* no job: a valid empty list */
    return jobs;
}

/* The group starting at job j0: jobs [j0, *j1), its sample span [*lo, *hi) and its counts. */
static void plan_group(const job *jobs, int64_t njobs, int64_t j0, size_t half, int64_t *j1,
                       int32_t *lo, int32_t *hi, int64_t *ncounts)
{
    int64_t j = j0, cnt = 0;
    int32_t l = INT32_MAX, h = 0;
    while (j < njobs) {
        const job *x = &jobs[j];
        const int32_t nl = l < (x->r0 < x->c0 ? x->r0 : x->c0) ? l : (x->r0 < x->c0 ? x->r0 : x->c0);
        const int32_t xe = x->r0 + x->nr > x->c0 + x->nc ? x->r0 + x->nr : x->c0 + x->nc;
        const int32_t nh = h > xe ? h : xe;
        const int64_t nc = cnt + (int64_t)x->nr * x->nc * 7;
        const size_t min_planes = (size_t)(nh - nl) * 3 * 8 * 8; /* 8 words per plane */
        if (j > j0 && ((size_t)nc * 4 > half || min_planes > half)) break;
        l = nl, h = nh, cnt = nc;
        j++;
    }
    *j1 = j, *lo = l, *hi = h, *ncounts = cnt;
}

dpa_status dpa_cuda_distance_run(const dpa_cuda_backend *b, dpa_cuda_dev *d, dpa_cuda_slot *s,
                                 const dpa_cuda_dist_planes *planes,
                                 const dpa_cuda_dist_tile *tiles, int64_t ntiles,
                                 const dpa_cuda_dist_layout *layout, uint32_t *out,
                                 int64_t *pairs_done, dpa_cuda_err *err)
{
    dpa_status status = DPA_OK;
    const int64_t W = planes->words;
    const size_t half = b->chunk_bytes / 2 > ((size_t)1 << 20) ? b->chunk_bytes / 2 : (size_t)1 << 20;
    const int popc = force_popc() || d->info.cc_major < 8;
    int64_t njobs = 0, done = 0;
    job *jobs = make_jobs(tiles, ntiles, layout->upper, &njobs);
    if (!jobs) return dpa_cuda_fail_msg(err, DPA_ERR_OUT_OF_MEMORY, "dpa_cuda distance: out of host memory");
    DPA_CUDA_TRY(err, cudaSetDevice(d->cuda_id));
    for (int64_t j0 = 0, j1; j0 < njobs; j0 = j1) {
        int32_t lo, hi;
        int64_t ncounts;
        plan_group(jobs, njobs, j0, half, &j1, &lo, &hi, &ncounts);
        const int64_t span = hi - lo, ng = j1 - j0; /* ng < 2^31: each job's counts fit half */
        if ((size_t)span * 3 * 8 * 8 > half) {
            status = dpa_cuda_fail_msg(err, DPA_ERR_LIMIT, "dpa_cuda distance: one job's samples "
                                       "do not fit the device budget (DPACCEL_CUDA_CHUNK_BYTES)");
            goto cleanup;
        }
        /* variant chunk: as many 64-bit words per plane as the budget holds, a multiple of 8 */
        int64_t V = (int64_t)(half / ((size_t)span * 3 * 8)) / 8 * 8;
        if (V > W) V = W;
        if (V > MAX_CHUNK_WORDS) V = MAX_CHUNK_WORDS;
        const size_t jobs_bytes = align_up(sizeof(dpa_dist_gjob) * (size_t)ng);
        const size_t planes_bytes = align_up((size_t)span * 3 * (size_t)V * 8);
        const size_t counts_bytes = (size_t)ncounts * 4;
        status = dpa_cuda_slot_reserve(s, jobs_bytes + planes_bytes + counts_bytes,
                                       jobs_bytes + counts_bytes, err);
        if (status != DPA_OK) goto cleanup;
        uint8_t *dbase = (uint8_t *)s->dbuf, *hbase = (uint8_t *)s->hbuf;
        dpa_dist_gjob *hj = (dpa_dist_gjob *)hbase;
        const uint32_t *hc = (const uint32_t *)(hbase + jobs_bytes);
        int64_t off = 0;
        for (int64_t j = j0; j < j1; j++) {
            const job *x = &jobs[j];
            hj[j - j0] = (dpa_dist_gjob){ x->r0 - lo, x->c0 - lo, x->nr, x->nc, off };
            off += (int64_t)x->nr * x->nc * 7;
        }
        const dpa_dist_gjob *dj = (const dpa_dist_gjob *)dbase;
        uint32_t *dp = (uint32_t *)(dbase + jobs_bytes);
        uint32_t *dc = (uint32_t *)(dbase + jobs_bytes + planes_bytes);
        DPA_CUDA_TRY(err, cudaMemcpyAsync(dbase, hj, sizeof *hj * (size_t)ng,
                                          cudaMemcpyHostToDevice, s->stream));
        /* W = 0 (no variant used): one pass over no words writes zero counts */
        for (int64_t w0 = 0; w0 == 0 || w0 < W; w0 += V) {
            const int64_t v = W - w0 < V ? W - w0 : V;
            if (v > 0) {
                const uint64_t *src = planes->bits + (size_t)(lo - planes->first) * 3 * (size_t)W + w0;
                DPA_CUDA_TRY(err, cudaMemcpy2DAsync(dp, (size_t)v * 8, src, (size_t)W * 8,
                                                    (size_t)v * 8, (size_t)span * 3,
                                                    cudaMemcpyHostToDevice, s->stream));
            }
            DPA_CUDA_TRY(err, dpa_dist_launch(dj, (int32_t)ng, dp, 2 * v, dc, w0 > 0, popc,
                                              s->stream));
            if (v == 0) break;
        }
        DPA_CUDA_TRY(err, cudaMemcpyAsync((void *)hc, dc, counts_bytes, cudaMemcpyDeviceToHost,
                                          s->stream));
        DPA_CUDA_TRY(err, cudaStreamSynchronize(s->stream));
        /* each job row's kept pairs are contiguous in both layouts */
        for (int64_t j = j0; j < j1; j++) {
            const job *x = &jobs[j];
            const uint32_t *src = hc + hj[j - j0].out;
            for (int32_t r = x->r0; r < x->r0 + x->nr; r++) {
                int32_t cs = x->c0;
                if (layout->upper && cs <= r) cs = r + 1;
                const int32_t ce = x->c0 + x->nc;
                if (cs >= ce) continue;
                memcpy(out + 7 * out_pos(layout, r, cs),
                       src + ((int64_t)(r - x->r0) * x->nc + (cs - x->c0)) * 7,
                       sizeof *out * 7 * (size_t)(ce - cs));
                done += ce - cs;
            }
        }
    }
    *pairs_done = done;
    if (b->timing)
        dpa_cuda_log(b, DPA_LOG_DEBUG, "dpa_cuda distance: %lld tiles, %lld jobs, %lld pairs, "
                     "%lld words per plane, %s kernel", (long long)ntiles, (long long)njobs,
                     (long long)done, (long long)W, popc ? "popc" : "mma b1");
cleanup:
    free(jobs);
    return status;
}
