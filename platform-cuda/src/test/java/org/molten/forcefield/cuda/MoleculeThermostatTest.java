package org.molten.forcefield.cuda;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.nio.ByteBuffer;
import java.util.List;
import java.util.Locale;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.molten.core.Atoms;
import org.molten.core.Observables;
import org.molten.core.dynamics.DynamicsSpec;
import org.molten.core.dynamics.ReplicaStart;
import org.molten.forcefield.student.ReferenceStudent;
import org.molten.forcefield.student.StudentWeights;

/**
 * Every thermostat inside the small-molecule cluster kernel (molten_small_thermostat.cuh), through the emulator:
 * a thermostatted single molecule runs there (no fallback to the stage kernels), step by step the same
 * trajectory, bath energy and checkpoint contents as the stage path (whose random streams it shares) and as the
 * host's definitions (Nosé–Hoover chain, Berendsen), canonical kinetic energies (Bussi) and per-element
 * equipartition (Langevin), and restart bit for bit. Seeds fixed and printed in every failure message.
 */
class MoleculeThermostatTest {
    static final double T = 300;

    @BeforeEach
    void needsGpu() {
        assumeTrue(CudaTestSupport.gpu(), CudaTestSupport::whyNot);
    }

    /** The smallest random student the cluster kernel holds (F = 64, one interaction block): fast on the emulator. */
    static StudentWeights weights(long seed) {
        return StudentWeights.random(seed, new int[] {1, 6, 7, 8}, 64, 1, 12, 4.0, 16.0);
    }

    static CudaOptions molecule(int k) {
        return CudaOptions.defaults().withMode(CudaOptions.Mode.MOLECULE).withStepsPerLaunch(k);
    }

    static CudaOptions stages(int k) {
        return CudaOptions.defaults().withMode(CudaOptions.Mode.STAGES).withStepsPerLaunch(k);
    }

    static ReplicaStart ethanol(DynamicsSpec d, double temperatureK, long seed) {
        return new ReplicaStart(CudaDynamicsTest.thermalised(CudaDynamicsTest.ethanol(), temperatureK, seed), d, seed,
                3 * 9 - 3);
    }

    /** Final state of one replica after {@code steps}: atoms, bath energy (eV) and integrator state. */
    record Run(Atoms atoms, double bathEv, byte[] state, String mode) {
    }

    static Run run(StudentWeights w, ReplicaStart s, CudaOptions o, int steps) {
        try (CudaMdEngine md = new CudaMdEngine(w, List.of(s), o)) {
            md.advance(steps);
            Atoms a = s.atoms().copy();
            md.read(0, a, null);
            return new Run(a, md.bathEnergyEv(0), md.integratorState(0), md.mode());
        }
    }

    static double maxDev(double[] a, double[] b) {
        double d = 0;
        for (int i = 0; i < a.length; i++) {
            d = Math.max(d, Math.abs(a[i] - b[i]));
        }
        return d;
    }

    /** The doubles of a CUDA integrator state (after its 12-byte header). */
    static double[] variables(byte[] state) {
        ByteBuffer b = ByteBuffer.wrap(state);
        b.position(8);
        double[] v = new double[b.getInt()];
        for (int k = 0; k < v.length; k++) {
            v[k] = b.getDouble();
        }
        return v;
    }

