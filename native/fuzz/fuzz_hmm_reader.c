/*
 * fuzz_hmm_reader.c — libFuzzer target for the HMMER3/f reader (src/cpu/hmm/hmm_reader.c).
 *
 * The input bytes are the file text. Properties: no crash or sanitizer report; a rejected
 * text gets a non-OK status, a message and no models; an accepted text yields models with
 * 1 <= M <= DPA_HMM_MAX_M and probabilities in [0, 1] that configure into a profile and,
 * when small, score a short sequence through the whole scalar pipeline without overflow of
 * anything but HMMER's own saturating arithmetic.
 *
 * Build: cmake -DDPA_FUZZ=ON with clang (see .ci/run); run: fuzz_hmm_reader corpus/hmm_reader
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "common/status.h"
#include "cpu/hmm/hmm_filter.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    dpa_hmm_model *m = NULL;
    int32_t n = -1;
    dpa_status st = dpa_hmm_parse((const char *)data, size, "fuzz", &m, &n);
    if (st != DPA_OK) {
        if (m != NULL || n != 0 || dpa_last_error()[0] == '\0') abort();
        return 0;
    }
    if (!m || n < 1) abort();
    static const uint8_t seq[] = { 0, 5, 9, 26, 21, 27, 3, 19, 28, 12 };
    for (int32_t i = 0; i < n; i++) {
        if (m[i].M < 1 || m[i].M > DPA_HMM_MAX_M || !m[i].name) abort();
        for (size_t j = 0; j < (size_t)(m[i].M + 1) * DPA_HMM_K; j++)
            if (!(m[i].mat[j] >= 0.0f && m[i].mat[j] <= 1.0f)) abort();
        if (m[i].M > 2000) continue;
        dpa_hmm_profile p;
        if (dpa_hmm_profile_build(&m[i], &p) != DPA_OK) abort();
        void *work = malloc(dpa_hmm_work_bytes(p.M));
        if (!work) abort();
        dpa_hmm_filter_opts o = { 0.02, 1e-3, 1, 1 };
        dpa_hmm_filter_out out;
        dpa_hmm_filter_one_ref(&p, seq, (int32_t)sizeof seq, &o, work, &out);
        if (out.pass_vit > out.pass_bias || out.pass_bias > out.pass_msv) abort();
        free(work);
        dpa_hmm_profile_free(&p);
    }
    dpa_hmm_models_free(m, n);
    return 0;
}
