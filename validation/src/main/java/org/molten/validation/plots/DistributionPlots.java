package org.molten.validation.plots;

import java.awt.Color;
import java.awt.Font;
import java.awt.RenderingHints;
import java.awt.Graphics2D;
import java.awt.image.BufferedImage;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.file.AtomicMoveNotSupportedException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import javax.imageio.ImageIO;
import org.knowm.xchart.BitmapEncoder;
import org.knowm.xchart.XYChart;
import org.knowm.xchart.XYChartBuilder;
import org.knowm.xchart.XYSeries;
import org.knowm.xchart.style.markers.SeriesMarkers;
import org.molten.validation.observables.HistogramData;
import org.molten.validation.observables.ObservableComparison;
import org.molten.validation.observables.ObservableKind;

/**
 * Overlaid histograms of structural observables, student against teacher: one PNG per
 * observable kind (bond lengths, bond angles, backbone dihedrals, O–O), a title band and a grid
 * of panels, {@value #COLUMNS} columns, one panel per observable with its JS divergence, W1
 * distance and verdict in its title. The teacher is drawn as a pale filled step histogram, the student as a
 * thin step line on top. Densities are in 1/unit; a periodic O–O panel shows g(r).
 *
 * <p>Writing is all or nothing: the PNG is drawn into a temporary file beside the target and
 * moved into place only when complete. Any failure — no fonts on a headless machine
 * ("Fontconfig head is null"), a JDK without java.desktop, an unwritable directory — deletes the
 * temporary file and ends in one {@link PlotException} whose message says which plot and why, so
 * the caller prints one warning and no empty or partial PNG is ever left behind.
 */
public final class DistributionPlots {
    /** Panels per row. */
    public static final int COLUMNS = 3;
    private static final Color STUDENT = new Color(0x1f, 0x77, 0xb4);
    private static final Color TEACHER = new Color(0xff, 0x7f, 0x0e, 0x90);
    private static final int PANEL_W = 480;
    private static final int PANEL_H = 320;
    private static final int HEADER_H = 34;

    private DistributionPlots() {}

    /** A plot that could not be written; nothing was left at its path. */
    public static final class PlotException extends IOException {
        private static final long serialVersionUID = 1L;

        PlotException(String message, Throwable cause) {
            super(message, cause);
        }
    }

    /** Draws a finished figure into a stream (the seam tests use to simulate a failing chart). */
    @FunctionalInterface
    interface Renderer {
        void render(OutputStream out) throws IOException;
    }

    /**
     * Writes one PNG per observable kind present in {@code comparisons} into {@code dir}, named
     * {@code <prefix>-<kind>.png} ({@code ala2-bond_length.png}, ...).
     *
     * @param title        figure title prefix ("alanine-dipeptide NVT")
     * @param studentLabel legend name of the student ("student")
     * @param teacherLabel legend name of the teacher ("GFN2-xTB")
     * @return the files written, in kind order
     * @throws PlotException at the first figure that fails (earlier figures stay; the failed one leaves nothing)
     */
    public static List<Path> writePerKind(Path dir, String prefix, String title, List<ObservableComparison> comparisons,
                                          String studentLabel, String teacherLabel) throws PlotException {
        Map<ObservableKind, List<ObservableComparison>> byKind = new LinkedHashMap<>();
        for (ObservableKind k : ObservableKind.values()) {
            List<ObservableComparison> of = comparisons.stream().filter(c -> c.kind() == k).toList();
            if (!of.isEmpty()) {
                byKind.put(k, of);
            }
        }
        List<Path> written = new ArrayList<>();
        for (Map.Entry<ObservableKind, List<ObservableComparison>> e : byKind.entrySet()) {
            Path file = dir.resolve(prefix + "-" + e.getKey().key() + ".png");
            write(file, title, e.getValue(), studentLabel, teacherLabel);
            written.add(file);
        }
        return written;
    }

