/* jni_pairhmm.c — one JNI call per PairHMM batch, two entry points:
 *
 *  - pairhmmCompute: a PairHmmBatch (six packed arrays + lengths + groups), already
 *    validated by Java;
 *  - pairhmmComputeFlat: the GATK binding's one region, packed by Java into ONE byte array
 *    [read bases | base q | ins | del | gcp | hap bases] and ONE int array [read lengths |
 *    hap lengths], with the quality range NOT checked in Java.
 *
 * Every byte is read from the Java heap once, with Get<Type>ArrayRegion; the quality range
 * is checked piece by piece as the qualities land (the engine then skips its own quality
 * pass). The copies go to a per-context pool of stagings that only grow, so a call does no
 * malloc and touches no fresh pages. Batches of 1 MB or more are copied on the context's
 * threads under a critical section held for the copy alone (copy_parallel); smaller ones
 * with Get<Type>ArrayRegion, which never blocks the GC. */
#include <stdlib.h>
#include <string.h>

#include "engine/context.h"
#include "engine/entry.h"
#include "engine/timing.h"
#include "jni/jni_util.h"

/* A staging kept idle above this size is freed instead (one huge batch must not pin its
 * memory for the context's life). */
#define STAGE_KEEP_BYTES ((size_t)256 << 20)

static dpa_jni_stage *stage_take(dpa_jni_ctx *h)
{
    pthread_mutex_lock(&h->log_lock);
    dpa_jni_stage *s = h->stage_free;
    if (s) h->stage_free = s->next;
    pthread_mutex_unlock(&h->log_lock);
    return s ? s : calloc(1, sizeof *s);
}

static void stage_destroy(dpa_jni_stage *s)
{
    free(s->bytes), free(s->ints), free(s->offsets), free(s->out);
    free(s);
}

static void stage_give(dpa_jni_ctx *h, dpa_jni_stage *s)
{
    if (!s) return;
    if (s->bytes_cap + s->out_cap + s->ints_cap + s->offsets_cap > STAGE_KEEP_BYTES) {
        stage_destroy(s);
        return;
    }
    pthread_mutex_lock(&h->log_lock);
    s->next = h->stage_free;
    h->stage_free = s;
    pthread_mutex_unlock(&h->log_lock);
}

void dpa_jni_stage_free_all(dpa_jni_ctx *h)
{
    dpa_jni_stage *s = h->stage_free;
    h->stage_free = NULL;
    while (s) {
        dpa_jni_stage *next = s->next;
        stage_destroy(s);
        s = next;
    }
}

/* Grows *buf to at least need bytes (contents not kept). */
static int grow(void **buf, size_t *cap, size_t need)
{
    if (need <= *cap) return 1;
    size_t c = *cap ? *cap : 4096;
    while (c < need) c = c > SIZE_MAX / 2 ? need : c * 2;
    void *p = malloc(c);
    if (!p) return 0;
    free(*buf);
    *buf = p;
    *cap = c;
    return 1;
}

static int stage_reserve(dpa_jni_stage *s, size_t bytes, size_t ints, size_t offsets, size_t outs)
{
    return grow(&s->bytes, &s->bytes_cap, bytes + 1) &&
           grow(&s->ints, &s->ints_cap, sizeof(int32_t) * (ints + 1)) &&
           grow(&s->offsets, &s->offsets_cap, sizeof(int64_t) * (offsets + 1)) &&
           grow(&s->out, &s->out_cap, sizeof(double) * (outs + 1));
}

/* Nonzero when one of n quality bytes is above 127 (exactly the bytes with the high bit
 * set), 8 bytes per step. */
static uint64_t quals_high(const uint8_t *q, size_t n)
{
    uint64_t any = 0;
    size_t k = 0;
    for (; k + 8 <= n; k += 8) {
        uint64_t w;
        memcpy(&w, q + k, 8);
        any |= w;
    }
    for (; k < n; k++) any |= q[k];
    return any & UINT64_C(0x8080808080808080);
}

/* Copies arr[from, from + n) to dst in pieces that stay in the L1 cache, checking each piece
 * right after it lands, so the qualities are read from memory once. (No critical section:
 * with many callers, pinned arrays stall the GC and every allocating thread behind it.)
 * Returns nonzero when a byte is above 127. */
