package org.molten.validation.plots;

import java.awt.BasicStroke;
import java.awt.Color;
import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.knowm.xchart.BitmapEncoder;
import org.knowm.xchart.XYChart;
import org.knowm.xchart.XYChartBuilder;
import org.knowm.xchart.XYSeries;
import org.knowm.xchart.style.markers.SeriesMarkers;
import org.molten.validation.reports.BaselineComparison;
import org.molten.validation.runs.EnergySeries;

/**
 * Draws the plots of one system. Each energy figure has four panels against time in ps:
 * E_tot − E_tot(0) per atom (meV/atom, so that a drift is visible), E_pot (eV), E_kin (eV) and T
 * (K, with the target as a dashed line for NVT), the optimised model and the baseline overlaid.
 * Long series are thinned to at most {@link #MAX_POINTS} points per curve by taking every k-th.
 */
public final class EnergyPlots {
    /** Most points drawn per curve. */
    public static final int MAX_POINTS = 2000;
    private static final Color OPTIMISED = new Color(0x1f, 0x77, 0xb4);
    private static final Color BASELINE = new Color(0xd6, 0x27, 0x28, 0x80);
    private static final int PANEL_W = 640;
    private static final int PANEL_H = 360;

    private EnergyPlots() {}

    /** One curve to draw: a name for the legend and its series. */
    public record Curve(String name, EnergySeries series) {
    }

    /**
     * Writes a 2×2 PNG of the energies and temperature of {@code curves} (first: optimised,
     * second: baseline) to {@code file}.
     *
     * @param title        figure title ("water NVE")
     * @param atomCount    atoms, for the per-atom total energy
     * @param targetK      the thermostat target drawn on the temperature panel, or NaN for none
     */
    public static void writeEnergies(Path file, String title, List<Curve> curves, int atomCount, double targetK) throws IOException {
        XYChart etot = chart(title + ": total energy", "E_tot - E_tot(0) [meV/atom]");
        XYChart epot = chart(title + ": potential energy", "E_pot [eV]");
        XYChart ekin = chart(title + ": kinetic energy", "E_kin [eV]");
        XYChart temp = chart(title + ": temperature", "T [K]");
        // The baseline first, wide and pale, the optimised model on top, thin: where they agree
        // both stay visible.
        for (int c = curves.size() - 1; c >= 0; c--) {
            EnergySeries s = curves.get(c).series();
            if (s.size() == 0) {
                continue;
            }
            Color colour = c == 0 ? OPTIMISED : BASELINE;
            float width = c == 0 ? 1.0f : 3.0f;
            double[] t = ps(s.timeFs());
            double[] e = s.totalEv();
            double e0 = e[0];
            double[] de = new double[e.length];
            for (int i = 0; i < e.length; i++) {
                de[i] = (e[i] - e0) * 1000.0 / atomCount;
            }
            String name = curves.get(c).name();
            add(etot, name, t, de, colour, width);
            add(epot, name, t, s.potentialEv(), colour, width);
            add(ekin, name, t, s.kineticEv(), colour, width);
            add(temp, name, t, s.temperatureK(), colour, width);
        }
        if (Double.isFinite(targetK) && !temp.getSeriesMap().isEmpty()) {
            double tMax = curves.stream().filter(c -> c.series().size() > 0)
                    .mapToDouble(c -> c.series().timeFs()[c.series().size() - 1] / 1000.0).max().orElse(0);
            XYSeries line = temp.addSeries("target", new double[] {0, tMax}, new double[] {targetK, targetK});
            line.setMarker(SeriesMarkers.NONE);
            line.setLineColor(Color.DARK_GRAY);
            line.setLineStyle(new BasicStroke(1.2f, BasicStroke.CAP_BUTT, BasicStroke.JOIN_MITER, 10f, new float[] {6f, 4f}, 0f));
        }
        BitmapEncoder.saveBitmap(List.of(etot, epot, ekin, temp), 2, 2, file.toString(), BitmapEncoder.BitmapFormat.PNG);
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
            add(chart, "RMSD", t.stream().mapToDouble(Double::doubleValue).toArray(),
                    r.stream().mapToDouble(Double::doubleValue).toArray(), OPTIMISED, 1.2f);
        } else {
            // Identical trajectories (or too few samples): draw the raw points on a linear axis.
            double[] tt = points.stream().mapToDouble(p -> p.timeFs() / 1000.0).toArray();
            double[] rr = points.stream().mapToDouble(BaselineComparison.RmsdPoint::rmsdA).toArray();
            if (tt.length > 0) {
                add(chart, "RMSD", tt, rr, OPTIMISED, 1.2f);
            }
        }
        chart.getStyler().setLegendVisible(false);
        BitmapEncoder.saveBitmap(chart, file.toString(), BitmapEncoder.BitmapFormat.PNG);
    }

    private static XYChart chart(String title, String yTitle) {
        XYChart c = new XYChartBuilder().width(PANEL_W).height(PANEL_H).title(title).xAxisTitle("time [ps]")
                .yAxisTitle(yTitle).build();
        c.getStyler().setMarkerSize(0);
        c.getStyler().setChartBackgroundColor(Color.WHITE);
        c.getStyler().setPlotGridLinesColor(new Color(0xdd, 0xdd, 0xdd));
        c.getStyler().setLegendPosition(org.knowm.xchart.style.Styler.LegendPosition.InsideNE);
        c.getStyler().setXAxisDecimalPattern("0.0##");
        return c;
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
