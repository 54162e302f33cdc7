/* threadpool.c — see threadpool.h. Jobs live on their callers' stacks; a worker holds a
 * job only while job->users counts it, and the caller returns only once users is 0, so no
 * worker ever touches a finished job. */
#include <pthread.h>
#include <stdatomic.h>
#include <stdlib.h>

#include "common/status.h"
#include "engine/threadpool.h"

typedef struct job {
    dpa_job_fn fn;
    void *arg;
    int64_t count;
    atomic_llong next;
    int users;          /* workers inside the job; guarded by pool->lock */
    struct job *link;   /* list of jobs with unclaimed indices */
} job;

struct dpa_threadpool {
    pthread_mutex_t lock;
    pthread_cond_t work_cv;  /* workers wait for jobs  */
    pthread_cond_t done_cv;  /* callers wait for users */
    job *jobs;
    int stopping;
    int32_t nworkers;
    pthread_t *workers;
};

static void drain(job *j)
{
    for (;;) {
        int64_t i = atomic_fetch_add(&j->next, 1);
        if (i >= j->count) return;
        j->fn(j->arg, i);
    }
}

static void unlink_job(dpa_threadpool *p, job *j)
{
    for (job **q = &p->jobs; *q; q = &(*q)->link) {
        if (*q == j) {
            *q = j->link;
            return;
        }
    }
}

static void *worker_main(void *arg)
{
    dpa_threadpool *p = arg;
    pthread_mutex_lock(&p->lock);
    for (;;) {
        while (!p->jobs && !p->stopping) pthread_cond_wait(&p->work_cv, &p->lock);
        if (p->stopping) break;
        job *j = p->jobs;
        j->users++;
        pthread_mutex_unlock(&p->lock);
        drain(j);
        pthread_mutex_lock(&p->lock);
        unlink_job(p, j); /* exhausted: nobody new should join it */
        if (--j->users == 0) pthread_cond_broadcast(&p->done_cv);
    }
    pthread_mutex_unlock(&p->lock);
    return NULL;
}

dpa_status dpa_pool_create(int32_t threads, dpa_threadpool **out)
{
    dpa_threadpool *p = calloc(1, sizeof *p);
    if (!p) return dpa_fail(DPA_ERR_OUT_OF_MEMORY, "thread pool: out of memory");
    pthread_mutex_init(&p->lock, NULL);
    pthread_cond_init(&p->work_cv, NULL);
    pthread_cond_init(&p->done_cv, NULL);
    int32_t n = threads > 1 ? threads - 1 : 0;
    p->workers = n ? calloc((size_t)n, sizeof(pthread_t)) : NULL;
    if (n && !p->workers) {
        dpa_pool_destroy(p);
        return dpa_fail(DPA_ERR_OUT_OF_MEMORY, "thread pool: out of memory");
    }
    for (int32_t i = 0; i < n; i++) {
        if (pthread_create(&p->workers[i], NULL, worker_main, p) != 0) {
            dpa_pool_destroy(p);
            return dpa_fail(DPA_ERR_OUT_OF_MEMORY,
                            "thread pool: could not start worker %d of %d", i + 1, n);
        }
        p->nworkers++;
    }
    *out = p;
    return DPA_OK;
}

void dpa_pool_destroy(dpa_threadpool *p)
{
    if (!p) return;
    pthread_mutex_lock(&p->lock);
    p->stopping = 1;
    pthread_cond_broadcast(&p->work_cv);
    pthread_mutex_unlock(&p->lock);
    for (int32_t i = 0; i < p->nworkers; i++) pthread_join(p->workers[i], NULL);
    free(p->workers);
    pthread_cond_destroy(&p->work_cv);
    pthread_cond_destroy(&p->done_cv);
    pthread_mutex_destroy(&p->lock);
    free(p);
}

void dpa_pool_run(dpa_threadpool *p, int64_t count, dpa_job_fn fn, void *arg)
{
    if (count <= 0) return;
    if (count == 1 || p->nworkers == 0) {
        for (int64_t i = 0; i < count; i++) fn(arg, i);
        return;
    }
    job j = { .fn = fn, .arg = arg, .count = count, .users = 0, .link = NULL };
    atomic_init(&j.next, 0);
    pthread_mutex_lock(&p->lock);
    j.link = p->jobs; /* newest first: a short call is not stuck behind a long one */
    p->jobs = &j;
    pthread_cond_broadcast(&p->work_cv);
    pthread_mutex_unlock(&p->lock);
    drain(&j);
    pthread_mutex_lock(&p->lock);
    unlink_job(p, &j);
    while (j.users > 0) pthread_cond_wait(&p->done_cv, &p->lock);
    pthread_mutex_unlock(&p->lock);
}