    /**
     * Writes the overlaid histograms of {@code comparisons} as one grid PNG to {@code file}.
     *
     * @throws PlotException when the figure cannot be drawn or written (nothing is left at {@code file}'s path
     *                       but a previous version of it, which is replaced only by a complete one)
     */
    public static void write(Path file, String title, List<ObservableComparison> comparisons, String studentLabel,
                             String teacherLabel) throws PlotException {
        if (comparisons.isEmpty()) {
            throw new PlotException("plot " + file + " not drawn: no observables to draw", null);
        }
        writeSafely(file, out -> {
            List<XYChart> charts = new ArrayList<>();
            for (ObservableComparison c : comparisons) {
                charts.add(panel(c, studentLabel, teacherLabel));
            }
            // Composed here rather than by BitmapEncoder's grid, which needs rows × columns charts
            // exactly; a header band carries the figure title so the panel titles stay short.
            int cols = Math.min(COLUMNS, charts.size());
            int rows = (charts.size() + cols - 1) / cols;
            BufferedImage grid = new BufferedImage(cols * PANEL_W, HEADER_H + rows * PANEL_H, BufferedImage.TYPE_INT_RGB);
            Graphics2D g = grid.createGraphics();
            try {
                g.setRenderingHint(RenderingHints.KEY_TEXT_ANTIALIASING, RenderingHints.VALUE_TEXT_ANTIALIAS_ON);
                g.setColor(Color.WHITE);
                g.fillRect(0, 0, grid.getWidth(), grid.getHeight());
                g.setColor(Color.BLACK);
                g.setFont(new Font(Font.SANS_SERIF, Font.BOLD, 16));
                g.drawString(title + ": " + studentLabel + " vs " + teacherLabel, 10, HEADER_H - 10);
                for (int i = 0; i < charts.size(); i++) {
                    g.drawImage(BitmapEncoder.getBufferedImage(charts.get(i)), (i % cols) * PANEL_W,
                            HEADER_H + (i / cols) * PANEL_H, null);
                }
            } finally {
                g.dispose();
            }
            if (!ImageIO.write(grid, "png", out)) {
                throw new IOException("no PNG writer in this Java runtime");
            }
        });
    }

