/* jni_hmm.c — HMMER3 filters for org.dpaccel.hmm. A profiles handle is a jlong owned by
 * org.dpaccel.internal.NativeHmmProfiles, which guards it with a lock as NativeContext guards
 * a context, so a closed handle never reaches this file. One JNI call per filter batch: the
 * residues and lengths are copied out, the C API validates and computes, and the results
 * come back as three column arrays (bits, P-values, flags) only on success, so a rejected
 * call leaves the Java arrays untouched. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "common/status.h"
#include "jni/jni_util.h"

static jlong JNICALL hmm_load_file(JNIEnv *env, jclass cls, jstring path)
{
    (void)cls;
    const char *p = (*env)->GetStringUTFChars(env, path, NULL);
    if (!p) return 0; /* OutOfMemoryError pending */
    dpa_hmm_profiles *prof = NULL;
    dpa_status st = dpa_hmm_profiles_load_file(p, &prof);
    (*env)->ReleaseStringUTFChars(env, path, p);
    if (st != DPA_OK) {
        dpa_jni_throw(env, st, "hmm profiles");
        return 0;
    }
    return (jlong)(intptr_t)prof;
}

static jlong JNICALL hmm_load_buffer(JNIEnv *env, jclass cls, jbyteArray text)
{
    (void)cls;
    const jsize n = (*env)->GetArrayLength(env, text);
    char *buf = malloc((size_t)n + 1);
    if (!buf) {
        dpa_jni_throw_oom(env, "dpaccel: copying HMM profile text");
        return 0;
    }
    (*env)->GetByteArrayRegion(env, text, 0, n, (jbyte *)buf);
    dpa_hmm_profiles *prof = NULL;
    dpa_status st = dpa_hmm_profiles_load_buffer(buf, (size_t)n, &prof);
    free(buf);
    if (st != DPA_OK) {
        dpa_jni_throw(env, st, "hmm profiles");
        return 0;
    }
    return (jlong)(intptr_t)prof;
}

static void JNICALL hmm_free(JNIEnv *env, jclass cls, jlong handle)
{
    (void)env, (void)cls;
    dpa_hmm_profiles_free((dpa_hmm_profiles *)(intptr_t)handle);
}

static jint JNICALL hmm_count(JNIEnv *env, jclass cls, jlong handle)
{
    (void)env, (void)cls;
    return dpa_hmm_profiles_count((const dpa_hmm_profiles *)(intptr_t)handle);
}

/* Names (NAME lines) in model order; `lengths` (count entries) receives each LENG. */
static jobjectArray JNICALL hmm_describe(JNIEnv *env, jclass cls, jlong handle, jintArray lengths)
{
    (void)cls;
    const dpa_hmm_profiles *prof = (const dpa_hmm_profiles *)(intptr_t)handle;
    const int32_t n = dpa_hmm_profiles_count(prof);
    if ((*env)->GetArrayLength(env, lengths) != n) {
        dpa_jni_throw(env, dpa_fail(DPA_ERR_INVALID_ARG, "hmm profiles: lengths array holds %d, "
                                    "there are %d models", (int)(*env)->GetArrayLength(env, lengths),
                                    (int)n), "hmm profiles");
        return NULL;
    }
    jclass string_cls = (*env)->FindClass(env, "java/lang/String");
    if (!string_cls) return NULL;
    jobjectArray names = (*env)->NewObjectArray(env, n, string_cls, NULL);
    if (!names) return NULL;
    for (int32_t i = 0; i < n; i++) {
        jstring s = dpa_jni_ascii_string(env, dpa_hmm_profiles_name(prof, i));
        if (!s) return NULL;
        (*env)->SetObjectArrayElement(env, names, i, s);
        (*env)->DeleteLocalRef(env, s);
        const jint len = dpa_hmm_profiles_length(prof, i);
        (*env)->SetIntArrayRegion(env, lengths, i, 1, &len);
    }
    return names;
}

/* dparams: {F1, F2}; iparams: {bias_filter, all_scores, backend}; out columns (r = models x
 * sequences, model-major): bits 3 per pair {msv, bias, vit}, pvalues the same, flags 4 per
 * pair {pass_msv, pass_bias, pass_vit, computed}; stats: {pairs, cells, gpu_pairs,
 * passed_msv, passed_bias, passed_vit, isa}. */
