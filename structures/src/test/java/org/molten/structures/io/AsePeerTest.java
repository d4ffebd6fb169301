package org.molten.structures.io;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;

import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
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
            import sys, ase, ase.io
            frames = ase.io.read(sys.argv[1], index=':', format='extxyz')
            for a in frames:
                calc = a.calc
                e = repr(float(calc.get_potential_energy())) if calc is not None and 'energy' in calc.results else 'none'
                f = repr(float(calc.get_forces()[0][1])) if calc is not None and 'forces' in calc.results else 'none'
                v = repr(float(a.arrays['velocities'][0][2])) if 'velocities' in a.arrays else 'none'
                pbc = ''.join('T' if p else 'F' for p in a.pbc)
                print(len(a), a.get_chemical_formula(mode='hill'), pbc, e, f, v, repr(float(a.get_masses()[0])),
                      repr(float(a.cell.array[2][1])), repr(float(a.positions[1][0])), a.info.get('step', 'none'))
            ase.io.write(sys.argv[2], frames, format='extxyz')
            print('ase', ase.__version__)
            """;

    @BeforeAll
    static void requireAse() throws Exception {
        PeerTool.require(Files.isExecutable(PYTHON), "/usr/bin/python3", "apt-get install python3");
        Process p = new ProcessBuilder(PYTHON.toString(), "-c", "import ase").redirectErrorStream(true).start();
        p.getInputStream().readAllBytes();
        PeerTool.require(p.waitFor(60, TimeUnit.SECONDS) && p.exitValue() == 0, "ASE for /usr/bin/python3",
                "apt-get install python3-ase");
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