    /**
     * Langevin (with and without the drift removal) and Bussi in the cluster kernel, step by step against the host's
     * definitions in float64 with the device's random streams (HostStochasticThermostats: Philox keyed by the
     * replica's seed, the same draws) and against the stage path: after 12 steps the trajectories differ only by
     * float32 force rounding (~1e-7 Å/fs), while a wrong stream (stage tag, step counter, atom index), a wrong number
     * of degrees of freedom or a missing bath term moves them by 1e-3 or more. The checkpoint holds the same
     * variables (bath, chain) in the same places as the stage path's.
     */
    @Test
    void langevinAndBussiFollowTheHostAndTheStagePathStepByStep() {
        long seed = 31;
        StudentWeights w = weights(seed);
        int steps = 12;
        for (DynamicsSpec d : new DynamicsSpec[] {new DynamicsSpec.Langevin(0.5, T, 0.05, true),
            new DynamicsSpec.Langevin(0.5, T, 0.2, false), new DynamicsSpec.Bussi(0.5, T, 2)}) {
            ReplicaStart s = ethanol(d, 250, seed);
            Run mol = run(w, s, molecule(5), steps);
            Run stg = run(w, s, stages(5), steps);
            String ctx = String.format(Locale.ROOT, "%s (seed %d): max |v_molecule - v_stages| %.2e Å/fs, |x| %.2e Å;"
                            + " bath %.8f vs %.8f eV", d.name(), seed, maxDev(mol.atoms.velocities(), stg.atoms.velocities()),
                    maxDev(mol.atoms.positions(), stg.atoms.positions()), mol.bathEv, stg.bathEv);
            assertEquals("molecule", mol.mode, ctx + ": the cluster kernel did not run");
            assertEquals("stages", stg.mode, ctx);
            assertTrue(Math.abs(stg.bathEv) > 1e-3, ctx + ": the thermostat exchanged no energy");
            assertTrue(maxDev(mol.atoms.velocities(), stg.atoms.velocities()) < 1e-5, ctx);
            assertTrue(maxDev(mol.atoms.positions(), stg.atoms.positions()) < 1e-5, ctx);
            assertEquals(stg.bathEv, mol.bathEv, 1e-5, ctx);
            assertEquals(stg.state.length, mol.state.length, ctx + ": checkpoint size");
            assertArrayEquals(java.util.Arrays.copyOf(stg.state, 12), java.util.Arrays.copyOf(mol.state, 12),
                    ctx + ": checkpoint header");
            assertArrayEquals(variables(stg.state), variables(mol.state), 1e-5, ctx + ": checkpoint variables");
            Atoms cpu = s.atoms().copy();
            HostStochasticThermostats host = new HostStochasticThermostats(d, 24, s.seed());
            host.run(new ReferenceStudent(w), cpu, steps);
            String hctx = String.format(Locale.ROOT, "%s (seed %d) against the host: max |v_molecule - v_host| %.2e Å/fs,"
                            + " |x| %.2e Å; bath %.8f vs %.8f eV", d.name(), seed, maxDev(mol.atoms.velocities(), cpu.velocities()),
                    maxDev(mol.atoms.positions(), cpu.positions()), mol.bathEv, host.bathEv);
            assertTrue(maxDev(mol.atoms.velocities(), cpu.velocities()) < 1e-5, hctx);
            assertTrue(maxDev(mol.atoms.positions(), cpu.positions()) < 1e-5, hctx);
            assertEquals(host.bathEv, mol.bathEv, 1e-5, hctx);
        }
    }

    /**
     * Nosé–Hoover chain (multiple time steps, Suzuki–Yoshida weights) and Berendsen in the cluster kernel against
     * the host's production integrators in float64 (CudaDynamicsTest.hostRun), from 150 K so that they act.
     */
    @Test
    void deterministicThermostatsFollowTheHostDefinitions() {
        long seed = 32;
        StudentWeights w = weights(seed);
        int steps = 12;
        for (DynamicsSpec d : new DynamicsSpec[] {new DynamicsSpec.NoseHooverChain(0.5, T, 5, 3, 2, 3),
            new DynamicsSpec.Berendsen(0.5, T, 2)}) {
            ReplicaStart s = ethanol(d, 150, seed);
            Run mol = run(w, s, molecule(5), steps);
            Atoms cpu = s.atoms().copy();
            CudaDynamicsTest.HostRun host = CudaDynamicsTest.hostRun(w, cpu, d, 24, steps);
            double cpuEp = host.potentialEv();
            double k0 = Observables.kineticEnergyEv(s.atoms());
            double dev = maxDev(cpu.velocities(), mol.atoms.velocities());
            String ctx = String.format(Locale.ROOT, "%s (seed %d): max |v_gpu - v_cpu| %.2e Å/fs; bath %.6f vs %.6f eV;"
                    + " kinetic energy %.5f -> %.5f eV (host %.5f)", d.name(), seed, dev, mol.bathEv, host.bathEv(), k0,
                    Observables.kineticEnergyEv(mol.atoms), Observables.kineticEnergyEv(cpu));
            assertEquals("molecule", mol.mode, ctx + ": the cluster kernel did not run");
            assertTrue(Math.abs(Observables.kineticEnergyEv(cpu) - k0) > 0.05 * k0, ctx + ": the thermostat did not act");
            assertTrue(dev < 1e-5, ctx);
            assertEquals(host.bathEv(), mol.bathEv, 1e-5, ctx);
            assertTrue(Double.isFinite(cpuEp), ctx);
        }
    }

