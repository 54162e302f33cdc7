/*
 * pdhmm_cuda.cu — PDHMM on one CUDA device (docs/pdhmm.md): one thread per pair, GATK's
 * recurrence exactly as native/src/cpu/pdhmm/pdhmm_ref.c walks it, in double.
 *
 * Bit-identical to the CPU kernels by construction: the per-row constants (transitions, match
 * and mismatch priors) are GATK's tables, which the host copies over (cpu/pdhmm/pdhmm.h:
 * dpa_pdhmm_gatk_err, dpa_pdhmm_gatk_m2m); the device looks them up from each row's quality
 * bytes and only multiplies, adds and takes maxima, with __dmul_rn / __dadd_rn so nvcc cannot
 * contract them into FMAs. Like the CPU kernels it hands back the scaled sum; the engine takes
 * the log10.
 *
 * One kernel, pd_forward_warp: a warp per pair, rows on the lanes, an anti-diagonal wavefront
 * (below). The first kernel (a thread per pair, rows in global memory, constants computed on
 * the host) ran at 2.2 G cells/s on an H200 against this one's 11 (docs/BENCHMARKS.md). Pairs
 * go in chunks that fit DPA_PDHMM_CUDA_CHUNK bytes of device memory, staged through the slot's
 * pinned buffer into its device buffer.
 */
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <cuda_runtime.h>

#include "backend_internal.h"
#include "cuda_check.h"

extern "C" {
#include "cpu/pdhmm/pdhmm.h"
}

#define DPA_PDHMM_CUDA_CHUNK ((size_t)256 << 20)

/* One pair of a chunk: byte offsets into the chunk's bases region (hap, then its PD bytes;
 * read, then its base, insertion, deletion and gap-continuation qualities, R bytes each) and
 * its scratch, in doubles. */
typedef struct pd_desc {
    int64_t hap, read, scratch;
    int32_t H, R;
    /* the deletion state a row starts in, as a map of the row before's start state (see
     * pd_row_map): row 1 starts NORMAL, row r + 1 in next[state of row r] */
    int8_t next[3], pad[5];
} pd_desc;

enum { PD_NORMAL, PD_INSIDE, PD_AFTER };

__device__ static inline double pd_max(double a, double b) { return a > b ? a : b; }

__device__ static inline uint8_t pd_bit(uint8_t x)
{
    switch (x) {
    case 'A': case 'a': return DPA_PD_A;
    case 'C': case 'c': return DPA_PD_C;
    case 'G': case 'g': return DPA_PD_G;
    case 'T': case 't': return DPA_PD_T;
    default: return 0;
    }
}

/* A warp per pair (DECISIONS 134): lane l holds row 32 k + l + 1 of strip k and sweeps the
 * haplotype one column a step, one column behind the lane above (an anti-diagonal wavefront),
 * so the row above's column j arrives by shuffle from lane l - 1's last step and column j - 1
 * from the step before; lane 0 reads them from the warp's row buffer, which lane 31 of the
 * previous strip wrote (row 0: zeros with D = d0). A cell is the reference's expression
 * operand for operand (__dmul_rn / __dadd_rn), so the sums are the CPU's bits. The deletion
 * state runs along a row as in the reference; the state a row starts in comes from the
 * host's map (next). The lane of the last row adds its M + I in column order. */
#define PD_FULL 0xffffffffu

struct pd_cell {
    double m, i, d, bm, bi, bd;
};

__device__ static inline double pd_shfl_up(double v)
{
    return __shfl_up_sync(PD_FULL, v, 1);
}

