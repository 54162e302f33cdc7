package org.dpaccel.cli;

/** Exit statuses of every subcommand (docs/cli.md); scripts depend on them, so never renumber. */
public final class ExitCodes {
    public static final int OK = 0;
    /** A failure that is not the input's fault: a bug, an I/O error writing output, a GPU fault. */
    public static final int INTERNAL = 1;
    /** Bad input file, bad option or usage error; the message names file, line and field. */
    public static final int BAD_INPUT = 2;

    private ExitCodes() {
    }
}
