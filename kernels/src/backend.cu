/*
 * backend.cu — libdpaccel_cuda.so's one export, dpa_cuda_get_ops(), and the ops table
 * behind it (kernels/include/dpa_cuda_backend.h): open/close, device queries, the test-only
 * fault switch, and one entry table per workload: PairHMM (pairhmm_launch.cu),
 * Smith-Waterman (sw_launch.cu), PDHMM (pdhmm_cuda.cu), genotype distance
 * (distance_launch.cu), X-drop (xdrop_launch.cu) and the HMM filter (hmm_filter_launch.cu),
 * each with its argument checks, fault injection and retirement after a sticky error.
 */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "backend_internal.h"
#include "pairhmm_cuda.h"
#include "sw_cuda.h"
#include "papara_cuda.h"
#include "distance_cuda.h"
#include "xdrop_cuda.h"
#include "hmm_filter_cuda.h"

/* Calls of at most this many pairs prefer the small slots. */
#define DPA_LAT_SMALL_CALL 2048

static void put_err(char *err, size_t len, const char *msg)
{
    if (err && len) snprintf(err, len, "%s", msg);
}

static size_t env_size(const char *name, size_t dflt)
{
    const char *v = getenv(name);
    if (!v || !*v) return dflt;
    char *end = NULL;
    unsigned long long x = strtoull(v, &end, 10);
    return (end && *end == '\0' && x > 0) ? (size_t)x : dflt;
}

void dpa_cuda_log(const dpa_cuda_backend *b, dpa_log_level level, const char *fmt, ...)
{
    if (!b->host.log) return;
    char msg[1024];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(msg, sizeof msg, fmt, ap);
    va_end(ap);
    b->host.log(b->host.log_user, level, msg);
}

static void be_close(dpa_cuda_backend *b)
{
    if (!b) return;
    for (int32_t i = 0; i < b->ndev; i++) dpa_cuda_dev_destroy(&b->devs[i]);
    free(b->devs);
    free(b->cfg_tab);
    free(b);
}

