/* pairhmm_dispatch.c — picks the fastest PairHMM kernel the allowed ISAs permit. Chosen
 * once per context and stored there (no self-patching global function pointers). */
#include "cpu/cpu_features.h"
#include "cpu/pairhmm/pairhmm.h"
#include "cpu/pairhmm/pairhmm_prefix.h"
#include "cpu/pairhmm/pairhmm_suffix.h"

void dpa_phmm_select(unsigned allowed_isa_mask, dpa_phmm_ops *out)
{
#ifdef DPA_HAVE_AVX512
    if (allowed_isa_mask & DPA_ISA_BIT(DPA_ISA_AVX512)) {
        out->isa = DPA_ISA_AVX512;
        out->name = "avx512";
        out->compute = dpa_phmm_compute_avx512;
        out->prefix = dpa_phmm_compute_prefix_avx512;
        out->suffix = dpa_phmm_compute_suffix_avx512;
        return;
    }
#endif
#ifdef DPA_HAVE_AVX2
    if (allowed_isa_mask & DPA_ISA_BIT(DPA_ISA_AVX2)) {
        out->isa = DPA_ISA_AVX2;
        out->name = "avx2";
        out->compute = dpa_phmm_compute_avx2;
        out->prefix = dpa_phmm_compute_prefix_avx2;
        out->suffix = dpa_phmm_compute_suffix_avx2;
        return;
    }
#endif
    (void)allowed_isa_mask;
    out->isa = DPA_ISA_SCALAR;
    out->name = "scalar";
    out->compute = dpa_phmm_compute_scalar;
    out->prefix = dpa_phmm_compute_prefix_scalar;
    out->suffix = dpa_phmm_compute_suffix_scalar;
}