/* tables: dpa_pdhmm_gatk_err (DPA_PDHMM_QUALS doubles), then dpa_pdhmm_gatk_m2m */
__global__ void __launch_bounds__(64) pd_forward_warp(const pd_desc *desc, int n, const uint8_t *bases,
                                                      const double *tables, double *scratch, double *sums)
{
    const int lane = threadIdx.x & 31;
    const int k = (int)(((int64_t)blockIdx.x * blockDim.x + threadIdx.x) >> 5);
    if (k >= n) return; /* whole warps: k is the same on every lane */
    const pd_desc p = desc[k];
    const int32_t H = p.H, R = p.R;
    const uint8_t *hap = bases + p.hap, *pd = hap + H, *read = bases + p.read;
    pd_cell *buf = (pd_cell *)(scratch + p.scratch); /* H + 1 cells: the row above strip k */
    const double d0 = __ddiv_rn(ldexp(1.0, 1020), (double)H);
    for (int32_t j = lane; j <= H; j += 32) buf[j] = pd_cell{ 0.0, 0.0, d0, 0.0, 0.0, 0.0 };
    __syncwarp();
    double sum = 0.0;
    int srow = PD_NORMAL; /* the start state of row 32 k + 1 */
    for (int32_t base = 0; base < R; base += 32) {
        const int32_t r = base + lane + 1;
        const bool live = r <= R;
        int s = srow;
        for (int q = 0; q < lane; q++) s = p.next[s];
        for (int q = 0; q < 32; q++) srow = p.next[srow];
        double mm = 0, gm = 0, mi = 0, ii = 0, md = 0, dd = 0, match = 0, mismatch = 0;
        uint8_t x = 0, xb = 0;
        if (live) {
            /* dpa_pdhmm_transitions and the priors, from GATK's tables */
            const double *err = tables, *m2m = tables + DPA_PDHMM_QUALS;
            const unsigned bq = read[R + r - 1], iq = read[2 * R + r - 1], dq = read[3 * R + r - 1],
                           gq = read[4 * R + r - 1];
            const double eg = err[gq & 127u], e = err[bq & 127u];
            /* dpa_pdhmm_m2m: the order of the raw bytes, then the mask */
            const unsigned lo = (iq < dq ? iq : dq) & 127u, hi = (iq < dq ? dq : iq) & 127u;
            mm = m2m[hi * (hi + 1) / 2 + lo];
            gm = __dsub_rn(1.0, eg);
            mi = err[iq & 127u];
            ii = eg;
            md = err[dq & 127u];
            dd = eg;
            match = __dsub_rn(1.0, e);
            mismatch = __ddiv_rn(e, 3.0);
            x = read[r - 1];
            xb = pd_bit(x);
        }
        pd_cell out = { 0, 0, 0, 0, 0, 0 }, up = { 0, 0, 0, 0, 0, 0 }, upl;
        for (int32_t step = 0; step <= H + 31; step++) {
            const int32_t j = step - lane;
            /* the row above: column j now, column j - 1 from the step before */
            upl = up;
            pd_cell a;
            a.m = pd_shfl_up(out.m);
            a.i = pd_shfl_up(out.i);
            a.d = pd_shfl_up(out.d);
            a.bm = pd_shfl_up(out.bm);
            a.bi = pd_shfl_up(out.bi);
            a.bd = pd_shfl_up(out.bd);
            if (lane == 0) {
                if (j <= H) a = buf[j];
            }
            up = a;
            if (j >= 1 && j <= H && live) {
                /* left: this row's column j - 1 (zeros at j = 1) is out */
                double dm = upl.m, di = upl.i, ddg = upl.d, lm = out.m, ld = out.d;
                pd_cell c;
                if (s == PD_NORMAL) {
                    c.bm = out.m;
                    c.bd = out.d;
                    c.bi = out.i;
                } else if (s == PD_INSIDE) {
                    c.bm = out.bm;
                    c.bd = out.bd;
                    c.bi = out.bi;
                } else {
                    c.bm = pd_max(out.bm, out.m);
                    c.bd = pd_max(out.bd, out.d);
                    c.bi = pd_max(out.bi, out.i);
                    dm = pd_max(upl.bm, dm);
                    di = pd_max(upl.bi, di);
                    ddg = pd_max(upl.bd, ddg);
                    lm = pd_max(out.bm, lm);
                    ld = pd_max(out.bd, ld);
                }
                const uint8_t y = hap[j - 1], f = pd[j - 1];
                const int hit = x == y || x == 'N' || y == 'N' || ((f & DPA_PD_SNP) && (f & xb));
                const double prior = hit ? match : mismatch;
                c.m = __dmul_rn(prior, __dadd_rn(__dadd_rn(__dmul_rn(dm, mm), __dmul_rn(di, gm)),
                                                 __dmul_rn(ddg, gm)));
                c.d = __dadd_rn(__dmul_rn(lm, md), __dmul_rn(ld, dd));
                if (f & DPA_PD_DEL_END)
                    c.i = __dadd_rn(__dmul_rn(pd_max(up.bm, up.m), mi), __dmul_rn(pd_max(up.bi, up.i), ii));
                else
                    c.i = __dadd_rn(__dmul_rn(up.m, mi), __dmul_rn(up.i, ii));
                if (s == PD_AFTER) s = PD_NORMAL;
                if (f & DPA_PD_DEL_START) s = PD_INSIDE;
                if (f & DPA_PD_DEL_END) s = PD_AFTER;
                out = c;
                if (r == R) sum = __dadd_rn(sum, __dadd_rn(c.m, c.i));
                if (lane == 31) buf[j] = c; /* the next strip's row above */
            }
        }
        __syncwarp();
        if (lane == 0 && base + 32 < R) buf[0] = pd_cell{ 0, 0, 0, 0, 0, 0 }; /* column 0 of row 32 (k + 1) */
        __syncwarp();
    }
    /* the last row's lane holds the sum */
    const int last = (R - 1) & 31;
    sum = __shfl_sync(PD_FULL, sum, last);
    if (lane == 0) sums[k] = sum;
}

