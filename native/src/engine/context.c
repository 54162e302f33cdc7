/* context.c — context life cycle and queries. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/status.h"
#include "engine/context.h"

void dpa_log(const dpa_context *ctx, dpa_log_level level, const char *fmt, ...)
{
    if (!ctx->cfg.log_fn) return;
    char msg[1024];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(msg, sizeof msg, fmt, ap);
    va_end(ap);
    ctx->cfg.log_fn(ctx->cfg.log_user, level, msg);
}

DPA_API dpa_status dpa_context_create(const dpa_options *options, dpa_context **out)
{
    if (!out) return dpa_fail(DPA_ERR_NULL_ARG, "dpa_context_create: out is NULL");
    *out = NULL;
    dpa_context *ctx = calloc(1, sizeof *ctx);
    if (!ctx) return dpa_fail(DPA_ERR_OUT_OF_MEMORY, "dpa_context_create: out of memory");
    dpa_status st = dpa_config_resolve(options, &ctx->cfg);
    if (st == DPA_OK) st = dpa_pool_create(ctx->cfg.threads, &ctx->pool);
    if (st != DPA_OK) {
        free(ctx);
        return st;
    }
    dpa_phmm_select(ctx->cfg.isa_mask, &ctx->phmm);
    if (ctx->cfg.gpu_disable)
        snprintf(ctx->cuda.reason, sizeof ctx->cuda.reason, "GPU disabled by configuration");
    else
        dpa_cuda_load(&ctx->cuda, &(dpa_cuda_host){ ctx->cfg.log_fn, ctx->cfg.log_user,
                                                     ctx->cfg.gpu_devices,
                                                     ctx->cfg.num_gpu_devices });
    if (!ctx->cfg.cuda_unverified) dpa_cuda_drop_unverified(&ctx->cuda);
    if (ctx->cfg.backend == DPA_BACKEND_GPU && ctx->cuda.devices == 0) {
        st = dpa_fail(DPA_ERR_NO_DEVICE, "backend gpu requested but %s", ctx->cuda.reason);
        dpa_context_destroy(ctx);
        return st;
    }
    char line[1024];
    dpa_context_describe(ctx, line, sizeof line);
    dpa_log(ctx, DPA_LOG_INFO, "%s", line);
    *out = ctx;
    return DPA_OK;
}

DPA_API void dpa_context_destroy(dpa_context *ctx)
{
    if (!ctx) return;
    dpa_pool_destroy(ctx->pool);
    dpa_cuda_unload(&ctx->cuda);
    free(ctx);
}

#define CHECK_CTX_OUT(ctx, out)                                                             \
    do {                                                                                   \
        if (!(ctx)) return dpa_fail(DPA_ERR_NULL_ARG, "%s: ctx is NULL", __func__);        \
        if (!(out)) return dpa_fail(DPA_ERR_NULL_ARG, "%s: out is NULL", __func__);        \
    } while (0)

DPA_API dpa_status dpa_context_isa(const dpa_context *ctx, dpa_isa *out)
{
    CHECK_CTX_OUT(ctx, out);
    *out = ctx->phmm.isa;
    return DPA_OK;
}

DPA_API dpa_status dpa_context_threads(const dpa_context *ctx, int32_t *out)
{
    CHECK_CTX_OUT(ctx, out);
    *out = ctx->cfg.threads;
    return DPA_OK;
}

DPA_API dpa_status dpa_context_backend(const dpa_context *ctx, dpa_backend *out)
{
    CHECK_CTX_OUT(ctx, out);
    *out = ctx->cfg.backend;
    return DPA_OK;
}

DPA_API dpa_status dpa_context_device_count(const dpa_context *ctx, int32_t *out)
{
    CHECK_CTX_OUT(ctx, out);
    *out = ctx->cuda.devices;
    return DPA_OK;
}

DPA_API dpa_status dpa_context_device_info(const dpa_context *ctx, int32_t index,
                                           dpa_device_info *out)
{
    CHECK_CTX_OUT(ctx, out);
    if (index < 0 || index >= ctx->cuda.devices)
        return dpa_fail(DPA_ERR_INVALID_ARG, "device index %d out of range [0, %d)", index,
                        ctx->cuda.devices);
    return ctx->cuda.ops->device_info(ctx->cuda.backend, index, out);
}

DPA_API dpa_status dpa_context_describe(const dpa_context *ctx, char *buf, size_t len)
{
    if (!ctx) return dpa_fail(DPA_ERR_NULL_ARG, "dpa_context_describe: ctx is NULL");
    if (!buf || len == 0) return dpa_fail(DPA_ERR_NULL_ARG, "dpa_context_describe: buf is NULL");
    char gpus[640];
    if (ctx->cuda.devices > 0) {
        size_t o = (size_t)snprintf(gpus, sizeof gpus, "%d GPU(s):", ctx->cuda.devices);
        for (int32_t d = 0; d < ctx->cuda.devices && o < sizeof gpus; d++) {
            dpa_device_info info;
            if (ctx->cuda.ops->device_info(ctx->cuda.backend, d, &info) == DPA_OK) {
                char ord[32] = ""; /* when options.gpu_devices renumbered it */
                if (info.cuda_ordinal != d)
                    snprintf(ord, sizeof ord, ", CUDA device %d", info.cuda_ordinal);
                o += (size_t)snprintf(gpus + o, sizeof gpus - o, " [%d] %s (sm_%d%d%s)%s", d,
                                      info.name, info.cc_major, info.cc_minor, ord,
                                      info.usable ? "" : " retired");
            }
        }
    } else {
        snprintf(gpus, sizeof gpus, "no GPU: %.600s", ctx->cuda.reason);
    }
    snprintf(buf, len, "dpaccel %s: isa=%s threads=%d backend=%s; %s", DPA_VERSION_STRING,
             ctx->phmm.name, ctx->cfg.threads, dpa_backend_name(ctx->cfg.backend), gpus);
    return DPA_OK;
}
