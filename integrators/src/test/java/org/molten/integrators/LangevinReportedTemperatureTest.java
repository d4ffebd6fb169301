package org.molten.integrators;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Locale;
import org.junit.jupiter.api.Test;
import org.molten.core.Atoms;
import org.molten.core.ForceField;
import org.molten.core.Units;
import org.molten.integrators.thermostats.LangevinThermostat;

/**
 * BAOAB's full-step velocities are cold by ω²dt²/4 on a harmonic mode (Leimkuhler and Matthews
 * 2013); the kinetic energy a Langevin run reports (energy log, temperature) is the one just after
 * the O step, which is exact. 2,000 hydrogen atoms each on its own isotropic spring
 * (6,000 independent harmonic modes, all 3N thermalised) at ωdt = 0.3: the full-step estimator
 * sits at 1 − 0.09/4 = 0.9775 of kT/2 per mode, the reported one at 1 (strong friction, 0.3/fs, so that
 * 20 blocks of 150 steps resolve both to 0.07 %; measured 0.9770 and 0.9994).
 */
class LangevinReportedTemperatureTest {
    private static final double T = 300;
    private static final double DT_FS = 1.0;
    private static final double OMEGA_PER_FS = 0.3;

    /** Every atom tied to where it started by a spring of angular frequency {@code omega} (1/fs). */
    private static ForceField springs(double[] sites, double omegaPerFs) {
        return new ForceField() {
            @Override
            public String name() {
                return "springs";
            }

            @Override
            public double energyAndForces(Atoms atoms, double[] forces) {
                double e = 0;
                double[] r = atoms.positions();
                for (int i = 0; i < atoms.size(); i++) {
                    double k = omegaPerFs * omegaPerFs * atoms.massAmu(i) / Units.ACCEL_A_PER_FS2;  // eV/Å²
                    for (int c = 0; c < 3; c++) {
                        double d = r[3 * i + c] - sites[3 * i + c];
                        forces[3 * i + c] = -k * d;
                        e += 0.5 * k * d * d;
                    }
                }
                return e;
            }
        };
    }

    @Test
    void theReportedKineticEnergyIsFreeOfTheFullStepBias() {
        int n = 2000;
        int[] z = new int[n];
        double[] r = new double[3 * n];
        for (int i = 0; i < n; i++) {
            z[i] = 1;
            r[3 * i] = 3.0 * (i % 20);
            r[3 * i + 1] = 3.0 * ((i / 20) % 10);
            r[3 * i + 2] = 3.0 * (i / 200);
        }
        Atoms atoms = Atoms.of(z, r, null);
        int equilibrate = 100;
        int samples = 3000;
        int blocks = 20;
        double[] reportedBlock = new double[blocks];
        double[] fullBlock = new double[blocks];
        int dof;
        try (ForceField ff = springs(r.clone(), OMEGA_PER_FS);
             Simulation sim = Simulation.builder(atoms, ff,
                             new VelocityVerlet(DT_FS, LangevinThermostat.of(T, 0.3).keepingCentreOfMassMotion()))
                     .seed(2026).temperature(T).platform("cpu").build()) {
            dof = sim.degreesOfFreedom();
            sim.step(equilibrate);
            for (int s = 0; s < samples; s++) {
                sim.step(1);
                reportedBlock[s * blocks / samples] += sim.reportedKineticEnergyEv() / (samples / blocks);
                fullBlock[s * blocks / samples] += sim.kineticEnergyEv() / (samples / blocks);
            }
        }
        double half = 0.5 * dof * Units.BOLTZMANN_EV_PER_K * T;
        double[] reported = meanAndError(reportedBlock, half);
        double[] full = meanAndError(fullBlock, half);
        double predicted = 1 - OMEGA_PER_FS * DT_FS * OMEGA_PER_FS * DT_FS / 4;
        String ctx = String.format(Locale.ROOT, "dof %d, omega dt %.2f: <K> / (dof kT/2) reported %.4f +- %.4f, full-step"
                + " %.4f +- %.4f (predicted %.4f)", dof, OMEGA_PER_FS * DT_FS, reported[0], reported[1], full[0], full[1],
                predicted);
        System.out.println(ctx);
        assertEquals(3 * n, dof, ctx);
        assertTrue(reported[1] < 0.001 && full[1] < 0.001, ctx + ": the run does not resolve 0.3 %");
        assertEquals(predicted, full[0], 0.003, ctx + ": the full-step estimator's bias is not the predicted one");
        assertEquals(1.0, reported[0], 0.003, ctx + ": the reported kinetic energy is biased");
    }

    /** Mean of the block means over {@code scale} and its standard error. */
    private static double[] meanAndError(double[] blocks, double scale) {
        double m = 0;
        for (double b : blocks) {
            m += b / scale / blocks.length;
        }
        double v = 0;
        for (double b : blocks) {
            v += (b / scale - m) * (b / scale - m) / (blocks.length - 1);
        }
        return new double[] {m, Math.sqrt(v / blocks.length)};
    }
}