/* The start state of row r + 1 as a function of row r's (GATK's rows: the state carries; GKL's:
 * every row starts NORMAL). A row runs the reference's per-column update (AFTER -> NORMAL,
 * then DEL_START -> INSIDE, then DEL_END -> AFTER), so after the last column carrying either
 * flag the state no longer depends on where the row started: AFTER there if DEL_END, else
 * INSIDE; unflagged columns after it turn AFTER into NORMAL and keep INSIDE. Without flags the
 * row keeps its start state, AFTER turning NORMAL at the first column. One backward scan, not
 * three simulations of H columns (which were most of the host's packing time). */
static void pd_row_map(const uint8_t *pd, int32_t H, int32_t rows, int8_t next[3])
{
    if (rows == DPA_PDHMM_ROWS_GKL) {
        next[PD_NORMAL] = next[PD_INSIDE] = next[PD_AFTER] = PD_NORMAL;
        return;
    }
    int32_t c = H - 1;
    while (c >= 0 && !(pd[c] & (DPA_PD_DEL_START | DPA_PD_DEL_END))) c--;
    if (c < 0) {
        next[PD_NORMAL] = PD_NORMAL;
        next[PD_INSIDE] = PD_INSIDE;
        next[PD_AFTER] = H > 0 ? PD_NORMAL : PD_AFTER;
        return;
    }
    const int8_t end = (pd[c] & DPA_PD_DEL_END) ? (c == H - 1 ? PD_AFTER : PD_NORMAL) : PD_INSIDE;
    next[PD_NORMAL] = next[PD_INSIDE] = next[PD_AFTER] = end;
}

/* Bytes one pair takes on the device. */
static size_t pd_pair_bytes(int32_t H, int32_t R)
{
    return 2 * (size_t)H + 5 * (size_t)R + 6 * sizeof(double) * ((size_t)H + 1) + sizeof(pd_desc) +
           sizeof(double) + 64;
}
#define PD_TABLES_BYTES (sizeof(double) * (DPA_PDHMM_QUALS + DPA_PDHMM_M2M_ENTRIES))

/* A chunk's pairs packed by the device's host team: the descriptors' offsets are set first on
 * the calling thread, then each part copies its pairs' bytes and builds their row maps (on
 * one feeder thread this packing took 13-17 ms per 25 k pairs against 10-14 ms on the device,
 * session 18). */
typedef struct pd_pack_job {
    const dpa_pdhmm_batch *batch;
    const int32_t *pairs; /* the chunk's */
    int cn;
    int32_t rows;
    pd_desc *desc;
    uint8_t *hb;
} pd_pack_job;

static void pd_pack_part(void *arg, int part, int nparts)
{
    const pd_pack_job *J = (const pd_pack_job *)arg;
    const int i0 = (int)((int64_t)J->cn * part / nparts), i1 = (int)((int64_t)J->cn * (part + 1) / nparts);
    for (int i = i0; i < i1; i++) {
        const dpa_pdhmm_pair p = dpa_pdhmm_pair_of(J->batch, J->pairs[i]);
        pd_desc *x = &J->desc[i];
        pd_row_map(p.pd, p.hap_len, J->rows, x->next);
        uint8_t *h = J->hb + x->hap;
        memcpy(h, p.hap, (size_t)p.hap_len);
        memcpy(h + p.hap_len, p.pd, (size_t)p.hap_len);
        uint8_t *r = J->hb + x->read;
        const size_t R = (size_t)p.read_len;
        memcpy(r, p.read, R);
        memcpy(r + R, p.base_q, R);
        memcpy(r + 2 * R, p.ins_q, R);
        memcpy(r + 3 * R, p.del_q, R);
        memcpy(r + 4 * R, p.gcp_q, R);
    }
}

/* Below this many pairs the team's wake-up costs more than it splits. */
#define PD_TEAM_MIN_PAIRS 512

