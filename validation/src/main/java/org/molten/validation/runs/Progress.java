package org.molten.validation.runs;

/**
 * Where a validation reports how far it is. {@link #NONE} is silent (pipes, tests);
 * {@link TerminalProgress} draws a bar on an interactive terminal.
 */
public interface Progress extends AutoCloseable {

    /** Says what runs now ("ethanol: optimised NVE"). */
    void phase(String text);

    /** Adds {@code steps} MD steps done. */
    void advance(long steps);

    @Override
    default void close() {
    }

    /** Silent. */
    Progress NONE = new Progress() {
        @Override
        public void phase(String text) {
        }

        @Override
        public void advance(long steps) {
        }
    };
}
