/*
 * device_pool.cu — per-device state of the CUDA backend: context start-up, the error
 * table, kernel attributes, and the pool of slots (stream + device buffer + pinned
 * staging + host scratch) that pairhmm calls borrow. Buffers are grown only when a larger
 * chunk arrives and kept until close, so steady-state calls never allocate.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sched.h>
#include <time.h>
#include <unistd.h>

#include "backend_internal.h"
#include "pairhmm_cuda.h"

dpa_status dpa_cuda_dev_init(dpa_cuda_dev *d, int cuda_id, int index, dpa_cuda_err *err)
{
    dpa_status status = DPA_OK;
    cudaDeviceProp p;
    double err_table[128];
    memset(d, 0, sizeof *d);
    d->cuda_id = cuda_id;
    pthread_mutex_init(&d->mu, NULL);
    pthread_cond_init(&d->cv, NULL);
    pthread_mutex_init(&d->team.use, NULL);
    pthread_mutex_init(&d->team.mu, NULL);
    pthread_cond_init(&d->team.cv, NULL);
    DPA_CUDA_TRY(err, cudaSetDevice(cuda_id));
    DPA_CUDA_TRY(err, cudaGetDeviceProperties(&p, cuda_id));
    d->info.index = index;
    d->info.cuda_ordinal = cuda_id;
    snprintf(d->info.name, sizeof d->info.name, "%.127s", p.name);
    d->info.cc_major = p.major;
    d->info.cc_minor = p.minor;
    d->info.multiprocessors = p.multiProcessorCount;
    d->info.total_memory = (uint64_t)p.totalGlobalMem;
    d->sms = p.multiProcessorCount;
    /* the prior table (5 codes x R rows x 128 threads x 4 bytes, 40 KiB at R = 16) fits
     * the default 48 KiB of every supported GPU; at R = 32 (80 KiB) it needs the opt-in
     * limit, which some GPUs (sm_75: 64 KiB) do not give: those never run R = 32 */
    d->r32 = p.sharedMemPerBlockOptin >= dpa_phmm_smem_f32(DPA_PHMM_NUM_KERN - 1);
    for (int32_t c = 0; c < DPA_PHMM_NUM_KERN; c++) {
        size_t need = dpa_phmm_smem_f32(c);
        if (dpa_phmm_cfgs[c].r == 32 && !d->r32) continue;
        DPA_CUDA_TRY(err, cudaFuncSetAttribute(dpa_phmm_kernel_f32(c),
                                               cudaFuncAttributeMaxDynamicSharedMemorySize,
                                               (int)need));
    }
    for (int32_t c = 0; c < DPA_PHMM_SHARED_CLASSES; c++)
        DPA_CUDA_TRY(err, cudaFuncSetAttribute(dpa_phmm_kernel_shared(c),
                                               cudaFuncAttributeMaxDynamicSharedMemorySize,
                                               (int)dpa_phmm_smem_shared(c)));
    /* 10^(-q/10), computed on the host exactly as the CPU reference does */
    for (int q = 0; q < 128; q++) err_table[q] = pow(10.0, -0.1 * (double)q);
    DPA_CUDA_TRY(err, cudaMalloc((void **)&d->d_err, sizeof err_table));
    DPA_CUDA_TRY(err, cudaMemcpy(d->d_err, err_table, sizeof err_table, cudaMemcpyHostToDevice));
    for (int i = 0; i < DPA_CUDA_SLOTS; i++) {
        DPA_CUDA_TRY(err, cudaStreamCreateWithFlags(&d->slots[i].stream, cudaStreamNonBlocking));
        for (int e = 0; e < 5; e++) DPA_CUDA_TRY(err, cudaEventCreate(&d->slots[i].ev[e]));
        DPA_CUDA_TRY(err, cudaEventCreateWithFlags(&d->slots[i].fork, cudaEventDisableTiming));
        d->slots[i].big = i < DPA_CUDA_BIG_SLOTS;
        for (int e = 0; e < (i < DPA_CUDA_BIG_SLOTS ? DPA_CUDA_AUX : 0); e++) {
            DPA_CUDA_TRY(err, cudaStreamCreateWithFlags(&d->slots[i].aux[e],
                                                        cudaStreamNonBlocking));
            DPA_CUDA_TRY(err, cudaEventCreateWithFlags(&d->slots[i].join[e],
                                                       cudaEventDisableTiming));
            d->slots[i].naux = e + 1;
        }
        d->nslots = i + 1;
    }
    d->info.usable = 1;
    __atomic_store_n(&d->usable, 1, __ATOMIC_RELEASE);
cleanup:
    return status;
}

static void team_stop(dpa_cuda_team *t);

