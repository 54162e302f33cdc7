/*
 * pairhmm_suffix_avx2.c — prefix + suffix sharing with 8 reads in the lanes
 * (pairhmm_suffix_vec.h). Compiled with the AVX2 flags of pairhmm_avx2.c
 * (native/CMakeLists.txt), never reached on older CPUs.
 */
#include "cpu/pairhmm/pairhmm_prefix.h"

#define SV_W 8
#define SV_FN(x) x##_avx2
#define SV_PREFIX_FN dpa_phmm_compute_prefix_avx2
#include "cpu/pairhmm/pairhmm_suffix_vec.h"
