/*
 * hmm_profiles.c — load, free and inspect a dpa_hmm_profiles handle.
 */
#include "cpu/hmm/hmm_profiles.h"

#include <stdlib.h>

#include "common/status.h"

static dpa_status finish(dpa_hmm_model *models, int32_t n, dpa_hmm_profiles **out) {
    dpa_hmm_profiles *p = calloc(1, sizeof *p);
    dpa_hmm_profile *prof = p ? calloc((size_t)n, sizeof *prof) : NULL;
    if (!p || !prof) {
        free(p);
        dpa_hmm_models_free(models, n);
        return dpa_fail(DPA_ERR_OUT_OF_MEMORY, "hmm profiles: %d models", n);
    }
    p->count = n;
    p->models = models;
    p->prof = prof;
    for (int32_t i = 0; i < n; i++) {
        dpa_status st = dpa_hmm_profile_build(&models[i], &prof[i]);
        if (st != DPA_OK) {
            for (int32_t j = 0; j < i; j++) dpa_hmm_profile_free(&prof[j]);
            free(prof);
            free(p);
            dpa_hmm_models_free(models, n);
            return st;
        }
    }
    *out = p;
    return DPA_OK;
}

DPA_API dpa_status dpa_hmm_profiles_load_file(const char *path, dpa_hmm_profiles **out) {
    if (!out) return dpa_fail(DPA_ERR_NULL_ARG, "dpa_hmm_profiles_load_file: out is NULL");
    *out = NULL;
    dpa_hmm_model *m = NULL;
    int32_t n = 0;
    dpa_status st = dpa_hmm_read_file(path, &m, &n);
    if (st != DPA_OK) return st;
    return finish(m, n, out);
}

DPA_API dpa_status dpa_hmm_profiles_load_buffer(const char *text, size_t len, dpa_hmm_profiles **out) {
    if (!out) return dpa_fail(DPA_ERR_NULL_ARG, "dpa_hmm_profiles_load_buffer: out is NULL");
    *out = NULL;
    dpa_hmm_model *m = NULL;
    int32_t n = 0;
    dpa_status st = dpa_hmm_parse(text, len, "<buffer>", &m, &n);
    if (st != DPA_OK) return st;
    return finish(m, n, out);
}

DPA_API void dpa_hmm_profiles_free(dpa_hmm_profiles *p) {
    if (!p) return;
    if (p->prof)
        for (int32_t i = 0; i < p->count; i++) dpa_hmm_profile_free(&p->prof[i]);
    free(p->prof);
    dpa_hmm_models_free(p->models, p->count);
    free(p);
}

DPA_API int32_t dpa_hmm_profiles_count(const dpa_hmm_profiles *p) { return p ? p->count : 0; }

DPA_API const char *dpa_hmm_profiles_name(const dpa_hmm_profiles *p, int32_t i) {
    return p && i >= 0 && i < p->count ? p->models[i].name : NULL;
}

DPA_API int32_t dpa_hmm_profiles_length(const dpa_hmm_profiles *p, int32_t i) {
    return p && i >= 0 && i < p->count ? p->models[i].M : -1;
}
