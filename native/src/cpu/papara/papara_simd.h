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
    /* Column blocks of COLB sites keep S, SU, masks and flags of the block in L1/L2 while
     * every read base sweeps it (PaPaRa blocks by 512 for the same reason); each row hands
     * its last S and SL to the next block through lft/slb. */
    const int64_t B = num_sites < COLB ? num_sites : COLB;
    int16_t *s = scratch, *su = scratch + B * W;
    int16_t *lft = su + B * W, *slb = lft + (int64_t)read_length * W;
    const VEC zero = SET1(0), neg = SET1(-32768);
    const VEC ov = SET1((int16_t)p->gap_open), ev = SET1((int16_t)p->gap_extend);
    const VEC mv = SET1((int16_t)p->match), cv = SET1((int16_t)p->match_cgap);
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
        const int16_t *mk = blk->mask + c0 * W, *gp = blk->gap + c0 * W;
        VEC diag_next = zero; /* S(j - 1, c0 - 1) for the next row; row -1 is 0 */
        VEC rowmax = neg;
        for (int32_t j = 0; j < read_length; j++) {
            const VEC bv = SET1((int16_t)read[j]);
            VEC diag = diag_next, left = LOAD(lft + (int64_t)j * W), sl = LOAD(slb + (int64_t)j * W);
            diag_next = left;
            rowmax = neg;
            for (int64_t i = 0; i < n; i++) {
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
            STORE(lft + (int64_t)j * W, left);
            STORE(slb + (int64_t)j * W, sl);
        }
        best = MAX(best, rowmax); /* the last row, this block's columns */
    }
    for (int32_t j = 0; j < read_length; j++) best = MAX(best, LOAD(lft + (int64_t)j * W)); /* last column */
    int16_t lanes[W];
    STORE(lanes, best);
    for (int k = 0; k < W; k++) out[k] = lanes[k];
}
