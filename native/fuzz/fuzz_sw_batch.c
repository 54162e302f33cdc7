/*
 * fuzz_sw_batch.c — libFuzzer target for Smith-Waterman batch validation and the batch path
 * (dpa_sw_validate, dpa_sw_cigar_capacity, dpa_sw_compute on the CPU).
 *
 * The input bytes choose up to 4 pairs (lengths mostly 1..40 over small alphabets so exact
 * substrings, repeats and ties are common; sometimes 0, negative or beyond the limits),
 * the four scores (mostly GATK-sized, sometimes at and beyond the score bound), the
 * overhang strategy (valid and not), the per-call backend, the output capacity (sometimes
 * one byte short) and the kernel (AVX-512, AVX2 or scalar context; an ISA the machine lacks
 * falls back). Like the PairHMM target, the harness keeps true what C cannot check: a
 * sequence whose claimed extent would leave the buffer gets offset -1 (validation rejects it).
 *
 * Properties: no crash or sanitizer report; compute returns OK exactly when validation
 * passes, the capacity suffices and the backend is not GPU, and otherwise an error with a
 * message; an OK call gives, for every pair, the CIGAR and offset of the scalar kernel run
 * directly on that pair (byte for byte), packs the CIGARs back to back in pair order, and
 * (for SOFTCLIP, INDEL, LEADING_INDEL) gives a CIGAR that consumes the whole alternate and
 * stays inside the reference.
 *
 * Build: cmake -DDPA_FUZZ=ON with clang (see .ci/run); run: fuzz_sw_batch corpus/sw_batch
 */
#include <stdlib.h>
#include <string.h>

#include "cpu/sw/sw.h"
#include "dpaccel.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

typedef struct cursor { const uint8_t *p; size_t n; } cursor;

static uint8_t take8(cursor *c)
{
    if (!c->n) return 0;
    c->n--;
    return *c->p++;
}

static int32_t take32(cursor *c)
{
    uint32_t v = 0;
    for (int k = 0; k < 4; k++) v = v << 8 | take8(c);
    return (int32_t)v;
}

static int32_t take_len(cursor *c)
{
    const uint8_t k = take8(c);
    switch (k) {
    case 250: return 0;
    case 251: return -1;
    case 252: return DPA_SW_MAX_LENGTH;
    case 253: return DPA_SW_MAX_LENGTH + 1;
    case 254: return INT32_MAX;
    case 255: return INT32_MIN;
    default: return 1 + k % 40;
    }
}

static int32_t take_score(cursor *c, int32_t usual)
{
    const uint8_t k = take8(c);
    if (k < 200) return usual; /* GATK's parameter sets */
    if (k < 240) return (int32_t)(take8(c) % 64) - 32;
    if (k < 250) return (k & 1 ? -1 : 1) * (DPA_SW_SCORE_BOUND / 4 - 1 - (k % 3));
    return take32(c);
}

static dpa_context *context(int which)
{
    static dpa_context *ctx[3]; /* one per kernel per fuzzing process */
    static const char *const disable[3] = { "", "avx512", "avx512,avx2" };
    if (!ctx[which]) {
        dpa_options o;
        dpa_options_init(&o);
        o.num_threads = 2;
        o.backend = DPA_BACKEND_CPU;
        o.gpu_disable = 1; /* the CPU kernels are what is fuzzed here */
        o.cpu_disable = disable[which];
        if (dpa_context_create(&o, &ctx[which]) != DPA_OK) abort();
    }
    return ctx[which];
}

