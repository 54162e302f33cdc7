package org.dpaccel.bench;

import java.io.IOException;
import java.io.InputStream;
import java.util.Properties;

/** Versions recorded at build time (bench version, the GKL version it bundles). */
public final class BuildInfo {
    private static final Properties P = new Properties();

    static {
        try (InputStream in = BuildInfo.class.getResourceAsStream("build.properties")) {
            if (in != null) {
                P.load(in);
            }
        } catch (IOException e) {
            // versions stay "unknown"
        }
    }

    private BuildInfo() {
    }

    public static String version() {
        return P.getProperty("version", "unknown");
    }

    public static String gklVersion() {
        return P.getProperty("gkl.version", "unknown");
    }
}
