package org.molten.forcefield.cuda;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Random;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.molten.core.Atoms;
import org.molten.core.Cell;
import org.molten.core.Observables;
import org.molten.core.Units;
import org.molten.core.dynamics.DeviceDynamics;
import org.molten.core.dynamics.DevicePlatform;
import org.molten.core.dynamics.DynamicsSpec;
import org.molten.core.dynamics.ReplicaStart;
import org.molten.forcefield.classical.LennardJones;
import org.molten.forcefield.student.ReferenceStudent;
import org.molten.forcefield.student.StudentWeights;
import org.molten.integrators.Simulation;
import org.molten.integrators.Thermostat;
import org.molten.integrators.VelocityVerlet;
import org.molten.integrators.thermostats.BerendsenThermostat;
import org.molten.integrators.thermostats.NoseHooverChain;

/**
 * The CUDA platform's MD stack (CudaMdEngine as DeviceDynamics) through the emulator: canonical
 * sampling of every thermostat on a multi-element molecule (ethanol), the conserved energy with
 * the bath, replicas equal to the same systems run alone, restart bit for bit, the platform's
 * refusals. Seeds are fixed and printed in every failure message.
 */
class CudaDynamicsTest {
    static final double T = 300;

    @BeforeEach
    void needsGpu() {
        assumeTrue(CudaTestSupport.gpu(), CudaTestSupport::whyNot);
    }

    /** A small random student (fast under the emulator); the thermostat logic does not depend on its size. */
    static StudentWeights weights(long seed) {
        return StudentWeights.random(seed, new int[] {1, 6, 7, 8}, 32, 1, 12, 4.0, 16.0);
    }

    /** Ethanol (C2H5OH), Å. */
    static Atoms ethanol() {
        int[] z = {6, 6, 8, 1, 1, 1, 1, 1, 1};
        double[] r = {
            -0.047, 0.569, 0.0, 1.387, 0.089, 0.0, 2.144, 1.286, 0.0,
            -0.597, -0.364, 0.0, -0.331, 1.129, 0.890, -0.331, 1.129, -0.890,
            1.651, -0.495, 0.891, 1.651, -0.495, -0.891, 3.070, 0.981, 0.0};
        return Atoms.of(z, r, null);
    }

    /** Water, Å. */
    static Atoms water() {
        return Atoms.of(new int[] {8, 1, 1}, new double[] {0, 0, 0, 0.9572, 0, 0, -0.2400, 0.9266, 0}, null);
    }

    /** Gaussian velocities at {@code temperatureK}, zero total momentum. */
    static Atoms thermalised(Atoms a, double temperatureK, long seed) {
        Atoms x = a.copy();
        Random rnd = new Random(seed);
        double[] v = x.velocities();
        for (int i = 0; i < x.size(); i++) {
            double s = Math.sqrt(Units.BOLTZMANN_EV_PER_K * temperatureK * Units.ACCEL_A_PER_FS2 / x.massAmu(i));
            for (int k = 0; k < 3; k++) {
                v[3 * i + k] = s * rnd.nextGaussian();
            }
        }
        double[] p = Observables.linearMomentum(x);
        double m = x.totalMassAmu();
        for (int i = 0; i < x.size(); i++) {
            for (int k = 0; k < 3; k++) {
                v[3 * i + k] -= p[k] / m;
            }
        }
        return x;
    }

    /** What the host's run of {@link #hostRun} ends with: the last potential energy and the bath energy, eV. */
    record HostRun(double potentialEv, double bathEv) {
    }

    /**
     * The oracle of the device's deterministic thermostats: the production host integration users run, a
     * {@link Simulation} on the "reference" platform with {@link VelocityVerlet} and the {@link NoseHooverChain} or
     * {@link BerendsenThermostat} that {@code d} names, in float64 with the reference student's forces, for
     * {@code steps} steps of {@code atoms} (moved in place, their velocities kept). The simulation derives its degrees
     * of freedom itself; they must be the {@code dof} the device was given.
     */
    static HostRun hostRun(StudentWeights w, Atoms atoms, DynamicsSpec d, int dof, int steps) {
        Thermostat t = d instanceof DynamicsSpec.NoseHooverChain c
                ? new NoseHooverChain(c.temperatureK(), c.tauFs(), c.chainLength(), c.multipleTimeSteps(),
                        c.suzukiYoshidaWeights())
                : new BerendsenThermostat(((DynamicsSpec.Berendsen) d).temperatureK(), ((DynamicsSpec.Berendsen) d).tauFs());
        VelocityVerlet vv = new VelocityVerlet(d.timestepFs(), t);
        assertEquals(d, vv.dynamicsSpec().orElseThrow(), "the host integrator is not the device's dynamics");
        try (Simulation sim = Simulation.builder(atoms, new ReferenceStudent(w), vv).platform("reference").build()) {
            assertEquals(dof, sim.degreesOfFreedom(), d.name() + ": degrees of freedom of the host run");
            sim.step(steps);
            return new HostRun(sim.potentialEnergyEv(), vv.bathEnergyEv(dof));
        }
    }

