/*
 * distance_planes.c — transposes the used variants of SNP-major .bed rows into per-sample
 * bit planes (distance.h), 64 used variants (one plane word) at a time; any range of samples
 * on its own, so the engine fills the planes in parallel (ranges aligned to 4 samples never
 * share a .bed byte column or a plane word).
 *
 * A block of 64 variants x 8 byte columns (32 samples) is a bit-matrix transpose done on
 * 64-bit words with shifts and masks, portable C: 8 rows x 8 bytes are transposed as an 8 x 8
 * byte matrix (each word then holds one byte column of 8 variants), each of those words as an
 * 8 x 8 bit matrix (byte b = code bit b of the 8 variants), and the 8 such words of a column
 * once more as bytes (word b = code bit b of all 64 variants). The low and high code bits of a
 * sample then give its three planes in three operations. About 5 operations per .bed byte;
 * the table walk it replaced (12 shift/or per byte and variant) took 0.35 s of a 1.55 s
 * one-thread call at 2,000 x 97,000 (docs/lab/2026-11-29-session21-distance.md).
 */
#include <stdlib.h>
#include <string.h>

#include "common/status.h"
#include "cpu/distance/distance.h"

/* How far ahead the .bed rows are fetched, in variants, and into which cache (1: L2; L1
 * cannot hold a word's rows and the rows read now). Measured on the Zen 4 dev VM, one
 * thread, 2,000 x 97,000: planes 154 ms without, 120-128 ms one word ahead into L1, 71-80 ms
 * one word ahead into L2. */
#define PREFETCH_AHEAD 64
#define PREFETCH_LOC 1

/* x[i] byte j <-> x[j] byte i: three rounds of swapping 1-, 2-, 4-byte blocks. */
static inline void transpose_bytes8(uint64_t x[8])
{
    for (int i = 0; i < 8; i += 2) {
        const uint64_t t = ((x[i] >> 8) ^ x[i + 1]) & 0x00FF00FF00FF00FFull;
        x[i + 1] ^= t, x[i] ^= t << 8;
    }
    for (int i = 0; i < 8; i++)
        if (!(i & 2)) {
            const uint64_t t = ((x[i] >> 16) ^ x[i + 2]) & 0x0000FFFF0000FFFFull;
            x[i + 2] ^= t, x[i] ^= t << 16;
        }
    for (int i = 0; i < 4; i++) {
        const uint64_t t = ((x[i] >> 32) ^ x[i + 4]) & 0x00000000FFFFFFFFull;
        x[i + 4] ^= t, x[i] ^= t << 32;
    }
}

/* Bit i of byte j <-> bit j of byte i (byte i = row i of an 8 x 8 bit matrix). */
static inline uint64_t transpose_bits8(uint64_t x)
{
    uint64_t t;
    t = (x ^ (x >> 7)) & 0x00AA00AA00AA00AAull, x ^= t ^ (t << 7);
    t = (x ^ (x >> 14)) & 0x0000CCCC0000CCCCull, x ^= t ^ (t << 14);
    t = (x ^ (x >> 28)) & 0x00000000F0F0F0F0ull, x ^= t ^ (t << 28);
    return x;
}

/* n (1..8) bytes at p, byte k at bits 8k, zeros above. */
static inline uint64_t load_bytes(const uint8_t *p, int n)
{
    uint64_t x = 0;
    if (n == 8) {
        memcpy(&x, p, 8);
#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_BIG_ENDIAN__
        x = __builtin_bswap64(x);
#endif
        return x;
    }
    for (int k = 0; k < n; k++) x |= (uint64_t)p[k] << (8 * k);
    return x;
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
    const int64_t W = p->words;
    const int32_t first = p->first;
    const int32_t g0 = s0 / 4, g1 = (s1 + 3) / 4; /* byte columns touched */
    const uint8_t *rows[64];
    int64_t v = 0, word = 0;
    for (; word * 64 < used; word++) {
        int nrows = 0;
        for (; nrows < 64 && v < b->num_variants; v++)
            if (!b->variant_use || b->variant_use[v]) rows[nrows++] = b->genotypes + v * b->row_bytes;
        /* a short last word reads row 0 again in its empty slots; `valid` clears their bits */
        for (int t = nrows; t < 64; t++) rows[t] = rows[0];
        /* The loop below reads 64 rows a column step, 64 streams at once, more than the
         * hardware prefetchers follow: 70% of this function's time was those loads waiting
         * for memory. The rows of the word after next (64 variants on, used or not) are
         * fetched ahead as whole lines while this word is transposed. */
        const int64_t ahead = v + PREFETCH_AHEAD;
        for (int64_t q = ahead; q < ahead + 64 && q < b->num_variants; q++) {
            const uint8_t *row = b->genotypes + q * b->row_bytes;
            for (int64_t off = g0; off < g1; off += 64)
                __builtin_prefetch(row + off, 0, PREFETCH_LOC);
            __builtin_prefetch(row + g1 - 1, 0, PREFETCH_LOC);
        }
        const uint64_t valid = nrows == 64 ? ~0ull : (1ull << nrows) - 1;
        for (int32_t g = g0; g < g1; g += 8) {
            const int ng = g1 - g < 8 ? (int)(g1 - g) : 8;
            /* m[j][q]: byte column g + j, variants 8q..8q+7, byte c = code bit c of each */
            uint64_t m[8][8];
            for (int q = 0; q < 8; q++) {
                uint64_t x[8];
                for (int i = 0; i < 8; i++) x[i] = load_bytes(rows[8 * q + i] + g, ng);
                transpose_bytes8(x);
                for (int j = 0; j < 8; j++) m[j][q] = transpose_bits8(x[j]);
            }
            for (int j = 0; j < ng; j++) {
                transpose_bytes8(m[j]); /* m[j][c]: bit t = code bit c of variant t */
                for (int k = 0; k < 4; k++) {
                    const int32_t sample = (g + j) * 4 + k;
                    if (sample < s0 || sample >= s1) continue;
                    const uint64_t lo = m[j][2 * k], hi = m[j][2 * k + 1];
                    /* codes: 00 hom A1, 01 missing, 10 het, 11 hom A2 */
                    uint64_t *o = p->bits + (size_t)(sample - first) * DPA_DIST_PLANES * (size_t)W + word;
                    o[0] = ~(lo | hi) & valid;
                    o[W] = lo & hi & valid;
                    o[2 * W] = hi & ~lo & valid;
                }
            }
        }
    }
    /* the padding words, so a plane never holds stale memory */
    for (int32_t sample = s0; sample < s1; sample++)
        for (int q = 0; q < DPA_DIST_PLANES; q++)
            for (int64_t w = word; w < W; w++)
                p->bits[((size_t)(sample - first) * DPA_DIST_PLANES + (size_t)q) * (size_t)W + (size_t)w] = 0;
}

dpa_status dpa_dist_planes_build(const dpa_genotype_batch *b, int64_t used, int32_t first,
                                 int32_t count, dpa_dist_planes *p)
{
    dpa_status st = dpa_dist_planes_alloc(used, first, count, p);
    if (st) return st;
    dpa_dist_planes_fill(b, used, p, first, first + count);
    return DPA_OK;
}
