/*
 * pairhmm_launch.cu — host side of the CUDA PairHMM: cuts the tasks into chunks that fit
 * the slot's memory budget, picks a kernel configuration per pair with the cost model,
 * sorts pairs by (configuration, passes, haplotype length), packs everything into ONE
 * pinned buffer, and per chunk does ONE H2D copy, the float launches, the double pass,
 * ONE D2H copy, then scatters results to out[task.out].
 *
 * Cost model (docs/pairhmm-cuda.md): a group of G threads with R rows each runs
 * passes = ceil(L / (G R)) sweeps of n + G - 1 steps; a step costs R * c(R) issue slots
 * per thread (c measured from the SASS: ~11 instructions per cell at R = 16, ~13.5 at
 * R = 8), and a pass boundary costs a 16-byte load and store per group and column. The
 * configuration with the fewest estimated lane-cycles per pair wins.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <pthread.h>

#include "backend_internal.h"
#include "pairhmm_cuda.h"
#include "pairhmm_share.h"

#define ALIGN_UP(x) (((x) + 255) & ~(size_t)255)
/* Memory the double pass may take for boundary rows (it sizes its grid to fit). */
#define DPA_F64_SCRATCH_BUDGET ((size_t)64 << 20)

/* Lane-cycles of one pass boundary per haplotype column: the boundary row's store and the
 * next pass's load, and the stall of the group's first thread on it. Calibrated on the H100
 * (docs/lab/2026-11-25-pairhmm-cost-model.md): 151-bp reads x 250-600 bp haplotypes ran the
 * float kernel in 3.35 ms as <4,16> (3 passes) and 2.04 ms as <32,8> with 5 rows per thread
 * (one pass); the earlier 96 made the model prefer the three passes. */
#define DPA_PASS_COLUMN_COST 560.0

/* Rows per thread the kernel runs for a read of L rows under cfg: its short paths, <32,8>
 * with DPA_PHMM_SHORT_R rows for reads of at most 32 x that many (160 rows for a 151-bp
 * read instead of 256), <8,16> with DPA_PHMM_SHORT8_R rows in one pass for reads of 129-160
 * rows; otherwise the configuration's R. */
static int64_t rows_per_thread(int32_t cfg, int64_t L)
{
    const int64_t G = dpa_phmm_cfgs[cfg].g, R = dpa_phmm_cfgs[cfg].r;
    if (G == 32 && R == 8 && L <= 32 * DPA_PHMM_SHORT_R) return DPA_PHMM_SHORT_R;
    if (cfg == DPA_PHMM_CFG_8_16 && L > G * R && dpa_phmm_passes(cfg, L) == 1)
        return DPA_PHMM_SHORT8_R;
    return R;
}

static double cfg_cost(int32_t cfg, int64_t L, int64_t n)
{
    const int64_t G = dpa_phmm_cfgs[cfg].g;
    const int64_t passes = dpa_phmm_passes(cfg, L);
    /* G = 1 (thread per pair) runs ~3x slower per instruction than the warp-shared
     * configurations (1m.in, ncu: 1.0 vs 3.4-15 G thread-instructions per ms): every lane
     * waits on its own haplotype load each step. The per-cell constant is the
     * configuration's R's, also on a short path. */
    const double per_cell = (dpa_phmm_cfgs[cfg].r == 16 ? 11.0 : 13.5) * (G == 1 ? 3.0 : 1.0);
    const int64_t R = rows_per_thread(cfg, L);
    double c = (double)passes * (double)(n + G - 1) * (double)(G * R) * per_cell;
    if (passes > 1) c += (double)passes * (double)n * DPA_PASS_COLUMN_COST;
    return c;
}

static int32_t choose_cfg(const dpa_cuda_backend *b, int64_t L, int64_t n)
{
    if (b->force_cfg >= 0) return b->force_cfg;
    int32_t best = DPA_PHMM_NUM_CFG - 1;
    double best_c = cfg_cost(best, L, n);
    for (int32_t c = 0; c < DPA_PHMM_NUM_CFG; c++) {
        double v = cfg_cost(c, L, n);
        if (v < best_c) {
            best_c = v;
            best = c;
        }
    }
    return best;
}

/* Latency of one warp task of a pair, in cycles, when its warp has a scheduler to itself
 * (small batches: fewer warps than the GPU holds). A step issues R c(R) instructions (one
 * warp issues at most one per cycle), plus the part of its critical path that does not
 * overlap: the shuffle from the thread above (~40 cycles) and the in-place I chain (R
 * dependent mul + fma pairs, 4 cycles each); the thread-per-pair kernels also wait on a
 * global load per step. Calibrated on the H100: phmm_f32<32,8> ran a region of 210 pairs
 * (150 x 250-500) in 61 us, 228 cycles per step; the model gives 212. Reads of <= 160 rows
 * run 5 rows per thread there (DPA_PHMM_SHORT_R): 148 cycles per step in the model, ~150
 * measured (a region's float kernel 56 -> 37 us). Without that term the model sent reads
 * of <= 128 to G = 16 or 8, so a region with mixed read lengths (GATK: 150 bp and shorter
 * clipped reads) ran 2-3 launches one after the other on its slot's single stream. */
static double cfg_latency(int32_t cfg, int64_t L, int64_t n)
{
    const int64_t G = dpa_phmm_cfgs[cfg].g;
    const int64_t passes = dpa_phmm_passes(cfg, L);
    const double c = dpa_phmm_cfgs[cfg].r == 16 ? 11.0 : 13.5;
    const int64_t R = rows_per_thread(cfg, L);
    const double step = (double)R * c + 8.0 * (double)R + 40.0 + (G == 1 ? 400.0 : 0.0);
    return (double)passes * (double)(n + G - 1) * step;
}

/* The configuration with the shortest warp-task latency (ties: fewer instructions). */
static int32_t choose_lat_cfg(const dpa_cuda_backend *b, int64_t L, int64_t n)
{
    if (b->force_cfg >= 0) return b->force_cfg;
    int32_t best = DPA_PHMM_NUM_CFG - 1;
    double best_l = cfg_latency(best, L, n), best_c = cfg_cost(best, L, n);
    for (int32_t c = 0; c < DPA_PHMM_NUM_CFG; c++) {
        const double l = cfg_latency(c, L, n), v = cfg_cost(c, L, n);
        if (l < best_l || (l == best_l && v < best_c)) {
            best_l = l;
            best_c = v;
            best = c;
        }
    }
    return best;
}

/* Both choices through the backend's lazily filled (L, n) table (low nibble: fewest
 * instructions, high nibble: shortest latency): the cost model runs once per distinct
 * shape over the backend's life. */
static uint32_t memo_cfg2(const dpa_cuda_backend *b, int64_t L, int64_t n)
{
    if (L >= 1024 || n >= 1024 || !b->cfg_tab)
        return (uint32_t)choose_cfg(b, L, n) | (uint32_t)choose_lat_cfg(b, L, n) << 4;
    uint8_t *e = b->cfg_tab + (L << 10) + n;
    uint8_t v = __atomic_load_n(e, __ATOMIC_RELAXED);
    if (v == 0xff) {
        v = (uint8_t)(choose_cfg(b, L, n) | choose_lat_cfg(b, L, n) << 4);
        __atomic_store_n(e, v, __ATOMIC_RELAXED);
    }
    return v;
}

/* Calls with more pairs than this left always take the fewest-instruction choice (they
 * fill the GPU; the per-pair latency estimate is skipped for them). */
#define DPA_LAT_MAX_PAIRS 2048
/* Issue slots per cycle the float kernels reach on a full GPU (ncu: ~50% of 4 per SM). */
#define DPA_ISSUE_EFF 0.5

/* Chunks of at most this many pairs take the direct path (the backend's `direct` = -1):
 * the kernels write results into mapped host memory, and the double pass is launched only
 * when the float pass left a pair to it. One HaplotypeCaller region (~300 pairs) saves the
 * D2H copy and the empty double launch (~3 + 5-10 us of GPU time, docs/pairhmm-cuda.md); a
 * region with a flagged pair pays one more round trip. Larger chunks almost always flag
 * pairs, and their scattered 8-byte writes would cross PCIe one by one. */
#define DPA_DIRECT_MAX_PAIRS 2048

