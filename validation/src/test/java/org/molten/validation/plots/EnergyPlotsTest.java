package org.molten.validation.plots;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.knowm.xchart.XYChart;
import org.knowm.xchart.XYSeries;
import org.molten.core.RandomStream;
import org.molten.validation.runs.EnergySeries;

/** The drift panel's fit and band, difference panels for coinciding traces, tick patterns and safe files. */
class EnergyPlotsTest {
    private static final long SEED = 17;
    @TempDir
    Path dir;

    @AfterEach
    void restoreEncoder() {
        PngFiles.reset();
    }

    /** 10 atoms, 201 samples over 1 ps: E_tot drifts by {@code driftMeV} meV/atom/ps plus noise. */
    private static EnergySeries series(double driftMeV, long seed) {
        RandomStream rng = new RandomStream(seed);
        EnergySeries s = new EnergySeries();
        for (int i = 0; i <= 200; i++) {
            double tFs = 5.0 * i;
            double ekin = 0.4 + 0.02 * rng.nextGaussian();
            double etot = -100 + driftMeV * 1e-3 * 10 * tFs / 1000 + 1e-4 * rng.nextGaussian();
            s.add(10L * i, tFs, etot - ekin, ekin, 300 + 20 * rng.nextGaussian(), 0.0);
        }
        return s;
    }

    private static XYSeries seriesNamed(XYChart c, String prefix) {
        return c.getSeriesMap().values().stream().filter(s -> s.getName().startsWith(prefix)).findFirst().orElse(null);
    }

    @Test
    void theDriftPanelShowsTheFittedLineAndTheThresholdBand() {
        EnergySeries opt = series(0.8, SEED), base = series(-0.3, SEED + 1);
        List<XYChart> charts = EnergyPlots.energyCharts("water NVE", List.of(new EnergyPlots.Curve("optimised", opt),
                new EnergyPlots.Curve("baseline", base)), 10, Double.NaN, 2.0);
        XYChart etot = charts.get(0);
        XYSeries fit = seriesNamed(etot, "fit: ");
        double slope = (fit.getYData()[1] - fit.getYData()[0]) / (fit.getXData()[1] - fit.getXData()[0]);
        assertEquals(0.8, slope, 0.05, "fitted drift in meV/atom/ps (seed " + SEED + ")");
        XYSeries upper = seriesNamed(etot, "limit +2"), lower = seriesNamed(etot, "limit -2");
        double intercept = fit.getYData()[0] - slope * fit.getXData()[0];
        assertEquals(intercept + 2.0 * 1.0, upper.getYData()[1], 1e-9, "band: intercept + limit x t at 1 ps");
        assertEquals(intercept - 2.0 * 1.0, lower.getYData()[1], 1e-9);
        assertEquals(intercept, upper.getYData()[0], 1e-9, "the band starts at the fit's intercept (t = 0)");
        assertTrue(etot.getSeriesMap().containsKey("baseline"), "distinct traces are both drawn");
        // without a limit (NVT) neither fit nor band
        XYChart nvt = EnergyPlots.energyCharts("water NVT", List.of(new EnergyPlots.Curve("optimised", opt)), 10, 300,
                Double.NaN).get(0);
        assertNull(seriesNamed(nvt, "fit: "));
        assertNull(seriesNamed(nvt, "limit"));
    }

    @Test
    void coincidingTracesArePlottedAsTheirDifference() {
        EnergySeries opt = series(0.5, SEED), same = series(0.5, SEED), other = series(0.5, SEED + 2);
        List<XYChart> charts = EnergyPlots.energyCharts("benzene NVE", List.of(new EnergyPlots.Curve("optimised", opt),
                new EnergyPlots.Curve("baseline", same)), 10, Double.NaN, 2.0);
        for (XYChart c : charts.subList(1, 4)) {
            assertTrue(c.getTitle().endsWith("(traces coincide: difference shown)"), c.getTitle());
            assertEquals(List.of("optimised - baseline"), List.copyOf(c.getSeriesMap().keySet()));
            assertTrue(java.util.Arrays.stream(c.getSeriesMap().get("optimised - baseline").getYData()).allMatch(y -> y == 0.0));
        }
        // the drift panel keeps the optimised trace, fit and band; the identical baseline is named, not drawn
        XYChart etot = charts.get(0);
        assertTrue(etot.getTitle().endsWith("total energy (baseline identical)"), etot.getTitle());
        assertTrue(!etot.getSeriesMap().containsKey("baseline") && etot.getSeriesMap().containsKey("optimised"));
        // traces that differ by noise are both drawn
        charts = EnergyPlots.energyCharts("benzene NVE", List.of(new EnergyPlots.Curve("optimised", opt),
                new EnergyPlots.Curve("baseline", other)), 10, Double.NaN, 2.0);
        assertTrue(charts.get(2).getSeriesMap().containsKey("baseline"), charts.get(2).getTitle());

        double[] t = {0, 1, 2, 3}, a = {1, 2, 1, 2};
        assertArrayEquals(new double[] {1e-4, 0, 0, 0},
                EnergyPlots.coincidingDifference(t, a, t, new double[] {1 - 1e-4, 2, 1, 2}), 1e-12, "1e-4 < 1e-3 x sd 0.5");
        assertNull(EnergyPlots.coincidingDifference(t, a, t, new double[] {1 - 1e-3, 2, 1, 2}), "1e-3 > 1e-3 x sd 0.5");
        assertNull(EnergyPlots.coincidingDifference(t, a, new double[] {0, 1, 2, 4}, a), "different sample times");
    }

