package org.molten.structures.io;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.io.StringReader;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.molten.core.Atoms;
import org.molten.core.Cell;
import org.molten.core.RandomStream;
import org.molten.core.Units;

class ExtendedXyzFormatTest {
    @TempDir
    Path dir;

    /** A triclinic, partly periodic frame with every field set, values drawn from a seeded stream. */
    static Frame richFrame(long seed, int n) {
        RandomStream rng = new RandomStream(seed);
        int[] z = new int[n];
        double[] m = new double[n];
        double[] r = new double[3 * n];
        double[] v = new double[3 * n];
        double[] f = new double[3 * n];
        int[] species = {1, 6, 7, 8, 17};
        for (int i = 0; i < n; i++) {
            z[i] = species[i % species.length];
            m[i] = z[i] == 1 && i % 2 == 0 ? 2.014 : org.molten.core.Element.ofAtomicNumber(z[i]).massAmu; // some deuterium
            for (int k = 0; k < 3; k++) {
                r[3 * i + k] = 20 * rng.nextDouble() - 5;
                v[3 * i + k] = 0.02 * rng.nextGaussian();
                f[3 * i + k] = 3 * rng.nextGaussian();
            }
        }
        Cell cell = Cell.of(new double[][] {{12.5, 0, 0}, {1.25, 11.0, 0.0}, {-0.5, 0.75, 13.125}},
                new boolean[] {true, true, false});
        Atoms atoms = Atoms.of(z, m, r, v, cell);
        Map<String, String> info = new LinkedHashMap<>();
        info.put("step", "1000");
        info.put("time_fs", "500.0");
        info.put("note", "a \"quoted\" word, a back\\slash and spaces");
        return Frame.of(atoms, -1234.567890123 - seed, f).withInfo(info);
    }

    static void assertSameFrame(Frame expected, Frame actual, double posTol, double velTol, double forceTol) {
        Atoms e = expected.atoms(), a = actual.atoms();
        assertArrayEquals(e.atomicNumbers(), a.atomicNumbers());
        assertArrayEquals(e.massesAmu(), a.massesAmu(), 1e-8);
        assertArrayEquals(e.positions(), a.positions(), posTol);
        assertArrayEquals(e.velocities(), a.velocities(), velTol);
        assertEquals(e.cell().isPresent(), a.cell().isPresent());
        if (e.cell().isPresent()) {
            assertEquals(e.cellOrNull(), a.cellOrNull(), "cell and pbc exactly");
        }
        assertEquals(expected.energyEv(), actual.energyEv());
        assertEquals(expected.hasForces(), actual.hasForces());
        if (expected.hasForces()) {
            assertArrayEquals(expected.forcesEvPerA().get(), actual.forcesEvPerA().get(), forceTol);
        }
        assertEquals(expected.info(), actual.info());
    }

    @Test
    void roundTripKeepsEveryFieldToThePrintedPrecision() throws IOException {
        Frame frame = richFrame(1, 23);
        Path p = dir.resolve("rich.extxyz");
        ExtendedXyzFormat.write(p, List.of(frame));
        List<Frame> back = ExtendedXyzFormat.readAll(p);
        assertEquals(1, back.size());
        // 8 decimals for positions and forces, 10 for momenta (amu·Å/t_ASE, t_ASE ≈ 10.18 fs, m ≥ 1 amu):
        // half a unit in the last place
        assertSameFrame(frame, back.get(0), 0.5e-8 + 1e-12, 0.5e-10 + 1e-14, 0.5e-8 + 1e-12);
        String header = Files.readAllLines(p).get(1);
        assertTrue(header.startsWith("Lattice=\"12.5 0.0 0.0 1.25 11.0 0.0 -0.5 0.75 13.125\" "
                + "Properties=species:S:1:pos:R:3:masses:R:1:momenta:R:3:forces:R:3 energy=-1235.567890123 "), header);
        assertTrue(header.endsWith(" pbc=\"T T F\""), header);
        assertTrue(header.contains(" note=\"a \\\"quoted\\\" word, a back\\\\slash and spaces\""), header);
    }

