package org.molten.validation.runs;

import org.molten.validation.reports.ValidationReport;

/**
 * Thrown by a {@link Progress} to stop a validation at its next progress update (Ctrl-C, SIGTERM).
 * {@link ValidationRunner#run} then lets the other replicas stop at theirs, writes the partial
 * report of what finished (verdict INCOMPLETE, the unfinished systems and replicas listed) and
 * throws this again with that report attached.
 */
public class ValidationStop extends RuntimeException {
    private static final long serialVersionUID = 1L;
    private final String reason;
    private transient ValidationReport partialReport;

    /** A stop asked for by {@code reason} (a signal name: "SIGINT"). */
    public ValidationStop(String reason) {
        super("stopped by " + reason);
        this.reason = reason;
    }

    /** What asked to stop ("SIGINT"). */
    public String reason() {
        return reason;
    }

    /** The partial report written before this was thrown out of the runner, or null if none was written. */
    public ValidationReport partialReport() {
        return partialReport;
    }

    void partialReport(ValidationReport report) {
        this.partialReport = report;
    }
}
