/*
 * distance_launch.cu — host side of the CUDA genotype distance: cuts the caller's tiles into
 * jobs of at most 64 x 64 pairs (dropping those wholly on or below the diagonal of the
 * triangle), orders them by (row, column) so that consecutive jobs write neighbouring parts
 * of the caller's layout, groups them so that each group's counts fit one of NBUF (3) count
 * buffers, and runs the groups as a pipeline (docs/distance.md, "CUDA"):
 *
 *   main stream:  [planes in]  kernel(g)  -> event K[g%3]
 *   copy stream:  wait K[g%3]  counts(g) to pinned buffer g%3  -> event D[g%3]
 *   host:         enqueue g, then wait D[(g-2)%3] and scatter group g-2 into the caller's
 *                 layout on the device's host team, while the GPU runs g-1 and g
 *
 * so the kernel, the count copy-back and the host scatter of consecutive groups overlap, and
 * the GPU is a group ahead of the scatter (with two buffers the kernel of g + 1 waited for
 * the scatter of g - 1: ~8 ms a group against the scatter's ~6.5, session 19). Group g + 1 is
 * enqueued only after group g - 2's scatter, which is what frees buffer (g + 1) % 3.
 *
 * Planes: when those of all the call's samples fit the plane budget they are copied in once
 * and stay for every group ("resident"); otherwise each group copies the planes of its own
 * sample span in variant chunks (later chunks add to the counts), as before 2026-11-28.
 * Budget: the NBUF count buffers take half of b->chunk_bytes (DPACCEL_CUDA_CHUNK_BYTES, 1 GiB
 * by default), the per-group planes the other half. Resident planes may take more: an eighth of the device's memory (the planes of
 * 20,000 samples x 100,000 variants are 0.73 GB, more than half a GiB), unless
 * DPACCEL_CUDA_CHUNK_BYTES is set (the tests use it to force small budgets).
 *
 * Planes from the .bed (planes->bed set, a GPU-only call: distance_workload.c): the caller's
 * .bed rows and a map of used variants are copied in and dist_planes_kernel builds the
 * resident planes on the device; the host builds none. These planes must be resident (an
 * eighth of the device's memory whatever DPACCEL_CUDA_CHUNK_BYTES says); a call whose planes
 * do not fit fails with DPA_ERR_LIMIT and the scheduler recomputes it on the CPU.
 *
 * Device buffer (the slot's, grown and kept): jobs | planes | counts 0..NBUF-1 [| variant
 * map | .bed]. Pinned staging: jobs | counts 0..NBUF-1.
 */
#include <stdlib.h>
#include <string.h>
#if defined(__x86_64__) && defined(__SSE2__)
#include <emmintrin.h>
#endif

#include "distance_cuda.h"

#define ALIGN 256
#define NBUF 3 /* count buffers, on the device and pinned */
#define MAX_CHUNK_WORDS ((int64_t)1 << 24) /* 2^30 variants: int32 MMA accumulators hold them */

static size_t align_up(size_t x) { return (x + ALIGN - 1) & ~(size_t)(ALIGN - 1); }

/* DPACCEL_DIST_CUDA_POPC=1: the integer-popcount kernel on every device (cross-check). */
static int force_popc(void)
{
    const char *e = getenv("DPACCEL_DIST_CUDA_POPC");
    return e && e[0] == '1';
}

/* DPACCEL_DIST_CUDA_RESIDENT=0: never keep the planes resident (tests the chunked path on
 * any size; the tests' small budgets reach it too). */
static int allow_resident(void)
{
    const char *e = getenv("DPACCEL_DIST_CUDA_RESIDENT");
    return !(e && e[0] == '0');
}

/* One job with absolute sample indices (converted to the group's at launch). */
typedef struct job {
    int32_t r0, c0, nr, nc;
} job;

