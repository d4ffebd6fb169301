package org.molten.forcefield.teacher;

import org.molten.forcefield.bundled.TestSet;
import org.molten.structures.io.Frame;
import org.junit.jupiter.api.Test;

import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;

/**
 * The in-process teacher reproduces the shipped test set's labels, which the xtb command line made (total
 * GFN2-xTB energies in eV, forces in eV/Å, neutral closed shell, default accuracy, --norestart).
 */
class XtbTeacherLabelsTest {
    /**
     * Forces agree to within SCF convergence at xtb's default accuracy (eV/Å); measured 7e-7 (both start the SCF
     * from xtb's initial guess), labels stored to 1e-8 eV/Å.
     */
    private static final double FORCE_TOLERANCE_EV_PER_A = 1e-5;
    /** Total energies agree to within SCF convergence (eV); measured 5e-8, labels stored to 1e-8 eV. */
    private static final double ENERGY_TOLERANCE_EV = 1e-6;

    @Test
    void reproducesTheStoredTeacherLabelsOfEveryShippedSystem() throws Exception {
        TeacherTestSupport.requireLibxtb();
        double worstForce = 0;
        double worstEnergy = 0;
        try (XtbTeacher teacher = XtbTeacher.gfn2().build()) {
            for (String system : TestSet.SYSTEMS) {
                List<Frame> frames = TestSet.bundled(system);
                // three frames spread over the run (the largest system costs ~0.1-0.4 s per call here)
                for (int k : new int[]{0, frames.size() / 2, frames.size() - 1}) {
                    Frame frame = frames.get(k);
                    double[] label = frame.forcesEvPerA().orElseThrow();
                    double[] f = new double[label.length];
                    double e = teacher.energyAndForces(frame.atoms(), f);
                    String where = system + " frame " + k;
                    double de = Math.abs(e - frame.energyEv().getAsDouble());
                    worstEnergy = Math.max(worstEnergy, de);
                    assertEquals(frame.energyEv().getAsDouble(), e, ENERGY_TOLERANCE_EV, where + ": total energy (eV)");
                    for (int c = 0; c < label.length; c++) {
                        worstForce = Math.max(worstForce, Math.abs(f[c] - label[c]));
                        assertEquals(label[c], f[c], FORCE_TOLERANCE_EV_PER_A, where + ": force component " + c
                                + " (atom " + c / 3 + ", " + "xyz".charAt(c % 3) + ") in eV/Å");
                    }
                }
            }
        }
        System.out.printf("teacher vs stored labels: largest force difference %.2e eV/Å, energy %.2e eV%n",
                worstForce, worstEnergy);
    }
}
