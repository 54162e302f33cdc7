/* sort.c — see sort.h. */
#include "common/status.h"
#include "engine/sort.h"

#include <stdlib.h>
#include <string.h>

static int cmp_desc(const void *a, const void *b)
{
    const dpa_sort_item *x = a, *y = b;
    if (x->key != y->key) return x->key > y->key ? -1 : 1;
    return (x->index > y->index) - (x->index < y->index);
}

void dpa_sort_desc(dpa_sort_item *items, dpa_sort_item *tmp, int64_t n)
{
    if (n < 4096) {
        if (n > 1) qsort(items, (size_t)n, sizeof *items, cmp_desc);
        return;
    }
    uint64_t maxk = 0;
    for (int64_t i = 0; i < n; i++)
        if (items[i].key > maxk) maxk = items[i].key;
    /* digits of maxk - key: ascending order of them is descending order of the keys */
    size_t count[1 << 11];
    dpa_sort_item *src = items, *dst = tmp;
    for (int shift = 0; shift < 64 && (maxk >> shift) > 0; shift += 11) {
        memset(count, 0, sizeof count);
        for (int64_t i = 0; i < n; i++) count[((maxk - src[i].key) >> shift) & 2047]++;
        /* a digit every item shares orders nothing (a stable pass would copy the items as
         * they are): one model's pairs against same-length sequences skip every pass */
        if (count[((maxk - src[0].key) >> shift) & 2047] == (size_t)n) continue;
        size_t sum = 0;
        for (int d = 0; d < 2048; d++) {
            const size_t c = count[d];
            count[d] = sum;
            sum += c;
        }
        for (int64_t i = 0; i < n; i++) dst[count[((maxk - src[i].key) >> shift) & 2047]++] = src[i];
        dpa_sort_item *t = src;
        src = dst;
        dst = t;
    }
    if (src != items) memcpy(items, src, sizeof *items * (size_t)n);
}

dpa_status dpa_sort_order_desc(dpa_sort_item *items, int32_t *order, int64_t n, const char *what)
{
    dpa_sort_item *tmp = malloc(sizeof *tmp * (size_t)(n > 0 ? n : 1));
    if (!tmp)
        return dpa_fail(DPA_ERR_OUT_OF_MEMORY, "%s: out of memory sorting %lld items", what,
                        (long long)n);
    dpa_sort_desc(items, tmp, n);
    free(tmp);
    for (int64_t i = 0; i < n; i++) order[i] = (int32_t)items[i].index;
    return DPA_OK;
}
