package org.molten.validation.reports;

import java.util.List;

/**
 * The verdict over all systems.
 *
 * @param passed       true when every criterion of every system passed
 * @param criteria     number of criteria evaluated
 * @param failed       number that failed
 * @param failures     one line per failed criterion: system, run, criterion and detail
 * @param wallSeconds  wall-clock time of the whole validation, s
 */
public record Summary(boolean passed, int criteria, int failed, List<String> failures, double wallSeconds) {
}
