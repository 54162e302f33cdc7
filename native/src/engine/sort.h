/*
 * sort.h — the engine's one sort: work items largest first. The PairHMM scheduler sorts its
 * tasks by (read length, haplotype length) and the Smith-Waterman batch its pairs by cells,
 * both so that chunks group similar shapes and the expensive ones start first.
 */
#ifndef DPA_ENGINE_SORT_H
#define DPA_ENGINE_SORT_H

#include <stdint.h>

#include "dpaccel.h"

typedef struct dpa_sort_item {
    uint64_t key;
    int64_t index; /* the caller's position of the item */
} dpa_sort_item;

/* Sorts items[0..n) by key descending, ties by index ascending. On entry the items must be in
 * ascending index order (the radix path is stable). tmp holds n items. Batches under 4096
 * items use qsort, whose cost is proportional to n (a HaplotypeCaller region is hundreds);
 * larger ones an LSD radix sort in 11-bit digits, O(n), with only the passes the largest key
 * needs (qsort of 1M Smith-Waterman pairs took ~0.2 s, longer than the GPU's whole batch). */
void dpa_sort_desc(dpa_sort_item *items, dpa_sort_item *tmp, int64_t n);

/* The workloads whose task is one input item (Smith-Waterman pairs, X-drop seeds): sorts
 * items as dpa_sort_desc and writes their indices, in that order, to order[0..n).
 * DPA_ERR_OUT_OF_MEMORY (message naming `what`) when the sort's buffer cannot be had. */
dpa_status dpa_sort_order_desc(dpa_sort_item *items, int32_t *order, int64_t n, const char *what);

#endif
