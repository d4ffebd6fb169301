package org.molten.cli;

import static org.junit.jupiter.api.Assertions.*;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.molten.integrators.Checkpoint;

/** {@code molten run --constraints --hydrogen-mass --timestep}: what the log states, restarts, refusals. */
class RunConstraintsTest {

    private static String[] concat(String[] a, String... b) {
        String[] all = java.util.Arrays.copyOf(a, a.length + b.length);
        System.arraycopy(b, 0, all, a.length, b.length);
        return all;
    }

    @Test
    void hBondsWithHeavyHydrogensAt4FsStateTheirDegreesOfFreedomAndRestartExactly(@TempDir Path dir) throws IOException {
        String[] common = {"run", "--system", "ethanol", "--integrator", "langevin", "--seed", "5", "--constraints", "h-bonds",
                "--hydrogen-mass", "3", "--timestep", "4", "--report-interval", "5", "--checkpoint-interval", "10"};
        Path logA = dir.resolve("a.csv"), chkA = dir.resolve("a.chk"), logB = dir.resolve("b.csv"), chkB = dir.resolve("b.chk");
        CliRun a = CliRun.of(concat(common, "--steps", "30", "--log", logA.toString(), "--checkpoint", chkA.toString()));
        assertEquals(0, a.status(), a.err());
        assertTrue(a.out().startsWith("molten run: constraints h-bonds: 6 pairs and 0 rigid waters, lengths from the start "
                + "structure, tolerance 1.0E-10; 18 degrees of freedom"), a.out());
        assertTrue(a.out().contains("hydrogen mass 3.0 amu"), a.out());
        assertTrue(a.out().contains("t = 120.0 fs"), a.out());
        String header = Files.readAllLines(logA).get(0);
        assertTrue(header.startsWith("# T[K] = 2 Ekin / (dof kB) with dof = 3N - 9 = 18 (N = 9 atoms, centre-of-mass momentum "
                + "removed, 6 distance constraints (h-bonds: 6 pairs"), header);
        Checkpoint c = Checkpoint.read(chkA);
        assertEquals(3.0, c.atoms().massAmu(3), 0.0, "the checkpoint holds the repartitioned masses");
        assertEquals(0, CliRun.of(concat(common, "--steps", "10", "--log", logB.toString(), "--checkpoint", chkB.toString())).status());
        CliRun b = CliRun.of(concat(common, "--steps", "30", "--log", logB.toString(), "--checkpoint", chkB.toString(),
                "--restart", chkB.toString()));
        assertEquals(0, b.status(), b.err());
        assertEquals(Files.readString(logA), Files.readString(logB), "log of the restarted run");
        assertArrayEquals(Checkpoint.read(chkA).positionsA(), Checkpoint.read(chkB).positionsA(), 0.0);
        // the same checkpoint with other constraints, or without the heavy hydrogens, is refused
        CliRun other = CliRun.of("run", "--system", "ethanol", "--integrator", "langevin", "--constraints", "all-bonds",
                "--hydrogen-mass", "3", "--timestep", "4", "--steps", "40", "--restart", chkA.toString());
        assertNotEquals(0, other.status());
        assertTrue(other.err().contains("constraints"), other.err());
        CliRun light = CliRun.of("run", "--system", "ethanol", "--integrator", "langevin", "--constraints", "h-bonds",
                "--timestep", "4", "--steps", "40", "--restart", chkA.toString());
        assertNotEquals(0, light.status());
        assertTrue(light.err().contains("masses"), light.err());
    }

    @Test
    void badConstraintOptionsAreNamed() {
        CliRun r = CliRun.of("run", "--system", "ethanol", "--constraints", "angles", "--steps", "2");
        assertNotEquals(0, r.status());
        assertTrue(r.err().contains("--constraints") && r.err().contains("angles"), r.err());
        CliRun m = CliRun.of("run", "--system", "ethanol", "--hydrogen-mass", "-1", "--steps", "2");
        assertNotEquals(0, m.status());
        assertTrue(m.err().contains("--hydrogen-mass"), m.err());
        CliRun t = CliRun.of("run", "--system", "ethanol", "--constraints", "h-bonds", "--constraint-tolerance", "2", "--steps", "2");
        assertNotEquals(0, t.status());
        assertTrue(t.err().contains("tolerance"), t.err());
        List.of(r, m, t).forEach(x -> assertFalse(x.err().contains("Exception"), x.err()));
    }
}
