/*
 * jni_util.h — the JNI glue's shared pieces: cached global references (made once in
 * JNI_OnLoad), status -> Java exception, and the handle object behind a Java context.
 *
 * Rules: no JNI call while a critical array is held (we never hold one: inputs are copied
 * out with Get<Type>ArrayRegion); release everything before throwing, then return at once;
 * native worker threads never touch the JVM.
 */
#ifndef DPA_JNI_UTIL_H
#define DPA_JNI_UTIL_H

#include <jni.h>
#include <pthread.h>

#include "dpaccel.h"

#define DPA_JNI_LOG_SLOTS 8

/* Native copies of one call's arrays, reused across calls (grown only) so a call neither
 * mallocs nor page-faults fresh memory. */
typedef struct dpa_jni_stage {
    struct dpa_jni_stage *next;
    void *bytes, *ints, *offsets, *out;
    size_t bytes_cap, ints_cap, offsets_cap, out_cap;
} dpa_jni_stage;

/* What a Java context handle (a jlong) points at. Log messages from the library (which may
 * come from native worker threads) are queued here and handed to Java on the calling
 * thread when the call returns. */
typedef struct dpa_jni_ctx {
    dpa_context *ctx;
    pthread_mutex_t log_lock;  /* also guards stage_free */
    dpa_jni_stage *stage_free; /* idle stagings: one per concurrent PairHMM caller at most */
    int log_count;
    int log_levels[DPA_JNI_LOG_SLOTS];
    char log_msgs[DPA_JNI_LOG_SLOTS][512];
} dpa_jni_ctx;

typedef struct dpa_jni_refs {
    jclass dpaccel_exception;   /* org.dpaccel.DpaccelException(int status, String msg) */
    jmethodID dpaccel_exception_ctor;
    jclass natives;             /* org.dpaccel.internal.Natives */
    jmethodID natives_log;      /* static void log(int level, String msg) */
    jclass oom;
} dpa_jni_refs;

extern dpa_jni_refs dpa_jni;  /* written once in JNI_OnLoad, read-only afterwards */

/* Throws org.dpaccel.DpaccelException(status, dpa_last_error()). */
void dpa_jni_throw(JNIEnv *env, dpa_status status, const char *context);
/* A Java string of C text that may hold any bytes (a user's file name, a model NAME, a message
 * cut mid-character by snprintf): NewStringUTF needs valid modified UTF-8 and -Xcheck:jni
 * aborts the JVM on anything else, so bytes outside printable ASCII, tab and newline become
 * '?'. NULL with an exception pending on failure. */
jstring dpa_jni_ascii_string(JNIEnv *env, const char *text);
void dpa_jni_throw_oom(JNIEnv *env, const char *what);
/* Delivers queued library log messages to Java on this thread. */
void dpa_jni_flush_log(JNIEnv *env, dpa_jni_ctx *h);
void dpa_jni_log_sink(void *user, dpa_log_level level, const char *message);

int dpa_jni_register_pairhmm(JNIEnv *env, jclass natives);
/* Frees the context's idle PairHMM stagings (at context destruction). */
void dpa_jni_stage_free_all(dpa_jni_ctx *h);
int dpa_jni_register_context(JNIEnv *env, jclass natives);
int dpa_jni_register_sw(JNIEnv *env, jclass natives);
int dpa_jni_register_distance(JNIEnv *env, jclass natives);
int dpa_jni_register_xdrop(JNIEnv *env, jclass natives);
int dpa_jni_register_pdhmm(JNIEnv *env, jclass natives);
int dpa_jni_register_papara(JNIEnv *env, jclass natives);
int dpa_jni_register_hmm(JNIEnv *env, jclass natives);

#endif
