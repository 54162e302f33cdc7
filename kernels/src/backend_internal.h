/*
 * backend_internal.h — state of the CUDA backend shared by backend.cu (ops table),
 * device_pool.cu (devices, streams, pooled buffers) and pairhmm_launch.cu (PairHMM).
 *
 * Ownership: a dpa_cuda_backend owns one dpa_cuda_dev per visible GPU; a device owns
 * DPA_CUDA_SLOTS slots; a slot is one stream with its device buffer, pinned host staging
 * buffer and host scratch arrays, all kept for the life of the backend and grown only
 * when a larger chunk arrives (so no cudaMalloc on the hot path). A pairhmm call takes a
 * free slot of its device for its whole duration: concurrent calls on one device run on
 * different streams; calls on different devices share nothing.
 */
#ifndef DPA_CUDA_BACKEND_INTERNAL_H
#define DPA_CUDA_BACKEND_INTERNAL_H

#include <pthread.h>
#include <stddef.h>
#include <stdint.h>
#include <time.h>

#include <cuda_runtime.h>

#include "cuda_check.h"
#include "dpa_cuda_backend.h"

/* Slots per device: the first DPA_CUDA_BIG_SLOTS take chunks of up to chunk_bytes and have
 * DPA_CUDA_AUX extra streams (concurrent launches of several configurations); the others
 * serve concurrent small calls (one HaplotypeCaller region per call from many JVM threads)
 * with chunks of at most DPA_CUDA_SMALL_CHUNK device bytes and one stream each (16 + 4 x 3
 * = 28 streams; with CUDA's default 8 hardware queues the small slots that concurrent
 * callers take first, 15 down to 8, land on distinct queues: measured with 8 threads, 8
 * queues gave 570 GCUPS, 32 queues 603, so the backend leaves CUDA_DEVICE_MAX_CONNECTIONS
 * alone). */
#define DPA_CUDA_SLOTS 16
#define DPA_CUDA_BIG_SLOTS 4
#define DPA_CUDA_AUX 3
#define DPA_CUDA_SMALL_CHUNK ((size_t)32 << 20)

typedef struct dpa_cuda_slot {
    cudaStream_t stream;
    void *dbuf;   /* device buffer: packed chunk + results + scratch */
    size_t dcap;
    void *hbuf;   /* pinned staging: packed chunk + results */
    size_t hcap;
    void *hdev;   /* hbuf as the device sees it (mapped pinned memory: small calls' kernels
                   * write results straight into it); NULL when the mapping failed */
    /* host scratch (malloc), grown on demand */
    void *scratch;
    size_t scap;
    uint32_t stamp;   /* chunk counter for the read/hap "seen" marks */
    uint32_t *rmark;  /* per batch read: stamp of the chunk that packed it */
    uint32_t *hmark;
    uint32_t *rpos;   /* per batch read: packed position in that chunk */
    uint32_t *hpos;
    uint8_t *rwide;   /* per batch read/hap: bit 0, holds a letter outside the float table;
                       * reads, bit 1: may run a uniform-coefficient kernel (constant
                       * insertion, deletion and gap qualities, length a multiple of 16) */
    uint8_t *hwide;
    uint8_t *tcfg;    /* per task of the call: kernel configuration (cost model) */
    uint32_t *tadd;   /* per task of the call: chunk bytes besides its read and haplotype */
    int64_t tcfg_cap;
    int32_t *ulist;   /* a chunk's distinct reads (from 0) and haplotypes (from marks_reads),
                       * in first-use order, listed by the scan that assigns positions */
    cudaEvent_t ev[5]; /* DPACCEL_CUDA_TIMING only */
    /* the float kernels of different configurations run concurrently: forked from stream
     * after the H2D copy, joined before the double pass */
    cudaStream_t aux[DPA_CUDA_AUX];
    cudaEvent_t fork, join[DPA_CUDA_AUX];
    int naux;                        /* aux streams (DPA_CUDA_AUX in big slots, else 0) */
    int big;                         /* may take chunks of chunk_bytes */
    int64_t marks_reads, marks_haps; /* capacity of the mark arrays */
    int busy;
} dpa_cuda_slot;

