/*
 * papara.h — PaPaRa 2 scoring inside the core (docs/papara.md): the scalar reference, the
 * inter-task AVX2 / AVX-512 kernels (one profile per int16 lane) and their selector.
 *
 * A kernel scores reads against one block of profiles. Blocks are prepared once per call
 * (dpa_papara_block): site-major, lane-interleaved costs, the tail padded with copies of
 * the block's last profile.
 */
#ifndef DPA_CPU_PAPARA_H
#define DPA_CPU_PAPARA_H

#include <stdint.h>

#include "dpaccel.h"

/* The scalar reference: one read against one profile, int64 cells (no overflow for any
 * validated input). scratch holds 2 x num_sites int64. */
int32_t dpa_papara_score_ref(const uint8_t *profile, int64_t num_sites, const uint8_t *read,
                             int32_t read_length, const dpa_papara_params *p,
                             int64_t *scratch);

/* The 2012 paper's model (papara_paper2012.c): fixed costs, min-plus, banded; the read
 * shorter than the profile. scratch holds num_sites - read_length + 2 int64. */
#define DPA_PAPER2012_MISMATCH 3
#define DPA_PAPER2012_CGAP 3
#define DPA_PAPER2012_OPEN 3
#define DPA_PAPER2012_EXTEND 1
int32_t dpa_papara_score_paper2012(const uint8_t *profile, int64_t num_sites, const uint8_t *read,
                                   int32_t read_length, int64_t *scratch);

/* The parameter rules of dpa_papara_validate (message names the field). */
dpa_status dpa_papara_check_params(const dpa_papara_params *p);

/* int16 lanes are exact while every cell stays inside [-32767, 32767]: papara2, |S| <=
 * max(|open|, |extend|, match, |match_cgap|) x (read_length + 2), plus the kernels' shift
 * (papara_simd.h) of at most |extend| x (read_length + DPA_PAPARA_COLB); paper2012, S <= 6 x
 * read_length (docs/papara.md derives both). */
int dpa_papara_fits_int16(int32_t read_length, const dpa_papara_params *p);

/* Vectors per site in a block's cost layout (pre): what read base A, C, G, T (mask bit 0-3)
 * adds on the diagonal (match where the state has it, plus match_cgap on a flagged site),
 * then the gap open and extend in the read (0 on a flagged site), all three in the shifted
 * basis of papara_simd.h: bonus - extend(i) - gap_extend, open(i) - extend(i), -extend(i). Under the paper2012 model
 * the same slots hold its costs: the diagonal cost of each base (0 where the state has it,
 * else the mismatch, plus CG on a flagged site), then open + extend and extend. */
#define DPA_PAPARA_PRE 6

typedef struct dpa_papara_block {
    int32_t first;       /* index of the block's first profile */
    int32_t lanes;       /* real profiles in the block (the rest are padding) */
    const int16_t *pre;  /* num_sites x DPA_PAPARA_PRE x W: the model's costs, per site */
} dpa_papara_block;

/* Lays out profiles [first, first + width) of batch (the tail past num_profiles repeats the
 * last profile) as pre for the costs p and its score model. */
void dpa_papara_lay_out_block(const dpa_papara_batch *batch, int32_t first, int32_t width,
                              const dpa_papara_params *p, int16_t *pre);

/* Scores read against the W profiles of blk; out[lane] for lane < W. scratch holds
 * dpa_papara_scratch_int16() int16 (the int32 kernels use the same bytes as W / 2 int32
 * lanes). The int16 kernels only for reads that pass dpa_papara_fits_int16. */
typedef void (*dpa_papara_block_fn)(const dpa_papara_block *blk, int64_t num_sites,
                                    const uint8_t *read, int32_t read_length,
                                    const dpa_papara_params *p, int16_t *scratch,
                                    int32_t *out);

/* Column block of the SIMD kernels (papara_simd.h) and their scratch size in int16. */
#define DPA_PAPARA_COLB 64
static inline int64_t dpa_papara_scratch_int16(int64_t num_sites, int32_t read_length,
                                               int32_t width)
{
    const int64_t b = num_sites < DPA_PAPARA_COLB ? num_sites : DPA_PAPARA_COLB;
    return 2 * (b + read_length) * (int64_t)width;
}

typedef struct dpa_papara_ops {
    dpa_isa isa;
    const char *name;
    int32_t width;              /* profiles per vector; 1 = scalar (no blocks) */
    dpa_papara_block_fn block;  /* NULL for scalar */
    dpa_papara_block_fn block2012; /* the paper2012 model; NULL for scalar */
    dpa_papara_block_fn block32; /* papara2 in int32 lanes, for reads beyond the int16 bound
                                    (any validated read); NULL for scalar */
    dpa_papara_block_fn block2012_32; /* the same for the paper2012 model */
} dpa_papara_ops;

