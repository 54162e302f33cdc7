/*
 * papara_io.c — what the PaPaRa readers share: file slurping, the read filter, binding tips
 * to alignment rows, split names (papara_io.h).
 */
#include <errno.h>
#include <stdio.h>

#include "common/status.h"
#include "io/papara_io_util.h"

dpa_status dpa_io_slurp(const char *path, char **text, size_t *len)
{
    *text = NULL;
    *len = 0;
    FILE *f = fopen(path, "rb");
    if (!f) return dpa_fail(DPA_ERR_INVALID_ARG, "%s: cannot open: %s", path, strerror(errno));
    pio_vec v = { 0 };
    char buf[65536];
    size_t got;
    while ((got = fread(buf, 1, sizeof buf, f)) > 0)
        if (pio_put(&v, buf, got)) {
            fclose(f);
            free(v.p);
            return dpa_fail(DPA_ERR_OUT_OF_MEMORY, "%s: out of memory", path);
        }
    const int bad = ferror(f);
    fclose(f);
    if (bad || pio_put(&v, "", 1)) {
        free(v.p);
        return dpa_fail(bad ? DPA_ERR_INVALID_ARG : DPA_ERR_OUT_OF_MEMORY, "%s: %s", path,
                        bad ? "read error" : "out of memory");
    }
    *text = v.p;
    *len = v.n - 1;
    return DPA_OK;
}

int dpa_papara_read_mask(uint8_t c)
{
    switch (c) {
    case 'A': case 'a': return 1;
    case 'C': case 'c': return 2;
    case 'M': case 'm': return 3;
    case 'G': case 'g': return 4;
    case 'R': case 'r': return 5;
    case 'S': case 's': return 6;
    case 'V': case 'v': return 7;
    case 'T': case 't': case 'U': case 'u': return 8;
    case 'W': case 'w': return 9;
    case 'Y': case 'y': return 10;
    case 'H': case 'h': return 11;
    case 'K': case 'k': return 12;
    case 'D': case 'd': return 13;
    case 'B': case 'b': return 14;
    case 'N': case 'n': case '?': case '.': case '-': return 0;
    default: return -1;
    }
}

static const char *name_at(const dpa_names *n, int32_t i)
{
    return n->offset[i] < 0 ? NULL : n->buf + n->offset[i];
}

typedef struct keyed {
    const char *name;
    int32_t idx;
} keyed;

static int cmp_keyed(const void *a, const void *b)
{
    const keyed *x = a, *y = b;
    const int c = strcmp(x->name, y->name);
    return c ? c : (x->idx > y->idx) - (x->idx < y->idx);
}

void dpa_reads_free(dpa_reads *r)
{
    if (!r) return;
    free(r->masks);
    free(r->offsets);
    free(r->lengths);
    free(r->names.buf);
    free(r->names.offset);
    memset(r, 0, sizeof *r);
}

dpa_status dpa_papara_bind(dpa_nwk_tree *tree, const dpa_phy_alignment *aln, dpa_reads *extra)
{
    if (extra) memset(extra, 0, sizeof *extra);
    const int32_t R = aln->num_rows;
    keyed *rows = malloc(sizeof *rows * (size_t)(R > 0 ? R : 1));
    uint8_t *used = calloc((size_t)(R > 0 ? R : 1), 1);
    dpa_status st = DPA_OK;
    if (!rows || !used) {
        st = dpa_fail(DPA_ERR_OUT_OF_MEMORY, "papara: out of memory binding %d rows", R);
        goto out;
    }
    for (int32_t i = 0; i < R; i++) rows[i] = (keyed){ name_at(&aln->names, i), i };
    qsort(rows, (size_t)R, sizeof *rows, cmp_keyed);
    for (int32_t i = 1; i < R; i++)
        if (!strcmp(rows[i].name, rows[i - 1].name)) {
            st = dpa_fail(DPA_ERR_INVALID_ARG, "alignment: rows %d and %d are both named '%s'",
                          rows[i - 1].idx + 1, rows[i].idx + 1, rows[i].name);
            goto out;
        }
    for (int32_t v = 0; v < tree->num_nodes; v++) {
        const char *nm = name_at(&tree->names, v);
        tree->row[v] = -1;
        if (!nm) continue;
        int32_t lo = 0, hi = R;
        while (lo < hi) {
            const int32_t mid = lo + (hi - lo) / 2;
            if (strcmp(rows[mid].name, nm) < 0) lo = mid + 1;
            else hi = mid;
        }
        if (lo == R || strcmp(rows[lo].name, nm)) {
            st = dpa_fail(DPA_ERR_INVALID_ARG, "tree taxon '%s' has no row in the alignment", nm);
            goto out;
        }
        tree->row[v] = rows[lo].idx;
        used[rows[lo].idx] = 1;
    }
    if (extra) {
        pio_vec m = { 0 }, nb = { 0 };
        int32_t count = 0;
        for (int32_t i = 0; i < R; i++) count += !used[i];
        extra->offsets = malloc(sizeof(int64_t) * (size_t)(count ? count : 1));
        extra->lengths = malloc(sizeof(int32_t) * (size_t)(count ? count : 1));
        extra->names.offset = malloc(sizeof(int64_t) * (size_t)(count ? count : 1));
        if (!extra->offsets || !extra->lengths || !extra->names.offset) goto oom;
        int32_t k = 0;
        for (int32_t i = 0; i < R; i++) {
            if (used[i]) continue;
            const uint8_t *row = aln->chars + (int64_t)i * aln->num_columns;
            extra->offsets[k] = (int64_t)m.n;
            for (int64_t c = 0; c < aln->num_columns; c++) {
                const int v = dpa_papara_read_mask(row[c]);
                if (v < 0) {
                    free(m.p);
                    free(nb.p);
                    dpa_reads_free(extra);
                    st = dpa_fail(DPA_ERR_INVALID_ARG, "alignment row %d ('%s', not in the tree, "
                                  "so a read) column %lld: byte 0x%02x is not a base", i + 1,
                                  name_at(&aln->names, i), (long long)c + 1, row[c]);
                    goto out;
                }
                const uint8_t mk = (uint8_t)v;
                if (v && pio_put(&m, &mk, 1)) goto oom;
            }
            extra->lengths[k] = (int32_t)((int64_t)m.n - extra->offsets[k]);
            if (extra->lengths[k] == 0) {
                free(m.p);
                free(nb.p);
                dpa_reads_free(extra);
                st = dpa_fail(DPA_ERR_INVALID_ARG, "alignment row %d ('%s', not in the tree, so a "
                              "read) has no base left to align", i + 1, name_at(&aln->names, i));
                goto out;
            }
            const char *nm = name_at(&aln->names, i);
            extra->names.offset[k] = (int64_t)nb.n;
            if (pio_put(&nb, nm, strlen(nm) + 1)) goto oom;
            k++;
        }
        extra->num_reads = count;
        extra->names.count = count;
        extra->masks = (uint8_t *)m.p;
        extra->names.buf = nb.p;
        goto out;
    oom:
        free(m.p);
        free(nb.p);
        dpa_reads_free(extra);
        st = dpa_fail(DPA_ERR_OUT_OF_MEMORY, "papara: out of memory for the alignment's reads");
    }
out:
    free(rows);
    free(used);
    return st;
}

