package org.molten.forcefield.torchscript;

import org.junit.jupiter.api.Test;
import org.molten.core.Atoms;
import org.molten.core.ForceField;
import org.molten.forcefield.bundled.BundledModel;
import org.molten.forcefield.bundled.TestSet;
import org.molten.forcefield.student.ReferenceStudent;
import org.molten.structures.io.Frame;

import java.io.IOException;
import java.util.List;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.*;

/**
 * The shipped weights are the model the TorchScript export computes, and {@link BundledModel#baseline()} finds this
 * module's export through the service loader (moved here from forcefield's BundledModelTest with the export).
 */
class BundledBaselineTest {

    @Test
    void theServiceLoaderFindsTheTorchScriptBaseline() throws IOException {
        try (ForceField ts = BundledModel.baseline()) {
            assertInstanceOf(TorchScriptForceField.class, ts);
            assertEquals("torchscript:student-gfn2", ts.name());
        }
    }

    /**
     * The shipped safetensors file (on the optimised and the reference path) and the TorchScript
     * export (libtorch through DJL, float64) agree on every frame of the test set: forces to 1e-5
     * eV/Å, energies to 1e-5 eV per atom. Both hold the same float32 weights; the export computes
     * in float64 as the Java students do, so the margin covers summation order only.
     */
    @Test
    void shippedWeightsMatchTheTorchScriptExportOnTheTestSet() throws IOException {
        double worstF = 0, worstE = 0;
        int frames = 0;
        try (ForceField java = BundledModel.forceField(); ForceField ts = BundledModel.baseline();
             ForceField ref = new ReferenceStudent(BundledModel.weights())) {
            for (Map.Entry<String, List<Frame>> sys : TestSet.bundled().entrySet()) {
                List<Frame> list = sys.getValue();
                for (int k = 0; k < list.size(); k++) {
                    Atoms a = list.get(k).atoms().copy();
                    double[] fj = new double[3 * a.size()];
                    double[] ft = new double[3 * a.size()];
                    double ej = java.energyAndForces(a, fj);
                    double et = ts.energyAndForces(a, ft);
                    worstE = Math.max(worstE, Math.abs(ej - et) / a.size());
                    for (int c = 0; c < fj.length; c++) {
                        worstF = Math.max(worstF, Math.abs(fj[c] - ft[c]));
                    }
                    if (k < 2) {   // the reference path on the first frames of every system
                        double[] fr = new double[3 * a.size()];
                        double er = ref.energyAndForces(a, fr);
                        worstE = Math.max(worstE, Math.abs(er - et) / a.size());
                        for (int c = 0; c < fr.length; c++) {
                            worstF = Math.max(worstF, Math.abs(fr[c] - ft[c]));
                        }
                    }
                    frames++;
                }
            }
        }
        assertTrue(frames > 500, "test set too small: " + frames);
        assertTrue(worstF < 1e-5, "largest force difference " + worstF + " eV/Å");
        assertTrue(worstE < 1e-5, "largest energy difference " + worstE + " eV/atom");
    }
}