void dpa_cuda_dev_destroy(dpa_cuda_dev *d)
{
    team_stop(&d->team);
    if (cudaSetDevice(d->cuda_id) == cudaSuccess) {
        for (int i = 0; i < d->nslots; i++) {
            dpa_cuda_slot *s = &d->slots[i];
            if (s->stream) cudaStreamSynchronize(s->stream);
            for (int e = 0; e < s->naux; e++)
                if (s->aux[e]) cudaStreamSynchronize(s->aux[e]);
            if (s->dbuf) cudaFree(s->dbuf);
            if (s->hbuf) cudaFreeHost(s->hbuf);
            if (s->stream) cudaStreamDestroy(s->stream);
            for (int e = 0; e < 5; e++)
                if (s->ev[e]) cudaEventDestroy(s->ev[e]);
            for (int e = 0; e < DPA_CUDA_AUX; e++) {
                if (s->aux[e]) cudaStreamDestroy(s->aux[e]);
                if (s->join[e]) cudaEventDestroy(s->join[e]);
            }
            if (s->fork) cudaEventDestroy(s->fork);
        }
        if (d->d_err) cudaFree(d->d_err);
    }
    (void)cudaGetLastError();
    for (int i = 0; i < DPA_CUDA_SLOTS; i++) {
        dpa_cuda_slot *s = &d->slots[i];
        free(s->scratch);
        free(s->rmark);
        free(s->hmark);
        free(s->rpos);
        free(s->hpos);
        free(s->rwide);
        free(s->hwide);
        free(s->tcfg);
        free(s->tadd);
        free(s->ulist);
    }
    pthread_mutex_destroy(&d->mu);
    pthread_cond_destroy(&d->cv);
    pthread_mutex_destroy(&d->team.use);
    pthread_mutex_destroy(&d->team.mu);
    pthread_cond_destroy(&d->team.cv);
}

dpa_cuda_slot *dpa_cuda_slot_acquire(dpa_cuda_dev *d, int large)
{
    dpa_cuda_slot *got = NULL;
    pthread_mutex_lock(&d->mu);
    while (!got) {
        /* large: big slots first, in index order; small: the small slots first, then the
         * big ones from the last */
        for (int k = 0; k < d->nslots && !got; k++) {
            const int i = large ? k : d->nslots - 1 - k;
            if (!d->slots[i].busy) got = &d->slots[i];
        }
        if (!got) pthread_cond_wait(&d->cv, &d->mu);
    }
    got->busy = 1;
    pthread_mutex_unlock(&d->mu);
    return got;
}

void dpa_cuda_slot_release(dpa_cuda_dev *d, dpa_cuda_slot *s)
{
    pthread_mutex_lock(&d->mu);
    s->busy = 0;
    pthread_cond_signal(&d->cv);
    pthread_mutex_unlock(&d->mu);
}

dpa_status dpa_cuda_slot_reserve(dpa_cuda_slot *s, size_t dbytes, size_t hbytes,
                                 dpa_cuda_err *err)
{
    dpa_status status = DPA_OK;
    if (dbytes > s->dcap) {
        size_t want = dbytes + dbytes / 4; /* headroom: fewer regrowths */
        if (s->dbuf) cudaFree(s->dbuf);
        s->dbuf = NULL;
        s->dcap = 0;
        if (cudaMalloc(&s->dbuf, want) != cudaSuccess) {
            (void)cudaGetLastError();
            want = dbytes;
            DPA_CUDA_TRY(err, cudaMalloc(&s->dbuf, want));
        }
        s->dcap = want;
    }
    if (hbytes > s->hcap) {
        size_t want = hbytes + hbytes / 4;
        if (s->hbuf) cudaFreeHost(s->hbuf);
        s->hbuf = NULL;
        s->hdev = NULL;
        s->hcap = 0;
        /* mapped: small PairHMM calls' kernels write their results into it directly (no
         * D2H copy); without a mapping (a device that cannot map host memory) those calls
         * take the copy-back path */
        if (cudaHostAlloc(&s->hbuf, want, cudaHostAllocMapped) != cudaSuccess) {
            (void)cudaGetLastError();
            s->hbuf = NULL;
            DPA_CUDA_TRY(err, cudaHostAlloc(&s->hbuf, want, cudaHostAllocDefault));
        } else if (cudaHostGetDevicePointer(&s->hdev, s->hbuf, 0) != cudaSuccess) {
            (void)cudaGetLastError();
            s->hdev = NULL;
        }
        s->hcap = want;
    }
cleanup:
    return status;
}

