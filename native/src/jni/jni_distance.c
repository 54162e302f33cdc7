/* jni_distance.c — one JNI call per genotype-distance request. The Java side
 * (org.dpaccel.distance.GenotypeBatch) has checked the sizes; here the .bed rows and the use
 * flags are copied out, the counts computed (triangle or tile) and copied back as int
 * (uint32 bits; Java reads them unsigned). */
#include <stdlib.h>

#include "common/status.h"
#include "jni/jni_util.h"

/* tile: NULL or {row0, row1, col0, col1}; stats: {pairs, variantsUsed, variantsSkipped,
 * pairVariants, isa, gpuPairs}. */
static void JNICALL distance_counts(JNIEnv *env, jclass cls, jlong handle, jint samples,
                                    jint variants, jbyteArray genotypes, jbyteArray use,
                                    jintArray tile, jint backend, jint block, jintArray out,
                                    jlongArray stats_out)
{
    (void)cls;
    dpa_jni_ctx *h = (dpa_jni_ctx *)(intptr_t)handle;
    const int64_t row_bytes = ((int64_t)samples + 3) / 4;
    const jsize ng = (*env)->GetArrayLength(env, genotypes);
    if (samples < 1 || variants < 0 || (int64_t)ng != row_bytes * variants ||
        (use && (*env)->GetArrayLength(env, use) != variants) ||
        (tile && (*env)->GetArrayLength(env, tile) != 4)) {
        dpa_jni_throw(env, dpa_fail(DPA_ERR_INVALID_ARG, "genotype arrays do not match %d samples "
                                    "x %d variants", samples, variants), "distance");
        return;
    }
    const jsize nout = (*env)->GetArrayLength(env, out);
    uint8_t *g = malloc((size_t)ng + 1), *u = use ? malloc((size_t)variants + 1) : NULL;
    uint32_t *o = malloc(sizeof *o * ((size_t)nout + 1));
    if (!g || (use && !u) || !o) {
        free(g), free(u), free(o);
        dpa_jni_throw_oom(env, "dpaccel: staging a genotype batch");
        return;
    }
    (*env)->GetByteArrayRegion(env, genotypes, 0, ng, (jbyte *)g);
    if (use) (*env)->GetByteArrayRegion(env, use, 0, variants, (jbyte *)u);
    jint t[4] = { 0, 0, 0, 0 };
    if (tile) (*env)->GetIntArrayRegion(env, tile, 0, 4, t);
    if ((*env)->ExceptionCheck(env)) {
        free(g), free(u), free(o);
        return;
    }
    const dpa_genotype_batch b = { samples, variants, row_bytes, g, u };
    const dpa_distance_tile area = { t[0], t[1], t[2], t[3] };
    dpa_distance_params p = { .backend = backend, .block = block };
    dpa_distance_stats st;
    dpa_status s = dpa_distance_counts(h->ctx, &b, tile ? &area : NULL, &p, o, nout, &st);
    if (s == DPA_OK) {
        (*env)->SetIntArrayRegion(env, out, 0, (jsize)(st.pairs * DPA_DISTANCE_COUNTS), (const jint *)o);
        if (stats_out) {
            jlong v[6] = { st.pairs, st.variants_used, st.variants_skipped, st.pair_variants,
                           st.isa, st.gpu_pairs };
            const jsize len = (*env)->GetArrayLength(env, stats_out);
            (*env)->SetLongArrayRegion(env, stats_out, 0, len < 6 ? len : 6, v);
        }
    }
    free(g), free(u), free(o);
    dpa_jni_flush_log(env, h);
    if (s != DPA_OK) dpa_jni_throw(env, s, "distance");
}

int dpa_jni_register_distance(JNIEnv *env, jclass natives)
{
    static const JNINativeMethod methods[] = {
        { "distanceCounts", "(JII[B[B[III[I[J)V", (void *)distance_counts },
    };
    return (*env)->RegisterNatives(env, natives, methods, 1);
}
