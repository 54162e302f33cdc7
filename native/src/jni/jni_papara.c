/* jni_papara.c — PaPaRa through JNI: the profile shape, the profile build, and one scoring
 * call per batch. Java (org.dpaccel.papara) has parsed the files and checked the shapes; here
 * the arrays are copied out, the C API called, and results copied back only on success, so
 * a failed call leaves the Java output arrays untouched. Tracebacks and the alignment file
 * come last: the writer is src/io's, compiled into this library (DECISIONS 95). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/status.h"
#include "io/papara_io.h"
#include "jni/jni_util.h"

typedef struct tree_stage {
    int32_t *parent, *row;
    double *length;
    uint8_t *chars;
} tree_stage;

static void tree_stage_free(tree_stage *s)
{
    free(s->parent), free(s->row), free(s->length), free(s->chars);
}

/* 0 on success; on failure a Java exception is pending. */
static int stage_tree(JNIEnv *env, jintArray parent, jdoubleArray length, jintArray row,
                      jbyteArray chars, tree_stage *s, dpa_papara_tree *tr, jint rows, jlong cols,
                      dpa_papara_alignment *al)
{
    memset(s, 0, sizeof *s);
    const jsize n = (*env)->GetArrayLength(env, parent), nc = (*env)->GetArrayLength(env, chars);
    if ((*env)->GetArrayLength(env, length) != n || (*env)->GetArrayLength(env, row) != n ||
        rows < 0 || cols < 0 || (jlong)rows * cols != nc) {
        dpa_jni_throw(env, dpa_fail(DPA_ERR_INVALID_ARG, "papara: tree arrays differ in length or "
                                    "rows x columns != characters"), "papara");
        return -1;
    }
    s->parent = malloc(sizeof(int32_t) * ((size_t)n + 1));
    s->row = malloc(sizeof(int32_t) * ((size_t)n + 1));
    s->length = malloc(sizeof(double) * ((size_t)n + 1));
    s->chars = malloc((size_t)nc + 1);
    if (!s->parent || !s->row || !s->length || !s->chars) {
        tree_stage_free(s);
        dpa_jni_throw_oom(env, "dpaccel: staging a PaPaRa reference");
        return -1;
    }
    (*env)->GetIntArrayRegion(env, parent, 0, n, s->parent);
    (*env)->GetIntArrayRegion(env, row, 0, n, s->row);
    (*env)->GetDoubleArrayRegion(env, length, 0, n, s->length);
    (*env)->GetByteArrayRegion(env, chars, 0, nc, (jbyte *)s->chars);
    if ((*env)->ExceptionCheck(env)) {
        tree_stage_free(s);
        return -1;
    }
    *tr = (dpa_papara_tree){ n, s->parent, s->length, s->row };
    *al = (dpa_papara_alignment){ rows, cols, s->chars };
    return 0;
}

/* returns {edges, sites} */
static jlongArray JNICALL papara_shape(JNIEnv *env, jclass cls, jintArray parent,
                                       jdoubleArray length, jintArray row, jint rows, jlong cols,
                                       jbyteArray chars)
{
    (void)cls;
    tree_stage s;
    dpa_papara_tree tr;
    dpa_papara_alignment al;
    if (stage_tree(env, parent, length, row, chars, &s, &tr, rows, cols, &al)) return NULL;
    int32_t E = 0;
    int64_t S = 0;
    const dpa_status st = dpa_papara_profile_shape(&tr, &al, &E, &S);
    tree_stage_free(&s);
    if (st != DPA_OK) {
        dpa_jni_throw(env, st, "papara");
        return NULL;
    }
    jlongArray out = (*env)->NewLongArray(env, 2);
    if (!out) return NULL;
    const jlong v[2] = { E, S };
    (*env)->SetLongArrayRegion(env, out, 0, 2, v);
    return out;
}

