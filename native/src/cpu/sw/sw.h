/*
 * sw.h — internal Smith-Waterman operations shared by the scalar reference, future SIMD /
 * CUDA kernels and the engine (engine/sw_run.c). See docs/sw.md for the recurrence, the
 * tie-breaking and the overhang rules, all taken from GATK 4.6's SmithWatermanJavaAligner.
 *
 * Contract of every kernel (dpa_sw_kernel_fn):
 *   - the batch and parameters have passed dpa_sw_validate(); kernels never see bad input;
 *   - for each of the n pair indices, writes the CIGAR text of that pair at
 *     out->cigars + out->slots[pair] (at most dpa_sw_cigar_max() bytes), its length in
 *     out->cigar_lengths[pair] and the alignment offset in out->alignment_offsets[pair];
 *   - results are identical for every kernel (byte-identical CIGARs, no tolerance);
 *   - Errors: DPA_ERR_OUT_OF_MEMORY when scratch cannot be allocated (the output is then
 *     partly written); nothing else for validated input.
 */
#ifndef DPA_CPU_SW_H
#define DPA_CPU_SW_H

#include <stdint.h>

#include "dpaccel.h"

/* GATK's MATRIX_MIN_CUTOFF: no cell of the score matrix goes below it. */
#define DPA_SW_MATRIX_MIN_CUTOFF (-100000000)
/* GATK's initial "best gap" value, Integer.MIN_VALUE / 2. */
#define DPA_SW_LOW_INIT (INT32_MIN / 2)

/* Traceback byte of one cell: the step GATK's btrack records, plus whether the best
 * horizontal / vertical gap ending in this cell was opened here (length 1). The gap
 * lengths GATK stores are recovered from these flags during the traceback. */
enum {
    DPA_SW_TB_DIAG = 0,
    DPA_SW_TB_RIGHT = 1, /* insertion: horizontal step, GATK btrack < 0 */
    DPA_SW_TB_DOWN = 2,  /* deletion: vertical step, GATK btrack > 0    */
    DPA_SW_TB_DIR_MASK = 3,
    DPA_SW_TB_H_OPEN = 4,
    DPA_SW_TB_V_OPEN = 8
};

/* Traceback layouts. A layout l in 0..4 is bytes (the DPA_SW_TB_* values above) in row strips
 * of height 2^l: strip (i-1) >> l holds its rows skewed so that one anti-diagonal step of the
 * strip is 2^l consecutive bytes, byte (c + k) * 2^l + k of the strip for row offset k and
 * column c = j - 1 (what the AVX2 fill writes, sw_simd.h). l = 0 is plain row-major,
 * (i - 1) * m + (j - 1) (the scalar fill). DPA_SW_TB_PLANES16 is the same 16-row strip walk
 * stored as four 16-bit planes per step (8 bytes per 16 cells, what the AVX-512 fill writes
 * straight from its compare masks): not-diagonal, down, H_OPEN, V_OPEN, bit k = row offset k;
 * it decodes to the same byte. DPA_SW_TB_PLANES16X is that walk as the AVX2 16-bit fill
 * (sw_avx2_rel16.c) stores it: vpacksswb + vpmovmskb of two word masks interleave them by
 * 128-bit half, so the 8 bytes of a step are nd 0-7, dn 0-7, nd 8-15, dn 8-15, ho 0-7, vo 0-7,
 * ho 8-15, vo 8-15 (dn is not masked by nd; the decoder tests nd first), and rows 8-15 of a
 * strip run one step behind (cell (i, j) of row offset k is at step j - 1 + k + (k >= 8), m + 16
 * steps per strip). */
#define DPA_SW_TB_PLANES16 0x14
#define DPA_SW_TB_PLANES16X 0x15
#define DPA_SW_TB_AT(m, l, i, j)                                                             \
    ((int64_t)(((i) - 1) >> (l)) * ((int64_t)((m) + (1 << (l)) - 1) << (l)) +               \
     ((int64_t)((j) - 1 + (((i) - 1) & ((1 << (l)) - 1))) << (l)) + (((i) - 1) & ((1 << (l)) - 1)))

