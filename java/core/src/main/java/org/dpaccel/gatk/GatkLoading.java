package org.dpaccel.gatk;

import java.io.File;
import java.lang.System.Logger;
import java.lang.System.Logger.Level;

import org.dpaccel.internal.NativeLoader;

/** GATK's NativeLibrary.load contract, shared by the bindings: never throws; false + one log line. */
final class GatkLoading {
    private GatkLoading() {
    }

    static boolean load(File tmpDir, Logger log, String workload) {
        try {
            NativeLoader.ensureLoaded(tmpDir == null ? null : tmpDir.toPath());
            return true;
        } catch (Throwable t) {
            log.log(Level.WARNING, "dpaccel " + workload + " is NOT in use (" + t.getMessage()
                + "); GATK will fall back to another " + workload + " implementation");
            return false;
        }
    }
}
