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

    /**
     * Speed-up of {@code r} over the reference path of the same size: reference median / this median,
     * for energy+forces and for the MD step (NaN where either is missing).
     */
    static double[] speedupVsReference(ConfigResult r, List<ConfigResult> all) {
        double ef = Double.NaN;
        double md = Double.NaN;
        for (ConfigResult ref : all) {
            if (ref.atoms() == r.atoms() && ref.config().equals("reference") && ref.status() == ConfigResult.Status.ok) {
                if (ref.energyForces() != null && r.energyForces() != null) {
                    ef = ref.energyForces().medianUs() / r.energyForces().medianUs();
                }
                if (ref.mdStep() != null && r.mdStep() != null) {
                    md = ref.mdStep().medianUs() / r.mdStep().medianUs();
                }
            }
        }
        return new double[] {ef, md};
    }

    private static String ratio(double x) {
        return Double.isNaN(x) ? "n/a" : String.format(Locale.ROOT, "%.1f×", x);
    }

    /**
     * One line of ratios for the configurations of one size, measured side by side: each path's
     * speed-up over the reference (energy+forces median), and ND4J against Java loops where both ran.
     */
    public static String ratioLine(List<ConfigResult> sizeResults) {
        StringBuilder sb = new StringBuilder("speed-up vs reference (e+f median):");
        boolean any = false;
        for (ConfigResult r : sizeResults) {
            if (r.status() == ConfigResult.Status.ok && !r.config().equals("reference")) {
                double x = speedupVsReference(r, sizeResults)[0];
                if (!Double.isNaN(x)) {
                    sb.append(' ').append(r.config()).append(' ').append(ratio(x));
                    any = true;
                }
            }
        }
        if (!any) {
            sb.setLength(0);
        }
        ConfigResult loops = null;
        ConfigResult nd4j = null;
        for (ConfigResult r : sizeResults) {
            if (r.status() == ConfigResult.Status.ok && r.energyForces() != null) {
                if (r.config().endsWith("-loops")) {
                    loops = r;
                } else if (r.config().endsWith("-nd4j")) {
                    nd4j = r;
                }
            }
        }
        if (loops != null && nd4j != null) {
            sb.append(sb.length() == 0 ? "" : "; ").append(String.format(Locale.ROOT,
                    "ND4J vs loops (e+f median): %.2f× (>1: ND4J faster)", loops.energyForces().medianUs() / nd4j.energyForces().medianUs()));
        }
        return sb.toString();
    }

    /** The Markdown table of all configurations. */
    public static String markdown(List<ConfigResult> results) {
        StringBuilder sb = new StringBuilder();
        sb.append("| atoms | system | device | config | status | e+f median µs | e+f mean ± sd [min, max] | MD step median µs "
                + "| MD step mean ± sd [min, max] | steps/s | atom-steps/s | ns/day (0.5 fs) | peak heap MiB | heap KB/atom | device MiB "
                + "| ΔE eV | force RMSE eV/Å (bound) | vs | speed-up vs reference (e+f / MD step) |\n");
        sb.append("|---:|---|---|---|---|---:|---|---:|---|---:|---:|---:|---:|---:|---:|---:|---|---|---|\n");
        for (ConfigResult r : results) {
            if (r.status() == ConfigResult.Status.ok || r.energyForces() != null) {
                double[] up = speedupVsReference(r, results);
                sb.append(String.format(Locale.ROOT, "| %d | %s | %s | %s | %s | %s | %s | %s | %s | %s | %s | %s | %s | %s | %s | %s | %s (%s) | %s | %s / %s |%n",
                        r.atoms(), r.system(), r.device(), r.config(), r.status(), med(r.energyForces()), spread(r.energyForces()),
                        med(r.mdStep()), spread(r.mdStep()), num(r.stepsPerSecond(), "%.3g"), num(r.atomStepsPerSecond(), "%.3g"),
                        num(r.nsPerDay(), "%.3g"), num(r.peakHeapMiB(), "%.0f"), num(r.heapKbPerAtom(), "%.1f"), num(r.deviceMemoryUsedMiB(), "%.0f"),
                        num(r.energyDiffEv(), "%.1e"), num(r.forceRmseEvPerA(), "%.1e"), num(r.forceRmseBoundEvPerA(), "%.0e"),
                        r.accuracyReference() == null ? "n/a" : r.accuracyReference(), ratio(up[0]), ratio(up[1])));
            } else {
                sb.append(String.format(Locale.ROOT, "| %d | %s | %s | %s | %s: %s | | | | | | | | | | | | | | |%n",
                        r.atoms(), r.system(), r.device(), r.config(), r.status(), r.reason().replace('|', '/')));
            }
        }
        return sb.toString();
    }
}
