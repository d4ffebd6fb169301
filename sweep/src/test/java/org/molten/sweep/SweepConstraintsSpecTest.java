package org.molten.sweep;

import static org.junit.jupiter.api.Assertions.*;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.molten.validation.ValidationSettings;

/** The constraint keys of a sweep spec reach every task's validation settings; a spec without them keeps its ids. */
class SweepConstraintsSpecTest {

    @Test
    void constraintsAndHydrogenMassReachTheValidationSettings(@TempDir Path dir) throws Exception {
        Path yaml = Files.writeString(dir.resolve("s.yaml"), """
                systems: [ethanol]
                steps: 80
                equilibration_steps: 20
                timestep_fs: 4
                constraints: h-bonds
                hydrogen_mass_amu: 3
                """);
        List<SweepTask> tasks = SweepSpec.read(yaml).expand();
        ValidationSettings s = ValidationTaskExecutor.settings(tasks.get(0));
        assertEquals("h-bonds", s.constraints());
        assertEquals(3.0, s.hydrogenMassAmu(), 0.0);
        assertEquals(4.0, s.timestepFs(), 0.0);
        Path plain = Files.writeString(dir.resolve("p.yaml"), "systems: [ethanol]\nsteps: 80\nequilibration_steps: 20\n");
        SweepTask p = SweepSpec.read(plain).expand().get(0);
        assertEquals("none", ValidationTaskExecutor.settings(p).constraints());
        assertTrue(Double.isNaN(ValidationTaskExecutor.settings(p).hydrogenMassAmu()));
        assertFalse(p.protocol().toString().contains("constraints"), "ids of sweeps without constraints are unchanged");
        assertNotEquals(p.id().substring(p.id().length() - 8), tasks.get(0).id().substring(tasks.get(0).id().length() - 8));
        Path bad = Files.writeString(dir.resolve("b.yaml"), "systems: [ethanol]\nconstraints: angles\n");
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> SweepSpec.read(bad).expand());
        assertTrue(e.getMessage().contains("angles"), e.getMessage());
    }
}