static dpa_status be_open(int32_t max_devices, const dpa_cuda_host *host, dpa_cuda_backend **out,
                          char *err, size_t err_len)
{
    dpa_status status = DPA_OK;
    dpa_cuda_err ce = { err, err_len, 0 };
    dpa_cuda_backend *b = NULL;
    int count = 0;
    if (!out) {
        put_err(err, err_len, "dpa_cuda open: out is NULL");
        return DPA_ERR_NULL_ARG;
    }
    *out = NULL;
    cudaError_t e = cudaGetDeviceCount(&count);
    if (e != cudaSuccess || count <= 0) {
        if (e != cudaSuccess) {
            (void)cudaGetLastError();
            /* the usual case on a CPU-only machine: say it plainly, the CUDA error after */
            if (err && err_len && (e == cudaErrorNoDevice || e == cudaErrorInsufficientDriver))
                snprintf(err, err_len, "no NVIDIA GPU or driver on this machine (cudaGetDeviceCount: "
                         "%s)", cudaGetErrorName(e));
            else if (err && err_len)
                snprintf(err, err_len, "cudaGetDeviceCount failed (%s: %s)", cudaGetErrorName(e),
                         cudaGetErrorString(e));
        } else {
            put_err(err, err_len, "no CUDA device visible (CUDA_VISIBLE_DEVICES?)");
        }
        return DPA_ERR_NO_DEVICE;
    }
    const int visible = count;
    if (host && host->num_devices > 0) {
        for (int32_t i = 0; i < host->num_devices; i++)
            if (host->devices[i] < 0 || host->devices[i] >= visible) {
                if (err && err_len)
                    snprintf(err, err_len, "GPU device %d was asked for (gpu_devices) but %d %s "
                             "visible (CUDA numbers them 0..%d after CUDA_VISIBLE_DEVICES)",
                             host->devices[i], visible, visible == 1 ? "is" : "are", visible - 1);
                return DPA_ERR_NO_DEVICE;
            }
        count = host->num_devices;
    }
    if (max_devices > 0 && count > max_devices) count = max_devices;
    b = (dpa_cuda_backend *)calloc(1, sizeof *b);
    if (!b || !(b->devs = (dpa_cuda_dev *)calloc((size_t)count, sizeof *b->devs))) {
        free(b);
        put_err(err, err_len, "dpa_cuda open: out of host memory");
        return DPA_ERR_OUT_OF_MEMORY;
    }
    for (int i = 0; i < count; i++) {
        const int cuda_id = host && host->num_devices > 0 ? host->devices[i] : i;
        status = dpa_cuda_dev_init(&b->devs[i], cuda_id, i, &ce);
        b->ndev = i + 1;
        if (status != DPA_OK) goto cleanup;
    }
    dpa_cuda_team_sizes(b->devs, b->ndev);
    /* 1 GiB per chunk on the device, less on small cards */
    {
        size_t dflt = (size_t)1 << 30;
        for (int32_t i = 0; i < b->ndev; i++) {
            size_t cap = (size_t)(b->devs[i].info.total_memory / (2 * DPA_CUDA_BIG_SLOTS));
            if (cap < dflt) dflt = cap;
        }
        b->chunk_bytes = env_size("DPACCEL_CUDA_CHUNK_BYTES", dflt);
        const char *cb = getenv("DPACCEL_CUDA_CHUNK_BYTES");
        b->chunk_bytes_set = cb && *cb;
        const char *fc = getenv("DPACCEL_CUDA_FORCE_CFG");
        b->force_cfg = -1;
        b->cfg_tab = (uint8_t *)malloc((size_t)1024 * 1024);
        if (b->cfg_tab) memset(b->cfg_tab, 0xff, (size_t)1024 * 1024);
        const char *lt = getenv("DPACCEL_CUDA_LATENCY");
        b->force_lat = lt && *lt ? (*lt != '0') : -1;
        const char *dr = getenv("DPACCEL_CUDA_DIRECT");
        b->direct = dr && *dr ? (*dr != '0') : -1;
        const char *po = getenv("DPACCEL_CUDA_POLL");
        b->poll = po && *po ? (*po != '0') : 1;
        const char *un = getenv("DPACCEL_CUDA_UNIFORM");
        b->uniform = un && *un ? (*un != '0') : 1;
        /* opt-in: exact, but slower than the all-pairs kernels on every batch measured
         * (docs/pairhmm.md, "Prefix sharing on the GPU") */
        const char *pf = getenv("DPACCEL_CUDA_PREFIX");
        b->share = pf && *pf && *pf != '0';
        b->share_levels = (int32_t)env_size("DPACCEL_CUDA_SHARE_LEVELS", 8);
        const char *sr = getenv("DPACCEL_CUDA_SHARE_RATIO");
        b->share_ratio = sr && *sr ? atof(sr) : 0.9;
        const char *tm = getenv("DPACCEL_CUDA_TIMING");
        const char *xc = getenv("DPACCEL_CUDA_XDROP_COPY");
        b->xdrop_copy = xc && !strcmp(xc, "range") ? 0 : xc && !strcmp(xc, "gather") ? 1 : -1;
        /* opt-in until measured faster (docs/xdrop.md, "Packed 16-bit cells") */
        const char *xk = getenv("DPACCEL_CUDA_XDROP_KERNEL");
        b->xdrop_int16 = xk && !strcmp(xk, "int16")           ? 1
                         : xk && !strcmp(xk, "int16-noclamp") ? 2
                         : xk && !strcmp(xk, "auto")          ? 3
                                                              : 0;
        b->xdrop_auto_x = (int32_t)env_size("DPACCEL_CUDA_XDROP_AUTO_X", DPA_XD_AUTO_X);
        if (host) b->host = *host;
        /* timing lines go to the host's log: without one they would go nowhere */
        b->timing = tm && *tm && *tm != '0' && b->host.log;
        if (fc && *fc) {
            int v = atoi(fc);
            if (v >= 0 && v < DPA_PHMM_NUM_CFG) b->force_cfg = v;
        }
    }
    *out = b;
    return DPA_OK;
cleanup:
    if (status == DPA_ERR_DEVICE || status == DPA_ERR_OUT_OF_MEMORY) status = DPA_ERR_NO_DEVICE;
    be_close(b);
    return status;
}

