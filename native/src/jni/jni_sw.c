/* jni_sw.c — one JNI call per Smith-Waterman batch. The Java side (org.dpaccel.sw.SwBatch)
 * has validated and packed the pairs (concatenated bases + lengths); here the arrays are
 * copied out, offsets derived from the lengths, the batch computed, and the packed CIGAR
 * bytes, CIGAR lengths and alignment offsets copied back. */
#include <stdlib.h>
#include <string.h>

#include "common/status.h"
#include "jni/jni_util.h"

typedef struct staged {
    uint8_t *bases;   /* refs | alts */
    int32_t *ints;    /* ref lengths | alt lengths | cigar lengths | alignment offsets */
    int64_t *longs;   /* ref offsets | alt offsets | cigar offsets */
    char *cigars;
} staged;

static void staged_free(staged *s)
{
    free(s->bases), free(s->ints), free(s->longs), free(s->cigars);
}

/* params: {match, mismatch, gap_open, gap_extend, overhang, backend};
 * stats: {pairs, cells, exact_matches, cigar_bytes, isa, gpu_pairs}; an older caller may pass 5. */
static void JNICALL sw_compute(JNIEnv *env, jclass cls, jlong handle, jbyteArray refs,
                               jintArray ref_lens, jbyteArray alts, jintArray alt_lens,
                               jintArray params, jbyteArray cigars, jintArray cigar_lens,
                               jintArray aln_offsets, jlongArray stats_out)
{
    (void)cls;
    dpa_jni_ctx *h = (dpa_jni_ctx *)(intptr_t)handle;
    const jsize nrb = (*env)->GetArrayLength(env, refs), nab = (*env)->GetArrayLength(env, alts);
    const jsize n = (*env)->GetArrayLength(env, ref_lens);
    const jsize ncig = (*env)->GetArrayLength(env, cigars);
    if ((*env)->GetArrayLength(env, alt_lens) != n || (*env)->GetArrayLength(env, cigar_lens) != n ||
        (*env)->GetArrayLength(env, aln_offsets) != n || (*env)->GetArrayLength(env, params) != 6) {
        dpa_jni_throw(env, dpa_fail(DPA_ERR_INVALID_ARG, "array lengths do not match the pair count"), "sw");
        return;
    }
    staged s = { 0 };
    s.bases = malloc((size_t)nrb + (size_t)nab + 1);
    s.ints = malloc(sizeof(int32_t) * (4 * (size_t)n + 1));
    s.longs = malloc(sizeof(int64_t) * (3 * (size_t)n + 1));
    s.cigars = malloc((size_t)ncig + 1);
    if (!s.bases || !s.ints || !s.longs || !s.cigars) {
        staged_free(&s);
        dpa_jni_throw_oom(env, "dpaccel: staging a Smith-Waterman batch");
        return;
    }
    jint prm[6];
    (*env)->GetIntArrayRegion(env, params, 0, 6, prm);
    (*env)->GetByteArrayRegion(env, refs, 0, nrb, (jbyte *)s.bases);
    (*env)->GetByteArrayRegion(env, alts, 0, nab, (jbyte *)(s.bases + nrb));
    int32_t *rl = s.ints, *al = s.ints + n, *cl = al + n, *ao = cl + n;
    (*env)->GetIntArrayRegion(env, ref_lens, 0, n, rl);
    (*env)->GetIntArrayRegion(env, alt_lens, 0, n, al);
    if ((*env)->ExceptionCheck(env)) {
        staged_free(&s);
        return;
    }
    int64_t *ro = s.longs, *ao64 = s.longs + n, *co = ao64 + n, racc = 0, aacc = 0;
    for (jsize i = 0; i < n; i++) {
        ro[i] = racc, racc += rl[i] > 0 ? rl[i] : 0;
        ao64[i] = aacc, aacc += al[i] > 0 ? al[i] : 0;
    }
    if (racc != nrb || aacc != nab) {
        staged_free(&s);
        dpa_jni_throw(env, dpa_fail(DPA_ERR_INVALID_ARG, "packed lengths do not match the arrays"), "sw");
        return;
    }
    dpa_sw_batch b = {
        .num_pairs = n, .ref_bases = s.bases, .ref_offsets = ro, .ref_lengths = rl,
        .alt_bases = s.bases + nrb, .alt_offsets = ao64, .alt_lengths = al,
    };
    dpa_sw_params p = { .match = prm[0], .mismatch = prm[1], .gap_open = prm[2],
                        .gap_extend = prm[3], .overhang = prm[4], .backend = prm[5] };
    dpa_sw_output o = { .cigars = s.cigars, .cigar_capacity = ncig, .cigar_offsets = co,
                        .cigar_lengths = cl, .alignment_offsets = ao };
    dpa_sw_stats stats;
    dpa_status st = dpa_sw_compute(h->ctx, &b, &p, &o, &stats);
    if (st == DPA_OK) {
        (*env)->SetByteArrayRegion(env, cigars, 0, (jsize)stats.cigar_bytes, (const jbyte *)s.cigars);
        (*env)->SetIntArrayRegion(env, cigar_lens, 0, n, cl);
        (*env)->SetIntArrayRegion(env, aln_offsets, 0, n, ao);
        if (stats_out) {
            jlong v[6] = { stats.pairs, stats.cells, stats.exact_matches, stats.cigar_bytes,
                           stats.isa, stats.gpu_pairs };
            const jsize len = (*env)->GetArrayLength(env, stats_out);
            (*env)->SetLongArrayRegion(env, stats_out, 0, len < 6 ? len : 6, v);
        }
    }
    staged_free(&s);
    dpa_jni_flush_log(env, h);
    if (st != DPA_OK) dpa_jni_throw(env, st, "sw");
}

int dpa_jni_register_sw(JNIEnv *env, jclass natives)
{
    static const JNINativeMethod methods[] = {
        { "swCompute", "(J[B[I[B[I[I[B[I[I[J)V", (void *)sw_compute },
    };
    return (*env)->RegisterNatives(env, natives, methods, 1);
}