static inline void cpu_relax(void)
{
#if defined(__x86_64__) || defined(__i386__)
    __builtin_ia32_pause();
#endif
}

/* Direct path, poll mode: returns when no slot of res[0..n) holds mark (the kernels
 * replace each mark once and never write it back, so the scan only moves forward). The
 * host sees the last result land instead of waiting for the stream's completion signal.
 * The stream is queried now and then so that a failed kernel (or one that finished without
 * writing a slot) ends the wait with an error instead of a hang. */
static dpa_status wait_marks(dpa_cuda_slot *s, const uint64_t *res, int64_t n, uint64_t mark,
                             dpa_cuda_err *err)
{
    int64_t k = 0;
    for (uint32_t spin = 1;; spin++) {
        while (k < n && __atomic_load_n(&res[k], __ATOMIC_ACQUIRE) != mark) k++;
        if (k == n) return DPA_OK;
        if (spin % 256 == 0) {
            const cudaError_t e = cudaStreamQuery(s->stream);
            if (e == cudaSuccess) { /* done: every write has landed */
                while (k < n && __atomic_load_n(&res[k], __ATOMIC_ACQUIRE) != mark) k++;
                if (k == n) return DPA_OK;
                return dpa_cuda_fail_msg(err, DPA_ERR_DEVICE,
                                         "CUDA pairhmm: a kernel finished without writing a "
                                         "result (direct path)");
            }
            if (e != cudaErrorNotReady)
                return dpa_cuda_fail(err, e, "cudaStreamQuery (direct path)", __FILE__, __LINE__);
        }
        cpu_relax();
    }
}

/* Direct path, sync mode: the stream's completion, then a check that no slot holds mark. */
static dpa_status sync_marks(dpa_cuda_slot *s, const uint64_t *res, int64_t n, uint64_t mark,
                             dpa_cuda_err *err)
{
    const cudaError_t e = cudaStreamSynchronize(s->stream);
    if (e != cudaSuccess)
        return dpa_cuda_fail(err, e, "cudaStreamSynchronize (direct path)", __FILE__, __LINE__);
    for (int64_t k = 0; k < n; k++)
        if (res[k] == mark)
            return dpa_cuda_fail_msg(err, DPA_ERR_DEVICE,
                                     "CUDA pairhmm: a kernel finished without writing a result "
                                     "(direct path)");
    return DPA_OK;
}

/* Fixed base codes (pairhmm_cuda.h): N A C G T -> 0..4, every other byte a code >= 5
 * (a bijection: the bytes 0..4 take the codes the five letters left free). */
static const uint8_t *base_lut(void)
{
    static uint8_t lut[256];
    static int done = 0;
    if (!__atomic_load_n(&done, __ATOMIC_ACQUIRE)) {
        uint8_t t[256];
        const uint8_t letters[5] = { 'N', 'A', 'C', 'G', 'T' };
        for (int i = 0; i < 256; i++) t[i] = (uint8_t)i;
        for (int c = 0; c < 5; c++) {
            t[letters[c]] = (uint8_t)c;
            t[c] = letters[c];
        }
        memcpy(lut, t, sizeof lut);
        __atomic_store_n(&done, 1, __ATOMIC_RELEASE);
    }
    return lut;
}

#if defined(__SSE2__)
#include <emmintrin.h>
/* base_lut() on 16 bytes: the five letters and the bytes 0..4 swap places, so exactly one
 * of the ten masks can hold for a byte (~2 instructions per byte instead of a dependent
 * table load: packing is the largest host cost of a one-region call). */
static inline __m128i codes16(__m128i x)
{
    const char letters[5] = { 'N', 'A', 'C', 'G', 'T' };
    __m128i keep = _mm_set1_epi8(-1), put = _mm_setzero_si128();
    for (int c = 0; c < 5; c++) {
        const __m128i ml = _mm_cmpeq_epi8(x, _mm_set1_epi8(letters[c]));
        const __m128i mc = _mm_cmpeq_epi8(x, _mm_set1_epi8((char)c));
        keep = _mm_andnot_si128(_mm_or_si128(ml, mc), keep);
        put = _mm_or_si128(put, _mm_or_si128(_mm_and_si128(ml, _mm_set1_epi8((char)c)),
                                             _mm_and_si128(mc, _mm_set1_epi8(letters[c]))));
    }
    return _mm_or_si128(_mm_and_si128(keep, x), put);
}
#endif

/* One read's positions: dst[i] = code | base q << 8 | ins << 16 | del << 24. Returns
 * nonzero when a code is above 4 (a letter outside the float table). */
static uint32_t pack_read(const uint8_t *lut, const uint8_t *rb, const uint8_t *bq,
                          const uint8_t *iq, const uint8_t *dq, uint32_t *dst, int32_t len)
{
    uint32_t wide = 0;
    int32_t i = 0;
#if defined(__SSE2__)
    __m128i over = _mm_setzero_si128();
    for (; i + 16 <= len; i += 16) {
        const __m128i c = codes16(_mm_loadu_si128((const __m128i *)(rb + i)));
        over = _mm_or_si128(over, _mm_subs_epu8(c, _mm_set1_epi8(4)));
        const __m128i q = _mm_loadu_si128((const __m128i *)(bq + i));
        const __m128i in = _mm_loadu_si128((const __m128i *)(iq + i));
        const __m128i de = _mm_loadu_si128((const __m128i *)(dq + i));
        const __m128i lo = _mm_unpacklo_epi8(c, q), hi = _mm_unpackhi_epi8(c, q);
        const __m128i lo2 = _mm_unpacklo_epi8(in, de), hi2 = _mm_unpackhi_epi8(in, de);
        _mm_storeu_si128((__m128i *)(dst + i), _mm_unpacklo_epi16(lo, lo2));
        _mm_storeu_si128((__m128i *)(dst + i + 4), _mm_unpackhi_epi16(lo, lo2));
        _mm_storeu_si128((__m128i *)(dst + i + 8), _mm_unpacklo_epi16(hi, hi2));
        _mm_storeu_si128((__m128i *)(dst + i + 12), _mm_unpackhi_epi16(hi, hi2));
    }
    wide = _mm_movemask_epi8(_mm_cmpeq_epi8(over, _mm_setzero_si128())) != 0xffff;
#endif
    for (; i < len; i++) {
        const uint32_t c = lut[rb[i]];
        wide |= (uint32_t)(c > 4);
        dst[i] = c | ((uint32_t)bq[i] << 8) | ((uint32_t)iq[i] << 16) | ((uint32_t)dq[i] << 24);
    }
    return wide;
}

/* One haplotype's codes; nonzero when one is above 4. */
static uint32_t pack_hap(const uint8_t *lut, const uint8_t *hb, uint8_t *dst, int32_t len)
{
    uint32_t wide = 0;
    int32_t i = 0;
#if defined(__SSE2__)
    __m128i over = _mm_setzero_si128();
    for (; i + 16 <= len; i += 16) {
        const __m128i c = codes16(_mm_loadu_si128((const __m128i *)(hb + i)));
        over = _mm_or_si128(over, _mm_subs_epu8(c, _mm_set1_epi8(4)));
        _mm_storeu_si128((__m128i *)(dst + i), c);
    }
    wide = _mm_movemask_epi8(_mm_cmpeq_epi8(over, _mm_setzero_si128())) != 0xffff;
#endif
    for (; i < len; i++) {
        const uint8_t c = lut[hb[i]];
        wide |= (uint32_t)(c > 4);
        dst[i] = c;
    }
    return wide;
}

/* LSD radix sort of (16-bit key, value) pairs, two 8-bit digits counted in one read;
 * t* are n-entry temporaries. Result in key/val. */
static void radix_sort(uint32_t *key, uint32_t *val, uint32_t *tk, uint32_t *tv, int64_t n)
{
    uint32_t c0[256], c1[256];
    memset(c0, 0, sizeof c0);
    memset(c1, 0, sizeof c1);
    for (int64_t i = 0; i < n; i++) {
        c0[key[i] & 0xff]++;
        c1[(key[i] >> 8) & 0xff]++;
    }
    uint32_t s0 = 0, s1 = 0;
    for (int i = 0; i < 256; i++) {
        const uint32_t a = c0[i], b = c1[i];
        c0[i] = s0;
        c1[i] = s1;
        s0 += a;
        s1 += b;
    }
    for (int64_t i = 0; i < n; i++) {
        const uint32_t d = c0[key[i] & 0xff]++;
        tk[d] = key[i];
        tv[d] = val[i];
    }
    for (int64_t i = 0; i < n; i++) {
        const uint32_t d = c1[(tk[i] >> 8) & 0xff]++;
        key[d] = tk[i];
        val[d] = tv[i];
    }
}


