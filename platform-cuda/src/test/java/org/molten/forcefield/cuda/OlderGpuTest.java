package org.molten.forcefield.cuda;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import com.sun.jna.NativeLibrary;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.molten.core.Atoms;
import org.molten.forcefield.student.ReferenceStudent;
import org.molten.forcefield.student.StudentWeights;

/**
 * On a GPU older than sm_90 (the emulator made an A100, sm_80: no clusters, and the fatbin's sm_80 code has no
 * griddepcontrol and a trap for the small-molecule kernel) the host must choose neither the small-molecule kernel
 * nor programmatic dependent launches, and the stage kernels it does choose must give the reference forces. The
 * emulator fails a cluster or programmatic launch at sm_80, so a wrong choice cannot pass unnoticed.
 */
class OlderGpuTest {
    private NativeLibrary emu;

    @BeforeEach
    void emulatedA100() {
        assumeTrue(CudaTestSupport.gpu(), CudaTestSupport::whyNot);
        assumeTrue(CudaTestSupport.emulated(), "needs the emulator, which can play an sm_80 GPU");
        emu = NativeLibrary.getInstance(System.getProperty(GpuAvailability.DRIVER_LIBRARY));
        emu.getFunction("emu_set_compute_capability").invokeVoid(new Object[] {8, 0});
    }

    @AfterEach
    void backToSm90() {
        if (emu != null) {
            emu.getFunction("emu_set_compute_capability").invokeVoid(new Object[] {9, 0});
            GpuAvailability.resetForTests();
        }
    }

    /**
     * A GPU the fatbin has no image for (sm_75, a T4: machine code starts at sm_80 and its compute_90 PTX cannot be
     * compiled for it): the driver refuses the module, and the factory gives the CPU student with a reason that
     * names the GPU's architecture and the images the jar holds, as for any other unusable GPU.
     */
    @Test
    void aGpuBelowSm80FallsBackToTheCpuNamingItsArchitecture() {
        emu.getFunction("emu_set_compute_capability").invokeVoid(new Object[] {7, 5});
        GpuAvailability.resetForTests();
        long before = GpuStatus.snapshot().fallbacks();
        StudentWeights w = StudentWeights.random(27);
        try (org.molten.core.ForceField ff = GpuAvailability.studentForceField(w)) {
            assertTrue(!(ff instanceof CudaStudent), ff.getClass().getName());
        }
        GpuStatus.Snapshot s = GpuStatus.snapshot();
        assertEquals(before + 1, s.fallbacks());
        String why = s.lastFallbackReason();
        assertTrue(why.contains("(sm_75") && why.contains("sm_80, sm_86, sm_89, sm_90") && why.contains("compute_90"), why);
    }

    @Test
    void smallMoleculesRunTheStageKernelsWithPlainLaunchesAndMatchTheReference() {
        long seed = 20261126L;   // fixed: a failure names it and reruns the same atoms
        StudentWeights w = StudentWeights.random(25);
        GpuStatus.Snapshot s0 = GpuStatus.snapshot();
        // 9 atoms: the small-molecule kernel on sm_90; 30 atoms from 20 on: the large-system stage kernels
        for (int n : new int[] {9, 30}) {
            Atoms mol = CudaTestSupport.randomAtoms(seed + n, n, Math.cbrt(n * 12.0), 1.0, null);
            double[] fr = new double[3 * n];
            double[] ei = new double[n];
            double er = new ReferenceStudent(w).energyAndForces(mol, fr, ei);
            double scale = 0;  // float32 rounding of an energy is relative to the magnitudes summed
            for (double x : ei) {
                scale += Math.abs(x);
            }
            try (CudaStudent gpu = new CudaStudent(w, CudaOptions.defaults().withLargeSystemAtoms(20))) {
                double[] fg = new double[3 * n];
                double eg = gpu.energyAndForces(mol, fg);
                String what = n + " atoms on an emulated sm_80 (seed " + seed + ")";
                assertTrue(gpu.mode().startsWith("stages"), what + ": mode " + gpu.mode());
                double err = CudaTestSupport.relativeError(fg, fr);
                assertTrue(err <= CudaStudentTest.FORCE_TOL, what + ": force relative error " + err);
                assertTrue(Math.abs(eg - er) <= CudaStudentTest.ENERGY_TOL * scale, what + ": energy " + eg + " vs " + er);
            }
        }
        GpuStatus.Snapshot s1 = GpuStatus.snapshot();
        assertEquals(s0.programmaticLaunches(), s1.programmaticLaunches(), "no programmatic launch below sm_90");
        assertTrue(s1.lastProgrammaticFallback().contains("(sm_80) is older than sm_90"), s1.lastProgrammaticFallback());
    }

    @Test
    void forcingTheSmallMoleculeKernelBelowSm90IsRefusedNamingTheArchitecture() {
        StudentWeights w = StudentWeights.random(25);
        Atoms mol = CudaTestSupport.randomAtoms(20261127L, 9, Math.cbrt(9 * 12.0), 1.0, null);
        try (CudaStudent gpu = new CudaStudent(w, CudaOptions.defaults())) {
            IllegalStateException e = assertThrows(IllegalStateException.class,
                    () -> gpu.energyAndForcesInMode(mol, new double[27], CudaOptions.Mode.MOLECULE));
            assertTrue(e.getMessage().contains("sm_80"), e.getMessage());
        }
    }
}