#define QUAL_PIECE 16384
static int copy_quals_from(JNIEnv *env, jbyteArray arr, size_t from, uint8_t *dst, size_t n)
{
    uint64_t high = 0;
    for (size_t k = 0; k < n; k += QUAL_PIECE) {
        const size_t len = n - k < QUAL_PIECE ? n - k : QUAL_PIECE;
        (*env)->GetByteArrayRegion(env, arr, (jsize)(from + k), (jsize)len, (jbyte *)(dst + k));
        high |= quals_high(dst + k, len);
    }
    return high != 0;
}

/* Large batches: the six byte arrays are read through GetPrimitiveArrayCritical and copied
 * into the staging on the context's pool, in blocks, the quality range checked as each block
 * lands. One thread copies the Java heap at ~5 GB/s: 2-2.5 ms for a 60 k-pair
 * HaplotypeCaller-shaped batch (11.6 MB), as long as the GPU takes for the whole call
 * (docs/lab/2026-11-28-session15.md). The critical section lasts only the copy (a fraction
 * of a millisecond on many threads), never the computation, and the pool's threads are not
 * Java threads, so the wait cannot deadlock with the GC. */
#define PARALLEL_COPY_MIN ((size_t)1 << 20)
#define COPY_BLOCK ((size_t)256 << 10)

typedef struct copy_job {
    const uint8_t *src[6]; /* read bases, 4 x qualities, hap bases */
    size_t start[7];       /* where each lands in dst; start[6] = total */
    uint8_t *dst;
    uint64_t *high;        /* per block: quality bytes above 127 */
} copy_job;

static void copy_block(void *arg, int64_t k)
{
    copy_job *j = arg;
    const size_t lo = (size_t)k * COPY_BLOCK;
    const size_t hi = lo + COPY_BLOCK < j->start[6] ? lo + COPY_BLOCK : j->start[6];
    uint64_t high = 0;
    for (int a = 0; a < 6; a++) {
        const size_t b = lo > j->start[a] ? lo : j->start[a];
        const size_t e = hi < j->start[a + 1] ? hi : j->start[a + 1];
        if (b >= e) continue;
        memcpy(j->dst + b, j->src[a] + (b - j->start[a]), e - b);
        if (a >= 1 && a <= 4) high |= quals_high(j->dst + b, e - b);
    }
    j->high[k] = high;
}

/* Copies the six arrays (n bytes each, hap bases nhb) into dst in parallel; returns 1 when a
 * quality byte is above 127, 0 when none is, -1 when the arrays could not be pinned or the
 * block table not allocated (the caller then copies with Get<Type>ArrayRegion). */
static int copy_parallel(JNIEnv *env, dpa_jni_ctx *h, jbyteArray arr[6], size_t n, size_t nhb,
                         uint8_t *dst)
{
    copy_job j = { .dst = dst };
    const int64_t blocks = (int64_t)((5 * n + nhb + COPY_BLOCK - 1) / COPY_BLOCK);
    j.high = malloc(sizeof *j.high * (size_t)blocks);
    if (!j.high) return -1;
    for (int a = 0; a < 6; a++) j.start[a + 1] = j.start[a] + (a < 5 ? n : nhb);
    int got = 0;
    for (; got < 6; got++) {
        j.src[got] = (*env)->GetPrimitiveArrayCritical(env, arr[got], NULL);
        if (!j.src[got]) break;
    }
    if (got == 6) dpa_pool_run(h->ctx->pool, blocks, copy_block, &j);
    for (int a = got - 1; a >= 0; a--)
        (*env)->ReleasePrimitiveArrayCritical(env, arr[a], (void *)j.src[a], JNI_ABORT);
    uint64_t high = 0;
    for (int64_t k = 0; got == 6 && k < blocks; k++) high |= j.high[k];
    free(j.high);
    if (got < 6) {
        (*env)->ExceptionClear(env); /* the fallback reports its own failures */
        return -1;
    }
    return high != 0;
}

/* Offsets from lengths; returns the total, or -1 if a length is negative (the engine's
 * validation then names it: offsets stay consistent). */
static int64_t offsets_of(const int32_t *len, int64_t *off, jsize n)
{
    int64_t acc = 0;
    int neg = 0;
    for (jsize i = 0; i < n; i++) {
        off[i] = acc;
        if (len[i] > 0) acc += len[i];
        else neg = 1;
    }
    return neg ? -1 : acc;
}

