/*
 * sw_avx2_rel16.c — the AVX2 Smith-Waterman fill in 16 int16 lanes, for pairs where
 * dpa_sw_rel16_fits() holds (sw_rel16.h: every GATK parameter set at every length). Same strip
 * walk as sw_simd.h (lane k = row r0 + k + 1, step t = anti-diagonal, lane k at column
 * t - k + 1), but 16 rows per strip and every value stored relative to a per-step base
 * b_t = H[r0][min(t + 1, m)], the strip's top-row cell lane 0 reads. Neighbouring cells differ
 * by a bounded amount (sw_rel16.h), so the relative values fit int16 however large the
 * absolute scores grow (a 1000 bp haplotype with match 200 reaches 200,000).
 *
 * Moving the base costs no vector instruction in the step: the per-step differences
 * d_t = b_t - b_{t-1} are folded into per-step constants broadcast straight from memory (a
 * load, no ALU): A_t = open - d_t, E_t = extend - d_t, S_t = mismatch - open - d_t, D_t = d_t
 * (R16_STEP says where each goes), and lane 0's V input from the top row, vin_t =
 * V[r0][t+1] + extend - b_t. Between strips nothing goes back to absolute scores: the next
 * strip's d and vin are differences of this strip's last-row outputs (all in int16, r16_next),
 * and only the last strip's bases are summed up to give the bottom row. All per-step arrays
 * are stored in reverse step order (index x = T - 1 - t), the order the last row comes out in.
 * docs/sw-simd.md, "AVX2: 16-bit lanes", has the design and the numbers. Compiled with -mavx2
 * (native/CMakeLists.txt).
 *
 * Traceback: the four compare masks per step, packed two by two with vpacksswb and stored as
 * vpmovmskb bit planes (layout DPA_SW_TB_PLANES16X, sw.h): 8 bytes per 16 cells.
 */
#include <immintrin.h>

#include "cpu/sw/sw_rel16.h"

#define R16_W 16

/* Lane k's lag: lane k is at column t - k + 1 - R16_LAG(k) at step t. The high half runs one
 * step behind, so its lane 8 takes lane 7's value from the previous step's vector and the lane
 * shift needs no lane-crossing instruction on the recurrence (see r16_shift_in). */
#define R16_LAG(k) ((k) >= 8 ? 1 : 0)
/* R16_LAG(k) + k for each lane: lanes with this <= t have started at step t */
static const int16_t r16_start[16] = { 0, 1, 2, 3, 4, 5, 6, 7, 9, 10, 11, 12, 13, 14, 15, 16 };

/* An int16 value in both halves of an int32, so vpbroadcastd from memory (a pure load) gives
 * it in all 16 word lanes. */
static inline int32_t r16_pair(int32_t x)
{
    const uint32_t w = (uint16_t)x;
    return (int32_t)(w * 0x10001u);
}

static inline int16_t r16_i16(int32_t x) { return (int16_t)(uint16_t)(uint32_t)x; }

/* Lanes [x[7], v[0..6], old[7], v[8..14]]: vinserti128 puts old's low half above x,
 * vpalignr shifts each half of v by one word and fills word 0 of each half from there. old is
 * the vector of the step before, already rebased, so only the 1-cycle vpalignr waits for v
 * (this step's value): the 3-cycle lane-crossing insert is off the recurrence. */
static inline __m256i r16_shift_in(__m256i v, __m256i old, __m128i x)
{
    const __m256i lo = _mm256_inserti128_si256(_mm256_castsi128_si256(x),
                                                _mm256_castsi256_si128(old), 1);
    return _mm256_alignr_epi8(v, lo, 14);
}