static int32_t be_device_count(const dpa_cuda_backend *b) { return b ? b->ndev : 0; }

static dpa_status be_device_info(const dpa_cuda_backend *b, int32_t device, dpa_device_info *out)
{
    if (!b || !out) return DPA_ERR_NULL_ARG;
    if (device < 0 || device >= b->ndev) return DPA_ERR_INVALID_ARG;
    *out = b->devs[device].info;
    out->usable = __atomic_load_n(&b->devs[device].usable, __ATOMIC_ACQUIRE);
    return DPA_OK;
}

/* The armed test fault of device d, consumed by whichever call comes first. */
static dpa_status take_fault(dpa_cuda_dev *d, int32_t device, const char *what, char *err,
                             size_t err_len)
{
    switch (__atomic_exchange_n(&d->fault, DPA_CUDA_FAULT_NONE, __ATOMIC_ACQ_REL)) {
    case DPA_CUDA_FAULT_OOM:
        if (err && err_len)
            snprintf(err, err_len, "CUDA device %d: out of memory in %s (cudaErrorMemoryAllocation, "
                     "injected for testing)", device, what);
        return DPA_ERR_OUT_OF_MEMORY;
    case DPA_CUDA_FAULT_STICKY:
        dpa_cuda_retire(d);
        if (err && err_len)
            snprintf(err, err_len, "CUDA device %d: sticky error in %s (cudaErrorIllegalAddress, "
                     "injected for testing); device retired", device, what);
        return DPA_ERR_DEVICE;
    default:
        return DPA_OK;
    }
}

/* Every workload entry: the device index first (before the workload's own argument checks),
 * then, once the arguments passed, the device itself (not retired, the armed test fault
 * consumed), and after the run leave_slot. */
static dpa_status check_index(const dpa_cuda_backend *b, int32_t device, const char *what,
                              char *err, size_t err_len)
{
    if (device >= 0 && device < b->ndev) return DPA_OK;
    if (err && err_len)
        snprintf(err, err_len, "dpa_cuda %s: device %d out of range [0, %d)", what, device,
                 b->ndev);
    return DPA_ERR_INVALID_ARG;
}

static dpa_status take_device(dpa_cuda_backend *b, int32_t device, const char *what,
                              dpa_cuda_dev **out, char *err, size_t err_len)
{
    dpa_cuda_dev *d = &b->devs[device];
    *out = d;
    if (!__atomic_load_n(&d->usable, __ATOMIC_ACQUIRE)) {
        if (err && err_len)
            snprintf(err, err_len, "CUDA device %d was retired after a sticky error", device);
        return DPA_ERR_DEVICE;
    }
    return take_fault(d, device, what, err, err_len);
}

/* A failed call leaves its streams idle for the next user of the slot; a sticky error
 * retires the device. Then the slot goes back to the pool. */
static void leave_slot(dpa_cuda_dev *d, dpa_cuda_slot *s, dpa_status status, dpa_cuda_err *ce)
{
    if (status != DPA_OK) {
        cudaError_t e = cudaStreamSynchronize(s->stream);
        for (int i = 0; i < s->naux; i++) {
            cudaError_t ea = cudaStreamSynchronize(s->aux[i]);
            if (e == cudaSuccess) e = ea;
        }
        if (e != cudaSuccess && dpa_cuda_is_sticky(e)) ce->sticky = 1;
        if (!ce->sticky) (void)cudaGetLastError();
    }
    if (ce->sticky) dpa_cuda_retire(d);
    dpa_cuda_slot_release(d, s);
}

