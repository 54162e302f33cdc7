/*
 * sw_ref.c — scalar reference Smith-Waterman with GATK 4.6 semantics
 * (SmithWatermanJavaAligner: calculateMatrix + calculateCigar, and the exact-substring
 * shortcut of align()). Written from the documented behaviour in docs/sw.md.
 *
 * Contents:
 *   last_index_of()  GATK's shortcut for SOFTCLIP / IGNORE: last exact occurrence of alt
 *   fill()           score recurrence, one row at a time, traceback byte per cell
 *   best_cell()      where the traceback starts, per overhang strategy
 *   traceback()      CIGAR elements (GATK order: built backwards), alignment offset
 *   write_cigar()    elements -> text
 *
 * Memory: two score rows, one vertical-gap row, the last column (int32) and one traceback
 * byte per cell (ref_len * alt_len), versus GATK's two int[ref+1][alt+1].
 * Integer safety: dpa_sw_validate() bounds every score and gap value below 2^30 in
 * magnitude, so int32 arithmetic here never overflows and equals Java's.
 */
#include <stdlib.h>
#include <string.h>

#include "common/status.h"
#include "cpu/sw/sw.h"

enum { OP_M = 0, OP_I = 1, OP_D = 2, OP_S = 3 };
static const char OP_CHAR[4] = { 'M', 'I', 'D', 'S' };

void dpa_sw_scratch_free(dpa_sw_scratch *s)
{
    free(s->tb);
    free(s->ints);
    free(s->elems);
    memset(s, 0, sizeof *s);
}

static int grow(void **p, int64_t *cap, int64_t need, size_t elem)
{
    if (need <= *cap) return 1;
    void *q = malloc((size_t)need * elem);
    if (!q) return 0;
    free(*p);
    *p = q;
    *cap = need;
    return 1;
}

/* Last r with ref[r .. r+alt_len) == alt, or -1 (GATK Utils.lastIndexOf). */
static int32_t last_index_of(const uint8_t *ref, int32_t ref_len, const uint8_t *alt,
                             int32_t alt_len)
{
    for (int32_t r = ref_len - alt_len; r >= 0; r--) /* first byte inline: most r fail there */
        if (ref[r] == alt[0] && memcmp(ref + r, alt, (size_t)alt_len) == 0) return r;
    return -1;
}

/* Border value of row 0 / column 0 at index k >= 1. */
static inline int32_t border(const dpa_sw_params *p, int32_t k)
{
    if (p->overhang != DPA_SW_OVERHANG_INDEL && p->overhang != DPA_SW_OVERHANG_LEADING_INDEL)
        return 0;
    return p->gap_open + (k - 1) * p->gap_extend;
}

/*
 * Score recurrence (GATK calculateMatrix), rows i = 1..n over the reference, columns
 * j = 1..m over the alternate:
 *   diag  = H[i-1][j-1] + (ref[i-1] == alt[j-1] ? match : mismatch)
 *   V[j] += extend; if H[i-1][j] + open > V[j]: V[j] = H[i-1][j] + open  (vertical gap opened)
 *   h    += extend; if H[i][j-1] + open > h:    h    = H[i][j-1] + open  (horizontal gap opened)
 *   diag >= V[j] && diag >= h -> diag;  else h >= V[j] -> right (I);  else down (D)
 *   H[i][j] = max(MATRIX_MIN_CUTOFF, chosen)
 * V starts at LOW_INIT for every column, h at LOW_INIT for every row. On return row n is in
 * *bottom (m+1 values) and column m in lastcol[1..n].
 */
static void fill(const uint8_t *ref, int32_t n, const uint8_t *alt, int32_t m,
                 const dpa_sw_params *p, uint8_t *tb, int32_t *ints, int32_t **bottom,
                 int32_t **lastcol)
{
    int32_t *prev = ints, *cur = ints + (m + 1), *bgv = ints + 2 * (int64_t)(m + 1);
    int32_t *col = ints + 3 * (int64_t)(m + 1);
    const int32_t w_open = p->gap_open, w_ext = p->gap_extend;
    const int32_t w_match = p->match, w_mis = p->mismatch;

    prev[0] = 0;
    for (int32_t j = 1; j <= m; j++) prev[j] = border(p, j);
    for (int32_t j = 0; j <= m; j++) bgv[j] = DPA_SW_LOW_INIT;

    for (int32_t i = 1; i <= n; i++) {
        const uint8_t a = ref[i - 1];
        uint8_t *row = tb + (int64_t)(i - 1) * m;
        int32_t best_h = DPA_SW_LOW_INIT;
        cur[0] = border(p, i);
        for (int32_t j = 1; j <= m; j++) {
            const int32_t diag = prev[j - 1] + (a == alt[j - 1] ? w_match : w_mis);
            uint8_t flags = 0;

            int32_t gap = prev[j] + w_open;
            bgv[j] += w_ext;
            if (gap > bgv[j]) {
                bgv[j] = gap;
                flags |= DPA_SW_TB_V_OPEN;
            }
            const int32_t down = bgv[j];

            gap = cur[j - 1] + w_open;
            best_h += w_ext;
            if (gap > best_h) {
                best_h = gap;
                flags |= DPA_SW_TB_H_OPEN;
            }
            const int32_t right = best_h;

            int32_t v;
            if (diag >= down && diag >= right) {
                v = diag;
            } else if (right >= down) {
                v = right;
                flags |= DPA_SW_TB_RIGHT;
            } else {
                v = down;
                flags |= DPA_SW_TB_DOWN;
            }
            cur[j] = v > DPA_SW_MATRIX_MIN_CUTOFF ? v : DPA_SW_MATRIX_MIN_CUTOFF;
            row[j - 1] = flags;
        }
        col[i] = cur[m];
        int32_t *t = prev;
        prev = cur;
        cur = t;
    }
    *bottom = prev;
    *lastcol = col;
}

