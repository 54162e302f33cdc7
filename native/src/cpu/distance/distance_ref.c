/*
 * distance_ref.c — the reference the kernels are tested against: one pair, variant by
 * variant, straight from the .bed codes, the definitions of docs/distance.md written out
 * with no bit tricks.
 */
#include "cpu/distance/distance.h"

enum { HOM_A1 = 0, MISSING = 1, HET = 2, HOM_A2 = 3 }; /* PLINK 1 .bed codes */

static int code_at(const dpa_genotype_batch *b, int64_t v, int32_t k)
{
    return (b->genotypes[v * b->row_bytes + k / 4] >> (2 * (k % 4))) & 3;
}

void dpa_dist_ref_pair(const dpa_genotype_batch *b, int32_t i, int32_t j,
                       uint32_t c[DPA_DISTANCE_COUNTS])
{
    for (int k = 0; k < DPA_DISTANCE_COUNTS; k++) c[k] = 0;
    for (int64_t v = 0; v < b->num_variants; v++) {
        if (b->variant_use && !b->variant_use[v]) continue;
        const int x = code_at(b, v, i), y = code_at(b, v, j);
        if (x == MISSING || y == MISSING) continue;
        c[DPA_DISTANCE_NSNP]++;
        if (x == y) c[DPA_DISTANCE_IBS2]++;
        else if (x == HET || y == HET) c[DPA_DISTANCE_IBS1]++;
        else c[DPA_DISTANCE_IBS0]++;
        if (x == HET && y == HET) c[DPA_DISTANCE_HETHET]++;
        if (x == HET && y != HET) c[DPA_DISTANCE_HET1_HOM2]++;
        if (x != HET && y == HET) c[DPA_DISTANCE_HET2_HOM1]++;
    }
}
