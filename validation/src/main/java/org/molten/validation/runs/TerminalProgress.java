package org.molten.validation.runs;

import me.tongfei.progressbar.ProgressBar;
import me.tongfei.progressbar.ProgressBarBuilder;
import me.tongfei.progressbar.ProgressBarStyle;

/**
 * A progress bar over all MD steps of a validation (me.tongfei progressbar), drawn on stderr
 * only when a terminal is attached ({@code System.console() != null}); in a pipe or a CI log
 * {@link #create} returns {@link Progress#NONE}, so nothing is printed. Elapsed and remaining
 * time are labelled ({@link ProgressLine}).
 */
public final class TerminalProgress implements Progress {
    private final ProgressBar bar;

    private TerminalProgress(long totalSteps) {
        bar = new ProgressBarBuilder().setTaskName("validate").setInitialMax(totalSteps)
                .setStyle(ProgressBarStyle.ASCII).setRenderer(new ProgressLine("steps")).setUpdateIntervalMillis(250)
                .continuousUpdate().build();
    }

    /** A bar on a terminal, or silence elsewhere. */
    public static Progress create(long totalSteps) {
        return System.console() != null ? new TerminalProgress(totalSteps) : Progress.NONE;
    }

    @Override
    public void phase(String text) {
        bar.setExtraMessage(text);
    }

    @Override
    public void advance(long steps) {
        bar.stepBy(steps);
    }

    @Override
    public void close() {
        bar.close();
    }
}
