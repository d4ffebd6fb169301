package org.molten.integrators;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.molten.core.Atoms;
import org.molten.core.ForceField;
import org.molten.core.RandomStream;

/**
 * FIRE against physics (the Lennard-Jones dimer's minimum at 2^(1/6) σ), against its own contract (the step cap,
 * the step count, errors) and against ASE's FIRE as the peer: the same 7-atom argon cluster relaxed by both
 * takes the same number of steps to the same positions. The peer test needs /usr/bin/python3 with ASE
 * (python3-ase): skipped without it, failed under CI=true.
 */
class FireMinimizerTest {
    private static final double SIGMA_A = 3.4;
    private static final double EPSILON_EV = 0.0104;
    private static final Path PYTHON = Path.of("/usr/bin/python3");

    /** Lennard-Jones as ASE 3.22's LennardJones calculator: all pairs within rc = 3σ, energy shifted to 0 at rc. */
    static final class AseLennardJones implements ForceField {
        private final double sigma;
        private final double epsilon;
        private final double rc;

        AseLennardJones(double sigma, double epsilon) {
            this.sigma = sigma;
            this.epsilon = epsilon;
            this.rc = 3 * sigma;
        }

        @Override
        public String name() {
            return "lennard-jones (ASE)";
        }

        @Override
        public double energyAndForces(Atoms atoms, double[] forces) {
            java.util.Arrays.fill(forces, 0.0);
            double[] r = atoms.positions();
            double s6rc = Math.pow(sigma / rc, 6);
            double e0 = 4 * epsilon * (s6rc * s6rc - s6rc);
            double e = 0;
            for (int i = 0; i < atoms.size(); i++) {
                for (int j = i + 1; j < atoms.size(); j++) {
                    double dx = r[3 * j] - r[3 * i], dy = r[3 * j + 1] - r[3 * i + 1], dz = r[3 * j + 2] - r[3 * i + 2];
                    double d2 = dx * dx + dy * dy + dz * dz;
                    if (d2 >= rc * rc) {
                        continue;
                    }
                    double c6 = Math.pow(sigma * sigma / d2, 3), c12 = c6 * c6;
                    e += 4 * epsilon * (c12 - c6) - e0;
                    double g = 24 * epsilon * (2 * c12 - c6) / d2;  // -dE/dr / r: repulsive when positive
                    forces[3 * i] -= g * dx; forces[3 * i + 1] -= g * dy; forces[3 * i + 2] -= g * dz;
                    forces[3 * j] += g * dx; forces[3 * j + 1] += g * dy; forces[3 * j + 2] += g * dz;
                }
            }
            return e;
        }
    }

    /** A force field from one function (atoms, forces out) -> energy, eV. */
    private static ForceField forceField(String name, java.util.function.ToDoubleBiFunction<Atoms, double[]> eval) {
        return new ForceField() {
            @Override
            public String name() {
                return name;
            }

            @Override
            public double energyAndForces(Atoms atoms, double[] forces) {
                return eval.applyAsDouble(atoms, forces);
            }
        };
    }

    private static Atoms argon(double... positions) {
        int[] z = new int[positions.length / 3];
        java.util.Arrays.fill(z, 18);
        return Atoms.of(z, positions, null);
    }

    /** A pentagonal bipyramid of 7 argon atoms near its minimum, each coordinate moved by up to ±0.3 Å (seeded). */
    private static Atoms argonCluster() {
        double r0 = Math.pow(2, 1.0 / 6) * SIGMA_A;
        double ring = r0 / (2 * Math.sin(Math.PI / 5));
        double h = Math.sqrt(r0 * r0 - ring * ring);
        double[] p = new double[21];
        for (int k = 0; k < 5; k++) {
            p[3 * k] = ring * Math.cos(2 * Math.PI * k / 5);
            p[3 * k + 1] = ring * Math.sin(2 * Math.PI * k / 5);
        }
        p[17] = h;
        p[20] = -h;
        RandomStream rng = new RandomStream(20261127);
        for (int i = 0; i < p.length; i++) {
            p[i] += 0.6 * (rng.nextDouble() - 0.5);
        }
        return argon(p);
    }

    @Test
    void theDimerEndsAtTheLennardJonesMinimum() {
        Atoms dimer = argon(0, 0, 0, 0, 0, 4.4);
        FireMinimizer.Result res = FireMinimizer.minimize(dimer, new AseLennardJones(SIGMA_A, EPSILON_EV),
                FireMinimizer.Options.DEFAULTS.withFmax(1e-6));
        assertTrue(res.converged(), "not converged in " + res.steps() + " steps");
        double expected = Math.pow(2, 1.0 / 6) * SIGMA_A;  // 3.8164 Å
        // |F| < 1e-6 eV/Å with a curvature of 57.1 ε/σ² = 0.051 eV/Å² leaves the distance within 2e-5 Å
        assertEquals(expected, dimer.distance(0, 1), 1e-4);
        assertEquals(-EPSILON_EV - 4 * EPSILON_EV * (Math.pow(3, -12) - Math.pow(3, -6)), res.energyEv(), 1e-9);
    }

