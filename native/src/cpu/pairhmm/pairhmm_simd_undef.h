/* pairhmm_simd_undef.h — clears the template parameters of pairhmm_simd.h between two
 * instantiations in one ISA file (float, then double). No include guard: included once per
 * instantiation on purpose. */
#undef PH_T
#undef PH_CODE_T
#undef PH_VEC
#undef PH_CVEC
#undef PH_W
#undef PH_FN
#undef PH_LOAD
#undef PH_STORE
#undef PH_CLOAD
#undef PH_CLOADU
#undef PH_SET1
#undef PH_ZERO
#undef PH_ADD
#undef PH_MUL
#undef PH_FMA
#undef PH_PRIOR
#undef PH_SHIFT_IN
#undef PH_STORE_LAST
#undef PH_ADD_IF_LE
