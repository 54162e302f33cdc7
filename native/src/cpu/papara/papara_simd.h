/*
 * papara_simd.h — the inter-task kernel body shared by papara_avx2.c and papara_avx512.c:
 * each int16 lane holds one profile of the block, every lane sees the same read, so the
 * recurrence of papara_ref.c runs unchanged, W profiles at a time (PaPaRa's own SSE kernel
 * does the same with 8 lanes).
 *
 * The includer defines: VEC (vector type), W (lanes), SET1(x), LOAD(p), STORE(p, v),
 * ADDS(a, b) and SUBS(a, b) (saturating), MAX(a, b), and FN (the function's name). The costs
 * come from the block's cost layout (dpa_papara_lay_out_block): per step one bonus load and the
 * site's open cost, seven vector operations (the shifted basis below).
 *
 * Exactness: dpa_papara_fits_int16 admits only reads whose every real cell, shifted, lies in
 * [-32000, 32000]; -32768 is minus infinity, and a saturated sum is never the maximum
 * that the recurrence keeps (docs/papara.md).
 *
 * The same body also builds the int32 kernels for the reads beyond that bound: the includer
 * then sets LANE_T int32_t, NEG_INF -2^30, W to its int32 lanes (half the block), LW to the
 * block's width (the int16 cost layout's stride) and LOADC to a widening load of W costs.
 * Every real cell of a validated read lies within +-1000 x (2^20 + 2) < 2^30, its shift
 * adds at most 1000 x (2^20 + COLB) more (< 2^31 in all), and minus infinity never has a
 * cost added, so plain int32 adds are exact.
 */
/* Rows per sweep (below): four, unless the includer keeps fewer live in its registers. */
#ifndef SWEEP
#define SWEEP 4
#endif
#ifndef LANE_T
#define LANE_T int16_t
#define NEG_INF (-32768)
#define LW W
#define LOADC(p) LOAD(p)
#endif
/* Every value the kernel holds is kept in a shifted basis: X - E(i) - (j + 1) x extend for
 * row j and site i, where E(i) sums the read-gap extend costs of the column block's sites up
 * to i (0 on flagged sites). The shift takes one addition off each gap recurrence:
 *   SL~(i) = max(S~(i - 1) + open(i) - extend(i), SL~(i - 1))
 *   SU~(j) = max(S~(j - 1) + open - extend, SU~(j - 1))
 *   SM~    = S~(j - 1, i - 1) + bonus(i) - extend(i) - extend
 * (the cost layout holds open(i) - extend(i), the four bonuses less extend(i) + extend, and
 * -extend(i) to rebuild E), seven vector operations a cell. A row's S and SL go from block to
 * block in the row part of the basis alone (E = 0 before the block's first site); minus
 * infinity never has a cost added, so it stays itself. The shifts are at most
 * |extend| x (read_length + COLB), which dpa_papara_fits_int16 counts. */

/* One row j over the column block's n sites (papara_ref.c's recurrence); returns the next
 * row's S~(j, c0 - 1). match >= 0, so a base of several states adds the largest of its
 * states' bonuses. fend = -E at the block's last site. */
static inline VEC ROW_ONE(const int16_t *pre, LANE_T *s, LANE_T *su, LANE_T *lft, LANE_T *slb,
                          int64_t n, int32_t j, unsigned b, VEC diag, VEC oe, VEC fend)
{
    const int64_t P = DPA_PAPARA_PRE * LW;
    const VEC neg = SET1(NEG_INF);
    VEC left = LOAD(lft + (int64_t)j * W), sl = LOAD(slb + (int64_t)j * W);
    const VEC next = left;
    for (int64_t i = 0; i < n; i++) {
        const int16_t *c = pre + i * P;
        const VEC bonus = (b & (b - 1)) == 0 ? LOADC(c + (int64_t)__builtin_ctz(b) * LW)
                                              : MAX(MAX((b & 1) ? LOADC(c) : neg, (b & 2) ? LOADC(c + LW) : neg),
                                                    MAX((b & 4) ? LOADC(c + 2 * LW) : neg,
                                                        (b & 8) ? LOADC(c + 3 * LW) : neg));
        const VEC sm = ADDS(diag, bonus);
        sl = MAX(ADDS(left, LOADC(c + 4 * LW)), sl);
        const VEC up = LOAD(s + i * W);
        const VEC u = MAX(ADDS(up, oe), LOAD(su + i * W));
        STORE(su + i * W, u);
        const VEC v = MAX(sm, MAX(sl, u));
        diag = up;
        left = v;
        STORE(s + i * W, v);
    }
    STORE(lft + (int64_t)j * W, SUBS(left, fend));
    STORE(slb + (int64_t)j * W, SUBS(sl, fend));
    return next;
}

