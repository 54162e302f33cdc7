/* cpu_features.c — CPUID + XGETBV probe. A feature counts only when the CPU has it AND
 * the OS saves the register state it needs (XCR0), which GKL's probe gets wrong: it
 * reports AVX-512 when OSXSAVE is absent. */
#include <string.h>

#include "common/status.h"
#include "cpu/cpu_features.h"

#if defined(__x86_64__) || defined(__i386__)
#include <cpuid.h>

static unsigned long long read_xcr0(void)
{
    unsigned int eax, edx;
    __asm__ volatile("xgetbv" : "=a"(eax), "=d"(edx) : "c"(0));
    return ((unsigned long long)edx << 32) | eax;
}

unsigned dpa_cpu_supported_isas(void)
{
    unsigned mask = DPA_ISA_BIT(DPA_ISA_SCALAR);
    unsigned int a, b, c, d;
    if (!__get_cpuid(0, &a, &b, &c, &d) || a < 7) return mask;
    unsigned int max_leaf = a;
    __get_cpuid(1, &a, &b, &c, &d);
    const int osxsave = (c >> 27) & 1, avx = (c >> 28) & 1, fma = (c >> 12) & 1;
    if (!osxsave || !avx) return mask;
    const unsigned long long xcr0 = read_xcr0();
    if ((xcr0 & 0x6) != 0x6) return mask;
    if (max_leaf < 7) return mask;
    __cpuid_count(7, 0, a, b, c, d);
    const int avx2 = (b >> 5) & 1, bmi1 = (b >> 3) & 1, bmi2 = (b >> 8) & 1;
    const int f = (b >> 16) & 1, dq = (b >> 17) & 1, bw = (b >> 30) & 1, vl = (b >> 31) & 1;
    if (avx2 && fma && bmi1 && bmi2) mask |= DPA_ISA_BIT(DPA_ISA_AVX2);
    if ((mask & DPA_ISA_BIT(DPA_ISA_AVX2)) && f && dq && bw && vl && (xcr0 & 0xe6) == 0xe6)
        mask |= DPA_ISA_BIT(DPA_ISA_AVX512);
    return mask;
}
#else
unsigned dpa_cpu_supported_isas(void) { return DPA_ISA_BIT(DPA_ISA_SCALAR); }
#endif

dpa_status dpa_cpu_parse_disable(const char *list, const char *what, unsigned *out_mask)
{
    unsigned mask = 0;
    const char *p = list ? list : "";
    while (*p) {
        while (*p == ',' || *p == ' ') p++;
        if (!*p) break;
        const char *start = p;
        while (*p && *p != ',' && *p != ' ') p++;
        size_t len = (size_t)(p - start);
        if (len == 4 && strncmp(start, "avx2", 4) == 0)
            mask |= DPA_ISA_BIT(DPA_ISA_AVX2);
        else if (len == 6 && strncmp(start, "avx512", 6) == 0)
            mask |= DPA_ISA_BIT(DPA_ISA_AVX512);
        else
            return dpa_fail(DPA_ERR_INVALID_ARG,
                            "%s: unknown ISA '%.*s' (allowed: avx2, avx512; scalar cannot be "
                            "disabled)", what, (int)len, start);
    }
    *out_mask = mask;
    return DPA_OK;
}
