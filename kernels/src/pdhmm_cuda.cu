/*
 * pdhmm_cuda.cu — PDHMM on one CUDA device (docs/pdhmm.md): one thread per pair, GATK's
 * recurrence exactly as native/src/cpu/pdhmm/pdhmm_ref.c walks it, in double.
 *
 * Bit-identical to the CPU kernels by construction: the per-row constants (transitions, match
 * and mismatch priors), whose transcendentals would round differently in CUDA's libdevice, are
 * computed on the host with the CPU reference's own functions (cpu/pdhmm/pdhmm.h) and copied
 * over; the device only multiplies, adds and takes maxima, with __dmul_rn / __dadd_rn so nvcc
 * cannot contract them into FMAs. Like the CPU kernels it hands back the scaled sum; the engine
 * takes the log10.
 *
 * This first kernel is simple on purpose (not tuned, not yet run on a GPU when written): each
 * thread keeps two rows of the six matrices in global scratch, 12 * (hap_len + 1) doubles, and
 * returns the forward sum. Pairs go in chunks that fit DPA_PDHMM_CUDA_CHUNK bytes of device
 * memory; device buffers are allocated per call.
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
#define PD_THREADS 64

/* One pair of a chunk: byte offsets into the chunk's bases region, its row constants (8
 * doubles per read position) and its scratch, in doubles. */
