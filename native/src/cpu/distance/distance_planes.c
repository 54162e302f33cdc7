/*
 * distance_planes.c — transposes the used variants of SNP-major .bed rows into per-sample
 * bit planes (distance.h). 64 used variants at a time: each sample's three words are built
 * in a row-sized scratch (one pass over 64 .bed rows, sequential), then stored, so the
 * scattered plane writes happen once per 64 variants instead of once per genotype.
 */
#include <stdlib.h>
#include <string.h>

#include "common/status.h"
#include "cpu/distance/distance.h"

void dpa_dist_planes_free(dpa_dist_planes *p)
{
    if (!p) return;
    free(p->bits);
    memset(p, 0, sizeof *p);
}

dpa_status dpa_dist_planes_build(const dpa_genotype_batch *b, int64_t used, int32_t first,
                                 int32_t count, dpa_dist_planes *p)
{
    memset(p, 0, sizeof *p);
    p->first = first;
    p->count = count;
    p->words = dpa_dist_words(used);
    const size_t words = (size_t)count * DPA_DIST_PLANES * (size_t)p->words;
    const size_t bytes = (words * sizeof(uint64_t) + 63) / 64 * 64;
    p->bits = bytes ? aligned_alloc(64, bytes) : NULL;
    uint64_t *acc = malloc(sizeof *acc * DPA_DIST_PLANES * ((size_t)count + 1));
    if ((bytes && !p->bits) || !acc) {
        free(acc);
        dpa_dist_planes_free(p);
        return dpa_fail(DPA_ERR_OUT_OF_MEMORY, "distance: out of memory for the bit planes of "
                        "%d samples x %lld variants", count, (long long)used);
    }
    if (bytes) memset(p->bits, 0, bytes);
    const int64_t W = p->words;
    int64_t u = 0; /* used variants so far */
    int64_t v = 0;
    while (u < used) {
        memset(acc, 0, sizeof *acc * DPA_DIST_PLANES * (size_t)count);
        const int64_t word = u / 64;
        for (int bit = 0; bit < 64 && u < used; v++) {
            if (b->variant_use && !b->variant_use[v]) continue;
            const uint8_t *row = b->genotypes + v * b->row_bytes;
            const uint64_t m = (uint64_t)1 << bit;
            for (int32_t s = 0; s < count; s++) {
                const int32_t k = first + s;
                const unsigned code = (row[k >> 2] >> (2 * (k & 3))) & 3u;
                /* 00 hom A1 -> A, 11 hom A2 -> B, 10 het -> H, 01 missing -> nothing */
                uint64_t *a = acc + (size_t)s * DPA_DIST_PLANES;
                if (code == 0) a[0] |= m;
                else if (code == 3) a[1] |= m;
                else if (code == 2) a[2] |= m;
            }
            bit++;
            u++;
        }
        for (int32_t s = 0; s < count; s++)
            for (int q = 0; q < DPA_DIST_PLANES; q++)
                p->bits[((size_t)s * DPA_DIST_PLANES + (size_t)q) * (size_t)W + (size_t)word] =
                    acc[(size_t)s * DPA_DIST_PLANES + (size_t)q];
    }
    free(acc);
    return DPA_OK;
}
