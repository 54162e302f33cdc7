/* jni_papara.c — PaPaRa through JNI: the profile shape, the profile build, and one scoring
 * call per batch. Java (org.dpaccel.papara) has parsed the files and checked the shapes; here
 * the arrays are copied out, the C API called, and results copied back only on success, so
 * a failed call leaves the Java output arrays untouched. */
#include <stdlib.h>
#include <string.h>

#include "common/status.h"
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

/* params: {open, extend, match, match_cgap, backend}; best: 3 per read {score, profile,
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
    if ((jlong)num_profiles * num_sites != np || (*env)->GetArrayLength(env, params) != 5 ||
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
    jint prm[5];
    (*env)->GetIntArrayRegion(env, params, 0, 5, prm);
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
        dpa_papara_params p = { prm[0], prm[1], prm[2], prm[3], prm[4] };
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

int dpa_jni_register_papara(JNIEnv *env, jclass natives)
{
    static const JNINativeMethod methods[] = {
        { "paparaShape", "([I[D[IIJ[B)[J", (void *)papara_shape },
        { "paparaBuild", "(J[I[D[IIJ[BI[B[I[J)V", (void *)papara_build },
        { "paparaScore", "(J[BIJ[B[I[I[I[I[J)V", (void *)papara_score },
    };
    return (*env)->RegisterNatives(env, natives, methods, 3);
}