static int job_cmp(const void *a, const void *b)
{
    const job *x = (const job *)a, *y = (const job *)b;
    if (x->r0 != y->r0) return x->r0 < y->r0 ? -1 : 1;
    return x->c0 < y->c0 ? -1 : x->c0 > y->c0;
}

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
    else qsort(jobs, (size_t)n, sizeof *jobs, job_cmp);
    return jobs;
}

/* A band: consecutive jobs of one row range (same r0 and nr), columns [c0, c0 + w) between
 * them. Its counts are nr rows of w pairs (the columns no job of the band has stay unwritten),
 * so each row of a band is contiguous in the count buffer as in the caller's layout, and the
 * scatter copies whole rows (one 64 x 64 job at a time it copied 1.8 KB pieces to addresses
 * ~0.5 MB apart: ~20 GB/s on 8 threads, call 3 of the lab note). */
typedef struct band {
    int64_t j0, j1;
    int32_t r0, nr, c0, w;
    int64_t off;       /* first count in the group's buffer */
} band;

typedef struct group {
    int64_t b0, b1;    /* bands */
    int64_t j0, j1;    /* jobs */
    int32_t lo, hi;    /* sample span */
    int64_t ncounts;   /* uint32 of counts */
    int64_t rows;      /* band rows, summed */
    int64_t V;         /* variant chunk in 64-bit words (chunked planes only) */
} group;

static int32_t min32(int32_t a, int32_t b) { return a < b ? a : b; }
static int32_t max32(int32_t a, int32_t b) { return a > b ? a : b; }

/* Bands of the sorted jobs, each within the count budget cb and (chunked planes) with a
 * sample span whose 8-word planes fit pb; returns their number. */
static int64_t make_bands(const job *jobs, int64_t njobs, size_t cb, size_t pb, band *bands)
{
    int64_t nb = 0;
    for (int64_t j0 = 0, j; j0 < njobs; j0 = j) {
        const job *x = &jobs[j0];
        band b = { j0, 0, x->r0, x->nr, x->c0, x->nc, 0 };
        for (j = j0 + 1; j < njobs; j++) {
            const job *y = &jobs[j];
            if (y->r0 != x->r0 || y->nr != x->nr) break;
            const int32_t w = y->c0 + y->nc - b.c0; /* sorted by c0: the band grows right */
            const int32_t span = max32(b.r0 + b.nr, b.c0 + w) - min32(b.r0, b.c0);
            if ((size_t)b.nr * (size_t)w * 4 * DPA_DIST_GPU_COUNTS > cb || (size_t)span * 3 * 8 * 8 > pb) break;
            b.w = w;
        }
        b.j1 = j;
        bands[nb++] = b;
    }
    return nb;
}

/* The group starting at band b0: bands [b0, g->b1) within the budgets, at least one. */
static void plan_group(const band *bands, int64_t nbands, int64_t b0, size_t cb, size_t pb,
                       group *g)
{
    int64_t b = b0, cnt = 0, rows = 0;
    int32_t l = INT32_MAX, h = 0;
    while (b < nbands) {
        const band *x = &bands[b];
        const int32_t nl = min32(l, min32(x->r0, x->c0));
        const int32_t nh = max32(h, max32(x->r0 + x->nr, x->c0 + x->w));
        const int64_t nc = cnt + (int64_t)x->nr * x->w * DPA_DIST_GPU_COUNTS;
        const size_t min_planes = (size_t)(nh - nl) * 3 * 8 * 8; /* 8 words per plane */
        if (b > b0 && ((size_t)nc * 4 > cb || min_planes > pb)) break;
        l = nl, h = nh, cnt = nc, rows += x->nr;
        b++;
    }
    g->b0 = b0, g->b1 = b, g->j0 = bands[b0].j0, g->j1 = bands[b - 1].j1;
    g->lo = l, g->hi = h, g->ncounts = cnt, g->rows = rows;
}