static dpa_status be_pairhmm(dpa_cuda_backend *b, int32_t device, const dpa_pairhmm_batch *batch,
                             const dpa_phmm_task *tasks, int64_t n, int32_t precision,
                             double *out, int64_t *double_recomputes, char *err, size_t err_len)
{
    dpa_status status = DPA_OK;
    dpa_cuda_err ce = { err, err_len, 0 };
    dpa_cuda_dev *d;
    dpa_cuda_slot *s = NULL;
    if (!b || !batch || (n > 0 && (!tasks || !out)) || !double_recomputes) {
        put_err(err, err_len, "dpa_cuda pairhmm: NULL argument");
        return DPA_ERR_NULL_ARG;
    }
    if ((status = check_index(b, device, "pairhmm", err, err_len)) != DPA_OK) return status;
    if (precision != DPA_PRECISION_FLOAT_THEN_DOUBLE && precision != DPA_PRECISION_DOUBLE) {
        put_err(err, err_len, "dpa_cuda pairhmm: precision must be 0 or 1");
        return DPA_ERR_INVALID_ARG;
    }
    if ((status = take_device(b, device, "pairhmm", &d, err, err_len)) != DPA_OK) return status;
    if (n == 0) return DPA_OK;
    s = dpa_cuda_slot_acquire(d, n > DPA_LAT_SMALL_CALL);
    DPA_CUDA_TRY(&ce, cudaSetDevice(d->cuda_id));
    status = dpa_cuda_pairhmm_run(b, d, s, batch, tasks, n, precision, out, double_recomputes,
                                  &ce);
cleanup:
    leave_slot(d, s, status, &ce);
    return status;
}

static dpa_status be_sw(dpa_cuda_backend *b, int32_t device, const dpa_sw_batch *batch,
                        const dpa_sw_params *params, const int32_t *pairs, int64_t n,
                        char *cigars, const int64_t *slots, int32_t *cigar_lengths,
                        int32_t *alignment_offsets, int64_t *exact_matches, char *err,
                        size_t err_len)
{
    dpa_status status = DPA_OK;
    dpa_cuda_err ce = { err, err_len, 0 };
    dpa_cuda_dev *d;
    dpa_cuda_slot *s = NULL;
    if (!b || !batch || !params || !exact_matches ||
        (n > 0 && (!pairs || !cigars || !slots || !cigar_lengths || !alignment_offsets))) {
        put_err(err, err_len, "dpa_cuda sw: NULL argument");
        return DPA_ERR_NULL_ARG;
    }
    *exact_matches = 0;
    if ((status = check_index(b, device, "sw", err, err_len)) != DPA_OK) return status;
    if (params->overhang < DPA_SW_OVERHANG_SOFTCLIP || params->overhang > DPA_SW_OVERHANG_IGNORE) {
        put_err(err, err_len, "dpa_cuda sw: overhang must be 0..3");
        return DPA_ERR_INVALID_ARG;
    }
    if ((status = take_device(b, device, "sw", &d, err, err_len)) != DPA_OK) return status;
    if (n == 0) return DPA_OK;
    s = dpa_cuda_slot_acquire(d, 1);
    status = dpa_cuda_sw_run(b, d, s, batch, params, pairs, n, cigars, slots, cigar_lengths,
                             alignment_offsets, exact_matches, &ce);
    leave_slot(d, s, status, &ce);
    return status;
}

extern "C" dpa_status dpa_cuda_pdhmm_run(const dpa_cuda_backend *b, dpa_cuda_dev *d, dpa_cuda_slot *s,
                                         const dpa_pdhmm_batch *batch, const int32_t *pairs,
                                         int64_t n, int32_t rows, double *out,
                                         dpa_cuda_err *err);

