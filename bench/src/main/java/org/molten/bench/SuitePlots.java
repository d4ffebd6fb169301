package org.molten.bench;

import org.knowm.xchart.BitmapEncoder;
import org.knowm.xchart.XYChart;
import org.knowm.xchart.XYChartBuilder;
import org.knowm.xchart.XYSeries;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/** PNG plots of median latency against atom count, log-log, one series per configuration (XChart). */
public final class SuitePlots {
    private SuitePlots() {}

    /** Writes energy-forces.png and md-step.png into {@code dir}; returns the files written. */
    public static List<Path> write(Path dir, List<ConfigResult> results) throws IOException {
        Files.createDirectories(dir);
        List<Path> out = new ArrayList<>();
        Path ef = plot(dir.resolve("latency-energy-forces.png"), "Energy + forces latency", results, true);
        if (ef != null) {
            out.add(ef);
        }
        Path md = plot(dir.resolve("latency-md-step.png"), "MD step latency (velocity Verlet, 0.5 fs)", results, false);
        if (md != null) {
            out.add(md);
        }
        return out;
    }

    private static Path plot(Path file, String title, List<ConfigResult> results, boolean energyForces) throws IOException {
        Map<String, List<double[]>> series = new LinkedHashMap<>();
        for (ConfigResult r : results) {
            SampleStats s = energyForces ? r.energyForces() : r.mdStep();
            if (r.status() == ConfigResult.Status.ok && s != null) {
                series.computeIfAbsent(r.device() + " " + r.config(), k -> new ArrayList<>())
                        .add(new double[]{r.atoms(), s.medianUs()});
            }
        }
        if (series.isEmpty()) {
            return null;
        }
        XYChart chart = new XYChartBuilder().width(900).height(600).title(title).xAxisTitle("atoms")
                .yAxisTitle("median µs").build();
        chart.getStyler().setXAxisLogarithmic(true).setYAxisLogarithmic(true);
        chart.getStyler().setDefaultSeriesRenderStyle(XYSeries.XYSeriesRenderStyle.Line);
        for (Map.Entry<String, List<double[]>> e : series.entrySet()) {
            List<double[]> pts = e.getValue();
            pts.sort((a, b) -> Double.compare(a[0], b[0]));
            double[] x = new double[pts.size()];
            double[] y = new double[pts.size()];
            for (int i = 0; i < x.length; i++) {
                x[i] = pts.get(i)[0];
                y[i] = pts.get(i)[1];
            }
            chart.addSeries(e.getKey(), x, y);
        }
        BitmapEncoder.saveBitmap(chart, file.toString(), BitmapEncoder.BitmapFormat.PNG);
        return file;
    }
}