/* Layout of one chunk in the pinned buffer and on the device. */
typedef struct chunk_layout {
    size_t rdata, rgcp, hcode, pairs, sdesc, ssaves, warps, count, res, h2d_end, d2h_end;
    size_t flags, scratch, dscratch, ready, ckpt, dev_end;
} chunk_layout;

/* sh: the bounds of the shared pairs' descriptors and saves (the same in both layouts of
 * a chunk, so what is packed before the final layout stays in place); ckpt_floats: their
 * checkpoint entries */
static void layout_of(chunk_layout *lo, int64_t read_pos_total, int64_t hap_pos_total, int64_t n,
                      int64_t nwarps, int64_t scratch_cells, int64_t dwarps, int32_t max_hap,
                      const dpa_phmm_share *sh, int64_t ckpt_floats)
{
    lo->rdata = 0;
    lo->rgcp = ALIGN_UP(lo->rdata + (size_t)read_pos_total * 4);
    lo->hcode = ALIGN_UP(lo->rgcp + (size_t)read_pos_total);
    lo->pairs = ALIGN_UP(lo->hcode + (size_t)hap_pos_total);
    lo->sdesc = ALIGN_UP(lo->pairs + (size_t)n * sizeof(dpa_phmm_pdesc));
    lo->ssaves = ALIGN_UP(lo->sdesc + (size_t)sh->pairs_max * sizeof(dpa_phmm_sdesc));
    lo->warps = ALIGN_UP(lo->ssaves + (size_t)sh->saves_max * 8);
    lo->count = ALIGN_UP(lo->warps + (size_t)nwarps * sizeof(dpa_phmm_wdesc));
    lo->res = lo->count + 256;
    lo->h2d_end = lo->res;
    lo->d2h_end = lo->res + (size_t)n * 8;
    lo->flags = ALIGN_UP(lo->d2h_end);
    lo->scratch = ALIGN_UP(lo->flags + (size_t)n * 4);
    lo->dscratch = ALIGN_UP(lo->scratch + (size_t)scratch_cells * 16);
    lo->ready = ALIGN_UP(lo->dscratch + (size_t)dwarps * (size_t)(max_hap + 1) * 32);
    lo->ckpt = ALIGN_UP(lo->ready + (size_t)(ckpt_floats / DPA_PHMM_ENTRY_FLOATS) *
                                        DPA_PHMM_SHARED_G * 4);
    lo->dev_end = lo->ckpt + (size_t)ckpt_floats * 4;
}

/* Large chunks split their per-read and per-pair loops over the device's host team:
 * from this many pairs or read positions on (below, one thread is faster than a hand-off). */
#define TEAM_MIN_PAIRS 4096
#define TEAM_MIN_READ_POS 65536
/* Parts of a PairHMM call's host loops: 16 on a 16-core H200 host were 10-20% slower than 8 on
 * hcs.in and 1m.in whole-file calls (session 19, call 2), so PairHMM keeps 8 even where the
 * team is larger (the distance scatter uses all of it). */
#define TEAM_PHMM_PARTS 8

static int phmm_parts(dpa_cuda_dev *d)
{
    const int p = dpa_cuda_team_parts(d);
    return p < TEAM_PHMM_PARTS ? p : TEAM_PHMM_PARTS;
}

static inline int64_t part_begin(int64_t n, int part, int np)
{
    return n * part / np;
}

/* Packing of the chunk's distinct reads (a part's share of uniq). */
typedef struct pack_job {
    const dpa_pairhmm_batch *batch;
    dpa_cuda_slot *s;
    const int32_t *uniq;
    int64_t nur;
    uint32_t *rdata;
    uint8_t *rgcp;
    const uint8_t *lut;
} pack_job;

/* 1 when the n >= 1 bytes of p are all equal. */
static int all_equal(const uint8_t *p, int64_t n)
{
    const uint8_t v = p[0];
    uint8_t d = 0;
    for (int64_t i = 1; i < n; i++) d |= (uint8_t)(p[i] ^ v);
    return d == 0;
}

static void pack_reads_part(void *arg, int part, int np)
{
    const pack_job *j = (const pack_job *)arg;
    const dpa_pairhmm_batch *batch = j->batch;
    const uint8_t *lut = j->lut;
    const int64_t u1 = part_begin(j->nur, part + 1, np);
    for (int64_t u = part_begin(j->nur, part, np); u < u1; u++) {
        const int32_t r = j->uniq[u];
        const int64_t off = batch->read_offsets[r];
        const int32_t len = batch->read_lengths[r];
        const uint32_t p = j->s->rpos[r];
        const uint8_t *rb = batch->read_bases + off, *bq = batch->base_quals + off;
        const uint8_t *iq = batch->ins_quals + off, *dq = batch->del_quals + off;
        const int wide = pack_read(lut, rb, bq, iq, dq, j->rdata + p, len) != 0;
        const uint8_t *gq = batch->gcp_quals + off;
        const int uni = len % 16 == 0 && all_equal(iq, len) && all_equal(dq, len) &&
                        all_equal(gq, len);
        j->s->rwide[r] = (uint8_t)(wide | uni << 1);
        memcpy(j->rgcp + p, batch->gcp_quals + off, (size_t)len);
    }
}

#define CFG_WIDE 15 /* sort-key class of pairs that run in double only */
/* Sort key of the pairs of the prefix-sharing kernel: after every float configuration,
 * before every double-only key (which have a nonzero passes field), so they take the pdesc
 * range [nplain, nplain + nshared), which order_shared then rewrites in launch order. */
#define KEY_SHARED ((uint32_t)CFG_WIDE << 12)

/* The per-pair loops of a chunk, split into parts. */
typedef struct pair_job {
    const dpa_pairhmm_batch *batch;
    const dpa_cuda_slot *s;
    const dpa_phmm_task *tasks;
    const uint8_t *tcfg;
    const uint8_t *shared; /* per task: runs the prefix-sharing kernel; NULL: none does */
    int tshift, use_float, uniform, r32;
    int64_t n;
    uint32_t *key, *idx;
    dpa_phmm_pdesc *pairs;
    const double *res;
    double *out;
    int64_t nwide[DPA_TEAM_MAX], nshared[DPA_TEAM_MAX];
} pair_job;

static void keys_part(void *arg, int part, int np)
{
    pair_job *j = (pair_job *)arg;
    const dpa_pairhmm_batch *batch = j->batch;
    const dpa_phmm_task *tasks = j->tasks;
    int64_t nwide = 0, nshared = 0;
    const int64_t k1 = part_begin(j->n, part + 1, np);
    for (int64_t k = part_begin(j->n, part, np); k < k1; k++) {
        if (j->shared && j->shared[k]) { /* never a double-only pair (pairhmm_share.h) */
            j->key[k] = KEY_SHARED;
            j->idx[k] = (uint32_t)k;
            nshared++;
            continue;
        }
        const int64_t L = batch->read_lengths[tasks[k].read];
        const int64_t hn = batch->hap_lengths[tasks[k].hap];
        int32_t c = (j->tcfg[k] >> j->tshift) & 15;
        const uint8_t rw = j->s->rwide[tasks[k].read];
        if (!j->use_float || (rw & 1) || j->s->hwide[tasks[k].hap]) {
            c = CFG_WIDE;
            nwide++;
        } else if (j->uniform && (rw & 2)) {
            c = dpa_phmm_uniform_cfg(c, L, j->r32); /* the same bits (test_cuda_pairhmm) */
        }
        const int64_t dgr = DPA_PHMM_DOUBLE_G * DPA_PHMM_DOUBLE_R;
        int64_t passes = c == CFG_WIDE ? (L + dgr - 1) / dgr : dpa_phmm_passes(c, L);
        /* at most 15 for CFG_WIDE: its keys stay above KEY_SHARED */
        if (passes > (c == CFG_WIDE ? 15 : 16)) passes = c == CFG_WIDE ? 15 : 16;
        if (passes < 1) passes = 1;
        int64_t hq = hn >> 2;
        if (hq > 255) hq = 255;
        /* 16-bit key: cfg, then passes descending, then hap length descending (quantized:
         * the order only groups similar pairs into warps; a warp runs its true maximum
         * passes and steps, and a pair's bits do not depend on its warp) */
        j->key[k] = ((uint32_t)c << 12) | ((uint32_t)(16 - passes) << 8) | (uint32_t)(255 - hq);
        j->idx[k] = (uint32_t)k;
    }
    j->nwide[part] = nwide;
    j->nshared[part] = nshared;
}