    /**
     * The thermostats' sums over the atoms (molten_small_thermostat.cuh's tree: shuffles in warp 0) on the alanine
     * dipeptide, 22 atoms: a tree of 32 leaves uses every shuffle level (ethanol's 16 leaves skip the widest), which
     * also sums atoms 16-21 with atoms 0-5. Nosé–Hoover chain (one sum per half step) and Langevin with the drift
     * removal (six sums per O step, the drift subtracted by warp 0) against the host's definitions in float64: a
     * dropped or misplaced level leaves out or doubles atoms' terms and moves the velocities by 1e-3 Å/fs or more.
     */
    @Test
    void thermostatSumsCoverThe32LeavesOfAlanineDipeptide() {
        long seed = 36;
        StudentWeights w = weights(seed);
        int steps = 6;
        Atoms molecule = org.molten.structures.BuiltInMolecules.load("alanine-dipeptide");
        int dof = 3 * molecule.size() - 3;
        assertEquals(22, molecule.size());
        for (DynamicsSpec d : new DynamicsSpec[] {new DynamicsSpec.NoseHooverChain(0.5, T, 5, 3, 1, 3),
            new DynamicsSpec.Langevin(0.5, T, 0.2, true)}) {
            ReplicaStart s = new ReplicaStart(CudaDynamicsTest.thermalised(molecule, 150, seed), d, seed, dof);
            Run mol = run(w, s, molecule(3), steps);
            Atoms cpu = s.atoms().copy();
            double hostBath;
            if (d instanceof DynamicsSpec.Langevin) {
                HostStochasticThermostats host = new HostStochasticThermostats(d, dof, s.seed());
                host.run(new ReferenceStudent(w), cpu, steps);
                hostBath = host.bathEv;
            } else {
                hostBath = CudaDynamicsTest.hostRun(w, cpu, d, dof, steps).bathEv();
            }
            double k0 = Observables.kineticEnergyEv(s.atoms());
            String ctx = String.format(Locale.ROOT, "%s, alanine dipeptide (seed %d): max |v_gpu - v_cpu| %.2e Å/fs, |x| %.2e Å;"
                    + " bath %.8f vs %.8f eV; kinetic energy %.5f -> %.5f eV (host %.5f)", d.name(), seed,
                    maxDev(mol.atoms.velocities(), cpu.velocities()), maxDev(mol.atoms.positions(), cpu.positions()),
                    mol.bathEv, hostBath, k0, Observables.kineticEnergyEv(mol.atoms), Observables.kineticEnergyEv(cpu));
            assertEquals("molecule", mol.mode, ctx + ": the cluster kernel did not run");
            assertTrue(Math.abs(hostBath) > 1e-3, ctx + ": the thermostat exchanged no energy");
            assertTrue(maxDev(mol.atoms.velocities(), cpu.velocities()) < 1e-5, ctx);
            assertTrue(maxDev(mol.atoms.positions(), cpu.positions()) < 1e-5, ctx);
            assertEquals(hostBath, mol.bathEv, 1e-5, ctx);
        }
    }

    /**
     * Bussi with tau far below dt in the cluster kernel draws the kinetic energy afresh from its canonical
     * distribution at every half step: 160 steps of one ethanol resolve the mean to ~2.5 %, so a thermostat aiming
     * at 27 degrees of freedom instead of 24 (+12 %) fails; the variance is canonical to 35 %.
     */
    @Test
    void bussiInTheClusterKernelSamplesTheCanonicalKineticEnergy() {
        long seed = 33;
        int dof = 24;
        CudaDynamicsTest.KineticStats st = sample(new DynamicsSpec.Bussi(0.5, T, 0.05), seed, 4, 160);
        double kT = org.molten.core.Units.BOLTZMANN_EV_PER_K * T;
        String ctx = String.format(Locale.ROOT, "bussi, cluster kernel (seed %d, %d samples): <K> = %.5f eV (canonical"
                + " %.5f), var K = %.3e (canonical %.3e)", seed, st.samples, st.mean(), 0.5 * dof * kT, st.variance(),
                0.5 * dof * kT * kT);
        assertEquals(0.5 * dof * kT, st.mean(), 0.06 * 0.5 * dof * kT, ctx);
        assertEquals(0.5 * dof * kT * kT, st.variance(), 0.35 * 0.5 * dof * kT * kT, ctx);
    }

