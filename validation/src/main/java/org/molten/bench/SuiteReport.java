package org.molten.bench;

import java.util.List;
import java.util.Locale;

/** Markdown and one-line renderings of suite results ("n/a" where a figure does not apply). */
public final class SuiteReport {
    private SuiteReport() {}

    static String num(Double v, String fmt) {
        return v == null || v.isNaN() ? "n/a" : String.format(Locale.ROOT, fmt, v);
    }

    private static String med(SampleStats s) {
        return s == null ? "n/a" : String.format(Locale.ROOT, "%.1f", s.medianUs());
    }

    private static String spread(SampleStats s) {
        return s == null ? "n/a" : String.format(Locale.ROOT, "%.1f ± %.1f [%.1f, %.1f] (n=%d)", s.meanUs(), s.sdUs(),
                s.minUs(), s.maxUs(), s.samples());
    }

    /** A progress line for one configuration. */
    public static String oneLine(ConfigResult r) {
        if (r.status() != ConfigResult.Status.ok) {
            return String.format(Locale.ROOT, "%-5s %-20s %s: %s", r.device(), r.config(), r.status(), r.reason());
        }
        return String.format(Locale.ROOT, "%-5s %-20s e+f median %s µs, MD step median %s µs, %s ns/day, force RMSE %s eV/Å",
                r.device(), r.config(), med(r.energyForces()), med(r.mdStep()), num(r.nsPerDay(), "%.3g"),
                num(r.forceRmseEvPerA(), "%.1e"));
    }

    /** The Markdown table of all configurations. */
    public static String markdown(List<ConfigResult> results) {
        StringBuilder sb = new StringBuilder();
        sb.append("| atoms | system | device | config | status | e+f median µs | e+f mean ± sd [min, max] | MD step median µs "
                + "| MD step mean ± sd [min, max] | steps/s | atom-steps/s | ns/day (0.5 fs) | peak heap MiB | device MiB "
                + "| ΔE eV | force RMSE eV/Å (bound) | vs |\n");
        sb.append("|---:|---|---|---|---|---:|---|---:|---|---:|---:|---:|---:|---:|---:|---|---|\n");
        for (ConfigResult r : results) {
            if (r.status() == ConfigResult.Status.ok || r.energyForces() != null) {
                sb.append(String.format(Locale.ROOT, "| %d | %s | %s | %s | %s | %s | %s | %s | %s | %s | %s | %s | %s | %s | %s | %s (%s) | %s |%n",
                        r.atoms(), r.system(), r.device(), r.config(), r.status(), med(r.energyForces()), spread(r.energyForces()),
                        med(r.mdStep()), spread(r.mdStep()), num(r.stepsPerSecond(), "%.3g"), num(r.atomStepsPerSecond(), "%.3g"),
                        num(r.nsPerDay(), "%.3g"), num(r.peakHeapMiB(), "%.0f"), num(r.deviceMemoryUsedMiB(), "%.0f"),
                        num(r.energyDiffEv(), "%.1e"), num(r.forceRmseEvPerA(), "%.1e"), num(r.forceRmseBoundEvPerA(), "%.0e"),
                        r.accuracyReference() == null ? "n/a" : r.accuracyReference()));
            } else {
                sb.append(String.format(Locale.ROOT, "| %d | %s | %s | %s | %s: %s | | | | | | | | | | | | |%n",
                        r.atoms(), r.system(), r.device(), r.config(), r.status(), r.reason().replace('|', '/')));
            }
        }
        return sb.toString();
    }
}