static void JNICALL papara_build(JNIEnv *env, jclass cls, jlong handle, jintArray parent,
                                 jdoubleArray length, jintArray row, jint rows, jlong cols,
                                 jbyteArray chars, jint model, jbyteArray sites,
                                 jintArray edge_nodes, jlongArray columns)
{
    (void)cls;
    dpa_jni_ctx *h = (dpa_jni_ctx *)(intptr_t)handle;
    tree_stage s;
    dpa_papara_tree tr;
    dpa_papara_alignment al;
    if (stage_tree(env, parent, length, row, chars, &s, &tr, rows, cols, &al)) return;
    int32_t E = 0;
    int64_t S = 0;
    dpa_status st = dpa_papara_profile_shape(&tr, &al, &E, &S);
    if (st == DPA_OK && ((*env)->GetArrayLength(env, sites) != (jlong)E * S ||
                         (*env)->GetArrayLength(env, edge_nodes) != 2 * (jlong)E ||
                         (*env)->GetArrayLength(env, columns) != S))
        st = dpa_fail(DPA_ERR_INVALID_ARG, "papara: output arrays do not match %d edges x %lld "
                      "sites", E, (long long)S);
    uint8_t *sb = NULL;
    int32_t *en = NULL;
    int64_t *cb = NULL;
    if (st == DPA_OK) {
        sb = malloc((size_t)E * (size_t)S + 1);
        en = malloc(sizeof *en * 2 * (size_t)E + 1);
        cb = malloc(sizeof *cb * (size_t)S + 1);
        if (!sb || !en || !cb) {
            free(sb), free(en), free(cb);
            tree_stage_free(&s);
            dpa_jni_throw_oom(env, "dpaccel: PaPaRa profiles");
            return;
        }
        dpa_papara_profiles out = { sb, en, cb, NULL };
        st = dpa_papara_build_profiles(h->ctx, &tr, &al, model, &out);
    }
    if (st == DPA_OK) {
        (*env)->SetByteArrayRegion(env, sites, 0, (jsize)((jlong)E * S), (const jbyte *)sb);
        (*env)->SetIntArrayRegion(env, edge_nodes, 0, 2 * E, en);
        (*env)->SetLongArrayRegion(env, columns, 0, (jsize)S, (const jlong *)cb);
    }
    free(sb), free(en), free(cb);
    tree_stage_free(&s);
    dpa_jni_flush_log(env, h);
    if (st != DPA_OK) dpa_jni_throw(env, st, "papara");
}

/* params: {open, extend, match, match_cgap, backend, score_model}; best: 3 per read {score, profile,
 * tied}; scores: reads x profiles or null; stats: {cells, gpu tasks, isa}. */
