/*
 * pairhmm_share.c — the regions of a CUDA PairHMM chunk, their plans and shared warp tasks
 * (pairhmm_share.h).
 */
#include <stdlib.h>
#include <string.h>

#include "cpu/pairhmm/pairhmm_prefix.h"
#include "pairhmm_share.h"

/* A region shares only when its estimated lane work is below this fraction of the
 * all-pairs kernels' (checkpoint loads and saves, and the per-haplotype wavefront fill
 * of a sequential walk, are not in the estimate). */
#ifndef DPA_PHMM_SHARE_RATIO
#define DPA_PHMM_SHARE_RATIO 0.9
#endif

/* Length of the run of tasks from e on that is one read against consecutive haplotypes. */
static int32_t run_len(const dpa_phmm_task *tasks, int64_t n, int64_t e)
{
    int64_t k = 1;
    while (e + k < n && k < INT32_MAX && tasks[e + k].read == tasks[e].read &&
           tasks[e + k].hap == tasks[e].hap + k)
        k++;
    return (int32_t)k;
}

static int32_t read_class(int64_t L)
{
    return L <= 8 * 16 ? 0 : L <= 8 * DPA_PHMM_SHORT8_R ? 1 : -1;
}

dpa_status dpa_phmm_share_scan(const dpa_pairhmm_batch *batch, const dpa_phmm_task *tasks,
                               int64_t n, dpa_phmm_share *sh)
{
    memset(sh, 0, sizeof *sh);
    int64_t e = 0;
    while (e < n) {
        const int32_t k = run_len(tasks, n, e);
        const int32_t h0 = tasks[e].hap;
        int64_t q = e + k;
        int32_t nreads = 1, some = read_class(batch->read_lengths[tasks[e].read]) >= 0;
        while (q < n && tasks[q].hap == h0 && run_len(tasks, n, q) == k && nreads < INT32_MAX) {
            some |= read_class(batch->read_lengths[tasks[q].read]) >= 0;
            q += k;
            nreads++;
        }
        if (k >= 2 && some) {
            if (sh->nregions == sh->cap) {
                const int64_t cap = sh->cap ? 2 * sh->cap : 64;
                dpa_phmm_region *r = realloc(sh->regions, sizeof *r * (size_t)cap);
                if (!r) return DPA_ERR_OUT_OF_MEMORY;
                sh->regions = r;
                sh->cap = cap;
            }
            sh->regions[sh->nregions++] = (dpa_phmm_region){ e, nreads, k, h0 };
            /* both classes may leave a partly filled warp */
            sh->swarps_max += (nreads + 3) / 4 + 1;
            sh->words_max += (int64_t)(DPA_PHMM_PLAN_WORDS + 2) * k;
        }
        e = q;
    }
    return DPA_OK;
}

void dpa_phmm_share_free(dpa_phmm_share *sh)
{
    free(sh->regions);
    sh->regions = NULL;
    sh->nregions = sh->cap = 0;
}

/* Appends one class's warp tasks of a region: its shared reads' pair bases, four a warp. */
static void add_warps(dpa_phmm_swdesc *dst, int64_t *nw, const int32_t *pbase, int32_t m,
                      int32_t k, int32_t plan)
{
    for (int32_t i = 0; i < m; i += 4) {
        dpa_phmm_swdesc *w = &dst[(*nw)++];
        memset(w, 0, sizeof *w);
        w->count = m - i < 4 ? m - i : 4;
        for (int32_t g = 0; g < w->count; g++) w->pbase[g] = pbase[i + g];
        w->k = k;
        w->plan = plan;
    }
}

