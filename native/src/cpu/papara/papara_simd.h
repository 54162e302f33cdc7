/*
 * papara_simd.h — the inter-task kernel body shared by papara_avx2.c and papara_avx512.c:
 * each int16 lane holds one profile of the block, every lane sees the same read, so the
 * recurrence of papara_ref.c runs unchanged, W profiles at a time (PaPaRa's own SSE kernel
 * does the same with 8 lanes).
 *
 * The includer defines: VEC (vector type), W (lanes), SET1(x), LOAD(p), STORE(p, v),
 * ADDS(a, b) (saturating), MAX(a, b), AND(a, b), ANDNOT(a, b) (= ~a & b),
 * MATCHSEL(ac, bv, mv) (mv where ac & bv != 0, else 0), and FN (the function's name).
 *
 * Exactness: dpa_papara_fits_int16 admits only reads whose every real cell lies in
 * [-32000, 32000]; -32768 is minus infinity, and a saturated sum is never the maximum
 * that the recurrence keeps (docs/papara.md).
 */
void FN(const dpa_papara_block *blk, int64_t num_sites, const uint8_t *read,
        int32_t read_length, const dpa_papara_params *p, int16_t *scratch, int32_t *out)
{
    int16_t *s = scratch, *su = scratch + num_sites * W;
    const VEC zero = SET1(0), neg = SET1(-32768);
    for (int64_t i = 0; i < num_sites; i++) {
        STORE(s + i * W, zero);  /* row -1 */
        STORE(su + i * W, neg);
    }
    const VEC ov = SET1((int16_t)p->gap_open), ev = SET1((int16_t)p->gap_extend);
    const VEC mv = SET1((int16_t)p->match), cv = SET1((int16_t)p->match_cgap);
    VEC best = neg, rowmax = neg;
    for (int32_t j = 0; j < read_length; j++) {
        const VEC bv = SET1((int16_t)read[j]);
        VEC diag = zero, left = zero, sl = neg; /* column -1 */
        rowmax = neg;
        const int16_t *mk = blk->mask, *gp = blk->gap;
        for (int64_t i = 0; i < num_sites; i++) {
            const VEC ac = LOAD(mk + i * W), g = LOAD(gp + i * W);
            const VEC sm = ADDS(diag, ADDS(MATCHSEL(ac, bv, mv), AND(g, cv)));
            sl = MAX(ADDS(left, ANDNOT(g, ov)), ADDS(sl, ANDNOT(g, ev)));
            const VEC up = LOAD(s + i * W);
            const VEC u = MAX(ADDS(up, ov), ADDS(LOAD(su + i * W), ev));
            STORE(su + i * W, u);
            const VEC v = MAX(sm, MAX(sl, u));
            diag = up;
            left = v;
            STORE(s + i * W, v);
            rowmax = MAX(rowmax, v);
        }
        best = MAX(best, left); /* the last column */
    }
    best = MAX(best, rowmax);   /* the last row */
    int16_t lanes[W];
    STORE(lanes, best);
    for (int k = 0; k < W; k++) out[k] = lanes[k];
}
