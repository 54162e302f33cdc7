package org.dpaccel.bench;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Paths;
import java.util.List;

import org.dpaccel.Config;
import org.dpaccel.DpaContext;
import org.dpaccel.Dpaccel;

/** What this machine is: CPU model, cores, OS, JVM, dpaccel's own view (ISA, GPUs). */
public record Machine(String cpu, int cores, String os, String java, String dpaccelVersion, String dpaccel) {
    public static Machine probe() {
        String cpu = "unknown CPU";
        try {
            List<String> lines = Files.readAllLines(Paths.get("/proc/cpuinfo"));
            for (String l : lines) {
                if (l.startsWith("model name")) {
                    cpu = l.substring(l.indexOf(':') + 1).trim();
                    break;
                }
            }
        } catch (IOException | RuntimeException e) {
            cpu = System.getProperty("os.arch");
        }
        String version, desc;
        try (DpaContext c = DpaContext.create(Config.builder().build())) {
            version = Dpaccel.nativeVersion();
            desc = c.describe();
        } catch (RuntimeException | LinkageError e) {
            version = "not loaded";
            desc = "dpaccel native library did not load: " + e.getMessage();
        }
        return new Machine(cpu, Runtime.getRuntime().availableProcessors(),
            System.getProperty("os.name") + " " + System.getProperty("os.version") + " " + System.getProperty("os.arch"),
            System.getProperty("java.vm.name") + " " + System.getProperty("java.version"), version, desc);
    }

    public String summary() {
        return cpu + ", " + cores + " cores, " + os + ", " + java + "\n" + dpaccel;
    }
}
