package org.dpaccel.cli;

import java.io.IOException;
import java.io.InputStream;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Properties;
import java.util.Set;

import org.dpaccel.Config;
import org.dpaccel.DpaContext;
import org.dpaccel.Dpaccel;
import org.dpaccel.Isa;

import picocli.CommandLine.IVersionProvider;

/** {@code --version}: the build, the commit, the CPU ISAs and the GPUs this machine offers dpaccel. */
final class VersionInfo implements IVersionProvider {
    @Override
    public String[] getVersion() {
        return lines().toArray(new String[0]);
    }

    static List<String> lines() {
        Properties build = properties("build.properties");
        String commit = properties("git.properties").getProperty("commit");
        List<String> out = new ArrayList<>();
        out.add("dpaccel " + build.getProperty("version", "unknown") + (commit != null ? " (commit " + commit + ")" : ""));
        out.add("java: " + System.getProperty("java.vm.name") + " " + System.getProperty("java.version") + ", "
            + System.getProperty("os.name") + " " + System.getProperty("os.arch"));
        try {
            out.add("native: libdpaccel " + Dpaccel.nativeVersion() + " (" + Dpaccel.loadStatus() + ")");
            out.add("isas: " + String.join(" ", isas()));
            try (DpaContext c = DpaContext.create(Config.builder().build())) {
                out.add("gpus: " + c.deviceCount() + " (" + c.describe() + ")");
            }
        } catch (RuntimeException | LinkageError e) {
            // --version must answer even where the library cannot load: that is when it is asked
            out.add("native: not loaded: " + e.getMessage());
        }
        return out;
    }

    /** Every CPU ISA the library can run here, best first (each found by disabling the better ones). */
    static Set<String> isas() {
        Set<String> found = new LinkedHashSet<>();
        for (String disable : new String[] {"", "avx512", "avx512,avx2"}) {
            try (DpaContext c = DpaContext.create(Config.builder().cpuDisable(disable).gpuDisable(true).build())) {
                Isa isa = c.isa();
                found.add(isa.id());
            }
        }
        return found;
    }

    private static Properties properties(String name) {
        Properties p = new Properties();
        try (InputStream in = VersionInfo.class.getResourceAsStream(name)) {
            if (in != null) {
                p.load(in);
            }
        } catch (IOException e) {
            // an unreadable resource leaves the value unknown
        }
        return p;
    }
}