    @Test
    void multiFrameAndGzip() throws IOException {
        List<Frame> frames = List.of(richFrame(1, 5), Frame.of(org.molten.structures.BuiltInMolecules.load("water")),
                richFrame(3, 40));
        for (String name : List.of("traj.xyz", "traj.xyz.gz", "traj.extxyz.gz")) {
            Path p = dir.resolve(name);
            StructureFiles.write(p, frames);
            byte[] bytes = Files.readAllBytes(p);
            assertEquals(name.endsWith(".gz"), (bytes[0] & 0xff) == 0x1f && (bytes[1] & 0xff) == 0x8b, name);
            List<Frame> back = StructureFiles.readAll(p);
            assertEquals(3, back.size());
            for (int i = 0; i < 3; i++) {
                assertSameFrame(frames.get(i), back.get(i), 1e-8, 1e-10, 1e-8);
            }
            assertTrue(back.get(1).atoms().cell().isEmpty());
            assertTrue(back.get(1).energyEv().isEmpty());
        }
    }

    @Test
    void compressedContentIsRecognisedWhateverTheName() throws IOException {
        Path gz = dir.resolve("a.xyz.gz");
        ExtendedXyzFormat.write(gz, List.of(richFrame(2, 4)));
        Path renamed = dir.resolve("b.xyz");
        Files.copy(gz, renamed);
        assertSameFrame(richFrame(2, 4), ExtendedXyzFormat.readAll(renamed).get(0), 1e-8, 1e-10, 1e-8);
    }

    @Test
    void streamingWriterKeepsFlushedFramesOfACrashedRun() throws IOException {
        for (String name : List.of("crash.xyz", "crash.xyz.gz")) {
            Path p = dir.resolve(name);
            ExtendedXyzWriter w = ExtendedXyzWriter.create(p);
            w.write(richFrame(1, 6));
            w.write(richFrame(2, 6));
            // No close(): copy the file as it is on disk, as if the process had died here.
            Path snapshot = dir.resolve("snapshot-" + name);
            Files.copy(p, snapshot);
            List<Frame> back = ExtendedXyzFormat.readAll(snapshot);
            assertEquals(2, back.size(), name);
            assertSameFrame(richFrame(2, 6), back.get(1), 1e-8, 1e-10, 1e-8);
            w.close();
            assertEquals(2, ExtendedXyzFormat.readAll(p).size());
        }
    }

    @Test
    void appendContinuesATrajectoryPlainAndCompressed() throws IOException {
        for (String name : List.of("restart.xyz", "restart.xyz.gz")) {
            Path p = dir.resolve(name);
            try (ExtendedXyzWriter w = ExtendedXyzWriter.create(p)) {
                w.write(richFrame(1, 3));
            }
            try (ExtendedXyzWriter w = ExtendedXyzWriter.append(p, VelocityColumn.WHEN_NONZERO)) {
                Atoms a = richFrame(2, 3).atoms().copy();
                w.write(a, -5.0, new double[9]);
                assertEquals(1, w.framesWritten());
            }
            List<Frame> back = ExtendedXyzFormat.readAll(p);
            assertEquals(2, back.size(), name);
            assertEquals(-5.0, back.get(1).energyEv().getAsDouble());
        }
    }

    @Test
    void velocityColumnPolicy() {
        Atoms still = org.molten.structures.BuiltInMolecules.load("water");
        assertFalse(ExtendedXyzFormat.toString(Frame.of(still), VelocityColumn.WHEN_NONZERO).contains("momenta"));
        assertTrue(ExtendedXyzFormat.toString(Frame.of(still), VelocityColumn.ALWAYS).contains(":momenta:R:3"));
        still.velocities()[4] = 0.01;
        assertTrue(ExtendedXyzFormat.toString(Frame.of(still), VelocityColumn.WHEN_NONZERO).contains(":momenta:R:3"));
        assertFalse(ExtendedXyzFormat.toString(Frame.of(still), VelocityColumn.NEVER).contains("momenta"));
        assertFalse(ExtendedXyzFormat.toString(Frame.of(still), VelocityColumn.ALWAYS).contains("velocities"));
    }

