package org.dpaccel;

import org.dpaccel.internal.BuildInfo;
import org.dpaccel.internal.NativeContext;
import org.dpaccel.internal.NativeLoader;

/** Library-level entry points: loading and versions. */
public final class Dpaccel {
    private Dpaccel() {
    }

    /**
     * Loads the native library if it is not loaded yet; never throws.
     *
     * @return true if the library is loaded, false if it cannot be (see {@link #loadStatus()})
     */
    public static boolean tryLoad() {
        try {
            NativeLoader.ensureLoaded();
            return true;
        } catch (Throwable t) {
            return false;
        }
    }

    /**
     * Where the native library came from, or why it did not load.
     *
     * @return "not loaded", the library's path, or "failed: " and the reason
     */
    public static String loadStatus() {
        return NativeLoader.source();
    }

    /**
     * The version of these Java classes (the jar's version).
     *
     * @return e.g. "0.1.0"
     */
    public static String version() {
        return BuildInfo.VERSION;
    }

    /**
     * The native library's version; loads it if needed. Equal to {@link #version()} (without
     * "-SNAPSHOT"): the loader refuses a library of another version.
     *
     * @return e.g. "0.1.0"
     * @throws DpaccelException if the native library cannot be loaded
     */
    public static String nativeVersion() {
        return NativeContext.nativeVersion();
    }
}