static dpa_status be_pdhmm(dpa_cuda_backend *b, int32_t device, const dpa_pdhmm_batch *batch,
                           const int32_t *pairs, int64_t n, int32_t rows, double *out, char *err,
                           size_t err_len)
{
    dpa_status status = DPA_OK;
    dpa_cuda_err ce = { err, err_len, 0 };
    dpa_cuda_dev *d;
    if (!b || !batch || (n > 0 && (!pairs || !out))) {
        put_err(err, err_len, "dpa_cuda pdhmm: NULL argument");
        return DPA_ERR_NULL_ARG;
    }
    if ((status = check_index(b, device, "pdhmm", err, err_len)) != DPA_OK) return status;
    if ((status = take_device(b, device, "pdhmm", &d, err, err_len)) != DPA_OK) return status;
    if (n == 0) return DPA_OK;
    dpa_cuda_slot *s = dpa_cuda_slot_acquire(d, 1);
    status = dpa_cuda_pdhmm_run(b, d, s, batch, pairs, n, rows, out, &ce);
    leave_slot(d, s, status, &ce);
    return status;
}

static dpa_status be_distance(dpa_cuda_backend *b, int32_t device,
                              const dpa_cuda_dist_planes *planes, const dpa_cuda_dist_tile *tiles,
                              int64_t ntiles, const dpa_cuda_dist_layout *layout, uint32_t *out,
                              int64_t *pairs_done, char *err, size_t err_len)
{
    dpa_status status = DPA_OK;
    dpa_cuda_err ce = { err, err_len, 0 };
    dpa_cuda_dev *d;
    dpa_cuda_slot *s = NULL;
    /* planes of no used variant (words = 0) may have no bits at all */
    if (!b || !planes || !layout || !pairs_done ||
        (ntiles > 0 && (!tiles || !out || (!planes->bits && !planes->bed && planes->words > 0)))) {
        put_err(err, err_len, "dpa_cuda distance: NULL argument");
        return DPA_ERR_NULL_ARG;
    }
    *pairs_done = 0;
    if ((status = check_index(b, device, "distance", err, err_len)) != DPA_OK) return status;
    if (planes->words < 0 || planes->words % 8 != 0 || planes->count < 0) {
        put_err(err, err_len, "dpa_cuda distance: planes.words must be a multiple of 8");
        return DPA_ERR_INVALID_ARG;
    }
    for (int64_t k = 0; k < ntiles; k++) {
        const dpa_cuda_dist_tile t = tiles[k];
        const int32_t p0 = planes->first, p1 = planes->first + planes->count;
        if (!(t.r0 >= p0 && t.r0 <= t.r1 && t.r1 <= p1 && t.c0 >= p0 && t.c0 <= t.c1 &&
              t.c1 <= p1)) {
            if (err && err_len)
                snprintf(err, err_len, "dpa_cuda distance: tile %lld (rows %d..%d, columns "
                         "%d..%d) is outside the planes' samples %d..%d", (long long)k, t.r0,
                         t.r1, t.c0, t.c1, p0, p1);
            return DPA_ERR_INVALID_ARG;
        }
    }
    if ((status = take_device(b, device, "distance", &d, err, err_len)) != DPA_OK) return status;
    if (ntiles == 0) return DPA_OK;
    s = dpa_cuda_slot_acquire(d, 1);
    status = dpa_cuda_distance_run(b, d, s, planes, tiles, ntiles, layout, out, pairs_done, &ce);
    leave_slot(d, s, status, &ce);
    return status;
}