/* Length of the gap GATK recorded at (i, j): back to the cell where it was opened; a gap
 * that reaches row/column 1 has the full length (GATK's counter starts at 0 there). */
static inline int32_t h_gap_len(const uint8_t *tb, int32_t m, int l, int32_t i, int32_t j)
{
    int32_t k = j;
    while (k > 1 && !(dpa_sw_tb_get(tb, m, l, i, k) & DPA_SW_TB_H_OPEN)) k--;
    return j - k + 1;
}

static inline int32_t v_gap_len(const uint8_t *tb, int32_t m, int l, int32_t i, int32_t j)
{
    int32_t r = i;
    while (r > 1 && !(dpa_sw_tb_get(tb, m, l, r, j) & DPA_SW_TB_V_OPEN)) r--;
    return i - r + 1;
}

static inline int32_t iabs(int32_t x) { return x < 0 ? -x : x; }

static int32_t write_cigar(const int32_t *elems, int32_t count, char *out)
{
    int32_t len = 0;
    for (int32_t e = count - 1; e >= 0; e--) { /* elements were collected backwards */
        int32_t k = elems[e] >> 2;
        char digits[12];
        int nd = 0;
        do {
            digits[nd++] = (char)('0' + k % 10);
            k /= 10;
        } while (k > 0);
        while (nd > 0) out[len++] = digits[--nd];
        out[len++] = OP_CHAR[elems[e] & 3];
    }
    return len;
}

int dpa_sw_exact_shortcut(const uint8_t *ref, int32_t n, const uint8_t *alt, int32_t m,
                          const dpa_sw_params *p, char *cigar, int32_t *cigar_len,
                          int32_t *alignment_offset)
{
    if (p->overhang != DPA_SW_OVERHANG_SOFTCLIP && p->overhang != DPA_SW_OVERHANG_IGNORE)
        return 0;
    const int32_t r = last_index_of(ref, n, alt, m);
    if (r < 0) return 0;
    const int32_t e = m << 2 | OP_M;
    *cigar_len = write_cigar(&e, 1, cigar);
    *alignment_offset = r;
    return 1;
}

dpa_status dpa_sw_align_scalar(const uint8_t *ref, int32_t n, const uint8_t *alt, int32_t m,
                               const dpa_sw_params *p, dpa_sw_scratch *s, char *cigar,
                               int32_t *cigar_len, int32_t *alignment_offset, int *exact)
{
    *exact = dpa_sw_exact_shortcut(ref, n, alt, m, p, cigar, cigar_len, alignment_offset);
    if (*exact) return DPA_OK;

    if (!grow((void **)&s->tb, &s->tb_cap, (int64_t)n * m, 1) ||
        !grow((void **)&s->ints, &s->ints_cap, 3 * ((int64_t)m + 1) + (int64_t)n + 1,
              sizeof(int32_t)) ||
        !grow((void **)&s->elems, &s->elems_cap, (int64_t)n + m + 3, sizeof(int32_t)))
        return dpa_fail(DPA_ERR_OUT_OF_MEMORY,
                        "sw: out of memory for the traceback of a %d x %d pair", n, m);

    int32_t *bottom, *lastcol;
    fill(ref, n, alt, m, p, s->tb, s->ints, &bottom, &lastcol);
    dpa_sw_finish(s->tb, 0, n, m, bottom, lastcol, p, s->elems, cigar, cigar_len,
                  alignment_offset);
    return DPA_OK;
}

