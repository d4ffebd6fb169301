package org.molten.validation.plots;

import java.awt.BasicStroke;
import java.awt.Color;
import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import org.knowm.xchart.XYChart;
import org.knowm.xchart.XYChartBuilder;
import org.knowm.xchart.XYSeries;
import org.knowm.xchart.style.markers.SeriesMarkers;
import org.molten.validation.metrics.LinearFit;
import org.molten.validation.reports.BaselineComparison;
import org.molten.validation.runs.EnergySeries;

/**
 * Draws the plots of one system. Each energy figure has four panels against time in ps:
 * E_tot − E_tot(0) per atom (meV/atom, so that a drift is visible), E_pot (eV), E_kin (eV) and T
 * (K, with the target as a dashed line for NVT), the optimised model and the baseline overlaid.
 *
 * <p>With a drift limit (NVE), the total-energy panel also shows the least-squares line through
 * the optimised model's E_tot and the threshold band: lines through the fit's intercept with
 * slopes ±limit (meV/atom/ps); the run passes the drift criterion while the fitted line stays
 * inside the band. Where the two models' traces coincide (max |difference| below
 * {@value #COINCIDENCE_FRACTION} of the trace's standard deviation), a panel shows their difference
 * (optimised − baseline) instead of two identical lines; on the total-energy panel the baseline
 * is then left out and the title says by how much it differs, so the fit and band stay readable.
 * Tick labels have the same number of decimals along an axis ({@link AxisPatterns}). Long series
 * are thinned to at most {@link #MAX_POINTS} points per curve by taking every k-th. Files are
 * written whole or not at all ({@link PngFiles}); on a machine that cannot draw, every call throws
 * the same {@link PlotsUnavailableException}.
 */
public final class EnergyPlots {
    /** Most points drawn per curve. */
    public static final int MAX_POINTS = 2000;
    /** Traces whose max |difference| is below this fraction of their standard deviation coincide. */
    static final double COINCIDENCE_FRACTION = 1e-3;
    private static final Color OPTIMISED = new Color(0x1f, 0x77, 0xb4);
    private static final Color BASELINE = new Color(0xd6, 0x27, 0x28, 0x80);
    private static final Color FIT = new Color(0x2c, 0xa0, 0x2c);
    private static final Color BAND = new Color(0x7f, 0x7f, 0x7f);
    private static final int PANEL_W = 640;
    private static final int PANEL_H = 360;

    private EnergyPlots() {}

    /** One curve to draw: a name for the legend and its series. */
    public record Curve(String name, EnergySeries series) {
    }

    /**
     * Writes a 2×2 PNG of the energies and temperature of {@code curves} (first: optimised,
     * second: baseline) to {@code file}, without a drift band.
     *
     * @param title        figure title ("water NVE")
     * @param atomCount    atoms, for the per-atom total energy
     * @param targetK      the thermostat target drawn on the temperature panel, or NaN for none
     */
    public static void writeEnergies(Path file, String title, List<Curve> curves, int atomCount, double targetK) throws IOException {
        writeEnergies(file, title, curves, atomCount, targetK, Double.NaN);
    }

    /**
     * Writes a 2×2 PNG of the energies and temperature of {@code curves} (first: optimised,
     * second: baseline) to {@code file}.
     *
     * @param title                    figure title ("water NVE")
     * @param atomCount                atoms, for the per-atom total energy
     * @param targetK                  the thermostat target drawn on the temperature panel, or NaN for none
     * @param maxDriftMeVPerAtomPerPs  the NVE drift limit drawn as a band around the fitted line, or NaN for none
     * @throws PlotsUnavailableException when this machine cannot draw (no file is written)
     */
    public static void writeEnergies(Path file, String title, List<Curve> curves, int atomCount, double targetK,
                                     double maxDriftMeVPerAtomPerPs) throws IOException {
        PngFiles.write(energyCharts(title, curves, atomCount, targetK, maxDriftMeVPerAtomPerPs), 2, 2, file);
    }

