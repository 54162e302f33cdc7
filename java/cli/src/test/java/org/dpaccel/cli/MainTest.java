package org.dpaccel.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.junit.jupiter.api.Test;

/** The contract shared by every command: help, version, usage errors and their exit status. */
class MainTest {
    @ParameterizedTest
    @ValueSource(strings = {"", "bench", "bench pairhmm", "bench gen-vectors", "pairhmm", "sw", "distance", "xdrop",
        "papara", "pdhmm", "hmm-filter", "papara-score", "bench distance"})
    void helpGoesToStdoutWithStatus0(String command) {
        String[] args = (command.isEmpty() ? "--help" : command + " --help").split(" ");
        // picocli reports a help text it cannot format (an unescaped %) on the JVM's own stderr
        java.io.PrintStream jvmErr = System.err;
        java.io.ByteArrayOutputStream warnings = new java.io.ByteArrayOutputStream();
        Cli.Result r;
        try {
            System.setErr(new java.io.PrintStream(warnings, true, java.nio.charset.StandardCharsets.UTF_8));
            r = Cli.run(args);
        } finally {
            System.setErr(jvmErr);
        }
        assertEquals(ExitCodes.OK, r.rc(), r.toString());
        assertTrue(r.out().startsWith("Usage: dpaccel" + (command.isEmpty() ? "" : " " + command)), r.toString());
        assertEquals("", r.err());
        assertEquals("", warnings.toString(java.nio.charset.StandardCharsets.UTF_8), "picocli warnings");
    }

    /** {@code --backend cpu} makes a context that never opened the GPU (the engine's rule in
     * config.c: a CPU run's start-up pays no CUDA load and a broken driver stays out); auto opens it. */
    @Test
    void backendCpuDoesNotOpenTheGpu() {
        String[][] cases = {{"--backend", "cpu"}, {"--backend", "auto"}, {}};
        for (String[] extra : cases) {
            DistanceCommand cmd = new DistanceCommand();
            String[] args = new String[4 + extra.length];
            args[0] = "--bfile";
            args[1] = "x";
            args[2] = "--out";
            args[3] = "y";
            System.arraycopy(extra, 0, args, 4, extra.length);
            new picocli.CommandLine(cmd).parseArgs(args);
            String line;
            try (org.dpaccel.DpaContext ctx = org.dpaccel.DpaContext.create(cmd.common.config())) {
                line = ctx.describe();
            }
            boolean cpu = extra.length > 0 && extra[1].equals("cpu");
            assertEquals(cpu, line.contains("GPU disabled by configuration"), String.join(" ", args) + ": " + line);
        }
    }

    /** Only the command named is registered (start-up time); the usage still lists them all. */
    @Test
    void usageListsEveryCommand() {
        Cli.Result r = Cli.run("--help");
        for (Class<?> c : DpaccelCommand.COMMANDS) {
            String name = c.getAnnotation(picocli.CommandLine.Command.class).name();
            assertTrue(r.out().contains("\n  " + name + " "), name + " missing from\n" + r.out());
        }
    }

    @ParameterizedTest
    @ValueSource(strings = {"--version", "pairhmm --version", "sw --version", "bench --version"})
    void versionNamesBuildIsasAndGpus(String command) {
        Cli.Result r = Cli.run(command.split(" "));
        assertEquals(ExitCodes.OK, r.rc(), r.toString());
        assertTrue(r.out().startsWith("dpaccel "), r.toString());
        assertTrue(r.out().contains("\nisas: ") && r.out().contains("scalar"), r.toString());
        assertTrue(r.out().contains("\ngpus: "), r.toString());
        assertEquals("", r.err(), "no log lines on stderr");
    }

    @Test
    void noCommandIsAUsageError() {
        Cli.Result r = Cli.run();
        assertEquals(ExitCodes.BAD_INPUT, r.rc(), r.toString());
        assertTrue(r.err().contains("Usage: dpaccel"), r.toString());
        assertEquals("", r.out());
    }

    @ParameterizedTest
    @ValueSource(strings = {"frobnicate", "pairhmm", "sw --strategy sideways x.tsv", "sw --params NOPE x.tsv",
        "pairhmm --backend tpu x.in", "pairhmm --device gpu0 x.in", "pairhmm --threads 0 x.in",
        "pairhmm --threads 1,2 x.in", "pairhmm --no-such-option x.in", "sw --match 300000000 x.tsv",
        "bench --reps 0", "bench --backend cpu --backends scalar", "bench --mode fast"})
    void usageErrorsExit2WithOneMessage(String command) {
        Cli.Result r = Cli.run(command.split(" "));
        assertEquals(ExitCodes.BAD_INPUT, r.rc(), r.toString());
        assertTrue(r.err().startsWith("dpaccel"), r.toString());
        assertEquals("", r.out());
    }
}