static dpa_status be_xdrop(dpa_cuda_backend *b, int32_t device, const dpa_xdrop_batch *batch,
                           const dpa_xdrop_params *params, const int32_t *pairs, int64_t n,
                           const dpa_xdrop_output *out, int64_t *cells, char *err, size_t err_len)
{
    dpa_status status = DPA_OK;
    dpa_cuda_err ce = { err, err_len, 0 };
    dpa_cuda_dev *d;
    dpa_cuda_slot *s = NULL;
    if (!b || !batch || !params || !cells || (n > 0 && (!pairs || !out))) {
        put_err(err, err_len, "dpa_cuda xdrop: NULL argument");
        return DPA_ERR_NULL_ARG;
    }
    if ((status = check_index(b, device, "xdrop", err, err_len)) != DPA_OK) return status;
    if (params->gap >= 0 || params->xdrop < 0) {
        put_err(err, err_len, "dpa_cuda xdrop: gap must be < 0 and xdrop >= 0 (validate first)");
        return DPA_ERR_INVALID_ARG;
    }
    if ((status = take_device(b, device, "xdrop", &d, err, err_len)) != DPA_OK) return status;
    if (n == 0) return DPA_OK;
    s = dpa_cuda_slot_acquire(d, 1);
    status = dpa_cuda_xdrop_run(b, d, s, batch, params, pairs, n, out, cells, &ce);
    leave_slot(d, s, status, &ce);
    return status;
}

static dpa_status be_inject_fault(dpa_cuda_backend *b, int32_t device, int32_t fault)
{
    if (!b) return DPA_ERR_NULL_ARG;
    if (device < 0 || device >= b->ndev) return DPA_ERR_INVALID_ARG;
    if (fault < DPA_CUDA_FAULT_NONE || fault > DPA_CUDA_FAULT_STICKY) return DPA_ERR_INVALID_ARG;
    __atomic_store_n(&b->devs[device].fault, fault, __ATOMIC_RELEASE);
    return DPA_OK;
}

static dpa_status be_papara(dpa_cuda_backend *b, int32_t device, const dpa_papara_batch *batch,
                            const dpa_papara_params *params, int32_t first_profile,
                            int32_t num_profiles, int32_t first_read, int32_t num_reads,
                            int32_t *out, char *err, size_t err_len)
{
    dpa_cuda_err ce = { err, err_len, 0 };
    dpa_cuda_dev *d;
    dpa_cuda_slot *s;
    dpa_status status;
    if (!b || !batch || !params || !out) return DPA_ERR_NULL_ARG;
    if ((status = check_index(b, device, "papara", err, err_len)) != DPA_OK) return status;
    if (first_profile < 0 || num_profiles < 0 || first_profile + num_profiles > batch->num_profiles ||
        first_read < 0 || num_reads < 0 || first_read + num_reads > batch->num_reads) {
        put_err(err, err_len, "dpa_cuda papara: profile or read range outside the batch");
        return DPA_ERR_INVALID_ARG;
    }
    if ((status = take_device(b, device, "papara", &d, err, err_len)) != DPA_OK) return status;
    if (num_profiles == 0 || num_reads == 0) return DPA_OK;
    s = dpa_cuda_slot_acquire(d, 1);
    status = dpa_cuda_papara_run(b, d, s, batch, params, first_profile, num_profiles, first_read,
                                 num_reads, out, &ce);
    leave_slot(d, s, status, &ce);
    return status;
}

static dpa_status be_hmm_filter_mapped(dpa_cuda_backend *b, int32_t device,
                                       const dpa_cuda_hmm_model *models, int32_t num_models,
                                       const dpa_cuda_hmm_seqs *seqs, const uint8_t *code_of,
                                       int32_t kind, const dpa_cuda_hmm_task *tasks, int64_t n,
                                       int32_t *out, char *err, size_t err_len)
{
    dpa_status status = DPA_OK;
    dpa_cuda_err ce = { err, err_len, 0 };
    dpa_cuda_dev *d;
    if (!b || !seqs || (n > 0 && (!models || !tasks || !out || !seqs->lengths || !seqs->offsets ||
                                  !seqs->dsq))) {
        put_err(err, err_len, "dpa_cuda hmm-filter: NULL argument");
        return DPA_ERR_NULL_ARG;
    }
    if ((status = check_index(b, device, "hmm-filter", err, err_len)) != DPA_OK) return status;
    if (kind < DPA_CUDA_HMM_SSV || kind > DPA_CUDA_HMM_VIT || n < 0 || num_models < 0 ||
        seqs->count < 0) {
        put_err(err, err_len, "dpa_cuda hmm-filter: kind must be 0..2, counts >= 0");
        return DPA_ERR_INVALID_ARG;
    }
    if ((status = take_device(b, device, "hmm-filter", &d, err, err_len)) != DPA_OK) return status;
    if (n == 0) return DPA_OK;
    dpa_cuda_slot *s = dpa_cuda_slot_acquire(d, 1);
    status = dpa_cuda_hmm_filter_run(b, d, s, models, num_models, seqs, code_of, kind, tasks, n, out, &ce);
    leave_slot(d, s, status, &ce);
    return status;
}

