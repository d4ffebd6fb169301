package org.molten.cli;

import picocli.CommandLine;
import picocli.CommandLine.Command;

/**
 * The {@code molten} command line. Each subcommand is its own class in this package; register it
 * in {@code subcommands} below.
 */
@Command(name = "molten", mixinStandardHelpOptions = true, version = "molten 0.1.0",
        description = {"Molecular dynamics with a distilled machine-learned force field.",
                "Units: Å, eV, eV/Å, amu, fs, K (the ASE conventions)."},
        subcommands = {InfoCommand.class, RunCommand.class, MinimizeCommand.class, ServeCommand.class, ValidateCommand.class, StabilityCommand.class, AccuracyCommand.class, BenchCommand.class,
                CommandLine.HelpCommand.class})
public final class MoltenCli implements Runnable {

    @CommandLine.Spec
    CommandLine.Model.CommandSpec spec;

    @Override
    public void run() {
        spec.commandLine().usage(System.out);
    }

    /** Runs the command line and returns its exit status (0 success, 1 failure, 2 usage). */
    public static int execute(String... args) {
        CommandLine cl = new CommandLine(new MoltenCli());
        // Subcommands of modules that are on the classpath only when installed (molten sweep, molten worker).
        for (SubcommandProvider p : java.util.ServiceLoader.load(SubcommandProvider.class)) {
            p.subcommands().forEach(cl::addSubcommand);
        }
        cl.setExecutionExceptionHandler((ex, commandLine, parseResult) -> {
            // Bad input is reported as one clear line, not a stack trace; a file problem names the file.
            if (ex instanceof IllegalArgumentException || ex instanceof java.io.IOException
                    || ex instanceof IllegalStateException || ex instanceof java.io.UncheckedIOException) {
                Throwable cause = ex instanceof java.io.UncheckedIOException u ? u.getCause() : ex;
                String fileProblem = FileErrors.message(cause);
                commandLine.getErr().println("molten " + commandLine.getCommandName() + ": "
                        + (fileProblem != null ? fileProblem : cause.getMessage()));
                return 1;
            }
            throw ex;
        });
        cl.setParameterExceptionHandler(MoltenCli::usageError);
        return cl.execute(args);
    }

    /**
     * A usage error: the problem (with picocli's "did you mean" suggestions) and one line pointing
     * to {@code --help}, not the whole help text. Exit status 2.
     */
    private static int usageError(CommandLine.ParameterException ex, String[] args) {
        CommandLine cmd = ex.getCommandLine();
        java.io.PrintWriter err = cmd.getErr();
        err.println("molten" + (cmd.getParent() == null ? "" : " " + cmd.getCommandName()) + ": " + ex.getMessage());
        CommandLine.UnmatchedArgumentException.printSuggestions(ex, err);
        err.println("Try '" + cmd.getCommandSpec().qualifiedName() + " --help' for the options.");
        err.flush();
        return cmd.getCommandSpec().exitCodeOnInvalidInput();
    }

    public static void main(String[] args) {
        System.exit(execute(args));
    }
}
