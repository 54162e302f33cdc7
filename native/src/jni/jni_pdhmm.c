/* jni_pdhmm.c — one JNI call per PDHMM batch, in GKL 0.9.1's IntelPDHMM layout: every pair
 * owns a slot of hapStride bytes in the haplotype arrays and readStride bytes in the read
 * arrays (GATK's VectorLoglessPairPDHMM packs batches that way), its lengths in two long
 * arrays. org.dpaccel.pdhmm.PdhmmBatch packs its own batches the same way. The arrays are
 * copied out (never held critical), lengths are checked against the strides here (C cannot
 * see array sizes), the batch is computed, and the results copied back only on success. */
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "common/status.h"
#include "jni/jni_util.h"

/* Checks that every array holds n slots and every length fits its slot. */
static dpa_status check_layout(JNIEnv *env, jsize n, jint hs, jint rs, jbyteArray const arr[7],
                               const jlong *hl, const jlong *rl)
{
    static const char *const names[7] = { "hapBases", "hapPdBases", "readBases", "readQuals",
                                          "insQuals", "delQuals", "gcpQuals" };
    if (hs < 1 || rs < 1)
        return dpa_fail(DPA_ERR_INVALID_ARG, "pdhmm: hapStride = %d, readStride = %d, both must "
                        "be >= 1", (int)hs, (int)rs);
    for (int a = 0; a < 7; a++) {
        const jlong want = (jlong)n * (a < 2 ? hs : rs);
        const jsize got = (*env)->GetArrayLength(env, arr[a]);
        if (got != want)
            return dpa_fail(DPA_ERR_INVALID_ARG, "pdhmm: %s has %d bytes, expected %" PRId64
                            " (%d pairs x stride %d)", names[a], (int)got, (int64_t)want,
                            (int)n, (int)(a < 2 ? hs : rs));
    }
    for (jsize i = 0; i < n; i++) {
        if (hl[i] < 1 || hl[i] > hs)
            return dpa_fail(DPA_ERR_INVALID_ARG, "pdhmm: hapLengths[%d] = %" PRId64 ", must be "
                            "in [1, hapStride = %d]", (int)i, (int64_t)hl[i], (int)hs);
        if (rl[i] < 1 || rl[i] > rs)
            return dpa_fail(DPA_ERR_INVALID_ARG, "pdhmm: readLengths[%d] = %" PRId64 ", must be "
                            "in [1, readStride = %d]", (int)i, (int64_t)rl[i], (int)rs);
    }
    return DPA_OK;
}

/* stats: {pairs, cells, gpu_pairs, isa}. */
static void JNICALL pdhmm_compute(JNIEnv *env, jclass cls, jlong handle, jbyteArray hap,
                                  jbyteArray pd, jbyteArray read, jbyteArray bq, jbyteArray iq,
                                  jbyteArray dq, jbyteArray gq, jlongArray hap_lens,
                                  jlongArray read_lens, jint hap_stride, jint read_stride,
                                  jint backend, jint rows, jint result, jdoubleArray out,
                                  jlongArray stats_out)
{
    (void)cls;
    dpa_jni_ctx *h = (dpa_jni_ctx *)(intptr_t)handle;
    const jsize n = (*env)->GetArrayLength(env, hap_lens);
    if ((*env)->GetArrayLength(env, read_lens) != n || (*env)->GetArrayLength(env, out) != n) {
        dpa_jni_throw(env, dpa_fail(DPA_ERR_INVALID_ARG, "pdhmm: hapLengths, readLengths and "
                                    "out must have one entry per pair"), "pdhmm");
        return;
    }
    jbyteArray const arr[7] = { hap, pd, read, bq, iq, dq, gq };
    const size_t hbytes = (size_t)n * (size_t)(hap_stride > 0 ? hap_stride : 0);
    const size_t rbytes = (size_t)n * (size_t)(read_stride > 0 ? read_stride : 0);
    const size_t nn = (size_t)n;
    /* lengths as jlong | offsets | int lengths | results */
    uint8_t *bytes = malloc(2 * hbytes + 5 * rbytes + 1);
    int64_t *longs = malloc(sizeof(int64_t) * (4 * nn + 1));
    int32_t *ints = malloc(sizeof(int32_t) * (2 * nn + 1));
    double *res = malloc(sizeof(double) * (nn + 1));
    if (!bytes || !longs || !ints || !res) {
        free(bytes), free(longs), free(ints), free(res);
        dpa_jni_throw_oom(env, "dpaccel: staging a PDHMM batch");
        return;
    }
    int64_t *hl = longs, *rl = longs + nn, *ho = longs + 2 * nn, *ro = longs + 3 * nn;
    (*env)->GetLongArrayRegion(env, hap_lens, 0, n, (jlong *)hl);
    (*env)->GetLongArrayRegion(env, read_lens, 0, n, (jlong *)rl);
    dpa_status st = check_layout(env, n, hap_stride, read_stride, arr, hl, rl);
    if (st == DPA_OK) {
        uint8_t *dst[7];
        dst[0] = bytes;
        dst[1] = bytes + hbytes;
        for (int a = 2; a < 7; a++) dst[a] = bytes + 2 * hbytes + (size_t)(a - 2) * rbytes;
        for (int a = 0; a < 7; a++)
            (*env)->GetByteArrayRegion(env, arr[a], 0, (jsize)(a < 2 ? hbytes : rbytes),
                                       (jbyte *)dst[a]);
        if ((*env)->ExceptionCheck(env)) {
            free(bytes), free(longs), free(ints), free(res);
            return;
        }
        for (size_t i = 0; i < nn; i++) {
            ho[i] = (int64_t)i * hap_stride;
            ro[i] = (int64_t)i * read_stride;
            ints[i] = (int32_t)hl[i];
            ints[nn + i] = (int32_t)rl[i];
        }
        const dpa_pdhmm_batch b = {
            .num_pairs = n, .hap_bases = dst[0], .hap_pd_bases = dst[1], .hap_offsets = ho,
            .hap_lengths = ints, .read_bases = dst[2], .base_quals = dst[3], .ins_quals = dst[4],
            .del_quals = dst[5], .gcp_quals = dst[6], .read_offsets = ro,
            .read_lengths = ints + nn,
        };
        dpa_pdhmm_params p;
        dpa_pdhmm_params_init(&p);
        p.backend = backend;
        p.rows = rows;
        p.result = result;
        dpa_pdhmm_stats stats;
        st = dpa_pdhmm_compute(h->ctx, &b, &p, res, n, &stats);
        if (st == DPA_OK) {
            (*env)->SetDoubleArrayRegion(env, out, 0, n, res);
            if (stats_out) {
                jlong v[4] = { stats.pairs, stats.cells, stats.gpu_pairs, stats.isa };
                const jsize sl = (*env)->GetArrayLength(env, stats_out);
                (*env)->SetLongArrayRegion(env, stats_out, 0, sl < 4 ? sl : 4, v);
            }
        }
    }
    free(bytes), free(longs), free(ints), free(res);
    dpa_jni_flush_log(env, h);
    if (st != DPA_OK) dpa_jni_throw(env, st, "pdhmm");
}

int dpa_jni_register_pdhmm(JNIEnv *env, jclass natives)
{
    static const JNINativeMethod methods[] = {
        { "pdhmmCompute", "(J[B[B[B[B[B[B[B[J[JIIIII[D[J)V", (void *)pdhmm_compute },
    };
    return (*env)->RegisterNatives(env, natives, methods, 1);
}
