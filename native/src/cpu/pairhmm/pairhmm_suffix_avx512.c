/*
 * pairhmm_suffix_avx512.c — prefix + suffix sharing with 16 reads in the lanes
 * (pairhmm_suffix_vec.h). Compiled with the AVX-512 flags of pairhmm_avx512.c
 * (native/CMakeLists.txt), never reached on older CPUs.
 */
#include "cpu/pairhmm/pairhmm_prefix.h"

#define SV_W 16
#define SV_FN(x) x##_avx512
#define SV_PREFIX_FN dpa_phmm_compute_prefix_avx512
#include "cpu/pairhmm/pairhmm_suffix_vec.h"