static void JNICALL papara_score(JNIEnv *env, jclass cls, jlong handle, jbyteArray profiles,
                                 jint num_profiles, jlong num_sites, jbyteArray masks,
                                 jintArray lengths, jintArray params, jintArray scores,
                                 jintArray best, jlongArray stats_out)
{
    (void)cls;
    dpa_jni_ctx *h = (dpa_jni_ctx *)(intptr_t)handle;
    const jsize np = (*env)->GetArrayLength(env, profiles), nm = (*env)->GetArrayLength(env, masks);
    const jsize R = (*env)->GetArrayLength(env, lengths);
    if ((jlong)num_profiles * num_sites != np || (*env)->GetArrayLength(env, params) != 6 ||
        (*env)->GetArrayLength(env, best) != 3 * (jlong)R ||
        (scores && (*env)->GetArrayLength(env, scores) != (jlong)R * num_profiles)) {
        dpa_jni_throw(env, dpa_fail(DPA_ERR_INVALID_ARG, "papara: array lengths do not match "
                                    "the profile and read counts"), "papara");
        return;
    }
    uint8_t *pb = malloc((size_t)np + 1), *mb = malloc((size_t)nm + 1);
    int32_t *lb = malloc(sizeof *lb * ((size_t)R + 1)), *rb = malloc(sizeof *rb * 3 * ((size_t)R + 1));
    int64_t *ob = malloc(sizeof *ob * ((size_t)R + 1));
    int32_t *sb = scores ? malloc(sizeof *sb * ((size_t)R * (size_t)num_profiles + 1)) : NULL;
    if (!pb || !mb || !lb || !rb || !ob || (scores && !sb)) {
        free(pb), free(mb), free(lb), free(rb), free(ob), free(sb);
        dpa_jni_throw_oom(env, "dpaccel: staging a PaPaRa batch");
        return;
    }
    jint prm[6];
    (*env)->GetIntArrayRegion(env, params, 0, 6, prm);
    (*env)->GetByteArrayRegion(env, profiles, 0, np, (jbyte *)pb);
    (*env)->GetByteArrayRegion(env, masks, 0, nm, (jbyte *)mb);
    (*env)->GetIntArrayRegion(env, lengths, 0, R, lb);
    dpa_status st = DPA_OK;
    if ((*env)->ExceptionCheck(env)) {
        st = DPA_ERR_INTERNAL;
    } else {
        int64_t acc = 0;
        for (jsize r = 0; r < R; r++) ob[r] = acc, acc += lb[r] > 0 ? lb[r] : 0;
        if (acc != nm)
            st = dpa_fail(DPA_ERR_INVALID_ARG, "papara: read lengths add up to %lld, the masks "
                          "hold %d", (long long)acc, (int)nm);
    }
    if (st == DPA_OK) {
        dpa_papara_batch b = { num_profiles, num_sites, pb, R, mb, ob, lb };
        dpa_papara_params p = { prm[0], prm[1], prm[2], prm[3], prm[4], prm[5] };
        dpa_papara_output o = { sb, rb, rb + R, rb + 2 * R };
        dpa_papara_stats stats;
        st = dpa_papara_score(h->ctx, &b, &p, &o, &stats);
        if (st == DPA_OK) {
            if (scores) (*env)->SetIntArrayRegion(env, scores, 0, (jsize)((jlong)R * num_profiles), sb);
            (*env)->SetIntArrayRegion(env, best, 0, 3 * R, rb);
            if (stats_out) {
                const jlong v[3] = { stats.cells, stats.gpu_tasks, stats.isa };
                const jsize n3 = (*env)->GetArrayLength(env, stats_out);
                (*env)->SetLongArrayRegion(env, stats_out, 0, n3 < 3 ? n3 : 3, v);
            }
        }
    }
    free(pb), free(mb), free(lb), free(rb), free(ob), free(sb);
    dpa_jni_flush_log(env, h);
    if (st != DPA_OK && !(*env)->ExceptionCheck(env)) dpa_jni_throw(env, st, "papara");
}

/* Tracebacks of chosen (read, profile) pairs on the context's threads
 * (dpa_papara_traceback_batch). pairs: the profile index per read; params as
 * for scoring; ops: out, num_sites + read length per pair, back to back; info: out, 3 per
 * pair {num_ops, score, ref_start}. Returns the CIGARs, '\n' after each, or NULL with an
 * exception pending. Outputs are written only when every pair succeeded. */