/* Host threads that split the per-pair and per-read loops of large calls (1m.in: 29 k
 * pairs, 0.4 M read positions) with the calling thread; started on the first large call
 * of the device, kept until close, so no call pays for pthread_create. One call uses the
 * team at a time (a concurrent large call runs its parts on its own thread).
 * Work is handed out by one 64-bit ticket: job generation (32 bits) | next part (16) |
 * parts (16), so a worker can claim a part only of the job it read. */
#define DPA_TEAM_MAX 16
typedef void (*dpa_team_fn)(void *arg, int part, int nparts);
typedef struct dpa_cuda_team {
    int size;            /* parts it runs at most, the caller included (set at open) */
    pthread_mutex_t use; /* held by the call running a job */
    pthread_mutex_t mu;  /* sleeping workers wait on cv */
    pthread_cond_t cv;
    pthread_t th[DPA_TEAM_MAX];
    int nworkers;        /* started threads */
    int state;           /* 0 not started, 1 running, -1 could not start (run inline) */
    int stop;            /* __atomic_* access */
    int sleepers;        /* under mu */
    dpa_team_fn fn;
    void *arg;
    uint64_t ticket;     /* __atomic_* access */
    int done;            /* parts finished, __atomic_* access */
} dpa_cuda_team;

typedef struct dpa_cuda_dev {
    int cuda_id;
    dpa_device_info info;
    int sms;
    int r32;                  /* the R = 32 float kernels' shared memory fits this device */
    int usable;               /* __atomic_* access */
    int fault;                /* armed dpa_cuda_fault, __atomic_* access */
    double *d_err;            /* 128 x 10^(-q/10) */
    pthread_mutex_t mu;
    pthread_cond_t cv;
    dpa_cuda_slot slots[DPA_CUDA_SLOTS];
    int nslots;
    dpa_cuda_team team;
} dpa_cuda_dev;

/* auto's threshold on X / |gap| (the band's half-width bound): measured crossover of the two
 * X-drop kernels on an H200 (docs/BENCHMARKS.md, "X-drop: packed 16-bit cells") */
#define DPA_XD_AUTO_X 300

struct dpa_cuda_backend {
    int32_t ndev;
    dpa_cuda_dev *devs;
    size_t chunk_bytes; /* device bytes per chunk (DPACCEL_CUDA_CHUNK_BYTES overrides) */
    int chunk_bytes_set; /* DPACCEL_CUDA_CHUNK_BYTES given: a hard limit where one is optional */
    int32_t force_cfg;  /* -1, or a float kernel index (DPACCEL_CUDA_FORCE_CFG, tests) */
    int32_t timing;     /* DPACCEL_CUDA_TIMING=1 and a host log: per-call phase times */
    int32_t xdrop_copy; /* DPACCEL_CUDA_XDROP_COPY: -1 (auto) fewer bytes, 0 range, 1 gather */
    int32_t xdrop_int16; /* DPACCEL_CUDA_XDROP_KERNEL: 1 (int16) the packed kernel where its bound
                          * holds, 2 (int16-noclamp) the same kernel broken on purpose (tests),
                          * 3 (auto) the packed kernel where X >= xdrop_auto_x * |gap| (wide bands) */
    int32_t xdrop_auto_x; /* DPACCEL_CUDA_XDROP_AUTO_X, default DPA_XD_AUTO_X */
    dpa_cuda_host host; /* the engine's log callback (dpa_cuda_log) */
    int32_t force_lat;  /* -1: cost model picks per chunk; DPACCEL_CUDA_LATENCY=0/1 forces
                         * the fewest-instruction / shortest-latency configurations */
    int32_t direct;     /* -1: small chunks write results into mapped host memory and launch
                         * the double pass only when needed; DPACCEL_CUDA_DIRECT=0/1 forces
                         * the copy-back path / the direct path for every chunk */
    int32_t uniform;    /* 1 (default): pairs whose reads qualify run the uniform-coefficient
                         * kernels; DPACCEL_CUDA_UNIFORM=0 keeps them on the per-row ones */
    int32_t share;      /* DPACCEL_CUDA_PREFIX=1: a region's equal-length haplotypes share
                         * their prefix columns (pairhmm_share.h); 0 (default): every cell */
    int32_t share_levels; /* levels of a region's checkpoint tree (DPACCEL_CUDA_SHARE_LEVELS) */
    double share_ratio; /* a region shares when its estimated lane work is below this
                         * fraction of the all-pairs kernels' (DPACCEL_CUDA_SHARE_RATIO) */
    int32_t poll;       /* direct path: 1 (default) spins on the result slots in mapped
                         * memory, 0 (DPACCEL_CUDA_POLL=0) waits with cudaStreamSynchronize */
    uint8_t *cfg_tab;   /* [L * 1024 + n] for L, n < 1024: chosen configuration, 0xff =
                         * not yet known (filled lazily, relaxed atomics; values are a pure
                         * function of (L, n)) */
};

