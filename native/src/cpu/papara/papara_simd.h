/*
 * papara_simd.h — the inter-task kernel body shared by papara_avx2.c and papara_avx512.c:
 * each int16 lane holds one profile of the block, every lane sees the same read, so the
 * recurrence of papara_ref.c runs unchanged, W profiles at a time (PaPaRa's own SSE kernel
 * does the same with 8 lanes).
 *
 * The includer defines: VEC (vector type), W (lanes), SET1(x), LOAD(p), STORE(p, v),
 * ADDS(a, b) (saturating), MAX(a, b), and FN (the function's name). The costs come from the
 * block's cost layout (dpa_papara_lay_out_block): per step one bonus load and the site's two
 * gap costs, nine vector operations.
 *
 * Exactness: dpa_papara_fits_int16 admits only reads whose every real cell lies in
 * [-32000, 32000]; -32768 is minus infinity, and a saturated sum is never the maximum
 * that the recurrence keeps (docs/papara.md).
 *
 * The same body also builds the int32 kernels for the reads beyond that bound: the includer
 * then sets LANE_T int32_t, NEG_INF -2^30, W to its int32 lanes (half the block), LW to the
 * block's width (the int16 cost layout's stride) and LOADC to a widening load of W costs.
 * Every real cell of a validated read lies within +-1000 x (2^20 + 2) < 2^30, and minus
 * infinity only ever gets one cost added before a real value wins the maximum, so plain
 * int32 adds are exact.
 */
#ifndef LANE_T
#define LANE_T int16_t
#define NEG_INF (-32768)
#define LW W
#define LOADC(p) LOAD(p)
#endif
/* One row j over the column block's n sites (papara_ref.c's recurrence); returns the next
 * row's S(j, c0 - 1). match >= 0, so a base of several states adds the largest of its
 * states' bonuses. */
static inline VEC ROW_ONE(const int16_t *pre, LANE_T *s, LANE_T *su, LANE_T *lft, LANE_T *slb,
                          int64_t n, int32_t j, unsigned b, VEC diag, VEC ov, VEC ev)
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
        sl = MAX(ADDS(left, LOADC(c + 4 * LW)), ADDS(sl, LOADC(c + 5 * LW)));
        const VEC up = LOAD(s + i * W);
        const VEC u = MAX(ADDS(up, ov), ADDS(LOAD(su + i * W), ev));
        STORE(su + i * W, u);
        const VEC v = MAX(sm, MAX(sl, u));
        diag = up;
        left = v;
        STORE(s + i * W, v);
    }
    STORE(lft + (int64_t)j * W, left);
    STORE(slb + (int64_t)j * W, sl);
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
    const VEC zero = SET1(0), neg = SET1(NEG_INF);
    const VEC ov = SET1((LANE_T)p->gap_open), ev = SET1((LANE_T)p->gap_extend);
    const int64_t P = DPA_PAPARA_PRE * LW; /* a site's costs: bonus of A, C, G, T, open, extend */
    for (int32_t j = 0; j < read_length; j++) {
        STORE(lft + (int64_t)j * W, zero); /* column -1 */
        STORE(slb + (int64_t)j * W, neg);
    }
    VEC best = neg;
    for (int64_t c0 = 0; c0 < num_sites; c0 += B) {
        const int64_t n = num_sites - c0 < B ? num_sites - c0 : B;
        for (int64_t i = 0; i < n; i++) {
            STORE(s + i * W, zero); /* row -1 */
            STORE(su + i * W, neg);
        }
        const int16_t *pre = blk->pre + c0 * P;
        VEC diag_next = zero; /* S(j - 1, c0 - 1) for the next row; row -1 is 0 */
        int32_t j = 0;
        /* Four rows per sweep while their bases are of one state each: row k + 1 takes row k's
         * S and SU of the same site from registers, so S and SU go through memory once per
         * four rows, and the four dependency chains (S -> SL -> S along a row) overlap. */
        for (; j + 4 <= read_length; j += 4) {
            const unsigned b0 = read[j], b1 = read[j + 1], b2 = read[j + 2], b3 = read[j + 3];
            if ((b0 & (b0 - 1)) | (b1 & (b1 - 1)) | (b2 & (b2 - 1)) | (b3 & (b3 - 1))) {
                for (int k = 0; k < 4; k++) diag_next = ROW_ONE(pre, s, su, lft, slb, n, j + k, read[j + k], diag_next, ov, ev);
                continue;
            }
            const int64_t o0 = (int64_t)__builtin_ctz(b0) * LW, o1 = (int64_t)__builtin_ctz(b1) * LW;
            const int64_t o2 = (int64_t)__builtin_ctz(b2) * LW, o3 = (int64_t)__builtin_ctz(b3) * LW;
            VEC l0 = LOAD(lft + (int64_t)j * W), l1 = LOAD(lft + (int64_t)(j + 1) * W);
            VEC l2 = LOAD(lft + (int64_t)(j + 2) * W), l3 = LOAD(lft + (int64_t)(j + 3) * W);
            VEC s0 = LOAD(slb + (int64_t)j * W), s1 = LOAD(slb + (int64_t)(j + 1) * W);
            VEC s2 = LOAD(slb + (int64_t)(j + 2) * W), s3 = LOAD(slb + (int64_t)(j + 3) * W);
            VEC d0 = diag_next, d1 = l0, d2 = l1, d3 = l2; /* S(row - 1, c0 - 1) */
            diag_next = l3;
            for (int64_t i = 0; i < n; i++) {
                const int16_t *c = pre + i * P;
                const VEC lo = LOADC(c + 4 * LW), le = LOADC(c + 5 * LW);
                VEC up = LOAD(s + i * W), usu = LOAD(su + i * W), v, u;
#define PAPARA_CELL(d, l, sl, o)                                          \
    u = MAX(ADDS(up, ov), ADDS(usu, ev));                                 \
    sl = MAX(ADDS(l, lo), ADDS(sl, le));                                  \
    v = MAX(ADDS(d, LOADC(c + (o))), MAX(sl, u));                         \
    d = up;                                                               \
    l = v;                                                                \
    up = v;                                                               \
    usu = u;
                PAPARA_CELL(d0, l0, s0, o0)
                PAPARA_CELL(d1, l1, s1, o1)
                PAPARA_CELL(d2, l2, s2, o2)
                PAPARA_CELL(d3, l3, s3, o3)
#undef PAPARA_CELL
                STORE(su + i * W, usu);
                STORE(s + i * W, up);
            }
            STORE(lft + (int64_t)j * W, l0);
            STORE(lft + (int64_t)(j + 1) * W, l1);
            STORE(lft + (int64_t)(j + 2) * W, l2);
            STORE(lft + (int64_t)(j + 3) * W, l3);
            STORE(slb + (int64_t)j * W, s0);
            STORE(slb + (int64_t)(j + 1) * W, s1);
            STORE(slb + (int64_t)(j + 2) * W, s2);
            STORE(slb + (int64_t)(j + 3) * W, s3);
        }
        for (; j < read_length; j++) diag_next = ROW_ONE(pre, s, su, lft, slb, n, j, read[j], diag_next, ov, ev);
        for (int64_t i = 0; i < n; i++) best = MAX(best, LOAD(s + i * W)); /* the last row */
    }
    for (int32_t j = 0; j < read_length; j++) best = MAX(best, LOAD(lft + (int64_t)j * W)); /* last column */
    LANE_T lanes[W];
    STORE(lanes, best);
    for (int k = 0; k < W; k++) out[k] = lanes[k];
}

#undef LANE_T
#undef NEG_INF
#undef LW
#undef LOADC
