/*
 * hmm_profiles.h — the public dpa_hmm_profiles handle: the models of one .hmm text and
 * their configured profiles, built once at load (configuration is per model, never per call).
 */
#ifndef DPA_CPU_HMM_PROFILES_H
#define DPA_CPU_HMM_PROFILES_H

#include "cpu/hmm/hmm_profile.h"

struct dpa_hmm_profiles {
    int32_t count;
    dpa_hmm_model *models;
    dpa_hmm_profile *prof;
};

#endif
