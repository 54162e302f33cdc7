/*
 * cpu_features.h — which CPU instruction-set bundles this machine and its OS support,
 * minus the ones the user disabled. Bit i of a mask is dpa_isa i.
 *   avx2   = AVX + AVX2 + FMA + BMI1/2, with the OS saving YMM state (XCR0 bits 1,2)
 *   avx512 = F + BW + DQ + VL, with the OS saving opmask/ZMM state (XCR0 0xe6)
 */
#ifndef DPA_CPU_FEATURES_H
#define DPA_CPU_FEATURES_H

#include "dpaccel.h"

#define DPA_ISA_BIT(isa) (1u << (unsigned)(isa))

/* What the hardware + OS support (scalar always). */
unsigned dpa_cpu_supported_isas(void);
/* Parses a comma list of ISA names ("avx512,avx2"; "" = none) into a mask of ISAs to
 * disable. "scalar" cannot be disabled. Unknown names: DPA_ERR_INVALID_ARG naming `what`. */
dpa_status dpa_cpu_parse_disable(const char *list, const char *what, unsigned *out_mask);

#endif
