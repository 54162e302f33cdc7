/*
 * timing.h — the clock of the engine's phase timings (DPACCEL_TIMING=1, cfg.timing): lines
 * at DPA_LOG_DEBUG through the context's log callback, never stdout/stderr.
 */
#ifndef DPA_ENGINE_TIMING_H
#define DPA_ENGINE_TIMING_H

#include <time.h>

static inline double dpa_ms_now(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return 1e3 * (double)t.tv_sec + 1e-6 * (double)t.tv_nsec;
}

#endif
