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
 */
public record Summary(boolean passed, int criteria, int failed, List<String> failures, double wallSeconds, int skipped,
                      List<String> skips) {

    /** A summary with nothing skipped. */
    public Summary(boolean passed, int criteria, int failed, List<String> failures, double wallSeconds) {
        this(passed, criteria, failed, failures, wallSeconds, 0, List.of());
    }

    /** "PASS", "FAIL" (a criterion failed) or "INCOMPLETE" (none failed, some skipped). */
    public String verdict() {
        return failed > 0 ? "FAIL" : skipped > 0 ? "INCOMPLETE" : "PASS";
    }
}
