package org.molten.structures.io;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;

import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.molten.core.RandomStream;
import org.molten.core.Units;
import org.molten.structures.BuiltInMolecules;
import org.molten.structures.WaterBox;

/**
 * ASE as the peer: ASE reads Molten's extended XYZ (checked field by field) and writes it back,
 * and Molten reads ASE's file to the same frames. Skipped where {@code /usr/bin/python3} cannot
 * {@code import ase} (Debian: python3-ase), except under {@code CI=true}, where that fails ({@link PeerTool}).
 */
class AsePeerTest {
    private static final Path PYTHON = Path.of("/usr/bin/python3");

    @TempDir
    Path dir;

    /** Reads Molten's file with ASE, prints what ASE understood, writes the frames back with ASE. */
    private static final String SCRIPT = """
            import sys, ase, ase.io, ase.units
            frames = ase.io.read(sys.argv[1], index=':', format='extxyz')
            for a in frames:
                calc = a.calc
                e = repr(float(calc.get_potential_energy())) if calc is not None and 'energy' in calc.results else 'none'
                f = repr(float(calc.get_forces()[0][1])) if calc is not None and 'forces' in calc.results else 'none'
                v = repr(float(a.get_velocities()[0][2] * ase.units.fs)) if 'momenta' in a.arrays else 'none'
                pbc = ''.join('T' if p else 'F' for p in a.pbc)
                print(len(a), a.get_chemical_formula(mode='hill'), pbc, e, f, v, repr(float(a.get_masses()[0])),
                      repr(float(a.cell.array[2][1])), repr(float(a.positions[1][0])), a.info.get('step', 'none'))
            ase.io.write(sys.argv[2], frames, format='extxyz')
            print('ase', ase.__version__)
            """;

    @BeforeAll
    static void requireAse() throws Exception {
        // Under CI=true a missing ASE fails the tests, so that a broken install step cannot hide them.
        boolean ci = "true".equals(System.getenv("CI"));
        boolean present = Files.isExecutable(PYTHON);
        if (present) {
            Process p = new ProcessBuilder(PYTHON.toString(), "-c", "import ase").redirectErrorStream(true).start();
            p.getInputStream().readAllBytes();
            present = p.waitFor(60, TimeUnit.SECONDS) && p.exitValue() == 0;
        }
        if (ci) {
            assertTrue(present, "CI=true but " + PYTHON + " cannot import ase (install python3-ase)");
        }
        assumeTrue(present, "python3-ase is not installed (" + PYTHON + " -c 'import ase' failed)");
    }

    /**
     * Prints, per frame, what ASE understood: one line per quantity, {@code name v1 v2 ...}, with
     * velocities converted to Å/fs by {@code ase.units.fs} and the cell as 9 numbers.
     */
    private static final String TRAJECTORY_SCRIPT = """
            import sys, numpy, ase.io, ase.units
            print('ase_fs', repr(ase.units.fs))
            for a in ase.io.read(sys.argv[1], index=':', format='extxyz'):
                print('frame', len(a))
                print('pbc', ' '.join('T' if p else 'F' for p in a.pbc))
                for name, values in (('positions', a.get_positions()), ('velocities', a.get_velocities() * ase.units.fs),
                                     ('masses', a.get_masses()), ('cell', a.cell.array), ('forces', a.get_forces()),
                                     ('energy', [a.get_potential_energy()]), ('numbers', a.numbers)):
                    print(name, ' '.join(repr(float(x)) for x in numpy.asarray(values).flatten()))
            """;

