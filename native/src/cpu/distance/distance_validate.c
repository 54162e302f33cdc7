/*
 * distance_validate.c — every check a genotype batch and a tile must pass before a kernel
 * sees them; messages name the field, the index, the value and the limit. What C cannot
 * check: that genotypes holds num_variants * row_bytes bytes and variant_use num_variants
 * (the Java facade and the CLI reader check their own arrays and files).
 */
#include <inttypes.h>

#include "common/status.h"
#include "cpu/distance/distance.h"

dpa_status dpa_dist_check_batch(const dpa_genotype_batch *b, int64_t *variants_used)
{
    if (!b) return dpa_fail(DPA_ERR_NULL_ARG, "distance: batch is NULL");
    if (b->num_samples < 1 || b->num_samples > DPA_DISTANCE_MAX_SAMPLES)
        return dpa_fail(b->num_samples < 1 ? DPA_ERR_INVALID_ARG : DPA_ERR_LIMIT,
                        "distance batch: num_samples = %d, must be in [1, %d]", b->num_samples,
                        DPA_DISTANCE_MAX_SAMPLES);
    if (b->num_variants < 0 || b->num_variants > DPA_DISTANCE_MAX_VARIANTS)
        return dpa_fail(b->num_variants < 0 ? DPA_ERR_INVALID_ARG : DPA_ERR_LIMIT,
                        "distance batch: num_variants = %" PRId64 ", must be in [0, %" PRId64 "]",
                        b->num_variants, DPA_DISTANCE_MAX_VARIANTS);
    const int64_t row = ((int64_t)b->num_samples + 3) / 4;
    if (b->row_bytes != row)
        return dpa_fail(DPA_ERR_INVALID_ARG,
                        "distance batch: row_bytes = %" PRId64 ", must be (num_samples + 3) / 4 "
                        "= %" PRId64 " for %d samples", b->row_bytes, row, b->num_samples);
    if (b->num_variants > 0 && !b->genotypes)
        return dpa_fail(DPA_ERR_NULL_ARG, "distance batch: genotypes is NULL");
    int64_t used = b->num_variants;
    if (b->variant_use) {
        used = 0;
        for (int64_t v = 0; v < b->num_variants; v++) {
            if (b->variant_use[v] > 1)
                return dpa_fail(DPA_ERR_INVALID_ARG,
                                "distance batch: variant_use[%" PRId64 "] = %u, must be 0 or 1", v,
                                b->variant_use[v]);
            used += b->variant_use[v];
        }
    }
    if (variants_used) *variants_used = used;
    return DPA_OK;
}

dpa_status dpa_dist_check_tile(const dpa_genotype_batch *b, const dpa_distance_tile *t)
{
    if (!t) return DPA_OK;
    const int32_t n = b->num_samples;
    if (t->row0 < 0 || t->row0 > t->row1 || t->row1 > n)
        return dpa_fail(DPA_ERR_INVALID_ARG, "distance tile: rows [%d, %d) must lie in [0, %d] "
                        "with row0 <= row1", t->row0, t->row1, n);
    if (t->col0 < 0 || t->col0 > t->col1 || t->col1 > n)
        return dpa_fail(DPA_ERR_INVALID_ARG, "distance tile: columns [%d, %d) must lie in [0, %d] "
                        "with col0 <= col1", t->col0, t->col1, n);
    return DPA_OK;
}

DPA_API dpa_status dpa_distance_validate(const dpa_genotype_batch *b, const dpa_distance_tile *t)
{
    dpa_status st = dpa_dist_check_batch(b, NULL);
    return st ? st : dpa_dist_check_tile(b, t);
}

DPA_API dpa_status dpa_distance_pair_count(const dpa_genotype_batch *b, const dpa_distance_tile *t,
                                           int64_t *out)
{
    if (!out) return dpa_fail(DPA_ERR_NULL_ARG, "dpa_distance_pair_count: out is NULL");
    dpa_status st = dpa_distance_validate(b, t);
    if (st) return st;
    const int64_t n = b->num_samples;
    *out = t ? (int64_t)(t->row1 - t->row0) * (t->col1 - t->col0) : n * (n - 1) / 2;
    return DPA_OK;
}
