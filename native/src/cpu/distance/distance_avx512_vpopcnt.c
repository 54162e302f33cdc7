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

#define BLOCK_WORDS 128
#define OR_AND 0xf8  /* a | (b & c) */
#define AND_OR 0xe0  /* a & (b | c) */

int dpa_dist_cpu_has_vpopcntdq(void)
{
    unsigned a, b, c, d;
    if (!__get_cpuid_count(7, 0, &a, &b, &c, &d)) return 0;
    return (c >> 14) & 1u;
}

static void pair_vpopcnt(const uint64_t *x, const uint64_t *y, int64_t W, int64_t w0, int64_t nw,
                         uint64_t s[5])
{
    __m512i n = _mm512_setzero_si512(), i0 = n, i1 = n, hh = n, ho = n;
    for (int64_t w = w0; w < w0 + nw; w += 8) {
        const __m512i ai = _mm512_loadu_si512(x + w), bi = _mm512_loadu_si512(x + W + w);
        const __m512i hi = _mm512_loadu_si512(x + 2 * W + w);
        const __m512i aj = _mm512_loadu_si512(y + w), bj = _mm512_loadu_si512(y + W + w);
        const __m512i hj = _mm512_loadu_si512(y + 2 * W + w);
        const __m512i oi = _mm512_or_si512(ai, bi), oj = _mm512_or_si512(aj, bj);
        const __m512i h1o2 = _mm512_and_si512(hi, oj);
        const __m512i ci = _mm512_or_si512(oi, hi);
        n = _mm512_add_epi64(n, _mm512_popcnt_epi64(_mm512_ternarylogic_epi64(ci, oj, hj, AND_OR)));
        i0 = _mm512_add_epi64(i0, _mm512_popcnt_epi64(
                                      _mm512_ternarylogic_epi64(_mm512_and_si512(ai, bj), bi, aj, OR_AND)));
        i1 = _mm512_add_epi64(i1, _mm512_popcnt_epi64(_mm512_ternarylogic_epi64(h1o2, oi, hj, OR_AND)));
        hh = _mm512_add_epi64(hh, _mm512_popcnt_epi64(_mm512_and_si512(hi, hj)));
        ho = _mm512_add_epi64(ho, _mm512_popcnt_epi64(h1o2));
    }
    s[0] = (uint64_t)_mm512_reduce_add_epi64(n);
    s[1] = (uint64_t)_mm512_reduce_add_epi64(i0);
    s[2] = (uint64_t)_mm512_reduce_add_epi64(i1);
    s[3] = (uint64_t)_mm512_reduce_add_epi64(hh);
    s[4] = (uint64_t)_mm512_reduce_add_epi64(ho);
}

void dpa_dist_tile_avx512_vpopcnt(const dpa_dist_planes *p, int32_t r0, int32_t r1, int32_t c0,
                                  int32_t c1, int upper, const int64_t *row_base, uint32_t *out)
{
    dpa_dist_tile_run(p, r0, r1, c0, c1, upper, row_base, out, pair_vpopcnt, BLOCK_WORDS);
}