    /** A thermal trajectory frame: velocities ~ sqrt(kT/m) at 300 K, made-up energy and forces. */
    private static Frame thermalFrame(org.molten.core.Atoms start, RandomStream rng, int step) {
        org.molten.core.Atoms a = start.copy();
        int n = a.size();
        double[] f = new double[3 * n];
        for (int i = 0; i < n; i++) {
            double sigma = Math.sqrt(Units.BOLTZMANN_EV_PER_K * 300 / a.massAmu(i) * Units.ACCEL_A_PER_FS2); // Å/fs
            for (int k = 0; k < 3; k++) {
                a.velocities()[3 * i + k] = sigma * rng.nextGaussian();
                a.positions()[3 * i + k] += 0.05 * rng.nextGaussian();
                f[3 * i + k] = 2 * rng.nextGaussian();
            }
        }
        return Frame.of(a, -100.0 * n - 0.37 * step + 1e-3 * rng.nextGaussian(), f).withInfo("step", Integer.toString(step));
    }

    @Test
    void aseReadsMoltenTrajectoriesPositionsVelocitiesEnergiesForcesAndCell() throws Exception {
        long seed = 2024;
        RandomStream rng = new RandomStream(seed);
        Path script = dir.resolve("trajectory.py");
        Files.writeString(script, TRAJECTORY_SCRIPT);
        for (String system : List.of("water-box", "ethanol")) {
            org.molten.core.Atoms start = system.equals("water-box") ? WaterBox.build(16, 3)
                    : BuiltInMolecules.load(system);
            List<Frame> frames = new java.util.ArrayList<>();
            Path traj = dir.resolve(system + ".extxyz");
            try (ExtendedXyzWriter w = ExtendedXyzWriter.create(traj, VelocityColumn.ALWAYS)) {
                for (int step = 0; step < 30; step += 10) {
                    Frame fr = thermalFrame(start, rng, step);
                    frames.add(fr);
                    w.write(fr);
                }
            }
            Process p = new ProcessBuilder(PYTHON.toString(), script.toString(), traj.toString())
                    .redirectErrorStream(true).start();
            String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
            assertEquals(true, p.waitFor(120, TimeUnit.SECONDS), "ASE did not finish");
            assertEquals(0, p.exitValue(), "ASE failed:\n" + out);
            List<String> lines = out.lines().filter(l -> !l.contains("Warning") && !l.startsWith("  warnings.warn")).toList();
            String context = system + " (seed " + seed + "), ASE printed:\n" + out.substring(0, Math.min(out.length(), 1500));

            // Molten's ASE time unit agrees with ASE's (CODATA 2014 in ASE 3.22, 2018 here: parts in 1e8)
            double aseFs = Double.parseDouble(lines.get(0).split(" ")[1]);
            assertEquals(1.0 / aseFs, Units.ASE_TIME_UNIT_FS, 1e-7 * Units.ASE_TIME_UNIT_FS, context);

            int at = 1;
            for (Frame e : frames) {
                org.molten.core.Atoms a = e.atoms();
                assertEquals("frame " + a.size(), lines.get(at++), context);
                boolean[] pbc = a.cellOrNull() == null ? new boolean[3] : a.cellOrNull().pbc();
                assertEquals("pbc " + (pbc[0] ? "T" : "F") + " " + (pbc[1] ? "T" : "F") + " " + (pbc[2] ? "T" : "F"),
                        lines.get(at++), context);
                // written with 8 decimals (positions, forces), 10 (momenta: |error in v| ≤ 0.5e-10 / (m t_ASE));
                // ASE 3.22 converts with CODATA 2014, Molten with 2018: relative 1e-8 more on velocities
                assertArrayEquals(a.positions(), numbers(lines.get(at++), "positions"), 0.5e-8 + 1e-12, context);
                double vMax = java.util.Arrays.stream(a.velocities()).map(Math::abs).max().orElse(0);
                assertArrayEquals(a.velocities(), numbers(lines.get(at++), "velocities"), 1e-11 + 1e-8 * vMax, context);
                assertArrayEquals(a.massesAmu(), numbers(lines.get(at++), "masses"), 1e-8, context);
                double[] cell = numbers(lines.get(at++), "cell");
                for (int i = 0; i < 3; i++) {
                    double[] vec = a.cellOrNull() == null ? new double[3] : a.cellOrNull().vector(i);
                    assertArrayEquals(vec, java.util.Arrays.copyOfRange(cell, 3 * i, 3 * i + 3), 0.0, context);
                }
                assertArrayEquals(e.forcesEvPerA().get(), numbers(lines.get(at++), "forces"), 0.5e-8 + 1e-12, context);
                assertEquals(e.energyEv().getAsDouble(), numbers(lines.get(at++), "energy")[0], 0.0, context);
                double[] z = numbers(lines.get(at++), "numbers");
                for (int i = 0; i < a.size(); i++) {
                    assertEquals(a.atomicNumbers()[i], (int) z[i], context);
                }
            }
            assertEquals(lines.size(), at, context);
            // and Molten reads its own trajectory back to the same velocities
            List<Frame> back = ExtendedXyzFormat.readAll(traj);
            for (int i = 0; i < frames.size(); i++) {
                assertArrayEquals(frames.get(i).atoms().velocities(), back.get(i).atoms().velocities(), 1e-11, context);
            }
        }
    }

