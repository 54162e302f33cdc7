/* cuda_loader.c — see cuda_loader.h. Lookup order: $DPACCEL_CUDA_LIB (a file), then
 * libdpaccel_cuda.so next to the library holding this code (the Java loader extracts both
 * into one private directory). */
#include <dlfcn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "engine/cuda_loader.h"

static int sibling_path(char *buf, size_t len)
{
    Dl_info info;
    if (!dladdr((void *)&dpa_cuda_load, &info) || !info.dli_fname) return 0;
    const char *slash = strrchr(info.dli_fname, '/');
    if (!slash) return snprintf(buf, len, "libdpaccel_cuda.so") < (int)len;
    int n = snprintf(buf, len, "%.*s/libdpaccel_cuda.so", (int)(slash - info.dli_fname),
                     info.dli_fname);
    return n > 0 && (size_t)n < len;
}

void dpa_cuda_load(dpa_cuda *c, const dpa_cuda_host *host)
{
    char path[4096];
    memset(c, 0, sizeof *c);
    const char *env = getenv("DPACCEL_CUDA_LIB");
    if (env && *env) {
        snprintf(path, sizeof path, "%s", env);
    } else if (!sibling_path(path, sizeof path)) {
        snprintf(c->reason, sizeof c->reason, "cannot locate libdpaccel_cuda.so");
        return;
    }
    c->dl = dlopen(path, RTLD_NOW | RTLD_LOCAL);
    if (!c->dl) {
        const char *e = dlerror();
        snprintf(c->reason, sizeof c->reason, "CUDA backend not loaded (%s)",
                 e ? e : path);
        return;
    }
    dpa_cuda_get_ops_fn get = (dpa_cuda_get_ops_fn)dlsym(c->dl, DPA_CUDA_GET_OPS_SYMBOL);
    const dpa_cuda_ops *ops = get ? get() : NULL;
    if (!ops || ops->abi_version != DPA_CUDA_ABI_VERSION || ops->struct_size < sizeof *ops) {
        snprintf(c->reason, sizeof c->reason, "%s: incompatible CUDA backend (ABI %u, want %u)",
                 path, ops ? ops->abi_version : 0u, (unsigned)DPA_CUDA_ABI_VERSION);
        dlclose(c->dl);
        c->dl = NULL;
        return;
    }
    char err[400] = "";
    dpa_status st = ops->open(0, host, &c->backend, err, sizeof err);
    if (st != DPA_OK) {
        if (err[0])
            snprintf(c->reason, sizeof c->reason, "%s", err);
        else
            snprintf(c->reason, sizeof c->reason, "no usable GPU: %s", dpa_status_name(st));
        c->backend = NULL;
        dlclose(c->dl);
        c->dl = NULL;
        return;
    }
    c->ops = ops;
    c->devices = ops->device_count(c->backend);
    /* an entry whose header does not match its id, or is older than this engine's struct,
     * or one this engine has no struct for (need 0), is treated as
     * absent: that workload runs on the CPU */
    static const uint32_t need[DPA_CUDA_WORKLOAD_COUNT] = {
        [DPA_CUDA_WORKLOAD_PAIRHMM] = sizeof(dpa_cuda_pairhmm_entry),
        [DPA_CUDA_WORKLOAD_SW] = sizeof(dpa_cuda_sw_entry),
        [DPA_CUDA_WORKLOAD_DISTANCE] = sizeof(dpa_cuda_distance_entry),
        [DPA_CUDA_WORKLOAD_XDROP] = sizeof(dpa_cuda_xdrop_entry),
        [DPA_CUDA_WORKLOAD_PDHMM] = sizeof(dpa_cuda_pdhmm_entry),
        [DPA_CUDA_WORKLOAD_PAPARA] = sizeof(dpa_cuda_papara_entry),
        [DPA_CUDA_WORKLOAD_HMM_FILTER] = sizeof(dpa_cuda_hmm_filter_entry),
    };
    for (uint32_t id = 1; id < DPA_CUDA_WORKLOAD_COUNT; id++) {
        const dpa_cuda_entry_header *e = ops->entry(id);
        c->entries[id] = e && need[id] && e->id == id && e->struct_size >= need[id] ? e : NULL;
    }
    snprintf(c->reason, sizeof c->reason, "%s", path);
}

/* Workloads whose CUDA kernels were written and checked in a host emulation only: a wrong
 * result would reach the user with no error to fail over on, so they wait for a GPU run of
 * their tests. Add a workload's bit when its kernels land before any GPU run; remove it in
 * the commit that records their tests passing on a GPU. Empty since 2026-11-28 (the HMMER
 * filters' tests passed on an H100: docs/lab/2026-11-28-session11.md). */
#define DPA_CUDA_NOT_RUN_ON_A_GPU 0u

void dpa_cuda_drop_workloads(dpa_cuda *c, uint32_t mask)
{
    for (int id = 0; id < DPA_CUDA_WORKLOAD_COUNT; id++) {
        if (!(mask >> id & 1u)) continue;
        if (c->entries[id]) c->unverified |= 1u << id;
        c->entries[id] = NULL;
    }
}

void dpa_cuda_drop_unverified(dpa_cuda *c)
{
    dpa_cuda_drop_workloads(c, DPA_CUDA_NOT_RUN_ON_A_GPU);
}

void dpa_cuda_unload(dpa_cuda *c)
{
    if (c->ops && c->backend) c->ops->close(c->backend);
    if (c->dl) dlclose(c->dl);
    memset(c, 0, sizeof *c);
}

int32_t dpa_cuda_usable_devices(const dpa_cuda *c, int32_t *list, int32_t max)
{
    int32_t n = 0;
    for (int32_t d = 0; d < c->devices && n < max; d++) {
        dpa_device_info info;
        if (c->ops->device_info(c->backend, d, &info) == DPA_OK && info.usable) list[n++] = d;
    }
    return n;
}