    @Test
    void noStepMovesTheAtomsFurtherThanTheCapAndEveryStepIsOneEvaluation() {
        Atoms squeezed = argon(0, 0, 0, 0, 0, 2.9, 2.9, 0, 0);  // forces of ~1-2 eV/Å
        double[] last = squeezed.positions().clone();
        List<Double> moves = new ArrayList<>();
        int[] calls = {0};
        ForceField lj = new AseLennardJones(SIGMA_A, EPSILON_EV);
        ForceField counted = forceField("counted", (atoms, forces) -> {
            calls[0]++;
            return lj.energyAndForces(atoms, forces);
        });
        FireMinimizer.Options o = new FireMinimizer.Options(1e-4, 500, 0.1, 1.0, 0.05);
        FireMinimizer.Result res = FireMinimizer.minimize(squeezed, counted, o, (step, e, fmax, atoms, f) -> {
            double[] r = atoms.positions();
            double d2 = 0;
            for (int i = 0; i < r.length; i++) {
                d2 += (r[i] - last[i]) * (r[i] - last[i]);
            }
            moves.add(Math.sqrt(d2));
            System.arraycopy(r, 0, last, 0, r.length);
        });
        assertTrue(res.converged());
        assertEquals(res.steps() + 1, calls[0], "one force evaluation per step plus the start");
        assertEquals(res.steps() + 1, moves.size(), "the observer sees step 0 and every step");
        double largest = moves.stream().mapToDouble(Double::doubleValue).max().orElseThrow();
        assertTrue(largest <= 0.05 + 1e-12, "a step moved the atoms by " + largest + " Å (cap 0.05)");
        assertTrue(largest > 0.049, "the cap was never reached (" + largest + " Å): the test does not test it");
    }

    @Test
    void aStepLimitEndsUnconvergedAndBadInputIsNamed() {
        Atoms cluster = argonCluster();
        FireMinimizer.Result res = FireMinimizer.minimize(cluster, new AseLennardJones(SIGMA_A, EPSILON_EV),
                FireMinimizer.Options.DEFAULTS.withFmax(1e-8).withMaxSteps(3));
        assertFalse(res.converged());
        assertEquals(3, res.steps());
        String m = assertThrows(IllegalArgumentException.class,
                () -> FireMinimizer.Options.DEFAULTS.withFmax(0)).getMessage();
        assertTrue(m.contains("fmax (eV/Å)"), m);
        m = assertThrows(IllegalArgumentException.class, () -> new FireMinimizer.Options(0.05, 10, 0.5, 0.1, 0.2)).getMessage();
        assertTrue(m.contains("largest time step"), m);
        ForceField broken = forceField("broken", (atoms, forces) -> {
            java.util.Arrays.fill(forces, 1.0);
            forces[4] = Double.NaN;
            return -1;
        });
        m = assertThrows(IllegalStateException.class,
                () -> FireMinimizer.minimize(argonCluster(), broken, FireMinimizer.Options.DEFAULTS)).getMessage();
        assertTrue(m.contains("step 0") && m.contains("atom 1"), m);
    }

    /** Relaxes the cluster given as argv[1] (x y z ...) with ASE's FIRE and prints steps, energy and positions. */
    private static final String ASE_FIRE = """
            import sys
            import numpy as np
            from ase import Atoms
            from ase.calculators.lj import LennardJones
            from ase.optimize import FIRE
            p = np.array([float(x) for x in sys.argv[1].split()]).reshape(-1, 3)
            a = Atoms('Ar%d' % len(p), positions=p)
            a.calc = LennardJones(sigma=float(sys.argv[2]), epsilon=float(sys.argv[3]), rc=3 * float(sys.argv[2]))
            opt = FIRE(a, logfile=None)
            ok = opt.run(fmax=float(sys.argv[4]), steps=2000)
            print('steps', opt.nsteps, ok)
            print('energy', repr(float(a.get_potential_energy())))
            print('positions', ' '.join(repr(float(x)) for x in a.positions.flatten()))
            """;

    @Test
    void aseFireTakesTheSameStepsToTheSamePositions() throws Exception {
        requireAse();
        Atoms cluster = argonCluster();
        StringBuilder start = new StringBuilder();
        for (double x : cluster.positions()) {
            start.append(Double.toString(x)).append(' ');
        }
        double fmax = 1e-4;
        Process p = new ProcessBuilder(PYTHON.toString(), "-c", ASE_FIRE, start.toString().trim(), Double.toString(SIGMA_A),
                Double.toString(EPSILON_EV), Double.toString(fmax)).redirectErrorStream(true).start();
        p.getOutputStream().close();
        String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertTrue(p.waitFor(120, TimeUnit.SECONDS) && p.exitValue() == 0, "ASE's FIRE failed:\n" + out);
        int aseSteps = -1;
        double aseEnergy = Double.NaN;
        double[] asePositions = null;
        for (String line : out.split("\n")) {
            String[] t = line.trim().split("\\s+");
            switch (t[0]) {
                case "steps" -> {
                    aseSteps = Integer.parseInt(t[1]);
                    assertEquals("True", t[2], "ASE did not converge:\n" + out);
                }
                case "energy" -> aseEnergy = Double.parseDouble(t[1]);
                case "positions" -> {
                    asePositions = new double[t.length - 1];
                    for (int i = 1; i < t.length; i++) {
                        asePositions[i - 1] = Double.parseDouble(t[i]);
                    }
                }
                default -> { }
            }
        }
        FireMinimizer.Result res = FireMinimizer.minimize(cluster, new AseLennardJones(SIGMA_A, EPSILON_EV),
                FireMinimizer.Options.DEFAULTS.withFmax(fmax).withMaxSteps(2000));
        assertTrue(res.converged());
        assertTrue(res.steps() > 30, "too easy a start to compare paths: " + res.steps() + " steps");
        assertEquals(aseSteps, res.steps(), "FIRE steps, Molten vs ASE");
        assertEquals(aseEnergy, res.energyEv(), 1e-10, "final energy (eV), Molten vs ASE");
        double worst = 0;
        for (int i = 0; i < asePositions.length; i++) {
            worst = Math.max(worst, Math.abs(asePositions[i] - cluster.positions()[i]));
        }
        assertTrue(worst < 1e-6, String.format(Locale.ROOT, "final positions differ from ASE's by %.3g Å", worst));
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
