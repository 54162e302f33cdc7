/*
 * papara_paper2012_simd.h — the inter-task kernel body of the 2012 paper's model
 * (papara_paper2012.c), shared by papara_avx2.c and papara_avx512.c: one profile per int16
 * lane, every lane sees the same read, min-plus.
 *
 * The includer defines what papara_simd.h needs plus MIN(a, b) and FN12 (the function's
 * name). The costs come from the block's cost layout laid out for this model
 * (dpa_papara_lay_out_block): per site the diagonal cost of read base A, C, G, T, then the
 * gap open + extend and the extend in the read.
 *
 * The band. Row j (read base j) meets sites [j, j + WB] only, WB = sites - read length. The
 * kernel keeps papara_simd.h's site-major column blocks (S of one row per site in memory, a
 * row's left neighbour and gap state carried between blocks in lft / dlb), and a row simply
 * runs over the part of its band inside the block. The cells outside every band are PaPaRa's
 * "LARGE": 32767 here, which saturating adds keep at 32767 and which loses every min against
 * a real cell. Row -1 is 0 at sites < WB and LARGE from WB on (the band's right edge); column
 * -1 is LARGE for every row (each band starts at its row's own site).
 *
 * Exactness: every real cell is at most 6 x (row + 1) (the diagonal path from row -1), and
 * dpa_papara_fits_int16 admits a read only while 6 x length + 4 <= 32000, so no real value
 * reaches the sentinel and no sum with one saturates (docs/papara.md). The int32 instance
 * (longer reads; LANE_T, LW and LOADC set by the includer as for papara_simd.h) uses 2^29:
 * real cells stay below 6 x 2^20 + 4, and LARGE plus any cost stays far below 2^31.
 */
#ifndef LANE_T /* int16 lanes; the int32 instance (long reads) sets these like papara_simd.h's */
#define LANE_T int16_t
#define LW W
#define LOADC(p) LOAD(p)
#define P12_LARGE 32767
#else
#define P12_LARGE (1 << 29)
#endif

/* Row j over the part of its band inside the block [c0, c0 + n); diag is S(j - 1, c0 - 1)
 * when the band starts before the block. Returns S(j, c0 - 1) as it was on entry: the next
 * row's diagonal at the block's first site. */
static inline VEC ROW12(const int16_t *pre, LANE_T *s, LANE_T *lft, LANE_T *dlb, int64_t c0,
                        int64_t n, int64_t wb, int32_t j, unsigned b, VEC diag)
{
    const int64_t P = DPA_PAPARA_PRE * LW;
    const VEC large = SET1(P12_LARGE), ins = SET1(DPA_PAPER2012_MISMATCH);
    VEC left = LOAD(lft + (int64_t)j * W), d = LOAD(dlb + (int64_t)j * W);
    const VEC next = left;
    const int64_t lo = j > c0 ? j : c0, hi = c0 + n < j + wb + 1 ? c0 + n : j + wb + 1;
    if (j > c0) diag = LOAD(s + (j - 1 - c0) * W); /* S(j - 1, j - 1): row j - 1 wrote it here */
    for (int64_t i = lo - c0; i < hi - c0; i++) {
        const int16_t *c = pre + i * P;
        const VEC cost = (b & (b - 1)) == 0 ? LOADC(c + (int64_t)__builtin_ctz(b) * LW)
                                             : MIN(MIN((b & 1) ? LOADC(c) : large, (b & 2) ? LOADC(c + LW) : large),
                                                   MIN((b & 4) ? LOADC(c + 2 * LW) : large,
                                                       (b & 8) ? LOADC(c + 3 * LW) : large));
        const VEC sm = ADDS(diag, cost);
        d = MIN(ADDS(left, LOADC(c + 4 * LW)), ADDS(d, LOADC(c + 5 * LW)));
        const VEC up = LOAD(s + i * W);
        const VEC v = MIN(MIN(sm, d), ADDS(up, ins));
        diag = up;
        left = v;
        STORE(s + i * W, v);
    }
    STORE(lft + (int64_t)j * W, left);
    STORE(dlb + (int64_t)j * W, d);
    return next;
}

