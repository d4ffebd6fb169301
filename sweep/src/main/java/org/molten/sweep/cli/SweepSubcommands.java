package org.molten.sweep.cli;

import java.util.List;
import org.molten.cli.SubcommandProvider;

/** Adds {@code molten sweep} and {@code molten worker} when the sweep module is on the classpath. */
public final class SweepSubcommands implements SubcommandProvider {
    @Override
    public List<Object> subcommands() {
        return List.of(new SweepCommand(), new WorkerCommand());
    }
}
