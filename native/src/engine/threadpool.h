/*
 * threadpool.h — a fixed pool of CPU workers shared by every call on a context.
 *
 * dpa_pool_run(pool, count, fn, arg) runs fn(arg, i) for i in [0, count) and returns when
 * all are done. The calling thread works too, so a pool of T threads uses T-1 workers.
 * Several threads may call dpa_pool_run on one pool at once: their jobs share the
 * workers, and indices are handed out one at a time (dynamic scheduling), so callers
 * should order indices from most to least expensive.
 */
#ifndef DPA_ENGINE_THREADPOOL_H
#define DPA_ENGINE_THREADPOOL_H

#include <stdint.h>

#include "dpaccel.h"

typedef struct dpa_threadpool dpa_threadpool;
typedef void (*dpa_job_fn)(void *arg, int64_t index);

dpa_status dpa_pool_create(int32_t threads, dpa_threadpool **out);
void dpa_pool_destroy(dpa_threadpool *pool);
void dpa_pool_run(dpa_threadpool *pool, int64_t count, dpa_job_fn fn, void *arg);

#endif