static jbyteArray JNICALL papara_traceback(JNIEnv *env, jclass cls, jlong handle,
                                           jbyteArray profiles, jint num_profiles,
                                           jlong num_sites, jintArray pairs, jbyteArray masks,
                                           jintArray lengths, jintArray params, jbyteArray ops,
                                           jlongArray info)
{
    (void)cls;
    dpa_jni_ctx *h = (dpa_jni_ctx *)(intptr_t)handle;
    const jsize np = (*env)->GetArrayLength(env, profiles), nm = (*env)->GetArrayLength(env, masks);
    const jsize R = (*env)->GetArrayLength(env, lengths);
    const jlong S = num_sites;
    if (num_profiles < 1 || S < 1 || (jlong)num_profiles * S != np ||
        (*env)->GetArrayLength(env, pairs) != R || (*env)->GetArrayLength(env, params) != 5 ||
        (*env)->GetArrayLength(env, info) != 3 * (jlong)R) {
        dpa_jni_throw(env, dpa_fail(DPA_ERR_INVALID_ARG, "papara traceback: array lengths do not "
                                    "match the profile and read counts"), "papara");
        return NULL;
    }
    uint8_t *pb = malloc((size_t)np + 1), *mb = malloc((size_t)nm + 1);
    int32_t *lb = malloc(sizeof *lb * ((size_t)R + 1)), *eb = malloc(sizeof *eb * ((size_t)R + 1));
    int64_t *ib = malloc(sizeof *ib * 3 * ((size_t)R + 1));
    char **cig = calloc((size_t)R + 1, sizeof *cig);
    uint8_t *ob = NULL;
    jbyteArray result = NULL;
    if (!pb || !mb || !lb || !eb || !ib || !cig) goto oom;
    jint prm[5];
    (*env)->GetIntArrayRegion(env, params, 0, 5, prm);
    (*env)->GetByteArrayRegion(env, profiles, 0, np, (jbyte *)pb);
    (*env)->GetByteArrayRegion(env, masks, 0, nm, (jbyte *)mb);
    (*env)->GetIntArrayRegion(env, lengths, 0, R, lb);
    (*env)->GetIntArrayRegion(env, pairs, 0, R, eb);
    if ((*env)->ExceptionCheck(env)) goto out;
    dpa_status st = DPA_OK;
    int64_t acc = 0, total_ops = 0;
    for (jsize r = 0; r < R && st == DPA_OK; r++) {
        if (lb[r] < 1 || lb[r] > DPA_PAPARA_MAX_READ_LENGTH)
            st = dpa_fail(DPA_ERR_LIMIT, "papara traceback: read %d has length %d, outside [1, %d]",
                          (int)r, lb[r], DPA_PAPARA_MAX_READ_LENGTH);
        else if (eb[r] < 0 || eb[r] >= num_profiles)
            st = dpa_fail(DPA_ERR_INVALID_ARG, "papara traceback: read %d: profile %d outside "
                          "[0, %d)", (int)r, eb[r], num_profiles);
        acc += lb[r];
        total_ops += S + lb[r];
    }
    if (st == DPA_OK && (acc != nm || (*env)->GetArrayLength(env, ops) != total_ops))
        st = dpa_fail(DPA_ERR_INVALID_ARG, "papara traceback: read lengths add up to %lld (masks "
                      "%d), ops need %lld bytes (given %d)", (long long)acc, (int)nm,
                      (long long)total_ops, (int)(*env)->GetArrayLength(env, ops));
    /* zeroed: the slot tails past each read's ops go back to Java too */
    if (st == DPA_OK && !(ob = calloc((size_t)total_ops + 1, 1))) goto oom;
    const dpa_papara_params p = { prm[0], prm[1], prm[2], prm[3], -1, DPA_PAPARA_SCORE_PAPARA2 };
    int64_t *offs = NULL, *oo = NULL, *nops = NULL;
    int32_t *sc = NULL;
    int64_t cig_len = 0;
    if (st == DPA_OK) {
        offs = malloc(sizeof *offs * ((size_t)R + 1));
        oo = malloc(sizeof *oo * ((size_t)R + 1));
        nops = malloc(sizeof *nops * ((size_t)R + 1));
        sc = malloc(sizeof *sc * ((size_t)R + 1));
        if (!offs || !oo || !nops || !sc) {
            free(offs), free(oo), free(nops), free(sc);
            goto oom;
        }
        int64_t off = 0, at = 0;
        for (jsize r = 0; r < R; r++) {
            offs[r] = off, oo[r] = at;  /* each pair's slot is num_sites + length */
            off += lb[r];
            at += S + lb[r];
        }
        const dpa_papara_batch b = { num_profiles, S, pb, R, mb, offs, lb };
        st = dpa_papara_traceback_batch(h->ctx, &b, eb, &p, ob, total_ops, oo, nops, sc);
    }
    for (jsize r = 0; r < R && st == DPA_OK; r++) {
        int64_t start = 0;
        if (!(cig[r] = dpa_papara_cigar(ob + oo[r], nops[r], &start))) {
            free(offs), free(oo), free(nops), free(sc);
            goto oom;
        }
        cig_len += (int64_t)strlen(cig[r]) + 1;
        ib[3 * r] = nops[r], ib[3 * r + 1] = sc[r], ib[3 * r + 2] = start;
    }
    free(offs), free(oo), free(nops), free(sc);
    if (st == DPA_OK && cig_len > 0x7fffffff - 8)
        st = dpa_fail(DPA_ERR_LIMIT, "papara traceback: %lld bytes of CIGAR exceed a Java array",
                      (long long)cig_len);
    if (st != DPA_OK) {
        dpa_jni_throw(env, st, "papara");
        goto out;
    }
    result = (*env)->NewByteArray(env, (jsize)cig_len);
    if (!result) goto out;
    int64_t w = 0;
    for (jsize r = 0; r < R; r++) {
        const jsize l = (jsize)strlen(cig[r]);
        (*env)->SetByteArrayRegion(env, result, (jsize)w, l, (const jbyte *)cig[r]);
        const jbyte nl = '\n';
        (*env)->SetByteArrayRegion(env, result, (jsize)(w + l), 1, &nl);
        w += l + 1;
    }
    (*env)->SetByteArrayRegion(env, ops, 0, (jsize)total_ops, (const jbyte *)ob);
    (*env)->SetLongArrayRegion(env, info, 0, 3 * R, (const jlong *)ib);
    goto out;
oom:
    dpa_jni_throw_oom(env, "dpaccel: PaPaRa tracebacks");
out:
    if (cig)
        for (jsize r = 0; r < R; r++) free(cig[r]);
    free(pb), free(mb), free(lb), free(eb), free(ib), free(cig), free(ob);
    dpa_jni_flush_log(env, h);
    return (*env)->ExceptionCheck(env) ? NULL : result;
}