typedef struct r16_strip {
    const int32_t *A, *E, *S, *D; /* per step, as r16_pair, at index T - 1 - t */
    const int16_t *vin;       /* lane 0's V + extend - b_t from the top row, at T - 1 - t */
    int16_t *outH, *outV;     /* lane 15's H and V at step t, at index T - 1 - t */
    int16_t *full;            /* partial last strip: every step's H vector */
    int16_t *ebuf;            /* the H vectors of steps m-1 .. T-1 (some lane at column m) */
    uint8_t *tbs;             /* this strip's traceback */
    const uint8_t *alt8;      /* per step: the 16 lanes' alternate bases (R16_LAG included) */
    int32_t m, T;
    int16_t open;
} r16_strip;

/* One step (sw_simd.h's SW_STEP, rebased). At step t, with everything in base b_t:
 *   hg = H left + open, W = V above (previous step) + extend;
 *   vg (H above + open) and ve (V above + extend) are hg and W shifted one lane down (each lane
 *   holds the next row); lane 0 takes the top row: H[r0][t+1] + open - b_t = open exactly, and
 *   vin_t; lane 8 takes lane 7 of the previous step's hg / W, rebased by D_t = d_t;
 *   diag = the previous step's vg - open + score, with the base moves in S_t.
 * PRO: lanes not yet at column 1 get H[i][0] (kept in the current base in Hinit) and
 * h = LOW16; EPI: some lane is at column m; PART: the strip's last row is not lane 15 (keep
 * every H vector). */
#define R16_STEP(PRO, EPI, PART)                                                             \
    do {                                                                                     \
        const int32_t x_ = T - 1 - t;                                                        \
        const __m256i At = _mm256_set1_epi32(s->A[x_]), Et = _mm256_set1_epi32(s->E[x_]);    \
        const __m256i St = _mm256_set1_epi32(s->S[x_]), Dt = _mm256_set1_epi32(s->D[x_]);    \
        const __m256i hg = _mm256_add_epi16(Hl, At);                                         \
        const __m256i W = _mm256_add_epi16(V, Et);                                           \
        const __m256i vg = r16_shift_in(hg, _mm256_sub_epi16(hgp, Dt), vopen);               \
        const __m256i ve = r16_shift_in(                                                     \
            W, _mm256_sub_epi16(Wp, Dt),                                                     \
            _mm_loadu_si128((const __m128i *)(const void *)(s->vin + x_ - 7)));              \
        hgp = hg;                                                                            \
        Wp = W;                                                                              \
        const __m256i eq = _mm256_cmpeq_epi16(                                               \
            refw, _mm256_cvtepu8_epi16(_mm_loadu_si128(                                     \
                      (const __m128i *)(const void *)(s->alt8 + (int64_t)t * R16_W))));      \
        const __m256i diag = _mm256_add_epi16(vgp, _mm256_add_epi16(St, _mm256_and_si256(eq, vdiff))); \
        vgp = vg;                                                                            \
        const __m256i vo = _mm256_cmpgt_epi16(vg, ve);                                       \
        V = _mm256_max_epi16(vg, ve);                                                        \
        const __m256i he = _mm256_add_epi16(hh, Et);                                         \
        const __m256i ho = _mm256_cmpgt_epi16(hg, he);                                       \
        hh = _mm256_max_epi16(hg, he);                                                       \
        /* H = max(diag, h, V), V last: it is the value that arrives last. Not diagonal  \
         * (max(h, V) > diag) is H > diag. */                                               \
        __m256i Hn = _mm256_max_epi16(_mm256_max_epi16(diag, hh), V);                        \
        const __m256i nd = _mm256_cmpgt_epi16(Hn, diag);                                     \
        const __m256i dn = _mm256_cmpgt_epi16(V, hh);                                        \
        const uint32_t w0_ = (uint32_t)_mm256_movemask_epi8(_mm256_packs_epi16(nd, dn));     \
        const uint32_t w1_ = (uint32_t)_mm256_movemask_epi8(_mm256_packs_epi16(ho, vo));     \
        memcpy(s->tbs + (int64_t)t * 8, &w0_, 4);                                            \
        memcpy(s->tbs + (int64_t)t * 8 + 4, &w1_, 4);                                        \
        if (PRO) {                                                                           \
            Hinit = _mm256_sub_epi16(Hinit, Dt);                                             \
            const __m256i st_ = _mm256_cmpgt_epi16(_mm256_set1_epi16((int16_t)(t + 1)), vstart); \
            Hn = _mm256_blendv_epi8(Hinit, Hn, st_);                                         \
            hh = _mm256_blendv_epi8(vlow, hh, st_);                                          \
        }                                                                                    \
        if (PART) {                                                                          \
            _mm256_storeu_si256((__m256i *)(void *)(s->full + (int64_t)t * R16_W), Hn);      \
        } else {                                                                             \
            /* word 7 of the high half lands at T-1-t; the 7 words below it are rewritten  \
             * by later steps, the ones above were final before */                          \
            _mm_storeu_si128((__m128i *)(void *)(s->outH + (T - 1 - t) - 7),                 \
                             _mm256_extracti128_si256(Hn, 1));                               \
            _mm_storeu_si128((__m128i *)(void *)(s->outV + (T - 1 - t) - 7),                 \
                             _mm256_extracti128_si256(V, 1));                                \
        }                                                                                    \
        if (EPI)                                                                             \
            _mm256_storeu_si256((__m256i *)(void *)(s->ebuf + (int64_t)(t - (m - 1)) * R16_W), Hn); \
        Hl = Hn;                                                                             \
    } while (0)

