package org.molten.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.molten.core.Atoms;
import org.molten.structures.io.Frame;
import org.molten.structures.io.StructureFiles;

/**
 * {@code molten minimize}: a relaxed water from the bundled student (forces in the written file below --fmax,
 * a bent molecule with O–H bonds of a real water), the exit statuses (3: not converged; 130: interrupted, the
 * structure reached still written) and bad options named.
 */
class MinimizeCommandTest {
    @TempDir
    Path dir;

    private record Outcome(int status, String out, String err) {
    }

    private static Outcome minimize(int stopAt, String... args) {
        MinimizeCommand cmd = new MinimizeCommand();
        StopRequest stop = StopRequest.manual();
        cmd.stopRequest = stop;
        cmd.afterStep = s -> {
            if (s >= stopAt) {
                stop.request("SIGINT");
            }
        };
        StringWriter out = new StringWriter();
        StringWriter err = new StringWriter();
        CommandLine cl = new CommandLine(cmd);
        cl.setOut(new PrintWriter(out, true));
        cl.setErr(new PrintWriter(err, true));
        return new Outcome(cl.execute(args), out.toString(), err.toString());
    }

    private static final class CommandLine extends picocli.CommandLine {
        CommandLine(Object command) {
            super(command);
        }
    }

    /** O–H distances and the H–O–H angle (degrees) of a water molecule. */
    private static double[] waterShape(Atoms w) {
        int o = w.atomicNumber(0) == 8 ? 0 : w.atomicNumber(1) == 8 ? 1 : 2;
        int h1 = (o + 1) % 3, h2 = (o + 2) % 3;
        double a = w.distance(o, h1), b = w.distance(o, h2), c = w.distance(h1, h2);
        return new double[] {a, b, Math.toDegrees(Math.acos((a * a + b * b - c * c) / (2 * a * b)))};
    }

    @Test
    void aSqueezedWaterRelaxesToTheTeachersMinimum() throws Exception {
        Path start = dir.resolve("squeezed.xyz");
        Files.writeString(start, "3\nsqueezed water\nO 0 0 0\nH 0.7 0 0\nH -0.2 0.7 0\n");
        Path out = dir.resolve("relaxed.xyz");
        Path log = dir.resolve("min.csv");
        Outcome o = minimize(Integer.MAX_VALUE, "--structure", start.toString(), "--device", "cpu", "--fmax", "0.002",
                "--out", out.toString(), "--log", log.toString());
        assertEquals(0, o.status(), o.out() + o.err());
        assertTrue(o.out().contains("converged in"), o.out());
        Frame f = StructureFiles.readFrame(out, 0);
        double[] forces = f.forcesEvPerA().orElseThrow();
        for (int i = 0; i < forces.length; i += 3) {
            double norm = Math.sqrt(forces[i] * forces[i] + forces[i + 1] * forces[i + 1] + forces[i + 2] * forces[i + 2]);
            assertTrue(norm < 0.002, "atom " + i / 3 + ": |F| = " + norm + " eV/Å in the written file");
        }
        // The built-in water is GFN2-xTB's minimum (xtb --opt tight leaves it as it is): O–H 0.959 Å, H–O–H 107.2°.
        // The student, trained on that teacher, must put its own minimum there too, from O–H bonds of 0.70-0.73 Å.
        double[] teacher = waterShape(org.molten.structures.BuiltInMolecules.load("water"));
        double[] student = waterShape(f.atoms());
        assertEquals(teacher[0], student[0], 0.005, "O-H 1 (Å)");
        assertEquals(teacher[1], student[1], 0.005, "O-H 2 (Å)");
        assertEquals(teacher[2], student[2], 1.5, "H-O-H (degrees)");
        List<String> rows = Files.readAllLines(log);
        assertEquals("step,Epot[eV],Fmax[eV/A]", rows.get(0));
        assertTrue(rows.size() > 20, "a squeezed start should take more than a few steps: " + rows.size());
        String[] lastRow = rows.get(rows.size() - 1).split(",");
        assertEquals(f.energyEv().orElseThrow(), Double.parseDouble(lastRow[1]), 1e-9, "the file's energy is the last row's");
        assertTrue(Double.parseDouble(lastRow[1]) < Double.parseDouble(rows.get(1).split(",")[1]) - 1, "the energy fell");
    }

    @Test
    void aStepLimitExitsThreeAndAStopExits130BothWritingTheStructureReached() throws Exception {
        Path start = dir.resolve("squeezed.xyz");
        Files.writeString(start, "3\nsqueezed water\nO 0 0 0\nH 0.7 0 0\nH -0.2 0.7 0\n");
        Path out = dir.resolve("partial.xyz");
        Outcome o = minimize(Integer.MAX_VALUE, "--structure", start.toString(), "--device", "cpu",
                "--max-steps", "2", "--fmax", "1e-6", "--out", out.toString());
        assertEquals(MinimizeCommand.NOT_CONVERGED, o.status(), o.out() + o.err());
        assertTrue(o.out().contains("not converged within --max-steps 2"), o.out());
        assertEquals(3, StructureFiles.read(out).size());

        Path log = dir.resolve("stopped.csv");
        Path stopped = dir.resolve("stopped.xyz");
        o = minimize(3, "--structure", start.toString(), "--device", "cpu", "--fmax", "1e-6",
                "--out", stopped.toString(), "--log", log.toString());
        assertEquals(StopRequest.EXIT_STATUS, o.status(), o.out() + o.err());
        assertTrue(o.out().contains("interrupted at step 3"), o.out());
        assertEquals(5, Files.readAllLines(log).size(), "header and steps 0-3");
        Frame f = StructureFiles.readFrame(stopped, 0);
        assertEquals(Double.parseDouble(Files.readAllLines(log).get(4).split(",")[1]), f.energyEv().orElseThrow(), 1e-9,
                "the written structure is step 3's");
    }

