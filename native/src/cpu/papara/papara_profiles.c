/*
 * papara_profiles.c — dpa_papara_profile_shape and dpa_papara_build_profiles: the reference
 * tree and alignment to one ancestral profile per edge, as papara_core 2.5 builds them
 * (references::build_ref_vecs in papara_nt's papara.cpp, pvec_cgap / pvec_pgap in pvec.h).
 *
 * The profile of edge (u, v) is the newview of a virtual root with u's side and v's side
 * each at the full edge length. Every side's vector is computed once: on the unrooted tree
 * (a two-child root is dissolved into one edge of the summed length, as ivy_mike's parser
 * does), rooted at some node rho, down[x] is x's subtree and up[x] the rest seen from x.
 * PaPaRa recomputes sides per edge from a rooted traversal; the combine step is symmetric
 * in its two children (IEEE products commute), so both give the same bits.
 *
 * prob model (pvec_pgap): per site a likelihood pair (non-gap, gap), tips (1, 0) or (0, 1)
 * for state 15; P(t) = pi + (I - pi) e^-t with pi = (1 - f, f) in both rows (the 2-state
 * F81 chain PaPaRa builds from the rate matrix [[-f, f], [1 - f, -(1 - f)]]), where f is
 * the share of literal '-' among all tree-row characters of the kept columns; a pair whose
 * entries are both below 2^-256 is scaled by 2^256 after each newview; flag = L0 < L1 at
 * the virtual root. PaPaRa takes P(t) from an eigen decomposition; this closed form can
 * differ in the last bits, which only matters when L0 and L1 tie to within them
 * (docs/papara.md).
 *
 * cgap model (pvec_cgap): tip aux = CGAP for state 15; a parent with a tip child tests the
 * CGAP bit of both children, with two inner children only aux == CGAP exactly counts:
 * both -> CGAP, one -> CGAP|OPEN, none -> 0. flag = (aux == CGAP) at the virtual root.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "common/status.h"
#include "cpu/papara/papara.h"

#define AUX_CGAP 1u
#define AUX_OPEN 2u

/* Character -> state (0..15) or -1: toupper, U = T, N ? . = -, then the index in
 * "_ACMGRSVTWYHKDB-" (model<tag_dna>::s2p). */
static int char_state(uint8_t c)
{
    static const char order[] = "_ACMGRSVTWYHKDB-";
    if (c >= 'a' && c <= 'z') c = (uint8_t)(c - 'a' + 'A');
    if (c == 'U') c = 'T';
    if (c == 'N' || c == '?' || c == '.') c = '-';
    for (int k = 0; k < 16; k++)
        if ((uint8_t)order[k] == c) return k;
    return -1;
}

typedef struct topo {
    int32_t n, root;
    int32_t *nchild, *child;  /* child[3 i + k], ascending index */
    /* unrooted graph: nbr[3 i + k], len[3 i + k], deg[i]; a dissolved root has deg 0 */
    int32_t *nbr, *deg;
    double *len;
    int32_t *upn;             /* the parent side's node in the unrooted graph */
} topo;

static void topo_free(topo *t)
{
    free(t->nchild);
    free(t->child);
    free(t->nbr);
    free(t->deg);
    free(t->len);
    free(t->upn);
}