void *dpa_cuda_slot_scratch(dpa_cuda_slot *s, size_t bytes)
{
    if (bytes > s->scap) {
        free(s->scratch);
        s->scap = 0;
        s->scratch = malloc(bytes + bytes / 4);
        if (!s->scratch) return NULL;
        s->scap = bytes + bytes / 4;
    }
    return s->scratch;
}

static int grow_u8(uint8_t **p, int64_t n)
{
    uint8_t *q = (uint8_t *)realloc(*p, (size_t)(n > 0 ? n : 1));
    if (!q) return 0;
    *p = q;
    return 1;
}

static int grow_u32(uint32_t **p, int64_t n, int zero)
{
    uint32_t *q = (uint32_t *)realloc(*p, (size_t)(n > 0 ? n : 1) * sizeof(uint32_t));
    if (!q) return 0;
    if (zero) memset(q, 0, (size_t)(n > 0 ? n : 1) * sizeof(uint32_t));
    *p = q;
    return 1;
}

dpa_status dpa_cuda_slot_marks(dpa_cuda_slot *s, int64_t reads, int64_t haps)
{
    if (reads > s->marks_reads) {
        if (!grow_u32(&s->rmark, reads, 1) || !grow_u32(&s->rpos, reads, 0) ||
            !grow_u8(&s->rwide, reads))
            return DPA_ERR_OUT_OF_MEMORY;
        s->marks_reads = reads;
        s->stamp = 0;
        if (s->hmark && s->marks_haps) memset(s->hmark, 0, (size_t)s->marks_haps * 4);
    }
    if (haps > s->marks_haps) {
        if (!grow_u32(&s->hmark, haps, 1) || !grow_u32(&s->hpos, haps, 0) ||
            !grow_u8(&s->hwide, haps))
            return DPA_ERR_OUT_OF_MEMORY;
        s->marks_haps = haps;
        s->stamp = 0;
        if (s->rmark && s->marks_reads) memset(s->rmark, 0, (size_t)s->marks_reads * 4);
    }
    if (!s->ulist || s->stamp == 0) { /* (re)sized with the marks */
        int32_t *u = (int32_t *)realloc(s->ulist, (size_t)(s->marks_reads + s->marks_haps + 1) * 4);
        if (!u) return DPA_ERR_OUT_OF_MEMORY;
        s->ulist = u;
    }
    return DPA_OK;
}

uint8_t *dpa_cuda_slot_tcfg(dpa_cuda_slot *s, int64_t n)
{
    if (n > s->tcfg_cap) {
        free(s->tcfg);
        free(s->tadd);
        s->tcfg_cap = 0;
        const size_t cap = (size_t)n + (size_t)n / 4 + 64;
        s->tcfg = (uint8_t *)malloc(cap);
        s->tadd = (uint32_t *)malloc(cap * sizeof(uint32_t));
        if (!s->tcfg || !s->tadd) {
            free(s->tcfg);
            free(s->tadd);
            s->tcfg = NULL;
            s->tadd = NULL;
            return NULL;
        }
        s->tcfg_cap = (int64_t)cap;
    }
    return s->tcfg;
}

void dpa_cuda_retire(dpa_cuda_dev *d)
{
    __atomic_store_n(&d->usable, 0, __ATOMIC_RELEASE);
}

/* ---- host team ------------------------------------------------------------------------ */

/* Workers spin this long after a part before sleeping: the phases of one large call follow
 * each other within microseconds, and a futex wake-up costs tens of them. */
#define TEAM_SPIN_NS 200000

static inline void cpu_relax(void)
{
#if defined(__x86_64__) || defined(__i386__)
    __builtin_ia32_pause();
#endif
}

static int64_t mono_ns(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (int64_t)ts.tv_sec * 1000000000LL + ts.tv_nsec;
}

static int team_has_work(dpa_cuda_team *t)
{
    const uint64_t k = __atomic_load_n(&t->ticket, __ATOMIC_ACQUIRE);
    return ((k >> 16) & 0xffff) < (k & 0xffff);
}

/* Claims and runs parts of the current job until none is left. */
static void team_work(dpa_cuda_team *t)
{
    uint64_t k = __atomic_load_n(&t->ticket, __ATOMIC_ACQUIRE);
    for (;;) {
        const uint32_t next = (uint32_t)(k >> 16) & 0xffff, np = (uint32_t)k & 0xffff;
        if (next >= np) return;
        if (!__atomic_compare_exchange_n(&t->ticket, &k, k + (1u << 16), 0, __ATOMIC_ACQ_REL,
                                         __ATOMIC_ACQUIRE))
            continue;
        /* fn and arg were written before the ticket was published and stay until every
         * part (this one included) is done */
        t->fn(t->arg, (int)next, (int)np);
        __atomic_fetch_add(&t->done, 1, __ATOMIC_RELEASE);
        k = __atomic_load_n(&t->ticket, __ATOMIC_ACQUIRE);
    }
}

