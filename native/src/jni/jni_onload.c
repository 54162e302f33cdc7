/* jni_onload.c — binds the natives of org.dpaccel.internal.Natives with RegisterNatives
 * (a signature mismatch fails at load time, not at first call) and caches global refs. */
#include <string.h>

#include "jni/jni_util.h"

static jclass global_class(JNIEnv *env, const char *name)
{
    jclass local = (*env)->FindClass(env, name);
    if (!local) return NULL;
    jclass g = (*env)->NewGlobalRef(env, local);
    (*env)->DeleteLocalRef(env, local);
    return g;
}

JNIEXPORT jint JNICALL JNI_OnLoad(JavaVM *vm, void *reserved)
{
    (void)reserved;
    JNIEnv *env;
    if ((*vm)->GetEnv(vm, (void **)&env, JNI_VERSION_1_8) != JNI_OK) return JNI_ERR;
    memset(&dpa_jni, 0, sizeof dpa_jni);
    dpa_jni.dpaccel_exception = global_class(env, "org/dpaccel/DpaccelException");
    dpa_jni.natives = global_class(env, "org/dpaccel/internal/Natives");
    dpa_jni.oom = global_class(env, "java/lang/OutOfMemoryError");
    if (!dpa_jni.dpaccel_exception || !dpa_jni.natives || !dpa_jni.oom) return JNI_ERR;
    dpa_jni.dpaccel_exception_ctor =
        (*env)->GetMethodID(env, dpa_jni.dpaccel_exception, "<init>", "(ILjava/lang/String;)V");
    dpa_jni.natives_log =
        (*env)->GetStaticMethodID(env, dpa_jni.natives, "log", "(ILjava/lang/String;)V");
    if (!dpa_jni.dpaccel_exception_ctor || !dpa_jni.natives_log) return JNI_ERR;
    if (dpa_jni_register_context(env, dpa_jni.natives) != 0) return JNI_ERR;
    if (dpa_jni_register_pairhmm(env, dpa_jni.natives) != 0) return JNI_ERR;
    if (dpa_jni_register_sw(env, dpa_jni.natives) != 0) return JNI_ERR;
    if (dpa_jni_register_distance(env, dpa_jni.natives) != 0) return JNI_ERR;
    if (dpa_jni_register_xdrop(env, dpa_jni.natives) != 0) return JNI_ERR;
    if (dpa_jni_register_pdhmm(env, dpa_jni.natives) != 0) return JNI_ERR;
    if (dpa_jni_register_papara(env, dpa_jni.natives) != 0) return JNI_ERR;
    if (dpa_jni_register_hmm(env, dpa_jni.natives) != 0) return JNI_ERR;
    return JNI_VERSION_1_8;
}

JNIEXPORT void JNICALL JNI_OnUnload(JavaVM *vm, void *reserved)
{
    (void)reserved;
    JNIEnv *env;
    if ((*vm)->GetEnv(vm, (void **)&env, JNI_VERSION_1_8) != JNI_OK) return;
    if (dpa_jni.dpaccel_exception) (*env)->DeleteGlobalRef(env, dpa_jni.dpaccel_exception);
    if (dpa_jni.natives) (*env)->DeleteGlobalRef(env, dpa_jni.natives);
    if (dpa_jni.oom) (*env)->DeleteGlobalRef(env, dpa_jni.oom);
    memset(&dpa_jni, 0, sizeof dpa_jni);
}