static dpa_status check_tree(const dpa_papara_tree *tr, const dpa_papara_alignment *al, topo *t)
{
    memset(t, 0, sizeof *t);
    if (!tr) return dpa_fail(DPA_ERR_NULL_ARG, "papara: tree is NULL");
    if (!al) return dpa_fail(DPA_ERR_NULL_ARG, "papara: alignment is NULL");
    if (tr->num_nodes < 3 || tr->num_nodes > DPA_PAPARA_MAX_NODES)
        return dpa_fail(DPA_ERR_LIMIT, "papara: tree num_nodes = %d outside [3, %d]",
                        tr->num_nodes, DPA_PAPARA_MAX_NODES);
    if (!tr->parent || !tr->length || !tr->row)
        return dpa_fail(DPA_ERR_NULL_ARG, "papara: tree parent, length or row is NULL");
    if (al->num_rows < 2 || al->num_columns < 1 || !al->chars)
        return dpa_fail(DPA_ERR_INVALID_ARG, "papara: alignment needs >= 2 rows and >= 1 "
                        "column (num_rows = %d, num_columns = %lld, chars %s)", al->num_rows,
                        (long long)al->num_columns, al->chars ? "set" : "NULL");
    const int32_t n = tr->num_nodes;
    t->n = n;
    t->root = -1;
    t->nchild = calloc((size_t)n, sizeof *t->nchild);
    t->child = malloc(sizeof *t->child * 3 * (size_t)n);
    t->nbr = malloc(sizeof *t->nbr * 3 * (size_t)n);
    t->deg = calloc((size_t)n, sizeof *t->deg);
    t->len = malloc(sizeof *t->len * 3 * (size_t)n);
    t->upn = malloc(sizeof *t->upn * (size_t)n);
    uint8_t *row_used = calloc((size_t)al->num_rows, 1);
    dpa_status st = DPA_OK;
    if (!t->nchild || !t->child || !t->nbr || !t->deg || !t->len || !t->upn || !row_used) {
        st = dpa_fail(DPA_ERR_OUT_OF_MEMORY, "papara: out of memory for %d tree nodes", n);
        goto out;
    }
    for (int32_t i = 0; i < n; i++) {
        const int32_t p = tr->parent[i];
        if (p == -1) {
            if (t->root >= 0) {
                st = dpa_fail(DPA_ERR_INVALID_ARG, "papara: tree nodes %d and %d both have "
                              "parent -1 (one root only)", t->root, i);
                goto out;
            }
            t->root = i;
            continue;
        }
        if (p < 0 || p >= n || p == i) {
            st = dpa_fail(DPA_ERR_INVALID_ARG, "papara: tree parent[%d] = %d outside [0, %d) "
                          "or itself", i, p, n);
            goto out;
        }
        if (!isfinite(tr->length[i])) {
            st = dpa_fail(DPA_ERR_INVALID_ARG, "papara: tree length[%d] is not finite", i);
            goto out;
        }
        if (t->nchild[p] == 3) {
            st = dpa_fail(DPA_ERR_INVALID_ARG, "papara: tree node %d has more than 3 children "
                          "(the tree must be binary)", p);
            goto out;
        }
        t->child[3 * p + t->nchild[p]++] = i;
    }
    if (t->root < 0) {
        st = dpa_fail(DPA_ERR_INVALID_ARG, "papara: tree has no root (no parent -1)");
        goto out;
    }
    for (int32_t i = 0; i < n; i++) {
        const int32_t c = t->nchild[i];
        if (c == 0) {
            const int32_t r = tr->row[i];
            if (r < 0 || r >= al->num_rows) {
                st = dpa_fail(DPA_ERR_INVALID_ARG, "papara: tree tip %d has row %d outside "
                              "[0, %d)", i, r, al->num_rows);
                goto out;
            }
            if (row_used[r]) {
                st = dpa_fail(DPA_ERR_INVALID_ARG, "papara: alignment row %d is named by two "
                              "tips (second: node %d)", r, i);
                goto out;
            }
            row_used[r] = 1;
        } else if (tr->row[i] != -1) {
            st = dpa_fail(DPA_ERR_INVALID_ARG, "papara: inner tree node %d has row %d (must "
                          "be -1)", i, tr->row[i]);
            goto out;
        } else if (i == t->root ? c < 2 : c != 2) {
            st = dpa_fail(DPA_ERR_INVALID_ARG, "papara: tree node %d has %d children: the "
                          "tree must be binary (2 per inner node, 2 or 3 at the root)", i, c);
            goto out;
        }
    }
    /* Reachability from the root rules out cycles (every node has one parent). */
    {
        int32_t *stack = malloc(sizeof *stack * (size_t)n), sp = 0, seen = 0;
        if (!stack) {
            st = dpa_fail(DPA_ERR_OUT_OF_MEMORY, "papara: out of memory for %d tree nodes", n);
            goto out;
        }
        stack[sp++] = t->root;
        while (sp) {
            const int32_t x = stack[--sp];
            seen++;
            for (int32_t k = 0; k < t->nchild[x]; k++) stack[sp++] = t->child[3 * x + k];
        }
        free(stack);
        if (seen != n) {
            st = dpa_fail(DPA_ERR_INVALID_ARG, "papara: tree has a cycle (%d of %d nodes "
                          "reachable from root %d)", seen, n, t->root);
            goto out;
        }
    }
    /* The unrooted graph. */
    for (int32_t i = 0; i < n; i++) {
        if (i == t->root) continue;
        int32_t p = tr->parent[i];
        double z = tr->length[i];
        if (p == t->root && t->nchild[p] == 2) {
            const int32_t o = t->child[3 * p] == i ? t->child[3 * p + 1] : t->child[3 * p];
            p = o;
            z = tr->length[t->child[3 * t->root]] + tr->length[t->child[3 * t->root + 1]];
        }
        t->upn[i] = p;
        t->nbr[3 * i + t->deg[i]] = p;
        t->len[3 * i + t->deg[i]++] = z;
        if (!(tr->parent[i] == t->root && t->nchild[t->root] == 2)) {
            t->nbr[3 * p + t->deg[p]] = i;
            t->len[3 * p + t->deg[p]++] = z;
        }
    }
out:
    free(row_used);
    if (st) topo_free(t);
    return st;
}