static void desc_part(void *arg, int part, int np)
{
    pair_job *j = (pair_job *)arg;
    const dpa_pairhmm_batch *batch = j->batch;
    const int64_t k1 = part_begin(j->n, part + 1, np);
    for (int64_t k = part_begin(j->n, part, np); k < k1; k++) {
        const dpa_phmm_task *t = &j->tasks[j->idx[k]];
        dpa_phmm_pdesc *pd = &j->pairs[k];
        pd->read_off = j->s->rpos[t->read];
        pd->read_len = batch->read_lengths[t->read];
        pd->hap_off = j->s->hpos[t->hap];
        pd->hap_len = batch->hap_lengths[t->hap];
        pd->res = (int32_t)j->idx[k];
        pd->pad_ = 0;
    }
}

static void scatter_part(void *arg, int part, int np)
{
    pair_job *j = (pair_job *)arg;
    const int64_t k1 = part_begin(j->n, part + 1, np);
    for (int64_t k = part_begin(j->n, part, np); k < k1; k++) j->out[j->tasks[k].out] = j->res[k];
}

/* One chunk: tasks[0..n) of the call, tcfg[k] the configuration of tasks[k]. */
/* Per task: both configuration choices (memo_cfg2) and the chunk bytes the pair needs
 * besides its read and haplotype: 64 (descriptor, result, flag, warp share, host sort
 * scratch) plus boundary scratch for multi-pass reads. */
typedef struct prep_job {
    const dpa_cuda_backend *b;
    const dpa_pairhmm_batch *batch;
    const dpa_phmm_task *tasks;
    uint8_t *tcfg;
    uint32_t *tadd;
    int64_t n;
} prep_job;

static void prep_part(void *arg, int part, int np)
{
    const prep_job *j = (const prep_job *)arg;
    const int64_t k1 = part_begin(j->n, part + 1, np);
    for (int64_t k = part_begin(j->n, part, np); k < k1; k++) {
        const int64_t L = j->batch->read_lengths[j->tasks[k].read];
        const int64_t hn = j->batch->hap_lengths[j->tasks[k].hap];
        const uint32_t c2 = memo_cfg2(j->b, L, hn);
        int64_t sc = 0;
        for (int v = 0; v < 2; v++) {
            const int32_t c = (int32_t)(c2 >> (4 * v)) & 15;
            const int64_t G = dpa_phmm_cfgs[c].g, GR = G * dpa_phmm_cfgs[c].r;
            if (L > GR && (hn + 1) * (32 / G) * 16 > sc) sc = (hn + 1) * (32 / G) * 16;
        }
        j->tcfg[k] = (uint8_t)c2;
        j->tadd[k] = (uint32_t)(64 + sc);
    }
}

/* One chunk of a call in flight: its inputs, the pinned layout, the sorted pair order, the
 * warp table, and the phase times (DPACCEL_CUDA_TIMING). run_chunk's steps below share it. */
typedef struct chunk_run {
    const dpa_cuda_backend *b;
    dpa_cuda_dev *d;
    dpa_cuda_slot *s;
    const dpa_pairhmm_batch *batch;
    const dpa_phmm_task *tasks;
    int tshift;
    int64_t n, read_pos_total, hap_pos_total, nur, nuh;
    int32_t max_hap;
    int parts, pair_parts, use_float, direct;
    chunk_layout lo;
    uint8_t *h;                 /* the slot's pinned staging */
    uint32_t *key, *idx;        /* per pair: sort key and index, sorted by radix_sort */
    pair_job pj;
    int64_t nwide, nfloat;      /* pairs in double only; the others run the float pass */
    dpa_phmm_share sh;          /* its regions and shared pairs */
    uint8_t *shared;            /* per task: runs the prefix-sharing kernel */
    int64_t nplain;             /* float pairs of the all-pairs kernels: [0, nplain) */
    int32_t *sorder;            /* shared pairs (indices into sh.sp) in pdesc order */
    int64_t nswarps;            /* shared warp tasks, after the all-pairs ones */
    int32_t nseg;               /* shared launches: one per read class */
    int32_t seg_cls[DPA_PHMM_SHARED_CLASSES];
    int64_t seg_w0[DPA_PHMM_SHARED_CLASSES];
    int64_t seg_nw[DPA_PHMM_SHARED_CLASSES];
    int32_t cfg_first_warp[DPA_PHMM_NUM_KERN + 1];
    double cfg_work[DPA_PHMM_NUM_KERN];
    int64_t nwarps, scratch_cells, dwarps;
    double tm[10];
} chunk_run;

/* Step 1: host scratch, pinned staging for the largest possible layout (nwarps <= n), then
 * the chunk's distinct reads and haplotypes packed, noting which hold letters outside the
 * float table. */
static dpa_status pack_inputs(chunk_run *c, dpa_cuda_err *err)
{
    dpa_status status;
    const int64_t n = c->n;
    uint8_t *hs = (uint8_t *)dpa_cuda_slot_scratch(c->s, (size_t)n * 4 * 4 + (size_t)n);
    if (!hs) return dpa_cuda_fail_msg(err, DPA_ERR_OUT_OF_MEMORY, "CUDA pairhmm: host scratch");
    c->key = (uint32_t *)hs;
    c->idx = c->key + n;
    c->shared = hs + (size_t)n * 16;
    layout_of(&c->lo, c->read_pos_total, c->hap_pos_total, n, n, 0, 0, c->max_hap, &c->sh, 0);
    if ((status = dpa_cuda_slot_reserve(c->s, 0, c->lo.d2h_end, err)) != DPA_OK) return status;
    c->h = (uint8_t *)c->s->hbuf;
    const uint8_t *lut = base_lut();
    /* distinct reads / haps of the chunk, listed by the caller's scan */
    const int32_t *uniq = c->s->ulist, *uniqh = c->s->ulist + c->s->marks_reads;
    pack_job job = { c->batch, c->s, uniq, c->nur, (uint32_t *)(c->h + c->lo.rdata),
                     c->h + c->lo.rgcp, lut };
    dpa_cuda_team_run(c->d, pack_reads_part, &job,
                      c->read_pos_total >= TEAM_MIN_READ_POS ? c->parts : 1);
    uint8_t *hcode = c->h + c->lo.hcode;
    for (int64_t u = 0; u < c->nuh; u++) {
        const int32_t hh = uniqh[u];
        const uint8_t *hb = c->batch->hap_bases + c->batch->hap_offsets[hh];
        const int32_t len = c->batch->hap_lengths[hh];
        c->s->hwide[hh] = (uint8_t)(pack_hap(lut, hb, hcode + c->s->hpos[hh], len) != 0);
    }
    return DPA_OK;
}

/* Step 2: a sort key per pair (configuration with CFG_WIDE last, passes descending, hap
 * length descending), radix-sorted; then the pair descriptors in sorted order (res index =
 * chunk-local task index). */
static void sort_pairs(chunk_run *c, const uint8_t *tcfg)
{
    const int64_t n = c->n;
    uint32_t *tk = c->idx + n, *tv = tk + n;
    pair_job *pj = &c->pj;
    memset(pj, 0, sizeof *pj);
    pj->batch = c->batch;
    pj->s = c->s;
    pj->tasks = c->tasks;
    pj->tcfg = tcfg;
    pj->shared = c->sh.nshared > 0 ? c->shared : NULL;
    pj->tshift = c->tshift;
    pj->use_float = c->use_float;
    pj->uniform = c->b->uniform;
    pj->r32 = c->d->r32;
    pj->n = n;
    pj->key = c->key;
    pj->idx = c->idx;
    pj->pairs = (dpa_phmm_pdesc *)(c->h + c->lo.pairs);
    dpa_cuda_team_run(c->d, keys_part, pj, c->pair_parts);
    c->nwide = 0;
    int64_t nshared = 0;
    for (int p = 0; p < c->pair_parts; p++) c->nwide += pj->nwide[p], nshared += pj->nshared[p];
    c->nplain = n - c->nwide - nshared;
    if (c->b->timing) c->tm[2] = dpa_cuda_now_s();
    radix_sort(c->key, c->idx, tk, tv, n);
    c->nfloat = n - c->nwide;
    if (c->b->timing) c->tm[3] = dpa_cuda_now_s();
    dpa_cuda_team_run(c->d, desc_part, pj, c->pair_parts);
}

