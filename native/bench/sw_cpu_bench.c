/*
 * sw_cpu_bench.c — times the CPU Smith-Waterman kernels, one thread, one pair per call, on
 * the two GATK shapes of the published SW tables (docs/BENCHMARKS.md, docs/sw-simd.md):
 *   hap-to-ref  300-1000 bp repetitive reference vs itself with 1-8 SNPs and 1-3 indels
 *               (<= 30 bp), NEW_SW scores (200,-150,-260,-11), overhang INDEL, 200 pairs
 *   read-to-hap 150 bp read (2 SNPs, 1 indel <= 3 bp) vs its 300 bp haplotype, scores
 *               (10,-15,-30,-5), overhang SOFTCLIP, 2000 pairs
 * Each (shape, ISA) is timed 5 times (scalar 2: it is slow) and the best run is printed as
 * microseconds per alignment and GCUPS over the pairs that needed a fill (pairs resolved by
 * the exact-match shortcut count in the time, not in the cells).
 *
 * Usage: sw_cpu_bench [seed]    (ISAs this CPU or this build lacks are listed as skipped)
 *
 * Moved out of the test suite (a disabled gtest until run 16): timings belong to bench tools,
 * never to tests. The pair generator is a C rewrite of the one the gtest used, with its own
 * RNG, so the pairs are the same shapes but not byte-identical to the earlier runs.
 */
#define _POSIX_C_SOURCE 199309L
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "cpu/cpu_features.h"
#include "cpu/sw/sw.h"

static uint64_t rng_state;
static uint64_t rng(void) /* splitmix64 */
{
    uint64_t z = (rng_state += 0x9e3779b97f4a7c15ull);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
    return z ^ (z >> 31);
}

typedef struct {
    char *s;
    size_t n, cap;
} str;

static void put(str *d, const char *p, size_t n)
{
    if (d->n + n + 1 > d->cap) {
        d->cap = 2 * (d->n + n + 1);
        d->s = realloc(d->s, d->cap);
        if (!d->s) abort();
    }
    memmove(d->s + d->n, p, n);
    d->n += n;
    d->s[d->n] = 0;
}

static void random_bases(str *d, size_t len)
{
    for (size_t i = 0; i < len; i++) put(d, &"ACGT"[rng() % 4], 1);
}

/* Short tandem repeats, duplicated 30 bp segments and random stretches. */
static str repetitive(size_t len)
{
    str s = { 0 };
    while (s.n < len) {
        const int kind = (int)(rng() % 4);
        if (kind == 0) {
            char unit[4];
            const size_t u = 1 + rng() % 4;
            for (size_t i = 0; i < u; i++) unit[i] = "ACGT"[rng() % 4];
            for (int r = 2 + (int)(rng() % 10); r > 0; r--) put(&s, unit, u);
        } else if (kind == 1 && s.n > 40) {
            char seg[30];
            memcpy(seg, s.s + rng() % (s.n - 30), 30);
            put(&s, seg, 30);
        } else {
            random_bases(&s, 10 + rng() % 40);
        }
    }
    s.n = len;
    s.s[len] = 0;
    return s;
}

static str mutate(const char *src, size_t n, int snps, int indels, int max_indel)
{
    str s = { 0 };
    put(&s, src, n);
    for (int k = 0; k < snps && s.n; k++) s.s[rng() % s.n] = "ACGT"[rng() % 4];
    for (int k = 0; k < indels && s.n > 2; k++) {
        const size_t pos = rng() % s.n;
        const size_t len = 1 + rng() % (uint64_t)max_indel;
        str t = { 0 };
        put(&t, s.s, pos);
        if (rng() & 1) {
            random_bases(&t, len);
            put(&t, s.s + pos, s.n - pos);
        } else if (pos + len < s.n) {
            put(&t, s.s + pos + len, s.n - pos - len);
        }
        if (!t.n) put(&t, "A", 1);
        free(s.s);
        s = t;
    }
    return s;
}

typedef struct {
    const char *ref, *alt;
    int32_t rl, al;
} pair;

typedef struct {
    const char *name;
    dpa_sw_align_fn fn;
    int isa; /* dpa_isa needed, -1: none */
} kernel;

static double now(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec + 1e-9 * (double)t.tv_nsec;
}

