/*
 * papara_newick.c — the Newick reader (papara_io.h), iterative so a deep caterpillar tree
 * cannot exhaust the stack. Grammar and defaults follow ivy_mike's tree_parser_ms.
 */
#include <math.h>
#include <stdio.h>

#include "common/status.h"
#include "io/papara_io_util.h"

typedef struct nwk {
    const char *text, *what;
    size_t len, pos;
    pio_vec parent, length, name_off, names; /* int32, double, int64, chars */
    int32_t n;
} nwk;

static dpa_status fail_at(const nwk *p, const char *msg, const char *detail)
{
    return dpa_fail(DPA_ERR_INVALID_ARG, "%s line %lld: %s%s", p->what,
                    (long long)pio_line(p->text, p->pos), msg, detail ? detail : "");
}

static void skip_blank(nwk *p)
{
    while (p->pos < p->len && pio_blank(p->text[p->pos])) p->pos++;
}

static int new_node(nwk *p, int32_t parent, const char *name, size_t name_len)
{
    const double one = 1.0;
    int64_t off = -1;
    if (name) {
        off = (int64_t)p->names.n;
        if (pio_put(&p->names, name, name_len) || pio_put(&p->names, "", 1)) return -1;
    }
    if (pio_put(&p->parent, &parent, sizeof parent) || pio_put(&p->length, &one, sizeof one) ||
        pio_put(&p->name_off, &off, sizeof off))
        return -1;
    return p->n++;
}

/* ":length" (strtod syntax) and "[...]" / "{...}" labels after a node; sets its length. */
static dpa_status node_suffix(nwk *p, int32_t node)
{
    skip_blank(p);
    if (p->pos < p->len && p->text[p->pos] == ':') {
        p->pos++;
        skip_blank(p);
        size_t e = p->pos;
        while (e < p->len && (strchr("0123456789.eE+-", p->text[e]) && p->text[e])) e++;
        char buf[64];
        if (e == p->pos || e - p->pos >= sizeof buf)
            return fail_at(p, "branch length: expected a number after ':'", NULL);
        memcpy(buf, p->text + p->pos, e - p->pos);
        buf[e - p->pos] = 0;
        char *end;
        const double v = strtod(buf, &end);
        if (*end || !isfinite(v)) return fail_at(p, "branch length is not a number: ", buf);
        ((double *)(void *)p->length.p)[node] = v;
        p->pos = e;
        skip_blank(p);
    }
    if (p->pos < p->len && (p->text[p->pos] == '[' || p->text[p->pos] == '{')) {
        const char close = p->text[p->pos] == '[' ? ']' : '}';
        const char *q = memchr(p->text + p->pos, close, p->len - p->pos);
        if (!q) return fail_at(p, "branch label: no closing bracket", NULL);
        p->pos = (size_t)(q - p->text) + 1;
        skip_blank(p);
    }
    return DPA_OK;
}

void dpa_nwk_free(dpa_nwk_tree *t)
{
    if (!t) return;
    free(t->parent);
    free(t->length);
    free(t->row);
    free(t->subtree_end);
    free(t->names.buf);
    free(t->names.offset);
    memset(t, 0, sizeof *t);
}