    @Test
    void writesMomentaInAseUnitsAndReadsTheOldVelocitiesColumn() throws IOException {
        // one O atom at v = (0.01, 0, -0.002) Å/fs: p = m v t_ASE, t_ASE = Å sqrt(amu/eV) = 10.1805 fs
        Atoms o = Atoms.of(new int[] {8}, new double[] {15.999}, new double[3], new double[] {0.01, 0, -0.002}, null);
        String text = ExtendedXyzFormat.toString(Frame.of(o), VelocityColumn.ALWAYS);
        String[] atomLine = text.lines().toList().get(2).trim().split("\\s+");
        assertEquals(15.999 * 0.01 * 10.1805055, Double.parseDouble(atomLine[4]), 1e-6, text);
        assertEquals(15.999 * -0.002 * 10.1805055, Double.parseDouble(atomLine[6]), 1e-6, text);
        assertEquals(10.1805055, Units.ASE_TIME_UNIT_FS, 1e-6);
        assertArrayEquals(o.velocities(), ExtendedXyzFormat.readAll(new StringReader(text), "m.xyz").get(0)
                .atoms().velocities(), 1e-12);

        // files of older Molten versions: a velocities column in Å/fs
        String old = "1\nProperties=species:S:1:pos:R:3:velocities:R:3 pbc=\"F F F\"\nO 0 0 0 0.01 0 -0.002\n";
        assertArrayEquals(o.velocities(), ExtendedXyzFormat.readAll(new StringReader(old), "old.xyz").get(0)
                .atoms().velocities(), 1e-15);

        // both columns: read when they agree (the momenta win), refused naming the line when not
        double px = 15.999 * 0.01 * Units.ASE_TIME_UNIT_FS;
        String both = "1\nProperties=species:S:1:pos:R:3:velocities:R:3:momenta:R:3\nO 0 0 0 0.01 0 0 " + px + " 0 0\n";
        assertEquals(0.01, ExtendedXyzFormat.readAll(new StringReader(both), "both.xyz").get(0).atoms().velocities()[0],
                1e-12);
        String clash = "1\nProperties=species:S:1:pos:R:3:velocities:R:3:momenta:R:3\nO 0 0 0 0.02 0 0 " + px + " 0 0\n";
        StructureFormatException e = assertThrows(StructureFormatException.class,
                () -> ExtendedXyzFormat.readAll(new StringReader(clash), "clash.xyz"));
        assertEquals(3, e.line(), e.getMessage());
        assertTrue(e.getMessage().startsWith("clash.xyz:3: atom 1: the velocities column says x = 0.02 Å/fs but the "
                + "momenta column gives 0.01"), e.getMessage());
    }

