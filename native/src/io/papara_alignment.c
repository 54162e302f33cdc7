/*
 * papara_alignment.c — PaPaRa's extended-alignment writer (align_best_scores_oa with
 * reference gaps, output_alignment_phylip; papara_nt's papara.cpp / papara.h), byte for byte:
 *
 * - columns: the kept sites, with before each site (and after the last) as many gap columns
 *   as the most read bases any read inserts there (ref_gap_collector);
 * - header "rows columns"; every row is its name left-justified in 1 + the longest name of
 *   the tree rows and reads, then its characters;
 * - tree rows first, in alignment order, with their characters as written (case, N, ? kept)
 *   and '-' in the inserted columns;
 * - then the reads in scoring order, letters of _ACMGRSVTWYHKDB- for their states, placed by
 *   gapstream_to_alignment: inserted bases fill an insertion's columns from the left, except
 *   before the first site, where they end flush against it.
 */
#include <stdio.h>

#include "common/status.h"
#include "io/papara_io_util.h"

static const char LETTERS[] = "_ACMGRSVTWYHKDB-";

static int put_row(FILE *f, const char *name, size_t pad, const char *seq, size_t n)
{
    const size_t l = strlen(name);
    if (fputs(name, f) == EOF) return -1;
    for (size_t k = l; k < pad; k++)
        if (fputc(' ', f) == EOF) return -1;
    if (n && fwrite(seq, 1, n, f) != n) return -1;
    return fputc('\n', f) == EOF ? -1 : 0;
}

