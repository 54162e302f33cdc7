/*
 * fpenv.h — save the caller's floating-point control state, set what the kernels need,
 * restore it on exit. GKL sets flush-to-zero on the JVM thread and never restores it,
 * which makes later Java arithmetic on that thread irreproducible; we never leak a mode.
 *
 * The float kernels run with FTZ+DAZ (denormals would only slow them down: a value that
 * small has already failed the 1e-28 acceptance test and is recomputed in double), and
 * round-to-nearest. The double kernels run with the IEEE default (no FTZ), so the double
 * recompute matches the scalar double reference.
 */
#ifndef DPA_COMMON_FPENV_H
#define DPA_COMMON_FPENV_H

#if defined(__x86_64__) || defined(__i386__)
#include <xmmintrin.h>

typedef struct dpa_fpenv { unsigned int mxcsr; } dpa_fpenv;

#define DPA_MXCSR_FTZ 0x8000u
#define DPA_MXCSR_DAZ 0x0040u
#define DPA_MXCSR_RC_MASK 0x6000u
#define DPA_MXCSR_EXC_MASKS 0x1f80u

/* Float kernels: FTZ+DAZ, round to nearest, all exceptions masked. */
static inline dpa_fpenv dpa_fpenv_enter_f32(void)
{
    dpa_fpenv saved = { _mm_getcsr() };
    unsigned int m = (saved.mxcsr & ~(DPA_MXCSR_RC_MASK)) | DPA_MXCSR_FTZ | DPA_MXCSR_DAZ |
                     DPA_MXCSR_EXC_MASKS;
    _mm_setcsr(m & ~0x3fu); /* clear sticky exception flags too */
    return saved;
}

/* Double kernels: IEEE (no FTZ/DAZ), round to nearest, exceptions masked. */
static inline dpa_fpenv dpa_fpenv_enter_f64(void)
{
    dpa_fpenv saved = { _mm_getcsr() };
    unsigned int m = (saved.mxcsr & ~(DPA_MXCSR_RC_MASK | DPA_MXCSR_FTZ | DPA_MXCSR_DAZ)) |
                     DPA_MXCSR_EXC_MASKS;
    _mm_setcsr(m & ~0x3fu);
    return saved;
}

static inline void dpa_fpenv_leave(dpa_fpenv saved) { _mm_setcsr(saved.mxcsr); }

static inline unsigned int dpa_fpenv_current(void) { return _mm_getcsr(); }
#else
typedef struct dpa_fpenv { int unused; } dpa_fpenv;
static inline dpa_fpenv dpa_fpenv_enter_f32(void) { dpa_fpenv s = { 0 }; return s; }
static inline dpa_fpenv dpa_fpenv_enter_f64(void) { dpa_fpenv s = { 0 }; return s; }
static inline void dpa_fpenv_leave(dpa_fpenv saved) { (void)saved; }
static inline unsigned int dpa_fpenv_current(void) { return 0; }
#endif

#endif
