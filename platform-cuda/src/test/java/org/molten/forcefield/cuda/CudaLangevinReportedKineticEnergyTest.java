package org.molten.forcefield.cuda;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.util.List;
import java.util.Locale;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.molten.core.Atoms;
import org.molten.core.Observables;
import org.molten.core.Units;
import org.molten.core.dynamics.DynamicsSpec;
import org.molten.core.dynamics.ReplicaStart;
import org.molten.forcefield.student.StudentWeights;

/**
 * The kinetic energy the device reports for a Langevin (BAOAB) step is the host's
 * (LangevinThermostat): the kinetic energy just after the O step,
 * free of the full-step velocities' O(dt²) bias, not the kinetic energy of the velocities it holds.
 * That this estimator is unbiased is shown on the host (integrators' LangevinReportedTemperatureTest,
 * harmonic modes at ωdt = 0.3); here the device must compute the same quantity.
 */
class CudaLangevinReportedKineticEnergyTest {
    private static final double T = 300;

    @BeforeEach
    void needsGpu() {
        assumeTrue(CudaTestSupport.gpu(), CudaTestSupport::whyNot);
    }

    /**
     * Without friction the O step leaves the velocities alone, so the kinetic energy after it is
     * that of v(t) − (dt/2) F(t)/m, which the host computes from the state and forces it reads back:
     * the same definition, to rounding. Two replicas run the stage kernels, one alone the small-molecule
     * kernel, which runs the thermostats inside its step since issue 29: both report it.
     */
    @ParameterizedTest
    @ValueSource(ints = {2, 1})
    void withoutFrictionTheReportedKineticEnergyIsThatOfTheMidStepVelocities(int replicas) {
        long seed = 41;
        double dt = 0.5;
        DynamicsSpec d = new DynamicsSpec.Langevin(dt, T, 0.0, false);
        Atoms mol = CudaDynamicsTest.ethanol();
        List<ReplicaStart> starts = CudaDynamicsTest.replicas(mol, d, replicas, seed, 27);
        CudaOptions options = replicas == 1 ? MoleculeThermostatTest.molecule(5) : CudaDynamicsTest.stages(5);
        StudentWeights w = replicas == 1 ? MoleculeThermostatTest.weights(seed) : CudaDynamicsTest.weights(seed);
        try (CudaMdEngine md = new CudaMdEngine(w, starts, options)) {
            assertTrue(md.reportedKineticEnergyEv(0).isEmpty(), "no O step yet: the velocities' kinetic energy is the one");
            md.advance(7);
            assertEquals(replicas == 1 ? "molecule" : "stages", md.mode(), "the kernels under test");
            for (int r = 0; r < replicas; r++) {
                Atoms a = mol.copy();
                double[] f = new double[3 * a.size()];
                md.read(r, a, f);
                double[] v = a.velocities();
                double mid = 0;
                for (int i = 0; i < a.size(); i++) {
                    for (int k = 0; k < 3; k++) {
                        double u = v[3 * i + k] - 0.5 * dt * f[3 * i + k] * Units.ACCEL_A_PER_FS2 / a.massAmu(i);
                        mid += 0.5 * a.massAmu(i) * u * u * Units.MV2_TO_EV;
                    }
                }
                double reported = md.reportedKineticEnergyEv(r).orElseThrow();
                String ctx = String.format(Locale.ROOT, "replica %d (seed %d): reported %.9f eV, mid-step velocities %.9f eV,"
                        + " full-step %.9f eV", r, seed, reported, mid, Observables.kineticEnergyEv(a));
                assertEquals(mid, reported, 1e-9 * mid + 1e-12, ctx);
            }
        }
    }
}
