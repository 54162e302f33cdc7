package org.dpaccel.cli;

import java.io.PrintStream;
import java.io.PrintWriter;
import java.nio.charset.StandardCharsets;
import java.util.logging.Level;
import java.util.logging.Logger;

import picocli.CommandLine;

/**
 * {@code dpaccel <command> [options]}: the entry point of dpaccel.jar and bin/dpaccel. The
 * contract (exit codes, stdout/stderr, formats) is docs/cli.md.
 */
public final class Main {
    private Main() {
    }

    public static void main(String[] args) {
        System.setProperty("java.awt.headless", "true");
        System.exit(run(args, System.out, System.err));
    }

    /**
     * Runs one command line with the given streams and returns its exit status (0 ok, 1 internal
     * error, 2 bad input or usage); never exits the JVM, so tests call it in-process.
     */
    public static int run(String[] args, PrintStream out, PrintStream err) {
        // the library's INFO lines (context created, ...) are for GATK logs, not a command's stderr
        Logger.getLogger("").setLevel(Level.WARNING);
        DpaccelCommand top = new DpaccelCommand(args, out, err);
        CommandLine cl = new CommandLine(top);
        DpaccelCommand.register(cl, args);
        cl.setOut(new PrintWriter(out, true, StandardCharsets.UTF_8));
        cl.setErr(new PrintWriter(err, true, StandardCharsets.UTF_8));
        cl.setParameterExceptionHandler(Errors::usage);
        cl.setExecutionExceptionHandler(Errors::execution);
        return cl.execute(args);
    }
}