/* Checkpoint entries of one chunk at most (~1.9 KB each); regions beyond it do not share. */
#define DPA_PHMM_SHARE_ENTRY_BYTES ((size_t)256 << 20)

/* Step 2b: the shared pairs in launch order: the read classes apart, level by level inside
 * a class (a pair's checkpoint comes from a lower level, whose warps the GPU dispatches
 * first), the longest new parts first inside a level (two stable counting sorts); their
 * pdescs go to [nplain, nplain + nshared) and their sdescs beside them. */
static dpa_status order_shared(chunk_run *c, dpa_cuda_err *err)
{
    const dpa_phmm_share *sh = &c->sh;
    const int64_t ns = sh->nshared;
    int32_t *tmp = (int32_t *)malloc(sizeof *tmp * 2 * (size_t)ns);
    if (!tmp) return dpa_cuda_fail_msg(err, DPA_ERR_OUT_OF_MEMORY, "CUDA pairhmm: host scratch");
    free(c->sorder);
    c->sorder = tmp;
    int32_t *a = tmp + ns;
    enum { NB = 256, NK = DPA_PHMM_SHARE_LEVELS * DPA_PHMM_SHARED_CLASSES };
    int64_t cnt[NB];
    memset(cnt, 0, sizeof cnt);
    for (int64_t i = 0; i < ns; i++) cnt[NB - 1 - (sh->sp[i].n2 >> 2 < NB ? sh->sp[i].n2 >> 2 : NB - 1)]++;
    for (int64_t b = 0, o = 0; b < NB; b++) {
        const int64_t v = cnt[b];
        cnt[b] = o;
        o += v;
    }
    for (int64_t i = 0; i < ns; i++)
        a[cnt[NB - 1 - (sh->sp[i].n2 >> 2 < NB ? sh->sp[i].n2 >> 2 : NB - 1)]++] = (int32_t)i;
    int64_t ck[NK];
    memset(ck, 0, sizeof ck);
    for (int64_t i = 0; i < ns; i++)
        ck[sh->sp[i].cls * DPA_PHMM_SHARE_LEVELS + sh->sp[i].level]++;
    for (int64_t b = 0, o = 0; b < NK; b++) {
        const int64_t v = ck[b];
        ck[b] = o;
        o += v;
    }
    for (int64_t q = 0; q < ns; q++) {
        const dpa_phmm_spair *p = &sh->sp[a[q]];
        c->sorder[ck[p->cls * DPA_PHMM_SHARE_LEVELS + p->level]++] = a[q];
    }
    dpa_phmm_pdesc *pairs = c->pj.pairs + c->nplain;
    dpa_phmm_sdesc *sd = (dpa_phmm_sdesc *)(c->h + c->lo.sdesc);
    for (int64_t i = 0; i < ns; i++) {
        const dpa_phmm_spair *p = &sh->sp[c->sorder[i]];
        const dpa_phmm_task *t = &c->tasks[p->task];
        pairs[i].read_off = c->s->rpos[t->read];
        pairs[i].read_len = c->batch->read_lengths[t->read];
        pairs[i].hap_off = c->s->hpos[t->hap];
        pairs[i].hap_len = c->batch->hap_lengths[t->hap];
        pairs[i].res = p->task;
        pairs[i].pad_ = 0;
        sd[i] = p->sd;
    }
    return DPA_OK;
}

/* The shared warp tasks (after the all-pairs ones, at dst): four pairs of one level and
 * read class a warp, one launch per read class. */
static void plan_shared_warps(chunk_run *c, dpa_phmm_wdesc *dst)
{
    const dpa_phmm_share *sh = &c->sh;
    const int64_t ns = sh->nshared, w_base = c->nwarps;
    const int32_t G = DPA_PHMM_SHARED_G, P = 32 / G;
    int64_t nw = 0;
    c->nseg = 0;
    for (int64_t i = 0; i < ns;) {
        const dpa_phmm_spair *p0 = &sh->sp[c->sorder[i]];
        const int64_t w0 = nw;
        int64_t e = i; /* the class's pairs: [i, e) */
        while (e < ns && sh->sp[c->sorder[e]].cls == p0->cls) e++;
        for (int64_t q = i; q < e; nw++) {
            const int lv = sh->sp[c->sorder[q]].level;
            int64_t m = 1;
            while (m < P && q + m < e && sh->sp[c->sorder[q + m]].level == lv) m++;
            int32_t n2max = 0;
            for (int64_t u = q; u < q + m; u++)
                if (sh->sp[c->sorder[u]].n2 > n2max) n2max = sh->sp[c->sorder[u]].n2;
            dst[nw].first = (int32_t)(c->nplain + q);
            dst[nw].count = (int32_t)m;
            dst[nw].steps = n2max + G - 1;
            dst[nw].passes = 1;
            dst[nw].scratch = 0;
            q += m;
        }
        c->seg_cls[c->nseg] = p0->cls;
        c->seg_w0[c->nseg] = w_base + w0;
        c->seg_nw[c->nseg] = nw - w0;
        c->nseg++;
        i = e;
    }
    c->nswarps = nw;
}

/* Step 3: warp tasks (float pairs only; those of one configuration are consecutive), the
 * lane work per configuration (launch order), and the double pass's persistent grid. */
static void plan_warps(chunk_run *c)
{
    const dpa_phmm_pdesc *pairs = c->pj.pairs;
    for (int32_t k = 0; k <= DPA_PHMM_NUM_KERN; k++) c->cfg_first_warp[k] = 0;
    for (int32_t k = 0; k < DPA_PHMM_NUM_KERN; k++) c->cfg_work[k] = 0;
    dpa_phmm_wdesc *warps = (dpa_phmm_wdesc *)(c->h + c->lo.warps);
    int64_t nwarps = 0, scratch_cells = 0;
    for (int64_t k = 0; k < c->nplain; nwarps++) {
        const int32_t cf = (int32_t)(c->key[k] >> 12);
        const int32_t G = dpa_phmm_cfgs[cf].g, P = 32 / G;
        int64_t e = k + 1;
        while (e < c->nplain && e - k < P && (int32_t)(c->key[e] >> 12) == cf) e++;
        /* true passes (the key caps at 16) and the longest haplotype (pairs with fewer
         * passes sort later and may have longer haplotypes) */
        int64_t mp = 0, hmax = 0;
        for (int64_t q = k; q < e; q++) {
            const int64_t pp = dpa_phmm_passes(cf, pairs[q].read_len);
            if (pp > mp) mp = pp;
            if (pairs[q].hap_len > hmax) hmax = pairs[q].hap_len;
        }
        warps[nwarps].first = (int32_t)k;
        warps[nwarps].count = (int32_t)(e - k);
        warps[nwarps].steps = (int32_t)(hmax + G - 1);
        warps[nwarps].passes = (int32_t)mp;
        warps[nwarps].scratch = scratch_cells;
        if (mp > 1) scratch_cells += (hmax + 1) * P;
        c->cfg_first_warp[cf + 1]++;
        c->cfg_work[cf] += (double)mp * (double)(hmax + G - 1) * (double)dpa_phmm_cfgs[cf].r;
        k = e;
    }
    for (int32_t k = 0; k < DPA_PHMM_NUM_KERN; k++) c->cfg_first_warp[k + 1] += c->cfg_first_warp[k];
    c->nwarps = nwarps;
    c->scratch_cells = scratch_cells;
    /* double pass grid: persistent warps, scratch bounded */
    const int64_t n = c->n;
    int64_t dwarps = n < (int64_t)c->d->sms * 8 ? n : (int64_t)c->d->sms * 8;
    while (dwarps > 4 && (size_t)dwarps * (size_t)(c->max_hap + 1) * 32 > DPA_F64_SCRATCH_BUDGET)
        dwarps /= 2;
    c->dwarps = (dwarps + 3) / 4 * 4;
    plan_shared_warps(c, warps + nwarps);
}

