/*
 * fuzz_distance_batch.c — libFuzzer target for genotype-distance validation and the batch path
 * (dpa_distance_validate, dpa_distance_pair_count, dpa_distance_counts on the CPU).
 *
 * The input bytes choose the shape (samples mostly 1..40, sometimes 0, negative or above the
 * limit; variants 0..200, sometimes negative or above the limit), row_bytes (right, or one off),
 * the genotype bytes (padding bits included), the use flags (NULL, 0/1, sometimes 2), the
 * tile (NULL = triangle, in range, empty, or out of range), the per-call backend and block,
 * out_len (exact or one short) and the kernel (AVX-512, AVX2 or scalar context; an ISA the
 * machine lacks falls back). The genotype buffer holds what the claimed shape reads (but for
 * a sample count above the limit), so memory safety does not depend on validation being right.
 *
 * Properties: no crash or sanitizer report; compute returns OK exactly when validation passes,
 * out_len suffices and the backend is not GPU (no GPU kernel exists), and otherwise an error
 * with a message; an OK call writes, for every pair of the layout, the reference's counts
 * (dpa_dist_ref_pair, variant by variant from the codes), and the stats count the pairs and
 * the used variants.
 *
 * Build: cmake -DDPA_FUZZ=ON with clang (see .ci/run); run: fuzz_distance_batch corpus/distance_batch
 */
#include <stdlib.h>
#include <string.h>

#include "cpu/distance/distance.h"
#include "dpaccel.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

typedef struct cursor { const uint8_t *p; size_t n; } cursor;

static uint8_t take8(cursor *c)
{
    if (!c->n) return 0;
    c->n--;
    return *c->p++;
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
    enum { MAXN = 40, MAXM = 200 };
    cursor c = { data, size };
    const uint8_t ns = take8(&c);
    const int32_t n = ns < 240 ? 1 + ns % MAXN : ns < 248 ? 0 : ns < 252 ? -1
                      : DPA_DISTANCE_MAX_SAMPLES + 1;
    const uint8_t ms = take8(&c);
    const int64_t m = ms < 250 ? (int64_t)(ms + 256 * (take8(&c) & 1)) % (MAXM + 1)
                      : ms < 253 ? -1 : DPA_DISTANCE_MAX_VARIANTS + 1;
    const int64_t right = n > 0 ? ((int64_t)n + 3) / 4 : 0;
    const uint8_t rs = take8(&c);
    const int64_t row_bytes = rs < 245 ? right : rs < 250 ? right + 1 : right - 1;
    /* what the claimed shape reads, whichever way validation decides */
    const int64_t rows = m > 0 && m <= MAXM ? m : 0;
    /* a sample count above the limit (2^24 + 1) is the one shape whose rows are not
     * allocated: there, validation's num_samples check is what the harness relies on */
    const int64_t width = n > MAXN ? 0 : row_bytes > right ? row_bytes : right;
    const size_t gbytes = (size_t)(rows * (width > 0 ? width : 0)) + 1;
    uint8_t *g = malloc(gbytes), *use = malloc((size_t)rows + 1);
    if (!g || !use) abort();
    const uint8_t style = take8(&c);
    for (size_t k = 0; k < gbytes; k++) {
        const uint8_t x = take8(&c);
        g[k] = style & 1 ? x : (uint8_t)(x * 0x55 ^ k); /* raw bytes or cheap variety */
    }
    const uint8_t us = take8(&c);
    for (int64_t v = 0; v < rows; v++) use[v] = (uint8_t)(take8(&c) % 2 + (us == 7 && v == rows / 2));
    const uint8_t *use_arg = us < 100 ? NULL : use;

    dpa_distance_tile tile;
    const uint8_t ts = take8(&c);
    const dpa_distance_tile *tp = NULL;
    if (ts >= 128) {
        const int32_t lim = n > 0 ? n : 1;
        tile.row0 = take8(&c) % (lim + 1);
        tile.row1 = tile.row0 + take8(&c) % (lim + 1 - tile.row0);
        tile.col0 = take8(&c) % (lim + 1);
        tile.col1 = tile.col0 + take8(&c) % (lim + 1 - tile.col0);
        if (ts >= 250) tile.row1 = lim + 1;     /* out of range */
        if (ts == 249) tile.col0 = tile.col1 + 1; /* reversed */
        tp = &tile;
    }
    dpa_distance_params p;
    dpa_distance_params_init(&p);
    const uint8_t be = take8(&c);
    p.backend = be < 200 ? -1 : be < 250 ? be % 4 : (int32_t)(int8_t)be;
    const uint8_t bl = take8(&c);
    p.block = bl < 128 ? 0 : bl < 250 ? 8 + bl % 64 : bl == 250 ? 7 : 5000;
    const int kernel = take8(&c) % 3;
    const int short_by_one = take8(&c) == 9;

    const dpa_genotype_batch b = { n, m, row_bytes, g, use_arg };
    const dpa_status valid = dpa_distance_validate(&b, tp);
    if (valid != DPA_OK && dpa_last_error()[0] == '\0') abort();
    int64_t pairs = 0;
    if ((dpa_distance_pair_count(&b, tp, &pairs) == DPA_OK) != (valid == DPA_OK)) abort();
    int64_t len = pairs * DPA_DISTANCE_COUNTS - (short_by_one && pairs > 0);
    uint32_t *out = malloc(sizeof *out * (size_t)(pairs * DPA_DISTANCE_COUNTS + 1));
    if (!out) abort();
    dpa_distance_stats st;
    const dpa_status s = dpa_distance_counts(context(kernel), &b, tp, &p, out, len, &st);
    const int params_ok = p.backend >= -1 && p.backend <= 3 &&
                          (p.block == 0 || (p.block >= 8 && p.block <= 4096));
    const int should = valid == DPA_OK && params_ok && !(short_by_one && pairs > 0) &&
                       p.backend != DPA_BACKEND_GPU;
    if ((s == DPA_OK) != should) abort();
    if (s != DPA_OK) {
        if (dpa_last_error()[0] == '\0') abort();
    } else {
        if (st.pairs != pairs) abort();
        int64_t used = 0;
        for (int64_t v = 0; v < m; v++) used += use_arg ? use_arg[v] : 1;
        if (st.variants_used != used || st.variants_skipped != m - used) abort();
        int64_t at = 0;
        const int32_t r0 = tp ? tp->row0 : 0, r1 = tp ? tp->row1 : n;
        for (int32_t r = r0; r < r1; r++)
            for (int32_t col = tp ? tp->col0 : r + 1; col < (tp ? tp->col1 : n); col++, at += 7) {
                uint32_t want[DPA_DISTANCE_COUNTS];
                dpa_dist_ref_pair(&b, r, col, want);
                if (memcmp(want, out + at, sizeof want)) abort();
            }
        if (at != pairs * DPA_DISTANCE_COUNTS) abort();
    }
    free(out);
    free(g);
    free(use);
    return 0;
}