void FN(const dpa_papara_block *blk, int64_t num_sites, const uint8_t *read,
        int32_t read_length, const dpa_papara_params *p, int16_t *scratch, int32_t *out)
{
    /* Column blocks of COLB sites keep S, SU and the block's costs in L1/L2 while every read
     * base sweeps it (PaPaRa blocks by 512 for the same reason); each row hands its last S and
     * SL to the next block through lft/slb. */
    const int64_t B = num_sites < COLB ? num_sites : COLB;
    LANE_T *s = (LANE_T *)(void *)scratch, *su = s + B * W;
    LANE_T *lft = su + B * W, *slb = lft + (int64_t)read_length * W;
    const VEC neg = SET1(NEG_INF);
    const LANE_T ev = (LANE_T)p->gap_extend;
    const VEC oe = SET1((LANE_T)(p->gap_open - p->gap_extend));
    const int64_t P = DPA_PAPARA_PRE * LW; /* a site's costs (papara.h, the papara2 model) */
    for (int32_t j = 0; j < read_length; j++) {
        STORE(lft + (int64_t)j * W, SET1((LANE_T)(-(j + 1) * ev))); /* column -1: S = 0 */
        STORE(slb + (int64_t)j * W, neg);
    }
    VEC best = neg;
    for (int64_t c0 = 0; c0 < num_sites; c0 += B) {
        const int64_t n = num_sites - c0 < B ? num_sites - c0 : B;
        const int16_t *pre = blk->pre + c0 * P;
        VEC f = SET1(0); /* -E(i) */
        for (int64_t i = 0; i < n; i++) {
            f = ADDS(f, LOADC(pre + i * P + 5 * LW));
            STORE(s + i * W, f); /* row -1: S = 0 */
            STORE(su + i * W, neg);
        }
        const VEC fend = f;
        VEC diag_next = SET1(0); /* S~(j - 1, c0 - 1) for the next row; row -1 is 0 */
        int32_t j = 0;
        /* SWEEP rows per sweep while their bases are of one state each: row k + 1 takes row
         * k's S and SU of the same site from registers, so S and SU go through memory once per
         * sweep, and its dependency chains (S -> SL -> S along a row) overlap. */
        for (; j + SWEEP <= read_length; j += SWEEP) {
            unsigned multi = 0;
            for (int k = 0; k < SWEEP; k++) multi |= read[j + k] & (read[j + k] - 1u);
            if (multi) {
                for (int k = 0; k < SWEEP; k++) diag_next = ROW_ONE(pre, s, su, lft, slb, n, j + k, read[j + k], diag_next, oe, fend);
                continue;
            }
            int64_t o[SWEEP];
            VEC l[SWEEP], sl[SWEEP], d[SWEEP];
#pragma GCC unroll 8
            for (int k = 0; k < SWEEP; k++) {
                o[k] = (int64_t)__builtin_ctz(read[j + k]) * LW;
                l[k] = LOAD(lft + (int64_t)(j + k) * W);
                sl[k] = LOAD(slb + (int64_t)(j + k) * W);
                d[k] = k ? l[k - 1] : diag_next; /* S~(row - 1, c0 - 1) */
            }
            diag_next = l[SWEEP - 1];
            for (int64_t i = 0; i < n; i++) {
                const int16_t *c = pre + i * P;
                const VEC lo = LOADC(c + 4 * LW);
                VEC up = LOAD(s + i * W), usu = LOAD(su + i * W), v;
#pragma GCC unroll 8
                for (int k = 0; k < SWEEP; k++) {
                    usu = MAX(ADDS(up, oe), usu);
                    sl[k] = MAX(ADDS(l[k], lo), sl[k]);
                    v = MAX(ADDS(d[k], LOADC(c + o[k])), MAX(sl[k], usu));
                    d[k] = up;
                    l[k] = v;
                    up = v;
                }
                STORE(su + i * W, usu);
                STORE(s + i * W, up);
            }
#pragma GCC unroll 8
            for (int k = 0; k < SWEEP; k++) {
                STORE(lft + (int64_t)(j + k) * W, SUBS(l[k], fend));
                STORE(slb + (int64_t)(j + k) * W, SUBS(sl[k], fend));
            }
        }
        for (; j < read_length; j++) diag_next = ROW_ONE(pre, s, su, lft, slb, n, j, read[j], diag_next, oe, fend);
        /* the last row, back in the plain basis: S = S~ - f(i) + read_length x extend */
        VEC last = neg;
        f = SET1(0);
        for (int64_t i = 0; i < n; i++) {
            f = ADDS(f, LOADC(pre + i * P + 5 * LW));
            last = MAX(last, SUBS(LOAD(s + i * W), f));
        }
        best = MAX(best, ADDS(last, SET1((LANE_T)(read_length * ev))));
    }
    for (int32_t j = 0; j < read_length; j++) /* the last column */
        best = MAX(best, ADDS(LOAD(lft + (int64_t)j * W), SET1((LANE_T)((j + 1) * ev))));
    LANE_T lanes[W];
    STORE(lanes, best);
    for (int k = 0; k < W; k++) out[k] = lanes[k];
}

#undef LANE_T
#undef NEG_INF
#undef LW
#undef LOADC