/* Runs the engine on a staged batch and copies results and stats back. */
static dpa_status run_and_return(JNIEnv *env, dpa_jni_ctx *h, const dpa_pairhmm_batch *b,
                                 jint precision, jint backend, int quals_checked, double *res,
                                 jdoubleArray out, jsize nout, jlongArray stats_out)
{
    dpa_pairhmm_params prm;
    dpa_pairhmm_params_init(&prm);
    prm.precision = precision;
    prm.backend = backend;
    dpa_pairhmm_stats stats;
    dpa_status st = dpa_pairhmm_compute_ex(h->ctx, b, &prm, res, nout, &stats, quals_checked);
    if (st == DPA_OK) {
        (*env)->SetDoubleArrayRegion(env, out, 0, nout, res);
        if (stats_out) {
            jlong v[5] = { stats.pairs, stats.cells, stats.double_recomputes, stats.gpu_pairs,
                           stats.isa };
            (*env)->SetLongArrayRegion(env, stats_out, 0, 5, v);
        }
    }
    return st;
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
    if ((*env)->GetArrayLength(env, bq) < nrb || (*env)->GetArrayLength(env, iq) < nrb ||
        (*env)->GetArrayLength(env, dq) < nrb || (*env)->GetArrayLength(env, gq) < nrb ||
        (ng && (*env)->GetArrayLength(env, ghaps) < ng)) {
        dpa_jni_throw(env, DPA_ERR_INVALID_ARG,
                      "pairhmm: a quality or group array is shorter than its partner");
        return;
    }
    const int timing = h->ctx->cfg.timing;
    const double t0 = timing ? dpa_ms_now() : 0;
    dpa_jni_stage *s = stage_take(h);
    if (!s || !stage_reserve(s, (size_t)nrb * 5 + (size_t)nhb, (size_t)nr + nh + 2 * (size_t)ng,
                             (size_t)nr + nh, (size_t)nout)) {
        if (s) stage_give(h, s);
        dpa_jni_throw_oom(env, "dpaccel: staging a PairHMM batch");
        return;
    }
    uint8_t *p = s->bytes;
    const size_t n = (size_t)nrb;
    int32_t *ri = s->ints, *hi = ri + nr, *gri = hi + nh, *ghi = gri + ng;
    (*env)->GetIntArrayRegion(env, rlen, 0, nr, ri);
    (*env)->GetIntArrayRegion(env, hlen, 0, nh, hi);
    if (ng) {
        (*env)->GetIntArrayRegion(env, greads, 0, ng, gri);
        (*env)->GetIntArrayRegion(env, ghaps, 0, ng, ghi);
    }
    jbyteArray arrays[6] = { rb, bq, iq, dq, gq, hb };
    int bad = -1;
    if (5 * n + (size_t)nhb >= PARALLEL_COPY_MIN && h->ctx->cfg.threads > 1)
        bad = copy_parallel(env, h, arrays, n, (size_t)nhb, p);
    if (bad < 0) {
        bad = 0;
        (*env)->GetByteArrayRegion(env, rb, 0, nrb, (jbyte *)p);
        (*env)->GetByteArrayRegion(env, hb, 0, nhb, (jbyte *)(p + 5 * n));
        for (int q = 0; q < 4; q++)
            bad |= copy_quals_from(env, arrays[q + 1], 0, p + (size_t)(q + 1) * n, n);
    }
    if ((*env)->ExceptionCheck(env)) {
        stage_give(h, s);
        return;
    }
    int64_t *ro = s->offsets, *ho = ro + nr;
    const int64_t racc = offsets_of(ri, ro, nr), hacc = offsets_of(hi, ho, nh);
    if ((racc >= 0 && racc != nrb) || (hacc >= 0 && hacc != nhb)) {
        stage_give(h, s);
        dpa_jni_throw(env, DPA_ERR_INVALID_ARG, "pairhmm: packed lengths do not match the arrays");
        return;
    }
    dpa_pairhmm_batch b = {
        .num_reads = nr, .read_bases = p, .base_quals = p + n, .ins_quals = p + 2 * n,
        .del_quals = p + 3 * n, .gcp_quals = p + 4 * n, .read_offsets = ro, .read_lengths = ri,
        .num_haps = nh, .hap_bases = p + 5 * n, .hap_offsets = ho, .hap_lengths = hi,
        .num_groups = ng, .group_num_reads = ng ? gri : NULL, .group_num_haps = ng ? ghi : NULL,
    };
    /* a quality byte out of range: the engine's full validation names it */
    const double t1 = timing ? dpa_ms_now() : 0;
    dpa_status st = run_and_return(env, h, &b, precision, backend, !bad, s->out, out, nout,
                                   stats_out);
    stage_give(h, s);
    if (timing)
        dpa_log(h->ctx, DPA_LOG_DEBUG, "pairhmm jni: staged %.1f MB in %.3f ms, engine and results %.3f ms",
                (double)(n * 5 + (size_t)nhb) / 1e6, t1 - t0, dpa_ms_now() - t1);
    dpa_jni_flush_log(env, h);
    if (st != DPA_OK) dpa_jni_throw(env, st, "pairhmm");
}