    /**
     * Langevin with strong friction in the cluster kernel: per element the mean kinetic energy is (3/2) kT (1 - m/M)
     * with the drift removed (a noise amplitude without its 1/m leaves H 16 times colder than O), and the total's
     * mean and variance are canonical for 3N - 3. dt = 0.1 fs keeps BAOAB's O(dt^2) bias of the full-step
     * velocities small (CudaDynamicsTest).
     */
    @Test
    void langevinInTheClusterKernelSamplesEveryElement() {
        long seed = 34;
        CudaDynamicsTest.KineticStats st = sample(new DynamicsSpec.Langevin(0.1, T, 5.0, true), seed, 4, 160);
        CudaDynamicsTest.assertCanonical("langevin, cluster kernel", st, 24, true, seed);
    }

    /** One ethanol in the cluster kernel, sampled every step after {@code equilibrate}. */
    static CudaDynamicsTest.KineticStats sample(DynamicsSpec d, long seed, int equilibrate, int samples) {
        CudaDynamicsTest.KineticStats st = new CudaDynamicsTest.KineticStats();
        ReplicaStart s = ethanol(d, T, seed);
        try (CudaMdEngine md = new CudaMdEngine(weights(seed), List.of(s), molecule(1))) {
            assertEquals("molecule", md.mode(), d.name() + ": the cluster kernel did not run");
            Atoms a = s.atoms().copy();
            md.advance(equilibrate);
            for (int k = 0; k < samples; k++) {
                md.advance(1);
                md.read(0, a, null);
                st.add(a);
            }
        }
        return st;
    }

    /** n steps, checkpoint, a fresh binding restored, n steps: bit for bit the 2n steps of one run, every thermostat. */
    @Test
    void clusterKernelRestartsBitForBit() {
        long seed = 35;
        StudentWeights w = weights(seed);
        for (DynamicsSpec d : new DynamicsSpec[] {new DynamicsSpec.Bussi(0.5, T, 10),
            new DynamicsSpec.NoseHooverChain(0.5, T, 10, 3, 1, 3), new DynamicsSpec.Berendsen(0.5, T, 10),
            new DynamicsSpec.Langevin(0.5, T, 0.05, true)}) {
            assertRestartsBitForBit(w, ethanol(d, T, seed), 3, 2, d.name() + " (seed " + seed + ")");
        }
    }

    /**
     * n steps in the cluster kernel (5 steps a launch), checkpoint, a fresh binding restored (kAfter steps a launch),
     * n steps: positions, velocities and bath energy bit for bit those of the 2n steps of one run.
     */
    static void assertRestartsBitForBit(StudentWeights w, ReplicaStart s, int n, int kAfter, String what) {
        Atoms straight = s.atoms().copy();
        Atoms mid = s.atoms().copy();
        double[] midForces = new double[3 * mid.size()];
        double midEnergy;
        byte[] midState;
        double straightBath;
        try (CudaMdEngine md = new CudaMdEngine(w, List.of(s), molecule(5))) {
            assertEquals("molecule", md.mode(), what);
            md.advance(n);
            midEnergy = md.read(0, mid, midForces);
            midState = md.integratorState(0);
            md.advance(n);
            md.read(0, straight, null);
            straightBath = md.bathEnergyEv(0);
        }
        try (CudaMdEngine md = new CudaMdEngine(w, List.of(s), molecule(kAfter))) {
            md.restore(0, mid, midForces, midEnergy, midState, n);
            md.advance(n);
            Atoms a = s.atoms().copy();
            md.read(0, a, null);
            assertArrayEquals(straight.positions(), a.positions(), what + " positions");
            assertArrayEquals(straight.velocities(), a.velocities(), what + " velocities");
            assertEquals(straightBath, md.bathEnergyEv(0), 0.0, what + " bath energy");
        }
    }
}
