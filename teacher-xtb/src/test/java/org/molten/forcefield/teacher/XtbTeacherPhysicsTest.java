package org.molten.forcefield.teacher;

import org.molten.core.Atoms;
import org.molten.structures.BuiltInMolecules;
import org.junit.jupiter.api.Test;

import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The teacher's forces are the negative gradient of its energy, in eV/Å of an energy in eV. */
class XtbTeacherPhysicsTest {
    /**
     * Central-difference step (Å). The difference quotient's error is its truncation, h²/6 |E'''|: measured 9.7e-5
     * eV/Å at h = 1e-3 and 2.4e-5 at 5e-4 (water's O-H stretch), scaling as h²; the SCF noise at accuracy 1e-4,
     * divided by 2h, is smaller.
     */
    private static final double STEP_A = 5e-4;
    /** Force tolerance (eV/Å), against forces of 0.1-3.5 eV/Å in these geometries. */
    private static final double TOLERANCE_EV_PER_A = 1e-4;

    @Test
    void forcesAreMinusTheEnergyGradientByCentralDifferences() {
        TeacherTestSupport.requireLibxtb();
        try (XtbTeacher teacher = XtbTeacher.gfn2().accuracy(1e-4).build()) {
            for (String name : List.of("water", "ethanol")) {
                Atoms atoms = BuiltInMolecules.load(name);
                // away from the optimised minimum, so that forces are not all ~0
                double[] p = atoms.positions();
                for (int k = 0; k < p.length; k++) {
                    p[k] += 0.05 * Math.sin(1.7 * k + 0.3);
                }
                double[] f = new double[p.length];
                teacher.energyAndForces(atoms, f);
                double largest = 0;
                double worst = 0;
                double[] scratch = new double[p.length];
                for (int k = 0; k < p.length; k++) {
                    double x = p[k];
                    p[k] = x + STEP_A;
                    double ePlus = teacher.energyAndForces(atoms, scratch);
                    p[k] = x - STEP_A;
                    double eMinus = teacher.energyAndForces(atoms, scratch);
                    p[k] = x;
                    double numeric = -(ePlus - eMinus) / (2 * STEP_A);
                    assertEquals(numeric, f[k], TOLERANCE_EV_PER_A, name + ": force component " + k
                            + " (atom " + k / 3 + ", " + "xyz".charAt(k % 3) + ") in eV/Å against -dE/dx");
                    largest = Math.max(largest, Math.abs(f[k]));
                    worst = Math.max(worst, Math.abs(numeric - f[k]));
                }
                System.out.printf("%s: forces against central differences (h = %.0e Å): largest difference %.2e eV/Å"
                        + " of forces up to %.2f eV/Å%n", name, STEP_A, worst, largest);
                assertTrue(largest > 0.1, name + ": largest force " + largest + " eV/Å, the test would be weak");
            }
        }
    }

    /** An isolated molecule feels no net force (xtb's gradient is translation invariant). */
    @Test
    void netForceVanishes() {
        TeacherTestSupport.requireLibxtb();
        try (XtbTeacher teacher = XtbTeacher.gfn2().build()) {
            Atoms atoms = BuiltInMolecules.load("alanine-dipeptide");
            double[] p = atoms.positions();
            for (int k = 0; k < p.length; k++) {
                p[k] += 0.03 * Math.cos(2.3 * k);
            }
            double[] f = new double[p.length];
            teacher.energyAndForces(atoms, f);
            for (int c = 0; c < 3; c++) {
                double sum = 0;
                for (int i = 0; i < atoms.size(); i++) {
                    sum += f[3 * i + c];
                }
                assertEquals(0, sum, 1e-6, "net force along " + "xyz".charAt(c) + " (eV/Å)");
            }
        }
    }
}
