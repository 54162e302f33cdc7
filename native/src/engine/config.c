/* config.c — resolve a context's configuration. Precedence: explicit option (the Java
 * facade maps system properties into options) > environment variable > default. A bad
 * value is an error that names its source, never silently ignored. */
#include <errno.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <unistd.h>

#include "common/status.h"
#include "cpu/cpu_features.h"
#include "engine/config.h"

#define DPA_MAX_THREADS 4096

DPA_API void dpa_options_init(dpa_options *o)
{
    if (!o) return;
    memset(o, 0, sizeof *o);
    o->struct_size = sizeof *o;
    o->num_threads = 0;
    o->backend = -1;
    o->cpu_disable = NULL;
    o->gpu_disable = -1;
}

static dpa_status parse_backend(const char *s, const char *what, dpa_backend *out)
{
    static const struct { const char *name; dpa_backend b; } names[] = {
        { "auto", DPA_BACKEND_AUTO }, { "cpu", DPA_BACKEND_CPU },
        { "gpu", DPA_BACKEND_GPU }, { "cuda", DPA_BACKEND_GPU },
        { "hybrid", DPA_BACKEND_HYBRID },
    };
    for (size_t i = 0; i < sizeof names / sizeof names[0]; i++) {
        if (strcasecmp(s, names[i].name) == 0) {
            *out = names[i].b;
            return DPA_OK;
        }
    }
    return dpa_fail(DPA_ERR_INVALID_ARG, "%s = '%s': expected auto, cpu, gpu or hybrid", what, s);
}

static dpa_status parse_int(const char *s, const char *what, long lo, long hi, long *out)
{
    char *end;
    errno = 0;
    long v = strtol(s, &end, 10);
    if (errno || end == s || *end != '\0' || v < lo || v > hi)
        return dpa_fail(DPA_ERR_INVALID_ARG, "%s = '%s': expected an integer in [%ld, %ld]",
                        what, s, lo, hi);
    *out = v;
    return DPA_OK;
}

/* "1" or "0,2": distinct ordinals in [0, 1023], at most DPA_MAX_GPU_DEVICES; "" = all. */
static dpa_status parse_devices(const char *s, const char *what, dpa_config *cfg)
{
    cfg->num_gpu_devices = 0;
    if (!*s) return DPA_OK;
    const char *p = s;
    for (;;) {
        char *end;
        errno = 0;
        const long v = strtol(p, &end, 10);
        if (errno || end == p || *p == '-' || *p == '+' || *p == ' ' || v > 1023 ||
            (*end != ',' && *end != '\0'))
            return dpa_fail(DPA_ERR_INVALID_ARG, "%s = '%s': expected a comma list of CUDA "
                            "device ordinals such as 0 or 0,2", what, s);
        for (int32_t i = 0; i < cfg->num_gpu_devices; i++)
            if (cfg->gpu_devices[i] == (int32_t)v)
                return dpa_fail(DPA_ERR_INVALID_ARG, "%s = '%s': device %ld is listed twice",
                                what, s, v);
        if (cfg->num_gpu_devices == DPA_MAX_GPU_DEVICES)
            return dpa_fail(DPA_ERR_INVALID_ARG, "%s = '%s': more than %d devices", what, s,
                            DPA_MAX_GPU_DEVICES);
        cfg->gpu_devices[cfg->num_gpu_devices++] = (int32_t)v;
        if (*end == '\0') return DPA_OK;
        p = end + 1;
    }
}

static int32_t default_threads(void)
{
    long n = sysconf(_SC_NPROCESSORS_ONLN);
    return n < 1 ? 1 : (n > DPA_MAX_THREADS ? DPA_MAX_THREADS : (int32_t)n);
}

