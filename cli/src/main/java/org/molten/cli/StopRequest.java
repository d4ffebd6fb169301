package org.molten.cli;

import java.io.PrintStream;
import java.util.ArrayList;
import java.util.List;
import sun.misc.Signal;
import sun.misc.SignalHandler;

/**
 * A request to stop a long command (Ctrl-C = SIGINT, or SIGTERM) at the next step boundary, so
 * that it can flush its files, write a checkpoint and exit with status {@value #EXIT_STATUS}.
 *
 * <p>Why a signal handler and not a shutdown hook: a shutdown hook runs while the JVM is already
 * going down, concurrently with the main thread, and the exit status is then the signal's (143
 * for SIGTERM) unless the hook halts the VM itself. Replacing the JVM's INT and TERM handlers
 * instead turns the signal into a flag: the main loop notices it between steps, finishes the
 * current step, flushes, checkpoints and returns normally, and no half-written state can be left
 * by a racing hook. A second signal while the first is being honoured quits at once (status
 * {@value #EXIT_STATUS}); files are then as a crash leaves them (the last periodic checkpoint stays
 * valid, since it records the file lengths it saw).
 *
 * <p>{@link #close()} puts the previous handlers back (in-process tests run many commands).
 */
public final class StopRequest implements AutoCloseable {
    /** Exit status of a command stopped by a request: 128 + SIGINT, as shells report Ctrl-C. */
    public static final int EXIT_STATUS = 130;

    private volatile String cause;
    private final List<Runnable> restore = new ArrayList<>();
    private final PrintStream err;

    private StopRequest(PrintStream err) {
        this.err = err;
    }

    /** A request that only {@link #request(String)} can trigger (tests, embedding code). */
    public static StopRequest manual() {
        return new StopRequest(null);
    }

    /**
     * A request triggered by SIGINT or SIGTERM. Where the JVM does not let a signal be handled
     * ({@code -Xrs}, or a platform without it), that signal keeps its default behaviour.
     *
     * @param err where a second signal says that it quits at once
     */
    public static StopRequest onSignals(PrintStream err) {
        StopRequest r = new StopRequest(err);
        for (String name : new String[]{"INT", "TERM"}) {
            try {
                Signal signal = new Signal(name);
                SignalHandler previous = Signal.handle(signal, s -> r.onSignal("SIG" + name));
                r.restore.add(() -> Signal.handle(signal, previous));
            } catch (IllegalArgumentException | UnsupportedOperationException e) {
                // the signal is reserved by the VM (-Xrs) or unknown here: leave it alone
            }
        }
        return r;
    }

    private void onSignal(String name) {
        if (cause != null) {
            if (err != null) {
                err.println("molten: second " + name + ": quitting at once (the last periodic checkpoint stays valid)");
                err.flush();
            }
            Runtime.getRuntime().halt(EXIT_STATUS);
        }
        cause = name;
    }

    /** Asks the command to stop at its next step boundary; {@code why} is named in its message. */
    public void request(String why) {
        if (cause == null) {
            cause = why;
        }
    }

    /** Whether a stop was requested. */
    public boolean requested() {
        return cause != null;
    }

    /** What asked to stop ("SIGINT", "SIGTERM", or the text given to {@link #request}); null if nothing did. */
    public String cause() {
        return cause;
    }

    /** Restores the signal handlers that were in place before {@link #onSignals}. */
    @Override
    public void close() {
        for (Runnable r : restore) {
            r.run();
        }
        restore.clear();
    }

    /** Thrown out of a long computation (a validation's progress callback) when a stop was requested. */
    public static final class Stopped extends org.molten.validation.runs.ValidationStop {
        private static final long serialVersionUID = 1L;

        /** A stop caused by {@code cause} (a signal name). */
        public Stopped(String cause) {
            super(cause);
        }
    }
}
