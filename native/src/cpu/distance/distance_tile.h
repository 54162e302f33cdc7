/*
 * distance_tile.h — the loop every distance kernel shares (included by each ISA's file, so
 * the block functions are inlined with that file's flags). A tile is walked in variant
 * blocks of `block_words` words: every pair of the tile reads the block's words of its two
 * samples, so the tile's samples x block stay in L2 while each pair's counts grow in the
 * output. Five sums per pair and block (distance.h); the last pass derives IBS2 and
 * HET2_HOM1 from them.
 *
 * Pairs are computed in register blocks of DPA_DIST_RB rows x cb columns: one step loads
 * each of the block's samples once and derives its combined planes once, instead of once per
 * pair, which halves the loads of a 2 x 2 block (the columns come from L2: a tile's columns x
 * block words do not fit L1). Pairs that do not fill a block (the last rows or columns of
 * the tile, the pairs of an upper tile next to its diagonal) go through the one-pair path.
 */
#ifndef DPA_CPU_DISTANCE_TILE_H
#define DPA_CPU_DISTANCE_TILE_H

#include <string.h>

#include "cpu/distance/distance.h"

/* Rows of a register block (every kernel uses 2; its columns are the kernel's choice). */
#ifndef DPA_DIST_RB
#define DPA_DIST_RB 2
#endif
#define DPA_DIST_CB_MAX 8

/* Sums of the pairs (x[i], y[j]) of a block: s[(i * nc + j) * 5 + k], k = NSNP, IBS0, IBS1,
 * HETHET, HET1_HOM2, over words [w0, w0 + nw); x[i], y[j] are the addresses of the samples'
 * A planes (B at +W, H at +2W). A kernel gives two: the one pair (nr = nc = 1) and its
 * register block (nr = DPA_DIST_RB, nc = its cb); each is one body with nr, nc constant. */
typedef void (*dpa_dist_block_fn)(const uint64_t *const *x, const uint64_t *const *y, int64_t W,
                                  int64_t w0, int64_t nw, uint64_t *s);

/* A kernel's public tile function (distance.h) from its block function
 * block(x, nr, y, nc, W, w0, nw, s), an always-inline body that each of the two forms below
 * instantiates with nr and nc constant: the one pair, and the DPA_DIST_RB x cb block. */
#define DPA_DIST_TILE_KERNEL(tile, block, cb, block_words)                                        \
    static void tile##_pair(const uint64_t *const *x, const uint64_t *const *y, int64_t W,       \
                            int64_t w0, int64_t nw, uint64_t *s)                                 \
    {                                                                                             \
        block(x, 1, y, 1, W, w0, nw, s);                                                          \
    }                                                                                             \
    static void tile##_block(const uint64_t *const *x, const uint64_t *const *y, int64_t W,      \
                             int64_t w0, int64_t nw, uint64_t *s)                                \
    {                                                                                             \
        block(x, DPA_DIST_RB, y, cb, W, w0, nw, s);                                               \
    }                                                                                             \
    void tile(const dpa_dist_planes *p, int32_t r0, int32_t r1, int32_t c0, int32_t c1,          \
              int upper, const int64_t *row_base, uint32_t *out)                                  \
    {                                                                                             \
        dpa_dist_tile_run(p, r0, r1, c0, c1, upper, row_base, out, tile##_pair, tile##_block, cb, \
                          block_words);                                                           \
    }

static inline void dpa_dist_add5(uint32_t *o, const uint64_t *s)
{
    o[DPA_DISTANCE_NSNP] += (uint32_t)s[0];
    o[DPA_DISTANCE_IBS0] += (uint32_t)s[1];
    o[DPA_DISTANCE_IBS1] += (uint32_t)s[2];
    o[DPA_DISTANCE_HETHET] += (uint32_t)s[3];
    o[DPA_DISTANCE_HET1_HOM2] += (uint32_t)s[4];
}

static inline void dpa_dist_tile_run(const dpa_dist_planes *p, int32_t r0, int32_t r1, int32_t c0,
                                     int32_t c1, int upper, const int64_t *row_base, uint32_t *out,
                                     dpa_dist_block_fn pair, dpa_dist_block_fn block, int cb,
                                     int64_t block_words)
{
    const int64_t W = p->words;
#define DPA_DIST_SAMPLE(k) (p->bits + (size_t)((k) - p->first) * DPA_DIST_PLANES * (size_t)W)
#define DPA_DIST_OUT(r, c) (out + 7 * (row_base[(r) - r0] + (c)))
    for (int32_t r = r0; r < r1; r++) {
        const int32_t cs = upper && c0 <= r ? r + 1 : c0;
        if (cs < c1)
            memset(DPA_DIST_OUT(r, cs), 0, sizeof *out * 7 * (size_t)(c1 - cs));
    }
    for (int64_t w0 = 0; w0 < W; w0 += block_words) {
        const int64_t nw = W - w0 < block_words ? W - w0 : block_words;
        for (int32_t r = r0; r < r1; r += DPA_DIST_RB) {
            const int nr = r1 - r < DPA_DIST_RB ? r1 - r : DPA_DIST_RB;
            /* from cf on every row of the group wants every column */
            const int32_t cf = upper && c0 < r + nr ? r + nr : c0;
            const uint64_t *x[DPA_DIST_RB];
            for (int i = 0; i < nr; i++) x[i] = DPA_DIST_SAMPLE(r + i);
            uint64_t s[DPA_DIST_RB * DPA_DIST_CB_MAX * 5];
            /* an upper tile's pairs left of cf: row r + i wants c > r + i */
            for (int i = 0; i < nr; i++) {
                const int32_t cs = upper && c0 <= r + i ? r + i + 1 : c0;
                for (int32_t c = cs; c < cf && c < c1; c++) {
                    const uint64_t *y = DPA_DIST_SAMPLE(c);
                    pair(&x[i], &y, W, w0, nw, s);
                    dpa_dist_add5(DPA_DIST_OUT(r + i, c), s);
                }
            }
            int32_t c = cf;
            if (nr == DPA_DIST_RB)
                for (; c + cb <= c1; c += cb) {
                    const uint64_t *y[DPA_DIST_CB_MAX];
                    for (int j = 0; j < cb; j++) y[j] = DPA_DIST_SAMPLE(c + j);
                    block(x, y, W, w0, nw, s);
                    for (int i = 0; i < DPA_DIST_RB; i++)
                        for (int j = 0; j < cb; j++)
                            dpa_dist_add5(DPA_DIST_OUT(r + i, c + j), s + (i * cb + j) * 5);
                }
            for (; c < c1; c++) {
                const uint64_t *y = DPA_DIST_SAMPLE(c);
                for (int i = 0; i < nr; i++) {
                    pair(&x[i], &y, W, w0, nw, s);
                    dpa_dist_add5(DPA_DIST_OUT(r + i, c), s);
                }
            }
        }
    }
    for (int32_t r = r0; r < r1; r++) {
        const int32_t cs = upper && c0 <= r ? r + 1 : c0;
        for (int32_t c = cs; c < c1; c++) {
            uint32_t *o = DPA_DIST_OUT(r, c);
            o[DPA_DISTANCE_IBS2] = o[DPA_DISTANCE_NSNP] - o[DPA_DISTANCE_IBS0] - o[DPA_DISTANCE_IBS1];
            o[DPA_DISTANCE_HET2_HOM1] = o[DPA_DISTANCE_IBS1] - o[DPA_DISTANCE_HET1_HOM2];
        }
    }
#undef DPA_DIST_SAMPLE
#undef DPA_DIST_OUT
}

#endif
