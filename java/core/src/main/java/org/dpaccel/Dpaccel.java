package org.dpaccel;

import org.dpaccel.internal.NativeLoader;
import org.dpaccel.internal.Natives;

/** Library-level entry points: loading and version. */
public final class Dpaccel {
    private Dpaccel() {
    }

    /** Loads the native library; returns false (never throws) if it cannot, see {@link #loadStatus()}. */
    public static boolean tryLoad() {
        try {
            NativeLoader.ensureLoaded();
            return true;
        } catch (Throwable t) {
            return false;
        }
    }

    /** Where the native library came from, or why it did not load. */
    public static String loadStatus() {
        return NativeLoader.source();
    }

    public static String nativeVersion() {
        NativeLoader.ensureLoaded();
        return Natives.version();
    }
}
