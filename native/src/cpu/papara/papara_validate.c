/*
 * papara_validate.c — dpa_papara_validate and the parameter defaults: every message names
 * the field, the index and the limit, so a bad batch is found without a debugger.
 */
#include "common/status.h"
#include "cpu/papara/papara.h"

DPA_API void dpa_papara_params_init(dpa_papara_params *p)
{
    if (!p) return;
    p->gap_open = -3;
    p->gap_extend = -1;
    p->match = 2;
    p->match_cgap = -3;
    p->backend = -1;
    p->score_model = DPA_PAPARA_SCORE_PAPARA2;
}

dpa_status dpa_papara_check_params(const dpa_papara_params *p)
{
    const int32_t M = DPA_PAPARA_MAX_SCORE;
    if (p->gap_open > 0 || p->gap_open < -M)
        return dpa_fail(DPA_ERR_INVALID_ARG, "papara: gap_open = %d outside [-%d, 0]",
                        p->gap_open, M);
    if (p->gap_extend > 0 || p->gap_extend < -M)
        return dpa_fail(DPA_ERR_INVALID_ARG, "papara: gap_extend = %d outside [-%d, 0]",
                        p->gap_extend, M);
    if (p->match < 0 || p->match > M)
        return dpa_fail(DPA_ERR_INVALID_ARG, "papara: match = %d outside [0, %d]", p->match, M);
    if (p->match_cgap >= 0 || p->match_cgap < -M)
        return dpa_fail(DPA_ERR_INVALID_ARG, "papara: match_cgap = %d outside [-%d, -1]",
                        p->match_cgap, M);
    /* PaPaRa finds gap-flagged sites by match + match_cgap < 0 (its "HACK" comment). */
    if (p->match + p->match_cgap >= 0)
        return dpa_fail(DPA_ERR_INVALID_ARG,
                        "papara: match + match_cgap = %d must be < 0 (PaPaRa's assumption)",
                        p->match + p->match_cgap);
    if (p->score_model != DPA_PAPARA_SCORE_PAPARA2 && p->score_model != DPA_PAPARA_SCORE_PAPER2012)
        return dpa_fail(DPA_ERR_INVALID_ARG, "papara: score_model = %d is not a "
                        "DPA_PAPARA_SCORE_* value", p->score_model);
    if (p->backend < -1 || p->backend > DPA_BACKEND_HYBRID)
        return dpa_fail(DPA_ERR_INVALID_ARG, "papara: backend = %d is not a dpa_backend",
                        p->backend);
    return DPA_OK;
}

DPA_API dpa_status dpa_papara_validate(const dpa_papara_batch *b, const dpa_papara_params *p)
{
    if (!b) return dpa_fail(DPA_ERR_NULL_ARG, "papara: batch is NULL");
    if (!p) return dpa_fail(DPA_ERR_NULL_ARG, "papara: params is NULL");
    dpa_status st = dpa_papara_check_params(p);
    if (st) return st;
    if (b->num_profiles < 0 || b->num_reads < 0)
        return dpa_fail(DPA_ERR_INVALID_ARG, "papara: num_profiles = %d, num_reads = %d < 0",
                        b->num_profiles, b->num_reads);
    if (b->num_sites < 1 || b->num_sites > DPA_PAPARA_MAX_SITES)
        return dpa_fail(DPA_ERR_LIMIT, "papara: num_sites = %lld outside [1, %lld]",
                        (long long)b->num_sites, (long long)DPA_PAPARA_MAX_SITES);
    if (b->num_profiles > 0 && !b->profiles)
        return dpa_fail(DPA_ERR_NULL_ARG, "papara: profiles is NULL");
    if ((int64_t)b->num_profiles * b->num_sites > ((int64_t)1 << 40))
        return dpa_fail(DPA_ERR_LIMIT, "papara: %d profiles x %lld sites exceed 2^40 bytes",
                        b->num_profiles, (long long)b->num_sites);
    for (int32_t e = 0; e < b->num_profiles; e++) {
        const uint8_t *row = b->profiles + (int64_t)e * b->num_sites;
        for (int64_t i = 0; i < b->num_sites; i++)
            if (row[i] & 0xE0)
                return dpa_fail(DPA_ERR_INVALID_ARG,
                                "papara: profiles[%d] site %lld = 0x%02x has bits 5-7 set "
                                "(mask in bits 0-3, gap flag in bit 4)",
                                e, (long long)i, row[i]);
    }
    if (b->num_reads > 0 && (!b->read_masks || !b->read_offsets || !b->read_lengths))
        return dpa_fail(DPA_ERR_NULL_ARG, "papara: read_masks, read_offsets or read_lengths "
                                          "is NULL");
    for (int32_t r = 0; r < b->num_reads; r++) {
        const int32_t len = b->read_lengths[r];
        if (len < 1 || len > DPA_PAPARA_MAX_READ_LENGTH)
            return dpa_fail(DPA_ERR_LIMIT, "papara: read_lengths[%d] = %d outside [1, %d]", r,
                            len, DPA_PAPARA_MAX_READ_LENGTH);
        if (b->read_offsets[r] < 0)
            return dpa_fail(DPA_ERR_INVALID_ARG, "papara: read_offsets[%d] = %lld < 0", r,
                            (long long)b->read_offsets[r]);
        const uint8_t *m = b->read_masks + b->read_offsets[r];
        for (int32_t j = 0; j < len; j++)
            if (m[j] < 1 || m[j] > 15)
                return dpa_fail(DPA_ERR_INVALID_ARG,
                                "papara: read %d base %d = %u is not a state mask in [1, 15]",
                                r, j, m[j]);
        if (p->score_model == DPA_PAPARA_SCORE_PAPER2012 && len >= b->num_sites)
            return dpa_fail(DPA_ERR_INVALID_ARG,
                            "papara: paper2012: read %d has %d bases, not fewer than the %lld "
                            "sites (the 2012 kernel aligns the whole read inside the profile)",
                            r, len, (long long)b->num_sites);
    }
    return DPA_OK;
}