    private static double[] numbers(String line, String name) {
        String[] t = line.split(" ");
        assertEquals(name, t[0], line);
        double[] x = new double[t.length - 1];
        for (int i = 1; i < t.length; i++) {
            x[i - 1] = Double.parseDouble(t[i]);
        }
        return x;
    }

    @Test
    void aseReadsMoltenAndMoltenReadsAse() throws Exception {
        Frame rich = ExtendedXyzFormatTest.richFrame(11, 17).withInfo("note", "a \"quoted\" word, and spaces");
        Frame water = Frame.of(BuiltInMolecules.load("water"));
        Frame box = Frame.of(WaterBox.build(8, 2)).withEnergyEv(-1103.8125);
        List<Frame> frames = List.of(rich, water, box);
        Path molten = dir.resolve("molten.extxyz");
        Path ase = dir.resolve("ase.extxyz");
        ExtendedXyzFormat.write(molten, frames);
        Path script = dir.resolve("peer.py");
        Files.writeString(script, SCRIPT);

        Process p = new ProcessBuilder(PYTHON.toString(), script.toString(), molten.toString(), ase.toString())
                .redirectErrorStream(true).start();
        String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertEquals(true, p.waitFor(120, TimeUnit.SECONDS), "ASE did not finish");
        assertEquals(0, p.exitValue(), "ASE failed:\n" + out);
        List<String> lines = out.lines().filter(l -> !l.contains("Warning") && !l.startsWith("  warnings.warn")).toList();

        // What ASE understood from Molten's file.
        String[] r = lines.get(0).split(" ");
        assertEquals("17", r[0]);
        assertEquals(rich.atoms().formula(), r[1]);
        assertEquals("TTF", r[2]);
        assertEquals(rich.energyEv().getAsDouble(), Double.parseDouble(r[3]), 1e-12);
        assertEquals(rich.forcesEvPerA().get()[1], Double.parseDouble(r[4]), 0.5e-8 + 1e-12);
        assertEquals(rich.atoms().velocities()[2], Double.parseDouble(r[5]), 0.5e-10 + 1e-14);
        assertEquals(rich.atoms().massAmu(0), Double.parseDouble(r[6]), 0.5e-8);
        assertEquals(rich.atoms().cellOrNull().vector(2)[1], Double.parseDouble(r[7]), 0.0);
        assertEquals(rich.atoms().positions()[3], Double.parseDouble(r[8]), 0.5e-8 + 1e-12);
        assertEquals("1000", r[9]);
        String[] w = lines.get(1).split(" ");
        assertEquals(List.of("3", "H2O", "FFF", "none", "none", "none"), List.of(w).subList(0, 6));
        String[] b = lines.get(2).split(" ");
        assertEquals(List.of("24", "H16O8", "TTT", "-1103.8125", "none", "none"), List.of(b).subList(0, 6));

        // Molten reads what ASE wrote back: the same frames (ASE rewrites velocities with 8 decimals).
        List<Frame> back = ExtendedXyzFormat.readAll(ase);
        assertEquals(3, back.size(), Files.readString(ase));
        for (int i = 0; i < 3; i++) {
            Frame e = frames.get(i), a = back.get(i);
            assertArrayEquals(e.atoms().atomicNumbers(), a.atoms().atomicNumbers());
            assertArrayEquals(e.atoms().massesAmu(), a.atoms().massesAmu(), 1e-8);
            assertArrayEquals(e.atoms().positions(), a.atoms().positions(), 0.5e-8 + 1e-12);
            assertArrayEquals(e.atoms().velocities(), a.atoms().velocities(), 0.5e-8 + 0.5e-10 + 1e-14);
            assertEquals(e.atoms().cellOrNull(), a.atoms().cellOrNull());
            assertEquals(e.energyEv().isPresent(), a.energyEv().isPresent());
            if (e.energyEv().isPresent()) {
                assertEquals(e.energyEv().getAsDouble(), a.energyEv().getAsDouble(), 1e-9);
            }
            assertEquals(e.hasForces(), a.hasForces());
            if (e.hasForces()) {
                assertArrayEquals(e.forcesEvPerA().get(), a.forcesEvPerA().get(), 0.5e-8 + 1e-12);
            }
        }
        assertEquals("a \"quoted\" word, and spaces", back.get(0).info().get("note"));
        assertEquals("1000", back.get(0).info().get("step"));
        assertEquals(Double.parseDouble(rich.info().get("time_fs")), Double.parseDouble(back.get(0).info().get("time_fs")));
    }

