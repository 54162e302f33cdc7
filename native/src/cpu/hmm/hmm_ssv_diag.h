/*
 * hmm_ssv_diag.h — the SSV maximum of a small model by diagonals, shared by hmm_ssv_avx2.c
 * and hmm_ssv_avx512.c (included once per ISA after they define DV, DV_W, DV_LOADU,
 * DV_BCAST16, DV_SHUF, DV_OR, DV_SUBS, DV_MAX, DV_SET1 and DV_FN).
 *
 * Why. The striped kernels (hmm_ssv_band.h) hold nodes in lanes. A model of one segment
 * (M <= W) moves its only register up one lane on every row, and that lane crossing is on
 * the row-to-row dependence chain: ~7 cycles a row on Zen 4 whatever M is, so M = 1..64 all
 * cost ~1.9 ns a residue (docs/hmm-filter.md, "Speed"). SSV's cell (i, k) needs only
 * (i - 1, k - 1), so every diagonal d = i - k is its own chain. Here the lanes are W
 * consecutive diagonals d0 .. d0 + W - 1 and a step moves all of them one node down: lane z
 * at node k reads residue i = d0 + z + k, so the W residues of a step are one contiguous
 * window of the target, and their costs for node k come from a 32-entry table lookup (two
 * in-lane byte shuffles, codes 0..15 and 16..31). No lane ever crosses; the only chain is
 * one saturating subtract a step. Cost: ceil((L + M - 1) / W) blocks of M steps.
 *
 * Exactness. Each lane starts at the begin level -128 and applies HMMER's recurrence
 * sv = subs_epi8(sv, sbv) node by node, exactly the cells of the striped kernel (same
 * values, same saturation); xE is their unsigned maximum, and max is order-free, so xE is the
 * same byte. Lanes whose window position lies before the target or past its end read the pad
 * code 31, whose cost is 127: from any value <= -1 that gives -128 (the begin level, as if the
 * cell did not exist), and a value >= 0 has already reached the overflow level (see
 * hmm_filter_ref.c), where only "overflow" is reported.
 *
 * Index arrays (in work, DPA_HMM_DIAG_WORK bytes): lo[i] = code if < 16 else 0x80 (the shuffle
 * gives 0), hi[i] = code - 16 if >= 16 else 0x80, so lookup(lo) | lookup(hi) is the cost; the
 * DPA_HMM_DIAG_PAD bytes before the target and M + W after it hold the pad code 31.
 */

static DV DV_FN(diag)(const uint8_t *tab, int M, const uint8_t *dsq, int32_t L, void *work) {
    const size_t n = (size_t)DPA_HMM_DIAG_PAD + (size_t)L + (size_t)M + DV_W;
    uint8_t *lo = (uint8_t *)(((uintptr_t)work + 63) & ~(uintptr_t)63), *hi = lo + ((n + 63) & ~(size_t)63);
    memset(lo, 0x80, DPA_HMM_DIAG_PAD);
    memset(hi, 31 - 16, DPA_HMM_DIAG_PAD);
    for (int32_t i = 0; i < L; i++) { /* vectorised by the compiler (this file's ISA) */
        const uint8_t c = dsq[i];
        lo[DPA_HMM_DIAG_PAD + i] = c < 16 ? c : 0x80;
        hi[DPA_HMM_DIAG_PAD + i] = c < 16 ? 0x80 : (uint8_t)(c - 16);
    }
    memset(lo + DPA_HMM_DIAG_PAD + L, 0x80, (size_t)M + DV_W);
    memset(hi + DPA_HMM_DIAG_PAD + L, 31 - 16, (size_t)M + DV_W);
    DV xa = DV_SET1(-128), xb = xa;
    /* block of diagonals d0 .. d0 + W - 1 (d = i - k, 1-based i and k, d in [1 - M, L - 1]);
     * at node k lane z reads 0-based position d0 + z + k - 1 */
    for (int32_t d0 = 1 - M; d0 <= L - 1; d0 += DV_W) {
        const uint8_t *pl = lo + DPA_HMM_DIAG_PAD + d0 - 1, *ph = hi + DPA_HMM_DIAG_PAD + d0 - 1;
        const uint8_t *t = tab;
        DV R = DV_SET1(-128);
        int k = 1;
        /* two nodes a trip, two accumulators: the max chain is not the bound */
        for (; k + 1 <= M; k += 2, t += 64) {
            DV c0 = DV_OR(DV_SHUF(DV_BCAST16(t), DV_LOADU(pl + k)), DV_SHUF(DV_BCAST16(t + 16), DV_LOADU(ph + k)));
            DV c1 = DV_OR(DV_SHUF(DV_BCAST16(t + 32), DV_LOADU(pl + k + 1)),
                          DV_SHUF(DV_BCAST16(t + 48), DV_LOADU(ph + k + 1)));
            R = DV_SUBS(R, c0);
            xa = DV_MAX(xa, R);
            R = DV_SUBS(R, c1);
            xb = DV_MAX(xb, R);
        }
        if (k <= M) {
            DV c0 = DV_OR(DV_SHUF(DV_BCAST16(t), DV_LOADU(pl + k)), DV_SHUF(DV_BCAST16(t + 16), DV_LOADU(ph + k)));
            R = DV_SUBS(R, c0);
            xa = DV_MAX(xa, R);
        }
    }
    return DV_MAX(xa, xb);
}