    @Test
    void writerRefusesNonFiniteStateAndWritesNothing() throws IOException {
        StringWriter sw = new StringWriter();
        Atoms a = org.molten.structures.BuiltInMolecules.load("ethanol");
        try (ExtendedXyzWriter w = ExtendedXyzWriter.to(sw, "memory", VelocityColumn.WHEN_NONZERO)) {
            w.write(a);
            a.positions()[7] = Double.NaN;
            IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> w.write(a));
            assertTrue(e.getMessage().contains("atom 2 (O): position y is NaN"), e.getMessage());
        }
        assertEquals(1, ExtendedXyzFormat.readAll(new StringReader(sw.toString()), "memory").size());
    }

    @Test
    void readsAseStyleFilesWithMomentaAndDefaults() throws IOException {
        // As ASE 3.22 writes an Atoms with momenta set and a SinglePointCalculator (values made up).
        // momenta in amu*Å/t, t = Å*sqrt(amu/eV); v[Å/fs] = p/m * sqrt(ACCEL).
        String text = """
                2
                Lattice="5.0 0.0 0.0 0.0 6.0 0.0 0.0 0.0 7.0" Properties=species:S:1:pos:R:3:momenta:R:3:forces:R:3 energy=-10.5 free_energy=-10.5 pbc="T T T"
                H        0.00000000       0.00000000       0.00000000       1.00800000       0.00000000       0.00000000       0.10000000       0.00000000       0.00000000
                He       1.00000000       0.00000000       0.00000000       0.00000000       0.00000000       0.00000000      -0.10000000       0.00000000       0.00000000
                """;
        Frame f = ExtendedXyzFormat.readAll(new StringReader(text), "ase.xyz").get(0);
        assertEquals(Math.sqrt(Units.ACCEL_A_PER_FS2), f.atoms().velocities()[0], 1e-15);
        assertEquals(0.0982269, f.atoms().velocities()[0], 1e-7); // ase.units.fs
        assertEquals(-10.5, f.energyEv().getAsDouble());
        assertEquals("-10.5", f.info().get("free_energy"));
        assertEquals(Cell.orthorhombic(5, 6, 7), f.atoms().cellOrNull());

        // Lattice without pbc means periodic; no Properties means species and positions.
        String minimal = "1\nLattice=\"3 0 0 0 3 0 0 0 3\" name=x\nAr 1 2 3\n";
        Frame g = ExtendedXyzFormat.readAll(new StringReader(minimal), "min.xyz").get(0);
        assertArrayEquals(new boolean[] {true, true, true}, g.atoms().cellOrNull().pbc());
        assertEquals(Map.of("name", "x"), g.info());
        // Bare keys mean T; brace and bracket quoting.
        String bare = "1\nProperties=species:S:1:pos:R:3 converged tags={1 2 3} list=[a b]\nAr 1 2 3\n";
        Frame b = ExtendedXyzFormat.readAll(new StringReader(bare), "bare.xyz").get(0);
        assertEquals("T", b.info().get("converged"));
        assertEquals("1 2 3", b.info().get("tags"));
        assertEquals("a b", b.info().get("list"));
    }

    @Test
    void emptyInfoValuesAreNeitherWrittenNorKept() throws IOException {
        Frame w = Frame.of(org.molten.structures.BuiltInMolecules.load("water"));
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> w.withInfo("tag", ""));
        assertTrue(e.getMessage().contains("'tag' is empty"), e.getMessage());
        assertThrows(IllegalArgumentException.class, () -> w.withInfo("energy", "1"));
        assertThrows(IllegalArgumentException.class, () -> w.withInfo("1abc", "1"));
        Frame f = ExtendedXyzFormat.readAll(new StringReader("1\nempty=\"\" name=abc\nAr 0 0 0\n"), "e.xyz").get(0);
        assertEquals(Map.of("name", "abc"), f.info());
    }

    @Test
    void plainCommentsAndSymbolsReadAsPlainXyz() throws IOException {
        String text = "3\n  water from somewhere, E(x) = 5 (not key=value)  \no 0 0 0.1\nH 0.76 0 -0.47\n1 -0.76 0 -0.47 extra columns\n";
        Frame f = ExtendedXyzFormat.readAll(new StringReader(text), "plain.xyz").get(0);
        assertEquals("H2O", f.atoms().formula());
        assertEquals("water from somewhere, E(x) = 5 (not key=value)", f.info().get("comment"));
        Frame g = ExtendedXyzFormat.readAll(new StringReader("1\njust a title\nNe 0 0 0\n"), "t.xyz").get(0);
        assertEquals(Map.of("comment", "just a title"), g.info());
    }
}