/* One pair's seven counts (dpaccel.h's order) from the buffer's five (distance_cuda.h). */
static inline void seven_of(const uint32_t *f, uint32_t *o)
{
    const uint32_t ibs1 = f[3] + f[4];
    o[0] = f[0], o[1] = f[1], o[2] = ibs1, o[3] = f[0] - f[1] - ibs1;
    o[4] = f[2], o[5] = f[3], o[6] = f[4];
}

/* The seven counts of n consecutive pairs into the caller's array from the buffer's five.
 * x86-64: streaming stores (DPACCEL_DIST_CUDA_NT=0 turns them off), which skip each written
 * line's read for ownership; the scatter shares the host's memory bandwidth with the count
 * copies the GPU writes into pinned memory meanwhile, and with 16 threads and three buffers
 * they cut a 20,000 x 100,000 call from 0.198-0.229 s to 0.158-0.187 s (session 19, call 3;
 * with 8 threads and two buffers no difference beyond the spread). Four pairs are 112 bytes,
 * seven aligned 16-byte stores once dst is 16-byte aligned (at most three pairs in). */
static void expand_out(uint32_t *dst, const uint32_t *src, int64_t n, int nt)
{
#if defined(__x86_64__) && defined(__SSE2__)
    if (nt) {
        for (; n > 0 && ((uintptr_t)dst & 15); n--, dst += 7, src += DPA_DIST_GPU_COUNTS) seven_of(src, dst);
        for (; n >= 4; n -= 4, dst += 28, src += 4 * DPA_DIST_GPU_COUNTS) {
            uint32_t w[28] __attribute__((aligned(16)));
            for (int k = 0; k < 4; k++) seven_of(src + k * DPA_DIST_GPU_COUNTS, w + 7 * k);
            for (int k = 0; k < 7; k++)
                _mm_stream_si128((__m128i *)(void *)(dst + 4 * k), _mm_load_si128((const __m128i *)(const void *)(w + 4 * k)));
        }
    }
#endif
    (void)nt;
    for (; n > 0; n--, dst += 7, src += DPA_DIST_GPU_COUNTS) seven_of(src, dst);
}

/* Streaming stores are weakly ordered: fence them before the part reports done. */
static void expand_out_fence(int nt)
{
#if defined(__x86_64__) && defined(__SSE2__)
    if (nt) _mm_sfence();
#endif
    (void)nt;
}

static int use_nt(void)
{
    const char *e = getenv("DPACCEL_DIST_CUDA_NT");
    return !(e && e[0] == '0');
}

/* One piece of the .bed into pinned staging, split over the host team. */
typedef struct stage_job {
    uint8_t *dst;
    const uint8_t *src;
    size_t len;
} stage_job;

static void stage_part(void *arg, int part, int nparts)
{
    const stage_job *J = (const stage_job *)arg;
    const size_t a = J->len * (size_t)part / (size_t)nparts, e = J->len * (size_t)(part + 1) / (size_t)nparts;
    memcpy(J->dst + a, J->src + a, e - a);
}

/* Host scatter of one group, split by band rows: per row, each run of jobs with adjacent
 * columns is one copy (contiguous in the count buffer and in the caller's layout). */
typedef struct scatter_job {
    const job *jobs;
    const band *bands;
    int64_t b0, b1, rows;
    const uint32_t *hc;
    const dpa_cuda_dist_layout *layout;
    uint32_t *out;
    int nt;                     /* expand_out's streaming stores */
    int64_t done[DPA_TEAM_MAX]; /* pairs per part */
} scatter_job;

