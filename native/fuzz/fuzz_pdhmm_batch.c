/*
 * fuzz_pdhmm_batch.c — libFuzzer target for PDHMM batch validation and the batch path
 * (dpa_pdhmm_validate, dpa_pdhmm_compute on the CPU).
 *
 * The input bytes choose up to 9 pairs (more than one AVX2 vector, up to one AVX-512 vector
 * and one more): read and haplotype bytes over small alphabets (ACGT, lower case, N, and now
 * and then an odd byte that GATK rejects at SNP positions), arbitrary PD bytes, quality bytes
 * mostly 0..93 and sometimes >= 128 (negative Java bytes), lengths mostly 1..40 (sometimes 0,
 * negative or past the limit), pairs sharing sequences, the out_len, the per-call backend and
 * the row mode (GATK, GKL, invalid) and the kernel (AVX-512, AVX2 or scalar context). A sequence whose claimed extent would leave
 * the buffer gets offset -1 (validation rejects it).
 *
 * Properties: no crash or sanitizer report; compute returns OK exactly when validation passes,
 * out_len suffices, the backend is not GPU and no scalar-reference result is NaN or above 0
 * (GATK throws there), else an error with a message and out untouched; an OK call equals
 * the scalar kernel run directly, bit for bit, and no result is NaN or positive infinity.
 *
 * Build: cmake -DDPA_FUZZ=ON with clang (see .ci/run); run: fuzz_pdhmm_batch corpus/pdhmm_batch
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "cpu/pdhmm/pdhmm.h"
#include "dpaccel.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

typedef struct cursor { const uint8_t *p; size_t n; } cursor;

static uint8_t take8(cursor *c)
{
    if (!c->n) return 0;
    c->n--;
    return *c->p++;
}

static int32_t take_len(cursor *c)
{
    const uint8_t k = take8(c);
    switch (k) {
    case 250: return 0;
    case 251: return -1;
    case 252: return DPA_PDHMM_MAX_LENGTH + 1;
    case 253: return INT32_MAX;
    case 254: return INT32_MIN;
    default: return 1 + k % 40;
    }
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
        o.gpu_disable = 1;
        o.cpu_disable = disable[which];
        if (dpa_context_create(&o, &ctx[which]) != DPA_OK) abort();
    }
    return ctx[which];
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    enum { MAXN = 9, BUF = 160 };
    cursor c = { data, size };
    uint8_t hb[BUF], pd[BUF], rb[BUF], q[4][BUF];
    const char *const alphabets[5] = { "ACGT", "ACgtN", "AAAC", "ACGTN", "ACGR" };
    const uint8_t hk = take8(&c), rk = take8(&c);
    const char *ha = alphabets[hk % 4], *ra = alphabets[rk == 7 ? 4 : rk % 4];
    const size_t hn = strlen(ha), rn = strlen(ra);
    for (int i = 0; i < BUF; i++) {
        hb[i] = (uint8_t)ha[take8(&c) % hn];
        rb[i] = (uint8_t)ra[take8(&c) % rn];
        pd[i] = take8(&c) < 160 ? 0 : take8(&c);
    }
    const uint8_t qk = take8(&c);
    for (int k = 0; k < 4; k++)
        for (int i = 0; i < BUF; i++) {
            const uint8_t v = take8(&c);
            q[k][i] = qk == 255 && v > 240 ? v : v % 94;
        }
    const int32_t n = take8(&c) % (MAXN + 2) - (take8(&c) == 255); /* -1..10 pairs */
    int64_t ho[MAXN + 1], ro[MAXN + 1];
    int32_t hl[MAXN + 1], rl[MAXN + 1];
    for (int32_t i = 0; i < n; i++) {
        hl[i] = take_len(&c);
        rl[i] = take_len(&c);
        const int64_t hs = take8(&c) % 100, rs = take8(&c) % 100;
        ho[i] = hl[i] > 0 && hs + hl[i] <= BUF ? hs : -1;
        ro[i] = rl[i] > 0 && rs + rl[i] <= BUF ? rs : -1;
    }
    const uint8_t be = take8(&c);
    dpa_pdhmm_params p;
    dpa_pdhmm_params_init(&p);
    p.backend = be < 200 ? -1 : be < 250 ? (be % 4) : (int32_t)(int8_t)be;
    const uint8_t rk2 = take8(&c);
    p.rows = rk2 < 120 ? 0 : rk2 < 250 ? 1 : (int32_t)(int8_t)rk2;
    const uint8_t rs2 = take8(&c);
    p.result = rs2 < 120 ? 0 : rs2 < 250 ? 1 : (int32_t)(int8_t)rs2;
    const int kernel = take8(&c) % 3;
    const int64_t out_len = n > 0 ? n - (take8(&c) == 17) : 0;

    const dpa_pdhmm_batch b = { n, hb, pd, ho, hl, rb, q[0], q[1], q[2], q[3], ro, rl };
    const dpa_status valid = dpa_pdhmm_validate(&b);
    if (valid != DPA_OK && dpa_last_error()[0] == '\0') abort();
    double out[MAXN + 1], ref[MAXN + 1];
    for (int i = 0; i <= MAXN; i++) out[i] = 4242.0;
    dpa_pdhmm_stats stats;
    const dpa_status st = dpa_pdhmm_compute(context(kernel), &b, &p, out, out_len, &stats);
    const int args_ok = valid == DPA_OK && (p.rows == 0 || p.rows == 1) &&
                        (p.result == 0 || p.result == 1) && p.backend >= -1 &&
                        p.backend <= DPA_BACKEND_HYBRID && p.backend != DPA_BACKEND_GPU &&
                        out_len >= (n > 0 ? n : 0);
    /* the scalar reference decides the one error validation cannot foresee: a result that is
     * not a log10 probability (NaN or above 0, from gap qualities whose probabilities sum
     * past 1) fails the call, as GATK throws */
    int32_t pairs[MAXN + 1];
    int proper = 1;
    if (args_ok && n > 0) {
        for (int32_t i = 0; i < n; i++) pairs[i] = i;
        if (dpa_pdhmm_compute_scalar(&b, pairs, n, p.rows, ref) != DPA_OK) abort();
        for (int32_t i = 0; i < n; i++) {
            const double sum = ref[i];
            ref[i] = p.result == DPA_PDHMM_RESULT_SCALED_SUM ? sum : dpa_pdhmm_log10_of(sum);
            const double r = dpa_pdhmm_log10_of(sum);
            if (isnan(r) || r > 0.0) proper = 0;
        }
    }
    const int should = args_ok && proper;
    if ((st == DPA_OK) != should) abort();
    if (st != DPA_OK) {
        if (dpa_last_error()[0] == '\0') abort();
        for (int i = 0; i <= MAXN; i++)
            if (out[i] != 4242.0) abort();
        return 0;
    }
    if (n <= 0) return 0;
    if (stats.pairs != n) abort();
    for (int32_t i = 0; i < n; i++) {
        if (memcmp(&out[i], &ref[i], sizeof(double)) != 0) abort();
        if (isnan(out[i]) || out[i] == INFINITY) abort();
    }
    return 0;
}
