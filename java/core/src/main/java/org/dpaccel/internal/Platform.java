package org.dpaccel.internal;

import java.util.Locale;

/** Normalised OS/arch folder name for the bundled native libraries: {@code linux-x86_64}. */
public final class Platform {
    private Platform() {
    }

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

    public static String folder() {
        return os() + "-" + arch();
    }
}