extern "C" dpa_status dpa_cuda_pdhmm_run(const dpa_cuda_backend *b, dpa_cuda_dev *d, dpa_cuda_slot *s,
                                         const dpa_pdhmm_batch *batch, const int32_t *pairs,
                                         int64_t n, int32_t rows, double *out,
                                         dpa_cuda_err *err)
{
    dpa_status status = DPA_OK;
    const double t0 = b->timing ? dpa_cuda_now_s() : 0;
    double t_pack = 0, t_dev = 0;
    int64_t nchunks = 0;
    /* the slot's pinned staging and device buffer, reused chunk after chunk (a cudaFree per
     * chunk synchronised the whole device, and pageable staging copied twice) */
    const size_t cap = s->big ? DPA_PDHMM_CUDA_CHUNK : DPA_CUDA_SMALL_CHUNK;
    DPA_CUDA_TRY(err, cudaSetDevice(d->cuda_id));
    for (int64_t first = 0; first < n;) {
        /* the chunk: as many pairs as fit the budget (at least one) */
        int64_t last = first;
        size_t bases = 0, nscratch = 0, total = PD_TABLES_BYTES;
        while (last < n) {
            const int32_t k = pairs[last];
            const int32_t H = batch->hap_lengths[k], R = batch->read_lengths[k];
            const size_t pb = pd_pair_bytes(H, R);
            if (last > first && total + pb > cap) break;
            total += pb;
            bases += 2 * (size_t)H + 5 * (size_t)R;
            nscratch += 6 * ((size_t)H + 1);
            last++;
        }
        const int cn = (int)(last - first);
        const size_t desc_b = (sizeof(pd_desc) * cn + 15) & ~(size_t)15, consts_b = PD_TABLES_BYTES;
        const size_t sums_b = sizeof(double) * cn, bases_b = (bases + 7) & ~(size_t)7;
        const size_t in_b = desc_b + consts_b + bases_b;
        if ((status = dpa_cuda_slot_reserve(s, in_b + sums_b + sizeof(double) * nscratch, in_b + sums_b, err)) !=
            DPA_OK)
            goto cleanup;
        const double tp = b->timing ? dpa_cuda_now_s() : 0;
        nchunks++;
        void *hmem = s->hbuf, *dmem = s->dbuf;
        pd_desc *desc = (pd_desc *)hmem;
        double *tabs = (double *)((char *)hmem + desc_b);
        memcpy(tabs, dpa_pdhmm_gatk_err, sizeof(double) * DPA_PDHMM_QUALS);
        memcpy(tabs + DPA_PDHMM_QUALS, dpa_pdhmm_gatk_m2m, sizeof(double) * DPA_PDHMM_M2M_ENTRIES);
        uint8_t *hb = (uint8_t *)hmem + desc_b + consts_b;
        double *sums = (double *)((char *)hmem + in_b);
        int64_t bo = 0, so = 0;
        for (int i = 0; i < cn; i++) {
            const int32_t k = pairs[first + i];
            const int32_t H = batch->hap_lengths[k], R = batch->read_lengths[k];
            memset(&desc[i], 0, sizeof desc[i]);
            desc[i].H = H;
            desc[i].R = R;
            desc[i].hap = bo;
            bo += 2 * (int64_t)H;
            desc[i].read = bo;
            bo += 5 * (int64_t)R;
            desc[i].scratch = so;
            so += 6 * ((int64_t)H + 1);
        }
        {
            pd_pack_job pj = { batch, pairs + first, cn, rows, desc, hb };
            dpa_cuda_team_run(d, pd_pack_part, &pj, cn >= PD_TEAM_MIN_PAIRS ? dpa_cuda_team_parts(d) : 1);
        }
        const double td = b->timing ? dpa_cuda_now_s() : 0;
        if (b->timing) t_pack += td - tp;
        DPA_CUDA_TRY(err, cudaMemcpyAsync(dmem, hmem, in_b, cudaMemcpyHostToDevice, s->stream));
        {
            const pd_desc *ddesc = (const pd_desc *)dmem;
            const double *dtabs = (const double *)((char *)dmem + desc_b);
            const uint8_t *dbases = (const uint8_t *)dmem + desc_b + consts_b;
            double *dsums = (double *)((char *)dmem + in_b);
            double *dscratch = (double *)((char *)dmem + in_b + sums_b);
            const int64_t threads = (int64_t)cn * 32;
            pd_forward_warp<<<(unsigned)((threads + 63) / 64), 64, 0, s->stream>>>(ddesc, cn, dbases, dtabs,
                                                                                 dscratch, dsums);
            DPA_CUDA_CHECK_LAUNCH(err, "pd_forward_warp");
            DPA_CUDA_TRY(err, cudaMemcpyAsync(sums, dsums, sums_b, cudaMemcpyDeviceToHost,
                                              s->stream));
        }
        DPA_CUDA_TRY(err, cudaStreamSynchronize(s->stream));
        if (b->timing) t_dev += dpa_cuda_now_s() - td;
        for (int i = 0; i < cn; i++)
            out[pairs[first + i]] = sums[i];
        first = last;
    }
cleanup:
    if (b->timing && status == DPA_OK)
        dpa_cuda_log(b, DPA_LOG_DEBUG, "dpaccel cuda timing: pdhmm device %d, %lld pairs in %lld chunks: pack "
                     "%.3f ms, copies and kernels %.3f ms, call %.3f ms", d->cuda_id, (long long)n,
                     (long long)nchunks, t_pack * 1e3, t_dev * 1e3, (dpa_cuda_now_s() - t0) * 1e3);
    return status;
}
