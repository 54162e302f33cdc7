/*
 * distance_tile.h — the loop every distance kernel shares (included by each ISA's file, so
 * the per-pair function is inlined with that file's flags). A tile is walked in variant
 * blocks of `block_words` words: every pair of the tile reads the block's words of its two
 * samples, so the tile's samples x block stay in L2 while each pair's counts grow in the
 * output. Five sums per pair and block (distance.h); the last pass derives IBS2 and
 * HET2_HOM1 from them.
 */
#ifndef DPA_CPU_DISTANCE_TILE_H
#define DPA_CPU_DISTANCE_TILE_H

#include <string.h>

#include "cpu/distance/distance.h"

/* sums[0..4] = NSNP, IBS0, IBS1, HETHET, HET1_HOM2 over words [w0, w0 + nw) of samples
 * x and y (each the address of the sample's A plane; B at +W, H at +2W). */
typedef void (*dpa_dist_pair_fn)(const uint64_t *x, const uint64_t *y, int64_t W, int64_t w0,
                                 int64_t nw, uint64_t sums[5]);

static inline void dpa_dist_tile_run(const dpa_dist_planes *p, int32_t r0, int32_t r1, int32_t c0,
                                     int32_t c1, int upper, const int64_t *row_base, uint32_t *out,
                                     dpa_dist_pair_fn pair, int64_t block_words)
{
    const int64_t W = p->words;
    for (int32_t r = r0; r < r1; r++) {
        const int32_t cs = upper && c0 <= r ? r + 1 : c0;
        if (cs < c1)
            memset(out + 7 * (row_base[r - r0] + cs), 0, sizeof *out * 7 * (size_t)(c1 - cs));
    }
    for (int64_t w0 = 0; w0 < W; w0 += block_words) {
        const int64_t nw = W - w0 < block_words ? W - w0 : block_words;
        for (int32_t r = r0; r < r1; r++) {
            const uint64_t *x = p->bits + (size_t)(r - p->first) * DPA_DIST_PLANES * (size_t)W;
            const int32_t cs = upper && c0 <= r ? r + 1 : c0;
            for (int32_t c = cs; c < c1; c++) {
                const uint64_t *y = p->bits + (size_t)(c - p->first) * DPA_DIST_PLANES * (size_t)W;
                uint64_t s[5];
                pair(x, y, W, w0, nw, s);
                uint32_t *o = out + 7 * (row_base[r - r0] + c);
                o[DPA_DISTANCE_NSNP] += (uint32_t)s[0];
                o[DPA_DISTANCE_IBS0] += (uint32_t)s[1];
                o[DPA_DISTANCE_IBS1] += (uint32_t)s[2];
                o[DPA_DISTANCE_HETHET] += (uint32_t)s[3];
                o[DPA_DISTANCE_HET1_HOM2] += (uint32_t)s[4];
            }
        }
    }
    for (int32_t r = r0; r < r1; r++) {
        const int32_t cs = upper && c0 <= r ? r + 1 : c0;
        for (int32_t c = cs; c < c1; c++) {
            uint32_t *o = out + 7 * (row_base[r - r0] + c);
            o[DPA_DISTANCE_IBS2] = o[DPA_DISTANCE_NSNP] - o[DPA_DISTANCE_IBS0] - o[DPA_DISTANCE_IBS1];
            o[DPA_DISTANCE_HET2_HOM1] = o[DPA_DISTANCE_IBS1] - o[DPA_DISTANCE_HET1_HOM2];
        }
    }
}

#endif
