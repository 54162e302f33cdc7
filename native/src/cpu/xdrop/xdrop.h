/*
 * xdrop.h — internal X-drop operations shared by the scalar reference, the SIMD kernels and
 * the engine (engine/xdrop_workload.c). Semantics: SeqAn 2.x gapped X-drop, docs/xdrop.md.
 *
 * Contract of every kernel (dpa_xdrop_kernel_fn):
 *   - the batch and parameters have passed dpa_xdrop_validate(); kernels never see bad input;
 *   - for each of the n pair indices writes that pair's seven outputs and adds the cells it
 *     swept (sum over anti-diagonals of maxCol - minCol, SeqAn's inner loop) to *cells;
 *   - results are identical for every kernel;
 *   - Errors: DPA_ERR_OUT_OF_MEMORY when scratch cannot be allocated (output partly written).
 */
#ifndef DPA_CPU_XDROP_H
#define DPA_CPU_XDROP_H

#include <stdint.h>

#include "dpaccel.h"

/* SeqAn marks a cell below best - X with INT_MIN - gap. Any sentinel below every defined
 * cell works, provided nothing derived from it can pass the X test: a defined cell is at
 * least best - X >= -2^30, and this value plus any score in [-1000, 1000] stays below that
 * and above INT32_MIN (no overflow, where SeqAn's own sentinel overflows when mismatch <
 * gap; docs/xdrop.md). */
#define DPA_XDROP_UNDEF (-(1 << 30) - 4096)
/* Slack before and after each buffer, so vector loads and stores of lanes past the band
 * stay inside the allocation (their values are never used). */
#define DPA_XDROP_PAD 64

/* Dna5 code of a byte: A C G T = 0..3 in either case, U = T, anything else N = 4. */
static inline uint8_t dpa_xdrop_code(uint8_t b)
{
    switch (b | 0x20) {
    case 'a': return 0;
    case 'c': return 1;
    case 'g': return 2;
    case 't': case 'u': return 3;
    default: return 4;
    }
}

/* One side's sequence as the extension sees it: element i is the code of raw[i * step],
 * complemented when comp (the reverse strand's target). */
typedef struct dpa_xdrop_seq {
    const uint8_t *raw;
    int32_t len;
    int32_t step;
    int32_t comp;
} dpa_xdrop_seq;

/* A kernel's scratch, reused across pairs and grown as needed. */
typedef struct dpa_xdrop_scratch {
    int32_t *diag;       /* three anti-diagonals, each stride int32 */
    int64_t stride;
    uint8_t *qc, *tc;    /* the two sides' codes, read lazily, DPA_XDROP_PAD slack around */
    int64_t codes_cap;
} dpa_xdrop_scratch;

/* xdrop_validate.c. dpa_xdrop_validate = validate_shape (parameters, pointers, every
 * pair's lengths, offsets, seed and strand) + the letters of every sequence. The engine
 * runs the letters itself, on its threads, over ranges of pairs: first_bad_letters returns
 * the first pair in [first, end) with a non-letter byte (-1 if none; a sequence the pair
 * before also used is taken as scanned, so ranges together scan what one serial pass
 * scans), letters_error sets the message for that pair. */
dpa_status dpa_xdrop_validate_shape(const dpa_xdrop_batch *b, const dpa_xdrop_params *p);
/* Whether pair i's query (target) differs from pair i - 1's: only those are scanned. */
static inline int dpa_xdrop_new_query(const dpa_xdrop_batch *b, int32_t i)
{
    return i == 0 || b->query_offsets[i] != b->query_offsets[i - 1] ||
           b->query_lengths[i] != b->query_lengths[i - 1];
}
static inline int dpa_xdrop_new_target(const dpa_xdrop_batch *b, int32_t i)
{
    return i == 0 || b->target_offsets[i] != b->target_offsets[i - 1] ||
           b->target_lengths[i] != b->target_lengths[i - 1];
}
int32_t dpa_xdrop_first_bad_letters(const dpa_xdrop_batch *b, int32_t first, int32_t end);
dpa_status dpa_xdrop_letters_error(const dpa_xdrop_batch *b, int32_t i);
int dpa_xdrop_all_letters(const uint8_t *s, int32_t len);

/* Makes room for a pair with these lengths. Errors: DPA_ERR_OUT_OF_MEMORY. */
dpa_status dpa_xdrop_scratch_reserve(dpa_xdrop_scratch *s, int32_t qlen, int32_t tlen);
void dpa_xdrop_scratch_free(dpa_xdrop_scratch *s);