/* Kept columns: a state other than 15 in some tree row; also checks the tree rows' chars. */
static dpa_status scan_columns(const dpa_papara_tree *tr, const dpa_papara_alignment *al,
                               const topo *t, int64_t *num_sites, int64_t *columns)
{
    const int64_t C = al->num_columns;
    uint8_t *keep = calloc((size_t)C, 1);
    if (!keep) return dpa_fail(DPA_ERR_OUT_OF_MEMORY, "papara: out of memory for %lld columns",
                               (long long)C);
    for (int32_t i = 0; i < t->n; i++) {
        if (t->nchild[i]) continue;
        const uint8_t *row = al->chars + (int64_t)tr->row[i] * C;
        for (int64_t c = 0; c < C; c++) {
            const int s = char_state(row[c]);
            if (s < 0) {
                free(keep);
                return dpa_fail(DPA_ERR_INVALID_ARG, "papara: alignment row %d (tree node %d) "
                                "column %lld: byte 0x%02x is not a DNA state "
                                "(_ACMGRSVTWYHKDB-, U, N ? .); rows and columns count from 1",
                                tr->row[i] + 1, i, (long long)c + 1, row[c]);
            }
            if (s != 15) keep[c] = 1;
        }
    }
    int64_t k = 0;
    for (int64_t c = 0; c < C; c++)
        if (keep[c]) {
            if (columns) columns[k] = c;
            k++;
        }
    free(keep);
    if (k == 0) return dpa_fail(DPA_ERR_INVALID_ARG, "papara: every alignment column is a gap "
                                "in every tree row");
    if (k > DPA_PAPARA_MAX_SITES)
        return dpa_fail(DPA_ERR_LIMIT, "papara: %lld sites exceed %lld", (long long)k,
                        (long long)DPA_PAPARA_MAX_SITES);
    *num_sites = k;
    return DPA_OK;
}

static int32_t count_edges(const topo *t)
{
    return t->n - 1 - (t->nchild[t->root] == 2 ? 1 : 0);
}

DPA_API dpa_status dpa_papara_profile_shape(const dpa_papara_tree *tree,
                                            const dpa_papara_alignment *alignment,
                                            int32_t *num_edges, int64_t *num_sites)
{
    if (!num_edges || !num_sites)
        return dpa_fail(DPA_ERR_NULL_ARG, "papara: num_edges or num_sites is NULL");
    topo t;
    dpa_status st = check_tree(tree, alignment, &t);
    if (st) return st;
    st = scan_columns(tree, alignment, &t, num_sites, NULL);
    if (!st) *num_edges = count_edges(&t);
    topo_free(&t);
    return st;
}

