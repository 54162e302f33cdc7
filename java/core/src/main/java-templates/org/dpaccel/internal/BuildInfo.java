package org.dpaccel.internal;

/**
 * Facts fixed when this jar was built (Maven fills them in from the pom). The version is baked
 * into a class, not read from a resource: with two dpaccel jars on one class path, a resource
 * of the same name would come from whichever jar is first, but each jar's classes carry their
 * own copy of this constant.
 */
public final class BuildInfo {
    /** The jar's version; its native libraries sit under {@code org/dpaccel/native/<VERSION>/}. */
    public static final String VERSION = "${project.version}";

    private BuildInfo() {
    }
}