static dpa_status be_hmm_filter(dpa_cuda_backend *b, int32_t device,
                                const dpa_cuda_hmm_model *models, int32_t num_models,
                                const dpa_cuda_hmm_seqs *seqs, int32_t kind,
                                const dpa_cuda_hmm_task *tasks, int64_t n, int32_t *out, char *err,
                                size_t err_len)
{
    return be_hmm_filter_mapped(b, device, models, num_models, seqs, NULL, kind, tasks, n, out, err, err_len);
}

static const dpa_cuda_hmm_filter_entry hmm_filter_entry = {
    { DPA_CUDA_WORKLOAD_HMM_FILTER, sizeof(dpa_cuda_hmm_filter_entry) }, be_hmm_filter,
    be_hmm_filter_mapped,
};

static const dpa_cuda_papara_entry papara_entry = {
    { DPA_CUDA_WORKLOAD_PAPARA, sizeof(dpa_cuda_papara_entry) }, be_papara,
};

static const dpa_cuda_pairhmm_entry pairhmm_entry = {
    { DPA_CUDA_WORKLOAD_PAIRHMM, sizeof(dpa_cuda_pairhmm_entry) }, be_pairhmm,
};

static const dpa_cuda_sw_entry sw_entry = {
    { DPA_CUDA_WORKLOAD_SW, sizeof(dpa_cuda_sw_entry) }, be_sw,
};

static const dpa_cuda_pdhmm_entry pdhmm_entry = {
    { DPA_CUDA_WORKLOAD_PDHMM, sizeof(dpa_cuda_pdhmm_entry) }, be_pdhmm,
};

static const dpa_cuda_distance_entry distance_entry = {
    { DPA_CUDA_WORKLOAD_DISTANCE, sizeof(dpa_cuda_distance_entry) }, be_distance,
};

static const dpa_cuda_xdrop_entry xdrop_entry = {
    { DPA_CUDA_WORKLOAD_XDROP, sizeof(dpa_cuda_xdrop_entry) }, be_xdrop,
};

static const dpa_cuda_entry_header *be_entry(uint32_t id)
{
    switch (id) {
    case DPA_CUDA_WORKLOAD_PAIRHMM: return &pairhmm_entry.header;
    case DPA_CUDA_WORKLOAD_SW: return &sw_entry.header;
    case DPA_CUDA_WORKLOAD_DISTANCE: return &distance_entry.header;
    case DPA_CUDA_WORKLOAD_XDROP: return &xdrop_entry.header;
    case DPA_CUDA_WORKLOAD_PDHMM: return &pdhmm_entry.header;
    case DPA_CUDA_WORKLOAD_PAPARA: return &papara_entry.header;
    case DPA_CUDA_WORKLOAD_HMM_FILTER: return &hmm_filter_entry.header;
    default: return NULL;
    }
}

static const dpa_cuda_ops ops = {
    DPA_CUDA_ABI_VERSION, sizeof(dpa_cuda_ops), be_open, be_close, be_device_count,
    be_device_info, be_inject_fault, be_entry,
};

extern "C" __attribute__((visibility("default"))) const dpa_cuda_ops *dpa_cuda_get_ops(void)
{
    return &ops;
}
