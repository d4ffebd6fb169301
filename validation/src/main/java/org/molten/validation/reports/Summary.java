package org.molten.validation.reports;

import java.util.List;

/**
 * The verdict over all systems.
 *
 * @param passed       true when every criterion of every system passed (none failed, none skipped)
 * @param criteria     number of criteria
 * @param failed       number that were evaluated and failed
 * @param failures     one line per failed criterion: system, run, criterion and detail
 * @param wallSeconds  wall-clock time of the whole validation, s
 * @param skipped      number that could not be evaluated (each with its reason in the report)
 * @param skips        one line per skipped criterion
 * @param interrupted  what stopped the validation before it finished ("SIGINT"), or null when it finished
 * @param unfinished   after a stop: one line per system whose replicas did not all finish (those
 *                     systems' criteria cover only the replicas that did, or the system is absent)
 */
public record Summary(boolean passed, int criteria, int failed, List<String> failures, double wallSeconds, int skipped,
                      List<String> skips, String interrupted, List<String> unfinished) {

    /** A summary of a validation that finished. */
    public Summary(boolean passed, int criteria, int failed, List<String> failures, double wallSeconds, int skipped,
                   List<String> skips) {
        this(passed, criteria, failed, failures, wallSeconds, skipped, skips, null, List.of());
    }

    /** A summary with nothing skipped. */
    public Summary(boolean passed, int criteria, int failed, List<String> failures, double wallSeconds) {
        this(passed, criteria, failed, failures, wallSeconds, 0, List.of());
    }

    /**
     * "PASS", "FAIL" (a criterion failed) or "INCOMPLETE" (none failed, some skipped, or the
     * validation was interrupted: what did not run cannot pass).
     */
    @com.fasterxml.jackson.annotation.JsonProperty("verdict")
    public String verdict() {
        return failed > 0 ? "FAIL" : skipped > 0 || interrupted != null ? "INCOMPLETE" : "PASS";
    }
}
