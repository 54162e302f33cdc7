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

/* The quality range, in parts a caller may spread over threads (after the shape passed):
 * the first read in [first, last) with a quality byte above DPA_PAIRHMM_MAX_QUAL, or -1.
 * Sets no error, so any thread may call it. */
int32_t dpa_pairhmm_first_bad_quals(const dpa_pairhmm_batch *batch, int32_t first, int32_t last);

/* The error dpa_pairhmm_validate() gives for read i's qualities (the array, position and
 * value), or DPA_OK when they are in range. */
dpa_status dpa_pairhmm_quals_error(const dpa_pairhmm_batch *batch, int32_t i);

#endif