/* Alternate and reference bases consumed by a CIGAR; 0 if it is not well formed. */
static int consumed(const char *cigar, int32_t len, int64_t *alt, int64_t *ref)
{
    *alt = *ref = 0;
    int64_t num = 0;
    int digits = 0;
    for (int32_t i = 0; i < len; i++) {
        const char ch = cigar[i];
        if (ch >= '0' && ch <= '9') {
            num = num * 10 + (ch - '0');
            if (++digits > 9) return 0;
            continue;
        }
        if (!digits || num == 0) return 0;
        if (ch == 'M') *alt += num, *ref += num;
        else if (ch == 'I' || ch == 'S') *alt += num;
        else if (ch == 'D') *ref += num;
        else return 0;
        num = 0;
        digits = 0;
    }
    return digits == 0;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    enum { MAXN = 4, BUF = 160 };
    cursor c = { data, size };
    uint8_t rb[BUF], ab[BUF];
    const char *const alphabets[4] = { "ACGT", "AC", "A", "ACGTN" };
    const char *ra = alphabets[take8(&c) & 3], *aa = alphabets[take8(&c) & 3];
    const size_t rn = strlen(ra), an = strlen(aa);
    for (int i = 0; i < BUF; i++) {
        rb[i] = (uint8_t)ra[take8(&c) % rn];
        ab[i] = (uint8_t)aa[take8(&c) % an];
    }
    /* alternates copied from the reference give exact substrings (the shortcut) */
    if (take8(&c) & 1) memcpy(ab, rb + (take8(&c) % 32), BUF - 32);

    const int32_t n = take8(&c) % (MAXN + 2) - (take8(&c) == 255); /* -1..5 pairs */
    int64_t ro[MAXN + 1], ao[MAXN + 1], rused = 0, aused = 0;
    int32_t rl[MAXN + 1], al[MAXN + 1];
    for (int32_t i = 0; i < n; i++) {
        rl[i] = take_len(&c);
        al[i] = take_len(&c);
        const int64_t rs = take8(&c) % 16, as = take8(&c) % 16; /* sometimes overlapping */
        ro[i] = rl[i] > 0 && rused + rs + rl[i] <= BUF ? rused + rs : -1;
        ao[i] = al[i] > 0 && aused + as + al[i] <= BUF ? aused + as : -1;
        if (ro[i] >= 0) rused = ro[i] + rl[i] / 2;
        if (ao[i] >= 0) aused = ao[i] + al[i] / 2;
    }
    dpa_sw_params p;
    dpa_sw_params_init(&p);
    const int set = take8(&c) & 1; /* haplotype-to-reference or read-to-haplotype (GATK) */
    p.match = take_score(&c, set ? 200 : 10);
    p.mismatch = take_score(&c, set ? -150 : -15);
    p.gap_open = take_score(&c, set ? -260 : -30);
    p.gap_extend = take_score(&c, set ? -11 : -5);
    const uint8_t ov = take8(&c);
    p.overhang = ov < 240 ? ov % 4 : (int32_t)(int8_t)ov;
    const uint8_t be = take8(&c);
    p.backend = be < 200 ? -1 : be < 250 ? (be % 4) : (int32_t)(int8_t)be;
    const int kernel = take8(&c) % 3;
    const int short_by_one = take8(&c) == 7;

    const dpa_sw_batch b = { n, rb, ro, rl, ab, ao, al };
    const dpa_status valid = dpa_sw_validate(&b, &p);
    if (valid != DPA_OK && dpa_last_error()[0] == '\0') abort();
    int64_t cap = 0;
    const dpa_status capst = dpa_sw_cigar_capacity(&b, &cap);
    if (capst != DPA_OK && valid == DPA_OK) abort(); /* valid => capacity known */
    if (capst == DPA_OK && short_by_one && cap > 0) cap--;

    char cigars[(MAXN + 1) * 4 * BUF];
    int64_t coff[MAXN + 1];
    int32_t clen[MAXN + 1], aoff[MAXN + 1];
    const dpa_sw_output o = { cigars, capst == DPA_OK ? cap : 0, coff, clen, aoff };
    dpa_sw_stats stats;
    const dpa_status st = dpa_sw_compute(context(kernel), &b, &p, &o, &stats);
    const int should = valid == DPA_OK && !(short_by_one && n > 0) &&
                       p.backend != DPA_BACKEND_GPU;
    if ((st == DPA_OK) != should) abort();
    if (st != DPA_OK) {
        if (dpa_last_error()[0] == '\0') abort();
        return 0;
    }

    dpa_sw_scratch scratch;
    memset(&scratch, 0, sizeof scratch);
    int64_t packed = 0;
    for (int32_t i = 0; i < n; i++) {
        char ref_cigar[4 * BUF];
        int32_t ref_len = 0, ref_off = 0;
        int exact = 0;
        if (dpa_sw_align_scalar(rb + ro[i], rl[i], ab + ao[i], al[i], &p, &scratch, ref_cigar,
                                &ref_len, &ref_off, &exact) != DPA_OK)
            abort();
        if (coff[i] != packed || clen[i] != ref_len || aoff[i] != ref_off ||
            memcmp(cigars + coff[i], ref_cigar, (size_t)ref_len))
            abort();
        packed += clen[i];
        int64_t alt_used, ref_used;
        if (!consumed(cigars + coff[i], clen[i], &alt_used, &ref_used)) abort();
        if (p.overhang != DPA_SW_OVERHANG_IGNORE &&
            (alt_used != al[i] || aoff[i] < 0 || aoff[i] + ref_used > rl[i]))
            abort();
    }
    dpa_sw_scratch_free(&scratch);
    if (stats.pairs != n || stats.cigar_bytes != packed) abort();
    return 0;
}