dpa_status dpa_phmm_share_plan(const dpa_pairhmm_batch *batch, const dpa_phmm_task *tasks,
                               int64_t n, const uint8_t *rwide, const uint8_t *hwide,
                               dpa_phmm_share *sh, uint8_t *shared, dpa_phmm_swdesc *swarps,
                               int32_t *words)
{
    memset(shared, 0, (size_t)n);
    for (int c = 0; c < DPA_PHMM_SHARED_CLASSES; c++) sh->nswarps[c] = 0;
    sh->words = sh->nshared = sh->cells = sh->cells_computed = 0;
    /* class 1's warps are written from the end of the bound down, then moved up */
    dpa_phmm_swdesc *top = swarps + sh->swarps_max;
    int64_t n1 = 0;
    int32_t kmax = 0, rmax = 0;
    for (int64_t i = 0; i < sh->nregions; i++) {
        if (sh->regions[i].k > kmax) kmax = sh->regions[i].k;
        if (sh->regions[i].nreads > rmax) rmax = sh->regions[i].nreads;
    }
    const uint8_t **haps = malloc(sizeof *haps * (size_t)(kmax > 0 ? kmax : 1));
    int32_t *lens = malloc(sizeof *lens * (size_t)(kmax > 0 ? kmax : 1));
    int32_t *pb = malloc(sizeof *pb * 2 * (size_t)(rmax > 0 ? rmax : 1));
    if (!haps || !lens || !pb) {
        free(haps), free(lens), free(pb);
        return DPA_ERR_OUT_OF_MEMORY;
    }
    int64_t rank = 0; /* shared pairs before the current one, in task order */
    for (int64_t i = 0; i < sh->nregions; i++) {
        const dpa_phmm_region *rg = &sh->regions[i];
        const int32_t k = rg->k;
        int wide = 0;
        int64_t cols = 0;
        for (int32_t h = 0; h < k; h++) {
            const int32_t hh = rg->h0 + h;
            haps[h] = batch->hap_bases + batch->hap_offsets[hh];
            lens[h] = batch->hap_lengths[hh];
            cols += lens[h];
            wide |= hwide[hh] & 1;
        }
        if (wide) continue;
        dpa_phmm_prefix_plan plan;
        if (dpa_phmm_prefix_plan_build(haps, lens, k, DPA_PHMM_SHARED_SLOTS, 0, &plan) != DPA_OK) {
            dpa_phmm_prefix_plan_free(&plan);
            free(haps), free(lens), free(pb);
            return DPA_ERR_OUT_OF_MEMORY;
        }
        /* lane work per class: the shared walk (whole warps, new columns, a wavefront
         * fill per haplotype) against the all-pairs kernels (every column) */
        const int64_t fill = (int64_t)k * (DPA_PHMM_SHARED_G - 1);
        const int64_t cols_new = plan.cols_computed;
        int32_t m[DPA_PHMM_SHARED_CLASSES] = { 0, 0 };
        int64_t lsum = 0;
        for (int32_t r = 0; r < rg->nreads; r++) {
            const int32_t rd = tasks[rg->t0 + (int64_t)r * k].read;
            const int c = rwide[rd] & 1 ? -1 : read_class(batch->read_lengths[rd]);
            if (c < 0) continue;
            m[c]++;
            lsum += batch->read_lengths[rd];
        }
        double shared_work = 0, plain_work = 0;
        for (int c = 0; c < DPA_PHMM_SHARED_CLASSES; c++) {
            const double R = (double)dpa_phmm_shared_rows(c);
            shared_work += (double)((m[c] + 3) / 4 * 4) * R * (double)(cols_new + fill);
            plain_work += (double)m[c] * R * (double)(cols + fill);
        }
        if (m[0] + m[1] == 0 || !(shared_work < DPA_PHMM_SHARE_RATIO * plain_work)) {
            dpa_phmm_prefix_plan_free(&plan);
            continue;
        }
        /* the plan's words */
        const int32_t at = (int32_t)sh->words;
        int32_t *w = words + at;
        for (int32_t p = 0; p < k; p++) {
            int32_t *pp = w + DPA_PHMM_PLAN_WORDS * p;
            pp[0] = plan.order[p];
            pp[1] = plan.resume[p];
            pp[2] = plan.load_slot[p];
            pp[3] = plan.save_at[p];
            pp[4] = plan.save_at[p + 1];
        }
        int32_t *sv = w + DPA_PHMM_PLAN_WORDS * k;
        for (int32_t s = 0; s < plan.save_at[k]; s++) {
            sv[2 * s] = plan.saves[s].col;
            sv[2 * s + 1] = plan.saves[s].slot;
        }
        sh->words += (int64_t)DPA_PHMM_PLAN_WORDS * k + 2 * (int64_t)plan.save_at[k];
        dpa_phmm_prefix_plan_free(&plan);
        /* the shared reads, in task order: pair bases and marks */
        int32_t *pb1 = pb + rmax;
        int32_t j0 = 0, j1 = 0;
        for (int32_t r = 0; r < rg->nreads; r++) {
            const int64_t t = rg->t0 + (int64_t)r * k;
            const int32_t rd = tasks[t].read;
            const int c = rwide[rd] & 1 ? -1 : read_class(batch->read_lengths[rd]);
            if (c < 0) continue;
            (c == 0 ? pb : pb1)[c == 0 ? j0++ : j1++] = (int32_t)rank;
            memset(shared + t, 1, (size_t)k);
            rank += k;
        }
        add_warps(swarps, &sh->nswarps[0], pb, j0, k, at);
        /* class 1 grows down from the top */
        int64_t c1 = 0;
        dpa_phmm_swdesc tmp[1];
        for (int32_t q = 0; q < j1; q += 4) {
            c1 = 0;
            add_warps(tmp, &c1, pb1 + q, j1 - q < 4 ? j1 - q : 4, k, at);
            *--top = tmp[0];
            n1++;
        }
        sh->nshared += (int64_t)(j0 + j1) * k;
        sh->cells += lsum * cols;
        sh->cells_computed += lsum * cols_new;
    }
    /* class 1 after class 0, in region order (it was written backwards) */
    for (int64_t q = 0; q < n1 / 2; q++) {
        const dpa_phmm_swdesc v = top[q];
        top[q] = top[n1 - 1 - q];
        top[n1 - 1 - q] = v;
    }
    memmove(swarps + sh->nswarps[0], top, sizeof *top * (size_t)n1);
    sh->nswarps[1] = n1;
    free(haps), free(lens), free(pb);
    return DPA_OK;
}