    /** The four panels (total, potential, kinetic energy, temperature), not yet drawn. */
    static List<XYChart> energyCharts(String title, List<Curve> curves, int atomCount, double targetK,
                                      double maxDriftMeVPerAtomPerPs) {
        List<Curve> drawn = curves.stream().filter(c -> c.series().size() > 0).toList();
        List<double[]> times = drawn.stream().map(c -> ps(c.series().timeFs())).toList();
        List<double[]> totals = drawn.stream().map(c -> perAtomFromStart(c.series().totalEv(), atomCount)).toList();
        XYChart etot = panel(title + ": total energy", "E_tot - E_tot(0) [meV/atom]", drawn, times, totals, false);
        if (drawn.size() > 0 && Double.isFinite(maxDriftMeVPerAtomPerPs) && times.get(0).length >= 3) {
            addFitAndBand(etot, times.get(0), totals.get(0), maxDriftMeVPerAtomPerPs);
        }
        XYChart epot = panel(title + ": potential energy", "E_pot [eV]", drawn, times,
                drawn.stream().map(c -> c.series().potentialEv()).toList(), true);
        XYChart ekin = panel(title + ": kinetic energy", "E_kin [eV]", drawn, times,
                drawn.stream().map(c -> c.series().kineticEv()).toList(), true);
        List<double[]> temps = drawn.stream().map(c -> c.series().temperatureK()).toList();
        XYChart temp = panel(title + ": temperature", "T [K]", drawn, times, temps, true);
        if (Double.isFinite(targetK) && !temp.getSeriesMap().isEmpty() && !isDifference(temp)) {
            double tMax = times.stream().mapToDouble(t -> t[t.length - 1]).max().orElse(0);
            XYSeries line = temp.addSeries("target", new double[] {0, tMax}, new double[] {targetK, targetK});
            line.setMarker(SeriesMarkers.NONE);
            line.setLineColor(Color.DARK_GRAY);
            line.setLineStyle(dashed(1.2f));
            List<double[]> withTarget = new ArrayList<>(temps);
            withTarget.add(new double[] {targetK});
            temp.getStyler().setYAxisDecimalPattern(AxisPatterns.forValues(concat(withTarget)));
        }
        return List.of(etot, epot, ekin, temp);
    }

    /**
     * One panel: both traces, or their difference when they coincide ({@code differenceAllowed});
     * on the total-energy panel (not allowed) a coinciding baseline is left out and named in the title.
     */
    private static XYChart panel(String title, String yTitle, List<Curve> curves, List<double[]> times, List<double[]> values,
                                 boolean differenceAllowed) {
        double[] diff = curves.size() == 2 ? coincidingDifference(times.get(0), values.get(0), times.get(1), values.get(1))
                : null;
        if (diff != null && differenceAllowed) {
            XYChart c = chart(title + " (traces coincide: difference shown)", "optimised - baseline, " + yTitle);
            add(c, curves.get(0).name() + " - " + curves.get(1).name(), times.get(0), diff, OPTIMISED, 1.0f);
            c.getStyler().setXAxisDecimalPattern(AxisPatterns.forValues(times.get(0)));
            c.getStyler().setYAxisDecimalPattern(AxisPatterns.forValues(diff));
            return c;
        }
        int shown = diff != null ? 1 : curves.size();
        String note = diff == null ? "" : maxAbs(diff) == 0 ? " (" + curves.get(1).name() + " identical)"
                : String.format(Locale.ROOT, " (%s within %.1e)", curves.get(1).name(), maxAbs(diff));
        XYChart c = chart(title + note, yTitle);
        // The baseline first, wide and pale, the optimised model on top, thin: where they agree
        // both stay visible.
        for (int i = shown - 1; i >= 0; i--) {
            add(c, curves.get(i).name(), times.get(i), values.get(i), i == 0 ? OPTIMISED : BASELINE, i == 0 ? 1.0f : 3.0f);
        }
        c.getStyler().setXAxisDecimalPattern(AxisPatterns.forValues(times.toArray(new double[0][])));
        c.getStyler().setYAxisDecimalPattern(AxisPatterns.forValues(values.subList(0, shown).toArray(new double[0][])));
        return c;
    }

    /** The least-squares line through E_tot (meV/atom against ps) and the band of slopes ±limit around its intercept. */
    private static void addFitAndBand(XYChart chart, double[] tPs, double[] eMeVPerAtom, double limit) {
        LinearFit fit = LinearFit.of(tPs, eMeVPerAtom);
        double t0 = tPs[0];
        double t1 = tPs[tPs.length - 1];
        double[] ends = {t0, t1};
        XYSeries f = chart.addSeries(String.format(Locale.ROOT, "fit: %.3g meV/atom/ps", fit.slope()), ends,
                new double[] {fit.at(t0), fit.at(t1)});
        f.setMarker(SeriesMarkers.NONE);
        f.setLineColor(FIT);
        f.setLineWidth(2.0f);
        double[] upper = {fit.intercept() + limit * t0, fit.intercept() + limit * t1};
        double[] lower = {fit.intercept() - limit * t0, fit.intercept() - limit * t1};
        for (XYSeries b : List.of(chart.addSeries(String.format(Locale.ROOT, "limit +%.3g meV/atom/ps", limit), ends, upper),
                chart.addSeries(String.format(Locale.ROOT, "limit -%.3g meV/atom/ps", limit), ends, lower))) {
            b.setMarker(SeriesMarkers.NONE);
            b.setLineColor(BAND);
            b.setLineStyle(dashed(1.0f));
        }
        chart.getStyler().setYAxisDecimalPattern(AxisPatterns.forValues(eMeVPerAtom, upper, lower));
    }