/* PaPaRa's visit_edges order: at a three-child root the third child's subtree first, then
 * the first's, then the second's; a subtree is its edge to the parent, then its first
 * child's subtree, then its second's. A two-child root (L, R): edge (R, L), R's children's
 * subtrees, L's children's subtrees. Pairs are (child side, parent side). */
static void enumerate_edges(const topo *t, int32_t *pairs, int32_t *stack)
{
    int32_t sp = 0, e = 0;
    const int32_t r = t->root, *ch = t->child + 3 * r;
    if (t->nchild[r] == 3) {
        stack[sp++] = ch[1];
        stack[sp++] = ch[0];
        stack[sp++] = ch[2];
    } else {
        pairs[2 * e] = ch[1];
        pairs[2 * e + 1] = ch[0];
        e++;
        for (int32_t k = t->nchild[ch[0]] - 1; k >= 0; k--) stack[sp++] = t->child[3 * ch[0] + k];
        for (int32_t k = t->nchild[ch[1]] - 1; k >= 0; k--) stack[sp++] = t->child[3 * ch[1] + k];
    }
    while (sp) {
        const int32_t x = stack[--sp];
        pairs[2 * e] = x;
        pairs[2 * e + 1] = t->upn[x];
        e++;
        for (int32_t k = t->nchild[x] - 1; k >= 0; k--) stack[sp++] = t->child[3 * x + k];
    }
}

typedef struct side {   /* one directed vector */
    uint8_t *state;
    uint8_t *aux;       /* cgap */
    double *lk;         /* prob: 2 per site (non-gap, gap) */
} side;

typedef struct build {
    const dpa_papara_tree *tr;
    const dpa_papara_alignment *al;
    const topo *t;
    int32_t model;
    int64_t S;
    const int64_t *columns;
    double f;           /* gap share */
} build;

static void set_side(const build *b, uint8_t *slot, side *v)
{
    if (b->model == DPA_PAPARA_GAP_CGAP) {
        v->state = slot;
        v->aux = slot + b->S;
        v->lk = NULL;
    } else {
        v->lk = (double *)(void *)slot;
        v->state = slot + 16 * b->S;
        v->aux = NULL;
    }
}

static void pmatrix(double f, double z, double P[4])
{
    const double e = exp(-z);
    P[0] = (1.0 - f) + f * e;         /* non-gap -> non-gap */
    P[1] = f - f * e;                 /* non-gap -> gap     */
    P[2] = (1.0 - f) - (1.0 - f) * e; /* gap -> non-gap     */
    P[3] = f + (1.0 - f) * e;         /* gap -> gap         */
}

static void tip_side(const build *b, int32_t node, side *out)
{
    const uint8_t *row = b->al->chars + (int64_t)b->tr->row[node] * b->al->num_columns;
    for (int64_t i = 0; i < b->S; i++) {
        const int s = char_state(row[b->columns[i]]);
        out->state[i] = (uint8_t)s;
        if (b->model == DPA_PAPARA_GAP_CGAP) {
            out->aux[i] = s == 15 ? AUX_CGAP : 0;
        } else {
            out->lk[2 * i] = s == 15 ? 0.0 : 1.0;
            out->lk[2 * i + 1] = s == 15 ? 1.0 : 0.0;
        }
    }
}