    static CudaOptions stages(int k) {
        return CudaOptions.defaults().withMode(CudaOptions.Mode.STAGES).withStepsPerLaunch(k);
    }

    static List<ReplicaStart> replicas(Atoms molecule, DynamicsSpec d, int count, long seed, int dof) {
        List<ReplicaStart> out = new ArrayList<>();
        for (int r = 0; r < count; r++) {
            out.add(new ReplicaStart(thermalised(molecule, T, seed * 1000 + r), d, seed + r, dof));
        }
        return out;
    }

    /** Kinetic-energy statistics over replicas and time, and per element (C, H, O). */
    static final class KineticStats {
        double sum, sumSq;
        long samples;
        final double[] elementSum = new double[9];
        final long[] elementCount = new long[9];

        void add(Atoms a) {
            double k = Observables.kineticEnergyEv(a);
            sum += k;
            sumSq += k * k;
            samples++;
            double[] v = a.velocities();
            for (int i = 0; i < a.size(); i++) {
                double e = 0.5 * a.massAmu(i) * (v[3 * i] * v[3 * i] + v[3 * i + 1] * v[3 * i + 1]
                        + v[3 * i + 2] * v[3 * i + 2]) * Units.MV2_TO_EV;
                elementSum[a.atomicNumber(i)] += e;
                elementCount[a.atomicNumber(i)]++;
            }
        }

        double mean() {
            return sum / samples;
        }

        double variance() {
            double m = mean();
            return sumSq / samples - m * m;
        }

        double element(int z) {
            return elementSum[z] / elementCount[z];
        }
    }

    /**
     * Runs {@code replicas} ethanols, samples every step after {@code equilibrate}; checks on the way
     * that E_kin + E_pot + bath of each replica stays within {@code hTolerance} eV of its start.
     */
    static KineticStats sample(DynamicsSpec d, int dof, int replicas, int equilibrate, int samples, long seed,
                               double hTolerance) {
        Atoms mol = ethanol();
        KineticStats st = new KineticStats();
        try (CudaMdEngine md = new CudaMdEngine(weights(seed), replicas(mol, d, replicas, seed, dof), stages(5))) {
            Atoms a = mol.copy();
            double[] h0 = new double[replicas];
            for (int r = 0; r < replicas; r++) {
                double ep = md.read(r, a, null);
                h0[r] = ep + Observables.kineticEnergyEv(a);
            }
            md.advance(equilibrate);
            for (int b = 0; b < samples; b++) {
                md.advance(1);
                for (int r = 0; r < replicas; r++) {
                    double ep = md.read(r, a, null);
                    st.add(a);
                    double h = ep + Observables.kineticEnergyEv(a) + md.bathEnergyEv(r);
                    assertEquals(h0[r], h, hTolerance, d.name() + " (seed " + seed + ") replica " + r + " step "
                            + md.stepCount() + ": E_kin + E_pot + bath not conserved");
                }
            }
        }
        return st;
    }