/* Step 4: the final layout (count/res move down to the real warp table's end), device and
 * pinned space for it, and in the direct path the result slots' "pending" marks. */
static dpa_status reserve_final(chunk_run *c, dpa_cuda_err *err)
{
    dpa_status status;
    layout_of(&c->lo, c->read_pos_total, c->hap_pos_total, c->n, c->nwarps + c->nswarps,
              c->scratch_cells,
              c->dwarps, c->max_hap, &c->sh,
              c->sh.nentries * (int64_t)DPA_PHMM_ENTRY_FLOATS);
    if ((status = dpa_cuda_slot_reserve(c->s, c->lo.dev_end, c->lo.d2h_end, err)) != DPA_OK)
        return status;
    *(int32_t *)(c->h + c->lo.count) = 0; /* the device's counter: the H2D copy covers it */
    c->direct = c->s->hdev &&
                (c->b->direct > 0 || (c->b->direct < 0 && c->n <= DPA_DIRECT_MAX_PAIRS));
    if (c->direct) { /* float pairs wait for the float pass, the others for the double pass */
        uint64_t *hres = (uint64_t *)(c->h + c->lo.res);
        const dpa_phmm_pdesc *pairs = c->pj.pairs;
        for (int64_t k = 0; k < c->nfloat; k++) hres[pairs[k].res] = DPA_PHMM_RES_PENDING;
        for (int64_t k = c->nfloat; k < c->n; k++) hres[pairs[k].res] = DPA_PHMM_RES_FLAGGED;
    }
    return DPA_OK;
}

/* The kernels' arguments for this chunk (device pointers into the slot's buffer). */
static dpa_phmm_kargs kernel_args(const chunk_run *c)
{
    uint8_t *dv = (uint8_t *)c->s->dbuf;
    const chunk_layout *lo = &c->lo;
    dpa_phmm_kargs a;
    memset(&a, 0, sizeof a);
    a.rdata = (const uint32_t *)(dv + lo->rdata);
    a.rgcp = dv + lo->rgcp;
    a.hcode = dv + lo->hcode;
    a.pairs = (const dpa_phmm_pdesc *)(dv + lo->pairs);
    a.res = c->direct ? (double *)((uint8_t *)c->s->hdev + lo->res) : (double *)(dv + lo->res);
    a.count = (int32_t *)(dv + lo->count);
    a.flags = (int32_t *)(dv + lo->flags);
    a.num_pairs = (int32_t)c->n;
    a.wide_first = (int32_t)c->nfloat;
    a.max_hap = c->max_hap;
    a.err = c->d->d_err;
    a.scratch = dv + lo->scratch;
    a.shared_first = (int32_t)c->nplain;
    a.sdesc = (const dpa_phmm_sdesc *)(dv + lo->sdesc);
    a.ssaves = (const int32_t *)(dv + lo->ssaves);
    a.ckpt = (float *)(dv + lo->ckpt);
    a.ready = (int32_t *)(dv + lo->ready);
    return a;
}

/* Step 5: the H2D copy, then the float configurations' launches, largest first on the main
 * stream, the others round-robin on the aux streams, so one launch's tail overlaps the
 * others. */
static dpa_status launch_float(chunk_run *c, const dpa_phmm_kargs *a, dpa_cuda_err *err)
{
    dpa_status status = DPA_OK;
    dpa_cuda_slot *s = c->s;
    uint8_t *dv = (uint8_t *)s->dbuf;
    if (c->b->timing) DPA_CUDA_TRY(err, cudaEventRecord(s->ev[0], s->stream));
    DPA_CUDA_TRY(err, cudaMemcpyAsync(dv, c->h, c->lo.h2d_end, cudaMemcpyHostToDevice, s->stream));
    /* the shared pairs' checkpoint flags start "not ready" */
    if (c->nseg > 0)
        DPA_CUDA_TRY(err, cudaMemsetAsync(dv + c->lo.ready, 0, c->lo.ckpt - c->lo.ready, s->stream));
    if (c->b->timing) DPA_CUDA_TRY(err, cudaEventRecord(s->ev[1], s->stream));
    {
        /* launches: the shared kernel's read classes first (their pairs wait on each other's
         * checkpoints, so they start early), then the all-pairs configurations by lane-work
         * estimate, descending */
        struct launch { const void *fn; size_t smem; int64_t w0, nw; } L[DPA_PHMM_NUM_KERN + DPA_PHMM_SHARED_CLASSES];
        int32_t nl = 0, used = 0;
        for (int32_t i = 0; i < c->nseg; i++)
            L[nl++] = (struct launch){ dpa_phmm_kernel_shared(c->seg_cls[i]),
                                       dpa_phmm_smem_shared(c->seg_cls[i]), c->seg_w0[i],
                                       c->seg_nw[i] };
        int32_t order[DPA_PHMM_NUM_KERN], no = 0;
        for (int32_t k = 0; k < DPA_PHMM_NUM_KERN; k++)
            if (c->cfg_first_warp[k + 1] > c->cfg_first_warp[k]) order[no++] = k;
        for (int32_t i = 1; i < no; i++)
            for (int32_t j = i; j > 0 && c->cfg_work[order[j]] > c->cfg_work[order[j - 1]]; j--) {
                const int32_t t = order[j];
                order[j] = order[j - 1];
                order[j - 1] = t;
            }
        for (int32_t i = 0; i < no; i++) {
            const int32_t k = order[i];
            L[nl++] = (struct launch){ dpa_phmm_kernel_f32(k), dpa_phmm_smem_f32(k),
                                       c->cfg_first_warp[k],
                                       c->cfg_first_warp[k + 1] - c->cfg_first_warp[k] };
        }
        /* the first on the main stream, the others round-robin on the aux streams */
        if (nl > 1 && s->naux > 0) DPA_CUDA_TRY(err, cudaEventRecord(s->fork, s->stream));
        for (int32_t i = 0; i < nl; i++) {
            cudaStream_t st = s->stream;
            if (i > 0 && s->naux > 0) {
                const int q = (i - 1) % s->naux;
                st = s->aux[q];
                if (i - 1 < s->naux) {
                    DPA_CUDA_TRY(err, cudaStreamWaitEvent(st, s->fork, 0));
                    used = q + 1;
                }
            }
            dpa_phmm_kargs ka = *a;
            ka.warps = (const dpa_phmm_wdesc *)(dv + c->lo.warps) + L[i].w0;
            ka.num_warps = (int32_t)L[i].nw;
            void *args[] = { &ka };
            const int wpb = DPA_PHMM_BLOCK / 32;
            DPA_CUDA_TRY(err, cudaLaunchKernel(L[i].fn, dim3((unsigned)((L[i].nw + wpb - 1) / wpb)),
                                               dim3(DPA_PHMM_BLOCK), args, L[i].smem, st));
        }
        for (int q = 0; q < used; q++) {
            DPA_CUDA_TRY(err, cudaEventRecord(s->join[q], s->aux[q]));
            DPA_CUDA_TRY(err, cudaStreamWaitEvent(s->stream, s->join[q], 0));
        }
    }
    if (c->b->timing) DPA_CUDA_TRY(err, cudaEventRecord(s->ev[2], s->stream));
cleanup:
    return status;
}

/* Step 6: the double pass over the pairs the float pass flagged (and the double-only ones)
 * and the wait for every result. Copy-back path: the double pass always launches, then one
 * D2H copy of count + results. Direct path: results land in mapped pinned memory; the
 * double pass launches only when some slot is still flagged. *flagged = float pairs
 * recomputed in double. */
