package org.molten.sweep;

import java.awt.GraphicsEnvironment;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.knowm.xchart.BitmapEncoder;
import org.knowm.xchart.CategoryChart;
import org.knowm.xchart.CategoryChartBuilder;
import org.knowm.xchart.XYChart;
import org.knowm.xchart.XYChartBuilder;
import org.knowm.xchart.XYSeries;

/**
 * PNG plots of a sweep: stable fraction per model and system, and |NVE drift| of every task per
 * model. Without fonts (a bare container) no plot is drawn and one warning says so; a plot that
 * fails leaves no file behind.
 */
final class SweepPlots {
    /** Folder of the plots inside the output directory. */
    static final String DIR = "plots";

    private SweepPlots() {}

    /** Draws the plots; returns their paths relative to {@code outDir}. */
    static List<String> draw(SweepSummary summary, List<TaskResult> tasks, Path outDir, List<String> warnings) {
        if (!fontsAvailable()) {
            warnings.add("plots skipped: no fonts for Java's graphics on this machine (install fonts-dejavu-core)");
            return List.of();
        }
        List<String> written = new ArrayList<>();
        try {
            Files.createDirectories(outDir.resolve(DIR));
            written.add(save(stableChart(summary), outDir, DIR + "/stable-fraction.png"));
            XYChart drift = driftChart(tasks);
            if (drift != null) {
                written.add(save(drift, outDir, DIR + "/drift.png"));
            }
        } catch (IOException | RuntimeException | Error e) {
            warnings.add("plots incomplete: " + e);
        }
        return written;
    }

    private static boolean fontsAvailable() {
        try {
            return GraphicsEnvironment.getLocalGraphicsEnvironment().getAvailableFontFamilyNames().length > 0;
        } catch (RuntimeException | Error e) {  // headless JDK without fontconfig throws errors here
            return false;
        }
    }

    private static CategoryChart stableChart(SweepSummary s) {
        CategoryChart c = new CategoryChartBuilder().width(900).height(500).title("Stable fraction per model and system")
                .xAxisTitle("system (temperature K)").yAxisTitle("stable fraction").build();
        Map<String, Map<String, Double>> byModel = new LinkedHashMap<>();
        List<String> categories = new ArrayList<>();
        for (SweepSummary.Group g : s.groups()) {
            String cat = g.system() + " (" + Math.round(g.temperatureK()) + ")";
            if (!categories.contains(cat)) {
                categories.add(cat);
            }
            byModel.computeIfAbsent(g.model(), k -> new LinkedHashMap<>()).put(cat, g.stableFraction());
        }
        for (Map.Entry<String, Map<String, Double>> e : byModel.entrySet()) {
            List<Double> ys = new ArrayList<>();
            for (String cat : categories) {
                Double v = e.getValue().get(cat);
                ys.add(v == null ? 0.0 : v);
            }
            c.addSeries(e.getKey(), categories, ys);
        }
        c.getStyler().setYAxisMin(0.0).setYAxisMax(1.0);
        return c;
    }

    private static XYChart driftChart(List<TaskResult> tasks) {
        XYChart c = new XYChartBuilder().width(900).height(500).title("|NVE drift| of every task")
                .xAxisTitle("task").yAxisTitle("|drift| [meV/atom/ps]").build();
        c.getStyler().setDefaultSeriesRenderStyle(XYSeries.XYSeriesRenderStyle.Scatter);
        Map<String, List<double[]>> byModel = new LinkedHashMap<>();
        int i = 0;
        for (TaskResult t : tasks) {
            i++;
            Double d = t.metrics().driftMeVPerAtomPerPs();
            if (t.done() && d != null && Double.isFinite(d)) {
                byModel.computeIfAbsent(t.task().modelLabel(), k -> new ArrayList<>()).add(new double[] {i, Math.abs(d)});
            }
        }
        if (byModel.isEmpty()) {
            return null;
        }
        byModel.forEach((model, pts) -> c.addSeries(model, pts.stream().mapToDouble(p -> p[0]).toArray(),
                pts.stream().mapToDouble(p -> p[1]).toArray()));
        return c;
    }

    private static String save(org.knowm.xchart.internal.chartpart.Chart<?, ?> chart, Path outDir, String relative)
            throws IOException {
        Path tmp = Files.createTempFile(outDir.resolve(DIR), ".plot", ".png");
        try {
            BitmapEncoder.saveBitmap(chart, tmp.toString(), BitmapEncoder.BitmapFormat.PNG);
            Files.move(tmp, outDir.resolve(relative), StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
        } finally {
            Files.deleteIfExists(tmp);
        }
        return relative;
    }
}