    @Test
    void tickLabelsHaveTheSameDecimalsAlongAnAxis() {
        assertEquals("0.00", AxisPatterns.forRange(0, 0.25), "steps of 0.05 read 0.00 0.05 0.10, not .05");
        assertEquals("0.0", AxisPatterns.forRange(0, 1.0));
        assertEquals("0", AxisPatterns.forRange(280, 320));
        assertEquals("0.000", AxisPatterns.forRange(-0.012, 0.004));
        assertEquals("0.0##E0", AxisPatterns.forRange(0, 3e-9));
        assertEquals("0.0", AxisPatterns.forRange(0, 0));
        assertEquals("0", AxisPatterns.forRange(300, 300), "a flat line at 300 K");
        XYChart temp = EnergyPlots.energyCharts("water NVT", List.of(new EnergyPlots.Curve("optimised", series(0, SEED))),
                10, 300, Double.NaN).get(3);
        assertEquals("0", temp.getStyler().getYAxisDecimalPattern());
    }

    @Test
    void aMachineThatCannotDrawLeavesNoFileAndIsReportedOnceTheSame() throws IOException {
        int[] calls = {0};
        PngFiles.encoder = (charts, rows, columns, out) -> {
            calls[0]++;
            out.write(new byte[] {(byte) 0x89, 'P', 'N', 'G'}); // a partial image, then the JDK's font failure
            throw new NullPointerException("Fontconfig head is null, check your fonts or fonts configuration") {
                @Override
                public StackTraceElement[] getStackTrace() {
                    return new StackTraceElement[] {new StackTraceElement("sun.awt.FontConfiguration", "head", null, 1)};
                }
            };
        };
        List<EnergyPlots.Curve> curves = List.of(new EnergyPlots.Curve("optimised", series(0, SEED)));
        Path a = dir.resolve("water-nve.png"), b = dir.resolve("water-nvt.png");
        PlotsUnavailableException first = assertThrows(PlotsUnavailableException.class,
                () -> EnergyPlots.writeEnergies(a, "water NVE", curves, 10, Double.NaN, 2.0));
        PlotsUnavailableException second = assertThrows(PlotsUnavailableException.class,
                () -> EnergyPlots.writeEnergies(b, "water NVT", curves, 10, 300, Double.NaN));
        assertSame(first, second, "one failure, one message, for every plot");
        assertEquals(1, calls[0], "later plots are not attempted");
        assertTrue(first.getMessage().startsWith("plots skipped: this machine cannot draw them"), first.getMessage());
        assertTrue(first.getMessage().contains("Fontconfig head is null"), first.getMessage());
        try (Stream<Path> left = Files.list(dir)) {
            assertEquals(List.of(), left.toList(), "no PNG and no temporary file is left behind");
        }

        // a data error is not mistaken for a machine that cannot draw
        PngFiles.reset();
        PngFiles.encoder = (charts, rows, columns, out) -> {
            throw new IllegalArgumentException("bad series");
        };
        assertThrows(IllegalArgumentException.class, () -> EnergyPlots.writeEnergies(a, "x", curves, 10, Double.NaN));
        PngFiles.reset();
        EnergyPlots.writeEnergies(a, "water NVE", curves, 10, Double.NaN, 2.0);
        assertTrue(Files.size(a) > 1000, "a real PNG");
        try (Stream<Path> left = Files.list(dir)) {
            assertEquals(List.of(a), left.toList());
        }
    }
}