static inline __attribute__((always_inline)) void
r16_fill_strip(const int part, const r16_strip *s, const __m256i refw, __m256i Hinit,
               const __m256i vlow, const __m256i vdiff)
{
    const int32_t m = s->m, T = s->T;
    const __m256i vstart = _mm256_loadu_si256((const __m256i *)(const void *)r16_start);
    const __m128i vopen = _mm_set1_epi16(s->open);
    /* vgp lane 0 = H[r0][0] + open - b_{-1} = open, the diagonal of cell (r0 + 1, 1) */
    __m256i Hl = Hinit, hh = vlow, V = vlow, vgp = _mm256_set1_epi16(s->open);
    __m256i hgp = vlow, Wp = vlow;
    int32_t t = 0;
    for (; t < R16_W; t++) R16_STEP(1, t >= m - 1, part);
    _Pragma("GCC unroll 2") for (; t < m - 1; t++) R16_STEP(0, 0, part);
    for (; t < T; t++) R16_STEP(0, 1, part);
}
#undef R16_STEP

static void r16_strip_full(const r16_strip *s, __m256i refw, __m256i Hinit, __m256i vlow,
                           __m256i vdiff)
{
    r16_fill_strip(0, s, refw, Hinit, vlow, vdiff);
}

static void r16_strip_part(const r16_strip *s, __m256i refw, __m256i Hinit, __m256i vlow,
                           __m256i vdiff)
{
    r16_fill_strip(1, s, refw, Hinit, vlow, vdiff);
}

/* The fill's constants from d (int16, at index x = T - 1 - t, blocks of 16 with room past T):
 * r16_pair of open - d, extend - d, mismatch - open - d and d. vpermq + vpunpck{l,h}wd
 * doubles each word in order. */
static void r16_pairs(const dpa_sw_params *p, int32_t T, const int16_t *d16, int32_t *A,
                      int32_t *E, int32_t *S, int32_t *D)
{
    const __m256i vo = _mm256_set1_epi16(r16_i16(p->gap_open));
    const __m256i ve = _mm256_set1_epi16(r16_i16(p->gap_extend));
    const __m256i vs = _mm256_set1_epi16(r16_i16(p->mismatch - p->gap_open));
    for (int32_t x = 0; x < T; x += R16_W) {
        const __m256i d = _mm256_permute4x64_epi64(
            _mm256_loadu_si256((const __m256i *)(const void *)(d16 + x)), 0xD8);
        const __m256i v[4] = { _mm256_sub_epi16(vo, d), _mm256_sub_epi16(ve, d),
                               _mm256_sub_epi16(vs, d), d };
        int32_t *const out[4] = { A, E, S, D };
        for (int q = 0; q < 4; q++) {
            _mm256_storeu_si256((__m256i *)(void *)(out[q] + x), _mm256_unpacklo_epi16(v[q], v[q]));
            _mm256_storeu_si256((__m256i *)(void *)(out[q] + x + 8), _mm256_unpackhi_epi16(v[q], v[q]));
        }
    }
}