    @Test
    void aseReadsMoltenPdbAndMoltenReadsAsePdb() throws Exception {
        org.molten.core.Cell tri = org.molten.core.Cell.of(new double[][] {{14, 0, 0}, {3, 13, 0}, {-2, 1.5, 15}},
                new boolean[] {true, true, true});
        Frame pep = Frame.of(BuiltInMolecules.load("ace-ala5-nme").withCell(tri));
        Path molten = dir.resolve("molten.pdb");
        Path ase = dir.resolve("ase.pdb");
        PdbFormat.write(molten, List.of(pep));
        String script = """
                import sys, ase.io
                a = ase.io.read(sys.argv[1], format='proteindatabank')
                print(len(a), a.get_chemical_formula(mode='hill'), ''.join('T' if p else 'F' for p in a.pbc),
                      ' '.join(repr(float(x)) for x in a.cell.cellpar()))
                ase.io.write(sys.argv[2], a, format='proteindatabank')
                """;
        Path py = dir.resolve("pdb.py");
        Files.writeString(py, script);
        Process p = new ProcessBuilder(PYTHON.toString(), py.toString(), molten.toString(), ase.toString())
                .redirectErrorStream(true).start();
        String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertEquals(true, p.waitFor(120, TimeUnit.SECONDS), "ASE did not finish");
        assertEquals(0, p.exitValue(), "ASE failed:\n" + out);
        String[] r = out.lines().filter(l -> l.startsWith("62 ")).findFirst().orElseThrow().split(" ");
        assertEquals("C18H32N6O6", r[1]);
        assertEquals("TTT", r[2]);
        double[] expected = PdbFormat.parametersOf(tri);
        for (int i = 0; i < 6; i++) {
            assertEquals(expected[i], Double.parseDouble(r[3 + i]), i < 3 ? 0.5e-3 : 0.5e-2, "cell parameter " + i);
        }
        Frame back = PdbFormat.readAll(ase).get(0);
        assertArrayEquals(pep.atoms().atomicNumbers(), back.atoms().atomicNumbers());
        assertArrayEquals(pep.atoms().positions(), back.atoms().positions(), 1.5e-3);
        for (int i = 0; i < 3; i++) {
            assertArrayEquals(tri.vector(i), back.atoms().cellOrNull().vector(i), 5e-3);
        }
    }
}