dpa_status dpa_papara_write_alignment(FILE *f, const dpa_nwk_tree *tree,
                                      const dpa_phy_alignment *aln, const int64_t *columns,
                                      int64_t num_sites, const dpa_reads *reads,
                                      const uint8_t *const *ops, const int64_t *num_ops)
{
    const int64_t S = num_sites;
    int64_t *rg = calloc((size_t)S + 1, sizeof *rg), *cnt = calloc((size_t)S + 1, sizeof *cnt);
    uint8_t *in_tree = calloc((size_t)aln->num_rows, 1);
    char *buf = NULL;
    uint8_t *tmp = NULL, *ins = NULL;
    dpa_status st = DPA_OK;
    if (!rg || !cnt || !in_tree) goto oom;
    for (int32_t v = 0; v < tree->num_nodes; v++)
        if (tree->row[v] >= 0) in_tree[tree->row[v]] = 1;
    /* the most read bases any read inserts before each site */
    for (int32_t r = 0; r < reads->num_reads; r++) {
        memset(cnt, 0, sizeof *cnt * ((size_t)S + 1));
        int64_t pos = 0;
        for (int64_t k = 0; k < num_ops[r]; k++) {
            if (ops[r][k] == DPA_PAPARA_OP_I) cnt[pos]++;
            else pos++;
        }
        for (int64_t k = 0; k <= S; k++)
            if (cnt[k] > rg[k]) rg[k] = cnt[k];
    }
    int64_t width = S;
    for (int64_t k = 0; k <= S; k++) width += rg[k];
    size_t pad = 0;
    for (int32_t i = 0; i < aln->num_rows; i++)
        if (in_tree[i]) {
            const size_t l = strlen(aln->names.buf + aln->names.offset[i]);
            if (l > pad) pad = l;
        }
    for (int32_t r = 0; r < reads->num_reads; r++) {
        const size_t l = strlen(reads->names.buf + reads->names.offset[r]);
        if (l > pad) pad = l;
    }
    pad += 1;
    int32_t rows = reads->num_reads;
    for (int32_t i = 0; i < aln->num_rows; i++) rows += in_tree[i];
    buf = malloc((size_t)width + 1);
    tmp = malloc((size_t)width + 1);
    ins = malloc((size_t)width + 1);
    if (!buf || !tmp || !ins) goto oom;
    if (fprintf(f, "%d %lld\n", rows, (long long)width) < 0) goto io;
    for (int32_t i = 0; i < aln->num_rows; i++) {
        if (!in_tree[i]) continue;
        const uint8_t *row = aln->chars + (int64_t)i * aln->num_columns;
        int64_t w = 0;
        for (int64_t k = 0; k < S; k++) {
            for (int64_t g = 0; g < rg[k]; g++) buf[w++] = '-';
            buf[w++] = (char)row[columns[k]];
        }
        for (int64_t g = 0; g < rg[S]; g++) buf[w++] = '-';
        if (put_row(f, aln->names.buf + aln->names.offset[i], pad, buf, (size_t)w)) goto io;
    }
    for (int32_t r = 0; r < reads->num_reads; r++) {
        /* gapstream_to_alignment, walking the trace backwards as PaPaRa stores it */
        const uint8_t *raw = reads->masks + reads->offsets[r];
        int64_t rit = reads->lengths[r] - 1, n = 0, ni = 0, ref_ptr = S;
        int64_t gaps_left = rg[ref_ptr];
        for (int64_t k = num_ops[r] - 1; k >= 0; k--) {
            const uint8_t op = ops[r][k];
            if (op != DPA_PAPARA_OP_I) {
                for (int64_t g = 0; g < gaps_left; g++) tmp[n++] = 15;
                for (int64_t g = 0; g < ni; g++) tmp[n++] = ins[g];
                ni = 0;
                --ref_ptr;
                gaps_left = ref_ptr >= 0 ? rg[ref_ptr] : 0;
            }
            if (op == DPA_PAPARA_OP_D) {
                tmp[n++] = 15;
            } else if (op == DPA_PAPARA_OP_M) {
                tmp[n++] = raw[rit--];
            } else {
                ins[ni++] = raw[rit--];
                --gaps_left;
            }
        }
        for (int64_t g = 0; g < ni; g++) tmp[n++] = ins[g];
        for (int64_t g = 0; g < gaps_left; g++) tmp[n++] = 15;
        if (n != width) {
            st = dpa_fail(DPA_ERR_INTERNAL, "papara alignment: read %d fills %lld of %lld columns",
                          r, (long long)n, (long long)width);
            goto out;
        }
        for (int64_t k = 0; k < n; k++) buf[k] = LETTERS[tmp[n - 1 - k] & 15];
        if (put_row(f, reads->names.buf + reads->names.offset[r], pad, buf, (size_t)n)) goto io;
    }
    goto out;
oom:
    st = dpa_fail(DPA_ERR_OUT_OF_MEMORY, "papara alignment: out of memory");
    goto out;
io:
    st = dpa_fail(DPA_ERR_INVALID_ARG, "papara alignment: write error");
out:
    free(rg), free(cnt), free(in_tree), free(buf), free(tmp), free(ins);
    return st;
}

/* CIGAR over profile columns: the D runs before the first M and after the last M are left
 * out (*ref_start counts the leading ones); read overhangs stay as I. */
char *dpa_papara_cigar(const uint8_t *ops, int64_t n, int64_t *ref_start)
{
    int64_t first = -1, last = -1;
    for (int64_t k = 0; k < n; k++)
        if (ops[k] == DPA_PAPARA_OP_M) {
            if (first < 0) first = k;
            last = k;
        }
    if (first < 0) first = n, last = n - 1;
    int64_t start = 0;
    for (int64_t k = 0; k < first; k++) start += ops[k] == DPA_PAPARA_OP_D;
    *ref_start = start;
    pio_vec v = { 0 };
    char run_op = 0;
    int64_t run = 0;
    for (int64_t k = 0; k <= n; k++) {
        char c = 0;
        if (k < n) {
            const int outer = k < first || k > last;
            if (outer && ops[k] == DPA_PAPARA_OP_D) continue;
            c = "MDI"[ops[k]];
        }
        if (c == run_op) {
            run++;
            continue;
        }
        if (run) {
            char b[32];
            const int l = snprintf(b, sizeof b, "%lld%c", (long long)run, run_op);
            if (pio_put(&v, b, (size_t)l)) goto oom;
        }
        run_op = c;
        run = 1;
    }
    if (pio_put(&v, "", 1)) goto oom;
    return v.p;
oom:
    free(v.p);
    return NULL;
}