dpa_status dpa_nwk_parse(const char *text, size_t len, const char *what, dpa_nwk_tree *out)
{
    memset(out, 0, sizeof *out);
    nwk p = { .text = text, .what = what ? what : "tree", .len = len };
    pio_vec stack = { 0 }; /* open inner nodes: int32 ids */
    dpa_status st = DPA_OK;
    skip_blank(&p);
    if (p.pos >= len || text[p.pos] != '(') {
        st = fail_at(&p, "a tree starts with '('", NULL);
        goto fail;
    }
    for (;;) {
        /* a node is expected */
        skip_blank(&p);
        if (p.pos >= len) {
            st = fail_at(&p, "end of input inside the tree (missing ')' or ';')", NULL);
            goto fail;
        }
        int32_t *sk = (int32_t *)(void *)stack.p;
        const int32_t top = stack.n ? sk[stack.n / 4 - 2] : -1;
        if (stack.n && ++sk[stack.n / 4 - 1] > 3) {
            st = fail_at(&p, "inner node with more than 3 children: the tree must be binary",
                         NULL);
            goto fail;
        }
        int32_t node;
        if (text[p.pos] == '(') {
            p.pos++;
            const int32_t entry[2] = { p.n, 0 }; /* id, children so far */
            if ((node = new_node(&p, top, NULL, 0)) < 0 || pio_put(&stack, entry, sizeof entry))
                goto oom;
            if (p.n > DPA_PAPARA_MAX_NODES) {
                st = dpa_fail(DPA_ERR_LIMIT, "%s: more than %d nodes", p.what,
                              DPA_PAPARA_MAX_NODES);
                goto fail;
            }
            continue;
        }
        size_t e = p.pos;
        while (e < len && text[e] != ':' && text[e] != ',' && text[e] != ')') e++;
        size_t ne = e;
        while (ne > p.pos && pio_blank(text[ne - 1])) ne--;
        if (ne == p.pos) {
            st = fail_at(&p, "empty taxon name", NULL);
            goto fail;
        }
        if (ne - p.pos > DPA_PAPARA_IO_MAX_NAME) {
            st = fail_at(&p, "taxon name longer than 4096 bytes", NULL);
            goto fail;
        }
        for (size_t k = p.pos; k < ne; k++)
            if (pio_blank(text[k]) || strchr("(;[]", text[k]) || !text[k]) {
                char b[8];
                snprintf(b, sizeof b, "0x%02x", (unsigned char)text[k]);
                p.pos = k;
                st = fail_at(&p, "byte not allowed in a taxon name: ", b);
                goto fail;
            }
        if ((node = new_node(&p, top, text + p.pos, ne - p.pos)) < 0) goto oom;
        p.pos = e;
        if ((st = node_suffix(&p, node))) goto fail;
        /* after a node: ',' or ')' closing its parent (repeatedly) */
        for (;;) {
            if (p.pos >= len) {
                st = fail_at(&p, "end of input inside the tree (missing ')' or ';')", NULL);
                goto fail;
            }
            const char c = text[p.pos];
            if (c == ',') {
                p.pos++;
                break;
            }
            if (c != ')') {
                char b[8];
                snprintf(b, sizeof b, "'%c'", c >= 32 && c < 127 ? c : '?');
                st = fail_at(&p, "expected ',' or ')', found ", b);
                goto fail;
            }
            p.pos++;
            const int32_t closed = ((int32_t *)(void *)stack.p)[stack.n / 4 - 2];
            const int32_t kids = ((int32_t *)(void *)stack.p)[stack.n / 4 - 1];
            stack.n -= 8;
            const int is_root = stack.n == 0;
            if (kids != 2 && !(is_root && kids == 3)) {
                char b[64];
                snprintf(b, sizeof b, "%d children: the tree must be binary", kids);
                st = fail_at(&p, "inner node with ", b);
                goto fail;
            }
            /* inner-node label or support value: ignored */
            while (p.pos < len && !strchr(":,);[{", text[p.pos]) && text[p.pos]) p.pos++;
            if ((st = node_suffix(&p, closed))) goto fail;
            if (is_root) {
                if (p.pos >= len || text[p.pos] != ';') {
                    st = fail_at(&p, "expected ';' after the tree", NULL);
                    goto fail;
                }
                p.pos++;
                skip_blank(&p);
                if (p.pos != len) {
                    st = fail_at(&p, "text after the tree's ';' (one tree per file)", NULL);
                    goto fail;
                }
                goto done;
            }
        }
    }
done:
    free(stack.p);
    /* preorder ids: a subtree is a contiguous id range */
    out->num_nodes = p.n;
    out->parent = (int32_t *)(void *)p.parent.p;
    out->length = (double *)(void *)p.length.p;
    out->names.count = p.n;
    out->names.buf = p.names.p;
    out->names.offset = (int64_t *)(void *)p.name_off.p;
    out->row = malloc(sizeof *out->row * (size_t)p.n);
    out->subtree_end = malloc(sizeof *out->subtree_end * (size_t)p.n);
    if (!out->row || !out->subtree_end) {
        dpa_nwk_free(out);
        return dpa_fail(DPA_ERR_OUT_OF_MEMORY, "%s: out of memory", p.what);
    }
    for (int32_t v = 0; v < p.n; v++) {
        out->row[v] = -1;
        out->subtree_end[v] = v + 1;
    }
    for (int32_t v = p.n - 1; v > 0; v--) {
        const int32_t q = out->parent[v];
        if (out->subtree_end[v] > out->subtree_end[q]) out->subtree_end[q] = out->subtree_end[v];
    }
    return DPA_OK;
oom:
    st = dpa_fail(DPA_ERR_OUT_OF_MEMORY, "%s: out of memory", p.what);
fail:
    free(stack.p);
    free(p.parent.p);
    free(p.length.p);
    free(p.names.p);
    free(p.name_off.p);
    return st;
}
