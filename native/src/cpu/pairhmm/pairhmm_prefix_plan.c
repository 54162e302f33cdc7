/*
 * pairhmm_prefix_plan.c — the order, resume columns and checkpoint slots of a region's
 * haplotypes (the argument for exactness is in pairhmm_prefix.h).
 */
#include <stdlib.h>
#include <string.h>

#include "cpu/pairhmm/pairhmm_prefix.h"

typedef struct hap_key {
    const uint8_t *bases;
    int32_t len, index;
} hap_key;

/* bytes first, then length: a haplotype next to those it shares most with, whatever their
 * lengths (a prefix sorts before its extensions) */
static int hap_key_cmp_bytes(const void *a, const void *b)
{
    const hap_key *x = a, *y = b;
    const int32_t n = x->len < y->len ? x->len : y->len;
    int c = memcmp(x->bases, y->bases, (size_t)n);
    if (c) return c;
    if (x->len != y->len) return x->len < y->len ? -1 : 1;
    return (x->index > y->index) - (x->index < y->index);
}

static int hap_key_cmp(const void *a, const void *b)
{
    const hap_key *x = a, *y = b;
    if (x->len != y->len) return x->len < y->len ? -1 : 1;
    int c = memcmp(x->bases, y->bases, (size_t)x->len);
    if (c) return c;
    return (x->index > y->index) - (x->index < y->index); /* total order */
}

int32_t dpa_phmm_common_prefix(const uint8_t *a, const uint8_t *b, int32_t n)
{
    int32_t i = 0;
    while (i < n && a[i] == b[i]) i++;
    return i;
}

void dpa_phmm_prefix_plan_free(dpa_phmm_prefix_plan *p)
{
    free(p->order);
    free(p->resume);
    free(p->load_slot);
    free(p->load_len);
    free(p->save_at);
    free(p->saves);
    memset(p, 0, sizeof *p);
}

/* A column some later haplotype resumes from: who computes it, who reads it last. */
typedef struct checkpoint {
    int32_t src, col, last, slot;
} checkpoint;

dpa_status dpa_phmm_prefix_plan_build(const uint8_t *const *haps, const int32_t *lens,
                                      int32_t k, int32_t max_slots, int across_lengths,
                                      dpa_phmm_prefix_plan *p)
{
    memset(p, 0, sizeof *p);
    const size_t K = k > 0 ? (size_t)k : 1;
    hap_key *keys = malloc(K * sizeof *keys);
    checkpoint *cp = malloc(K * sizeof *cp);
    int32_t *cp_of = malloc(K * sizeof *cp_of); /* per position: its checkpoint or -1 */
    int32_t *free_slots = malloc(K * sizeof *free_slots);
    p->order = malloc(K * sizeof *p->order);
    p->resume = malloc(K * sizeof *p->resume);
    p->load_slot = malloc(K * sizeof *p->load_slot);
    p->load_len = malloc(K * sizeof *p->load_len);
    p->save_at = malloc((K + 1) * sizeof *p->save_at);
    p->saves = malloc(K * sizeof *p->saves);
    if (!keys || !cp || !cp_of || !free_slots || !p->order || !p->resume || !p->load_slot ||
        !p->load_len || !p->save_at || !p->saves) {
        free(keys), free(cp), free(cp_of), free(free_slots);
        return DPA_ERR_OUT_OF_MEMORY;
    }
    p->k = k;
    for (int32_t h = 0; h < k; h++) keys[h] = (hap_key){ haps[h], lens[h], h };
    qsort(keys, K, sizeof *keys, across_lengths ? hap_key_cmp_bytes : hap_key_cmp);

    int32_t ncp = 0;
    for (int32_t q = 0; q < k; q++) {
        p->order[q] = keys[q].index;
        const int same = q > 0 && (across_lengths || keys[q].len == keys[q - 1].len);
        const int32_t shorter = q > 0 && keys[q - 1].len < keys[q].len ? keys[q - 1].len
                                                                       : keys[q].len;
        const int32_t r = same ? dpa_phmm_common_prefix(keys[q].bases, keys[q - 1].bases,
                                                        shorter)
                               : 0;
        p->resume[q] = r;
        cp_of[q] = -1;
        if (r == 0) continue;
        /* the latest earlier haplotype that computed column r (see the header) */
        int32_t src = q - 1;
        while (p->resume[src] >= r) src--;
        int32_t c = 0;
        while (c < ncp && !(cp[c].src == src && cp[c].col == r)) c++;
        if (c == ncp) cp[ncp++] = (checkpoint){ src, r, q, -1 };
        cp[c].last = q;
        cp_of[q] = c;
    }

    /* slots: allocated when the source starts, free after the last reader finishes */
    int32_t nfree = 0, nslots = 0;
    int32_t ns = 0;
    for (int32_t q = 0; q < k; q++) {
        p->save_at[q] = ns;
        /* checkpoints are created in reader order, not source order: scan all */
        for (int32_t c = 0; c < ncp; c++) {
            if (cp[c].src != q) continue;
            if (nfree > 0)
                cp[c].slot = free_slots[--nfree];
            else if (nslots < max_slots)
                cp[c].slot = nslots++;
            else
                continue; /* dropped: its readers start from column 0 */
            p->saves[ns++] = (dpa_phmm_save){ cp[c].col, cp[c].slot };
        }
        /* by column, so the kernels save while passing */
        for (int32_t a = p->save_at[q] + 1; a < ns; a++) {
            dpa_phmm_save v = p->saves[a];
            int32_t b = a;
            while (b > p->save_at[q] && p->saves[b - 1].col > v.col) {
                p->saves[b] = p->saves[b - 1];
                b--;
            }
            p->saves[b] = v;
        }
        const int32_t c = cp_of[q];
        if (c >= 0 && cp[c].slot >= 0) {
            p->load_slot[q] = cp[c].slot;
            p->load_len[q] = keys[cp[c].src].len;
        } else {
            p->load_slot[q] = -1;
            p->load_len[q] = keys[q].len;
            p->resume[q] = 0;
        }
        for (int32_t d = 0; d < ncp; d++)
            if (cp[d].last == q && cp[d].slot >= 0) free_slots[nfree++] = cp[d].slot;
    }
    p->save_at[k] = ns;
    p->nslots = nslots;
    for (int32_t q = 0; q < k; q++) {
        p->cols_total += keys[q].len;
        p->cols_computed += keys[q].len - p->resume[q];
    }
    free(keys), free(cp), free(cp_of), free(free_slots);
    return DPA_OK;
}
