package org.molten.cli;

import java.util.List;

/**
 * Subcommands that a module outside {@code validation} adds to {@code molten} when it is on the
 * classpath (found with {@link java.util.ServiceLoader}; register the implementation in
 * {@code META-INF/services/org.molten.cli.SubcommandProvider}). Keeps this module free of a
 * dependency on, for example, the sweep module and its distributed engine.
 */
public interface SubcommandProvider {
    /** New instances of picocli command objects (classes annotated with {@code @Command}). */
    List<Object> subcommands();
}
