/*
 * hmm_validate.c — dpa_hmm_filter_validate: every check the batch API makes before any work,
 * so a bad record rejects the whole call and nothing is written.
 */
#include <math.h>
#include <stdio.h>

#include "common/status.h"
#include "cpu/hmm/hmm_model.h"
#include "cpu/hmm/hmm_profile.h"

static int threshold_ok(double v) { return isfinite(v) && v > 0.0 && v <= 1.0; }

dpa_status dpa_hmm_filter_validate_shape(const dpa_hmm_seq_batch *b, const dpa_hmm_filter_params *p) {
    if (!b) return dpa_fail(DPA_ERR_NULL_ARG, "hmm-filter: batch is NULL");
    if (p) {
        if (!threshold_ok(p->F1)) return dpa_fail(DPA_ERR_INVALID_ARG, "hmm-filter: F1 = %g is outside (0, 1]", p->F1);
        if (!threshold_ok(p->F2)) return dpa_fail(DPA_ERR_INVALID_ARG, "hmm-filter: F2 = %g is outside (0, 1]", p->F2);
        if (p->bias_filter != 0 && p->bias_filter != 1)
            return dpa_fail(DPA_ERR_INVALID_ARG, "hmm-filter: bias_filter = %d is not 0 or 1", p->bias_filter);
        if (p->all_scores != 0 && p->all_scores != 1)
            return dpa_fail(DPA_ERR_INVALID_ARG, "hmm-filter: all_scores = %d is not 0 or 1", p->all_scores);
        if (p->backend < -1 || p->backend > DPA_BACKEND_HYBRID)
            return dpa_fail(DPA_ERR_INVALID_ARG, "hmm-filter: backend = %d is not -1 or a dpa_backend", p->backend);
    }
    if (b->num_seqs < 0) return dpa_fail(DPA_ERR_INVALID_ARG, "hmm-filter: num_seqs = %d < 0", b->num_seqs);
    if (b->num_seqs == 0) return DPA_OK;
    if (!b->offsets || !b->lengths)
        return dpa_fail(DPA_ERR_NULL_ARG, "hmm-filter: batch %s is NULL", b->offsets ? "lengths" : "offsets");
    for (int32_t i = 0; i < b->num_seqs; i++) {
        const int32_t L = b->lengths[i];
        if (L < 0) return dpa_fail(DPA_ERR_INVALID_ARG, "hmm-filter: sequence %d: length %d < 0", i, L);
        if (L > DPA_HMM_MAX_SEQ_LENGTH)
            return dpa_fail(DPA_ERR_LIMIT, "hmm-filter: sequence %d: length %d exceeds %d (hmmsearch's limit)", i, L,
                            DPA_HMM_MAX_SEQ_LENGTH);
        if (L == 0) continue;
        if (!b->residues) return dpa_fail(DPA_ERR_NULL_ARG, "hmm-filter: batch residues is NULL");
        if (b->offsets[i] < 0) return dpa_fail(DPA_ERR_INVALID_ARG, "hmm-filter: sequence %d: offset %lld < 0", i, (long long)b->offsets[i]);
    }
    return DPA_OK;
}

dpa_status dpa_hmm_filter_residue_error(const dpa_hmm_seq_batch *b, int32_t seq, int64_t pos) {
    const unsigned char c = b->residues[b->offsets[seq] + pos];
    return dpa_fail(DPA_ERR_INVALID_ARG,
                    "hmm-filter: sequence %d, position %lld: byte 0x%02x ('%c') is not an amino-acid symbol "
                    "(ACDEFGHIKLMNPQRSTVWY BJZOUX * ~, any case)",
                    seq, (long long)(pos + 1), c, c >= 32 && c < 127 ? c : '?');
}

DPA_API dpa_status dpa_hmm_filter_validate(const dpa_hmm_seq_batch *b, const dpa_hmm_filter_params *p) {
    dpa_status st = dpa_hmm_filter_validate_shape(b, p);
    if (st) return st;
    for (int32_t i = 0; i < b->num_seqs; i++) {
        int64_t j = 0;
        if (b->lengths[i] > 0 && dpa_hmm_digitize(b->residues + b->offsets[i], b->lengths[i], NULL, &j) != DPA_OK)
            return dpa_hmm_filter_residue_error(b, i, j);
    }
    return DPA_OK;
}
