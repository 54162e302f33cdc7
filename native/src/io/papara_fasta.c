/*
 * papara_fasta.c — the FASTA reads reader (papara_io.h): ivy_mike's inc_fasta record
 * split, then PaPaRa's read filter (queries::preprocess) widened to lower case and U.
 */
#include <stdio.h>

#include "common/status.h"
#include "io/papara_io_util.h"

dpa_status dpa_fasta_reads_parse(const char *text, size_t len, const char *what, dpa_reads *out)
{
    memset(out, 0, sizeof *out);
    what = what ? what : "reads";
    pio_vec masks = { 0 }, offs = { 0 }, lens = { 0 }, names = { 0 }, noff = { 0 };
    dpa_status st = DPA_OK;
    size_t pos = 0;
    int32_t n = 0;
    while (pos < len && pio_blank(text[pos])) pos++;
    if (pos < len && text[pos] != '>') {
        st = dpa_fail(DPA_ERR_INVALID_ARG, "%s line %lld: expected '>' (FASTA)", what,
                      (long long)pio_line(text, pos));
        goto fail;
    }
    while (pos < len) {
        /* text[pos] == '>' */
        const size_t rec = pos++;
        while (pos < len && (text[pos] == ' ' || text[pos] == '\t')) pos++;
        const size_t nb = pos;
        while (pos < len && !pio_blank(text[pos])) pos++;
        if (pos == nb || pos - nb > DPA_PAPARA_IO_MAX_NAME || memchr(text + nb, 0, pos - nb)) {
            st = dpa_fail(DPA_ERR_INVALID_ARG, "%s line %lld: read %d: %s", what,
                          (long long)pio_line(text, rec), n + 1,
                          pos == nb ? "empty name after '>'"
                                    : "name longer than 4096 bytes or with a NUL byte");
            goto fail;
        }
        const int64_t name_off = (int64_t)names.n, seq_off = (int64_t)masks.n;
        if (pio_put(&names, text + nb, pos - nb) || pio_put(&names, "", 1) ||
            pio_put(&noff, &name_off, sizeof name_off) || pio_put(&offs, &seq_off, sizeof seq_off))
            goto oom;
        const char *nl = memchr(text + pos, '\n', len - pos);
        pos = nl ? (size_t)(nl - text) + 1 : len;
        int64_t base = 0;
        while (pos < len && text[pos] != '>') {
            const uint8_t c = (uint8_t)text[pos];
            if (!pio_blank((char)c)) {
                base++;
                const int m = dpa_papara_read_mask(c);
                if (m < 0) {
                    st = dpa_fail(DPA_ERR_INVALID_ARG, "%s line %lld: read '%s' base %lld: byte "
                                  "0x%02x is not a base (ACGTU, IUPAC MRWSYKVHDB, or N ? . - "
                                  "which are dropped)", what, (long long)pio_line(text, pos),
                                  names.p + name_off, (long long)base, c);
                    goto fail;
                }
                const uint8_t mk = (uint8_t)m;
                if (m && pio_put(&masks, &mk, 1)) goto oom;
            }
            pos++;
        }
        const int64_t l = (int64_t)masks.n - seq_off;
        if (l == 0) {
            st = dpa_fail(DPA_ERR_INVALID_ARG, "%s line %lld: read '%s' has no base left to align "
                          "(empty, or only N ? . -)", what, (long long)pio_line(text, rec),
                          names.p + name_off);
            goto fail;
        }
        if (l > DPA_PAPARA_MAX_READ_LENGTH) {
            st = dpa_fail(DPA_ERR_LIMIT, "%s line %lld: read '%s' has %lld bases, more than %d",
                          what, (long long)pio_line(text, rec), names.p + name_off,
                          (long long)l, DPA_PAPARA_MAX_READ_LENGTH);
            goto fail;
        }
        const int32_t l32 = (int32_t)l;
        if (pio_put(&lens, &l32, sizeof l32)) goto oom;
        if (++n == INT32_MAX) {
            st = dpa_fail(DPA_ERR_LIMIT, "%s: too many reads", what);
            goto fail;
        }
    }
    if (n == 0) {
        st = dpa_fail(DPA_ERR_INVALID_ARG, "%s: no reads", what);
        goto fail;
    }
    if (!masks.p && pio_put(&masks, "", 0)) goto oom;
    out->num_reads = n;
    out->masks = (uint8_t *)masks.p;
    out->offsets = (int64_t *)(void *)offs.p;
    out->lengths = (int32_t *)(void *)lens.p;
    out->names.count = n;
    out->names.buf = names.p;
    out->names.offset = (int64_t *)(void *)noff.p;
    return DPA_OK;
oom:
    st = dpa_fail(DPA_ERR_OUT_OF_MEMORY, "%s: out of memory", what);
fail:
    free(masks.p);
    free(offs.p);
    free(lens.p);
    free(names.p);
    free(noff.p);
    return st;
}
