/*
 * papara_phylip.c — the relaxed PHYLIP reader (papara_io.h): ivy_mike's
 * multiple_alignment::load_phylip, sequential or interleaved, plus the checks it lacks
 * (row lengths, counts, names).
 */
#include <stdio.h>

#include "common/status.h"
#include "io/papara_io_util.h"

typedef struct line {
    size_t beg, end; /* [beg, end) without the '\n' */
} line;

static int next_line(const char *t, size_t len, size_t *pos, line *out)
{
    if (*pos >= len) return 0;
    const char *nl = memchr(t + *pos, '\n', len - *pos);
    out->beg = *pos;
    out->end = nl ? (size_t)(nl - t) : len;
    *pos = nl ? out->end + 1 : len;
    return 1;
}

static int is_blank_line(const char *t, const line *l)
{
    for (size_t k = l->beg; k < l->end; k++)
        if (!pio_blank(t[k])) return 0;
    return 1;
}

void dpa_phy_free(dpa_phy_alignment *a)
{
    if (!a) return;
    free(a->chars);
    free(a->names.buf);
    free(a->names.offset);
    memset(a, 0, sizeof *a);
}

dpa_status dpa_phy_parse(const char *text, size_t len, const char *what, dpa_phy_alignment *out)
{
    memset(out, 0, sizeof *out);
    what = what ? what : "alignment";
    size_t pos = 0;
    line l = { 0, 0 };
    long long ntaxa = -1, nsites = -1;
    /* header: two counts, possibly on the first non-blank line */
    int got;
    while ((got = next_line(text, len, &pos, &l)) && is_blank_line(text, &l)) {}
    {
        char hdr[128];
        const size_t n = l.end - l.beg < sizeof hdr - 1 ? l.end - l.beg : sizeof hdr - 1;
        memcpy(hdr, text + l.beg, n);
        hdr[n] = 0;
        char tail[2];
        if (!got || sscanf(hdr, "%lld %lld %1s", &ntaxa, &nsites, tail) != 2)
            return dpa_fail(DPA_ERR_INVALID_ARG, "%s line %lld: expected the header "
                            "\"<taxa> <sites>\"", what, (long long)pio_line(text, l.beg));
    }
    if (ntaxa < 2 || ntaxa > DPA_PAPARA_MAX_NODES || nsites < 1 || nsites > ((int64_t)1 << 31))
        return dpa_fail(DPA_ERR_LIMIT, "%s line %lld: header %lld taxa x %lld sites outside "
                        "[2, %d] x [1, 2^31]", what, (long long)pio_line(text, l.beg), ntaxa,
                        nsites, DPA_PAPARA_MAX_NODES);
    if ((size_t)(ntaxa * nsites) > len)
        return dpa_fail(DPA_ERR_INVALID_ARG, "%s: header promises %lld x %lld characters, the "
                        "file has %zu bytes", what, ntaxa, nsites, len);
    const int32_t R = (int32_t)ntaxa;
    pio_vec *rows = calloc((size_t)R, sizeof *rows);
    pio_vec names = { 0 };
    int64_t *noff = malloc(sizeof *noff * (size_t)R);
    uint8_t *chars = NULL;
    dpa_status st = DPA_OK;
    if (!rows || !noff) goto oom;
    for (int block = 0;; block++) {
        for (int32_t r = 0; r < R; r++) {
            if (!next_line(text, len, &pos, &l)) {
                st = dpa_fail(DPA_ERR_INVALID_ARG, "%s: end of file before row %d of %s block "
                              "%d (%d rows expected)", what, r + 1,
                              block ? "interleaved" : "the first", block + 1, R);
                goto fail;
            }
            if (is_blank_line(text, &l) && r == 0) { /* blank lines between blocks */
                r--;
                continue;
            }
            size_t k = l.beg;
            if (block == 0) {
                if (pio_blank(text[k])) {
                    st = dpa_fail(DPA_ERR_INVALID_ARG, "%s line %lld: row %d starts with a blank "
                                  "(the name comes first)", what,
                                  (long long)pio_line(text, l.beg), r + 1);
                    goto fail;
                }
                while (k < l.end && !pio_blank(text[k])) k++;
                if (k - l.beg > DPA_PAPARA_IO_MAX_NAME || k == l.end) {
                    st = dpa_fail(DPA_ERR_INVALID_ARG, "%s line %lld: row %d: %s", what,
                                  (long long)pio_line(text, l.beg), r + 1,
                                  k == l.end ? "no blank between name and sequence"
                                             : "name longer than 4096 bytes");
                    goto fail;
                }
                noff[r] = (int64_t)names.n;
                if (memchr(text + l.beg, 0, k - l.beg)) {
                    st = dpa_fail(DPA_ERR_INVALID_ARG, "%s line %lld: row %d: NUL byte in the "
                                  "name", what, (long long)pio_line(text, l.beg), r + 1);
                    goto fail;
                }
                if (pio_put(&names, text + l.beg, k - l.beg) || pio_put(&names, "", 1)) goto oom;
            }
            for (; k < l.end; k++) {
                if (pio_blank(text[k])) continue;
                if ((int64_t)rows[r].n >= nsites) {
                    st = dpa_fail(DPA_ERR_INVALID_ARG, "%s line %lld: row %d ('%s') is longer "
                                  "than the header's %lld sites", what,
                                  (long long)pio_line(text, l.beg), r + 1, names.p + noff[r],
                                  nsites);
                    goto fail;
                }
                if (pio_put(&rows[r], text + k, 1)) goto oom;
            }
        }
        if ((int64_t)rows[0].n >= nsites) break;
    }
    for (int32_t r = 0; r < R; r++)
        if ((int64_t)rows[r].n != nsites) {
            st = dpa_fail(DPA_ERR_INVALID_ARG, "%s: row %d ('%s') has %zu characters, the header "
                          "says %lld (rows of unequal length)", what, r + 1, names.p + noff[r],
                          rows[r].n, nsites);
            goto fail;
        }
    while (next_line(text, len, &pos, &l))
        if (!is_blank_line(text, &l)) {
            st = dpa_fail(DPA_ERR_INVALID_ARG, "%s line %lld: text after the %d rows", what,
                          (long long)pio_line(text, l.beg), R);
            goto fail;
        }
    chars = malloc((size_t)(ntaxa * nsites));
    if (!chars) goto oom;
    for (int32_t r = 0; r < R; r++) memcpy(chars + (int64_t)r * nsites, rows[r].p, (size_t)nsites);
    for (int32_t r = 0; r < R; r++) free(rows[r].p);
    free(rows);
    out->num_rows = R;
    out->num_columns = nsites;
    out->chars = chars;
    out->names.count = R;
    out->names.buf = names.p;
    out->names.offset = noff;
    return DPA_OK;
oom:
    st = dpa_fail(DPA_ERR_OUT_OF_MEMORY, "%s: out of memory", what);
fail:
    if (rows)
        for (int32_t r = 0; r < R; r++) free(rows[r].p);
    free(rows);
    free(names.p);
    free(noff);
    free(chars);
    return st;
}
