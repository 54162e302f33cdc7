/*
 * papara_layout.c — a block of profiles in the SIMD kernels' layout (papara.h): site-major,
 * one int16 lane per profile. The cost layout (pre) moves per-site work out of the kernels'
 * inner loop: each (site, read base) step loads its diagonal bonus and the site's gap costs
 * instead of deriving them from the state mask and flag (17 vector operations per step became
 * 9, and 7 with papara_simd.h's shifted basis; docs/papara.md, "Design").
 */
#include "cpu/papara/papara.h"

void dpa_papara_lay_out_block(const dpa_papara_batch *batch, int32_t first, int32_t width,
                              const dpa_papara_params *p, int16_t *pre)
{
    const int64_t S = batch->num_sites;
    const int32_t W = width;
    for (int32_t k = 0; k < W; k++) {
        int32_t e = first + k;
        if (e >= batch->num_profiles) e = batch->num_profiles - 1;
        const uint8_t *prof = batch->profiles + (int64_t)e * S;
        for (int64_t i = 0; i < S; i++) {
            const int flagged = (prof[i] & DPA_PAPARA_CGAP_BIT) != 0;
            int16_t *v = pre + i * DPA_PAPARA_PRE * W + k;
            if (p->score_model == DPA_PAPARA_SCORE_PAPER2012) {
                for (int c = 0; c < 4; c++)
                    v[c * W] = (int16_t)(((prof[i] >> c) & 1 ? 0 : DPA_PAPER2012_MISMATCH) +
                                         (flagged ? DPA_PAPER2012_CGAP : 0));
                v[4 * W] = (int16_t)(flagged ? 0 : DPA_PAPER2012_OPEN + DPA_PAPER2012_EXTEND);
                v[5 * W] = (int16_t)(flagged ? 0 : DPA_PAPER2012_EXTEND);
                continue;
            }
            /* papara_simd.h's shifted basis: bonus - extend(i) - extend, open(i) - extend(i),
             * -extend(i) */
            const int ext = flagged ? 0 : p->gap_extend;
            for (int c = 0; c < 4; c++)
                v[c * W] = (int16_t)(((prof[i] >> c) & 1 ? p->match : 0) + (flagged ? p->match_cgap : 0) -
                                     ext - p->gap_extend);
            v[4 * W] = (int16_t)((flagged ? 0 : p->gap_open) - ext);
            v[5 * W] = (int16_t)-ext;
        }
    }
}
