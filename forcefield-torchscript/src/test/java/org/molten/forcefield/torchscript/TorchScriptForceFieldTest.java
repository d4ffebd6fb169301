package org.molten.forcefield.torchscript;

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.molten.core.Atoms;
import org.molten.core.Cell;
import org.molten.forcefield.bundled.TestSet;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;

import static org.junit.jupiter.api.Assertions.*;

/** The TorchScript baseline through DJL: exact forces, invariances, refused inputs, lifecycle. */
class TorchScriptForceFieldTest {
    private static TorchScriptForceField ts;
    private static Atoms ethanol;

    @BeforeAll
    static void open() throws IOException {
        ts = TorchScriptForceField.bundled();
        ethanol = TestSet.bundled("ethanol").get(3).atoms().copy();
    }

    @AfterAll
    static void close() {
        ts.close();
    }

    private static double energy(Atoms a) {
        return ts.energyAndForces(a, new double[3 * a.size()]);
    }

    @Test
    void reportsTheBundledModelsSpeciesAndCutoff() {
        assertArrayEquals(new int[]{1, 6, 7, 8}, ts.species());
        assertEquals(5.0, ts.cutoffA());
        assertEquals("torchscript:student-gfn2", ts.name());
    }

    @Test
    void forcesAreMinusTheGradientOfTheEnergy() {
        Atoms a = ethanol.copy();
        double[] f = new double[3 * a.size()];
        ts.energyAndForces(a, f);
        double h = 1e-4;   // Å; the module runs in float64
        double worst = 0;
        for (int k = 0; k < f.length; k++) {
            double[] p = a.positions();
            double x = p[k];
            p[k] = x + h;
            double ep = energy(a);
            p[k] = x - h;
            double em = energy(a);
            p[k] = x;
            worst = Math.max(worst, Math.abs(-(ep - em) / (2 * h) - f[k]));
        }
        assertTrue(worst < 1e-6, "worst |F - F_fd| = " + worst + " eV/Å");
    }

    @Test
    void energyIsInvariantAndForcesRotateWithTheMolecule() {
        Atoms a = ethanol.copy();
        double[] f = new double[3 * a.size()];
        double e = ts.energyAndForces(a, f);
        double c = Math.cos(0.7), s = Math.sin(0.7);
        Atoms b = a.copy();
        double[] p = b.positions();
        for (int i = 0; i < b.size(); i++) {
            double x = p[3 * i], y = p[3 * i + 1];
            p[3 * i] = c * x - s * y + 3.0;
            p[3 * i + 1] = s * x + c * y - 1.0;
            p[3 * i + 2] += 0.5;
        }
        double[] g = new double[f.length];
        assertEquals(e, ts.energyAndForces(b, g), 1e-9);
        for (int i = 0; i < b.size(); i++) {
            assertEquals(c * f[3 * i] - s * f[3 * i + 1], g[3 * i], 1e-9);
            assertEquals(s * f[3 * i] + c * f[3 * i + 1], g[3 * i + 1], 1e-9);
            assertEquals(f[3 * i + 2], g[3 * i + 2], 1e-9);
        }
    }

    @Test
    void refusesWhatItCannotEvaluate() {
        Atoms periodic = ethanol.withCell(Cell.orthorhombic(20, 20, 20));
        IllegalArgumentException e1 = assertThrows(IllegalArgumentException.class,
                () -> ts.energyAndForces(periodic, new double[3 * periodic.size()]));
        assertTrue(e1.getMessage().contains("non-periodic"), e1.getMessage());

        Atoms sulfur = Atoms.of(new int[]{16, 1}, new double[]{0, 0, 0, 1.34, 0, 0}, null);
        IllegalArgumentException e2 = assertThrows(IllegalArgumentException.class,
                () -> ts.energyAndForces(sulfur, new double[6]));
        assertTrue(e2.getMessage().contains("element S"), e2.getMessage());

        assertThrows(IllegalArgumentException.class, () -> ts.energyAndForces(ethanol, new double[5]));
        Atoms nan = ethanol.copy();
        nan.positions()[4] = Double.NaN;
        assertThrows(IllegalArgumentException.class, () -> ts.energyAndForces(nan, new double[3 * nan.size()]));
    }

    @Test
    void refusesMissingAndForeignFiles(@TempDir Path dir) throws IOException {
        IOException missing = assertThrows(IOException.class, () -> TorchScriptForceField.load(dir.resolve("none.pt")));
        assertTrue(missing.getMessage().contains("none.pt"), missing.getMessage());
        Path junk = Files.writeString(dir.resolve("junk.pt"), "not a TorchScript archive");
        IOException foreign = assertThrows(IOException.class, () -> TorchScriptForceField.load(junk));
        assertTrue(foreign.getMessage().contains("junk.pt"), foreign.getMessage());
    }

    @Test
    void aClosedForceFieldRefusesCalls() throws IOException {
        TorchScriptForceField other = TorchScriptForceField.bundled();
        double e = other.energyAndForces(ethanol, new double[3 * ethanol.size()]);
        assertEquals(energy(ethanol), e, 1e-12);
        other.close();
        other.close();   // idempotent
        assertThrows(IllegalStateException.class, () -> other.energyAndForces(ethanol, new double[3 * ethanol.size()]));
    }
}