    /**
     * Mean and variance of the kinetic energy against the canonical (dof/2) kT and (dof/2) (kT)^2,
     * and per element the mean atomic kinetic energy against (3/2) kT (1 - m/M) (centre of mass
     * fixed) or (3/2) kT.
     */
    static void assertCanonical(String what, KineticStats st, int dof, boolean comFixed, long seed) {
        double kT = Units.BOLTZMANN_EV_PER_K * T;
        double mean = st.mean();
        double var = st.variance();
        String ctx = String.format(Locale.ROOT, "%s (seed %d, %d samples): <K> = %.5f eV (canonical %.5f), var K = %.3e"
                        + " (canonical %.3e), per atom C %.5f H %.5f O %.5f (3/2 kT = %.5f)", what, seed, st.samples, mean,
                0.5 * dof * kT, var, 0.5 * dof * kT * kT, st.element(6), st.element(1), st.element(8), 1.5 * kT);
        assertEquals(0.5 * dof * kT, mean, 0.06 * 0.5 * dof * kT, ctx);
        assertEquals(0.5 * dof * kT * kT, var, 0.35 * 0.5 * dof * kT * kT, ctx);
        double total = ethanol().totalMassAmu();
        for (int z : new int[] {1, 6, 8}) {
            double m = org.molten.core.Element.ofAtomicNumber(z).massAmu;
            double expect = 1.5 * kT * (comFixed ? 1 - m / total : 1);
            assertEquals(expect, st.element(z), 0.2 * expect, ctx + ": element Z=" + z);
        }
    }

    /**
     * Bussi with tau far below dt draws the kinetic energy afresh from its canonical distribution at
     * every half step: 16 ethanols x 24 steps resolve the mean to ~2 %, so a thermostat aiming at
     * another number of degrees of freedom (27 instead of 24: +12 %) fails.
     */
    @Test
    void bussiSamplesTheCanonicalKineticEnergy() {
        long seed = 11;
        int dof = 3 * 9 - 3;  // momentum conserved and zero
        KineticStats st = sample(new DynamicsSpec.Bussi(0.5, T, 0.05), dof, 16, 2, 24, seed, 2e-3);
        assertCanonical("bussi", st, dof, true, seed);
    }

    /**
     * Langevin with strong friction (c = exp(-0.5) per step) re-draws most of each velocity every
     * step: per element the mean kinetic energy is (3/2) kT (1 - m/M), which a noise amplitude
     * without its 1/m fails at once (H would be 16 times colder than O). dt = 0.1 fs: the velocities
     * reported at full steps carry BAOAB's O(dt^2) bias (dt/2)^2 F^2/m^2 after the closing half kick,
     * which with the random model's forces on the H atoms is ~50 % at 0.5 fs and ~2 % at 0.1 fs.
     */
    @Test
    void langevinSamplesTheCanonicalKineticEnergyPerElement() {
        long seed = 13;
        // H to 1e-2 eV: the O step moves ~0.2 eV per step between the replica and the bath at this friction, so a
        // wrong account fails; the split drifts leave an O(dt^2) error of a few meV over the run
        KineticStats st = sample(new DynamicsSpec.Langevin(0.1, T, 5.0, true), 24, 16, 4, 20, seed, 1e-2);
        assertCanonical("langevin, drift removed", st, 24, true, seed);
    }

    /**
     * The deterministic thermostats (Nose-Hoover chain with multiple time steps and Suzuki-Yoshida
     * weights, Berendsen with its clamp) against the host's definitions step by step: the same
     * equations in float64 on the CPU with the reference student's forces (the production Simulation with
     * NoseHooverChain and BerendsenThermostat, {@link #hostRun}), from a start at 150 K, so that they act.
     * NHC's canonical sampling needs thousands of steps: scripts/gpu-replicas-run.sh checks it on the
     * GPU with 256 ethanols.
     */
    @Test
    void deterministicThermostatsFollowTheHostDefinitions() {
        long seed = 14;
        StudentWeights w = weights(seed);
        int steps = 12;
        for (DynamicsSpec d : new DynamicsSpec[] {new DynamicsSpec.NoseHooverChain(0.5, T, 5, 3, 2, 3),
            new DynamicsSpec.Berendsen(0.5, T, 2)}) {
            Atoms start = thermalised(ethanol(), 150, seed);
            ReplicaStart rs = new ReplicaStart(start, d, seed, 24);
            Atoms gpu = start.copy();
            double gpuBath;
            double ep;
            try (CudaMdEngine md = new CudaMdEngine(w, List.of(rs), stages(5))) {
                md.advance(steps);
                ep = md.read(0, gpu, null);
                gpuBath = md.bathEnergyEv(0);
            }
            Atoms cpu = start.copy();
            HostRun host = hostRun(w, cpu, d, 24, steps);
            double cpuEp = host.potentialEv();
            double dev = 0;
            for (int i = 0; i < cpu.velocities().length; i++) {
                dev = Math.max(dev, Math.abs(cpu.velocities()[i] - gpu.velocities()[i]));
            }
            double k0 = Observables.kineticEnergyEv(start);
            String ctx = String.format(Locale.ROOT, "%s (seed %d): max |v_gpu - v_cpu| %.2e Å/fs; bath %.6f vs %.6f eV;"
                    + " kinetic energy %.5f -> %.5f eV (host %.5f)", d.name(), seed, dev, gpuBath, host.bathEv(), k0,
                    Observables.kineticEnergyEv(gpu), Observables.kineticEnergyEv(cpu));
            assertTrue(Math.abs(Observables.kineticEnergyEv(cpu) - k0) > 0.05 * k0, ctx + ": the thermostat did not act");
            assertTrue(dev < 1e-5, ctx);
            assertEquals(host.bathEv(), gpuBath, 1e-5, ctx);
            assertEquals(cpuEp, ep, 1e-4, ctx);
            double hGpu = ep + Observables.kineticEnergyEv(gpu) + gpuBath;
            double h0 = new ReferenceStudent(w).energyAndForces(start.copy(), new double[3 * start.size()]) + k0;
            assertEquals(h0, hGpu, 2e-3, ctx + ": E_kin + E_pot + bath not conserved");
        }
    }