/* pvec_*::newview of one parent from two children. */
static void combine(const build *b, const side *c1, double z1, int tip1, const side *c2,
                    double z2, int tip2, side *p)
{
    for (int64_t i = 0; i < b->S; i++) {
        uint8_t s = c1->state[i] & c2->state[i];
        if (!s) s = c1->state[i] | c2->state[i];
        p->state[i] = s;
    }
    if (b->model == DPA_PAPARA_GAP_CGAP) {
        for (int64_t i = 0; i < b->S; i++) {
            const unsigned a1 = c1->aux[i], a2 = c2->aux[i];
            unsigned g1, g2;
            if (tip1 || tip2) {
                g1 = a1 & AUX_CGAP;
                g2 = a2 & AUX_CGAP;
            } else {
                g1 = a1 == AUX_CGAP;
                g2 = a2 == AUX_CGAP;
            }
            p->aux[i] = (uint8_t)(g1 && g2 ? AUX_CGAP : (g1 || g2) ? (AUX_CGAP | AUX_OPEN) : 0);
        }
        return;
    }
    double P1[4], P2[4];
    pmatrix(b->f, z1, P1);
    pmatrix(b->f, z2, P2);
    const double big = ldexp(1.0, 256), small = ldexp(1.0, -256);
    for (int64_t i = 0; i < b->S; i++) {
        const double x0 = c1->lk[2 * i], x1 = c1->lk[2 * i + 1];
        const double y0 = c2->lk[2 * i], y1 = c2->lk[2 * i + 1];
        const double t10 = P1[0] * x0 + P1[1] * x1, t11 = P1[2] * x0 + P1[3] * x1;
        const double t20 = P2[0] * y0 + P2[1] * y1, t21 = P2[2] * y0 + P2[3] * y1;
        double l0 = t10 * t20, l1 = t11 * t21;
        if (fabs(l0) < small && fabs(l1) < small) {
            l0 *= big;
            l1 *= big;
        }
        p->lk[2 * i] = l0;
        p->lk[2 * i + 1] = l1;
    }
}

