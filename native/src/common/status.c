/* status.c — status names and the per-thread last-error message. The message buffer is
 * thread-local by design: it is the one piece of state outside a context, and it belongs
 * to the calling thread, so concurrent callers never see each other's errors. */
#include <stdarg.h>
#include <stdio.h>

#include "common/status.h"

static _Thread_local char last_error[1024];

dpa_status dpa_fail(dpa_status status, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(last_error, sizeof last_error, fmt, ap);
    va_end(ap);
    return status;
}

void dpa_clear_error(void) { last_error[0] = '\0'; }

DPA_API const char *dpa_last_error(void) { return last_error; }

DPA_API const char *dpa_version(void) { return DPA_VERSION_STRING; }

DPA_API const char *dpa_status_name(dpa_status status)
{
    switch (status) {
    case DPA_OK: return "DPA_OK";
    case DPA_ERR_NULL_ARG: return "DPA_ERR_NULL_ARG";
    case DPA_ERR_INVALID_ARG: return "DPA_ERR_INVALID_ARG";
    case DPA_ERR_LIMIT: return "DPA_ERR_LIMIT";
    case DPA_ERR_OUT_OF_MEMORY: return "DPA_ERR_OUT_OF_MEMORY";
    case DPA_ERR_UNSUPPORTED: return "DPA_ERR_UNSUPPORTED";
    case DPA_ERR_NO_DEVICE: return "DPA_ERR_NO_DEVICE";
    case DPA_ERR_DEVICE: return "DPA_ERR_DEVICE";
    case DPA_ERR_INTERNAL: return "DPA_ERR_INTERNAL";
    }
    return "DPA_ERR_UNKNOWN";
}

DPA_API const char *dpa_isa_name(dpa_isa isa)
{
    switch (isa) {
    case DPA_ISA_SCALAR: return "scalar";
    case DPA_ISA_AVX2: return "avx2";
    case DPA_ISA_AVX512: return "avx512";
    }
    return "unknown";
}

DPA_API const char *dpa_backend_name(dpa_backend backend)
{
    switch (backend) {
    case DPA_BACKEND_AUTO: return "auto";
    case DPA_BACKEND_CPU: return "cpu";
    case DPA_BACKEND_GPU: return "gpu";
    case DPA_BACKEND_HYBRID: return "hybrid";
    }
    return "unknown";
}
