package org.molten.sweep;

import java.util.List;

/**
 * The aggregated report of a sweep, written as sweep-report.json and sweep-report.md.
 *
 * @param tool        "molten sweep"
 * @param createdUtc  ISO-8601 time of writing
 * @param command     the command line as typed, or a description
 * @param tasksTotal  tasks in the grid
 * @param tasksDone   tasks that ran to a result (their simulations may have blown up)
 * @param tasksFailed tasks that threw on every attempt
 * @param tasksResumed tasks found finished in the output directory and skipped
 * @param wallSeconds wall-clock time of this run of the sweep, s
 * @param summary     per model, system and temperature, and the ranking
 * @param plots       PNG files relative to the output directory (empty without fonts)
 * @param warnings    what a reader must know (plots skipped, ...)
 * @param tasks       every task's outcome; its own report is in {@code tasks/<id>/report/}
 */
public record SweepReport(String tool, String createdUtc, String command, int tasksTotal, int tasksDone, int tasksFailed,
                          int tasksResumed, double wallSeconds, SweepSummary summary, List<String> plots,
                          List<String> warnings, List<TaskResult> tasks) {
}