static void JNICALL hmm_filter_compute(JNIEnv *env, jclass cls, jlong handle, jlong profiles,
                                       jbyteArray residues, jintArray lengths,
                                       jdoubleArray dparams, jintArray iparams, jfloatArray bits,
                                       jdoubleArray pvalues, jbyteArray flags, jlongArray stats_out)
{
    (void)cls;
    dpa_jni_ctx *h = (dpa_jni_ctx *)(intptr_t)handle;
    const dpa_hmm_profiles *prof = (const dpa_hmm_profiles *)(intptr_t)profiles;
    const jsize nb = (*env)->GetArrayLength(env, residues), ns = (*env)->GetArrayLength(env, lengths);
    const int64_t r = (int64_t)dpa_hmm_profiles_count(prof) * ns;
    if ((*env)->GetArrayLength(env, dparams) != 2 || (*env)->GetArrayLength(env, iparams) != 3 ||
        (*env)->GetArrayLength(env, bits) != 3 * r || (*env)->GetArrayLength(env, pvalues) != 3 * r ||
        (*env)->GetArrayLength(env, flags) != 4 * r) {
        dpa_jni_throw(env, dpa_fail(DPA_ERR_INVALID_ARG, "hmm-filter: array lengths do not match "
                                    "models x sequences = %lld", (long long)r), "hmm-filter");
        return;
    }
    uint8_t *res = malloc((size_t)nb + 1);
    int32_t *lens = malloc(sizeof(int32_t) * ((size_t)ns + 1));
    int64_t *offs = malloc(sizeof(int64_t) * ((size_t)ns + 1));
    dpa_hmm_filter_result *out = malloc(sizeof *out * ((size_t)r + 1));
    float *fb = malloc(sizeof(float) * (3 * (size_t)r + 1));
    double *pv = malloc(sizeof(double) * (3 * (size_t)r + 1));
    uint8_t *fl = malloc(4 * (size_t)r + 1);
    dpa_status st = DPA_OK;
    if (!res || !lens || !offs || !out || !fb || !pv || !fl) {
        dpa_jni_throw_oom(env, "dpaccel: staging an HMM filter batch");
        goto done;
    }
    double dp[2];
    jint ip[3];
    (*env)->GetDoubleArrayRegion(env, dparams, 0, 2, dp);
    (*env)->GetIntArrayRegion(env, iparams, 0, 3, ip);
    (*env)->GetByteArrayRegion(env, residues, 0, nb, (jbyte *)res);
    (*env)->GetIntArrayRegion(env, lengths, 0, ns, lens);
    if ((*env)->ExceptionCheck(env)) goto done;
    int64_t acc = 0;
    for (jsize i = 0; i < ns; i++) {
        offs[i] = acc;
        acc += lens[i] > 0 ? lens[i] : 0;
    }
    if (acc != nb) {
        st = dpa_fail(DPA_ERR_INVALID_ARG, "hmm-filter: lengths add up to %lld, residues hold %d",
                      (long long)acc, (int)nb);
        goto done;
    }
    dpa_hmm_seq_batch b = { .num_seqs = ns, .residues = res, .offsets = offs, .lengths = lens };
    dpa_hmm_filter_params p;
    dpa_hmm_filter_params_init(&p);
    p.F1 = dp[0], p.F2 = dp[1], p.bias_filter = ip[0], p.all_scores = ip[1], p.backend = ip[2];
    dpa_hmm_filter_stats stats;
    st = dpa_hmm_filter_compute(h->ctx, prof, &b, &p, out, r, &stats);
    if (st != DPA_OK) goto done;
    for (int64_t i = 0; i < r; i++) {
        fb[3 * i] = out[i].msv_bits, fb[3 * i + 1] = out[i].bias_bits, fb[3 * i + 2] = out[i].vit_bits;
        pv[3 * i] = out[i].msv_pvalue, pv[3 * i + 1] = out[i].bias_pvalue;
        pv[3 * i + 2] = out[i].vit_pvalue;
        fl[4 * i] = out[i].pass_msv, fl[4 * i + 1] = out[i].pass_bias;
        fl[4 * i + 2] = out[i].pass_vit, fl[4 * i + 3] = out[i].computed;
    }
    (*env)->SetFloatArrayRegion(env, bits, 0, (jsize)(3 * r), fb);
    (*env)->SetDoubleArrayRegion(env, pvalues, 0, (jsize)(3 * r), pv);
    (*env)->SetByteArrayRegion(env, flags, 0, (jsize)(4 * r), (const jbyte *)fl);
    if (stats_out) {
        jlong v[7] = { stats.pairs, stats.cells, stats.gpu_pairs, stats.passed_msv,
                       stats.passed_bias, stats.passed_vit, stats.isa };
        const jsize sn = (*env)->GetArrayLength(env, stats_out);
        (*env)->SetLongArrayRegion(env, stats_out, 0, sn < 7 ? sn : 7, v);
    }
done:
    free(res), free(lens), free(offs), free(out), free(fb), free(pv), free(fl);
    dpa_jni_flush_log(env, h);
    if (st != DPA_OK) dpa_jni_throw(env, st, "hmm-filter");
}

int dpa_jni_register_hmm(JNIEnv *env, jclass natives)
{
    static const JNINativeMethod methods[] = {
        { "hmmLoadFile", "(Ljava/lang/String;)J", (void *)hmm_load_file },
        { "hmmLoadBuffer", "([B)J", (void *)hmm_load_buffer },
        { "hmmFree", "(J)V", (void *)hmm_free },
        { "hmmCount", "(J)I", (void *)hmm_count },
        { "hmmDescribe", "(J[I)[Ljava/lang/String;", (void *)hmm_describe },
        { "hmmFilterCompute", "(JJ[B[I[D[I[F[D[B[J)V", (void *)hmm_filter_compute },
    };
    return (*env)->RegisterNatives(env, natives, methods, 6);
}
