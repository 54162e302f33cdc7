/*
 * distance_avx512_vpopcnt.c — the AVX-512 plane kernel with VPOPCNTQ (AVX512_VPOPCNTDQ: Ice
 * Lake and later, Zen 4 and later). Not part of the project's avx512 bundle (F+BW+DQ+VL), so
 * this file alone is compiled with -mavx512vpopcntdq and dpa_dist_select() takes it only
 * where CPUID says the instruction exists. One VPOPCNTQ + VPADDQ per count and step instead of
 * the six-instruction nibble lookup, on the two vector ports AVX-512 leaves; the sums stay in
 * 64-bit lanes, so a block has no overflow limit. The register block is
 * distance_avx512_block.h's, shared with the nibble-lookup kernel.
 */
#include <cpuid.h>
#include <immintrin.h>

#include "cpu/distance/distance_tile.h"

/* a sample's three 4 KB planes a block: a 64-sample tile's columns (768 KB) fit a 1 MB L2;
 * 1.02-1.05x over 256 words on Zen 4 (half the folds) */
#define BLOCK_WORDS 512
#ifndef CB
#define CB 2  /* columns of a register block (x DPA_DIST_RB rows) */
#endif

int dpa_dist_cpu_has_vpopcntdq(void)
{
    unsigned a, b, c, d;
    if (!__get_cpuid_count(7, 0, &a, &b, &c, &d)) return 0;
    return (c >> 14) & 1u;
}

/* 64-bit counters: no overflow limit on a block */
#define DPA_DIST_COUNT_SETUP
#define DPA_DIST_COUNT_ADD(a, v) _mm512_add_epi64((a), _mm512_popcnt_epi64(v))
#define DPA_DIST_COUNT_FOLD(a) ((uint64_t)_mm512_reduce_add_epi64(a))
#include "cpu/distance/distance_avx512_block.h"

DPA_DIST_TILE_KERNEL(dpa_dist_tile_avx512_vpopcnt, block512, CB, BLOCK_WORDS)
