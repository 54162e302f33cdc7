/*
 * hmm_ssv_band.h — the SSV maximum as bands of diagonals held in registers, shared by
 * hmm_ssv_avx2.c and hmm_ssv_avx512.c (included once per ISA after they define SV,
 * SV_BMAX, SV_SUBS, SV_MAX, SV_SHIFT, SV_BEGIN and SV_FN).
 *
 * Why bands. The striped row (node k = q + zQ + 1 in segment q, lane z) has no dependence
 * inside a row: segment q of row i needs only segment q - 1 of row i - 1, and segment 0
 * needs segment Q - 1 moved up one lane. So a register that holds segment q on row i holds
 * segment q + 1 on row i + 1: it follows W diagonals down the whole target, and only when
 * it passes from segment Q - 1 to segment 0 (every Q rows) do its lanes move up one, with
 * the begin level entering lane 0. A row kept in memory costs a store and a load per
 * segment per residue (the old kernel, and the store-to-load latency on every row of a
 * model with few segments); here the row never leaves registers, and each step is one
 * profile load, one saturating subtract and one max. The diagonals of different registers
 * never meet, so the Q registers are run NB at a time over the whole target (a band), in the
 * fewest bands of at most SV_BMAX, all of one width. When NB does not divide Q the last band
 * overlaps the one before it: max is idempotent, so computing some diagonals twice leaves
 * xE unchanged. Every cell value equals the row
 * kernel's, so xE is the same byte.
 *
 * Row kinds. Register j of a band sits at segment c + j (mod Q) on a row, c being the first
 * register's segment. Rows with 1 <= c <= Q - NB move no register past segment Q - 1
 * ("plain" rows, a tight loop). The other NB rows of every Q have exactly one register,
 * jw = (Q - c) mod Q, that wraps; they come in the fixed order jw = NB - 1, ..., 0, so they
 * are written out once per jw with the wrap at a constant register. A model with
 * Q <= SV_BMAX is one band of NB = Q, all rows wrap rows.
 *
 * The registers are named variables, not an array, so the compiler keeps them in vector
 * registers; two max accumulators halve the max chain.
 */