static void scatter_part(void *arg, int part, int nparts)
{
    scatter_job *S = (scatter_job *)arg;
    const int64_t ra = S->rows * part / nparts, re = S->rows * (part + 1) / nparts;
    int64_t done = 0, row = 0;
    for (int64_t bi = S->b0; bi < S->b1 && row < re; row += S->bands[bi].nr, bi++) {
        const band *B = &S->bands[bi];
        if (row + B->nr <= ra) continue;
        const int32_t i0 = row < ra ? (int32_t)(ra - row) : 0;
        const int32_t i1 = row + B->nr > re ? (int32_t)(re - row) : B->nr;
        for (int32_t i = i0; i < i1; i++) {
            const int32_t r = B->r0 + i;
            const uint32_t *src = S->hc + B->off + (int64_t)i * B->w * DPA_DIST_GPU_COUNTS;
            int32_t rs = 0, rend = 0; /* the open run [rs, rend) */
            for (int64_t j = B->j0; j <= B->j1; j++) {
                int32_t cs = 0, ce = 0;
                if (j < B->j1) {
                    cs = S->jobs[j].c0, ce = cs + S->jobs[j].nc;
                    if (S->layout->upper && cs <= r) cs = r + 1;
                    if (cs >= ce) continue;
                    if (rend > rs && cs == rend) {
                        rend = ce;
                        continue;
                    }
                }
                if (rend > rs) {
                    expand_out(S->out + 7 * out_pos(S->layout, r, rs),
                               src + (int64_t)(rs - B->c0) * DPA_DIST_GPU_COUNTS, rend - rs, S->nt);
                    done += rend - rs;
                }
                rs = cs, rend = ce;
            }
        }
    }
    expand_out_fence(S->nt);
    S->done[part] = done;
}

/* Phase times of one call (DPACCEL_CUDA_TIMING). */
typedef struct dist_timing {
    double prep, planes_in, wait, scatter, total;   /* host seconds (planes_in: copy, or .bed
                                                     * copy + build on the device) */
    float kernel_ms, d2h_ms;                         /* device, summed over groups */
} dist_timing;