    @Test
    void runMinimizeStartsTheDynamicsFromTheRelaxedStructure() throws Exception {
        Path start = dir.resolve("squeezed.xyz");
        Files.writeString(start, "3\nsqueezed water\nO 0 0 0\nH 0.7 0 0\nH -0.2 0.7 0\n");
        Path traj = dir.resolve("t.extxyz");
        CliRun r = CliRun.of("run", "--structure", start.toString(), "--minimize", "--device", "cpu", "--integrator", "verlet",
                "--temperature", "0", "--steps", "2", "--report-interval", "1", "--seed", "1", "--trajectory", traj.toString());
        assertEquals(0, r.status(), r.out() + r.err());
        assertTrue(r.out().contains("molten run: minimised the start in"), r.out());
        // at 0 K the first frame is the minimised start: the teacher's water (see above), not the squeezed file
        double[] teacher = waterShape(org.molten.structures.BuiltInMolecules.load("water"));
        double[] first = waterShape(StructureFiles.readFrame(traj, 0).atoms());
        assertEquals(teacher[0], first[0], 0.01, "O-H 1 (Å)");
        assertEquals(teacher[2], first[2], 2.0, "H-O-H (degrees)");

        r = CliRun.of("run", "--structure", start.toString(), "--minimize", "--restart", dir.resolve("c.chk").toString());
        assertEquals(1, r.status(), r.err());
        assertTrue(r.err().contains("--minimize relaxes the start of a new run"), r.err());
    }

    @Test
    void aForceThatTurnsNonFiniteKeepsTheLastFiniteStepWritten() throws Exception {
        // a harmonic pull of each atom towards the origin (k = 1 eV/Å²) whose 5th evaluation (step 4) gives a NaN force
        int[] calls = {0};
        org.molten.core.ForceField failing = new org.molten.core.ForceField() {
            @Override
            public String name() {
                return "harmonic, failing at step 4";
            }

            @Override
            public double energyAndForces(Atoms atoms, double[] forces) {
                double[] r = atoms.positions();
                double e = 0;
                for (int i = 0; i < r.length; i++) {
                    forces[i] = -r[i];
                    e += 0.5 * r[i] * r[i];
                }
                if (++calls[0] == 5) {
                    forces[4] = Double.NaN;
                }
                return e;
            }
        };
        Atoms atoms = Atoms.of(new int[] {8, 1, 1}, new double[] {1, 0, 0, 0, 2, 0, 0, 0, 3}, null);
        MinimizeCommand cmd = new MinimizeCommand();
        cmd.out = dir.resolve("failed.xyz");
        StringWriter log = new StringWriter();
        IllegalStateException e = org.junit.jupiter.api.Assertions.assertThrows(IllegalStateException.class,
                () -> cmd.relax(atoms, failing, org.molten.integrators.FireMinimizer.Options.DEFAULTS.withFmax(1e-6),
                        new PrintWriter(log, true), StopRequest.manual(), new PrintWriter(new StringWriter())));
        assertTrue(e.getMessage().contains("minimisation step 4: the force on atom 1 is NaN")
                && e.getMessage().contains("wrote step 3's structure to " + cmd.out), e.getMessage());
        Frame f = StructureFiles.readFrame(cmd.out, 0);
        String[] step3 = log.toString().split("\n")[3].split(",");
        assertEquals("3", step3[0]);
        assertEquals(Double.parseDouble(step3[1]), f.energyEv().orElseThrow(), 1e-9, "the file holds step 3");
        double e3 = 0;
        for (double x : f.atoms().positions()) {
            e3 += 0.5 * x * x;
        }
        assertEquals(e3, f.energyEv().orElseThrow(), 1e-9, "step 3's positions go with step 3's energy");
    }

    @Test
    void badOptionsAndFilesAreNamed() throws Exception {
        CliRun r = CliRun.of("minimize", "--system", "water", "--fmax", "0", "--out", dir.resolve("x.xyz").toString());
        assertEquals(1, r.status(), r.err());
        assertEquals("molten minimize: --fmax (eV/Å) must be strictly positive and finite: 0.0", r.err().strip());
        r = CliRun.of("minimize", "--system", "water");
        assertEquals(2, r.status(), r.err());
        assertTrue(r.err().contains("--out"), r.err());
        Path blocker = dir.resolve("blocker");
        Files.writeString(blocker, "precious\n");
        Path out = blocker.resolve("relaxed.xyz");
        r = CliRun.of("minimize", "--system", "water", "--force-field", "classical", "--out", out.toString());
        assertEquals(1, r.status(), r.err());
        assertTrue(r.err().strip().startsWith("molten minimize: cannot write structure file '" + out + "'"), r.err());
        assertEquals("precious\n", Files.readString(blocker));
    }
}