/* The next strip's d and vin from this strip's last row, in int16. With o(c) = outH[m - c]
 * and oV(c) = outV[m - c] (lane 15 at column c, relative to b_{c+15}) and the next strip's
 * bases b'_t = H[r0+16][min(t+1, m)] = o(t+1) + b_{t+16}:
 *   d'_t = o(t+1) - o(t) + d_{t+16} (1 <= t < m), 0 (t >= m), and d'_0 from absolute values;
 *   vin'_t = oV(t+1) - o(t+1) + extend (t < m), LOW16 (t >= m).
 * At x = T - 1 - t = m + 15 - t these are elementwise over x (outH[x - 16], Dr[x - 16], ...).
 * The true values are within +-32767 (sw_rel16.h), so int16 wrap-around in between is exact. */
static void r16_next(const dpa_sw_params *p, int32_t T, const int16_t *outH,
                     const int16_t *outV, const int16_t *d16, int16_t *d16n, int16_t *vin,
                     int16_t low, int32_t d0)
{
    const __m256i ve = _mm256_set1_epi16(r16_i16(p->gap_extend));
    for (int32_t x = R16_W; x < T; x += R16_W) {
        const __m256i o1 = _mm256_loadu_si256((const __m256i *)(const void *)(outH + x - 16));
        const __m256i o0 = _mm256_loadu_si256((const __m256i *)(const void *)(outH + x - 15));
        const __m256i v1 = _mm256_loadu_si256((const __m256i *)(const void *)(outV + x - 16));
        const __m256i dd = _mm256_loadu_si256((const __m256i *)(const void *)(d16 + x - 16));
        _mm256_storeu_si256((__m256i *)(void *)(d16n + x),
                            _mm256_add_epi16(_mm256_sub_epi16(o1, o0), dd));
        _mm256_storeu_si256((__m256i *)(void *)(vin + x),
                            _mm256_add_epi16(_mm256_sub_epi16(v1, o1), ve));
    }
    _mm256_storeu_si256((__m256i *)(void *)d16n, _mm256_setzero_si256());
    _mm256_storeu_si256((__m256i *)(void *)vin, _mm256_set1_epi16(low));
    d16n[T - 1] = r16_i16(d0);
}

/* Bump allocation of 32-byte-aligned pieces from the scratch ints. */
static inline void *r16_take(int32_t **at, int64_t ints)
{
    void *q = *at;
    *at += (ints + 7) & ~(int64_t)7;
    return q;
}

/* H[k][0] = H[0][k] with H[0][0] = 0. */
static inline int32_t r16_border(const dpa_sw_params *p, int64_t k)
{
    return k == 0 ? 0 : sw_simd_border(p, k);
}

