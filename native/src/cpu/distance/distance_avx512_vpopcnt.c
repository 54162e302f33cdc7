/*
 * distance_avx512_vpopcnt.c — the AVX-512 plane kernel with VPOPCNTQ (AVX512_VPOPCNTDQ: Ice
 * Lake and later, Zen 4 and later). Not part of the project's avx512 bundle (F+BW+DQ+VL), so
 * this file alone is compiled with -mavx512vpopcntdq and dpa_dist_select() takes it only
 * where CPUID says the instruction exists. One VPOPCNTQ + VPADDQ per count and step instead of
 * the six-instruction nibble lookup, on the two vector ports AVX-512 leaves; the sums stay in
 * 64-bit lanes, so a block has no overflow limit.
 */
#include <cpuid.h>
#include <immintrin.h>

#include "cpu/distance/distance_tile.h"

#define BLOCK_WORDS 256
#ifndef CB
#define CB 2  /* columns of a register block (x DPA_DIST_RB rows) */
#endif
#define OR_AND 0xf8  /* a | (b & c) */
#define AND_OR 0xe0  /* a & (b | c) */
#define OR3 0xfe     /* a | b | c */

int dpa_dist_cpu_has_vpopcntdq(void)
{
    unsigned a, b, c, d;
    if (!__get_cpuid_count(7, 0, &a, &b, &c, &d)) return 0;
    return (c >> 14) & 1u;
}

/* Counts of nr x nc pairs (constants at each use, so the accumulators are registers: 20 of
 * the 32 zmm for 2 x 2). Per step a row contributes A, B, H and O = A|B, a column A, B, H and
 * C = A|B|H; each pair then needs six logic operations and five VPOPCNTQ + VPADDQ. */
static inline __attribute__((always_inline)) void
block_vpopcnt(const uint64_t *const *x, int nr, const uint64_t *const *y, int nc, int64_t W,
              int64_t w0, int64_t nw, uint64_t *s)
{
    __m512i acc[DPA_DIST_RB][CB][5];
    for (int i = 0; i < nr; i++)
        for (int j = 0; j < nc; j++)
            for (int k = 0; k < 5; k++) acc[i][j][k] = _mm512_setzero_si512();
    for (int64_t w = w0; w < w0 + nw; w += 8) {
        __m512i ai[DPA_DIST_RB], bi[DPA_DIST_RB], hi[DPA_DIST_RB], oi[DPA_DIST_RB];
        for (int i = 0; i < nr; i++) {
            ai[i] = _mm512_loadu_si512(x[i] + w), bi[i] = _mm512_loadu_si512(x[i] + W + w);
            hi[i] = _mm512_loadu_si512(x[i] + 2 * W + w);
            oi[i] = _mm512_or_si512(ai[i], bi[i]);
        }
        for (int j = 0; j < nc; j++) {
            const __m512i aj = _mm512_loadu_si512(y[j] + w), bj = _mm512_loadu_si512(y[j] + W + w);
            const __m512i hj = _mm512_loadu_si512(y[j] + 2 * W + w);
            const __m512i cj = _mm512_ternarylogic_epi64(aj, bj, hj, OR3);
            for (int i = 0; i < nr; i++) {
                __m512i *a = acc[i][j];
                /* het in i, hom in j: hi & (aj | bj) */
                const __m512i h1o2 = _mm512_ternarylogic_epi64(hi[i], aj, bj, AND_OR);
                /* called in both: cj & (oi | hi) */
                a[0] = _mm512_add_epi64(a[0], _mm512_popcnt_epi64(
                                                  _mm512_ternarylogic_epi64(cj, oi[i], hi[i], AND_OR)));
                /* opposite homozygotes: (ai & bj) | (bi & aj) */
                a[1] = _mm512_add_epi64(a[1], _mm512_popcnt_epi64(_mm512_ternarylogic_epi64(
                                                  _mm512_and_si512(ai[i], bj), bi[i], aj, OR_AND)));
                /* one het: (hi & oj) | (oi & hj) */
                a[2] = _mm512_add_epi64(a[2], _mm512_popcnt_epi64(
                                                  _mm512_ternarylogic_epi64(h1o2, oi[i], hj, OR_AND)));
                a[3] = _mm512_add_epi64(a[3], _mm512_popcnt_epi64(_mm512_and_si512(hi[i], hj)));
                a[4] = _mm512_add_epi64(a[4], _mm512_popcnt_epi64(h1o2));
            }
        }
    }
    for (int i = 0; i < nr; i++)
        for (int j = 0; j < nc; j++)
            for (int k = 0; k < 5; k++)
                s[(i * nc + j) * 5 + k] = (uint64_t)_mm512_reduce_add_epi64(acc[i][j][k]);
}

static void pair_vpopcnt(const uint64_t *const *x, const uint64_t *const *y, int64_t W, int64_t w0,
                         int64_t nw, uint64_t *s)
{
    block_vpopcnt(x, 1, y, 1, W, w0, nw, s);
}

static void block2_vpopcnt(const uint64_t *const *x, const uint64_t *const *y, int64_t W,
                           int64_t w0, int64_t nw, uint64_t *s)
{
    block_vpopcnt(x, DPA_DIST_RB, y, CB, W, w0, nw, s);
}

void dpa_dist_tile_avx512_vpopcnt(const dpa_dist_planes *p, int32_t r0, int32_t r1, int32_t c0,
                                  int32_t c1, int upper, const int64_t *row_base, uint32_t *out)
{
    dpa_dist_tile_run(p, r0, r1, c0, c1, upper, row_base, out, pair_vpopcnt, block2_vpopcnt, CB,
                      BLOCK_WORDS);
}
