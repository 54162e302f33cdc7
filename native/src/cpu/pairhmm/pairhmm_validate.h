/*
 * pairhmm_validate.h — the part of dpa_pairhmm_validate() a caller may run alone when it
 * has already checked every quality byte itself in the pass that copied it (the JNI layer
 * does, so each byte is read once on the way in).
 */
#ifndef DPA_CPU_PAIRHMM_VALIDATE_H
#define DPA_CPU_PAIRHMM_VALIDATE_H

#include "dpaccel.h"

/* Everything but the quality range: counts, groups, pointers, lengths, offsets. */
dpa_status dpa_pairhmm_validate_shape(const dpa_pairhmm_batch *batch);

#endif
