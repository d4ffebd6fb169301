package org.molten.validation.runs;

import java.time.Duration;
import java.util.Locale;
import me.tongfei.progressbar.ProgressBarRenderer;
import me.tongfei.progressbar.ProgressState;

/**
 * The line of a terminal progress bar with its times labelled, since the library's default
 * {@code (0:00:12 / 0:00:15)} leaves the reader guessing which is which:
 *
 * <pre>
 * validate  42% [=========&gt;              ] 420/1000 steps | elapsed 0:00:12 | left ~0:00:17 | water NVE
 * </pre>
 *
 * "left" is extrapolated from the steps done since this bar started (a restarted run's earlier
 * steps are not counted), and shown once a step is done.
 */
public final class ProgressLine implements ProgressBarRenderer {
    private static final int MIN_BAR = 10;
    private final String unit;

    /** A renderer counting in {@code unit} (e.g. "steps"). */
    public ProgressLine(String unit) {
        this.unit = unit;
    }

    @Override
    public String render(ProgressState s, int maxLength) {
        return render(s.getTaskName(), s.getStart(), s.getCurrent(), s.getMax(), s.getElapsedAfterStart(),
                s.getTotalElapsed(), s.getExtraMessage(), maxLength);
    }

    /**
     * The line for a bar at {@code current} of {@code max} that started at {@code start},
     * {@code sinceStart} ago ({@code elapsed} in all, a restart's earlier time included), cut to
     * {@code maxLength} characters.
     */
    public String render(String task, long start, long current, long max, Duration sinceStart, Duration elapsed,
                         String extra, int maxLength) {
        double fraction = max > 0 ? Math.min(1.0, Math.max(0.0, (double) current / max)) : 0.0;
        String prefix = String.format(Locale.ROOT, "%s %3d%% ", task, (int) Math.floor(100 * fraction));
        StringBuilder suffix = new StringBuilder();
        suffix.append(' ').append(current).append('/').append(max).append(' ').append(unit);
        suffix.append(" | elapsed ").append(clock(elapsed));
        long done = current - start;
        if (done > 0 && current < max) {
            Duration left = sinceStart.multipliedBy(max - current).dividedBy(done);
            suffix.append(" | left ~").append(clock(left));
        } else if (current >= max) {
            suffix.append(" | done");
        }
        if (extra != null && !extra.isBlank()) {
            suffix.append(" | ").append(extra.strip());
        }
        int barWidth = maxLength - prefix.length() - suffix.length() - 2;
        if (barWidth < MIN_BAR) { // a narrow terminal: the labelled numbers matter more than the bar
            String line = prefix + suffix.toString().strip();
            return line.length() <= maxLength ? line : line.substring(0, Math.max(0, maxLength));
        }
        int filled = (int) Math.floor(fraction * barWidth);
        StringBuilder bar = new StringBuilder(barWidth + 2).append('[');
        for (int i = 0; i < barWidth; i++) {
            bar.append(i < filled ? '=' : i == filled ? '>' : ' ');
        }
        return prefix + bar.append(']') + suffix;
    }

    /** h:mm:ss. */
    static String clock(Duration d) {
        long s = Math.max(0, d.getSeconds());
        return String.format(Locale.ROOT, "%d:%02d:%02d", s / 3600, s / 60 % 60, s % 60);
    }
}
