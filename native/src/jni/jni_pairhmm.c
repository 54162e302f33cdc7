/* jni_pairhmm.c — one JNI call per PairHMM batch. The Java side has validated and packed
 * the batch (concatenated arrays + lengths); here the arrays are copied out (no critical
 * sections held during a long computation, so the GC is never blocked), offsets are
 * derived from the lengths, and results are copied back. */
#include <stdlib.h>
#include <string.h>

#include "jni/jni_util.h"

typedef struct staged {
    uint8_t *bytes;      /* read bases | base q | ins | del | gcp | hap bases */
    int32_t *ints;       /* read lengths | hap lengths | group reads | group haps */
    int64_t *offsets;    /* read offsets | hap offsets */
    double *out;
} staged;

static void staged_free(staged *s)
{
    free(s->bytes), free(s->ints), free(s->offsets), free(s->out);
}

static void JNICALL pairhmm_compute(JNIEnv *env, jclass cls, jlong handle, jbyteArray rb,
                                    jbyteArray bq, jbyteArray iq, jbyteArray dq, jbyteArray gq,
                                    jintArray rlen, jbyteArray hb, jintArray hlen,
                                    jintArray greads, jintArray ghaps, jint precision,
                                    jint backend, jdoubleArray out, jlongArray stats_out)
{
    (void)cls;
    dpa_jni_ctx *h = (dpa_jni_ctx *)(intptr_t)handle;
    const jsize nrb = (*env)->GetArrayLength(env, rb), nhb = (*env)->GetArrayLength(env, hb);
    const jsize nr = (*env)->GetArrayLength(env, rlen), nh = (*env)->GetArrayLength(env, hlen);
    const jsize ng = greads ? (*env)->GetArrayLength(env, greads) : 0;
    const jsize nout = (*env)->GetArrayLength(env, out);
    staged s = { 0 };
    s.bytes = malloc((size_t)nrb * 5 + (size_t)nhb + 1);
    s.ints = malloc(sizeof(int32_t) * ((size_t)nr + nh + 2 * (size_t)ng + 1));
    s.offsets = malloc(sizeof(int64_t) * ((size_t)nr + nh + 1));
    s.out = malloc(sizeof(double) * ((size_t)nout + 1));
    if (!s.bytes || !s.ints || !s.offsets || !s.out) {
        staged_free(&s);
        dpa_jni_throw_oom(env, "dpaccel: staging a PairHMM batch");
        return;
    }
    uint8_t *p = s.bytes;
    (*env)->GetByteArrayRegion(env, rb, 0, nrb, (jbyte *)p);
    (*env)->GetByteArrayRegion(env, bq, 0, nrb, (jbyte *)(p + (size_t)nrb));
    (*env)->GetByteArrayRegion(env, iq, 0, nrb, (jbyte *)(p + 2 * (size_t)nrb));
    (*env)->GetByteArrayRegion(env, dq, 0, nrb, (jbyte *)(p + 3 * (size_t)nrb));
    (*env)->GetByteArrayRegion(env, gq, 0, nrb, (jbyte *)(p + 4 * (size_t)nrb));
    (*env)->GetByteArrayRegion(env, hb, 0, nhb, (jbyte *)(p + 5 * (size_t)nrb));
    int32_t *ri = s.ints, *hi = s.ints + nr, *gri = hi + nh, *ghi = gri + ng;
    (*env)->GetIntArrayRegion(env, rlen, 0, nr, ri);
    (*env)->GetIntArrayRegion(env, hlen, 0, nh, hi);
    if (ng) {
        (*env)->GetIntArrayRegion(env, greads, 0, ng, gri);
        (*env)->GetIntArrayRegion(env, ghaps, 0, ng, ghi);
    }
    if ((*env)->ExceptionCheck(env)) { /* a quality array shorter than the bases */
        staged_free(&s);
        return;
    }
    int64_t *ro = s.offsets, *ho = s.offsets + nr, acc = 0;
    for (jsize i = 0; i < nr; i++) ro[i] = acc, acc += ri[i] > 0 ? ri[i] : 0;
    int64_t racc = acc;
    acc = 0;
    for (jsize i = 0; i < nh; i++) ho[i] = acc, acc += hi[i] > 0 ? hi[i] : 0;
    if (racc != nrb || acc != nhb) {
        staged_free(&s);
        dpa_jni_throw(env, DPA_ERR_INVALID_ARG, "pairhmm: packed lengths do not match the arrays");
        return;
    }
    dpa_pairhmm_batch b = {
        .num_reads = nr, .read_bases = p, .base_quals = p + (size_t)nrb,
        .ins_quals = p + 2 * (size_t)nrb, .del_quals = p + 3 * (size_t)nrb,
        .gcp_quals = p + 4 * (size_t)nrb, .read_offsets = ro, .read_lengths = ri,
        .num_haps = nh, .hap_bases = p + 5 * (size_t)nrb, .hap_offsets = ho, .hap_lengths = hi,
        .num_groups = ng, .group_num_reads = ng ? gri : NULL, .group_num_haps = ng ? ghi : NULL,
    };
    dpa_pairhmm_params prm;
    dpa_pairhmm_params_init(&prm);
    prm.precision = precision;
    prm.backend = backend;
    dpa_pairhmm_stats stats;
    dpa_status st = dpa_pairhmm_compute(h->ctx, &b, &prm, s.out, nout, &stats);
    if (st == DPA_OK) {
        (*env)->SetDoubleArrayRegion(env, out, 0, nout, s.out);
        if (stats_out) {
            jlong v[5] = { stats.pairs, stats.cells, stats.double_recomputes, stats.gpu_pairs,
                           stats.isa };
            (*env)->SetLongArrayRegion(env, stats_out, 0, 5, v);
        }
    }
    staged_free(&s);
    dpa_jni_flush_log(env, h);
    if (st != DPA_OK) dpa_jni_throw(env, st, "pairhmm");
}

int dpa_jni_register_pairhmm(JNIEnv *env, jclass natives)
{
    static const JNINativeMethod methods[] = {
        { "pairhmmCompute", "(J[B[B[B[B[B[I[B[I[I[III[D[J)V", (void *)pairhmm_compute },
    };
    return (*env)->RegisterNatives(env, natives, methods, 1);
}