/* Splits count NUL-terminated names out of a Java byte array (names must hold no NUL). */
static int stage_names(JNIEnv *env, jbyteArray src, int32_t count, const char *what,
                       dpa_names *out, dpa_status *st)
{
    const jsize n = (*env)->GetArrayLength(env, src);
    out->count = count;
    out->buf = malloc((size_t)n + 1);
    out->offset = malloc(sizeof *out->offset * ((size_t)count + 1));
    if (!out->buf || !out->offset) return -1;
    (*env)->GetByteArrayRegion(env, src, 0, n, (jbyte *)out->buf);
    int32_t k = 0;
    jsize start = 0;
    for (jsize i = 0; i < n; i++)
        if (out->buf[i] == 0) {
            if (k < count) out->offset[k] = start;
            k++;
            start = i + 1;
        }
    if (k != count || start != n)
        *st = dpa_fail(DPA_ERR_INVALID_ARG, "papara alignment: %d %s names given, %d expected "
                       "(each NUL-terminated)", k, what, count);
    return 0;
}

/* PaPaRa's papara_alignment file (src/io/papara_alignment.c) written to path, for the tree
 * rows of the alignment (tree_rows: the rows tips name) and the reads placed by their
 * traceback ops (ops: num_ops[r] bytes per read, back to back). Everything the writer
 * indexes by is checked first, so a bad argument is an exception, never a wild access. */
