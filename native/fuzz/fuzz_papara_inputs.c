/*
 * fuzz_papara_inputs.c — libFuzzer target for the PaPaRa readers (src/io/papara_*.c) and
 * the profile builder behind them.
 *
 * The first byte picks the reader (0 Newick, 1 PHYLIP, 2 FASTA reads, 3 the whole pipeline);
 * the rest is the file text, as is (mode 3: tree, alignment and reads separated by 0x01
 * bytes). Properties: no crash or sanitizer report; a rejected text gets a non-OK status, a
 * message and an empty result; an accepted tree has one root, parents before children
 * (preorder) and consistent subtree ranges; accepted alignment rows are all num_columns
 * long; accepted reads hold masks 1..15 only; an accepted pipeline builds profiles whose
 * bytes have bits 5-7 clear and scores every read to a best profile inside the batch.
 *
 * Build: cmake -DDPA_FUZZ=ON with clang (see .ci/run); run: fuzz_papara_inputs corpus/papara_inputs
 */
#include <stdlib.h>
#include <string.h>

#include "dpaccel.h"
#include "io/papara_io.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static void check_tree(const dpa_nwk_tree *t)
{
    int roots = 0;
    for (int32_t v = 0; v < t->num_nodes; v++) {
        if (t->parent[v] < 0) roots++;
        else if (t->parent[v] >= v) abort();
        if (t->subtree_end[v] <= v || t->subtree_end[v] > t->num_nodes) abort();
    }
    if (roots != 1 || t->parent[0] != -1) abort();
}

static void pipeline(const char *text, size_t len)
{
    const char *p1 = memchr(text, 1, len);
    if (!p1) return;
    const char *p2 = memchr(p1 + 1, 1, len - (size_t)(p1 + 1 - text));
    if (!p2) return;
    dpa_nwk_tree t;
    dpa_phy_alignment a;
    dpa_reads q, extra;
    if (dpa_nwk_parse(text, (size_t)(p1 - text), "t", &t)) return;
    if (dpa_phy_parse(p1 + 1, (size_t)(p2 - p1 - 1), "a", &a)) {
        dpa_nwk_free(&t);
        return;
    }
    if (dpa_fasta_reads_parse(p2 + 1, len - (size_t)(p2 + 1 - text), "q", &q)) {
        dpa_nwk_free(&t);
        dpa_phy_free(&a);
        return;
    }
    static dpa_context *ctx;
    if (!ctx) {
        dpa_options o;
        dpa_options_init(&o);
        o.num_threads = 1;
        o.gpu_disable = 1;
        if (dpa_context_create(&o, &ctx)) abort();
    }
    if (dpa_papara_bind(&t, &a, &extra) == DPA_OK) {
        if (dpa_reads_append(&q, &extra)) abort();
        dpa_papara_tree tr = { t.num_nodes, t.parent, t.length, t.row };
        dpa_papara_alignment al = { a.num_rows, a.num_columns, a.chars };
        int32_t E;
        int64_t S;
        if (dpa_papara_profile_shape(&tr, &al, &E, &S) == DPA_OK && (int64_t)E * S < 100000) {
            uint8_t *sites = malloc((size_t)E * (size_t)S);
            int32_t *en = malloc(sizeof *en * 2 * (size_t)E);
            int64_t *cols = malloc(sizeof *cols * (size_t)S);
            if (!sites || !en || !cols) abort();
            for (int model = 0; model < 2; model++) {
                dpa_papara_profiles out = { sites, en, cols, NULL };
                if (dpa_papara_build_profiles(ctx, &tr, &al, model, &out)) abort();
                for (int64_t i = 0; i < (int64_t)E * S; i++)
                    if (sites[i] & 0xE0) abort();
                int64_t cells = 0;
                for (int32_t r = 0; r < q.num_reads; r++) cells += q.lengths[r];
                if (cells * E * S > 2000000) continue;
                dpa_papara_batch b = { E, S, sites, q.num_reads, q.masks, q.offsets, q.lengths };
                int32_t *best = malloc(sizeof *best * (size_t)q.num_reads);
                int32_t *idx = malloc(sizeof *idx * (size_t)q.num_reads);
                if (!best || !idx) abort();
                dpa_papara_output o = { NULL, best, idx, NULL };
                if (dpa_papara_score(ctx, &b, NULL, &o, NULL)) abort();
                for (int32_t r = 0; r < q.num_reads; r++)
                    if (idx[r] < 0 || idx[r] >= E) abort();
                free(best);
                free(idx);
            }
            free(sites);
            free(en);
            free(cols);
        }
    }
    dpa_nwk_free(&t);
    dpa_phy_free(&a);
    dpa_reads_free(&q);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (size < 1) return 0;
    const char *text = (const char *)data + 1;
    const size_t len = size - 1;
    switch (data[0] % 4) {
    case 0: {
        dpa_nwk_tree t;
        if (dpa_nwk_parse(text, len, "t", &t) == DPA_OK) {
            check_tree(&t);
            dpa_nwk_free(&t);
        } else if (t.num_nodes || t.parent || !*dpa_last_error()) {
            abort();
        }
        break;
    }
    case 1: {
        dpa_phy_alignment a;
        if (dpa_phy_parse(text, len, "a", &a) == DPA_OK) {
            if (a.num_rows < 2 || a.num_columns < 1 || !a.chars) abort();
            dpa_phy_free(&a);
        } else if (a.num_rows || a.chars || !*dpa_last_error()) {
            abort();
        }
        break;
    }
    case 2: {
        dpa_reads r;
        if (dpa_fasta_reads_parse(text, len, "q", &r) == DPA_OK) {
            for (int32_t i = 0; i < r.num_reads; i++) {
                if (r.lengths[i] < 1) abort();
                for (int32_t j = 0; j < r.lengths[i]; j++) {
                    const uint8_t m = r.masks[r.offsets[i] + j];
                    if (m < 1 || m > 15) abort();
                }
            }
            dpa_reads_free(&r);
        } else if (r.num_reads || r.masks || !*dpa_last_error()) {
            abort();
        }
        break;
    }
    default:
        pipeline(text, len);
    }
    return 0;
}
