package org.molten.integrators;

import static org.junit.jupiter.api.Assertions.*;

import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.molten.core.dynamics.DevicePlatform;
import org.molten.forcefield.classical.ClassicalReferencePotential;

/**
 * This module's test class path is what a CPU-only user has who depends on forcefield + integrators: it carries
 * neither JCuda nor JNA (the CUDA platform lives in platform-cuda, the libxtb teacher in teacher-xtb), and a
 * simulation asked for "cuda" says the platform is not installed and runs on the CPU.
 */
class CpuOnlyClassPathTest {
    @Test
    void forcefieldAndIntegratorsCarryNoJcudaNoJnaAndNoCudaPlatform() {
        for (String name : new String[] {"jcuda.driver.JCudaDriver", "com.sun.jna.Native",
                "org.molten.forcefield.cuda.CudaPlatform", "org.molten.forcefield.teacher.XtbTeacher"}) {
            assertThrows(ClassNotFoundException.class, () -> Class.forName(name, false, getClass().getClassLoader()),
                    name + " is on the class path of forcefield + integrators");
        }
        assertTrue(DevicePlatform.named("cuda").isEmpty(), "a cuda DevicePlatform is installed");
        List<String> warnings = new ArrayList<>();
        Simulation s = Simulation.builder(TestSystems.ethanol(), ClassicalReferencePotential.inferredFrom(TestSystems.ethanol()),
                new VelocityVerlet(0.5)).seed(1).temperature(300).platform("cuda").warnings(warnings::add).build();
        assertEquals("cpu", s.platformName());
        assertEquals(1, warnings.size(), warnings.toString());
        assertTrue(warnings.get(0).startsWith("cuda is not installed"), warnings.get(0));
    }
}