    /** Replica k of a batch follows the same system run alone with seed + k (different molecules and sizes). */
    @Test
    void replicasOfABatchEqualTheSystemsRunAlone() {
        long seed = 16;
        int steps = 12;
        StudentWeights w = weights(seed);
        for (DynamicsSpec d : new DynamicsSpec[] {new DynamicsSpec.Langevin(0.5, T, 0.05, true),
            new DynamicsSpec.Bussi(0.5, T, 10)}) {
            List<ReplicaStart> batch = List.of(
                    new ReplicaStart(thermalised(ethanol(), T, seed), d, seed, 24),
                    new ReplicaStart(thermalised(water(), T, seed + 1), d, seed + 1, 6),
                    new ReplicaStart(thermalised(ethanol(), 200, seed + 2), d, seed + 2, 24));
            List<Atoms> together = new ArrayList<>();
            try (CudaMdEngine md = new CudaMdEngine(w, batch, stages(7))) {
                md.advance(steps);
                for (int r = 0; r < batch.size(); r++) {
                    Atoms a = batch.get(r).atoms().copy();
                    md.read(r, a, null);
                    together.add(a);
                }
            }
            for (int r = 0; r < batch.size(); r++) {
                Atoms alone = batch.get(r).atoms().copy();
                try (CudaMdEngine md = new CudaMdEngine(w, List.of(batch.get(r)), stages(7))) {
                    md.advance(steps);
                    md.read(0, alone, null);
                }
                double dev = 0;
                for (int i = 0; i < alone.positions().length; i++) {
                    dev = Math.max(dev, Math.abs(alone.positions()[i] - together.get(r).positions()[i]));
                }
                assertTrue(dev < 1e-4, d.name() + " replica " + r + " (seed " + (seed + r) + ") deviates from its run"
                        + " alone by " + dev + " Å after " + steps + " steps");
            }
        }
    }

    /** n steps, checkpoint, a fresh binding restored, n steps: bit for bit the 2n steps of one run. */
    @Test
    void restartContinuesBitForBit() {
        long seed = 17;
        StudentWeights w = weights(seed);
        int n = 4;
        for (DynamicsSpec d : new DynamicsSpec[] {new DynamicsSpec.Bussi(0.5, T, 10),
            new DynamicsSpec.NoseHooverChain(0.5, T, 10, 3, 1, 3), new DynamicsSpec.Berendsen(0.5, T, 10),
            new DynamicsSpec.Langevin(0.5, T, 0.05, true), new DynamicsSpec.VelocityVerlet(0.5)}) {
            List<ReplicaStart> starts = replicas(ethanol(), d, 2, seed, 24);
            assertRestartBitForBit(w, starts, n, d.name() + " (seed " + seed + ")");
        }
    }