/* Traceback byte of cell (i, j) (1-based) of a pair with alternate length m in layout l. */
static inline uint8_t dpa_sw_tb_get(const uint8_t *tb, int32_t m, int l, int32_t i, int32_t j)
{
    if (l != DPA_SW_TB_PLANES16 && l != DPA_SW_TB_PLANES16X) return tb[DPA_SW_TB_AT(m, l, i, j)];
    const int32_t r = i - 1, k = r & 15;
    const int x = l == DPA_SW_TB_PLANES16X, h = k >> 3;
    const uint8_t *w = tb + ((int64_t)(r >> 4) * (m + 15 + x) + (j - 1 + k + (x & h))) * 8;
    /* byte of each plane for lane k: PLANES16 plane q at 2q + k/8; PLANES16X at the order
     * documented above */
    const unsigned nd = (unsigned)(w[x ? 2 * h : h] >> (k & 7)) & 1u;
    const unsigned dn = (unsigned)(w[x ? 2 * h + 1 : 2 + h] >> (k & 7)) & 1u;
    const unsigned ho = (unsigned)(w[x ? 4 + 2 * h : 4 + h] >> (k & 7)) & 1u;
    const unsigned vo = (unsigned)(w[x ? 5 + 2 * h : 6 + h] >> (k & 7)) & 1u;
    return (uint8_t)((nd ? (dn ? DPA_SW_TB_DOWN : DPA_SW_TB_RIGHT) : DPA_SW_TB_DIAG) |
                     (ho ? DPA_SW_TB_H_OPEN : 0) | (vo ? DPA_SW_TB_V_OPEN : 0));
}

typedef struct dpa_sw_out {
    char *cigars;             /* the caller's buffer */
    const int64_t *slots;     /* per pair: where its CIGAR is written before packing */
    int32_t *cigar_lengths;
    int32_t *alignment_offsets;
} dpa_sw_out;

typedef dpa_status (*dpa_sw_kernel_fn)(const dpa_sw_batch *batch, const dpa_sw_params *params,
                                       const int32_t *pairs, int64_t n, const dpa_sw_out *out,
                                       int64_t *exact_matches);

typedef struct dpa_sw_ops {
    dpa_isa isa;
    const char *name;
    dpa_sw_kernel_fn compute;
} dpa_sw_ops;

/* Upper bound of the CIGAR text of one pair: element lengths sum to at most
 * ref_len + alt_len and an element of length k takes digits(k) + 1 <= 2k bytes. */
static inline int64_t dpa_sw_cigar_max(int32_t ref_len, int32_t alt_len)
{
    return 2 * ((int64_t)ref_len + (int64_t)alt_len);
}

/* Scratch of one pair, reused across pairs by a kernel (grown as needed). */
typedef struct dpa_sw_scratch {
    uint8_t *tb;       /* ref_len * alt_len traceback bytes */
    int64_t tb_cap;
    int32_t *ints;     /* score rows, best vertical gaps, last column */
    int64_t ints_cap;
    int32_t *elems;    /* CIGAR elements (length << 2 | op), in reverse order */
    int64_t elems_cap;
} dpa_sw_scratch;

void dpa_sw_scratch_free(dpa_sw_scratch *s);

/* One pair with GATK's semantics (exact-substring shortcut included). Writes at most
 * dpa_sw_cigar_max(ref_len, alt_len) bytes at cigar. *exact is set to 1 when the shortcut
 * answered. Errors: DPA_ERR_OUT_OF_MEMORY. */
dpa_status dpa_sw_align_scalar(const uint8_t *ref, int32_t ref_len, const uint8_t *alt,
                               int32_t alt_len, const dpa_sw_params *params,
                               dpa_sw_scratch *scratch, char *cigar, int32_t *cigar_len,
                               int32_t *alignment_offset, int *exact);

/* The pieces of dpa_sw_align_scalar that a SIMD kernel shares (it replaces only the fill):
 * GATK's exact-substring shortcut (SOFTCLIP / IGNORE; returns 1 and writes the result when
 * it answers), and everything after the fill: start cell, traceback, CIGAR text. tb is in the
 * layout l (dpa_sw_tb_get), bottom[1..m] is row n, lastcol[1..n] is
 * column m, elems has room for n + m + 3 int32. */
int dpa_sw_exact_shortcut(const uint8_t *ref, int32_t ref_len, const uint8_t *alt,
                          int32_t alt_len, const dpa_sw_params *params, char *cigar,
                          int32_t *cigar_len, int32_t *alignment_offset);
void dpa_sw_finish(const uint8_t *tb, int l, int32_t ref_len, int32_t alt_len,
                   const int32_t *bottom, const int32_t *lastcol, const dpa_sw_params *params,
                   int32_t *elems, char *cigar, int32_t *cigar_len, int32_t *alignment_offset);

/* One pair's aligner: dpa_sw_align_scalar or an ISA's dpa_sw_align_<isa>. */
typedef dpa_status (*dpa_sw_align_fn)(const uint8_t *ref, int32_t ref_len, const uint8_t *alt,
                                      int32_t alt_len, const dpa_sw_params *params,
                                      dpa_sw_scratch *scratch, char *cigar, int32_t *cigar_len,
                                      int32_t *alignment_offset, int *exact);

/* The batch loop every kernel shares: aligns pairs[0..n) with align, one scratch reused. */
dpa_status dpa_sw_compute_pairs(dpa_sw_align_fn align, const dpa_sw_batch *batch,
                                const dpa_sw_params *params, const int32_t *pairs, int64_t n,
                                const dpa_sw_out *out, int64_t *exact_matches);

