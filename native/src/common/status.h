/*
 * status.h — internal error reporting. dpa_fail() records a message for the calling
 * thread (read back with dpa_last_error()) and returns the status, so an error site is
 * one line:  return dpa_fail(DPA_ERR_INVALID_ARG, "read_lengths[%d] = %d exceeds %d", ...);
 */
#ifndef DPA_COMMON_STATUS_H
#define DPA_COMMON_STATUS_H

#include "dpaccel.h"

#if defined(__GNUC__)
#define DPA_PRINTF(a, b) __attribute__((format(printf, a, b)))
#else
#define DPA_PRINTF(a, b)
#endif

dpa_status dpa_fail(dpa_status status, const char *fmt, ...) DPA_PRINTF(2, 3);
void dpa_clear_error(void);

#endif
