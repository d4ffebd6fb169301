package org.molten.validation.plots;

import static org.junit.jupiter.api.Assertions.*;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.molten.core.Atoms;
import org.molten.structures.BuiltInMolecules;
import org.molten.validation.observables.DivergenceThresholds;
import org.molten.validation.observables.ObservableAccumulator;
import org.molten.validation.observables.ObservableComparison;
import org.molten.validation.observables.ObservableSet;

class DistributionPlotsTest {

    private static List<Path> filesIn(Path dir) throws IOException {
        try (Stream<Path> s = Files.list(dir)) {
            return s.toList();
        }
    }

    private static List<ObservableComparison> ethanolComparisons() {
        Atoms eth = BuiltInMolecules.load("ethanol");
        ObservableSet set = ObservableSet.of(eth);
        ObservableAccumulator a = new ObservableAccumulator(set);
        ObservableAccumulator b = new ObservableAccumulator(set);
        a.add(eth);
        double[] x = eth.positions().clone();
        x[0] += 0.02;
        b.add(x, null);
        return ObservableComparison.compareAll(a, b, DivergenceThresholds.defaults());
    }

    @Test
    void aRendererThatFailsHalfwayLeavesNoFileBehind(@TempDir Path dir) throws IOException {
        Path target = dir.resolve("ethanol-bond_length.png");
        var e = assertThrows(DistributionPlots.PlotException.class, () -> DistributionPlots.writeSafely(target, out -> {
            out.write(new byte[] {(byte) 0x89, 'P', 'N', 'G'});
            throw new InternalError("Fontconfig head is null, check your fonts or fonts configuration");
        }));
        assertTrue(e.getMessage().contains("ethanol-bond_length.png") && e.getMessage().contains("no fonts"), e.getMessage());
        assertEquals(List.of(), filesIn(dir), "neither the PNG nor its temporary file may remain");
    }

    @Test
    void aMissingDesktopModuleIsNamedAndAnEmptyRenderingIsRefused(@TempDir Path dir) throws IOException {
        Path target = dir.resolve("x.png");
        var e = assertThrows(DistributionPlots.PlotException.class,
                () -> DistributionPlots.writeSafely(target, out -> {
                    throw new NoClassDefFoundError("java/awt/Color");
                }));
        assertTrue(e.getMessage().contains("java.desktop"), e.getMessage());
        var e2 = assertThrows(DistributionPlots.PlotException.class, () -> DistributionPlots.writeSafely(target, out -> { }));
        assertTrue(e2.getMessage().contains("wrote nothing"), e2.getMessage());
        assertEquals(List.of(), filesIn(dir));
    }

    @Test
    void aFailureKeepsThePreviousCompletePlot(@TempDir Path dir) throws IOException {
        Path target = dir.resolve("old.png");
        Files.write(target, new byte[] {1, 2, 3});
        assertThrows(DistributionPlots.PlotException.class, () -> DistributionPlots.writeSafely(target, out -> {
            out.write(9);
            throw new IllegalStateException("chart failed");
        }));
        assertArrayEquals(new byte[] {1, 2, 3}, Files.readAllBytes(target));
        assertEquals(List.of(target), filesIn(dir));
    }

    @Test
    void anUnwritableDirectoryIsAClearFailure(@TempDir Path dir) {
        Path target = dir.resolve("no-such-dir").resolve("ethanol.png");
        var e = assertThrows(DistributionPlots.PlotException.class,
                () -> DistributionPlots.write(target, "ethanol", ethanolComparisons(), "student", "teacher"));
        assertTrue(e.getMessage().contains("ethanol.png"), e.getMessage());
        assertFalse(Files.exists(target));
    }

    @Test
    void writesOnePngPerKindOrFailsCleanly(@TempDir Path dir) throws IOException {
        List<ObservableComparison> cmp = ethanolComparisons();
        try {
            List<Path> files = DistributionPlots.writePerKind(dir, "ethanol", "ethanol NVT", cmp, "student", "GFN2-xTB");
            assertEquals(2, files.size(), "bond lengths and angles");
            assertEquals(4 + 5, cmp.size(), "ethanol: 4 bond types (a grid with an empty slot) and 5 angle types");
            for (Path f : files) {
                byte[] head = Arrays.copyOf(Files.readAllBytes(f), 4);
                assertArrayEquals(new byte[] {(byte) 0x89, 'P', 'N', 'G'}, head, f.toString());
            }
            assertEquals(2, filesIn(dir).size(), "no temporary file remains");
        } catch (DistributionPlots.PlotException e) {
            // Only a machine without fonts or java.desktop may fail here: the reason is given and
            // nothing is left behind. Any other failure is a defect of the plot code.
            assertTrue(e.getMessage().contains("no fonts") || e.getMessage().contains("java.desktop"), e.getMessage());
            assertEquals(List.of(), filesIn(dir), e.getMessage());
        }
    }
}
