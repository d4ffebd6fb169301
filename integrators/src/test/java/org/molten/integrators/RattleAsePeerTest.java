package org.molten.integrators;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.molten.core.Atoms;
import org.molten.core.RandomStream;
import org.molten.integrators.constraints.Constraints;

/**
 * RATTLE against its real peer: ASE 3.22's VelocityVerlet with FixBondLengths on the same
 * Lennard-Jones system (four argon pairs held at 2.45 Å, within argon's covalent bonding distance, in a
 * cluster of ten atoms), the same start and 2 fs steps: after 100 steps every position agrees within 1e-6 Å
 * and the held lengths are ASE's. Needs /usr/bin/python3 with ASE (python3-ase): skipped without it,
 * failed under CI=true.
 */
class RattleAsePeerTest {
    private static final double SIGMA_A = 3.4;
    private static final double EPSILON_EV = 0.0104;
    private static final double DT_FS = 2.0;
    private static final int STEPS = 100;
    private static final double TOLERANCE = 1e-13;   // ASE's FixBondLengths default
    private static final Path PYTHON = Path.of("/usr/bin/python3");
    private static final int[][] PAIRS = {{0, 1}, {2, 3}, {4, 5}, {6, 7}};

    private static final String ASE_RATTLE = """
            import sys
            import numpy as np
            from ase import Atoms, units
            from ase.calculators.lj import LennardJones
            from ase.constraints import FixBondLengths
            from ase.md.verlet import VelocityVerlet
            p = np.array([float(x) for x in sys.argv[1].split()]).reshape(-1, 3)
            v = np.array([float(x) for x in sys.argv[2].split()]).reshape(-1, 3)   # A/fs
            a = Atoms('Ar%d' % len(p), positions=p)
            a.calc = LennardJones(sigma=float(sys.argv[3]), epsilon=float(sys.argv[4]), rc=3 * float(sys.argv[3]))
            a.set_momenta(v / units.fs * a.get_masses()[:, None], apply_constraint=False)
            a.set_constraint(FixBondLengths([[0, 1], [2, 3], [4, 5], [6, 7]], tolerance=float(sys.argv[7])))
            dyn = VelocityVerlet(a, timestep=float(sys.argv[5]) * units.fs, logfile=None)
            dyn.run(int(sys.argv[6]))
            print('positions', ' '.join(repr(float(x)) for x in a.positions.flatten()))
            print('velocities', ' '.join(repr(float(x)) for x in (a.get_velocities() * units.fs).flatten()))
            print('lengths', ' '.join(repr(float(a.get_distance(i, j))) for i, j in [[0, 1], [2, 3], [4, 5], [6, 7]]))
            """;

    /** Four Ar-Ar pairs at 2.45 A on the corners of a square 4.4 A apart, two lone atoms above and below; seeded jitter. */
    private static Atoms pairsCluster() {
        double[] p = new double[30];
        double[][] centres = {{0, 0, 0}, {4.4, 0, 0}, {0, 4.4, 0}, {4.4, 4.4, 0}};
        double[][] axes = {{1, 0, 0}, {0, 1, 0}, {0, 0, 1}, {0.6, 0.8, 0}};
        RandomStream rng = new RandomStream(2026);
        for (int k = 0; k < 4; k++) {
            for (int c = 0; c < 3; c++) {
                double jitter = 0.1 * (rng.nextDouble() - 0.5);
                p[6 * k + c] = centres[k][c] - 1.225 * axes[k][c] + jitter;
                p[6 * k + 3 + c] = centres[k][c] + 1.225 * axes[k][c] + jitter;
            }
        }
        double[] lone = {2.2, 2.2, 3.6, 2.2, 2.2, -3.6};
        System.arraycopy(lone, 0, p, 24, 6);
        int[] z = new int[10];
        java.util.Arrays.fill(z, 18);
        return Atoms.of(z, p, null);
    }