/* One direction of SeqAn's _extendSeedGappedXDropOneDirection on q (vertical) and t
 * (horizontal), both read from their start: returns the side's score and sets *qext / *text
 * to how far the seed end moves along each (0 for an empty side). Adds the swept cells to
 * *cells. */
typedef int32_t (*dpa_xdrop_side_fn)(const dpa_xdrop_seq *q, const dpa_xdrop_seq *t,
                                     const dpa_xdrop_params *p, dpa_xdrop_scratch *s,
                                     int32_t *qext, int32_t *text, int64_t *cells);

int32_t dpa_xdrop_side_scalar(const dpa_xdrop_seq *q, const dpa_xdrop_seq *t,
                              const dpa_xdrop_params *p, dpa_xdrop_scratch *s, int32_t *qext,
                              int32_t *text, int64_t *cells);

typedef dpa_status (*dpa_xdrop_kernel_fn)(const dpa_xdrop_batch *batch,
                                          const dpa_xdrop_params *params,
                                          const int32_t *pairs, int64_t n,
                                          const dpa_xdrop_output *out, int64_t *cells);

typedef struct dpa_xdrop_ops {
    dpa_isa isa;
    const char *name;
    dpa_xdrop_kernel_fn compute;
} dpa_xdrop_ops;

/* The batch loop every kernel shares (xdrop_pairs.c): seed score, both sides with side,
 * outputs. */
dpa_status dpa_xdrop_compute_pairs(dpa_xdrop_side_fn side, const dpa_xdrop_batch *batch,
                                   const dpa_xdrop_params *params, const int32_t *pairs,
                                   int64_t n, const dpa_xdrop_output *out, int64_t *cells);

dpa_status dpa_xdrop_compute_scalar(const dpa_xdrop_batch *batch, const dpa_xdrop_params *params,
                                    const int32_t *pairs, int64_t n, const dpa_xdrop_output *out,
                                    int64_t *cells);

/* Checks the parameters alone. */
dpa_status dpa_xdrop_check_params(const dpa_xdrop_params *params);

#ifdef DPA_HAVE_AVX2
/* The AVX2 band (dpa_xdrop_band_fn, xdrop_sweep.h); the AVX-512 kernel uses it for narrow
 * bands. */
int32_t dpa_xdrop_band_avx2(const int32_t *a1, const int32_t *a2, int32_t *a3, const uint8_t *qc,
                            const uint8_t *tc, int32_t lo, int32_t hi, int32_t d, int32_t floor,
                            const dpa_xdrop_params *p);
int32_t dpa_xdrop_side_avx2(const dpa_xdrop_seq *q, const dpa_xdrop_seq *t,
                            const dpa_xdrop_params *p, dpa_xdrop_scratch *s, int32_t *qext,
                            int32_t *text, int64_t *cells);
dpa_status dpa_xdrop_compute_avx2(const dpa_xdrop_batch *batch, const dpa_xdrop_params *params,
                                  const int32_t *pairs, int64_t n, const dpa_xdrop_output *out,
                                  int64_t *cells);
#endif
#ifdef DPA_HAVE_AVX512
int32_t dpa_xdrop_side_avx512(const dpa_xdrop_seq *q, const dpa_xdrop_seq *t,
                              const dpa_xdrop_params *p, dpa_xdrop_scratch *s, int32_t *qext,
                              int32_t *text, int64_t *cells);
dpa_status dpa_xdrop_compute_avx512(const dpa_xdrop_batch *batch,
                                    const dpa_xdrop_params *params, const int32_t *pairs,
                                    int64_t n, const dpa_xdrop_output *out, int64_t *cells);
#endif

/* Fastest kernel whose ISA bit is set in allowed_isa_mask (bit i = dpa_isa i). */
static inline void dpa_xdrop_select(unsigned allowed_isa_mask, dpa_xdrop_ops *out)
{
#ifdef DPA_HAVE_AVX512
    if (allowed_isa_mask & (1u << DPA_ISA_AVX512)) {
        out->isa = DPA_ISA_AVX512;
        out->name = "avx512";
        out->compute = dpa_xdrop_compute_avx512;
        return;
    }
#endif
#ifdef DPA_HAVE_AVX2
    if (allowed_isa_mask & (1u << DPA_ISA_AVX2)) {
        out->isa = DPA_ISA_AVX2;
        out->name = "avx2";
        out->compute = dpa_xdrop_compute_avx2;
        return;
    }
#endif
    (void)allowed_isa_mask;
    out->isa = DPA_ISA_SCALAR;
    out->name = "scalar";
    out->compute = dpa_xdrop_compute_scalar;
}

#endif
