package org.dpaccel.bench;

import java.io.IOException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * {@code java -jar dpaccel-bench.jar [pairhmm|gen-vectors|help] [options]}; no arguments runs
 * the PairHMM benchmark on the embedded default data set.
 */
public final class Main {
    private Main() {
    }

    public static void main(String[] args) {
        System.setProperty("java.awt.headless", "true");
        int rc;
        try {
            rc = run(args);
        } catch (IllegalArgumentException e) {
            System.err.println("dpaccel-bench: " + e.getMessage());
            System.err.println("run 'dpaccel-bench help' for the options");
            rc = 2;
        } catch (IOException e) {
            System.err.println("dpaccel-bench: " + e.getMessage());
            rc = 2;
        }
        System.exit(rc);
    }

    static int run(String[] args) throws IOException {
        String cmd = args.length == 0 || args[0].startsWith("--") ? "pairhmm" : args[0];
        String[] rest = args.length == 0 || args[0].startsWith("--") ? args : Arrays.copyOfRange(args, 1, args.length);
        if (Arrays.asList(rest).contains("--help") || Arrays.asList(rest).contains("-h")) {
            cmd = "help";
        }
        switch (cmd) {
            case "pairhmm" -> {
                Integer rc = reexecForDevice(rest);
                return rc != null ? rc : new PairHmmBench(System.out).run(rest);
            }
            case "gen-vectors" -> {
                return VectorsWriter.run(rest);
            }
            case "help", "-h", "--help" -> {
                System.out.println("dpaccel-bench " + BuildInfo.version() + ": what dpaccel does on this machine\n");
                System.out.println(PairHmmBench.USAGE);
                System.out.println(VectorsWriter.USAGE);
                return 0;
            }
            case "version", "--version" -> {
                System.out.println("dpaccel-bench " + BuildInfo.version() + " (GKL " + BuildInfo.gklVersion() + ")");
                return 0;
            }
            default -> throw new IllegalArgumentException("unknown subcommand '" + cmd
                + "' (expected pairhmm, gen-vectors, help)");
        }
    }

    /**
     * --device N: dpaccel uses every visible GPU, so the run restarts itself with
     * CUDA_VISIBLE_DEVICES=N (unless that is already so) and returns its exit status.
     */
    static Integer reexecForDevice(String[] args) throws IOException {
        String dev = null;
        for (int i = 0; i < args.length; i++) {
            if (args[i].equals("--device") && i + 1 < args.length) {
                dev = args[i + 1];
            } else if (args[i].startsWith("--device=")) {
                dev = args[i].substring(9);
            }
        }
        if (dev == null || dev.equals(System.getenv("CUDA_VISIBLE_DEVICES"))) {
            return null;
        }
        if (!dev.matches("\\d+")) {
            throw new IllegalArgumentException("--device '" + dev + "': expected a GPU index");
        }
        String javaBin = ProcessHandle.current().info().command().orElse("java");
        String jar;
        try {
            jar = Main.class.getProtectionDomain().getCodeSource().getLocation().toURI().getPath();
        } catch (java.net.URISyntaxException e) {
            throw new IOException(e);
        }
        List<String> cmd = new ArrayList<>(List.of(javaBin, "-cp", jar));
        cmd.add(Main.class.getName());
        cmd.add("pairhmm");
        cmd.addAll(Arrays.asList(args));
        ProcessBuilder pb = new ProcessBuilder(cmd).inheritIO();
        pb.environment().put("CUDA_VISIBLE_DEVICES", dev);
        try {
            return pb.start().waitFor();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return 130;
        }
    }
}
