package org.molten.sweep;

import java.util.List;
import java.util.Locale;
import org.molten.validation.ValidationSettings;

/**
 * How long a member may hold a task without progress before its lease runs out and the task runs
 * elsewhere ({@code molten sweep --task-timeout-s}, {@code task_timeout_s} in a spec). A task that
 * advances renews its lease at every progress report (the validation reports every 100 MD steps
 * and at every phase), so the timeout bounds the silence between two reports, not the task. The
 * default is generous on purpose: a lease that runs out on a slow but healthy task costs a re-run
 * and an attempt, a hung one only waits longer. It is {@value #EXPECTED_TIME_MULTIPLE} times the
 * protocol's expected task time — its MD steps (equilibration, NVE, NVT) at
 * {@value #GENEROUS_MS_PER_STEP} ms a step, several times the per-step cost of the built-in
 * molecules on one core — and at least {@link #FLOOR_MS} (30 min), which covers the teacher checks
 * and model loading between progress reports.
 */
public final class TaskTimeout {
    /** The shortest default timeout, ms: 30 min. */
    public static final long FLOOR_MS = 30 * 60 * 1000L;
    /** Default timeout as a multiple of the protocol's expected task time. */
    public static final int EXPECTED_TIME_MULTIPLE = 10;
    /** A generous per-step cost for the expected task time, ms. */
    public static final double GENEROUS_MS_PER_STEP = 10.0;

    private TaskTimeout() {}

    /** The default timeout of a sweep: the largest of its tasks' defaults, ms. */
    public static long defaultMs(List<SweepTask> tasks) {
        long worst = FLOOR_MS;
        for (SweepTask t : tasks) {
            worst = Math.max(worst, defaultMs(t));
        }
        return worst;
    }

    /** The default timeout of one task, ms (see the class comment). */
    public static long defaultMs(SweepTask task) {
        ValidationSettings s = ValidationTaskExecutor.settings(task);
        double steps = s.equilibrationSteps() + (double) s.nveSteps() + s.nvtSteps();
        return Math.max(FLOOR_MS, (long) Math.ceil(EXPECTED_TIME_MULTIPLE * steps * GENEROUS_MS_PER_STEP));
    }

    /**
     * {@code seconds} as ms, refusing what is not a positive finite time.
     *
     * @param what the option or field, for the message
     */
    public static long fromSeconds(double seconds, String what) {
        if (!(seconds > 0) || Double.isInfinite(seconds)) {
            throw new IllegalArgumentException(what + " must be a positive number of seconds, got "
                    + String.format(Locale.ROOT, "%s", seconds));
        }
        return Math.max(1, Math.round(seconds * 1000));
    }
}
