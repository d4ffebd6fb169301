package org.molten.forcefield.cuda;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.util.LinkedHashMap;
import java.util.Map;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.molten.core.Atoms;
import org.molten.core.Units;
import org.molten.core.dynamics.DynamicsSpec;
import org.molten.forcefield.student.ReferenceStudent;
import org.molten.forcefield.student.StudentWeights;

/** Device-resident MD against a CPU velocity Verlet on the reference student; Langevin reproducibility. */
class CudaMdEngineTest {
    @BeforeEach
    void needsGpu() {
        assumeTrue(CudaTestSupport.gpu(), CudaTestSupport::whyNot);
    }

    /** The default model on a GPU; a smaller one under the (slow) emulator: the integration logic is the same. */
    static StudentWeights weights(long seed) {
        return CudaTestSupport.emulated()
                ? StudentWeights.random(seed, new int[] {1, 6, 7, 8}, 64, 2, 20, 5.0, 16.0)
                : StudentWeights.random(seed);
    }

    /** Velocity Verlet in float64 on the reference student, the oracle trajectory. */
    static double cpuVerlet(StudentWeights w, Atoms a, double dt, int steps) {
        ReferenceStudent ref = new ReferenceStudent(w);
        int n = a.size();
        double[] f = new double[3 * n];
        double e = ref.energyAndForces(a, f);
        double[] r = a.positions();
        double[] v = a.velocities();
        for (int s = 0; s < steps; s++) {
            for (int i = 0; i < 3 * n; i++) {
                v[i] += 0.5 * dt * f[i] / a.massAmu(i / 3) * Units.ACCEL_A_PER_FS2;
                r[i] += dt * v[i];
            }
            e = ref.energyAndForces(a, f);
            for (int i = 0; i < 3 * n; i++) {
                v[i] += 0.5 * dt * f[i] / a.massAmu(i / 3) * Units.ACCEL_A_PER_FS2;
            }
        }
        return e;
    }

    @Test
    void verletTrajectoryFollowsTheCpuOne() {
        StudentWeights w = weights(21);
        long seed = 20;  // fixed; printed in every failure message
        Atoms start = CudaTestSupport.randomAtoms(seed, 9, 4.5, 1.1, null);
        int steps = CudaTestSupport.emulated() ? 20 : 200;
        CudaOptions d = CudaOptions.defaults().withStepsPerLaunch(7);
        // the stage kernels of small systems, those of large ones (warp-per-row message passes whose force stage
        // pairs the source-edge sums, k_forces_rs, with the closing half kick), and the small-molecule kernel
        Map<String, CudaOptions> variants = new LinkedHashMap<>();
        variants.put("STAGES", d.withMode(CudaOptions.Mode.STAGES));
        variants.put("STAGES, large-system kernels", d.withMode(CudaOptions.Mode.STAGES).withLargeSystemAtoms(1));
        variants.put("MOLECULE", d.withMode(CudaOptions.Mode.MOLECULE));
        for (Map.Entry<String, CudaOptions> v : variants.entrySet()) {
            String mode = v.getKey();
            Atoms cpu = start.copy();
            double ecpu = cpuVerlet(w, cpu, 0.1, steps);
            Atoms gpu = start.copy();
            try (CudaMdEngine md = CudaMdEngine.single(w, start, new DynamicsSpec.VelocityVerlet(0.1), 0, v.getValue())) {
                md.runSteps(steps / 2);
                md.runSteps(steps - steps / 2);
                double egpu = md.fetchState(gpu);
                double maxDev = 0;
                for (int i = 0; i < gpu.positions().length; i++) {
                    maxDev = Math.max(maxDev, Math.abs(gpu.positions()[i] - cpu.positions()[i]));
                }
                assertTrue(maxDev < 1e-4, mode + " (seed " + seed + "): positions drift from the CPU trajectory by " + maxDev + " Å");
                assertTrue(Math.abs(egpu - ecpu) < 1e-5 * Math.abs(ecpu), mode + " (seed " + seed + "): energy " + egpu + " vs " + ecpu);
            }
        }
    }

    @Test
    void langevinIsReproducibleAndIndependentOfLaunchGrouping() {
        StudentWeights w = weights(22);
        Atoms start = CudaTestSupport.randomAtoms(3, 9, 4.5, 1.1, null);
        DynamicsSpec baoab = new DynamicsSpec.Langevin(0.5, 300, 0.01, false);
        Atoms a = start.copy();
        Atoms b = start.copy();
        try (CudaMdEngine x = CudaMdEngine.single(w, start, baoab, 1234, CudaOptions.defaults().withStepsPerLaunch(5));
             CudaMdEngine y = CudaMdEngine.single(w, start, baoab, 1234, CudaOptions.defaults().withStepsPerLaunch(3))) {
            x.runSteps(12);
            y.runSteps(4);
            y.runSteps(8);
            x.fetchState(a);
            y.fetchState(b);
        }
        assertArrayEquals(a.positions(), b.positions(), "positions, structure seed 3, noise seed 1234");
        assertArrayEquals(a.velocities(), b.velocities(), "velocities, structure seed 3, noise seed 1234");
        Atoms c = start.copy();
        try (CudaMdEngine z = CudaMdEngine.single(w, start, baoab, 99, CudaOptions.defaults())) {
            z.runSteps(12);
            z.fetchState(c);
        }
        boolean differs = false;
        for (int i = 0; i < c.velocities().length; i++) {
            differs |= c.velocities()[i] != a.velocities()[i];
        }
        assertTrue(differs, "another seed (99 vs 1234) must give another trajectory");
    }

    @Test
    void benchmarkReportsTimePerStepAndLeavesTheAtomsAlone() {
        StudentWeights w = weights(23);
        Atoms a = CudaTestSupport.randomAtoms(4, 9, 4.5, 1.1, null);
        double[] before = a.positions().clone();
        CudaBenchmark.Result r = CudaBenchmark.time(w, a, 40, CudaOptions.defaults().withStepsPerLaunch(2));
        assertTrue(r.medianUs() > 0 && r.minUs() <= r.medianUs() && r.medianUs() <= r.maxUs(), r.toString());
        assertTrue(r.atoms() == 9 && r.stepsPerLaunch() == 2);
        assertArrayEquals(before, a.positions());
    }
}