    /** The same for a periodic box of student water, two replicas sharing the cell. */
    @Test
    void periodicWaterBoxRestartsBitForBit() {
        long seed = 18;
        double side = 8.5;
        Cell cell = Cell.orthorhombic(side, side, side);
        List<ReplicaStart> starts = new ArrayList<>();
        DynamicsSpec d = new DynamicsSpec.Langevin(0.5, T, 0.05, true);
        for (int r = 0; r < 2; r++) {
            Random rnd = new Random(seed + r);
            int molecules = 8;
            int[] z = new int[3 * molecules];
            double[] pos = new double[9 * molecules];
            for (int m = 0; m < molecules; m++) {
                double x0 = side * ((m & 1) + 0.25) / 2, y0 = side * (((m >> 1) & 1) + 0.25) / 2;
                double z0 = side * (((m >> 2) & 1) + 0.25) / 2 + 0.3 * rnd.nextDouble();
                double[] w = water().positions();
                for (int k = 0; k < 3; k++) {
                    z[3 * m + k] = water().atomicNumber(k);
                    pos[9 * m + 3 * k] = x0 + w[3 * k];
                    pos[9 * m + 3 * k + 1] = y0 + w[3 * k + 1];
                    pos[9 * m + 3 * k + 2] = z0 + w[3 * k + 2];
                }
            }
            Atoms box = thermalised(Atoms.of(z, pos, cell), T, seed + r);
            starts.add(new ReplicaStart(box, d, seed + r, 3 * box.size() - 3));
        }
        assertRestartBitForBit(weights(seed), starts, 4, "periodic water box (seed " + seed + ")");
    }

    static void assertRestartBitForBit(StudentWeights w, List<ReplicaStart> starts, int n, String what) {
        int reps = starts.size();
        List<Atoms> straight = new ArrayList<>();
        double[] straightBath = new double[reps];
        List<Atoms> mid = new ArrayList<>();
        List<double[]> midForces = new ArrayList<>();
        double[] midEnergy = new double[reps];
        List<byte[]> midState = new ArrayList<>();
        try (CudaMdEngine md = new CudaMdEngine(w, starts, stages(5))) {
            md.advance(n);
            for (int r = 0; r < reps; r++) {
                Atoms a = starts.get(r).atoms().copy();
                double[] f = new double[3 * a.size()];
                midEnergy[r] = md.read(r, a, f);
                mid.add(a);
                midForces.add(f);
                midState.add(md.integratorState(r));
            }
            md.advance(n);
            for (int r = 0; r < reps; r++) {
                Atoms a = starts.get(r).atoms().copy();
                md.read(r, a, null);
                straight.add(a);
                straightBath[r] = md.bathEnergyEv(r);
            }
        }
        try (CudaMdEngine md = new CudaMdEngine(w, starts, stages(3))) {
            for (int r = 0; r < reps; r++) {
                md.restore(r, mid.get(r), midForces.get(r), midEnergy[r], midState.get(r), n);
            }
            assertEquals(n, md.stepCount());
            md.advance(n);
            for (int r = 0; r < reps; r++) {
                Atoms a = starts.get(r).atoms().copy();
                md.read(r, a, null);
                assertArrayEquals(straight.get(r).positions(), a.positions(), what + " replica " + r + " positions");
                assertArrayEquals(straight.get(r).velocities(), a.velocities(), what + " replica " + r + " velocities");
                assertEquals(straightBath[r], md.bathEnergyEv(r), 0.0, what + " replica " + r + " bath energy");
            }
        }
    }

    @Test
    void platformBindsStudentsAndRefusesTheRest() {
        DevicePlatform p = DevicePlatform.named("cuda").orElseThrow(() -> new AssertionError("cuda platform not installed"));
        assertTrue(p.unavailableReason().isEmpty(), () -> p.unavailableReason().get());
        DynamicsSpec d = new DynamicsSpec.Bussi(0.5, T, 10);
        ReferenceStudent student = new ReferenceStudent(weights(19));
        assertTrue(p.unsupportedReason(student, d).isEmpty());
        List<ReplicaStart> starts = replicas(water(), d, 2, 19, 6);
        try (DeviceDynamics dd = p.bind(student, starts).orElseThrow()) {
            assertEquals("cuda", dd.platformName());
            assertEquals(2, dd.replicas());
            dd.advance(3);
            assertEquals(3, dd.stepCount());
        }
        LennardJones lj = LennardJones.of(org.molten.forcefield.classical.LennardJonesParameters.uff(), 6.0);
        assertTrue(p.bind(lj, starts).isEmpty());
        assertTrue(p.unsupportedReason(lj, d).orElseThrow().contains("student"));
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> p.bind(student,
                List.of(starts.get(0), new ReplicaStart(water(), d, 3, 6))));
        assertTrue(e.getMessage().contains("replica 1"), e.getMessage());
    }
}
