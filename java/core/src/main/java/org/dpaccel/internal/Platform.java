package org.dpaccel.internal;

import java.util.Locale;

/** Normalised OS/arch folder name for the bundled native libraries: {@code linux-x86_64}. */
public final class Platform {
    private Platform() {
    }

    /**
     * The operating system, normalised.
     *
     * @return "linux", "macos", "windows", or os.name in lower case without punctuation
     */
    public static String os() {
        String os = System.getProperty("os.name", "").toLowerCase(Locale.ROOT);
        if (os.startsWith("linux")) {
            return "linux";
        }
        if (os.startsWith("mac") || os.startsWith("darwin")) {
            return "macos";
        }
        if (os.startsWith("windows")) {
            return "windows";
        }
        return os.replaceAll("[^a-z0-9]", "");
    }

    /**
     * The CPU architecture, normalised (amd64 and x64 are x86_64, arm64 is aarch64).
     *
     * @return e.g. "x86_64" or "aarch64"
     */
    public static String arch() {
        String a = System.getProperty("os.arch", "").toLowerCase(Locale.ROOT);
        switch (a) {
            case "amd64":
            case "x86_64":
            case "x64":
            case "em64t":
                return "x86_64";
            case "aarch64":
            case "arm64":
                return "aarch64";
            default:
                return a.replaceAll("[^a-z0-9_]", "");
        }
    }

    /**
     * The folder name for this platform's native libraries.
     *
     * @return {@code os() + "-" + arch()}, e.g. "linux-x86_64"
     */
    public static String folder() {
        return os() + "-" + arch();
    }
}
