/*
 * distance.h — internal genotype-distance operations: the scalar reference on .bed codes,
 * the bit planes every kernel reads, the kernels' signature and their selection.
 *
 * Planes: the used variants of each sample, transposed into three bit planes of W 64-bit
 * words (W a multiple of 8, zero-padded): homA1 (A), homA2 (B), het (H); a missing call has
 * no bit set. For samples i, j and word w:
 *   NSNP      = popcount(Ci & Cj)               with O = A | B (hom), C = O | H (called)
 *   IBS0      = popcount(Ai & Bj | Bi & Aj)     (the two terms never share a bit)
 *   IBS1      = popcount(Hi & Oj | Oi & Hj)     (likewise)
 *   HETHET    = popcount(Hi & Hj)
 *   HET1_HOM2 = popcount(Hi & Oj)
 * and IBS2 = NSNP - IBS0 - IBS1, HET2_HOM1 = IBS1 - HET1_HOM2: five popcounts per word
 * give the seven counts. Padding has no bit set in any plane, so it counts nothing.
 *
 * Kernel contract (dpa_dist_kernel_fn): the batch passed dpa_distance_validate(); computes
 * the pairs (r, c) of rows [r0, r1) x columns [c0, c1) (only c > r when upper is set) and
 * writes pair (r, c)'s seven counts at out + 7 * (row_base[r - r0] + c), overwriting them.
 * Every kernel gives the same counts as the reference, bit for bit.
 */
#ifndef DPA_CPU_DISTANCE_H
#define DPA_CPU_DISTANCE_H

#include <stdint.h>

#include "dpaccel.h"

#define DPA_DIST_PLANES 3
#define DPA_DIST_WORD_MULTIPLE 8

typedef struct dpa_dist_planes {
    int32_t first;      /* sample of planes' sample 0 */
    int32_t count;      /* samples held */
    int64_t words;      /* W: words per plane, a multiple of DPA_DIST_WORD_MULTIPLE */
    uint64_t *bits;     /* sample s: A at (s*3+0)*W, B at (s*3+1)*W, H at (s*3+2)*W; 64-byte aligned */
} dpa_dist_planes;

/* Words per plane for `used` variants. */
static inline int64_t dpa_dist_words(int64_t used)
{
    const int64_t w = (used + 63) / 64;
    return (w + DPA_DIST_WORD_MULTIPLE - 1) / DPA_DIST_WORD_MULTIPLE * DPA_DIST_WORD_MULTIPLE;
}

/* Builds the planes of samples [first, first + count) from the batch's used variants
 * (variants_used of them): dpa_dist_planes_alloc, then dpa_dist_planes_fill of every sample.
 * DPA_ERR_OUT_OF_MEMORY; free with dpa_dist_planes_free. */
dpa_status dpa_dist_planes_build(const dpa_genotype_batch *b, int64_t variants_used,
                                 int32_t first, int32_t count, dpa_dist_planes *out);
/* Allocates (uninitialised) planes for samples [first, first + count). */
dpa_status dpa_dist_planes_alloc(int64_t variants_used, int32_t first, int32_t count,
                                 dpa_dist_planes *out);
/* Fills the planes of samples [s0, s1) (within the allocated ones), padding words included.
 * Ranges whose bounds are multiples of 4 (or the planes' ends) may be filled concurrently. */
void dpa_dist_planes_fill(const dpa_genotype_batch *b, int64_t variants_used,
                          dpa_dist_planes *p, int32_t s0, int32_t s1);
void dpa_dist_planes_free(dpa_dist_planes *p);

typedef void (*dpa_dist_kernel_fn)(const dpa_dist_planes *p, int32_t r0, int32_t r1,
                                   int32_t c0, int32_t c1, int upper, const int64_t *row_base,
                                   uint32_t *out);

typedef struct dpa_dist_ops {
    dpa_isa isa;
    const char *name;
    dpa_dist_kernel_fn tile;
} dpa_dist_ops;

/* The reference: one pair straight from the .bed codes, variant by variant (no planes). */
void dpa_dist_ref_pair(const dpa_genotype_batch *b, int32_t i, int32_t j,
                       uint32_t counts[DPA_DISTANCE_COUNTS]);

/* Checks the batch's fields and counts its used variants. */
dpa_status dpa_dist_check_batch(const dpa_genotype_batch *b, int64_t *variants_used);
dpa_status dpa_dist_check_tile(const dpa_genotype_batch *b, const dpa_distance_tile *t);

void dpa_dist_tile_scalar(const dpa_dist_planes *p, int32_t r0, int32_t r1, int32_t c0,
                          int32_t c1, int upper, const int64_t *row_base, uint32_t *out);
#ifdef DPA_HAVE_AVX2
void dpa_dist_tile_avx2(const dpa_dist_planes *p, int32_t r0, int32_t r1, int32_t c0,
                        int32_t c1, int upper, const int64_t *row_base, uint32_t *out);
#endif
#ifdef DPA_HAVE_AVX512
void dpa_dist_tile_avx512(const dpa_dist_planes *p, int32_t r0, int32_t r1, int32_t c0,
                          int32_t c1, int upper, const int64_t *row_base, uint32_t *out);
#endif
#ifdef DPA_HAVE_AVX512_VPOPCNT
/* The AVX-512 kernel with VPOPCNTQ, and whether this CPU has it (CPUID.(7,0):ECX bit 14; the
 * avx512 bundle's OS check has passed wherever the avx512 ISA is allowed). */
void dpa_dist_tile_avx512_vpopcnt(const dpa_dist_planes *p, int32_t r0, int32_t r1, int32_t c0,
                                  int32_t c1, int upper, const int64_t *row_base, uint32_t *out);
int dpa_dist_cpu_has_vpopcntdq(void);
#endif

/* Fastest kernel whose ISA bit is set in allowed_isa_mask (bit i = dpa_isa i). */
static inline void dpa_dist_select(unsigned allowed_isa_mask, dpa_dist_ops *out)
{
#ifdef DPA_HAVE_AVX512
    if (allowed_isa_mask & (1u << DPA_ISA_AVX512)) {
#ifdef DPA_HAVE_AVX512_VPOPCNT
        if (dpa_dist_cpu_has_vpopcntdq()) {
            *out = (dpa_dist_ops){ DPA_ISA_AVX512, "avx512+vpopcntdq", dpa_dist_tile_avx512_vpopcnt };
            return;
        }
#endif
        *out = (dpa_dist_ops){ DPA_ISA_AVX512, "avx512", dpa_dist_tile_avx512 };
        return;
    }
#endif
#ifdef DPA_HAVE_AVX2
    if (allowed_isa_mask & (1u << DPA_ISA_AVX2)) {
        *out = (dpa_dist_ops){ DPA_ISA_AVX2, "avx2", dpa_dist_tile_avx2 };
        return;
    }
#endif
    (void)allowed_isa_mask;
    *out = (dpa_dist_ops){ DPA_ISA_SCALAR, "scalar", dpa_dist_tile_scalar };
}

#endif