dpa_status dpa_cuda_distance_run(const dpa_cuda_backend *b, dpa_cuda_dev *d, dpa_cuda_slot *s,
                                 const dpa_cuda_dist_planes *planes,
                                 const dpa_cuda_dist_tile *tiles, int64_t ntiles,
                                 const dpa_cuda_dist_layout *layout, uint32_t *out,
                                 int64_t *pairs_done, dpa_cuda_err *err)
{
    dpa_status status = DPA_OK;
    const double t_start = b->timing ? dpa_cuda_now_s() : 0;
    dist_timing tm;
    memset(&tm, 0, sizeof tm);
    const int64_t W = planes->words;
    const size_t half = b->chunk_bytes / 2 > ((size_t)1 << 20) ? b->chunk_bytes / 2 : (size_t)1 << 20;
    const size_t cb = half / NBUF; /* one count buffer */
    const int popc = force_popc() || d->info.cc_major < 8;
    int64_t njobs = 0, done = 0, ngroups = 0, nbands = 0;
    group *groups = NULL;
    band *bands = NULL;
    cudaEvent_t evk[NBUF] = { NULL }, evd[NBUF] = { NULL };
    cudaEvent_t *tev = NULL; /* timing: per group kernel start, kernel end, copy start, copy end */
    const int parts = dpa_cuda_team_parts(d);
    job *jobs = make_jobs(tiles, ntiles, layout->upper, &njobs);
    if (!jobs) return dpa_cuda_fail_msg(err, DPA_ERR_OUT_OF_MEMORY, "dpa_cuda distance: out of host memory");
    DPA_CUDA_TRY(err, cudaSetDevice(d->cuda_id));
    if (njobs == 0) goto cleanup;

    /* resident planes: all of the call's samples, every variant */
    {
        const size_t all = (size_t)planes->count * 3 * (size_t)W * 8;
        const int from_bed = planes->bed != NULL && planes->bits == NULL;
        size_t rb = half;
        if ((from_bed || !getenv("DPACCEL_CUDA_CHUNK_BYTES")) && d->info.total_memory / 8 > rb)
            rb = (size_t)(d->info.total_memory / 8);
        const int resident = (from_bed || allow_resident()) && all <= rb && W <= MAX_CHUNK_WORDS;
        if (from_bed && !resident) {
            status = dpa_cuda_fail_msg(err, DPA_ERR_LIMIT, "dpa_cuda distance: the bit planes of "
                                       "the call's samples do not fit an eighth of the device's memory");
            goto cleanup;
        }
        const size_t bed_bytes = from_bed ? align_up((size_t)planes->num_variants * (size_t)planes->row_bytes) : 0;
        const size_t map_bytes = from_bed ? align_up((size_t)W * 64 * sizeof(int64_t)) : 0;

        /* plan every group first: buffer sizes are the largest group's */
        groups = (group *)malloc(sizeof *groups * (size_t)njobs);
        bands = (band *)malloc(sizeof *bands * (size_t)njobs);
        if (!groups || !bands) {
            status = dpa_cuda_fail_msg(err, DPA_ERR_OUT_OF_MEMORY, "dpa_cuda distance: out of host memory");
            goto cleanup;
        }
        size_t max_counts = 0, max_planes = resident ? all : 0;
        nbands = make_bands(jobs, njobs, cb, resident ? SIZE_MAX : half, bands);
        for (int64_t b0 = 0; b0 < nbands; b0 = groups[ngroups++].b1) {
            group *g = &groups[ngroups];
            plan_group(bands, nbands, b0, cb, resident ? SIZE_MAX : half, g);
            const int64_t span = g->hi - g->lo;
            if ((size_t)g->ncounts * 4 > max_counts) max_counts = (size_t)g->ncounts * 4;
            if (resident) continue;
            if ((size_t)span * 3 * 8 * 8 > half) {
                status = dpa_cuda_fail_msg(err, DPA_ERR_LIMIT, "dpa_cuda distance: one job's samples "
                                           "do not fit the device budget (DPACCEL_CUDA_CHUNK_BYTES)");
                goto cleanup;
            }
            /* variant chunk: as many 64-bit words per plane as the budget holds, a multiple of 8 */
            int64_t V = (int64_t)(half / ((size_t)span * 3 * 8)) / 8 * 8;
            if (V > W) V = W;
            if (V > MAX_CHUNK_WORDS) V = MAX_CHUNK_WORDS;
            g->V = V;
            if ((size_t)span * 3 * (size_t)V * 8 > max_planes) max_planes = (size_t)span * 3 * (size_t)V * 8;
        }
        const size_t jobs_bytes = align_up(sizeof(dpa_dist_gjob) * (size_t)njobs);
        const size_t planes_bytes = align_up(max_planes);
        const size_t counts_bytes = align_up(max_counts);
        status = dpa_cuda_slot_reserve(s, jobs_bytes + planes_bytes + NBUF * counts_bytes + map_bytes + bed_bytes,
                                       jobs_bytes + NBUF * counts_bytes, err);
        if (status != DPA_OK) goto cleanup;
        uint8_t *dbase = (uint8_t *)s->dbuf, *hbase = (uint8_t *)s->hbuf;
        dpa_dist_gjob *hj = (dpa_dist_gjob *)hbase;
        uint32_t *hc[NBUF], *dc[NBUF];
        for (int k = 0; k < NBUF; k++) {
            hc[k] = (uint32_t *)(hbase + jobs_bytes + (size_t)k * counts_bytes);
            dc[k] = (uint32_t *)(dbase + jobs_bytes + planes_bytes + (size_t)k * counts_bytes);
        }
        const dpa_dist_gjob *dj = (const dpa_dist_gjob *)dbase;
        uint32_t *dp = (uint32_t *)(dbase + jobs_bytes);
        cudaStream_t ks = s->stream, cs = s->naux > 0 ? s->aux[0] : s->stream;

        /* every group's jobs, relative to its plane base and count buffer, in one copy */
        for (int64_t gi = 0; gi < ngroups; gi++) {
            const group *g = &groups[gi];
            const int32_t base = resident ? planes->first : g->lo;
            int64_t off = 0;
            for (int64_t bi = g->b0; bi < g->b1; bi++) {
                band *B = &bands[bi];
                B->off = off;
                for (int64_t j = B->j0; j < B->j1; j++) {
                    const job *x = &jobs[j];
                    hj[j] = (dpa_dist_gjob){ x->r0 - base, x->c0 - base, x->nr, x->nc,
                                             off + (int64_t)(x->c0 - B->c0) * DPA_DIST_GPU_COUNTS, B->w };
                }
                off += (int64_t)B->nr * B->w * DPA_DIST_GPU_COUNTS;
            }
        }
        for (int k = 0; k < NBUF; k++) {
            DPA_CUDA_TRY(err, cudaEventCreateWithFlags(&evk[k], cudaEventDisableTiming));
            DPA_CUDA_TRY(err, cudaEventCreateWithFlags(&evd[k], cudaEventDisableTiming));
        }
        if (b->timing) {
            tev = (cudaEvent_t *)calloc((size_t)ngroups * 4, sizeof *tev);
            if (!tev) {
                status = dpa_cuda_fail_msg(err, DPA_ERR_OUT_OF_MEMORY, "dpa_cuda distance: out of host memory");
                goto cleanup;
            }
            for (int64_t k = 0; k < ngroups * 4; k++) DPA_CUDA_TRY(err, cudaEventCreate(&tev[k]));
        }
        DPA_CUDA_TRY(err, cudaMemcpyAsync((void *)dj, hj, sizeof *hj * (size_t)njobs,
                                          cudaMemcpyHostToDevice, ks));
        if (b->timing) tm.prep = dpa_cuda_now_s() - t_start;
        if (from_bed && W > 0) {
            const double t0 = b->timing ? dpa_cuda_now_s() : 0;
            int64_t *hmap = (int64_t *)dpa_cuda_slot_scratch(s, map_bytes);
            if (!hmap) {
                status = dpa_cuda_fail_msg(err, DPA_ERR_OUT_OF_MEMORY, "dpa_cuda distance: out of host memory");
                goto cleanup;
            }
            int64_t u = 0;
            for (int64_t v = 0; v < planes->num_variants; v++)
                if (!planes->variant_use || planes->variant_use[v]) hmap[u++] = v;
            for (; u < W * 64; u++) hmap[u] = -1;
            uint8_t *dmap = dbase + jobs_bytes + planes_bytes + NBUF * counts_bytes;
            uint8_t *dbed = dmap + map_bytes;
            DPA_CUDA_TRY(err, cudaMemcpyAsync(dmap, hmap, (size_t)W * 64 * sizeof *hmap,
                                              cudaMemcpyHostToDevice, ks));
            const size_t bed_len = (size_t)planes->num_variants * (size_t)planes->row_bytes;
            if (counts_bytes < ((size_t)8 << 20) || bed_len <= counts_bytes) {
                DPA_CUDA_TRY(err, cudaMemcpyAsync(dbed, planes->bed, bed_len, cudaMemcpyHostToDevice, ks));
            } else {
                /* through the two pinned count buffers (free until the first group), the
                 * team filling one while the other crosses the bus: the pageable copy moved
                 * ~9 GB/s (call 2 of the lab note) */
                const size_t piece = counts_bytes < ((size_t)32 << 20) ? counts_bytes : (size_t)32 << 20;
                for (size_t off = 0, i = 0; off < bed_len; off += piece, i++) {
                    const int k = (int)(i & 1);
                    const size_t len = bed_len - off < piece ? bed_len - off : piece;
                    if (i >= 2) DPA_CUDA_TRY(err, cudaEventSynchronize(evd[k]));
                    stage_job sj = { (uint8_t *)hc[k], planes->bed + off, len };
                    dpa_cuda_team_run(d, stage_part, &sj, parts);
                    DPA_CUDA_TRY(err, cudaMemcpyAsync(dbed + off, hc[k], len, cudaMemcpyHostToDevice, ks));
                    DPA_CUDA_TRY(err, cudaEventRecord(evd[k], ks));
                }
            }
            DPA_CUDA_TRY(err, dpa_dist_planes_launch(dbed, planes->row_bytes, (const int64_t *)dmap,
                                                     planes->first, planes->count, W, (uint64_t *)dp, ks));
            /* the scratch map is host memory the copy reads: keep it until the copy is done */
            DPA_CUDA_TRY(err, cudaStreamSynchronize(ks));
            if (b->timing) tm.planes_in = dpa_cuda_now_s() - t0;
        } else if (resident && W > 0) {
            const double t0 = b->timing ? dpa_cuda_now_s() : 0;
            /* pageable source: the copy returns when the bytes left the caller's buffer */
            DPA_CUDA_TRY(err, cudaMemcpyAsync(dp, planes->bits, (size_t)planes->count * 3 * (size_t)W * 8,
                                              cudaMemcpyHostToDevice, ks));
            if (b->timing) {
                DPA_CUDA_TRY(err, cudaStreamSynchronize(ks));
                tm.planes_in = dpa_cuda_now_s() - t0;
            }
        }
        scatter_job S;
        memset(&S, 0, sizeof S);
        S.jobs = jobs, S.bands = bands, S.layout = layout, S.out = out, S.nt = use_nt();
        for (int64_t gi = 0; gi < ngroups + NBUF - 1; gi++) {
            if (gi < ngroups) { /* enqueue group gi */
                const group *g = &groups[gi];
                const int k = (int)(gi % NBUF);
                const int32_t ng = (int32_t)(g->j1 - g->j0); /* < 2^31: each job's counts fit cb */
                if (b->timing) DPA_CUDA_TRY(err, cudaEventRecord(tev[gi * 4 + 0], ks));
                if (resident) {
                    DPA_CUDA_TRY(err, dpa_dist_launch(dj + g->j0, ng, dp, 2 * W, dc[k], 0, popc, ks));
                } else {
                    const int64_t span = g->hi - g->lo, V = g->V;
                    /* W = 0 (no variant used): one pass over no words writes zero counts */
                    for (int64_t w0 = 0; w0 == 0 || w0 < W; w0 += V) {
                        const int64_t v = W - w0 < V ? W - w0 : V;
                        if (v > 0) {
                            const uint64_t *src = planes->bits + (size_t)(g->lo - planes->first) * 3 * (size_t)W + w0;
                            DPA_CUDA_TRY(err, cudaMemcpy2DAsync(dp, (size_t)v * 8, src, (size_t)W * 8,
                                                                (size_t)v * 8, (size_t)span * 3,
                                                                cudaMemcpyHostToDevice, ks));
                        }
                        DPA_CUDA_TRY(err, dpa_dist_launch(dj + g->j0, ng, dp, 2 * v, dc[k], w0 > 0,
                                                          popc, ks));
                        if (v == 0) break;
                    }
                }
                if (b->timing) DPA_CUDA_TRY(err, cudaEventRecord(tev[gi * 4 + 1], ks));
                DPA_CUDA_TRY(err, cudaEventRecord(evk[k], ks));
                DPA_CUDA_TRY(err, cudaStreamWaitEvent(cs, evk[k], 0));
                if (b->timing) DPA_CUDA_TRY(err, cudaEventRecord(tev[gi * 4 + 2], cs));
                DPA_CUDA_TRY(err, cudaMemcpyAsync(hc[k], dc[k], (size_t)g->ncounts * 4,
                                                  cudaMemcpyDeviceToHost, cs));
                if (b->timing) DPA_CUDA_TRY(err, cudaEventRecord(tev[gi * 4 + 3], cs));
                DPA_CUDA_TRY(err, cudaEventRecord(evd[k], cs));
            }
            if (gi >= NBUF - 1 && gi - (NBUF - 1) < ngroups) { /* scatter group gi - 2 */
                const int64_t gs = gi - (NBUF - 1);
                const group *g = &groups[gs];
                const int k = (int)(gs % NBUF);
                const double t0 = b->timing ? dpa_cuda_now_s() : 0;
                DPA_CUDA_TRY(err, cudaEventSynchronize(evd[k]));
                const double t1 = b->timing ? dpa_cuda_now_s() : 0;
                S.b0 = g->b0, S.b1 = g->b1, S.rows = g->rows, S.hc = hc[k];
                const int np = parts < g->rows ? parts : (int)g->rows;
                dpa_cuda_team_run(d, scatter_part, &S, np);
                for (int p = 0; p < np; p++) done += S.done[p];
                if (b->timing) {
                    tm.wait += t1 - t0;
                    tm.scatter += dpa_cuda_now_s() - t1;
                }
            }
        }
        if (b->timing) {
            for (int64_t gi = 0; gi < ngroups; gi++) {
                float a = 0, c = 0;
                DPA_CUDA_TRY(err, cudaEventElapsedTime(&a, tev[gi * 4 + 0], tev[gi * 4 + 1]));
                DPA_CUDA_TRY(err, cudaEventElapsedTime(&c, tev[gi * 4 + 2], tev[gi * 4 + 3]));
                tm.kernel_ms += a, tm.d2h_ms += c;
            }
            tm.total = dpa_cuda_now_s() - t_start;
            int64_t computed = 0; /* pairs the kernel computes, dropped ones included */
            for (int64_t j = 0; j < njobs; j++) computed += (int64_t)jobs[j].nr * jobs[j].nc;
            dpa_cuda_log(b, DPA_LOG_DEBUG,
                         "dpa_cuda distance: %lld tiles, %lld jobs in %lld groups, %lld pairs "
                         "(%lld computed), %lld words per plane, %s kernel, planes %s; host prep "
                         "%.1f ms, planes in %.1f ms, kernels %.1f ms (%.1f T pair-SNPs/s "
                         "computed), counts out %.1f ms (%.1f GB/s), host wait %.1f ms, scatter "
                         "%.1f ms on %d threads, total %.1f ms%s",
                         (long long)ntiles, (long long)njobs, (long long)ngroups, (long long)done,
                         (long long)computed, (long long)W, popc ? "popc" : "mma b1",
                         resident ? "resident" : "chunked", 1e3 * tm.prep, 1e3 * tm.planes_in,
                         tm.kernel_ms,
                         tm.kernel_ms > 0 ? (double)computed * 64.0 * (double)W / (tm.kernel_ms * 1e-3) / 1e12 : 0.0,
                         tm.d2h_ms,
                         tm.d2h_ms > 0 ? (double)done * 4.0 * DPA_DIST_GPU_COUNTS / (tm.d2h_ms * 1e-3) / 1e9 : 0.0,
                         1e3 * tm.wait, 1e3 * tm.scatter, parts, 1e3 * tm.total,
                         from_bed ? " (planes built on the device from the .bed)" : "");
        }
    }
cleanup:
    /* a failure while groups were in flight: let the streams drain before the buffers are
     * reused by the next call of this slot */
    if (status != DPA_OK && !(err && err->sticky)) {
        (void)cudaStreamSynchronize(s->stream);
        if (s->naux > 0) (void)cudaStreamSynchronize(s->aux[0]);
        (void)cudaGetLastError();
    }
    for (int k = 0; k < NBUF; k++) {
        if (evk[k]) cudaEventDestroy(evk[k]);
        if (evd[k]) cudaEventDestroy(evd[k]);
    }
    if (tev) {
        for (int64_t k = 0; k < ngroups * 4; k++)
            if (tev[k]) cudaEventDestroy(tev[k]);
        free(tev);
    }
    *pairs_done = done;
    free(groups);
    free(bands);
    free(jobs);
    return status;
}