/* The GATK binding's region: bytes = [read bases (rbases) | base q | ins | del | gcp | hap
 * bases (hbases)], lens = [nr read lengths | nh hap lengths], one group. Java has checked
 * nulls and lengths but not the quality range. Returns 0, or 1 when a quality byte is above
 * 127 (nothing computed: Java re-runs its checking path to name read, field and position). */
static jint JNICALL pairhmm_compute_flat(JNIEnv *env, jclass cls, jlong handle,
                                         jbyteArray bytes, jintArray lens, jint nr, jint nh,
                                         jint rbases, jint hbases, jint precision, jint backend,
                                         jdoubleArray out)
{
    (void)cls;
    dpa_jni_ctx *h = (dpa_jni_ctx *)(intptr_t)handle;
    const jsize nout = (*env)->GetArrayLength(env, out);
    if (nr < 0 || nh < 0 || rbases < 0 || hbases < 0 ||
        (int64_t)(*env)->GetArrayLength(env, bytes) < (int64_t)rbases * 5 + hbases ||
        (int64_t)(*env)->GetArrayLength(env, lens) < (int64_t)nr + nh) {
        dpa_jni_throw(env, DPA_ERR_INVALID_ARG, "pairhmm (flat): arrays shorter than the counts");
        return 0;
    }
    const size_t n = (size_t)rbases;
    dpa_jni_stage *s = stage_take(h);
    if (!s || !stage_reserve(s, n * 5 + (size_t)hbases, (size_t)nr + nh + 2, (size_t)nr + nh,
                             (size_t)nout)) {
        if (s) stage_give(h, s);
        dpa_jni_throw_oom(env, "dpaccel: staging a PairHMM batch");
        return 0;
    }
    uint8_t *p = s->bytes;
    int32_t *ri = s->ints, *hi = ri + nr, *group = hi + nh;
    (*env)->GetIntArrayRegion(env, lens, 0, nr + nh, ri);
    (*env)->GetByteArrayRegion(env, bytes, 0, rbases, (jbyte *)p);
    const int bad = copy_quals_from(env, bytes, n, p + n, 4 * n);
    (*env)->GetByteArrayRegion(env, bytes, (jsize)(5 * n), hbases, (jbyte *)(p + 5 * n));
    if ((*env)->ExceptionCheck(env)) {
        stage_give(h, s);
        return 0;
    }
    if (bad) {
        stage_give(h, s);
        return 1;
    }
    int64_t *ro = s->offsets, *ho = ro + nr;
    const int64_t racc = offsets_of(ri, ro, nr), hacc = offsets_of(hi, ho, nh);
    if ((racc >= 0 && racc != rbases) || (hacc >= 0 && hacc != hbases)) {
        stage_give(h, s);
        dpa_jni_throw(env, DPA_ERR_INVALID_ARG, "pairhmm (flat): lengths do not match the counts");
        return 0;
    }
    group[0] = nr;
    group[1] = nh;
    dpa_pairhmm_batch b = {
        .num_reads = nr, .read_bases = p, .base_quals = p + n, .ins_quals = p + 2 * n,
        .del_quals = p + 3 * n, .gcp_quals = p + 4 * n, .read_offsets = ro, .read_lengths = ri,
        .num_haps = nh, .hap_bases = p + 5 * n, .hap_offsets = ho, .hap_lengths = hi,
        .num_groups = 1, .group_num_reads = group, .group_num_haps = group + 1,
    };
    dpa_status st = run_and_return(env, h, &b, precision, backend, 1, s->out, out, nout, NULL);
    stage_give(h, s);
    dpa_jni_flush_log(env, h);
    if (st != DPA_OK) dpa_jni_throw(env, st, "pairhmm");
    return 0;
}

int dpa_jni_register_pairhmm(JNIEnv *env, jclass natives)
{
    static const JNINativeMethod methods[] = {
        { "pairhmmCompute", "(J[B[B[B[B[B[I[B[I[I[III[D[J)V", (void *)pairhmm_compute },
        { "pairhmmComputeFlat", "(J[B[IIIIIII[D)I", (void *)pairhmm_compute_flat },
    };
    return (*env)->RegisterNatives(env, natives, methods, sizeof methods / sizeof methods[0]);
}