dpa_status dpa_sw_align_avx2_rel16(const uint8_t *ref, int32_t n, const uint8_t *alt, int32_t m,
                                   const dpa_sw_params *p, dpa_sw_scratch *sc, char *cigar,
                                   int32_t *cigar_len, int32_t *alignment_offset, int *exact)
{
    *exact = dpa_sw_exact_shortcut(ref, n, alt, m, p, cigar, cigar_len, alignment_offset);
    if (*exact) return DPA_OK;

    const int32_t T = m + R16_W; /* lane 15 is at column m at step m + 15 */
    const int64_t strips = ((int64_t)n + R16_W - 1) / R16_W;
    const int64_t steps = (int64_t)T + 2 * R16_W;       /* per-step int32 arrays, blocks */
    const int64_t words = ((int64_t)T + 3 * R16_W) / 2; /* per-step int16 arrays + pad, ints */
    const int64_t need = 8 + 4 * (steps + 8) + 5 * (words + 8) + (steps + 8) +
                         ((int64_t)m + 1 + 8) + ((int64_t)n + 2 + 8) +
                         ((int64_t)T * R16_W / 2 + 8) + ((R16_W + 1) * R16_W / 2 + 8) +
                         (((int64_t)m + 2 * R16_W + 1) / 2 + 8) + ((int64_t)T * R16_W / 4 + 8) +
                         (((int64_t)n + R16_W) / 4 + 1 + 8);
    if (!sw_simd_grow((void **)&sc->tb, &sc->tb_cap, strips * T * 8, 1) ||
        !sw_simd_grow((void **)&sc->ints, &sc->ints_cap, need, sizeof(int32_t)) ||
        !sw_simd_grow((void **)&sc->elems, &sc->elems_cap, (int64_t)n + m + 3, sizeof(int32_t)))
        return dpa_fail(DPA_ERR_OUT_OF_MEMORY,
                        "sw: out of memory for the traceback of a %d x %d pair", n, m);

    int32_t *at = (int32_t *)(((uintptr_t)sc->ints + 31) & ~(uintptr_t)31);
    int32_t *A = r16_take(&at, steps), *E = r16_take(&at, steps), *S = r16_take(&at, steps);
    int32_t *D = r16_take(&at, steps);
    /* int16 arrays indexed by x = T - 1 - t, 16 words of room on each side */
    int16_t *d16 = (int16_t *)r16_take(&at, words) + R16_W;
    int16_t *d16n = (int16_t *)r16_take(&at, words) + R16_W;
    int16_t *vin = (int16_t *)r16_take(&at, words) + R16_W;
    int16_t *outH = (int16_t *)r16_take(&at, words) + R16_W;
    int16_t *outV = (int16_t *)r16_take(&at, words) + R16_W;
    int32_t *base = r16_take(&at, steps); /* the last strip's absolute b_t */
    int32_t *bottom = r16_take(&at, (int64_t)m + 1);
    int32_t *lastcol = r16_take(&at, (int64_t)n + 2);
    int16_t *full = r16_take(&at, (int64_t)T * R16_W / 2);
    int16_t *ebuf = r16_take(&at, (R16_W + 1) * R16_W / 2);
    int16_t *altrev = (int16_t *)r16_take(&at, ((int64_t)m + 2 * R16_W + 1) / 2) + R16_W;
    uint8_t *alt8 = r16_take(&at, (int64_t)T * R16_W / 4);
    uint8_t *refpad = r16_take(&at, ((int64_t)n + R16_W) / 4 + 1);

    /* altrev[x] = alt[m-1-x]; the 16 words on each side are read only by lanes outside the
     * matrix */
    memset(altrev - R16_W, 0, R16_W * sizeof(int16_t));
    memset(altrev + m, 0, R16_W * sizeof(int16_t));
    for (int32_t x = 0; x < m; x++) altrev[x] = alt[m - 1 - x];
    /* step t: lane k < 8 compares with alt[t - k], lane k >= 8 (one step behind) with
     * alt[t - k - 1]; bytes (vpmovzxbw in the step costs one shuffle, 16 bytes a step less to
     * stream than words) */
    for (int32_t t = 0; t < T; t++) {
        const __m128i lo = _mm_loadu_si128((const __m128i *)(const void *)(altrev + (m - 1 - t)));
        const __m128i hi = _mm_loadu_si128((const __m128i *)(const void *)(altrev + (m - t + 8)));
        _mm_storeu_si128((__m128i *)(void *)(alt8 + (int64_t)t * R16_W), _mm_packus_epi16(lo, hi));
    }
    memcpy(refpad, ref, (size_t)n);
    memset(refpad + n, 0, R16_W);

    const int64_t mm = dpa_sw_rel16_step_bound(p);
    const int16_t low = r16_i16((int32_t)(-32768 + mm - p->gap_extend));
    const __m256i vlow = _mm256_set1_epi16(low);
    const __m256i vdiff = _mm256_set1_epi16(r16_i16(p->match - p->mismatch));

    /* the first strip's top row is the border row; V there is minus infinity */
    for (int32_t x = -R16_W; x < T + R16_W; x++) {
        const int32_t t = T - 1 - x;
        d16[x] = t >= 0 && t < m ? r16_i16(r16_border(p, t + 1) - r16_border(p, t)) : 0;
        vin[x] = low;
    }
    r16_pairs(p, T, d16, A, E, S, D);
    int32_t hm = r16_border(p, m); /* H[r0][m], the strip's base from step m - 1 on */

    /* lane k's H[r0+k+1][0] - H[r0][0]: open + k extend in the first strip, (k + 1) extend
     * after it (zero without gapped borders); lanes past row n never reach a real cell */
    int16_t init0[R16_W], init1[R16_W];
    for (int k = 0; k < R16_W; k++) {
        init0[k] = r16_i16(r16_border(p, k + 1));
        init1[k] = r16_i16(r16_border(p, R16_W + k + 1) - r16_border(p, R16_W));
    }
    const __m256i Hinit0 = _mm256_loadu_si256((const __m256i *)(const void *)init0);
    const __m256i Hinit1 = _mm256_loadu_si256((const __m256i *)(const void *)init1);

    r16_strip st = { A, E, S, D, vin, outH, outV, full, ebuf, NULL, alt8, m, T,
                     r16_i16(p->gap_open) };
    for (int32_t r0 = 0; r0 < n; r0 += R16_W) {
        const int32_t ko = n - 1 - r0 < R16_W - 1 ? n - 1 - r0 : R16_W - 1;
        const int32_t b_1 = r16_border(p, r0); /* b_{-1} = H[r0][0] */
        const __m256i refw =
            _mm256_cvtepu8_epi16(_mm_loadu_si128((const __m128i *)(const void *)(refpad + r0)));
        const __m256i Hinit = r0 == 0 ? Hinit0 : Hinit1;
        st.tbs = sc->tb + (int64_t)(r0 / R16_W) * T * 8;
        if (ko < R16_W - 1)
            r16_strip_part(&st, refw, Hinit, vlow, vdiff);
        else
            r16_strip_full(&st, refw, Hinit, vlow, vdiff);

        /* column m of rows r0+1 .. r0+ko+1: base hm (every lane reaches m at step >= m-1) */
        for (int32_t k = 0; k <= ko; k++)
            lastcol[r0 + k + 1] = ebuf[(k + R16_LAG(k)) * R16_W + k] + hm;
        if (r0 + R16_W >= n) { /* the last strip: bottom row = lane ko, absolute */
            base[0] = b_1 + d16[T - 1];
            for (int32_t t = 1; t < T; t++) base[t] = base[t - 1] + d16[T - 1 - t];
            const int32_t lag = ko + R16_LAG(ko); /* lane ko is at column c at step c-1+lag */
            for (int32_t c = 1; c <= m; c++)
                bottom[c] = (ko < R16_W - 1 ? full[(int64_t)(c - 1 + lag) * R16_W + ko]
                                            : outH[m - c]) + base[c - 1 + lag];
            break;
        }
        /* b_16 (absolute) for the next strip's d'_0 = H[r0+16][1] - H[r0+16][0] */
        int32_t b16 = b_1;
        for (int32_t t = 0; t <= 16; t++) b16 += d16[T - 1 - t];
        const int32_t d0 = outH[m - 1] + b16 - r16_border(p, (int64_t)r0 + R16_W);
        r16_next(p, T, outH, outV, d16, d16n, vin, low, d0);
        int16_t *tmp = d16;
        d16 = d16n;
        d16n = tmp;
        r16_pairs(p, T, d16, A, E, S, D);
        hm += outH[0]; /* H[r0+16][m] = o(m) + b_{m+15} */
    }
    dpa_sw_finish(sc->tb, DPA_SW_TB_PLANES16X, n, m, bottom, lastcol, p, sc->elems, cigar,
                  cigar_len, alignment_offset);
    return DPA_OK;
}
