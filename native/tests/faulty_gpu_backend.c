/*
 * faulty_gpu_backend.c — a stand-in CUDA backend library for tests on machines without a GPU:
 * it opens one device that looks usable and whose genotype-distance entry fails every call
 * with DPA_ERR_DEVICE (a transient device error: the device stays usable, as after a CUDA
 * launch failure that is not sticky). Loaded through DPACCEL_CUDA_LIB, it drives the engine's
 * fail-over (recompute on the CPU, one warning per context) inside processes the test cannot
 * reach otherwise, e.g. Spark executors (java/spark SparkGpuFaultTest). Every other workload
 * has no entry, so it runs on the CPU as with a library that lacks its kernels.
 *
 * Built by the test that uses it (cc -shared -fPIC), not by CMake: nothing ships it.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "dpa_cuda_backend.h"

struct dpa_cuda_backend {
    int calls; /* distance calls failed so far */
};

static dpa_status faulty_open(int32_t max_devices, const dpa_cuda_host *host, dpa_cuda_backend **out,
                              char *err, size_t err_len)
{
    (void)max_devices;
    if (host && host->num_devices > 0 && (host->num_devices != 1 || host->devices[0] != 0)) {
        if (err && err_len) snprintf(err, err_len, "faulty test backend: only device 0 exists");
        return DPA_ERR_NO_DEVICE;
    }
    *out = calloc(1, sizeof **out);
    return *out ? DPA_OK : DPA_ERR_OUT_OF_MEMORY;
}

static void faulty_close(dpa_cuda_backend *b) { free(b); }

static int32_t faulty_count(const dpa_cuda_backend *b) { return b ? 1 : 0; }

static dpa_status faulty_info(const dpa_cuda_backend *b, int32_t device, dpa_device_info *out)
{
    if (!b || !out) return DPA_ERR_NULL_ARG;
    if (device != 0) return DPA_ERR_INVALID_ARG;
    memset(out, 0, sizeof *out);
    snprintf(out->name, sizeof out->name, "faulty test device");
    out->cc_major = 9;
    out->multiprocessors = 132;
    out->total_memory = (uint64_t)80 << 30;
    out->usable = 1;
    return DPA_OK;
}

static dpa_status faulty_inject(dpa_cuda_backend *b, int32_t device, int32_t fault)
{
    (void)b, (void)device, (void)fault;
    return DPA_OK;
}

static dpa_status faulty_distance(dpa_cuda_backend *b, int32_t device, const dpa_cuda_dist_planes *planes,
                                  const dpa_cuda_dist_tile *tiles, int64_t ntiles,
                                  const dpa_cuda_dist_layout *layout, uint32_t *out, int64_t *pairs_done,
                                  char *err, size_t err_len)
{
    (void)planes;
    /* garbage over the unit's first pair, as a kernel that died mid-way may leave: the engine
     * must recompute the unit, not trust what is there */
    if (ntiles > 0) {
        const int64_t r = tiles[0].r0;
        const int64_t c = layout->upper && tiles[0].c0 <= r ? r + 1 : tiles[0].c0;
        if (r < tiles[0].r1 && c < tiles[0].c1) {
            const int64_t n = layout->n;
            const int64_t at = layout->upper ? r * n - r * (r + 1) / 2 + c - r - 1
                                             : (r - layout->row0) * layout->cols + c - layout->col0;
            memset(out + 7 * at, 0xab, 7 * sizeof *out);
        }
    }
    *pairs_done = 0;
    __atomic_fetch_add(&b->calls, 1, __ATOMIC_RELAXED);
    if (err && err_len)
        snprintf(err, err_len, "injected device fault on device %d (faulty test backend)", (int)device);
    return DPA_ERR_DEVICE;
}

static const dpa_cuda_distance_entry faulty_distance_entry = {
    { DPA_CUDA_WORKLOAD_DISTANCE, sizeof(dpa_cuda_distance_entry) }, faulty_distance
};

static const dpa_cuda_entry_header *faulty_entry(uint32_t id)
{
    return id == DPA_CUDA_WORKLOAD_DISTANCE ? &faulty_distance_entry.header : NULL;
}

static const dpa_cuda_ops faulty_ops = { DPA_CUDA_ABI_VERSION, sizeof(dpa_cuda_ops), faulty_open, faulty_close,
                                         faulty_count, faulty_info, faulty_inject, faulty_entry };

__attribute__((visibility("default"))) const dpa_cuda_ops *dpa_cuda_get_ops(void) { return &faulty_ops; }
