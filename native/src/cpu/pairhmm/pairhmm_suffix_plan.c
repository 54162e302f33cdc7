/*
 * pairhmm_suffix_plan.c — where each haplotype's forward stops and which reversed suffixes
 * the backward computes (the argument for exactness is in pairhmm_suffix.h).
 */
#include <stdlib.h>
#include <string.h>

#include "cpu/pairhmm/pairhmm_suffix.h"

void dpa_phmm_suffix_plan_free(dpa_phmm_suffix_plan *p)
{
    dpa_phmm_prefix_plan_free(&p->fwd);
    dpa_phmm_prefix_plan_free(&p->bwd);
    free(p->cut);
    free(p->bhap);
    free(p->brev);
    free(p->blen);
    free(p->rev_bytes);
    memset(p, 0, sizeof *p);
}

/* suffix order: compare from the last byte backwards (the keys carry their bytes: qsort
 * has no context argument) */
typedef struct rkey {
    const uint8_t *bases;
    int32_t len, index;
} rkey;

static int rkey_cmp(const void *a, const void *b)
{
    const rkey *x = a, *y = b;
    int32_t i = x->len - 1, j = y->len - 1;
    while (i >= 0 && j >= 0) {
        if (x->bases[i] != y->bases[j]) return x->bases[i] < y->bases[j] ? -1 : 1;
        i--, j--;
    }
    if (x->len != y->len) return x->len < y->len ? -1 : 1;
    return (x->index > y->index) - (x->index < y->index);
}

static int32_t common_suffix(const rkey *x, const rkey *y)
{
    int32_t i = x->len - 1, j = y->len - 1, s = 0;
    while (i >= 0 && j >= 0 && x->bases[i] == y->bases[j]) i--, j--, s++;
    return s;
}

dpa_status dpa_phmm_suffix_plan_build(const uint8_t *const *haps, const int32_t *lens,
                                      int32_t k, int32_t max_slots, dpa_phmm_suffix_plan *p)
{
    memset(p, 0, sizeof *p);
    p->k = k;
    dpa_status st = dpa_phmm_prefix_plan_build(haps, lens, k, max_slots, 1, &p->fwd);
    if (st) return st;
    const size_t K = k > 0 ? (size_t)k : 1;
    int32_t *cap = malloc(K * sizeof *cap);
    int32_t *adj = malloc(K * sizeof *adj);
    rkey *keys = malloc(K * sizeof *keys);
    p->cut = malloc(K * sizeof *p->cut);
    p->bhap = malloc(K * sizeof *p->bhap);
    p->brev = malloc(K * sizeof *p->brev);
    p->blen = malloc(K * sizeof *p->blen);
    if (!cap || !adj || !keys || !p->cut || !p->bhap || !p->brev || !p->blen) {
        st = DPA_ERR_OUT_OF_MEMORY;
        goto done;
    }
    /* the forward must reach its resume column and every column it saves for a later
     * haplotype; the rest of the haplotype (cap columns) may come from a suffix */
    for (int32_t q = 0; q < k; q++) {
        const int32_t h = p->fwd.order[q];
        int32_t f = p->fwd.resume[q];
        for (int32_t s = p->fwd.save_at[q]; s < p->fwd.save_at[q + 1]; s++)
            if (p->fwd.saves[s].col > f) f = p->fwd.saves[s].col;
        cap[h] = lens[h] - f;
        p->cols_total += lens[h];
    }
    /* In suffix order the longest common suffix of two haplotypes is the minimum of the
     * adjacent ones between them. A haplotype takes the longest suffix it shares with
     * another one that can use that much of it (min of their common suffix and the
     * other's cap), and no more than its own cap. */
    for (int32_t h = 0; h < k; h++) keys[h] = (rkey){ haps[h], lens[h], h };
    qsort(keys, K, sizeof *keys, rkey_cmp);
    for (int32_t x = 0; x + 1 < k; x++) adj[x] = common_suffix(&keys[x], &keys[x + 1]);
    size_t rev_total = 0;
    for (int32_t x = 0; x < k; x++) {
        const int32_t h = keys[x].index;
        int32_t best = 0, mn = INT32_MAX;
        for (int32_t y = x - 1; y >= 0 && mn > best; y--) {
            if (adj[y] < mn) mn = adj[y];
            const int32_t c = cap[keys[y].index];
            const int32_t use = mn < c ? mn : c;
            if (use > best) best = use;
        }
        mn = INT32_MAX;
        for (int32_t y = x + 1; y < k && mn > best; y++) {
            if (adj[y - 1] < mn) mn = adj[y - 1];
            const int32_t c = cap[keys[y].index];
            const int32_t use = mn < c ? mn : c;
            if (use > best) best = use;
        }
        const int32_t u = best < cap[h] ? best : cap[h];
        p->cut[h] = lens[h] - u;
        rev_total += (size_t)u;
    }
    p->rev_bytes = malloc(rev_total > 0 ? rev_total : 1);
    if (!p->rev_bytes) {
        st = DPA_ERR_OUT_OF_MEMORY;
        goto done;
    }
    size_t o = 0;
    for (int32_t h = 0; h < k; h++) {
        const int32_t u = lens[h] - p->cut[h];
        if (u == 0) continue;
        uint8_t *r = p->rev_bytes + o;
        for (int32_t t = 0; t < u; t++) r[t] = haps[h][lens[h] - 1 - t];
        p->bhap[p->nb] = h;
        p->brev[p->nb] = r;
        p->blen[p->nb] = u;
        p->nb++;
        o += (size_t)u;
    }
    /* the backward values do not depend on the haplotype's length (only the first-row
     * term does, and the join scales it), so reversed suffixes share across lengths with
     * no rescale: the kernels ignore bwd.load_len */
    st = dpa_phmm_prefix_plan_build(p->brev, p->blen, p->nb, max_slots, 1, &p->bwd);
    if (st) goto done;
    for (int32_t q = 0; q < k; q++) {
        const int32_t h = p->fwd.order[q];
        p->cols_forward += p->cut[h] - p->fwd.resume[q];
        if (p->cut[h] < lens[h]) p->joins++;
    }
    p->cols_backward = p->bwd.cols_computed;
done:
    free(cap), free(adj), free(keys);
    return st;
}