    @Test
    void aseVelocityVerletWithFixBondLengthsReachesTheSamePositions() throws Exception {
        requireAse();
        List<Constraints.Pair> pairs = java.util.Arrays.stream(PAIRS).map(q -> new Constraints.Pair(q[0], q[1])).toList();
        Simulation sim = Simulation.builder(pairsCluster(), new FireMinimizerTest.AseLennardJones(SIGMA_A, EPSILON_EV),
                        new VelocityVerlet(DT_FS))
                .seed(7).temperature(60).platform("cpu").constraints(Constraints.pairs(pairs).withTolerance(TOLERANCE)).build();
        assertEquals(30 - 6 - 4, sim.degreesOfFreedom());
        String start = join(sim.atoms().positions());
        String velocities = join(sim.atoms().velocities());
        double[] lengths = new double[4];
        for (int k = 0; k < 4; k++) {
            lengths[k] = sim.atoms().distance(PAIRS[k][0], PAIRS[k][1]);
        }
        Process p = new ProcessBuilder(PYTHON.toString(), "-c", ASE_RATTLE, start, velocities, Double.toString(SIGMA_A),
                Double.toString(EPSILON_EV), Double.toString(DT_FS), Integer.toString(STEPS), Double.toString(TOLERANCE))
                .redirectErrorStream(true).start();
        p.getOutputStream().close();
        String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertTrue(p.waitFor(120, TimeUnit.SECONDS) && p.exitValue() == 0, "ASE's VelocityVerlet failed:\n" + out);
        double[] asePositions = null, aseVelocities = null, aseLengths = null;
        for (String line : out.split("\n")) {
            String[] t = line.trim().split("\\s+");
            double[] values = new double[t.length - 1];
            for (int i = 1; i < t.length; i++) {
                values[i - 1] = Double.parseDouble(t[i]);
            }
            switch (t[0]) {
                case "positions" -> asePositions = values;
                case "velocities" -> aseVelocities = values;
                case "lengths" -> aseLengths = values;
                default -> { }
            }
        }
        double startMove = maxDifference(pairsCluster().positions(), asePositions);
        sim.step(STEPS);
        double worst = maxDifference(asePositions, sim.atoms().positions());
        double worstV = maxDifference(aseVelocities, sim.atoms().velocities());
        System.out.printf(Locale.ROOT, "RATTLE vs ASE FixBondLengths, %d steps of %s fs: positions within %.2e A (the atoms moved"
                + " up to %.2f A), velocities within %.2e A/fs%n", STEPS, DT_FS, worst, startMove, worstV);
        assertTrue(startMove > 0.3, "too short a run to compare paths: atoms moved " + startMove + " A");
        assertTrue(worst < 1e-6, String.format(Locale.ROOT, "positions differ from ASE's by %.3g A", worst));
        assertTrue(worstV < 1e-6, String.format(Locale.ROOT, "velocities differ from ASE's by %.3g A/fs", worstV));
        for (int k = 0; k < 4; k++) {
            assertEquals(lengths[k], aseLengths[k], 1e-10, "ASE's length of pair " + k);
            assertEquals(lengths[k], sim.atoms().distance(PAIRS[k][0], PAIRS[k][1]), 1e-10, "length of pair " + k);
        }
        sim.close();
    }

    private static double maxDifference(double[] a, double[] b) {
        double worst = 0;
        for (int i = 0; i < a.length; i++) {
            worst = Math.max(worst, Math.abs(a[i] - b[i]));
        }
        return worst;
    }

    private static String join(double[] xs) {
        StringBuilder s = new StringBuilder();
        for (double x : xs) {
            s.append(Double.toString(x)).append(' ');
        }
        return s.toString().trim();
    }

    private static void requireAse() throws Exception {
        boolean present = Files.isExecutable(PYTHON);
        if (present) {
            Process p = new ProcessBuilder(PYTHON.toString(), "-c", "import ase").redirectErrorStream(true).start();
            p.getInputStream().readAllBytes();
            present = p.waitFor(60, TimeUnit.SECONDS) && p.exitValue() == 0;
        }
        if ("true".equals(System.getenv("CI"))) {
            assertTrue(present, "CI=true but " + PYTHON + " cannot import ase (install python3-ase)");
        }
        assumeTrue(present, "python3-ase is not installed (" + PYTHON + " -c 'import ase' failed)");
    }
}
