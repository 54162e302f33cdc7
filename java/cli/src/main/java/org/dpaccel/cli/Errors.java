package org.dpaccel.cli;

import java.io.PrintWriter;

import org.dpaccel.DpaccelException;
import org.dpaccel.Status;
import org.dpaccel.bench.data.InputFormatException;

import picocli.CommandLine;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.ParseResult;

/** Maps what went wrong to one stderr message and an exit status (docs/cli.md). */
final class Errors {
    private Errors() {
    }

    /** Usage errors: the message and where to read more, not the whole help text. */
    static int usage(ParameterException e, String[] args) {
        CommandLine cmd = e.getCommandLine();
        PrintWriter err = cmd.getErr();
        err.println(cmd.getCommandSpec().qualifiedName() + ": " + e.getMessage());
        err.println("try '" + cmd.getCommandSpec().qualifiedName() + " --help'");
        return ExitCodes.BAD_INPUT;
    }

    static int execution(Exception e, CommandLine cmd, ParseResult parsed) {
        PrintWriter err = cmd.getErr();
        String name = cmd.getCommandSpec().qualifiedName();
        if (isBadInput(e)) {
            err.println(name + ": " + e.getMessage());
            return ExitCodes.BAD_INPUT;
        }
        if (e instanceof DpaccelException) {
            // the native library's own words (no GPU, device fault): the cause is the machine
            err.println(name + ": " + e.getMessage());
            return ExitCodes.INTERNAL;
        }
        err.println(name + ": internal error: " + e);
        e.printStackTrace(err);
        return ExitCodes.INTERNAL;
    }

    /**
     * The workload APIs throw IllegalArgumentException for values they refuse (docs/ARCHITECTURE.md),
     * always naming the field, so those count as input errors too.
     */
    static boolean isBadInput(Throwable e) {
        if (e instanceof DpaccelException d) {
            return d.status() == Status.INVALID_ARG || d.status() == Status.LIMIT;
        }
        return e instanceof BadInputException || e instanceof InputFormatException
            || e instanceof IllegalArgumentException;
    }
}
