/*
 * pairhmm_suffix_avx512.c — prefix + suffix sharing with 16 reads in the lanes
 * (pairhmm_suffix_vec.h). Compiled with the AVX-512 flags of pairhmm_avx512.c
 * (native/CMakeLists.txt), never reached on older CPUs.
 */
#include "cpu/pairhmm/pairhmm_prefix.h"

#define SV_W 16
#define SV_FN(x) x##_avx512
#define SV_PREFIX_FN dpa_phmm_compute_prefix_avx512
/* AVX-512's prefix kernel is about twice as fast per cell as the 16-lane suffix kernel on
 * Zen 4: groups whose suffixes save less than half go to it (1m.in: 37.9 ms with 0.5, 38.1
 * with 0.65, 43.2 with 0.35, 38.5 never; docs/BENCHMARKS.md) */
#define SV_WORTH 0.5
#include "cpu/pairhmm/pairhmm_suffix_vec.h"