void FN12(const dpa_papara_block *blk, int64_t num_sites, const uint8_t *read,
          int32_t read_length, const dpa_papara_params *p, int16_t *scratch, int32_t *out)
{
    (void)p;
    const int64_t B = num_sites < COLB ? num_sites : COLB;
    const int64_t wb = num_sites - read_length;
    const int64_t P = DPA_PAPARA_PRE * LW;
    LANE_T *s = (LANE_T *)(void *)scratch, *lft = s + B * W, *dlb = lft + (int64_t)read_length * W;
    const VEC zero = SET1(0), large = SET1(P12_LARGE), ins = SET1(DPA_PAPER2012_MISMATCH);
    for (int32_t j = 0; j < read_length; j++) {
        STORE(lft + (int64_t)j * W, large); /* column -1 lies outside every band */
        STORE(dlb + (int64_t)j * W, large);
    }
    VEC best = large;
    for (int64_t c0 = 0; c0 < num_sites; c0 += B) {
        const int64_t n = num_sites - c0 < B ? num_sites - c0 : B;
        for (int64_t i = 0; i < n; i++) STORE(s + i * W, c0 + i < wb ? zero : large); /* row -1 */
        const int16_t *pre = blk->pre + c0 * P;
        /* rows whose band meets the block: j + wb >= c0 and j < c0 + n */
        int32_t j = c0 > wb ? (int32_t)(c0 - wb) : 0;
        const int32_t j_end = c0 + n < read_length ? (int32_t)(c0 + n) : read_length;
        VEC diag_next = j > 0 ? LOAD(lft + (int64_t)(j - 1) * W) : zero;
        /* Four rows per sweep while their bases are of one state each (papara_simd.h's
         * reason). The rows' bands are staggered by one site: the sweep runs over their
         * union, and a row outside its band at a site passes LARGE on (its cell, left and gap
         * state) while its diagonal still follows the row above. */
        for (; j + 4 <= j_end; j += 4) {
            const unsigned b0 = read[j], b1 = read[j + 1], b2 = read[j + 2], b3 = read[j + 3];
            if ((b0 & (b0 - 1)) | (b1 & (b1 - 1)) | (b2 & (b2 - 1)) | (b3 & (b3 - 1))) {
                for (int k = 0; k < 4; k++)
                    diag_next = ROW12(pre, s, lft, dlb, c0, n, wb, j + k, read[j + k], diag_next);
                continue;
            }
            const int64_t o0 = (int64_t)__builtin_ctz(b0) * LW, o1 = (int64_t)__builtin_ctz(b1) * LW;
            const int64_t o2 = (int64_t)__builtin_ctz(b2) * LW, o3 = (int64_t)__builtin_ctz(b3) * LW;
            VEC l0 = LOAD(lft + (int64_t)j * W), l1 = LOAD(lft + (int64_t)(j + 1) * W);
            VEC l2 = LOAD(lft + (int64_t)(j + 2) * W), l3 = LOAD(lft + (int64_t)(j + 3) * W);
            VEC g0 = LOAD(dlb + (int64_t)j * W), g1 = LOAD(dlb + (int64_t)(j + 1) * W);
            VEC g2 = LOAD(dlb + (int64_t)(j + 2) * W), g3 = LOAD(dlb + (int64_t)(j + 3) * W);
            VEC d0 = j > c0 ? LOAD(s + (j - 1 - c0) * W) : diag_next, d1 = l0, d2 = l1, d3 = l2;
            diag_next = l3;
            const int64_t lo = j > c0 ? j : c0;
            const int64_t hi = c0 + n < j + 3 + wb + 1 ? c0 + n : j + 3 + wb + 1;
            /* all four rows inside their bands: sites [j + 3, j + wb] */
            int64_t mlo = j + 3 > lo ? j + 3 : lo, mhi = j + wb + 1 < hi ? j + wb + 1 : hi;
            if (mlo > hi) mlo = hi;
            if (mhi < mlo) mhi = mlo; /* a band narrower than the stagger: all checked */
            VEC up, v, lo_v, le_v;
#define P12_CELL(d, l, g, o)                                                      \
    g = MIN(ADDS(l, lo_v), ADDS(g, le_v));                                        \
    v = MIN(MIN(ADDS(d, LOADC(c + (o))), g), ADDS(up, ins));                      \
    d = up;                                                                       \
    l = v;                                                                        \
    up = v;
#define P12_CHECKED(r, d, l, g, o)                                                \
    if (i >= j + (r) && i <= j + (r) + wb) {                                      \
        P12_CELL(d, l, g, o)                                                      \
    } else {                                                                      \
        d = up;                                                                   \
        l = large;                                                                \
        g = large;                                                                \
        up = large;                                                               \
    }
#define P12_UNCHECKED(r, d, l, g, o) P12_CELL(d, l, g, o)
/* Sites [from, to) of the sweep, each cell by STEP (checked or not). */
#define P12_SWEEP(from, to, STEP)                                                 \
    for (int64_t i = (from); i < (to); i++) {                                     \
        const int16_t *c = pre + (i - c0) * P;                                    \
        lo_v = LOADC(c + 4 * LW);                                                 \
        le_v = LOADC(c + 5 * LW);                                                 \
        up = LOAD(s + (i - c0) * W);                                              \
        STEP(0, d0, l0, g0, o0)                                                   \
        STEP(1, d1, l1, g1, o1)                                                   \
        STEP(2, d2, l2, g2, o2)                                                   \
        STEP(3, d3, l3, g3, o3)                                                   \
        STORE(s + (i - c0) * W, up);                                              \
    }
            P12_SWEEP(lo, mlo, P12_CHECKED)
            P12_SWEEP(mlo, mhi, P12_UNCHECKED)
            P12_SWEEP(mhi, hi, P12_CHECKED)
#undef P12_SWEEP
#undef P12_UNCHECKED
#undef P12_CHECKED
#undef P12_CELL
            STORE(lft + (int64_t)j * W, l0);
            STORE(lft + (int64_t)(j + 1) * W, l1);
            STORE(lft + (int64_t)(j + 2) * W, l2);
            STORE(lft + (int64_t)(j + 3) * W, l3);
            STORE(dlb + (int64_t)j * W, g0);
            STORE(dlb + (int64_t)(j + 1) * W, g1);
            STORE(dlb + (int64_t)(j + 2) * W, g2);
            STORE(dlb + (int64_t)(j + 3) * W, g3);
        }
        for (; j < j_end; j++) diag_next = ROW12(pre, s, lft, dlb, c0, n, wb, j, read[j], diag_next);
        /* the last row's band is [read_length - 1, num_sites): its cells are final here */
        for (int64_t i = c0 < read_length - 1 ? read_length - 1 - c0 : 0; i < n; i++)
            best = MIN(best, LOAD(s + i * W));
    }
    LANE_T lanes[W];
    STORE(lanes, best);
    for (int k = 0; k < W; k++) out[k] = lanes[k];
}

#undef P12_LARGE
#undef LANE_T
#undef LW
#undef LOADC
