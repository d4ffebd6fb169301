package org.molten.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.molten.core.Atoms;
import org.molten.core.ForceField;
import org.molten.core.RandomStream;
import org.molten.forcefield.bundled.BundledModel;
import org.molten.forcefield.student.OptimisedStudent;
import org.molten.structures.BuiltInMolecules;

/**
 * {@code molten serve} with the student on the GPU (a real device or the project's emulator of the CUDA driver)
 * and on the CPU in float32: the forces a driver receives at three perturbed ethanols equal the float64 CPU
 * student's to float32 accuracy (GPU) and the float32 CPU student's to the unit round trip (--precision float32). The driver is {@link LoopbackDriver}; ServeAsePeerTest runs the real ASE.
 */
class ServeDeviceTest {

    private static double[][] perturbedEthanols() {
        Atoms ethanol = BuiltInMolecules.load("ethanol");
        RandomStream rng = new RandomStream(5);
        double[][] frames = new double[3][];
        for (int s = 0; s < 3; s++) {
            frames[s] = ethanol.positions().clone();
            for (int k = 0; k < frames[s].length; k++) {
                frames[s][k] += 0.05 * rng.nextGaussian();
            }
        }
        return frames;
    }

    /**
     * Serves the three frames with {@code run} and checks every force against {@code reference} within
     * {@code toleranceEvPerA}; returns the largest difference seen.
     */
    private static double servedForcesMatch(java.util.function.Function<String, CliRun> run, String expectName,
                                            ForceField reference, double toleranceEvPerA) throws Exception {
        double[][] frames = perturbedEthanols();
        double largest = 0;
        try (LoopbackDriver driver = new LoopbackDriver()) {
            CompletableFuture<LoopbackDriver.Answer[]> answers = CompletableFuture.supplyAsync(() -> {
                try {
                    driver.accept();
                    LoopbackDriver.Answer[] a = new LoopbackDriver.Answer[frames.length];
                    for (int s = 0; s < frames.length; s++) {
                        a[s] = driver.evaluate(frames[s]);
                    }
                    driver.exit();
                    return a;
                } catch (java.io.IOException e) {
                    throw new java.io.UncheckedIOException(e);
                }
            });
            CliRun r = run.apply(driver.address());
            assertEquals(0, r.status(), r.out() + r.err());
            assertTrue(r.out().contains(expectName), r.out());
            LoopbackDriver.Answer[] got = answers.get(60, TimeUnit.SECONDS);
            Atoms ethanol = BuiltInMolecules.load("ethanol");
            for (int s = 0; s < frames.length; s++) {
                double[] f = new double[frames[s].length];
                double e = reference.energyAndForces(Atoms.of(ethanol.atomicNumbers(), frames[s], null), f);
                assertEquals(e, got[s].energyEv(), 1e-5 * Math.abs(e), "energy (eV) of frame " + s);
                for (int k = 0; k < f.length; k++) {
                    assertEquals(f[k], got[s].forcesEvPerA()[k], toleranceEvPerA, "force " + k + " (eV/Å) of frame " + s);
                    largest = Math.max(largest, Math.abs(f[k] - got[s].forcesEvPerA()[k]));
                }
            }
        }
        return largest;
    }

    @Test
    void theGpuStudentServesTheFloat64ForcesToFloat32Accuracy() throws Exception {
        String driverLibrary = EmulatedCuda.driverLibrary();
        assumeTrue(driverLibrary != null, "no CUDA device and the CUDA emulator could not be built (g++?)");
        try (ForceField float64 = new OptimisedStudent(BundledModel.weights())) {
            // float32 model arithmetic: ~1e-6 relative (GpuCheck), 1e-4 eV/Å at most here
            servedForcesMatch(address -> {
                try {
                    return EmulatedCuda.run(driverLibrary, "serve", "--ipi", address, "--system", "ethanol", "--device", "cuda",
                            "--wait", "30");
                } catch (Exception e) {
                    throw new IllegalStateException(e);
                }
            }, "molten serve: student/cuda for C2H6O", float64, 1e-4);
        }
    }

    @Test
    void precisionFloat32ServesTheFloat32CpuStudent() throws Exception {
        try (ForceField float32 = new OptimisedStudent(BundledModel.weights(),
                OptimisedStudent.Options.defaults().withPrecision(OptimisedStudent.Precision.FLOAT32));
             ForceField float64 = new OptimisedStudent(BundledModel.weights())) {
            // the float32 student's own forces, through the Hartree/Bohr round trip only
            servedForcesMatch(address -> CliRun.of("serve", "--ipi", address, "--system", "ethanol", "--device", "cpu",
                    "--precision", "float32", "--wait", "30"), "molten serve: student/optimised", float32, 1e-9);
            // and not the float64 student's: the two differ by float32 rounding, far above the round trip
            double[] a = new double[27], b = new double[27];
            Atoms ethanol = Atoms.of(BuiltInMolecules.load("ethanol").atomicNumbers(), perturbedEthanols()[0], null);
            float32.energyAndForces(ethanol, a);
            float64.energyAndForces(ethanol, b);
            double diff = 0;
            for (int k = 0; k < 27; k++) {
                diff = Math.max(diff, Math.abs(a[k] - b[k]));
            }
            assertTrue(diff > 1e-7, "float32 and float64 differ by " + diff + " eV/Å, so the check above tells them apart");
        }
    }
}
