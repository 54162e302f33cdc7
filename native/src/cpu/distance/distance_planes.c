/*
 * distance_planes.c — transposes the used variants of SNP-major .bed rows into per-sample
 * bit planes (distance.h), 64 used variants (one plane word) at a time; any range of samples
 * on its own, so the engine fills the planes in parallel (ranges aligned to 4 samples never
 * share a .bed byte column or a plane word). For each .bed byte
 * column (4 samples) the 64 rows' bytes are read down the column and the 12 words (4 samples x
 * 3 planes) built in registers through a 256-entry table of each byte's plane bits, so a
 * genotype costs a few register operations and no branch (a branch per genotype on random
 * codes, and plane words updated in memory per genotype, made this a quarter of a 2,000-sample
 * call).
 */
#include <stdlib.h>
#include <string.h>

#include "common/status.h"
#include "cpu/distance/distance.h"

/* For a .bed byte (4 samples): bits 0-3 = sample k homA1 (00), 4-7 homA2 (11), 8-11 het (10). */
static uint16_t byte_planes(unsigned x)
{
    uint16_t e = 0;
    for (unsigned k = 0; k < 4; k++) {
        const unsigned code = (x >> (2 * k)) & 3u;
        if (code == 0) e |= (uint16_t)(1u << k);
        if (code == 3) e |= (uint16_t)(1u << (4 + k));
        if (code == 2) e |= (uint16_t)(1u << (8 + k));
    }
    return e;
}

void dpa_dist_planes_free(dpa_dist_planes *p)
{
    if (!p) return;
    free(p->bits);
    memset(p, 0, sizeof *p);
}

dpa_status dpa_dist_planes_alloc(int64_t used, int32_t first, int32_t count, dpa_dist_planes *p)
{
    memset(p, 0, sizeof *p);
    p->first = first;
    p->count = count;
    p->words = dpa_dist_words(used);
    const size_t words = (size_t)count * DPA_DIST_PLANES * (size_t)p->words;
    const size_t bytes = (words * sizeof(uint64_t) + 63) / 64 * 64;
    p->bits = bytes ? aligned_alloc(64, bytes) : NULL;
    if (bytes && !p->bits)
        return dpa_fail(DPA_ERR_OUT_OF_MEMORY, "distance: out of memory for the bit planes of "
                        "%d samples x %lld variants", count, (long long)used);
    return DPA_OK;
}

void dpa_dist_planes_fill(const dpa_genotype_batch *b, int64_t used, dpa_dist_planes *p,
                          int32_t s0, int32_t s1)
{
    uint16_t table[256];
    for (unsigned x = 0; x < 256; x++) table[x] = byte_planes(x);
    const int64_t W = p->words;
    const int32_t first = p->first, count = p->count;
    const int32_t g0 = s0 / 4, g1 = (s1 + 3) / 4; /* byte columns touched */
    const uint8_t *rows[64];
    int64_t v = 0, word = 0;
    for (; word * 64 < used; word++) {
        int nrows = 0;
        for (; nrows < 64 && v < b->num_variants; v++)
            if (!b->variant_use || b->variant_use[v]) rows[nrows++] = b->genotypes + v * b->row_bytes;
        for (int32_t g = g0; g < g1; g++) {
            uint64_t acc[4][DPA_DIST_PLANES] = { { 0 } };
            for (int t = 0; t < nrows; t++) {
                const unsigned e = table[rows[t][g]];
                for (int k = 0; k < 4; k++) {
                    acc[k][0] |= (uint64_t)((e >> k) & 1u) << t;
                    acc[k][1] |= (uint64_t)((e >> (4 + k)) & 1u) << t;
                    acc[k][2] |= (uint64_t)((e >> (8 + k)) & 1u) << t;
                }
            }
            for (int k = 0; k < 4; k++) {
                const int32_t sample = g * 4 + k;
                if (sample < s0 || sample >= s1) continue;
                const int32_t s = sample - first;
                for (int q = 0; q < DPA_DIST_PLANES; q++)
                    p->bits[((size_t)s * DPA_DIST_PLANES + (size_t)q) * (size_t)W + (size_t)word] = acc[k][q];
            }
        }
    }
    /* the padding words, so a plane never holds stale memory */
    for (int32_t sample = s0; sample < s1; sample++)
        for (int q = 0; q < DPA_DIST_PLANES; q++)
            for (int64_t w = word; w < W; w++)
                p->bits[((size_t)(sample - first) * DPA_DIST_PLANES + (size_t)q) * (size_t)W + (size_t)w] = 0;
    (void)count;
}

dpa_status dpa_dist_planes_build(const dpa_genotype_batch *b, int64_t used, int32_t first,
                                 int32_t count, dpa_dist_planes *p)
{
    dpa_status st = dpa_dist_planes_alloc(used, first, count, p);
    if (st) return st;
    dpa_dist_planes_fill(b, used, p, first, first + count);
    return DPA_OK;
}
