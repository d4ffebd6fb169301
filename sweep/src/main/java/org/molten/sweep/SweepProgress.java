package org.molten.sweep;

import java.io.PrintStream;
import java.util.Locale;

/**
 * Progress of a sweep: tasks done, running and failed, and the time left. {@link #quiet()} says
 * nothing (pipes, tests); {@link #terminal(PrintStream)} redraws one line on an interactive terminal.
 */
public interface SweepProgress extends AutoCloseable {

    /**
     * The state now.
     *
     * @param done     tasks finished (stored), resumed ones included
     * @param running  tasks running on some member
     * @param failed   tasks that threw on every attempt (also counted in done)
     * @param total    tasks of the sweep
     * @param etaSeconds estimated seconds left, NaN when unknown
     */
    void update(int done, int running, int failed, int total, double etaSeconds);

    @Override
    default void close() {
    }

    /** Silent. */
    static SweepProgress quiet() {
        return (done, running, failed, total, eta) -> { };
    }

    /** A line on the terminal when there is one (System.console() != null), else silent. */
    static SweepProgress auto() {
        return System.console() != null ? terminal(System.err) : quiet();
    }

    /** Redraws one status line on {@code out} at most twice a second. */
    static SweepProgress terminal(PrintStream out) {
        return new SweepProgress() {
            private long last;
            private boolean drawn;

            @Override
            public void update(int done, int running, int failed, int total, double eta) {
                long now = System.currentTimeMillis();
                if (now - last < 500 && done < total) {
                    return;
                }
                last = now;
                String left = Double.isFinite(eta) ? String.format(Locale.ROOT, "ETA %dm%02ds", (long) eta / 60, (long) eta % 60)
                        : "ETA --";
                out.printf(Locale.ROOT, "\rsweep: %d/%d done, %d running, %d failed, %s   ", done, total, running, failed, left);
                out.flush();
                drawn = true;
            }

            @Override
            public void close() {
                if (drawn) {
                    out.println();
                }
            }
        };
    }
}