typedef struct pd_desc {
    int64_t hap, read, consts, scratch;
    int32_t H, R;
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

/* bases region: per pair hap bytes, pd bytes, read bytes (at the descriptor's offsets) */
__global__ void pd_forward(const pd_desc *desc, int n, const uint8_t *bases,
                           const double *consts, double *scratch, int rows, double *sums)
{
    const int k = blockIdx.x * blockDim.x + threadIdx.x;
    if (k >= n) return;
    const pd_desc p = desc[k];
    const int32_t H = p.H;
    const uint8_t *hap = bases + p.hap, *pd = hap + H, *read = bases + p.read;
    const double *c = consts + p.consts;
    const size_t w = (size_t)H + 1;
    double *pm = scratch + p.scratch, *pi = pm + w, *pdl = pi + w, *pbm = pdl + w,
           *pbi = pbm + w, *pbd = pbi + w;
    double *cm = pbd + w, *ci = cm + w, *cd = ci + w, *cbm = cd + w, *cbi = cbm + w,
           *cbd = cbi + w;
    const double d0 = __ddiv_rn(ldexp(1.0, 1020), (double)H);
    for (size_t j = 0; j < 12 * w; j++) pm[j] = 0.0;
    for (size_t j = 0; j < w; j++) pdl[j] = d0;
    int s = PD_NORMAL;
    for (int32_t i = 1; i <= p.R; i++) {
        const double *t = c + (size_t)(i - 1) * 8;
        const double mm = t[0], gm = t[1], mi = t[2], ii = t[3], md = t[4], dd = t[5];
        const double match = t[6], mismatch = t[7];
        const uint8_t x = read[i - 1];
        const uint8_t xb = pd_bit(x);
        cm[0] = ci[0] = cd[0] = cbm[0] = cbi[0] = cbd[0] = 0.0;
        if (rows == DPA_PDHMM_ROWS_GKL) s = PD_NORMAL;
        for (int32_t j = 1; j <= H; j++) {
            double dm = pm[j - 1], di = pi[j - 1], ddg = pdl[j - 1];
            double lm = cm[j - 1], ld = cd[j - 1];
            if (s == PD_NORMAL) {
                cbm[j] = cm[j - 1];
                cbd[j] = cd[j - 1];
                cbi[j] = ci[j - 1];
            } else if (s == PD_INSIDE) {
                cbm[j] = cbm[j - 1];
                cbd[j] = cbd[j - 1];
                cbi[j] = cbi[j - 1];
            } else {
                cbm[j] = pd_max(cbm[j - 1], cm[j - 1]);
                cbd[j] = pd_max(cbd[j - 1], cd[j - 1]);
                cbi[j] = pd_max(cbi[j - 1], ci[j - 1]);
                dm = pd_max(pbm[j - 1], dm);
                di = pd_max(pbi[j - 1], di);
                ddg = pd_max(pbd[j - 1], ddg);
                lm = pd_max(cbm[j - 1], lm);
                ld = pd_max(cbd[j - 1], ld);
            }
            const uint8_t y = hap[j - 1], f = pd[j - 1];
            const int hit = x == y || x == 'N' || y == 'N' || ((f & DPA_PD_SNP) && (f & xb));
            const double prior = hit ? match : mismatch;
            cm[j] = __dmul_rn(prior, __dadd_rn(__dadd_rn(__dmul_rn(dm, mm), __dmul_rn(di, gm)),
                                               __dmul_rn(ddg, gm)));
            cd[j] = __dadd_rn(__dmul_rn(lm, md), __dmul_rn(ld, dd));
            if (f & DPA_PD_DEL_END)
                ci[j] = __dadd_rn(__dmul_rn(pd_max(pbm[j], pm[j]), mi),
                                  __dmul_rn(pd_max(pbi[j], pi[j]), ii));
            else
                ci[j] = __dadd_rn(__dmul_rn(pm[j], mi), __dmul_rn(pi[j], ii));
            if (s == PD_AFTER) s = PD_NORMAL;
            if (f & DPA_PD_DEL_START) s = PD_INSIDE;
            if (f & DPA_PD_DEL_END) s = PD_AFTER;
        }
        double *tmp;
        tmp = pm; pm = cm; cm = tmp;
        tmp = pi; pi = ci; ci = tmp;
        tmp = pdl; pdl = cd; cd = tmp;
        tmp = pbm; pbm = cbm; cbm = tmp;
        tmp = pbi; pbi = cbi; cbi = tmp;
        tmp = pbd; pbd = cbd; cbd = tmp;
    }
    double sum = 0.0;
    for (int32_t j = 1; j <= H; j++) sum = __dadd_rn(sum, __dadd_rn(pm[j], pi[j]));
    sums[k] = sum;
}

/* Bytes one pair takes on the device. */
static size_t pd_pair_bytes(int32_t H, int32_t R)
{
    return 2 * (size_t)H + (size_t)R + 8 * sizeof(double) * (size_t)R +
           12 * sizeof(double) * ((size_t)H + 1) + sizeof(pd_desc) + sizeof(double) + 64;
}

extern "C" dpa_status dpa_cuda_pdhmm_run(dpa_cuda_dev *d, dpa_cuda_slot *s,
                                         const dpa_pdhmm_batch *batch, const int32_t *pairs,
                                         int64_t n, int32_t rows, double *out,
                                         dpa_cuda_err *err)
{
    dpa_status status = DPA_OK;
    void *hmem = NULL, *dmem = NULL;
    DPA_CUDA_TRY(err, cudaSetDevice(d->cuda_id));
    for (int64_t first = 0; first < n;) {
        /* the chunk: as many pairs as fit the budget (at least one) */
        int64_t last = first;
        size_t bases = 0, nconsts = 0, nscratch = 0, total = 0;
        while (last < n) {
            const int32_t k = pairs[last];
            const int32_t H = batch->hap_lengths[k], R = batch->read_lengths[k];
            const size_t b = pd_pair_bytes(H, R);
            if (last > first && total + b > DPA_PDHMM_CUDA_CHUNK) break;
            total += b;
            bases += 2 * (size_t)H + (size_t)R;
            nconsts += 8 * (size_t)R;
            nscratch += 12 * ((size_t)H + 1);
            last++;
        }
        const int cn = (int)(last - first);
        const size_t desc_b = sizeof(pd_desc) * cn, consts_b = sizeof(double) * nconsts;
        const size_t sums_b = sizeof(double) * cn, bases_b = (bases + 7) & ~(size_t)7;
        const size_t in_b = desc_b + consts_b + bases_b;
        hmem = malloc(in_b + sums_b);
        if (!hmem) {
            status = dpa_cuda_fail_msg(err, DPA_ERR_OUT_OF_MEMORY, "pdhmm: host staging");
            goto cleanup;
        }
        pd_desc *desc = (pd_desc *)hmem;
        double *consts = (double *)((char *)hmem + desc_b);
        uint8_t *hb = (uint8_t *)hmem + desc_b + consts_b;
        double *sums = (double *)((char *)hmem + in_b);
        int64_t bo = 0, co = 0, so = 0;
        for (int i = 0; i < cn; i++) {
            const dpa_pdhmm_pair p = dpa_pdhmm_pair_of(batch, pairs[first + i]);
            desc[i].H = p.hap_len;
            desc[i].R = p.read_len;
            desc[i].hap = bo;
            memcpy(hb + bo, p.hap, (size_t)p.hap_len);
            memcpy(hb + bo + p.hap_len, p.pd, (size_t)p.hap_len);
            bo += 2 * (int64_t)p.hap_len;
            desc[i].read = bo;
            memcpy(hb + bo, p.read, (size_t)p.read_len);
            bo += p.read_len;
            desc[i].consts = co;
            for (int32_t r = 0; r < p.read_len; r++) {
                double *t = consts + co + 8 * (int64_t)r;
                dpa_pdhmm_transitions(&p, r, t);
                const double e = dpa_pdhmm_err(p.base_q[r]);
                t[6] = 1.0 - e;
                t[7] = e / 3.0;
            }
            co += 8 * (int64_t)p.read_len;
            desc[i].scratch = so;
            so += 12 * ((int64_t)p.hap_len + 1);
        }
        DPA_CUDA_TRY(err, cudaMalloc(&dmem, in_b + sums_b + sizeof(double) * nscratch));
        DPA_CUDA_TRY(err, cudaMemcpyAsync(dmem, hmem, in_b, cudaMemcpyHostToDevice, s->stream));
        {
            const pd_desc *ddesc = (const pd_desc *)dmem;
            const double *dconsts = (const double *)((char *)dmem + desc_b);
            const uint8_t *dbases = (const uint8_t *)dmem + desc_b + consts_b;
            double *dsums = (double *)((char *)dmem + in_b);
            double *dscratch = (double *)((char *)dmem + in_b + sums_b);
            pd_forward<<<(cn + PD_THREADS - 1) / PD_THREADS, PD_THREADS, 0, s->stream>>>(
                ddesc, cn, dbases, dconsts, dscratch, rows, dsums);
            DPA_CUDA_CHECK_LAUNCH(err, "pd_forward");
            DPA_CUDA_TRY(err, cudaMemcpyAsync(sums, dsums, sums_b, cudaMemcpyDeviceToHost,
                                              s->stream));
        }
        DPA_CUDA_TRY(err, cudaStreamSynchronize(s->stream));
        for (int i = 0; i < cn; i++)
            out[pairs[first + i]] = sums[i];
        DPA_CUDA_TRY(err, cudaFree(dmem));
        dmem = NULL;
        free(hmem);
        hmem = NULL;
        first = last;
    }
cleanup:
    if (dmem) (void)cudaFree(dmem);
    free(hmem);
    return status;
}
