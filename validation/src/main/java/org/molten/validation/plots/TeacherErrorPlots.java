package org.molten.validation.plots;

import java.awt.Color;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.ArrayList;
import java.util.List;
import org.knowm.xchart.BitmapEncoder;
import org.knowm.xchart.CategoryChart;
import org.knowm.xchart.CategoryChartBuilder;
import org.knowm.xchart.XYChart;
import org.knowm.xchart.XYChartBuilder;
import org.knowm.xchart.XYSeries;
import org.knowm.xchart.style.Styler;
import org.knowm.xchart.style.markers.SeriesMarkers;
import org.molten.validation.metrics.TeacherErrors;

/**
 * The student against its teacher on the student's own trajectories: one bar per atom (force MAE
 * in eV/Å, labelled by element and index, the threshold as a line) and the per-frame force MAE
 * against time. Written to a temporary file and moved into place, so a failure (no fonts) leaves
 * no partial PNG behind.
 */
public final class TeacherErrorPlots {
    private static final Color BARS = new Color(0x1f, 0x77, 0xb4);
    private static final Color LIMIT = new Color(0xd6, 0x27, 0x28);

    private TeacherErrorPlots() {}

    /** Writes the two panels for {@code r} to {@code file}; {@code limitEvPerA} is drawn as the threshold. */
    public static void write(Path file, String title, TeacherErrors.Result r, double limitEvPerA) throws IOException {
        List<String> labels = new ArrayList<>();
        List<Double> values = new ArrayList<>();
        for (TeacherErrors.AtomError a : r.perAtom()) {
            labels.add(a.element() + a.index());
            values.add(a.forceMaeEvPerA());
        }
        CategoryChart bars = new CategoryChartBuilder().width(720).height(360).title(title + ": force error per atom")
                .xAxisTitle("atom").yAxisTitle("force MAE vs teacher [eV/A]").build();
        bars.getStyler().setLegendVisible(false);
        bars.getStyler().setYAxisDecimalPattern("0.000");
        bars.getStyler().setXAxisLabelRotation(labels.size() > 24 ? 90 : 0);
        bars.addSeries("MAE per atom", labels, values).setFillColor(BARS);

        XYChart series = new XYChartBuilder().width(720).height(360).title(title + ": force error along the runs")
                .xAxisTitle("frame (runs in order)").yAxisTitle("force MAE vs teacher [eV/A]").build();
        series.getStyler().setLegendPosition(Styler.LegendPosition.InsideNW);
        series.getStyler().setYAxisDecimalPattern("0.000");
        series.getStyler().setXAxisDecimalPattern("0");
        int m = r.series().size();
        double[] x = new double[Math.max(m, 1)];
        double[] y = new double[Math.max(m, 1)];
        for (int i = 0; i < m; i++) {
            x[i] = i;
            y[i] = r.series().get(i).forceMaeEvPerA();
        }
        XYSeries frames = series.addSeries("frame MAE", x, y);
        frames.setXYSeriesRenderStyle(XYSeries.XYSeriesRenderStyle.Scatter);
        frames.setMarker(SeriesMarkers.CIRCLE);
        frames.setMarkerColor(BARS);
        XYSeries limit = series.addSeries("limit " + limitEvPerA + " eV/A", new double[] {0, Math.max(1, m - 1)},
                new double[] {limitEvPerA, limitEvPerA});
        limit.setLineColor(LIMIT);
        limit.setMarker(SeriesMarkers.NONE);
        Path tmp = Files.createTempFile(file.toAbsolutePath().getParent(), ".teacher-errors", ".png");
        try {
            BitmapEncoder.saveBitmap(List.of(bars, series), 2, 1, tmp.toString(), BitmapEncoder.BitmapFormat.PNG);
            Files.move(tmp, file, StandardCopyOption.REPLACE_EXISTING);
        } finally {
            Files.deleteIfExists(tmp);
        }
    }
}