static inline __attribute__((always_inline)) void
finish(const uint8_t *tb, int l, int32_t n, int32_t m, const int32_t *bottom,
       const int32_t *lastcol, const dpa_sw_params *p, int32_t *elems, char *cigar,
       int32_t *cigar_len, int32_t *alignment_offset)
{
    const int ov = p->overhang;
    /* Where the traceback starts (GATK calculateCigar). */
    int32_t p1 = 0, p2 = 0, seg = 0;
    if (ov == DPA_SW_OVERHANG_INDEL) {
        p1 = n;
        p2 = m;
    } else {
        int32_t maxscore = INT32_MIN;
        p2 = m;
        /* last column, >=: the lowest row wins ties. As two passes (the maximum, then the
         * last row holding it), which the compiler vectorises, instead of one pass whose
         * every step waits for the previous compare. */
        for (int32_t i = 1; i <= n; i++) maxscore = lastcol[i] > maxscore ? lastcol[i] : maxscore;
        for (p1 = n; lastcol[p1] != maxscore; p1--) {
        }
        if (ov != DPA_SW_OVERHANG_LEADING_INDEL) { /* bottom row: strictly better, or equal */
            for (int32_t j = 1; j <= m; j++) {     /* and closer to the diagonal            */
                const int32_t v = bottom[j];
                if (v > maxscore || (v == maxscore && iabs(n - j) < iabs(p1 - p2))) {
                    p1 = n;
                    p2 = j;
                    maxscore = v;
                    seg = m - j; /* the alternate overhangs the reference's end */
                }
            }
        }
    }

    int32_t *el = elems, ne = 0;
    if (seg > 0 && ov == DPA_SW_OVERHANG_SOFTCLIP) {
        el[ne++] = seg << 2 | OP_S;
        seg = 0;
    }
    int state = OP_M;
    do {
        const uint8_t t = dpa_sw_tb_get(tb, m, l, p1, p2);
        int nstate;
        int32_t step;
        switch (t & DPA_SW_TB_DIR_MASK) {
        case DPA_SW_TB_DOWN:
            nstate = OP_D;
            step = v_gap_len(tb, m, l, p1, p2);
            p1 -= step;
            break;
        case DPA_SW_TB_RIGHT:
            nstate = OP_I;
            step = h_gap_len(tb, m, l, p1, p2);
            p2 -= step;
            break;
        default:
            nstate = OP_M;
            step = 1;
            p1--;
            p2--;
            break;
        }
        if (nstate == state) {
            seg += step;
        } else {
            if (seg > 0) el[ne++] = seg << 2 | state;
            seg = step;
            state = nstate;
        }
    } while (p1 > 0 && p2 > 0);

    if (ov == DPA_SW_OVERHANG_SOFTCLIP) {
        el[ne++] = seg << 2 | state;
        if (p2 > 0) el[ne++] = p2 << 2 | OP_S;
        *alignment_offset = p1;
    } else if (ov == DPA_SW_OVERHANG_IGNORE) {
        el[ne++] = (seg + p2) << 2 | state; /* the leading overhang joins the last state */
        *alignment_offset = p1 - p2;
    } else {
        el[ne++] = seg << 2 | state;
        if (p1 > 0)
            el[ne++] = p1 << 2 | OP_D;
        else if (p2 > 0)
            el[ne++] = p2 << 2 | OP_I;
        *alignment_offset = 0;
    }
    *cigar_len = write_cigar(el, ne, cigar);
}

/* One copy of finish() per traceback layout the kernels write, so dpa_sw_tb_get's layout
 * tests fold away in the traceback loop (the traceback of a 150 x 300 read took ~5% of the
 * alignment with them). */
void dpa_sw_finish(const uint8_t *tb, int l, int32_t n, int32_t m, const int32_t *bottom,
                   const int32_t *lastcol, const dpa_sw_params *p, int32_t *elems, char *cigar,
                   int32_t *cigar_len, int32_t *alignment_offset)
{
    switch (l) {
    case 0:
        finish(tb, 0, n, m, bottom, lastcol, p, elems, cigar, cigar_len, alignment_offset);
        break;
    case DPA_SW_TB_PLANES16:
        finish(tb, DPA_SW_TB_PLANES16, n, m, bottom, lastcol, p, elems, cigar, cigar_len,
               alignment_offset);
        break;
    case DPA_SW_TB_PLANES16X:
        finish(tb, DPA_SW_TB_PLANES16X, n, m, bottom, lastcol, p, elems, cigar, cigar_len,
               alignment_offset);
        break;
    default:
        finish(tb, l, n, m, bottom, lastcol, p, elems, cigar, cigar_len, alignment_offset);
        break;
    }
}

dpa_status dpa_sw_compute_pairs(dpa_sw_align_fn align, const dpa_sw_batch *b,
                                const dpa_sw_params *p, const int32_t *pairs, int64_t n,
                                const dpa_sw_out *out, int64_t *exact_matches)
{
    dpa_sw_scratch s;
    memset(&s, 0, sizeof s);
    dpa_status status = DPA_OK;
    int64_t exact = 0;
    for (int64_t k = 0; k < n; k++) {
        const int32_t i = pairs[k];
        int hit = 0;
        status = align(b->ref_bases + b->ref_offsets[i], b->ref_lengths[i],
                       b->alt_bases + b->alt_offsets[i], b->alt_lengths[i], p, &s,
                       out->cigars + out->slots[i], &out->cigar_lengths[i],
                       &out->alignment_offsets[i], &hit);
        if (status != DPA_OK) break;
        exact += hit;
    }
    dpa_sw_scratch_free(&s);
    *exact_matches = exact;
    return status;
}

dpa_status dpa_sw_compute_scalar(const dpa_sw_batch *b, const dpa_sw_params *p,
                                 const int32_t *pairs, int64_t n, const dpa_sw_out *out,
                                 int64_t *exact_matches)
{
    return dpa_sw_compute_pairs(dpa_sw_align_scalar, b, p, pairs, n, out, exact_matches);
}