#ifdef __cplusplus
extern "C" {
#endif
/* device_pool.cu */
dpa_status dpa_cuda_dev_init(dpa_cuda_dev *d, int cuda_id, int index, dpa_cuda_err *err);
void dpa_cuda_dev_destroy(dpa_cuda_dev *d);
/* A free slot (waits while every slot is busy); large calls prefer the big slots, small
 * calls the others. */
dpa_cuda_slot *dpa_cuda_slot_acquire(dpa_cuda_dev *d, int large);
void dpa_cuda_slot_release(dpa_cuda_dev *d, dpa_cuda_slot *s);
/* Grows the slot's buffers to at least the sizes given (never shrinks). */
/* Seconds on the monotonic clock (DPACCEL_CUDA_TIMING phase times). */
static inline double dpa_cuda_now_s(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec + 1e-9 * (double)t.tv_nsec;
}

dpa_status dpa_cuda_slot_reserve(dpa_cuda_slot *s, size_t dbytes, size_t hbytes,
                                 dpa_cuda_err *err);
/* Host scratch of at least bytes; NULL when out of memory. */
void *dpa_cuda_slot_scratch(dpa_cuda_slot *s, size_t bytes);
/* Per-task configuration (and tadd) arrays of at least n entries; NULL when out of memory. */
uint8_t *dpa_cuda_slot_tcfg(dpa_cuda_slot *s, int64_t n);
dpa_status dpa_cuda_slot_marks(dpa_cuda_slot *s, int64_t reads, int64_t haps);
void dpa_cuda_retire(dpa_cuda_dev *d);
/* A diagnostic line to the host's log callback (never stdout/stderr). */
void dpa_cuda_log(const dpa_cuda_backend *b, dpa_log_level level, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));
/* Runs fn(arg, part, nparts) for part = 0..nparts-1 (nparts <= DPA_TEAM_MAX) on the
 * device's team and the calling thread; returns when every part is done. Parts run on
 * the caller alone when the team is busy or could not start. */
void dpa_cuda_team_run(dpa_cuda_dev *d, dpa_team_fn fn, void *arg, int nparts);
/* Parts worth asking for: the team's size plus the caller (1 when there is no team). */
int dpa_cuda_team_parts(dpa_cuda_dev *d);
/* Sets every device's team size: DPACCEL_CUDA_HOST_THREADS when set (1..DPA_TEAM_MAX),
 * else the CPUs this process may run on shared among the devices, at most DPA_TEAM_MAX. */
void dpa_cuda_team_sizes(dpa_cuda_dev *devs, int ndev);

/* pairhmm_launch.cu */
dpa_status dpa_cuda_pairhmm_run(const dpa_cuda_backend *b, dpa_cuda_dev *d, dpa_cuda_slot *s,
                                const dpa_pairhmm_batch *batch, const dpa_phmm_task *tasks,
                                int64_t n, int32_t precision, double *out,
                                int64_t *double_recomputes, dpa_cuda_err *err);
#ifdef __cplusplus
}
#endif

#endif