dpa_status dpa_config_resolve(const dpa_options *opt, dpa_config *cfg)
{
    dpa_options defaults;
    dpa_status st;
    long v = 0;
    if (!opt) {
        dpa_options_init(&defaults);
        opt = &defaults;
    }
    if (opt->struct_size != sizeof(dpa_options))
        return dpa_fail(DPA_ERR_INVALID_ARG,
                        "options.struct_size = %u, expected %zu (call dpa_options_init)",
                        opt->struct_size, sizeof(dpa_options));
    memset(cfg, 0, sizeof *cfg);
    cfg->log_fn = opt->log_fn;
    cfg->log_user = opt->log_user;

    const char *env;
    if (opt->num_threads < 0 || opt->num_threads > DPA_MAX_THREADS)
        return dpa_fail(DPA_ERR_INVALID_ARG, "options.num_threads = %d: must be in [1, %d] "
                        "(0 = unset)", opt->num_threads, DPA_MAX_THREADS);
    if (opt->num_threads > 0) {
        cfg->threads = opt->num_threads;
    } else if ((env = getenv("DPACCEL_THREADS")) && *env) {
        if ((st = parse_int(env, "DPACCEL_THREADS", 1, DPA_MAX_THREADS, &v))) return st;
        cfg->threads = (int32_t)v;
    } else {
        cfg->threads = default_threads();
    }

    if (opt->backend >= DPA_BACKEND_AUTO && opt->backend <= DPA_BACKEND_HYBRID) {
        cfg->backend = (dpa_backend)opt->backend;
    } else if (opt->backend != -1) {
        return dpa_fail(DPA_ERR_INVALID_ARG, "options.backend = %d: must be 0..3 or -1 (unset)",
                        opt->backend);
    } else if ((env = getenv("DPACCEL_BACKEND")) && *env) {
        if ((st = parse_backend(env, "DPACCEL_BACKEND", &cfg->backend))) return st;
    } else {
        cfg->backend = DPA_BACKEND_AUTO;
    }

    const char *disable = opt->cpu_disable;
    const char *disable_src = "options.cpu_disable";
    if (!disable && (env = getenv("DPACCEL_CPU_DISABLE"))) {
        disable = env;
        disable_src = "DPACCEL_CPU_DISABLE";
    }
    if ((st = dpa_cpu_parse_disable(disable, disable_src, &cfg->disabled_mask))) return st;
    cfg->isa_mask = dpa_cpu_supported_isas() & ~cfg->disabled_mask;

    if (opt->gpu_disable == 0 || opt->gpu_disable == 1) {
        cfg->gpu_disable = opt->gpu_disable;
    } else if (opt->gpu_disable != -1) {
        return dpa_fail(DPA_ERR_INVALID_ARG, "options.gpu_disable = %d: must be 0, 1 or -1",
                        opt->gpu_disable);
    } else if ((env = getenv("DPACCEL_GPU_DISABLE")) && *env) {
        if ((st = parse_int(env, "DPACCEL_GPU_DISABLE", 0, 1, &v))) return st;
        cfg->gpu_disable = (int)v;
    }
    const char *devs = opt->gpu_devices;
    const char *devs_src = "options.gpu_devices";
    if (!devs && (env = getenv("DPACCEL_GPU_DEVICES"))) {
        devs = env;
        devs_src = "DPACCEL_GPU_DEVICES";
    }
    if (devs && (st = parse_devices(devs, devs_src, cfg))) return st;
    /* Measurement knobs (docs/configuration.md): GPU feeders per device (0 = each
     * workload's default) and the engine's phase timings on the log callback. */
    if ((env = getenv("DPACCEL_GPU_FEEDERS")) && *env) {
        if ((st = parse_int(env, "DPACCEL_GPU_FEEDERS", 1, 4, &v))) return st;
        cfg->gpu_feeders = (int32_t)v;
    }
    /* How a large GPU call is cut into units (the feeders' pipeline depth): units per
     * feeder and the smallest unit, in the workload's cost units (PairHMM: cells). */
    cfg->gpu_units_per_feeder = 0;
    if ((env = getenv("DPACCEL_GPU_UNITS_PER_FEEDER")) && *env) {
        if ((st = parse_int(env, "DPACCEL_GPU_UNITS_PER_FEEDER", 1, 64, &v))) return st;
        cfg->gpu_units_per_feeder = (int32_t)v;
    }
    cfg->gpu_unit_min_cost = -1;
    if ((env = getenv("DPACCEL_GPU_UNIT_MIN_COST")) && *env) {
        if ((st = parse_int(env, "DPACCEL_GPU_UNIT_MIN_COST", 1, LONG_MAX, &v))) return st;
        cfg->gpu_unit_min_cost = (int64_t)v;
    }
    /* HYBRID's floor on the CPU's predicted share of a call, in percent (scheduler.h,
     * hybrid_min_cpu_share): 0 always shares, 100 never does. */
    cfg->hybrid_min_cpu_pct = -1;
    if ((env = getenv("DPACCEL_HYBRID_MIN_CPU_SHARE")) && *env) {
        if ((st = parse_int(env, "DPACCEL_HYBRID_MIN_CPU_SHARE", 0, 100, &v))) return st;
        cfg->hybrid_min_cpu_pct = (int32_t)v;
    }
    if ((env = getenv("DPACCEL_TIMING")) && *env) {
        if ((st = parse_int(env, "DPACCEL_TIMING", 0, 1, &v))) return st;
        cfg->timing = (int)v;
    }
    /* PairHMM prefix sharing on the CPU (docs/pairhmm.md): on unless set to 0; results are
     * bit-identical either way, the knob exists for comparisons; 2 shares across lengths and
     * 3 also shares suffixes (within tolerance, not the same bits, opt-in). */
    cfg->pairhmm_prefix = 1;
    if ((env = getenv("DPACCEL_PAIRHMM_PREFIX")) && *env) {
        if ((st = parse_int(env, "DPACCEL_PAIRHMM_PREFIX", 0, 3, &v))) return st;
        cfg->pairhmm_prefix = (int)v;
    }
    /* CUDA code that has been written and emulated but has not yet passed its tests on a
     * GPU stays unused unless asked for (docs/configuration.md, DECISIONS 94). */
    if ((env = getenv("DPACCEL_CUDA_UNVERIFIED")) && *env) {
        if ((st = parse_int(env, "DPACCEL_CUDA_UNVERIFIED", 0, 1, &v))) return st;
        cfg->cuda_unverified = (int)v;
    }
    /* CPU forced: never touch the driver (start-up cost, and a broken driver stays out). */
    if (cfg->backend == DPA_BACKEND_CPU) cfg->gpu_disable = 1;
    return DPA_OK;
}
