/*
 * pairhmm_suffix_avx2.c — prefix + suffix sharing with 8 reads in the lanes
 * (pairhmm_suffix_vec.h). Compiled with the AVX2 flags of pairhmm_avx2.c
 * (native/CMakeLists.txt), never reached on older CPUs.
 */
#include "cpu/pairhmm/pairhmm_prefix.h"

#define SV_W 8
#define SV_FN(x) x##_avx2
#define SV_PREFIX_FN dpa_phmm_compute_prefix_avx2
/* never hand a group to the prefix kernel unless suffixes make it costlier: on Zen 4 the
 * 8-lane suffix kernel is about as fast per cell as AVX2's prefix kernel (1m.in: 38.1 ms
 * with 1.0, 39.2 with 0.7, 42.8 with 0.5; docs/BENCHMARKS.md) */
#define SV_WORTH 1.0
#include "cpu/pairhmm/pairhmm_suffix_vec.h"
