package org.dpaccel.cli;

import java.io.PrintStream;
import java.util.List;
import java.util.concurrent.Callable;

import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Spec;

/**
 * The top-level {@code dpaccel} command. A new workload becomes a subcommand by adding its class
 * to {@link #COMMANDS} below (and a section to docs/cli.md); nothing else registers commands.
 */
@Command(name = "dpaccel", mixinStandardHelpOptions = true, versionProvider = VersionInfo.class,
    synopsisSubcommandLabel = "COMMAND",
    description = "GPU and AVX dynamic-programming kernels for genomics, on files.%n"
        + "Exit status: 0 ok, 1 internal error, 2 bad input or usage (docs/cli.md).")
final class DpaccelCommand implements Callable<Integer> {
    /** The subcommands, in the order the usage lists them. */
    static final List<Class<?>> COMMANDS = List.of(BenchCommand.class, PairHmmCommand.class, SwCommand.class,
        DistanceCommand.class, XdropCommand.class, PaparaCommand.class, PdhmmCommand.class,
        HmmFilterCommand.class, PaparaScoreCommand.class);

    /**
     * Adds the subcommands to the top command line: only the one the arguments name when they
     * start with a command's name, else all of them (usage, --help, --version, a misspelt name).
     * picocli reflects over every option of every class it is given, ~20 ms a command, which
     * was a third of a short command's run.
     */
    static void register(CommandLine top, String[] args) {
        for (Class<?> c : COMMANDS) {
            if (args.length > 0 && args[0].equals(c.getAnnotation(Command.class).name())) {
                top.addSubcommand(c);
                return;
            }
        }
        for (Class<?> c : COMMANDS) {
            top.addSubcommand(c);
        }
    }

    /** The command line as given, for a restart on other GPUs (--device). */
    final String[] args;
    final PrintStream out;
    final PrintStream err;

    @Spec
    CommandSpec spec;

    DpaccelCommand(String[] args, PrintStream out, PrintStream err) {
        this.args = args.clone();
        this.out = out;
        this.err = err;
    }

    /** No command given: the usage on stderr, as for any other usage error. */
    @Override
    public Integer call() {
        spec.commandLine().usage(spec.commandLine().getErr());
        return ExitCodes.BAD_INPUT;
    }
}
