package org.dpaccel.cli;

import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

import picocli.CommandLine.ITypeConverter;
import picocli.CommandLine.TypeConversionException;

/**
 * {@code --device LIST}. dpaccel's context uses every GPU it sees and has no per-device
 * selection, so a list is applied the one way that works from Java: the command restarts
 * itself in a child JVM with {@code CUDA_VISIBLE_DEVICES=LIST} (CUDA reads it once, at start).
 */
final class Devices {
    static final String ALL = "all";

    private Devices() {
    }

    /**
     * Runs the same command line in a child JVM restricted to the listed GPUs and returns its
     * exit status; null when this JVM already runs on them (or on all).
     */
    static Integer restartIfNeeded(CommonOptions common, DpaccelCommand top) throws IOException {
        String list = common.device;
        if (list == null || list.equals(ALL) || list.equals(System.getenv("CUDA_VISIBLE_DEVICES"))) {
            return null;
        }
        String java = ProcessHandle.current().info().command().orElse("java");
        String jar;
        try {
            jar = Main.class.getProtectionDomain().getCodeSource().getLocation().toURI().getPath();
        } catch (java.net.URISyntaxException e) {
            throw new IOException("cannot locate dpaccel's own jar to restart on --device " + list, e);
        }
        List<String> cmd = new ArrayList<>(List.of(java));
        // configuration given as -Ddpaccel.* must reach the child too
        for (Map.Entry<Object, Object> p : System.getProperties().entrySet()) {
            if (p.getKey().toString().startsWith("dpaccel.")) {
                cmd.add("-D" + p.getKey() + "=" + p.getValue());
            }
        }
        cmd.addAll(List.of("-cp", jar, Main.class.getName()));
        cmd.addAll(List.of(top.args));
        ProcessBuilder pb = new ProcessBuilder(cmd).inheritIO();
        pb.environment().put("CUDA_VISIBLE_DEVICES", list);
        try {
            return pb.start().waitFor();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return ExitCodes.INTERNAL;
        }
    }

    static final class Converter implements ITypeConverter<String> {
        @Override
        public String convert(String value) {
            String v = value.trim();
            if (v.equals(ALL) || v.matches("\\d+(,\\d+)*")) {
                return v;
            }
            throw new TypeConversionException("'" + value + "': expected all or a comma list of GPU indices (0,1,...); "
                + "dpaccel cannot select GPUs by name or UUID");
        }
    }
}
