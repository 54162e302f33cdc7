/* jni_context.c — context life cycle and queries for org.dpaccel.internal.Natives. */
#include <stdlib.h>

#include "jni/jni_util.h"

static jlong JNICALL create_context(JNIEnv *env, jclass cls, jint threads, jint backend,
                                    jstring cpu_disable, jint gpu_disable, jstring gpu_devices)
{
    (void)cls;
    dpa_jni_ctx *h = calloc(1, sizeof *h);
    if (!h) {
        dpa_jni_throw_oom(env, "dpaccel: context");
        return 0;
    }
    pthread_mutex_init(&h->log_lock, NULL);
    const char *disable = NULL;
    if (cpu_disable) {
        disable = (*env)->GetStringUTFChars(env, cpu_disable, NULL);
        if (!disable) {
            pthread_mutex_destroy(&h->log_lock);
            free(h);
            return 0;
        }
    }
    const char *devices = NULL;
    if (gpu_devices) {
        devices = (*env)->GetStringUTFChars(env, gpu_devices, NULL);
        if (!devices) {
            if (disable) (*env)->ReleaseStringUTFChars(env, cpu_disable, disable);
            pthread_mutex_destroy(&h->log_lock);
            free(h);
            return 0;
        }
    }
    dpa_options o;
    dpa_options_init(&o);
    o.num_threads = threads;
    o.backend = backend;
    o.cpu_disable = disable;
    o.gpu_disable = gpu_disable;
    o.gpu_devices = devices;
    o.log_fn = dpa_jni_log_sink;
    o.log_user = h;
    dpa_status st = dpa_context_create(&o, &h->ctx);
    if (disable) (*env)->ReleaseStringUTFChars(env, cpu_disable, disable);
    if (devices) (*env)->ReleaseStringUTFChars(env, gpu_devices, devices);
    if (st != DPA_OK) {
        pthread_mutex_destroy(&h->log_lock);
        free(h);
        dpa_jni_throw(env, st, "dpaccel context");
        return 0;
    }
    dpa_jni_flush_log(env, h);
    return (jlong)(intptr_t)h;
}

static void JNICALL destroy_context(JNIEnv *env, jclass cls, jlong handle)
{
    (void)env, (void)cls;
    dpa_jni_ctx *h = (dpa_jni_ctx *)(intptr_t)handle;
    if (!h) return;
    dpa_context_destroy(h->ctx);
    dpa_jni_stage_free_all(h);
    pthread_mutex_destroy(&h->log_lock);
    free(h);
}

static jstring JNICALL describe(JNIEnv *env, jclass cls, jlong handle)
{
    (void)cls;
    dpa_jni_ctx *h = (dpa_jni_ctx *)(intptr_t)handle;
    char line[1200];
    dpa_status st = dpa_context_describe(h->ctx, line, sizeof line);
    if (st) {
        dpa_jni_throw(env, st, "describe");
        return NULL;
    }
    return dpa_jni_ascii_string(env, line);
}

/* [isa, threads, backend, devices] */
static void JNICALL info(JNIEnv *env, jclass cls, jlong handle, jintArray out)
{
    (void)cls;
    dpa_jni_ctx *h = (dpa_jni_ctx *)(intptr_t)handle;
    dpa_isa isa;
    dpa_backend backend;
    int32_t threads, devices;
    dpa_context_isa(h->ctx, &isa);
    dpa_context_threads(h->ctx, &threads);
    dpa_context_backend(h->ctx, &backend);
    dpa_context_device_count(h->ctx, &devices);
    jint v[4] = { (jint)isa, threads, (jint)backend, devices };
    (*env)->SetIntArrayRegion(env, out, 0, 4, v);
}

static jstring JNICALL version(JNIEnv *env, jclass cls)
{
    (void)cls;
    return (*env)->NewStringUTF(env, dpa_version());
}

int dpa_jni_register_context(JNIEnv *env, jclass natives)
{
    static const JNINativeMethod methods[] = {
        { "createContext", "(IILjava/lang/String;ILjava/lang/String;)J", (void *)create_context },
        { "destroyContext", "(J)V", (void *)destroy_context },
        { "describe", "(J)Ljava/lang/String;", (void *)describe },
        { "info", "(J[I)V", (void *)info },
        { "version", "()Ljava/lang/String;", (void *)version },
    };
    return (*env)->RegisterNatives(env, natives, methods, sizeof methods / sizeof methods[0]);
}
