/*
 * sw_validate.c — every check a Smith-Waterman batch and its parameters must pass before a
 * kernel sees them. Messages name the field, the pair index, the value and the limit.
 *
 * Score bound: with W = |match| + |mismatch| + |gap_open| + |gap_extend| and L = ref_len +
 * alt_len, every cell, border and best-gap value GATK's recurrence computes is at most
 * W * (L + 1) in magnitude (a path has at most L steps, each worth at most W, plus one gap
 * open), and GATK's initial best-gap value is -2^30. Requiring W * (L + 2) < 2^30 keeps every
 * intermediate sum inside int32 and makes the initial value lose to the first real gap, as
 * it does in GATK for all realistic parameters. What C cannot check: that the arrays hold
 * offset + length bytes (the Java facade packs them itself).
 */
#include <inttypes.h>

#include "common/status.h"
#include "cpu/sw/sw.h"

static int64_t labs64(int32_t v) { return v < 0 ? -(int64_t)v : (int64_t)v; }

dpa_status dpa_sw_check_params(const dpa_sw_params *p)
{
    if (!p) return dpa_fail(DPA_ERR_NULL_ARG, "sw: params is NULL");
    if (p->overhang < DPA_SW_OVERHANG_SOFTCLIP || p->overhang > DPA_SW_OVERHANG_IGNORE)
        return dpa_fail(DPA_ERR_INVALID_ARG,
                        "sw params: overhang = %d, must be 0 (SOFTCLIP), 1 (INDEL), "
                        "2 (LEADING_INDEL) or 3 (IGNORE)", p->overhang);
    if (p->backend < -1 || p->backend > DPA_BACKEND_HYBRID)
        return dpa_fail(DPA_ERR_INVALID_ARG, "sw params: backend = %d, must be -1..3",
                        p->backend);
    /* each |value| below the bound alone, so the sum below cannot overflow int64 */
    const int32_t v[4] = { p->match, p->mismatch, p->gap_open, p->gap_extend };
    static const char *const names[4] = { "match", "mismatch", "gap_open", "gap_extend" };
    for (int k = 0; k < 4; k++)
        if (labs64(v[k]) >= DPA_SW_SCORE_BOUND / 4)
            return dpa_fail(DPA_ERR_LIMIT, "sw params: %s = %d, |%s| must be below %" PRId64,
                            names[k], v[k], names[k], DPA_SW_SCORE_BOUND / 4);
    return DPA_OK;
}

dpa_status dpa_sw_check_pair(int32_t i, int32_t ref_len, int32_t alt_len, const dpa_sw_params *p)
{
    if (ref_len < 1 || ref_len > DPA_SW_MAX_LENGTH)
        return dpa_fail(ref_len < 1 ? DPA_ERR_INVALID_ARG : DPA_ERR_LIMIT,
                        "sw batch: ref_lengths[%d] = %d, must be in [1, %d]", i, ref_len,
                        DPA_SW_MAX_LENGTH);
    if (alt_len < 1 || alt_len > DPA_SW_MAX_LENGTH)
        return dpa_fail(alt_len < 1 ? DPA_ERR_INVALID_ARG : DPA_ERR_LIMIT,
                        "sw batch: alt_lengths[%d] = %d, must be in [1, %d]", i, alt_len,
                        DPA_SW_MAX_LENGTH);
    const int64_t cells = (int64_t)ref_len * alt_len;
    if (cells > DPA_SW_MAX_CELLS)
        return dpa_fail(DPA_ERR_LIMIT,
                        "sw batch: pair %d has ref_length %d x alt_length %d = %" PRId64
                        " cells, more than the maximum %" PRId64, i, ref_len, alt_len, cells,
                        DPA_SW_MAX_CELLS);
    if (p) {
        const int64_t w = labs64(p->match) + labs64(p->mismatch) + labs64(p->gap_open) +
                          labs64(p->gap_extend);
        const int64_t bound = w * ((int64_t)ref_len + alt_len + 2);
        if (bound >= DPA_SW_SCORE_BOUND)
            return dpa_fail(DPA_ERR_LIMIT,
                            "sw: pair %d: (|match| + |mismatch| + |gap_open| + |gap_extend|) = "
                            "%" PRId64 " times (ref_length %d + alt_length %d + 2) = %" PRId64
                            " could overflow the int32 scores; must be below %" PRId64,
                            i, w, ref_len, alt_len, bound, DPA_SW_SCORE_BOUND);
    }
    return DPA_OK;
}

static dpa_status check_batch(const dpa_sw_batch *b, const dpa_sw_params *p)
{
    if (!b) return dpa_fail(DPA_ERR_NULL_ARG, "sw batch is NULL");
    if (b->num_pairs < 0)
        return dpa_fail(DPA_ERR_INVALID_ARG, "sw batch: num_pairs = %d, must be >= 0",
                        b->num_pairs);
    if (b->num_pairs == 0) return DPA_OK;
    const void *ptrs[6] = { b->ref_bases, b->ref_offsets, b->ref_lengths,
                            b->alt_bases, b->alt_offsets, b->alt_lengths };
    static const char *const names[6] = { "ref_bases", "ref_offsets", "ref_lengths",
                                          "alt_bases", "alt_offsets", "alt_lengths" };
    for (int k = 0; k < 6; k++)
        if (!ptrs[k]) return dpa_fail(DPA_ERR_NULL_ARG, "sw batch: %s is NULL", names[k]);
    for (int32_t i = 0; i < b->num_pairs; i++) {
        dpa_status st = dpa_sw_check_pair(i, b->ref_lengths[i], b->alt_lengths[i], p);
        if (st) return st;
        if (b->ref_offsets[i] < 0 || b->ref_offsets[i] > INT64_MAX - b->ref_lengths[i])
            return dpa_fail(DPA_ERR_INVALID_ARG, "sw batch: ref_offsets[%d] = %" PRId64
                            " is invalid", i, b->ref_offsets[i]);
        if (b->alt_offsets[i] < 0 || b->alt_offsets[i] > INT64_MAX - b->alt_lengths[i])
            return dpa_fail(DPA_ERR_INVALID_ARG, "sw batch: alt_offsets[%d] = %" PRId64
                            " is invalid", i, b->alt_offsets[i]);
    }
    return DPA_OK;
}

DPA_API dpa_status dpa_sw_validate(const dpa_sw_batch *b, const dpa_sw_params *p)
{
    dpa_status st = dpa_sw_check_params(p);
    if (st) return st;
    return check_batch(b, p);
}

DPA_API dpa_status dpa_sw_cigar_capacity(const dpa_sw_batch *b, int64_t *out)
{
    if (!out) return dpa_fail(DPA_ERR_NULL_ARG, "dpa_sw_cigar_capacity: out is NULL");
    dpa_status st = check_batch(b, NULL);
    if (st) return st;
    int64_t total = 0; /* < 2^31 pairs * 2^18: no overflow */
    for (int32_t i = 0; i < b->num_pairs; i++)
        total += dpa_sw_cigar_max(b->ref_lengths[i], b->alt_lengths[i]);
    *out = total;
    return DPA_OK;
}
