/*
 * cuda_check.h — CUDA error handling for the backend: every CUDA call goes through
 * DPA_CUDA_TRY, which turns a cudaError_t into a dpa_status plus a message naming the
 * error (cudaGetErrorName), the call and file:line, clears the runtime's last-error slot
 * for recoverable errors (so one failure never leaks into the next launch, as CUB's
 * Debug() does), and tells the caller whether the error is sticky (the context is dead:
 * the device must be retired).
 *
 * Usage inside a function with `dpa_status status` and a `cleanup:` label:
 *     DPA_CUDA_TRY(err, cudaMemcpyAsync(...));
 * where err is a dpa_cuda_err * that collects the message.
 */
#ifndef DPA_CUDA_CHECK_H
#define DPA_CUDA_CHECK_H

#include <stdio.h>
#include <string.h>

#include <cuda_runtime.h>

#include "dpaccel.h"

typedef struct dpa_cuda_err {
    char *msg;       /* caller's buffer (may be NULL) */
    size_t len;
    int sticky;      /* set when a sticky error was seen: retire the device */
} dpa_cuda_err;

/* Errors after which the CUDA context of the device is unusable for the rest of the
 * process (CUDA runtime documentation: "the process must be terminated and relaunched"
 * class). Everything else (allocation failures, bad values) is recoverable. */
static inline int dpa_cuda_is_sticky(cudaError_t e)
{
    switch (e) {
    case cudaErrorIllegalAddress:
    case cudaErrorLaunchFailure:
    case cudaErrorHardwareStackError:
    case cudaErrorIllegalInstruction:
    case cudaErrorMisalignedAddress:
    case cudaErrorInvalidAddressSpace:
    case cudaErrorInvalidPc:
    case cudaErrorLaunchTimeout:
    case cudaErrorECCUncorrectable:
    case cudaErrorAssert:
    case cudaErrorContextIsDestroyed:
    case cudaErrorDevicesUnavailable:
    case cudaErrorUnknown:
        return 1;
    default:
        return 0;
    }
}

static inline dpa_status dpa_cuda_status_of(cudaError_t e)
{
    if (e == cudaSuccess) return DPA_OK;
    if (e == cudaErrorMemoryAllocation) return DPA_ERR_OUT_OF_MEMORY;
    if (e == cudaErrorNoDevice || e == cudaErrorInsufficientDriver ||
        e == cudaErrorInitializationError || e == cudaErrorSystemDriverMismatch ||
        e == cudaErrorCompatNotSupportedOnDevice)
        return DPA_ERR_NO_DEVICE;
    return DPA_ERR_DEVICE;
}

/* Records e (with what/where) into err and returns the matching status. */
static inline dpa_status dpa_cuda_fail(dpa_cuda_err *err, cudaError_t e, const char *what,
                                       const char *file, int line)
{
    int sticky = dpa_cuda_is_sticky(e);
    if (!sticky) (void)cudaGetLastError(); /* clear the recoverable error */
    if (err) {
        err->sticky |= sticky;
        if (err->msg && err->len)
            snprintf(err->msg, err->len, "%s (%s: %s) at %s:%d%s", what, cudaGetErrorName(e),
                     cudaGetErrorString(e), file, line,
                     sticky ? "; sticky error, device retired" : "");
    }
    return dpa_cuda_status_of(e);
}

/* Formats a non-CUDA failure into err (first one wins is not needed: last one wins). */
static inline dpa_status dpa_cuda_fail_msg(dpa_cuda_err *err, dpa_status st, const char *msg)
{
    if (err && err->msg && err->len) snprintf(err->msg, err->len, "%s", msg);
    return st;
}

#define DPA_CUDA_TRY(errp, call)                                                            \
    do {                                                                                   \
        cudaError_t dpa_e_ = (call);                                                       \
        if (dpa_e_ != cudaSuccess) {                                                       \
            status = dpa_cuda_fail((errp), dpa_e_, #call, __FILE__, __LINE__);             \
            goto cleanup;                                                                  \
        }                                                                                  \
    } while (0)

/* After a launch: a bad configuration shows here, a fault in the kernel later. */
#define DPA_CUDA_CHECK_LAUNCH(errp, what) DPA_CUDA_TRY(errp, cudaGetLastError())

#endif