    /** Renders into a temporary file beside {@code file}, then moves it into place; on failure removes it. */
    static void writeSafely(Path file, Renderer renderer) throws PlotException {
        Path dir = file.toAbsolutePath().getParent();
        Path tmp = null;
        try {
            tmp = Files.createTempFile(dir, "." + file.getFileName() + "-", ".part");
            try (OutputStream out = Files.newOutputStream(tmp)) {
                renderer.render(out);
            }
            makeReadable(tmp);
            if (Files.size(tmp) == 0) {
                throw new IOException("the renderer wrote nothing");
            }
            try {
                Files.move(tmp, file, StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
            } catch (AtomicMoveNotSupportedException e) {
                Files.move(tmp, file, StandardCopyOption.REPLACE_EXISTING);
            }
            tmp = null;
        } catch (OutOfMemoryError | StackOverflowError e) {
            // Not plotting problems. (InternalError is a VirtualMachineError too, but the one AWT
            // throws without fonts is exactly the plotting problem to report, so it is caught below.)
            throw e;
        } catch (IOException | RuntimeException | Error e) {
            // Error: java.awt's InternalError ("Fontconfig head is null"), NoClassDefFoundError
            // without java.desktop, UnsatisfiedLinkError without the native AWT libraries.
            throw new PlotException("plot " + file + " could not be drawn: " + reason(e), e);
        } finally {
            if (tmp != null) {
                try {
                    Files.deleteIfExists(tmp);
                } catch (IOException ignored) {
                    // Best effort: the reason already reported is the one that matters.
                }
            }
        }
    }

    /** Temporary files are created owner-only (0600); a plot is an ordinary file (0644 where POSIX). */
    private static void makeReadable(Path file) throws IOException {
        try {
            Files.setPosixFilePermissions(file, PosixFilePermissions.fromString("rw-r--r--"));
        } catch (UnsupportedOperationException e) {
            // Not a POSIX file system: its defaults apply.
        }
    }

    private static String reason(Throwable e) {
        String msg = e.getMessage() == null ? "" : e.getMessage();
        if (e instanceof NoClassDefFoundError || e instanceof UnsatisfiedLinkError) {
            return "the Java runtime lacks its desktop/graphics module (java.desktop): " + e;
        }
        if (msg.toLowerCase(Locale.ROOT).contains("fontconfig") || msg.toLowerCase(Locale.ROOT).contains("font")) {
            return "no fonts available to draw text (install fontconfig and a font package, e.g. fonts-dejavu-core): " + e;
        }
        return e.toString();
    }

    private static XYChart panel(ObservableComparison c, String studentLabel, String teacherLabel) {
        HistogramData s = c.student();
        HistogramData t = c.teacher();
        String verdict = c.passed() ? "pass" : "FAIL";
        String stats = Double.isNaN(c.jensenShannon()) ? c.reason()
                : String.format(Locale.ROOT, "JS %.3f, W1 %.3g %s: %s", c.jensenShannon(), c.wasserstein1(), c.unit(), verdict);
        XYChart chart = new XYChartBuilder().width(PANEL_W).height(PANEL_H)
                .title(c.name() + " (" + stats + ")")
                .xAxisTitle(axisTitle(c)).yAxisTitle(s.valueLabel()).build();
        chart.getStyler().setMarkerSize(0);
        chart.getStyler().setChartBackgroundColor(Color.WHITE);
        chart.getStyler().setPlotGridLinesColor(new Color(0xdd, 0xdd, 0xdd));
        chart.getStyler().setLegendPosition(org.knowm.xchart.style.Styler.LegendPosition.InsideNE);
        int[] range = visibleBins(c);
        addSteps(chart, teacherLabel + " (" + c.teacherSamples() + ")", t, range, TEACHER, true);
        addSteps(chart, studentLabel + " (" + c.studentSamples() + ")", s, range, STUDENT, false);
        return chart;
    }

    private static String axisTitle(ObservableComparison c) {
        return switch (c.kind()) {
            case BOND_LENGTH -> "bond length [Å]";
            case BOND_ANGLE -> "angle [deg]";
            case BACKBONE_DIHEDRAL -> "dihedral [deg]";
            case OO_RADIAL_DISTRIBUTION, OO_DISTANCE -> "r(O-O) [Å]";
        };
    }

    /** Bins to show: the whole circle for dihedrals and the whole g(r); otherwise the occupied bins with a margin. */
    private static int[] visibleBins(ObservableComparison c) {
        int n = c.student().counts().length;
        if (c.kind() == ObservableKind.BACKBONE_DIHEDRAL || c.kind() == ObservableKind.OO_RADIAL_DISTRIBUTION) {
            return new int[] {0, n};
        }
        int first = n;
        int last = -1;
        for (HistogramData h : List.of(c.student(), c.teacher())) {
            long[] counts = h.counts();
            for (int k = 0; k < n; k++) {
                if (counts[k] > 0) {
                    first = Math.min(first, k);
                    last = Math.max(last, k);
                }
            }
        }
        if (last < 0) {
            return new int[] {0, n};
        }
        int margin = Math.max(3, (last - first) / 5);
        return new int[] {Math.max(0, first - margin), Math.min(n, last + 1 + margin)};
    }

    /** A step histogram over bins [from, to): x at the left bin edges plus the last right edge. */
    private static void addSteps(XYChart chart, String name, HistogramData h, int[] range, Color colour, boolean filled) {
        int from = range[0];
        int to = range[1];
        double[] x = new double[to - from + 1];
        double[] y = new double[to - from + 1];
        double[] v = h.values();
        for (int k = from; k < to; k++) {
            x[k - from] = h.lower() + k * h.binWidth();
            y[k - from] = v[k];
        }
        x[to - from] = h.lower() + to * h.binWidth();
        y[to - from] = to > from ? v[to - 1] : 0;
        XYSeries s = chart.addSeries(name, x, y);
        s.setXYSeriesRenderStyle(filled ? XYSeries.XYSeriesRenderStyle.StepArea : XYSeries.XYSeriesRenderStyle.Step);
        s.setMarker(SeriesMarkers.NONE);
        s.setLineColor(colour);
        s.setLineWidth(filled ? 1.0f : 1.5f);
        if (filled) {
            s.setFillColor(colour);
        }
    }
}