static void JNICALL papara_write_alignment(JNIEnv *env, jclass cls, jbyteArray path,
                                           jintArray tree_rows, jint rows, jlong cols,
                                           jbyteArray chars, jbyteArray row_names,
                                           jlongArray columns, jbyteArray masks,
                                           jintArray lengths, jbyteArray read_names,
                                           jbyteArray ops, jlongArray num_ops)
{
    (void)cls;
    const jsize nt = (*env)->GetArrayLength(env, tree_rows), nc = (*env)->GetArrayLength(env, chars);
    const jsize S = (*env)->GetArrayLength(env, columns), nm = (*env)->GetArrayLength(env, masks);
    const jsize R = (*env)->GetArrayLength(env, lengths), no = (*env)->GetArrayLength(env, ops);
    const jsize np = (*env)->GetArrayLength(env, path);
    dpa_status st = DPA_OK;
    if (rows < 1 || cols < 1 || (jlong)rows * cols != nc || S < 1 ||
        (*env)->GetArrayLength(env, num_ops) != R) {
        dpa_jni_throw(env, dpa_fail(DPA_ERR_INVALID_ARG, "papara alignment: array lengths do not "
                                    "match rows x columns, sites or reads"), "papara");
        return;
    }
    int32_t *trow = malloc(sizeof *trow * ((size_t)nt + 1)), *lb = malloc(sizeof *lb * ((size_t)R + 1));
    uint8_t *cb = malloc((size_t)nc + 1), *mb = malloc((size_t)nm + 1), *ob = malloc((size_t)no + 1);
    int64_t *colb = malloc(sizeof *colb * ((size_t)S + 1)), *nob = malloc(sizeof *nob * ((size_t)R + 1));
    int64_t *offs = malloc(sizeof *offs * ((size_t)R + 1));
    const uint8_t **opp = malloc(sizeof *opp * ((size_t)R + 1));
    char *pb = malloc((size_t)np + 1);
    dpa_phy_alignment aln = { 0 };
    dpa_reads reads = { 0 };
    FILE *f = NULL;
    if (!trow || !lb || !cb || !mb || !ob || !colb || !nob || !offs || !opp || !pb) goto oom;
    (*env)->GetIntArrayRegion(env, tree_rows, 0, nt, trow);
    (*env)->GetIntArrayRegion(env, lengths, 0, R, lb);
    (*env)->GetByteArrayRegion(env, chars, 0, nc, (jbyte *)cb);
    (*env)->GetByteArrayRegion(env, masks, 0, nm, (jbyte *)mb);
    (*env)->GetByteArrayRegion(env, ops, 0, no, (jbyte *)ob);
    (*env)->GetLongArrayRegion(env, columns, 0, S, (jlong *)colb);
    (*env)->GetLongArrayRegion(env, num_ops, 0, R, (jlong *)nob);
    (*env)->GetByteArrayRegion(env, path, 0, np, (jbyte *)pb);
    pb[np] = 0;
    if ((*env)->ExceptionCheck(env)) goto out;
    if (stage_names(env, row_names, rows, "row", &aln.names, &st) ||
        stage_names(env, read_names, R, "read", &reads.names, &st))
        goto oom;
    for (jsize i = 0; i < nt && st == DPA_OK; i++)
        if (trow[i] < 0 || trow[i] >= rows)
            st = dpa_fail(DPA_ERR_INVALID_ARG, "papara alignment: tree row %d outside [0, %d)",
                          trow[i], rows);
    for (jsize k = 0; k < S && st == DPA_OK; k++)
        if (colb[k] < 0 || colb[k] >= cols)
            st = dpa_fail(DPA_ERR_INVALID_ARG, "papara alignment: site %d column %lld outside "
                          "[0, %lld)", (int)k, (long long)colb[k], (long long)cols);
    int64_t moff = 0, ooff = 0;
    for (jsize r = 0; r < R && st == DPA_OK; r++) {
        if (lb[r] < 1 || nob[r] < 0 || moff + lb[r] > nm || ooff + nob[r] > no) {
            st = dpa_fail(DPA_ERR_INVALID_ARG, "papara alignment: read %d: length %d or %lld ops "
                          "run past the arrays", (int)r, lb[r], (long long)nob[r]);
            break;
        }
        int64_t sites = 0, bases = 0;
        for (int64_t k = 0; k < nob[r]; k++) {
            const uint8_t op = ob[ooff + k];
            if (op > DPA_PAPARA_OP_I) {
                st = dpa_fail(DPA_ERR_INVALID_ARG, "papara alignment: read %d op %lld = %u is not "
                              "M, D or I", (int)r, (long long)k, op);
                break;
            }
            sites += op != DPA_PAPARA_OP_I;
            bases += op != DPA_PAPARA_OP_D;
        }
        if (st == DPA_OK && (sites != S || bases != lb[r]))
            st = dpa_fail(DPA_ERR_INVALID_ARG, "papara alignment: read %d: ops cover %lld sites "
                          "and %lld bases, not %d and %d", (int)r, (long long)sites,
                          (long long)bases, (int)S, lb[r]);
        for (int64_t j = 0; j < lb[r] && st == DPA_OK; j++)
            if (mb[moff + j] < 1 || mb[moff + j] > 15)
                st = dpa_fail(DPA_ERR_INVALID_ARG, "papara alignment: read %d base %lld = %u is not "
                              "a state mask in [1, 15]", (int)r, (long long)j, mb[moff + j]);
        offs[r] = moff, opp[r] = ob + ooff;
        moff += lb[r], ooff += nob[r];
    }
    if (st == DPA_OK && (moff != nm || ooff != no))
        st = dpa_fail(DPA_ERR_INVALID_ARG, "papara alignment: the reads use %lld of %d bases and "
                      "%lld of %d ops", (long long)moff, (int)nm, (long long)ooff, (int)no);
    if (st != DPA_OK) {
        dpa_jni_throw(env, st, "papara");
        goto out;
    }
    aln.num_rows = rows, aln.num_columns = cols, aln.chars = cb;
    reads.num_reads = R, reads.masks = mb, reads.offsets = offs, reads.lengths = lb;
    dpa_nwk_tree tree = { 0 };
    tree.num_nodes = nt;
    tree.row = trow;
    if (!(f = fopen(pb, "wb"))) {
        st = dpa_fail(DPA_ERR_INVALID_ARG, "papara alignment: cannot write %s", pb);
    } else {
        st = dpa_papara_write_alignment(f, &tree, &aln, colb, S, &reads, opp, nob);
        if (fclose(f) != 0 && st == DPA_OK)
            st = dpa_fail(DPA_ERR_INVALID_ARG, "papara alignment: cannot finish %s", pb);
    }
    if (st != DPA_OK) dpa_jni_throw(env, st, "papara");
    goto out;
oom:
    dpa_jni_throw_oom(env, "dpaccel: PaPaRa alignment");
out:
    free(trow), free(lb), free(cb), free(mb), free(ob), free(colb), free(nob), free(offs);
    free(opp), free(pb), free(aln.names.buf), free(aln.names.offset), free(reads.names.buf);
    free(reads.names.offset);
}

int dpa_jni_register_papara(JNIEnv *env, jclass natives)
{
    static const JNINativeMethod methods[] = {
        { "paparaShape", "([I[D[IIJ[B)[J", (void *)papara_shape },
        { "paparaBuild", "(J[I[D[IIJ[BI[B[I[J)V", (void *)papara_build },
        { "paparaScore", "(J[BIJ[B[I[I[I[I[J)V", (void *)papara_score },
        { "paparaTraceback", "(J[BIJ[I[B[I[I[B[J)[B", (void *)papara_traceback },
        { "paparaWriteAlignment", "([B[IIJ[B[B[J[B[I[B[B[J)V", (void *)papara_write_alignment },
    };
    return (*env)->RegisterNatives(env, natives, methods, 5);
}