    /**
     * {@code a - b} when both traces have the same sample times and differ nowhere by more than
     * {@link #COINCIDENCE_FRACTION} of a's standard deviation (or are both exactly equal); null otherwise.
     */
    static double[] coincidingDifference(double[] ta, double[] a, double[] tb, double[] b) {
        if (a.length != b.length || a.length < 2 || !java.util.Arrays.equals(ta, tb)) {
            return null;
        }
        double[] d = new double[a.length];
        for (int i = 0; i < a.length; i++) {
            d[i] = a[i] - b[i];
            if (!Double.isFinite(d[i])) {
                return null;
            }
        }
        double sd = standardDeviation(a);
        double max = maxAbs(d);
        return max == 0 || max < COINCIDENCE_FRACTION * sd ? d : null;
    }

    private static boolean isDifference(XYChart c) {
        return c.getTitle().endsWith("(traces coincide: difference shown)");
    }

    /** Writes the RMSD between the optimised and the baseline NVE trajectories against time (log scale when possible). */
    public static void writeDivergence(Path file, String title, List<BaselineComparison.RmsdPoint> points) throws IOException {
        XYChart chart = chart(title + ": optimised vs baseline NVE trajectories", "RMSD [Å]");
        List<Double> t = new ArrayList<>();
        List<Double> r = new ArrayList<>();
        for (BaselineComparison.RmsdPoint p : points) {
            if (p.rmsdA() > 0 && Double.isFinite(p.rmsdA())) {
                t.add(p.timeFs() / 1000.0);
                r.add(p.rmsdA());
            }
        }
        if (t.size() >= 2) {
            chart.getStyler().setYAxisLogarithmic(true);
            chart.getStyler().setYAxisDecimalPattern("0E0");
            double[] tt = t.stream().mapToDouble(Double::doubleValue).toArray();
            add(chart, "RMSD", tt, r.stream().mapToDouble(Double::doubleValue).toArray(), OPTIMISED, 1.2f);
            chart.getStyler().setXAxisDecimalPattern(AxisPatterns.forValues(tt));
        } else {
            // Identical trajectories (or too few samples): draw the raw points on a linear axis.
            double[] tt = points.stream().mapToDouble(p -> p.timeFs() / 1000.0).toArray();
            double[] rr = points.stream().mapToDouble(BaselineComparison.RmsdPoint::rmsdA).toArray();
            if (tt.length > 0) {
                add(chart, "RMSD", tt, rr, OPTIMISED, 1.2f);
                chart.getStyler().setXAxisDecimalPattern(AxisPatterns.forValues(tt));
                chart.getStyler().setYAxisDecimalPattern(AxisPatterns.forValues(rr));
            }
        }
        chart.getStyler().setLegendVisible(false);
        PngFiles.write(List.of(chart), 1, 1, file);
    }

    private static XYChart chart(String title, String yTitle) {
        XYChart c = new XYChartBuilder().width(PANEL_W).height(PANEL_H).title(title).xAxisTitle("time [ps]")
                .yAxisTitle(yTitle).build();
        c.getStyler().setMarkerSize(0);
        c.getStyler().setChartBackgroundColor(Color.WHITE);
        c.getStyler().setPlotGridLinesColor(new Color(0xdd, 0xdd, 0xdd));
        c.getStyler().setLegendPosition(org.knowm.xchart.style.Styler.LegendPosition.InsideNE);
        return c;
    }

    private static BasicStroke dashed(float width) {
        return new BasicStroke(width, BasicStroke.CAP_BUTT, BasicStroke.JOIN_MITER, 10f, new float[] {6f, 4f}, 0f);
    }

    private static double[] perAtomFromStart(double[] e, int atomCount) {
        double[] de = new double[e.length];
        for (int i = 0; i < e.length; i++) {
            de[i] = (e[i] - e[0]) * 1000.0 / atomCount;
        }
        return de;
    }

    private static double standardDeviation(double[] x) {
        double mean = 0;
        for (double v : x) {
            mean += v;
        }
        mean /= x.length;
        double ss = 0;
        for (double v : x) {
            ss += (v - mean) * (v - mean);
        }
        return Math.sqrt(ss / x.length);
    }

    private static double maxAbs(double[] x) {
        double m = 0;
        for (double v : x) {
            m = Math.max(m, Math.abs(v));
        }
        return m;
    }

    private static double[][] concat(List<double[]> arrays) {
        return arrays.toArray(new double[0][]);
    }

    private static void add(XYChart chart, String name, double[] x, double[] y, Color colour, float width) {
        int k = Math.max(1, (x.length + MAX_POINTS - 1) / MAX_POINTS);
        int n = (x.length + k - 1) / k;
        double[] xs = new double[n];
        double[] ys = new double[n];
        for (int i = 0, j = 0; i < x.length; i += k, j++) {
            xs[j] = x[i];
            ys[j] = Double.isFinite(y[i]) ? y[i] : Double.NaN;
        }
        XYSeries s = chart.addSeries(name, xs, ys);
        s.setMarker(SeriesMarkers.NONE);
        s.setLineColor(colour);
        s.setLineWidth(width);
    }

    private static double[] ps(double[] fs) {
        double[] p = new double[fs.length];
        for (int i = 0; i < fs.length; i++) {
            p[i] = fs[i] / 1000.0;
        }
        return p;
    }
}