int main(int argc, char **argv)
{
    rng_state = argc > 1 ? strtoull(argv[1], NULL, 10) : 12345;
    enum { N0 = 200, N1 = 2000 };
    static pair p0[N0], p1[N1];
    for (int k = 0; k < N0; k++) {
        str ref = repetitive(300 + rng() % 701);
        const int snps = 1 + (int)(rng() % 8), indels = 1 + (int)(rng() % 3);
        str alt = mutate(ref.s, ref.n, snps, indels, 30);
        p0[k] = (pair){ ref.s, alt.s, (int32_t)ref.n, (int32_t)alt.n };
    }
    for (int k = 0; k < N1; k++) {
        str hap = repetitive(300);
        str read = mutate(hap.s + rng() % 150, 150, 2, 1, 3);
        p1[k] = (pair){ hap.s, read.s, (int32_t)hap.n, (int32_t)read.n };
    }
    struct {
        const char *name;
        int32_t match, mismatch, open, extend, overhang;
        const pair *pairs;
        int n;
    } shapes[2] = {
        { "hap-to-ref 300-1000 bp INDEL", 200, -150, -260, -11, DPA_SW_OVERHANG_INDEL, p0, N0 },
        { "read 150 vs hap 300 SOFTCLIP", 10, -15, -30, -5, DPA_SW_OVERHANG_SOFTCLIP, p1, N1 },
    };
    const kernel kernels[] = {
        { "scalar", dpa_sw_align_scalar, -1 },
#ifdef DPA_HAVE_AVX2
        { "avx2", dpa_sw_align_avx2, DPA_ISA_AVX2 },
#else
        { "avx2", NULL, DPA_ISA_AVX2 },
#endif
#ifdef DPA_HAVE_AVX512
        { "avx512", dpa_sw_align_avx512, DPA_ISA_AVX512 },
#else
        { "avx512", NULL, DPA_ISA_AVX512 },
#endif
    };
    const unsigned have = dpa_cpu_supported_isas();
    static char cigar[1 << 17];
    for (int si = 0; si < 2; si++) {
        for (size_t ki = 0; ki < sizeof kernels / sizeof kernels[0]; ki++) {
            const kernel *kn = &kernels[ki];
            if (!kn->fn || (kn->isa >= 0 && !(have & DPA_ISA_BIT(kn->isa)))) {
                printf("SWBENCH %-30s %-7s skipped (%s)\n", shapes[si].name, kn->name,
                       kn->fn ? "CPU lacks it" : "not compiled in");
                continue;
            }
            dpa_sw_params sp;
            dpa_sw_params_init(&sp);
            sp.match = shapes[si].match;
            sp.mismatch = shapes[si].mismatch;
            sp.gap_open = shapes[si].open;
            sp.gap_extend = shapes[si].extend;
            sp.overhang = shapes[si].overhang;
            dpa_sw_scratch s;
            memset(&s, 0, sizeof s);
            double best = 1e30, cells = 0;
            long aligned = 0;
            const int reps = kn->isa < 0 ? 2 : 5;
            for (int rep = 0; rep < reps; rep++) {
                cells = 0;
                aligned = 0;
                const double t0 = now();
                for (int k = 0; k < shapes[si].n; k++) {
                    const pair *pr = &shapes[si].pairs[k];
                    int32_t len, off;
                    int exact = 0;
                    if (kn->fn((const uint8_t *)pr->ref, pr->rl, (const uint8_t *)pr->alt, pr->al,
                               &sp, &s, cigar, &len, &off, &exact) != DPA_OK) {
                        fprintf(stderr, "sw_cpu_bench: %s failed on pair %d\n", kn->name, k);
                        return 1;
                    }
                    if (!exact) {
                        cells += (double)pr->rl * (double)pr->al;
                        aligned++;
                    }
                }
                const double sec = now() - t0;
                if (sec < best) best = sec;
            }
            printf("SWBENCH %-30s %-7s %8.1f us/alignment  %6.3f GCUPS  (%ld aligned of %d)\n",
                   shapes[si].name, kn->name, best * 1e6 / shapes[si].n, cells / best * 1e-9,
                   aligned, shapes[si].n);
            dpa_sw_scratch_free(&s);
        }
    }
    return 0;
}