static void *team_main(void *arg)
{
    dpa_cuda_team *t = (dpa_cuda_team *)arg;
    for (;;) {
        const int64_t t0 = mono_ns();
        int spins = 0;
        while (!team_has_work(t)) {
            if (__atomic_load_n(&t->stop, __ATOMIC_ACQUIRE)) return NULL;
            cpu_relax();
            if (++spins % 256 == 0 && mono_ns() - t0 > TEAM_SPIN_NS) {
                pthread_mutex_lock(&t->mu);
                t->sleepers++;
                while (!team_has_work(t) && !__atomic_load_n(&t->stop, __ATOMIC_ACQUIRE))
                    pthread_cond_wait(&t->cv, &t->mu);
                t->sleepers--;
                pthread_mutex_unlock(&t->mu);
            }
        }
        team_work(t);
    }
}

void dpa_cuda_team_sizes(dpa_cuda_dev *devs, int ndev)
{
    /* the CPUs this process may run on (taskset, cgroup cpusets), not the machine's; the
     * teams of several devices run at once (distance scatters, PairHMM packing), so they
     * share them rather than each taking all */
    long cpus = sysconf(_SC_NPROCESSORS_ONLN);
    cpu_set_t set;
    if (sched_getaffinity(0, sizeof set, &set) == 0) cpus = CPU_COUNT(&set);
    long size = ndev > 0 ? cpus / ndev : cpus;
    const char *e = getenv("DPACCEL_CUDA_HOST_THREADS");
    if (e && *e) {
        char *end = NULL;
        const long v = strtol(e, &end, 10);
        if (end && *end == '\0' && v > 0) size = v;
    }
    if (size < 1) size = 1;
    if (size > DPA_TEAM_MAX) size = DPA_TEAM_MAX;
    for (int i = 0; i < ndev; i++) devs[i].team.size = (int)size;
}

int dpa_cuda_team_parts(dpa_cuda_dev *d)
{
    dpa_cuda_team *t = &d->team;
    int state = __atomic_load_n(&t->state, __ATOMIC_ACQUIRE);
    if (state == 0) {
        pthread_mutex_lock(&t->mu);
        if (t->state == 0) {
            int want = t->size - 1;
            if (want > DPA_TEAM_MAX - 1) want = DPA_TEAM_MAX - 1;
            for (int i = 0; i < want; i++) {
                if (pthread_create(&t->th[i], NULL, team_main, t) != 0) break;
                t->nworkers = i + 1;
            }
            __atomic_store_n(&t->state, t->nworkers > 0 ? 1 : -1, __ATOMIC_RELEASE);
        }
        state = t->state;
        pthread_mutex_unlock(&t->mu);
    }
    return state == 1 ? t->nworkers + 1 : 1;
}

void dpa_cuda_team_run(dpa_cuda_dev *d, dpa_team_fn fn, void *arg, int nparts)
{
    dpa_cuda_team *t = &d->team;
    if (nparts > DPA_TEAM_MAX) nparts = DPA_TEAM_MAX;
    if (nparts <= 1 || __atomic_load_n(&t->state, __ATOMIC_ACQUIRE) != 1 ||
        pthread_mutex_trylock(&t->use) != 0) {
        for (int p = 0; p < nparts; p++) fn(arg, p, nparts);
        return;
    }
    t->fn = fn;
    t->arg = arg;
    __atomic_store_n(&t->done, 0, __ATOMIC_RELAXED);
    const uint64_t gen = (__atomic_load_n(&t->ticket, __ATOMIC_RELAXED) >> 32) + 1;
    __atomic_store_n(&t->ticket, (gen << 32) | (uint64_t)nparts, __ATOMIC_RELEASE);
    pthread_mutex_lock(&t->mu);
    if (t->sleepers > 0) pthread_cond_broadcast(&t->cv);
    pthread_mutex_unlock(&t->mu);
    team_work(t);
    while (__atomic_load_n(&t->done, __ATOMIC_ACQUIRE) < nparts) cpu_relax();
    pthread_mutex_unlock(&t->use);
}

static void team_stop(dpa_cuda_team *t)
{
    if (t->nworkers == 0) return;
    __atomic_store_n(&t->stop, 1, __ATOMIC_RELEASE);
    pthread_mutex_lock(&t->mu);
    pthread_cond_broadcast(&t->cv);
    pthread_mutex_unlock(&t->mu);
    for (int i = 0; i < t->nworkers; i++) pthread_join(t->th[i], NULL);
    t->nworkers = 0;
}