static dpa_status finish_double(chunk_run *c, const dpa_phmm_kargs *a, int64_t *flagged,
                                dpa_cuda_err *err)
{
    dpa_status status = DPA_OK;
    dpa_cuda_slot *s = c->s;
    uint8_t *dv = (uint8_t *)s->dbuf;
    const int timing = c->b->timing;
    dpa_phmm_kargs ka = *a;
    ka.scratch = dv + c->lo.dscratch;
    if (!c->use_float) ka.flags = NULL; /* every pair */
    void *f64_args[] = { &ka };
    *flagged = 0;
    if (!c->direct) {
        DPA_CUDA_TRY(err, cudaLaunchKernel(dpa_phmm_kernel_f64(), dim3((unsigned)(c->dwarps / 4)),
                                           dim3(DPA_PHMM_BLOCK), f64_args, 0, s->stream));
        if (timing) DPA_CUDA_TRY(err, cudaEventRecord(s->ev[3], s->stream));
        DPA_CUDA_TRY(err, cudaMemcpyAsync(c->h + c->lo.count, dv + c->lo.count,
                                          c->lo.d2h_end - c->lo.count, cudaMemcpyDeviceToHost,
                                          s->stream));
        if (timing) {
            DPA_CUDA_TRY(err, cudaEventRecord(s->ev[4], s->stream));
            c->tm[6] = dpa_cuda_now_s();
        }
        DPA_CUDA_TRY(err, cudaStreamSynchronize(s->stream));
        *flagged = c->use_float ? (int64_t)*(const int32_t *)(c->h + c->lo.count) : 0;
    } else {
        if (timing) {
            DPA_CUDA_TRY(err, cudaEventRecord(s->ev[3], s->stream));
            DPA_CUDA_TRY(err, cudaEventRecord(s->ev[4], s->stream));
            c->tm[6] = dpa_cuda_now_s();
        }
        const uint64_t *hres = (const uint64_t *)(c->h + c->lo.res);
        dpa_status (*wait_fn)(dpa_cuda_slot *, const uint64_t *, int64_t, uint64_t,
                              dpa_cuda_err *) = c->b->poll ? wait_marks : sync_marks;
        if ((status = wait_fn(s, hres, c->n, DPA_PHMM_RES_PENDING, err)) != DPA_OK) return status;
        int64_t pending = 0; /* flagged by the float pass, or double only */
        for (int64_t k = 0; k < c->n; k++) pending += hres[k] == DPA_PHMM_RES_FLAGGED;
        if (pending > 0) {
            DPA_CUDA_TRY(err, cudaLaunchKernel(dpa_phmm_kernel_f64(),
                                               dim3((unsigned)(c->dwarps / 4)),
                                               dim3(DPA_PHMM_BLOCK), f64_args, 0, s->stream));
            if (timing) {
                DPA_CUDA_TRY(err, cudaEventRecord(s->ev[3], s->stream));
                DPA_CUDA_TRY(err, cudaEventRecord(s->ev[4], s->stream));
            }
            if ((status = wait_fn(s, hres, c->n, DPA_PHMM_RES_FLAGGED, err)) != DPA_OK)
                return status;
        }
        /* a poll-mode return may leave the kernel exiting: the next call on this slot
         * is ordered behind it by the stream, and it no longer reads host memory; only
         * the timing events need the stream done */
        if (timing) DPA_CUDA_TRY(err, cudaStreamSynchronize(s->stream));
        *flagged = c->use_float ? pending - c->nwide : 0;
    }
cleanup:
    return status;
}

/* DPACCEL_CUDA_TIMING: one line per chunk with the host and GPU phase times. */
static void log_chunk_timing(const chunk_run *c, int64_t flagged)
{
    const double *tm = c->tm;
    float g[4] = { 0, 0, 0, 0 };
    char cfgs_used[3 * DPA_PHMM_NUM_KERN + 1] = "";
    for (int32_t k = 0, o = 0; k < DPA_PHMM_NUM_KERN; k++)
        if (c->cfg_first_warp[k + 1] > c->cfg_first_warp[k])
            o += snprintf(cfgs_used + o, sizeof cfgs_used - (size_t)o, "%s%d", o ? "," : "", (int)k);
    for (int e = 0; e < 4; e++) cudaEventElapsedTime(&g[e], c->s->ev[e], c->s->ev[e + 1]);
    dpa_cuda_log(c->b, DPA_LOG_DEBUG,
                 "dpaccel cuda timing: pairs %lld (double-only %lld, flagged %lld)%s "
                 "reads %lld haps %lld warps %lld cfgs %s%s shared %lld pairs %lld warps %lld launches "
                 "%.1f%% of their cells, %d levels host parts %d | host ms: pack %.3f "
                 "keys %.3f radix %.3f desc %.3f warps %.3f submit %.3f wait %.3f scatter %.3f "
                 "| gpu ms: h2d %.3f (%.2f MB) float %.3f double %.3f d2h %.3f",
                 (long long)c->n, (long long)c->nwide, (long long)flagged,
                 c->direct ? " direct" : "", (long long)c->nur, (long long)c->nuh,
                 (long long)c->nwarps, cfgs_used, c->tshift ? " (latency)" : "",
                 (long long)c->sh.nshared, (long long)c->nswarps, (long long)c->nseg,
                 c->sh.cells > 0 ? 100.0 * (double)c->sh.cells_computed / (double)c->sh.cells : 0.0,
                 (int)c->sh.levels,
                 c->parts,
                 (tm[1] - tm[0]) * 1e3, (tm[2] - tm[1]) * 1e3, (tm[3] - tm[2]) * 1e3,
                 (tm[4] - tm[3]) * 1e3, (tm[5] - tm[4]) * 1e3, (tm[6] - tm[5]) * 1e3,
                 (tm[7] - tm[6]) * 1e3, (tm[8] - tm[7]) * 1e3, g[0], c->lo.h2d_end * 1e-6, g[1],
                 g[2], g[3]);
}

/* The steps of one chunk: pack the inputs, plan the sharing regions, sort the pairs into
 * warp order, plan the warps, reserve the final layout, launch the float pass, finish with
 * the double pass, scatter the results. */
static dpa_status run_chunk_steps(chunk_run *cp, const uint8_t *tcfg, double *out,
                                  int64_t *double_recomputes, dpa_cuda_err *err)
{
    dpa_status status;
    chunk_run &c = *cp; /* (C++: the launcher is a .cu file) */
    const dpa_cuda_backend *b = c.b;
    dpa_cuda_dev *d = c.d;
    if ((status = pack_inputs(&c, err)) != DPA_OK) return status;
    if (c.sh.nregions > 0 &&
        dpa_phmm_share_plan(c.batch, c.tasks, c.n, c.s->rwide, c.s->hwide, &c.sh, c.shared,
                            (int32_t *)(c.h + c.lo.ssaves)) != DPA_OK)
        return dpa_cuda_fail_msg(err, DPA_ERR_OUT_OF_MEMORY, "CUDA pairhmm: host scratch");
    if (b->timing) c.tm[1] = dpa_cuda_now_s();
    sort_pairs(&c, tcfg);
    if (c.sh.nshared > 0 && (status = order_shared(&c, err)) != DPA_OK) return status;
    if (b->timing) c.tm[4] = dpa_cuda_now_s();
    plan_warps(&c);
    if ((status = reserve_final(&c, err)) != DPA_OK) return status;
    if (b->timing) c.tm[5] = dpa_cuda_now_s();
    const dpa_phmm_kargs a = kernel_args(&c);
    if ((status = launch_float(&c, &a, err)) != DPA_OK) return status;
    int64_t flagged = 0;
    if ((status = finish_double(&c, &a, &flagged, err)) != DPA_OK) return status;
    if (b->timing) c.tm[7] = dpa_cuda_now_s();
    c.pj.res = (const double *)(c.h + c.lo.res);
    c.pj.out = out;
    dpa_cuda_team_run(d, scatter_part, &c.pj, c.pair_parts);
    *double_recomputes += flagged;
    if (b->timing) {
        c.tm[8] = dpa_cuda_now_s();
        log_chunk_timing(&c, flagged);
    }
    return DPA_OK;
}

/* One chunk: tasks[0..n) of the call, tcfg[k] the configuration of tasks[k]: the scan for
 * regions that may share prefixes, then the steps above. */
