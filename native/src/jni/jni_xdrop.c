/* jni_xdrop.c — one JNI call per X-drop batch. The Java side (org.dpaccel.xdrop.XdropBatch)
 * holds each distinct sequence once (many seeds share a read) and has validated the seeds;
 * here the arrays are copied out, each pair's query and target offsets are looked up from
 * its sequence indices, the batch computed, and the seven result columns copied back. */
#include <stdlib.h>
#include <string.h>

#include "common/status.h"
#include "jni/jni_util.h"

typedef struct staged {
    uint8_t *bases;
    int32_t *ints;   /* sequence lengths | pairs (6 per pair) | 5 input columns | 7 results */
    int64_t *longs;  /* sequence offsets | query offsets | target offsets */
    uint8_t *strands;
} staged;

static void staged_free(staged *s)
{
    free(s->bases), free(s->ints), free(s->longs), free(s->strands);
}

/* pairs: 6 per pair {query index, target index, qpos, tpos, length, strand};
 * params: {match, mismatch, gap, xdrop, backend};
 * out: 7 per column block {score | qbeg | qend | tbeg | tend | left | right}, n each;
 * stats: {pairs, cells, gpu_pairs, isa}. */
static void JNICALL xdrop_compute(JNIEnv *env, jclass cls, jlong handle, jbyteArray bases,
                                  jintArray seq_lens, jintArray pairs, jintArray params,
                                  jintArray out, jlongArray stats_out)
{
    (void)cls;
    dpa_jni_ctx *h = (dpa_jni_ctx *)(intptr_t)handle;
    const jsize nb = (*env)->GetArrayLength(env, bases), ns = (*env)->GetArrayLength(env, seq_lens);
    const jsize np6 = (*env)->GetArrayLength(env, pairs);
    const jsize n = np6 / 6;
    if (np6 % 6 != 0 || (*env)->GetArrayLength(env, out) != 7 * (jlong)n ||
        (*env)->GetArrayLength(env, params) != 5) {
        dpa_jni_throw(env, dpa_fail(DPA_ERR_INVALID_ARG, "xdrop: array lengths do not match the pair count"), "xdrop");
        return;
    }
    staged s = { 0 };
    s.bases = malloc((size_t)nb + 1);
    s.ints = malloc(sizeof(int32_t) * ((size_t)ns + (size_t)np6 + 12 * (size_t)n + 1));
    s.longs = malloc(sizeof(int64_t) * ((size_t)ns + 2 * (size_t)n + 1));
    s.strands = malloc((size_t)n + 1);
    if (!s.bases || !s.ints || !s.longs || !s.strands) {
        staged_free(&s);
        dpa_jni_throw_oom(env, "dpaccel: staging an X-drop batch");
        return;
    }
    jint prm[5];
    (*env)->GetIntArrayRegion(env, params, 0, 5, prm);
    (*env)->GetByteArrayRegion(env, bases, 0, nb, (jbyte *)s.bases);
    int32_t *sl = s.ints, *pr = sl + ns, *col = pr + np6, *r = col + 5 * n;
    (*env)->GetIntArrayRegion(env, seq_lens, 0, ns, sl);
    (*env)->GetIntArrayRegion(env, pairs, 0, np6, pr);
    if ((*env)->ExceptionCheck(env)) {
        staged_free(&s);
        return;
    }
    int64_t *so = s.longs, *qo = so + ns, *to = qo + n, acc = 0;
    for (jsize i = 0; i < ns; i++) so[i] = acc, acc += sl[i] > 0 ? sl[i] : 0;
    if (acc != nb) {
        staged_free(&s);
        dpa_jni_throw(env, dpa_fail(DPA_ERR_INVALID_ARG, "xdrop: packed lengths do not match the bases"), "xdrop");
        return;
    }
    /* the 6-per-pair rows as the C API's columns */
    int32_t *ql = col, *tl = col + n, *qp = col + 2 * n, *tp = col + 3 * n, *len = col + 4 * n;
    for (jsize i = 0; i < n; i++) {
        const int32_t qi = pr[6 * i], ti = pr[6 * i + 1];
        if (qi < 0 || qi >= ns || ti < 0 || ti >= ns) {
            staged_free(&s);
            dpa_jni_throw(env, dpa_fail(DPA_ERR_INVALID_ARG, "xdrop: pair %d names sequence %d of %d",
                                        (int)i, qi < 0 || qi >= ns ? qi : ti, (int)ns), "xdrop");
            return;
        }
        qo[i] = so[qi], ql[i] = sl[qi];
        to[i] = so[ti], tl[i] = sl[ti];
        qp[i] = pr[6 * i + 2], tp[i] = pr[6 * i + 3], len[i] = pr[6 * i + 4];
        s.strands[i] = (uint8_t)(pr[6 * i + 5] & 0xff);
    }
    dpa_xdrop_batch b = {
        .num_pairs = n, .query_bases = s.bases, .query_offsets = qo, .query_lengths = ql,
        .target_bases = s.bases, .target_offsets = to, .target_lengths = tl,
        .qpos = qp, .tpos = tp, .seed_lengths = len, .strands = s.strands,
    };
    dpa_xdrop_params p = { .match = prm[0], .mismatch = prm[1], .gap = prm[2], .xdrop = prm[3],
                           .backend = prm[4] };
    dpa_xdrop_output o = { r, r + n, r + 2 * n, r + 3 * n, r + 4 * n, r + 5 * n, r + 6 * n };
    dpa_xdrop_stats stats;
    dpa_status st = dpa_xdrop_compute(h->ctx, &b, &p, &o, &stats);
    if (st == DPA_OK) {
        (*env)->SetIntArrayRegion(env, out, 0, 7 * n, r);
        if (stats_out) {
            jlong v[4] = { stats.pairs, stats.cells, stats.gpu_pairs, stats.isa };
            const jsize sl4 = (*env)->GetArrayLength(env, stats_out);
            (*env)->SetLongArrayRegion(env, stats_out, 0, sl4 < 4 ? sl4 : 4, v);
        }
    }
    staged_free(&s);
    dpa_jni_flush_log(env, h);
    if (st != DPA_OK) dpa_jni_throw(env, st, "xdrop");
}

int dpa_jni_register_xdrop(JNIEnv *env, jclass natives)
{
    static const JNINativeMethod methods[] = {
        { "xdropCompute", "(J[B[I[I[I[I[J)V", (void *)xdrop_compute },
    };
    return (*env)->RegisterNatives(env, natives, methods, 1);
}