DPA_API dpa_status dpa_papara_build_profiles(dpa_context *ctx, const dpa_papara_tree *tree,
                                             const dpa_papara_alignment *alignment,
                                             int32_t gap_model,
                                             const dpa_papara_profiles *out)
{
    if (!ctx) return dpa_fail(DPA_ERR_NULL_ARG, "dpa_papara_build_profiles: ctx is NULL");
    if (!out || !out->sites || !out->edge_nodes || !out->columns)
        return dpa_fail(DPA_ERR_NULL_ARG, "dpa_papara_build_profiles: out, out->sites, "
                        "out->edge_nodes or out->columns is NULL");
    if (gap_model != DPA_PAPARA_GAP_PROB && gap_model != DPA_PAPARA_GAP_CGAP)
        return dpa_fail(DPA_ERR_INVALID_ARG, "papara: gap_model = %d is neither PROB (0) nor "
                        "CGAP (1)", gap_model);
    topo t;
    dpa_status st = check_tree(tree, alignment, &t);
    if (st) return st;
    build b = { tree, alignment, &t, gap_model, 0, out->columns, 0.0 };
    if ((st = scan_columns(tree, alignment, &t, &b.S, out->columns))) {
        topo_free(&t);
        return st;
    }
    const int32_t n = t.n, E = count_edges(&t);
    const int64_t S = b.S;
    /* gap share over the tree rows' kept columns; the literal '-' only (is_gap) */
    {
        int64_t gaps = 0, all = 0;
        for (int32_t i = 0; i < n; i++) {
            if (t.nchild[i]) continue;
            const uint8_t *row = alignment->chars + (int64_t)tree->row[i] * alignment->num_columns;
            for (int64_t k = 0; k < S; k++) gaps += row[out->columns[k]] == '-';
            all += S;
        }
        b.f = (double)gaps / (double)all;
        if (out->gap_share) *out->gap_share = b.f;
    }
    /* rho: a node of the unrooted graph (the root unless it was dissolved). */
    const int32_t rho = t.nchild[t.root] == 3 ? t.root : t.child[3 * t.root];
    /* a side's slot: prob: S x 2 doubles, then S states; cgap: S states, S aux (8-aligned) */
    const size_t per = ((size_t)S * (gap_model == DPA_PAPARA_GAP_CGAP ? 2 : 17) + 7) & ~(size_t)7;
    side root;
    int32_t *order = malloc(sizeof *order * (size_t)n), *par = malloc(sizeof *par * (size_t)n);
    double *plen = malloc(sizeof *plen * (size_t)n);
    int32_t *stack = malloc(sizeof *stack * (size_t)n);
    uint8_t *mem = malloc(per * 2 * (size_t)n + per);
    side *down = malloc(sizeof *down * (size_t)n), *up = malloc(sizeof *up * (size_t)n);
    if (!order || !par || !plen || !stack || !mem || !down || !up) {
        st = dpa_fail(DPA_ERR_OUT_OF_MEMORY, "papara: out of memory for %d nodes x %lld sites "
                      "of ancestral vectors (%.1f GB)", n, (long long)S,
                      (double)per * 2 * n / 1e9);
        goto cleanup;
    }
    for (int32_t i = 0; i < 2 * n + 1; i++) set_side(&b, mem + per * (size_t)i,
                                                     i < n ? &down[i] : i < 2 * n ? &up[i - n] : &root);
    /* BFS order from rho over the unrooted graph */
    {
        int32_t head = 0, tail = 0;
        for (int32_t i = 0; i < n; i++) par[i] = -2;
        order[tail++] = rho;
        par[rho] = -1;
        while (head < tail) {
            const int32_t x = order[head++];
            for (int32_t k = 0; k < t.deg[x]; k++) {
                const int32_t y = t.nbr[3 * x + k];
                if (par[y] != -2) continue;
                par[y] = x;
                plen[y] = t.len[3 * x + k];
                order[tail++] = y;
            }
        }
        if (tail != n - (t.nchild[t.root] == 2 ? 1 : 0)) {
            st = dpa_fail(DPA_ERR_INTERNAL, "papara: unrooted tree walk reached %d nodes", tail);
            goto cleanup;
        }
        const int32_t m = tail;
        /* down, leaves first */
        for (int32_t k = m - 1; k >= 0; k--) {
            const int32_t x = order[k];
            if (t.deg[x] == 1 && x != rho) {
                tip_side(&b, x, &down[x]);
                continue;
            }
            if (x == rho) {
                if (t.deg[x] == 1) tip_side(&b, x, &down[x]); /* rho is a tip: its own data */
                continue;
            }
            int32_t c[2], q = 0;
            double z[2];
            for (int32_t j = 0; j < 3; j++) {
                const int32_t y = t.nbr[3 * x + j];
                if (y == par[x]) continue;
                c[q] = y;
                z[q++] = t.len[3 * x + j];
            }
            combine(&b, &down[c[0]], z[0], t.deg[c[0]] == 1, &down[c[1]], z[1],
                    t.deg[c[1]] == 1, &down[x]);
        }
        /* up, root first: up[x] = par[x]'s side seen from x */
        for (int32_t k = 1; k < m; k++) {
            const int32_t x = order[k], p = par[x];
            if (t.deg[p] == 1) {
                tip_side(&b, p, &up[x]);
                continue;
            }
            const side *v[2];
            double z[2];
            int tip[2], q = 0;
            for (int32_t j = 0; j < 3; j++) {
                const int32_t y = t.nbr[3 * p + j];
                if (y == x) continue;
                if (y == par[p]) {
                    v[q] = &up[p];
                    tip[q] = t.deg[y] == 1;
                } else {
                    v[q] = &down[y];
                    tip[q] = t.deg[y] == 1;
                }
                z[q++] = t.len[3 * p + j];
            }
            combine(&b, v[0], z[0], tip[0], v[1], z[1], tip[1], &up[x]);
        }
    }
    /* edges in PaPaRa's order; each profile is the virtual root's newview */
    enumerate_edges(&t, out->edge_nodes, stack);
    {
        for (int32_t e = 0; e < E; e++) {
            const int32_t a = out->edge_nodes[2 * e], c = out->edge_nodes[2 * e + 1];
            const int32_t x = par[a] == c ? a : c; /* the side below in rho's rooting */
            const double z = plen[x];
            combine(&b, &down[x], z, t.deg[x] == 1, &up[x], z, t.deg[par[x]] == 1, &root);
            uint8_t *dst = out->sites + (int64_t)e * S;
            for (int64_t i = 0; i < S; i++) {
                const int flag = gap_model == DPA_PAPARA_GAP_CGAP
                                     ? root.aux[i] == AUX_CGAP
                                     : root.lk[2 * i] < root.lk[2 * i + 1];
                dst[i] = (uint8_t)(root.state[i] | (flag ? DPA_PAPARA_CGAP_BIT : 0));
            }
        }
    }
cleanup:
    free(order);
    free(par);
    free(plen);
    free(stack);
    free(mem);
    free(down);
    free(up);
    topo_free(&t);
    return st;
}