#ifdef DPA_HAVE_AVX2
void dpa_papara_block_avx2(const dpa_papara_block *blk, int64_t num_sites,
                           const uint8_t *read, int32_t read_length,
                           const dpa_papara_params *p, int16_t *scratch, int32_t *out);
void dpa_papara_block_paper2012_avx2(const dpa_papara_block *blk, int64_t num_sites,
                                     const uint8_t *read, int32_t read_length,
                                     const dpa_papara_params *p, int16_t *scratch, int32_t *out);
void dpa_papara_block32_avx2(const dpa_papara_block *blk, int64_t num_sites,
                             const uint8_t *read, int32_t read_length,
                             const dpa_papara_params *p, int16_t *scratch, int32_t *out);
void dpa_papara_block2012_32_avx2(const dpa_papara_block *blk, int64_t num_sites,
                                  const uint8_t *read, int32_t read_length,
                                  const dpa_papara_params *p, int16_t *scratch, int32_t *out);
/* dpa_papara_traceback of `lanes` (1..8) reads at once, read k against profiles[k] (each
 * num_sites bytes): the same ops, counts and scores. The caller has validated the reads and
 * parameters as dpa_papara_traceback does; needs 8 x num_sites x (longest read) bytes. */
dpa_status dpa_papara_traceback8_avx2(const uint8_t *const profiles[8], int64_t num_sites,
                                      const uint8_t *const reads[8], const int32_t lengths[8],
                                      int32_t lanes, const dpa_papara_params *p,
                                      uint8_t *const ops[8], int64_t num_ops[8], int32_t scores[8]);
#endif
#ifdef DPA_HAVE_AVX512
void dpa_papara_block_avx512(const dpa_papara_block *blk, int64_t num_sites,
                             const uint8_t *read, int32_t read_length,
                             const dpa_papara_params *p, int16_t *scratch, int32_t *out);
void dpa_papara_block_paper2012_avx512(const dpa_papara_block *blk, int64_t num_sites,
                                       const uint8_t *read, int32_t read_length,
                                       const dpa_papara_params *p, int16_t *scratch, int32_t *out);
void dpa_papara_block32_avx512(const dpa_papara_block *blk, int64_t num_sites,
                               const uint8_t *read, int32_t read_length,
                               const dpa_papara_params *p, int16_t *scratch, int32_t *out);
void dpa_papara_block2012_32_avx512(const dpa_papara_block *blk, int64_t num_sites,
                                    const uint8_t *read, int32_t read_length,
                                    const dpa_papara_params *p, int16_t *scratch, int32_t *out);
#endif

/* The int32 kernels (papara_avx2.c, papara_avx512.c): half_fn scores `half` profiles (the
 * int32 lanes of one vector) of a block's int16 cost layout; a block is its two halves. */
static inline void dpa_papara_run_halves(dpa_papara_block_fn half_fn, int32_t half,
                                         const dpa_papara_block *blk, int64_t num_sites,
                                         const uint8_t *read, int32_t read_length,
                                         const dpa_papara_params *p, int16_t *scratch, int32_t *out)
{
    for (int32_t h = 0; h < 2; h++) {
        const dpa_papara_block b = { blk->first + h * half, blk->lanes, blk->pre + h * half };
        half_fn(&b, num_sites, read, read_length, p, scratch, out + h * half);
    }
}

/* Fastest kernel whose ISA bit is set in allowed_isa_mask (bit i = dpa_isa i). */
static inline void dpa_papara_select(unsigned allowed_isa_mask, dpa_papara_ops *out)
{
#ifdef DPA_HAVE_AVX512
    if (allowed_isa_mask & (1u << DPA_ISA_AVX512)) {
        *out = (dpa_papara_ops){ DPA_ISA_AVX512, "avx512", 32, dpa_papara_block_avx512,
                                  dpa_papara_block_paper2012_avx512, dpa_papara_block32_avx512,
                                  dpa_papara_block2012_32_avx512 };
        return;
    }
#endif
#ifdef DPA_HAVE_AVX2
    if (allowed_isa_mask & (1u << DPA_ISA_AVX2)) {
        *out = (dpa_papara_ops){ DPA_ISA_AVX2, "avx2", 16, dpa_papara_block_avx2,
                                  dpa_papara_block_paper2012_avx2, dpa_papara_block32_avx2,
                                  dpa_papara_block2012_32_avx2 };
        return;
    }
#endif
    (void)allowed_isa_mask;
    *out = (dpa_papara_ops){ DPA_ISA_SCALAR, "scalar", 1, 0, 0, 0, 0 };
}

#endif