static dpa_status run_chunk(const dpa_cuda_backend *b, dpa_cuda_dev *d, dpa_cuda_slot *s,
                            const dpa_pairhmm_batch *batch, const dpa_phmm_task *tasks,
                            const uint8_t *tcfg, int tshift, int64_t n, int64_t read_pos_total,
                            int64_t hap_pos_total, int64_t nur, int64_t nuh, int32_t max_hap,
                            int32_t precision, double *out, int64_t *double_recomputes,
                            dpa_cuda_err *err)
{
    dpa_status status;
    chunk_run c;
    memset(&c, 0, sizeof c);
    c.b = b, c.d = d, c.s = s, c.batch = batch, c.tasks = tasks, c.tshift = tshift, c.n = n;
    c.read_pos_total = read_pos_total, c.hap_pos_total = hap_pos_total, c.nur = nur, c.nuh = nuh;
    c.max_hap = max_hap;
    c.parts = n >= TEAM_MIN_PAIRS || read_pos_total >= TEAM_MIN_READ_POS ? phmm_parts(d) : 1;
    c.pair_parts = n >= TEAM_MIN_PAIRS ? c.parts : 1;
    c.use_float = precision != DPA_PRECISION_DOUBLE;
    /* sharing lengthens a warp's task (it walks a region's haplotypes one after the other),
     * so chunks that run the shortest-latency configurations do not share */
    const int share = b->share && c.use_float && tshift == 0;
    if (b->timing) c.tm[0] = dpa_cuda_now_s();
    if (share && dpa_phmm_share_scan(batch, tasks, n, &c.sh) != DPA_OK) {
        dpa_phmm_share_free(&c.sh);
        return dpa_cuda_fail_msg(err, DPA_ERR_OUT_OF_MEMORY, "CUDA pairhmm: host scratch");
    }
    c.sh.ratio = b->share_ratio;
    c.sh.levels_max = b->share_levels;
    c.sh.entries_max = (int64_t)(DPA_PHMM_SHARE_ENTRY_BYTES / (DPA_PHMM_ENTRY_FLOATS * 4));
    status = run_chunk_steps(&c, tcfg, out, double_recomputes, err);
    dpa_phmm_share_free(&c.sh);
    free(c.sorder);
    return status;
}

dpa_status dpa_cuda_pairhmm_run(const dpa_cuda_backend *b, dpa_cuda_dev *d, dpa_cuda_slot *s,
                                const dpa_pairhmm_batch *batch, const dpa_phmm_task *tasks,
                                int64_t n, int32_t precision, double *out,
                                int64_t *double_recomputes, dpa_cuda_err *err)
{
    const double t0 = b->timing ? dpa_cuda_now_s() : 0;
    dpa_status status = dpa_cuda_slot_marks(s, batch->num_reads, batch->num_haps);
    if (status != DPA_OK)
        return dpa_cuda_fail_msg(err, status, "CUDA pairhmm: out of host memory for marks");
    uint8_t *tcfg = dpa_cuda_slot_tcfg(s, n);
    if (!tcfg) return dpa_cuda_fail_msg(err, DPA_ERR_OUT_OF_MEMORY, "CUDA pairhmm: host scratch");
    /* per task, independent of the chunking: configurations and chunk bytes (split over
     * the host team for large calls, so the sequential scan below only places reads) */
    {
        prep_job pj = { b, batch, tasks, tcfg, s->tadd, n };
        dpa_cuda_team_run(d, prep_part, &pj, n >= TEAM_MIN_PAIRS ? phmm_parts(d) : 1);
    }
    /* device bytes per chunk: the first DPA_CUDA_BIG_SLOTS slots take large chunks, the
     * others (for concurrent small calls) at most DPA_CUDA_SMALL_CHUNK */
    const size_t budget = s->big || b->chunk_bytes < DPA_CUDA_SMALL_CHUNK ? b->chunk_bytes
                                                                          : DPA_CUDA_SMALL_CHUNK;
    int64_t pos = 0;
    while (pos < n) {
        const double tc = b->timing ? dpa_cuda_now_s() : 0;
        /* new chunk: the "seen" stamp (31 bits) */
        s->stamp = (s->stamp + 1) & 0x7fffffffu;
        if (s->stamp == 0) {
            memset(s->rmark, 0, (size_t)s->marks_reads * 4);
            memset(s->hmark, 0, (size_t)s->marks_haps * 4);
            s->stamp = 1;
        }
        const uint32_t stamp = s->stamp;
        int64_t rp = 0, hp = 0, bytes = 0, e = pos, nur = 0, nuh = 0;
        int32_t max_hap = 1;
        int32_t *ulr = s->ulist, *ulh = s->ulist + s->marks_reads;
        /* per configuration choice (0: fewest instructions, 1: shortest latency): summed
         * issue cycles and the longest warp-task latency (cycles) */
        double work[2] = { 0, 0 }, lmax[2] = { 0, 0 };
        /* larger calls fill the GPU: no estimate (it costs ~10 ns per pair) */
        const int estimate = b->force_lat < 0 && n - pos <= DPA_LAT_MAX_PAIRS;
        /* a region has a few read and haplotype lengths: the estimates of a (L, n,
         * choices) key are computed once (same values, same summation order) */
        struct est_entry { uint64_t key; double w[2], l[2]; } ecache[64];
        if (estimate)
            for (int i = 0; i < 64; i++) ecache[i].key = ~(uint64_t)0;
        while (e < n) {
            const dpa_phmm_task *t = &tasks[e];
            const int64_t L = batch->read_lengths[t->read], hn = batch->hap_lengths[t->hap];
            const int new_r = s->rmark[t->read] != stamp;
            const int new_h = s->hmark[t->hap] != stamp;
            const int64_t add = (int64_t)s->tadd[e] + (new_r ? L * 5 : 0) + (new_h ? hn : 0);
            if (e > pos && bytes + add > (int64_t)budget) break;
            if (rp + L > 0xfffffff0LL || hp + hn > 0xfffffff0LL || e - pos >= 0x3fffffffLL) {
                if (e > pos) break;
            }
            bytes += add;
            if (estimate) {
                const uint64_t ck = ((uint64_t)L << 40) | ((uint64_t)hn << 8) | tcfg[e];
                struct est_entry *ce = &ecache[(uint64_t)(L * 7 + hn) & 63];
                if (ce->key != ck) {
                    ce->key = ck;
                    for (int v = 0; v < 2; v++) {
                        const int32_t c = (int32_t)(tcfg[e] >> (4 * v)) & 15;
                        ce->w[v] = cfg_cost(c, L, hn) * (1.0 / 32.0);
                        ce->l[v] = cfg_latency(c, L, hn);
                    }
                }
                for (int v = 0; v < 2; v++) {
                    work[v] += ce->w[v];
                    if (ce->l[v] > lmax[v]) lmax[v] = ce->l[v];
                }
            }
            if (new_r) {
                s->rmark[t->read] = stamp;
                s->rpos[t->read] = (uint32_t)rp;
                ulr[nur++] = t->read;
                rp += L;
            }
            if (new_h) {
                s->hmark[t->hap] = stamp;
                s->hpos[t->hap] = (uint32_t)hp;
                ulh[nuh++] = t->hap;
                if (hn > max_hap) max_hap = (int32_t)hn;
                hp += hn;
            }
            e++;
        }
        /* estimated kernel time of each choice: the longest warp task, or the issue slots
         * of all of them spread over the GPU, whichever is larger. Small batches (fewer
         * warps than the GPU holds, e.g. one HaplotypeCaller region) run faster with the
         * shortest-latency configuration; large ones with the fewest instructions. The
         * choice changes no result bit. */
        double est[2];
        for (int v = 0; v < 2; v++) {
            const double spread = work[v] / ((double)d->sms * 4.0 * DPA_ISSUE_EFF);
            est[v] = lmax[v] > spread ? lmax[v] : spread;
        }
        const int tshift = b->force_lat > 0    ? 4
                           : b->force_lat == 0 ? 0
                           : (estimate && est[1] < est[0]) ? 4 : 0;
        if (b->timing)
            dpa_cuda_log(b, DPA_LOG_DEBUG, "dpaccel cuda timing: chunk scan %.3f ms (est. us: fewest-instr %.1f, "
                    "latency %.1f)", (dpa_cuda_now_s() - tc) * 1e3, est[0] / 1980.0, est[1] / 1980.0);
        status = run_chunk(b, d, s, batch, tasks + pos, tcfg + pos, tshift, e - pos, rp, hp,
                           nur, nuh, max_hap, precision, out, double_recomputes, err);
        if (status != DPA_OK) break;
        pos = e;
    }
    if (b->timing && status == DPA_OK)
        dpa_cuda_log(b, DPA_LOG_DEBUG, "dpaccel cuda timing: call %.3f ms", (dpa_cuda_now_s() - t0) * 1e3);
    return status;
}