dpa_status dpa_sw_compute_scalar(const dpa_sw_batch *batch, const dpa_sw_params *params,
                                 const int32_t *pairs, int64_t n, const dpa_sw_out *out,
                                 int64_t *exact_matches);

/* Checks one pair's lengths and the score bound; index names the pair in messages. */
dpa_status dpa_sw_check_pair(int32_t index, int32_t ref_len, int32_t alt_len,
                             const dpa_sw_params *params);
dpa_status dpa_sw_check_params(const dpa_sw_params *params);

/* SIMD kernels (sw_avx2.c, sw_avx512.c; anti-diagonal fill in row strips, sw_simd.h):
 * same contract as dpa_sw_compute_scalar, byte-identical results. dpa_sw_align_<isa> is
 * one pair, with the signature of dpa_sw_align_scalar. */
#ifdef DPA_HAVE_AVX2
dpa_status dpa_sw_compute_avx2(const dpa_sw_batch *batch, const dpa_sw_params *params,
                               const int32_t *pairs, int64_t n, const dpa_sw_out *out,
                               int64_t *exact_matches);
dpa_status dpa_sw_align_avx2(const uint8_t *ref, int32_t ref_len, const uint8_t *alt,
                             int32_t alt_len, const dpa_sw_params *params,
                             dpa_sw_scratch *scratch, char *cigar, int32_t *cigar_len,
                             int32_t *alignment_offset, int *exact);
/* The two AVX2 fills dpa_sw_align_avx2 chooses between per pair (exported so the tests run
 * each on every shape): 8 int32 lanes (sw_simd.h, any validated pair) and 16 int16 lanes
 * relative to the strip's top row (sw_avx2_rel16.c; only where dpa_sw_rel16_fits() holds,
 * sw_rel16.h, which the caller must check). */
dpa_status dpa_sw_align_avx2_i32(const uint8_t *ref, int32_t ref_len, const uint8_t *alt,
                                 int32_t alt_len, const dpa_sw_params *params,
                                 dpa_sw_scratch *scratch, char *cigar, int32_t *cigar_len,
                                 int32_t *alignment_offset, int *exact);
dpa_status dpa_sw_align_avx2_rel16(const uint8_t *ref, int32_t ref_len, const uint8_t *alt,
                                   int32_t alt_len, const dpa_sw_params *params,
                                   dpa_sw_scratch *scratch, char *cigar, int32_t *cigar_len,
                                   int32_t *alignment_offset, int *exact);
#endif
#ifdef DPA_HAVE_AVX512
dpa_status dpa_sw_compute_avx512(const dpa_sw_batch *batch, const dpa_sw_params *params,
                                 const int32_t *pairs, int64_t n, const dpa_sw_out *out,
                                 int64_t *exact_matches);
dpa_status dpa_sw_align_avx512(const uint8_t *ref, int32_t ref_len, const uint8_t *alt,
                               int32_t alt_len, const dpa_sw_params *params,
                               dpa_sw_scratch *scratch, char *cigar, int32_t *cigar_len,
                               int32_t *alignment_offset, int *exact);
/* The int32 AVX-512 fill on any validated pair (dpa_sw_align_avx512 sends the pairs that fit
 * int16 to dpa_sw_align_avx2_rel16, faster on the CPUs measured; exported for the tests). */
dpa_status dpa_sw_align_avx512_i32(const uint8_t *ref, int32_t ref_len, const uint8_t *alt,
                                   int32_t alt_len, const dpa_sw_params *params,
                                   dpa_sw_scratch *scratch, char *cigar, int32_t *cigar_len,
                                   int32_t *alignment_offset, int *exact);
#endif

/* Fastest kernel whose ISA bit is set in allowed_isa_mask (bit i = dpa_isa i), as
 * dpa_phmm_select does for PairHMM. */
static inline void dpa_sw_select(unsigned allowed_isa_mask, dpa_sw_ops *out)
{
#ifdef DPA_HAVE_AVX512
    if (allowed_isa_mask & (1u << DPA_ISA_AVX512)) {
        out->isa = DPA_ISA_AVX512;
        out->name = "avx512";
        out->compute = dpa_sw_compute_avx512;
        return;
    }
#endif
#ifdef DPA_HAVE_AVX2
    if (allowed_isa_mask & (1u << DPA_ISA_AVX2)) {
        out->isa = DPA_ISA_AVX2;
        out->name = "avx2";
        out->compute = dpa_sw_compute_avx2;
        return;
    }
#endif
    (void)allowed_isa_mask;
    out->isa = DPA_ISA_SCALAR;
    out->name = "scalar";
    out->compute = dpa_sw_compute_scalar;
}

#endif