dpa_status dpa_reads_append(dpa_reads *a, dpa_reads *b)
{
    const int32_t n = a->num_reads + b->num_reads;
    int64_t mbytes = 0, nbytes = 0, bm = 0, bn = 0;
    for (int32_t i = 0; i < a->num_reads; i++) {
        mbytes += a->lengths[i];
        nbytes += (int64_t)strlen(a->names.buf + a->names.offset[i]) + 1;
    }
    for (int32_t i = 0; i < b->num_reads; i++) {
        bm += b->lengths[i];
        bn += (int64_t)strlen(b->names.buf + b->names.offset[i]) + 1;
    }
    dpa_reads c = { 0 };
    c.num_reads = n;
    c.names.count = n;
    c.masks = malloc((size_t)(mbytes + bm + 1));
    c.offsets = malloc(sizeof(int64_t) * (size_t)(n + 1));
    c.lengths = malloc(sizeof(int32_t) * (size_t)(n + 1));
    c.names.buf = malloc((size_t)(nbytes + bn + 1));
    c.names.offset = malloc(sizeof(int64_t) * (size_t)(n + 1));
    if (!c.masks || !c.offsets || !c.lengths || !c.names.buf || !c.names.offset) {
        dpa_reads_free(&c);
        return dpa_fail(DPA_ERR_OUT_OF_MEMORY, "papara: out of memory for %d reads", n);
    }
    int64_t mo = 0, no = 0;
    const dpa_reads *src[2] = { a, b };
    int32_t k = 0;
    for (int s = 0; s < 2; s++)
        for (int32_t i = 0; i < src[s]->num_reads; i++, k++) {
            const int32_t len = src[s]->lengths[i];
            memcpy(c.masks + mo, src[s]->masks + src[s]->offsets[i], (size_t)len);
            c.offsets[k] = mo;
            c.lengths[k] = len;
            mo += len;
            const char *nm = src[s]->names.buf + src[s]->names.offset[i];
            const size_t l = strlen(nm) + 1;
            memcpy(c.names.buf + no, nm, l);
            c.names.offset[k] = no;
            no += (int64_t)l;
        }
    dpa_reads_free(a);
    dpa_reads_free(b);
    *a = c;
    return DPA_OK;
}

int32_t *dpa_papara_sorted_tips(const dpa_nwk_tree *tree, int32_t *num_tips)
{
    int32_t n = 0;
    for (int32_t v = 0; v < tree->num_nodes; v++) n += tree->names.offset[v] >= 0;
    keyed *k = malloc(sizeof *k * (size_t)(n ? n : 1));
    int32_t *out = malloc(sizeof *out * (size_t)(n ? n : 1));
    if (!k || !out) {
        free(k);
        free(out);
        return NULL;
    }
    int32_t j = 0;
    for (int32_t v = 0; v < tree->num_nodes; v++)
        if (tree->names.offset[v] >= 0) k[j++] = (keyed){ name_at(&tree->names, v), v };
    qsort(k, (size_t)n, sizeof *k, cmp_keyed);
    for (int32_t i = 0; i < n; i++) out[i] = k[i].idx;
    free(k);
    *num_tips = n;
    return out;
}

char *dpa_papara_split_name(const dpa_nwk_tree *tree, const int32_t *sorted_tips,
                            int32_t num_tips, int32_t a)
{
    const int32_t lo = a, hi = tree->subtree_end[a];
    /* the side holding the smallest name is left out */
    const int smallest_inside = sorted_tips[0] >= lo && sorted_tips[0] < hi;
    pio_vec v = { 0 };
    int first = 1;
    for (int32_t i = 0; i < num_tips; i++) {
        const int32_t t = sorted_tips[i];
        const int inside = t >= lo && t < hi;
        if (inside == smallest_inside) continue;
        const char *nm = name_at(&tree->names, t);
        if ((!first && pio_put(&v, ",", 1)) || pio_put(&v, nm, strlen(nm))) {
            free(v.p);
            return NULL;
        }
        first = 0;
    }
    if (pio_put(&v, "", 1)) {
        free(v.p);
        return NULL;
    }
    return v.p;
}
