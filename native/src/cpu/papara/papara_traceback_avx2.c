/*
 * papara_traceback_avx2.c — dpa_papara_traceback for up to eight reads at once, one read per
 * int32 lane, each against its own profile of the batch's sites: the same cells, choices,
 * end cell and trace as papara_traceback.c, so the same ops and score. The scalar version
 * takes ~1.2 ms for a 100-base read against 3,060 sites; on a GPU run the tracebacks of a
 * 16,000-read placement took longer than the scoring (docs/papara.md).
 *
 * Compiled with -mavx2 alone; reached only through papara_traceback_workload.c when the
 * context allows AVX2.
 */
#include <immintrin.h>
#include <stdlib.h>
#include <string.h>

#include "common/status.h"
#include "cpu/papara/papara.h"
#include "cpu/papara/papara_trace.h"

dpa_status dpa_papara_traceback8_avx2(const uint8_t *const profiles[8], int64_t num_sites,
                                      const uint8_t *const reads[8], const int32_t lengths[8],
                                      int32_t lanes, const dpa_papara_params *p,
                                      uint8_t *const ops[8], int64_t num_ops[8], int32_t scores[8])
{
    const int64_t S = num_sites;
    /* lanes beyond `lanes` repeat lane 0: valid memory, results dropped */
    const uint8_t *prof[8], *rd[8];
    int32_t len[8];
    int64_t maxL = 0;
    for (int k = 0; k < 8; k++) {
        const int src = k < lanes ? k : 0;
        prof[k] = profiles[src], rd[k] = reads[src], len[k] = lengths[src];
        if (len[k] > maxL) maxL = len[k];
    }
    uint8_t *tb = malloc((size_t)(8 * S * maxL));
    int32_t *s = aligned_alloc(32, sizeof *s * 16 * (size_t)S);
    uint8_t *lane = malloc((size_t)(16 * S));
    uint8_t *rev = malloc((size_t)(S + maxL));
    if (!tb || !s || !lane || !rev) {
        free(tb), free(s), free(lane), free(rev);
        return dpa_fail(DPA_ERR_OUT_OF_MEMORY, "dpa_papara_traceback: out of memory for 8 x %lld x "
                        "%lld cells", (long long)S, (long long)maxL);
    }
    int32_t *si = s + 8 * S;
    uint8_t *state = lane, *cgap = lane + 8 * S; /* per site, eight lanes */
    for (int64_t a = 0; a < S; a++)
        for (int k = 0; k < 8; k++) {
            state[a * 8 + k] = prof[k][a] & 15u;
            cgap[a * 8 + k] = (prof[k][a] & DPA_PAPARA_CGAP_BIT) ? 0xff : 0;
        }
    memset(s, 0, sizeof *s * 16 * (size_t)S);

    const int32_t SMALL = INT32_MIN / 4; /* the scalar version's -inf: see its bounds */
    const __m256i zero = _mm256_setzero_si256(), v_match = _mm256_set1_epi32(p->match),
                  v_open = _mm256_set1_epi32(p->gap_open), v_ext = _mm256_set1_epi32(p->gap_extend),
                  v_mcg = _mm256_set1_epi32(p->match_cgap), v_small = _mm256_set1_epi32(SMALL),
                  b1 = _mm256_set1_epi32(DPA_PTB_SL_STAY), b2 = _mm256_set1_epi32(DPA_PTB_SU_STAY),
                  b4 = _mm256_set1_epi32(DPA_PTB_S_L), b8 = _mm256_set1_epi32(DPA_PTB_S_U);
    int32_t best[8];
    int64_t best_a[8] = { 0 }, best_b[8] = { 0 };
    for (int k = 0; k < 8; k++) best[k] = SMALL;
    for (int64_t b = 0; b < maxL; b++) {
        int32_t bcs[8];
        for (int k = 0; k < 8; k++) bcs[k] = b < len[k] ? rd[k][b] : 15; /* past its end: unused */
        const __m256i v_bc = _mm256_loadu_si256((const __m256i *)(const void *)bcs);
        uint8_t *row = tb + b * S * 8;
        __m256i last_sl = v_small, last_sc = zero, last_sdiag = zero;
        for (int64_t a = 0; a < S; a++) {
            const __m256i st = _mm256_cvtepu8_epi32(_mm_loadl_epi64((const __m128i *)(const void *)(state + a * 8)));
            const __m256i cg = _mm256_cvtepi8_epi32(_mm_loadl_epi64((const __m128i *)(const void *)(cgap + a * 8)));
            const __m256i miss = _mm256_cmpeq_epi32(_mm256_and_si256(st, v_bc), zero);
            const __m256i sm = _mm256_add_epi32(_mm256_add_epi32(last_sdiag, _mm256_andnot_si256(miss, v_match)),
                                                _mm256_and_si256(cg, v_mcg));
            __m256i *sp = (__m256i *)(void *)(s + a * 8), *sip = (__m256i *)(void *)(si + a * 8);
            last_sdiag = _mm256_load_si256(sp);
            const __m256i ol = _mm256_add_epi32(last_sc, _mm256_andnot_si256(cg, v_open));
            const __m256i xl = _mm256_add_epi32(last_sl, _mm256_andnot_si256(cg, v_ext));
            const __m256i l_stay = _mm256_cmpgt_epi32(xl, ol);
            const __m256i sl = _mm256_max_epi32(xl, ol);
            last_sl = sl;
            const __m256i ou = _mm256_add_epi32(last_sdiag, v_open);
            const __m256i xu = _mm256_add_epi32(_mm256_load_si256(sip), v_ext);
            const __m256i u_stay = _mm256_cmpgt_epi32(xu, ou);
            const __m256i su = _mm256_max_epi32(xu, ou);
            _mm256_store_si256(sip, su);
            /* SU only when strictly above both; SL when not below SU and above SM */
            const __m256i su_gt_sl = _mm256_cmpgt_epi32(su, sl);
            const __m256i take_u = _mm256_and_si256(su_gt_sl, _mm256_cmpgt_epi32(su, sm));
            const __m256i take_l = _mm256_andnot_si256(_mm256_or_si256(take_u, su_gt_sl), _mm256_cmpgt_epi32(sl, sm));
            const __m256i sc = _mm256_max_epi32(_mm256_max_epi32(sm, sl), su);
            _mm256_store_si256(sp, sc);
            last_sc = sc;
            const __m256i f = _mm256_or_si256(_mm256_or_si256(_mm256_and_si256(l_stay, b1), _mm256_and_si256(u_stay, b2)),
                                              _mm256_or_si256(_mm256_and_si256(take_l, b4), _mm256_and_si256(take_u, b8)));
            const __m128i w16 = _mm_packus_epi32(_mm256_castsi256_si128(f), _mm256_extracti128_si256(f, 1));
            _mm_storel_epi64((__m128i *)(void *)(row + a * 8), _mm_packus_epi16(w16, w16));
        }
        /* the end cell in PaPaRa's order: each row's last site, then the read's last row left
         * to right */
        for (int k = 0; k < lanes; k++) {
            if (b < len[k] - 1) {
                const int32_t v = s[(S - 1) * 8 + k];
                if (v > best[k]) best[k] = v, best_a[k] = S - 1, best_b[k] = b;
            } else if (b == len[k] - 1) {
                for (int64_t a = 0; a < S; a++)
                    if (s[a * 8 + k] > best[k]) best[k] = s[a * 8 + k], best_a[k] = a, best_b[k] = b;
            }
        }
    }
    for (int k = 0; k < lanes; k++) {
        num_ops[k] = dpa_papara_trace(tb + k, 8, S, len[k], best_a[k], best_b[k], rev, ops[k]);
        scores[k] = best[k];
    }
    free(tb), free(s), free(lane), free(rev);
    return DPA_OK;
}
