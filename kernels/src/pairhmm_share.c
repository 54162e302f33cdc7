/*
 * pairhmm_share.c — the regions of a CUDA PairHMM chunk, their plans, checkpoints and the
 * levels of their pairs (pairhmm_share.h).
 */
#include <stdlib.h>
#include <string.h>

#include "cpu/pairhmm/pairhmm_prefix.h"
#include "pairhmm_share.h"

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
            sh->pairs_max += (int64_t)nreads * k;
            sh->saves_max += k; /* a checkpoint per resuming haplotype at most */
        }
        e = q;
    }
    return DPA_OK;
}

void dpa_phmm_share_free(dpa_phmm_share *sh)
{
    free(sh->regions);
    free(sh->sp);
    sh->regions = NULL;
    sh->sp = NULL;
    sh->nregions = sh->cap = sh->nshared = 0;
}

/* Per-region scratch of dpa_phmm_share_plan (k entries each). */
typedef struct share_scratch {
    const uint8_t **haps;
    int32_t *lens, *load, *level, *cur, *ck_level, *resume;
    int32_t levels_max;
} share_scratch;

/* The region's checkpoints numbered 0.. in plan order (a slot's latest save is what a later
 * load of that slot reads), each position's checkpoint and level; a position that would
 * be deeper than the level limit starts from column 0. Writes the saves as (column,
 * checkpoint) pairs to sv. Returns the checkpoint count. */
static int32_t number_checkpoints(const dpa_phmm_prefix_plan *pl, share_scratch *x, int32_t *sv)
{
    int32_t nck = 0;
    for (int32_t p = 0; p < pl->k; p++) {
        x->resume[p] = pl->resume[p];
        x->load[p] = -1;
        x->level[p] = 0;
        if (pl->resume[p] > 0) {
            const int32_t id = x->cur[pl->load_slot[p]];
            if (x->ck_level[id] + 1 < x->levels_max) {
                x->load[p] = id;
                x->level[p] = x->ck_level[id] + 1;
            } else {
                x->resume[p] = 0;
            }
        }
        for (int32_t s = pl->save_at[p]; s < pl->save_at[p + 1]; s++) {
            x->cur[pl->saves[s].slot] = nck;
            x->ck_level[nck] = x->level[p];
            sv[2 * s] = pl->saves[s].col;
            sv[2 * s + 1] = nck++;
        }
    }
    return nck;
}

dpa_status dpa_phmm_share_plan(const dpa_pairhmm_batch *batch, const dpa_phmm_task *tasks,
                               int64_t n, const uint8_t *rwide, const uint8_t *hwide,
                               dpa_phmm_share *sh, uint8_t *shared, int32_t *ssaves)
{
    memset(shared, 0, (size_t)n);
    sh->nshared = sh->nsaves = sh->nentries = sh->cells = sh->cells_computed = 0;
    sh->levels = 0;
    int32_t kmax = 1;
    for (int64_t i = 0; i < sh->nregions; i++)
        if (sh->regions[i].k > kmax) kmax = sh->regions[i].k;
    share_scratch x;
    x.haps = malloc(sizeof *x.haps * (size_t)kmax);
    x.lens = malloc(sizeof *x.lens * 6 * (size_t)kmax); /* lens and the five below */
    free(sh->sp);
    sh->sp = malloc(sizeof *sh->sp * (size_t)(sh->pairs_max > 0 ? sh->pairs_max : 1));
    if (!x.haps || !x.lens || !sh->sp) {
        free(x.haps), free(x.lens);
        return DPA_ERR_OUT_OF_MEMORY;
    }
    x.load = x.lens + kmax;
    x.level = x.lens + 2 * kmax;
    x.cur = x.lens + 3 * kmax;
    x.ck_level = x.lens + 4 * kmax;
    x.resume = x.lens + 5 * kmax;
    x.levels_max = sh->levels_max > 0 && sh->levels_max < DPA_PHMM_SHARE_LEVELS
                       ? sh->levels_max : DPA_PHMM_SHARE_LEVELS;
    dpa_status st = DPA_OK;
    for (int64_t i = 0; i < sh->nregions; i++) {
        const dpa_phmm_region *rg = &sh->regions[i];
        const int32_t k = rg->k;
        int wide = 0;
        int64_t cols = 0;
        for (int32_t h = 0; h < k; h++) {
            const int32_t hh = rg->h0 + h;
            x.haps[h] = batch->hap_bases + batch->hap_offsets[hh];
            x.lens[h] = batch->hap_lengths[hh];
            cols += x.lens[h];
            wide |= hwide[hh] & 1;
        }
        if (wide) continue;
        dpa_phmm_prefix_plan pl;
        if ((st = dpa_phmm_prefix_plan_build(x.haps, x.lens, k, k, 0, &pl)) != DPA_OK) {
            dpa_phmm_prefix_plan_free(&pl);
            break;
        }
        int32_t *sv = ssaves + 2 * sh->nsaves;
        const int32_t nck = number_checkpoints(&pl, &x, sv);
        int64_t cols_new = 0;
        for (int32_t p = 0; p < k; p++) cols_new += x.lens[pl.order[p]] - x.resume[p];
        /* lane work per read: the new columns and a wavefront fill per pair, against
         * every column; reads of both classes count their rows */
        const int64_t fill = (int64_t)k * (DPA_PHMM_SHARED_G - 1);
        int64_t nr = 0, lsum = 0;
        for (int32_t r = 0; r < rg->nreads; r++) {
            const int32_t rd = tasks[rg->t0 + (int64_t)r * k].read;
            if ((rwide[rd] & 1) || read_class(batch->read_lengths[rd]) < 0) continue;
            nr++;
            lsum += batch->read_lengths[rd];
        }
        const int share = nr > 0 && nck > 0 &&
                          (double)(cols_new + fill) < sh->ratio * (double)(cols + fill) &&
                          sh->nentries + nr * nck <= sh->entries_max;
        if (share) {
            for (int32_t r = 0; r < rg->nreads; r++) {
                const int64_t t0 = rg->t0 + (int64_t)r * k;
                const int32_t rd = tasks[t0].read;
                const int c = rwide[rd] & 1 ? -1 : read_class(batch->read_lengths[rd]);
                if (c < 0) continue;
                for (int32_t p = 0; p < k; p++) {
                    const int32_t h = pl.order[p];
                    dpa_phmm_spair *q = &sh->sp[sh->nshared++];
                    memset(q, 0, sizeof *q);
                    q->task = (int32_t)(t0 + h);
                    q->n2 = x.lens[h] - x.resume[p];
                    q->cls = (uint8_t)c;
                    q->level = (uint8_t)x.level[p];
                    q->sd.resume = x.resume[p];
                    q->sd.load = x.load[p];
                    q->sd.save0 = (int32_t)sh->nsaves + pl.save_at[p];
                    q->sd.save1 = (int32_t)sh->nsaves + pl.save_at[p + 1];
                    q->sd.ebase = (int32_t)sh->nentries;
                    if (x.level[p] + 1 > sh->levels) sh->levels = x.level[p] + 1;
                }
                memset(shared + t0, 1, (size_t)k);
                sh->nentries += nck;
            }
            sh->nsaves += pl.save_at[k];
            sh->cells += lsum * cols;
            sh->cells_computed += lsum * cols_new;
        }
        dpa_phmm_prefix_plan_free(&pl);
    }
    free(x.haps), free(x.lens);
    return st;
}