#define SV_STEP(j, jw, acc)                                                      \
    if ((j) < NB) {                                                              \
        if ((j) == (jw)) R##j = SV_SHIFT(R##j);                                  \
        R##j = SV_SUBS(R##j, (j) < (jw) ? rc[(j) < (jw) ? (j) : 0] : r0[(j) < (jw) ? 0 : (j) - (jw)]); \
        acc = SV_MAX(acc, R##j);                                                 \
    }

#define SV_ROW(jw)                                                                             \
    SV_STEP(0, jw, xa) SV_STEP(1, jw, xb) SV_STEP(2, jw, xa) SV_STEP(3, jw, xb)                 \
    SV_STEP(4, jw, xa) SV_STEP(5, jw, xb) SV_STEP(6, jw, xa) SV_STEP(7, jw, xb)                 \
    SV_STEP(8, jw, xa) SV_STEP(9, jw, xb) SV_STEP(10, jw, xa) SV_STEP(11, jw, xb)               \
    SV_STEP(12, jw, xa) SV_STEP(13, jw, xb) SV_STEP(14, jw, xa) SV_STEP(15, jw, xb)

/* One wrap row at constant jw: rc addresses segments c + j (< Q) for j < jw, r0 segments
 * j - jw for j >= jw; c = Q - jw (c = 0 when jw = 0). */
#define SV_WRAP_ROW(jw)                                                                        \
    if ((jw) < NB) {                                                                           \
        if (i >= L) break;                                                                     \
        const SV *r0 = sb + (size_t)dsq[i] * Q, *rc = r0 + Q - (jw);                            \
        SV_ROW(jw)                                                                             \
        i++;                                                                                   \
    }

/* Rows whose first register sits at segments c .. Q - NB: no register wraps. */
#define SV_PLAIN_ROWS(c)                                                                       \
    do {                                                                                       \
        int32_t e = i + (Q - NB - (c) + 1);                                                    \
        if (e > L) e = L;                                                                      \
        for (const SV *base = sb + (c); i < e; i++, base++) {                                  \
            const SV *rc = base + (size_t)dsq[i] * Q, *r0 = rc;                                \
            (void)r0;                                                                          \
            SV_ROW(SV_BMAX)                                                                    \
        }                                                                                      \
    } while (0)

static inline __attribute__((always_inline)) SV SV_FN(band)(const SV *sb, int Q, int s0, const uint8_t *dsq,
                                                            int32_t L, SV xE, const int NB) {
    SV R0, R1, R2, R3, R4, R5, R6, R7, R8, R9, R10, R11, R12, R13, R14, R15;
    R0 = R1 = R2 = R3 = R4 = R5 = R6 = R7 = R8 = R9 = R10 = R11 = R12 = R13 = R14 = R15 = SV_BEGIN;
    SV xa = xE, xb = xE;
    int32_t i = 0;
    /* Bring the band to the top of its wrap block (first register at segment Q - NB + 1), so
     * the main loop has one entry: GCC then keeps each register in place instead of copying
     * it at every merge of a switch that could enter the block anywhere. The bands start at
     * s0 = 0 or at a plain-row segment. At s0 = 0 the first row's wrap (register 0) moves the
     * begin level into itself, a no-op, so that row is a plain row from segment 0. */
    int c = s0;
    if (c == 0) {
        const SV *rc = sb + (size_t)dsq[0] * Q, *r0 = rc;
        (void)r0;
        SV_ROW(SV_BMAX)
        i = 1;
        c = Q == 1 ? 0 : 1;
    }
    if (Q > NB) SV_PLAIN_ROWS(c);
    while (i < L) {
        SV_WRAP_ROW(15)
        SV_WRAP_ROW(14)
        SV_WRAP_ROW(13)
        SV_WRAP_ROW(12)
        SV_WRAP_ROW(11)
        SV_WRAP_ROW(10)
        SV_WRAP_ROW(9)
        SV_WRAP_ROW(8)
        SV_WRAP_ROW(7)
        SV_WRAP_ROW(6)
        SV_WRAP_ROW(5)
        SV_WRAP_ROW(4)
        SV_WRAP_ROW(3)
        SV_WRAP_ROW(2)
        SV_WRAP_ROW(1)
        SV_WRAP_ROW(0)
        if (Q > NB) SV_PLAIN_ROWS(1);
    }
    return SV_MAX(xa, xb);
}

#undef SV_PLAIN_ROWS
#undef SV_WRAP_ROW
#undef SV_ROW
#undef SV_STEP

/* xE over all Q segments: the fewest bands of at most SV_BMAX registers, of equal width so
 * that the last band's overlap (work done twice) is under one register per band. */
static SV SV_FN(all_bands)(const SV *sb, int Q, const uint8_t *dsq, int32_t L) {
    SV xE = SV_BEGIN;
    const int bands = (Q + SV_BMAX - 1) / SV_BMAX;
    switch ((Q + bands - 1) / bands) {
#define SV_CASE(n) case n: for (int s = 0; s < Q; s += n) xE = SV_FN(band)(sb, Q, s + n <= Q ? s : Q - n, dsq, L, xE, n); break;
        SV_CASE(1) SV_CASE(2) SV_CASE(3) SV_CASE(4) SV_CASE(5) SV_CASE(6) SV_CASE(7) SV_CASE(8)
#if SV_BMAX > 8
        SV_CASE(9) SV_CASE(10) SV_CASE(11) SV_CASE(12)
#endif
#if SV_BMAX > 12
        SV_CASE(13) SV_CASE(14) SV_CASE(15) SV_CASE(16)
#endif
#undef SV_CASE
    default:
        break;
    }
    return xE;
}
