/* jni_util.c — see jni_util.h. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "jni/jni_util.h"

dpa_jni_refs dpa_jni;

jstring dpa_jni_ascii_string(JNIEnv *env, const char *text)
{
    const size_t n = text ? strlen(text) : 0;
    char small[1536], *buf = n < sizeof small ? small : malloc(n + 1);
    if (!buf) {
        dpa_jni_throw_oom(env, "dpaccel: message text");
        return NULL;
    }
    for (size_t i = 0; i < n; i++) {
        const unsigned char c = (unsigned char)text[i];
        buf[i] = (c >= 0x20 && c < 0x7f) || c == '\t' || c == '\n' ? (char)c : '?';
    }
    buf[n] = 0;
    jstring s = (*env)->NewStringUTF(env, buf);
    if (buf != small) free(buf);
    return s;
}

void dpa_jni_throw(JNIEnv *env, dpa_status status, const char *context)
{
    if ((*env)->ExceptionCheck(env)) return;
    char msg[1400];
    snprintf(msg, sizeof msg, "%s: %s (%s)", context, dpa_last_error(), dpa_status_name(status));
    jstring jmsg = dpa_jni_ascii_string(env, msg);
    if (!jmsg) return; /* OutOfMemoryError already pending */
    jobject ex = (*env)->NewObject(env, dpa_jni.dpaccel_exception, dpa_jni.dpaccel_exception_ctor,
                                   (jint)status, jmsg);
    if (ex) (*env)->Throw(env, (jthrowable)ex);
}

void dpa_jni_throw_oom(JNIEnv *env, const char *what)
{
    if ((*env)->ExceptionCheck(env)) return;
    (*env)->ThrowNew(env, dpa_jni.oom, what);
}

void dpa_jni_log_sink(void *user, dpa_log_level level, const char *message)
{
    dpa_jni_ctx *h = user;
    pthread_mutex_lock(&h->log_lock);
    if (h->log_count < DPA_JNI_LOG_SLOTS) {
        h->log_levels[h->log_count] = (int)level;
        snprintf(h->log_msgs[h->log_count], sizeof h->log_msgs[0], "%s", message);
        h->log_count++;
    }
    pthread_mutex_unlock(&h->log_lock);
}

void dpa_jni_flush_log(JNIEnv *env, dpa_jni_ctx *h)
{
    int levels[DPA_JNI_LOG_SLOTS];
    char msgs[DPA_JNI_LOG_SLOTS][512];
    pthread_mutex_lock(&h->log_lock);
    int n = h->log_count;
    memcpy(levels, h->log_levels, sizeof levels);
    memcpy(msgs, h->log_msgs, sizeof msgs);
    h->log_count = 0;
    pthread_mutex_unlock(&h->log_lock);
    for (int i = 0; i < n && !(*env)->ExceptionCheck(env); i++) {
        jstring s = dpa_jni_ascii_string(env, msgs[i]);
        if (!s) return;
        (*env)->CallStaticVoidMethod(env, dpa_jni.natives, dpa_jni.natives_log, (jint)levels[i], s);
        (*env)->DeleteLocalRef(env, s);
    }
}
