package org.molten.structures.io;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.io.StringReader;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.molten.core.Atoms;
import org.molten.core.Cell;
import org.molten.structures.BuiltInMolecules;
import org.molten.structures.WaterBox;

class PdbFormatTest {
    @TempDir
    Path dir;

    /** PDB prints 3 decimals: half a unit in the last place. */
    private static final double PDB_POS_TOL = 0.5e-3 + 1e-9;

    private static String atomLine(String record, String name, double x, double y, double z, String element) {
        return String.format(java.util.Locale.ROOT, "%-6s%5d %-4s MOL A   1    %8.3f%8.3f%8.3f  1.00  0.00          %2s",
                record, 1, name, x, y, z, element);
    }

    @Test
    void waterBoxRoundTripWithCryst1() throws IOException {
        Atoms box = WaterBox.build(20, 5);
        Path p = dir.resolve("box.pdb");
        StructureFiles.write(p, box);
        List<String> lines = Files.readAllLines(p);
        assertTrue(lines.get(0).startsWith("CRYST1"), lines.get(0));
        assertEquals("END", lines.get(lines.size() - 1));
        String atom = lines.get(1);
        assertEquals(80, atom.length(), "ATOM records are 80 columns: '" + atom + "'");
        assertEquals(" O", atom.substring(76, 78));
        assertEquals(" O1 ", atom.substring(12, 16));
        Atoms back = StructureFiles.read(p);
        assertArrayEquals(box.atomicNumbers(), back.atomicNumbers());
        assertArrayEquals(box.positions(), back.positions(), PDB_POS_TOL);
        Cell c = back.cellOrNull();
        assertTrue(c.isOrthorhombic(), "90-degree angles give an orthorhombic cell exactly");
        for (int i = 0; i < 3; i++) {
            assertArrayEquals(box.cellOrNull().vector(i), c.vector(i), PDB_POS_TOL);
        }
        assertArrayEquals(new boolean[] {true, true, true}, c.pbc());
    }

    @Test
    void triclinicCellInStandardOrientation() throws IOException {
        Cell cell = Cell.of(new double[][] {{10, 0, 0}, {2, 9, 0}, {1, -1.5, 11}}, new boolean[] {true, true, true});
        Atoms a = BuiltInMolecules.load("alanine-dipeptide").withCell(cell);
        StringWriter sw = new StringWriter();
        PdbFormat.write(sw, List.of(Frame.of(a)));
        Atoms back = PdbFormat.readAll(new StringReader(sw.toString()), "tri.pdb").get(0).atoms();
        assertArrayEquals(a.positions(), back.positions(), PDB_POS_TOL, "standard orientation: positions as they are");
        // lengths to 1e-3 Å and angles to 0.01 degree move the vectors by at most ~c * 1.7e-4
        for (int i = 0; i < 3; i++) {
            assertArrayEquals(cell.vector(i), back.cellOrNull().vector(i), 3e-3);
        }
        double[] p = PdbFormat.parametersOf(cell);
        Cell rebuilt = PdbFormat.cellFromParameters(p, cell.pbc());
        for (int i = 0; i < 3; i++) {
            assertArrayEquals(cell.vector(i), rebuilt.vector(i), 1e-12, "parameters -> cell inverts cell -> parameters");
        }
    }

    @Test
    void rotatedCellIsWrittenInTheStandardFrameKeepingFractionalCoordinates() throws IOException {
        // The cubic box turned by 30 degrees about z: PDB must rotate positions with the cell.
        double c = Math.cos(Math.PI / 6), s = Math.sin(Math.PI / 6);
        double l = 12.0;
        Cell turned = Cell.of(new double[][] {{l * c, l * s, 0}, {-l * s, l * c, 0}, {0, 0, l}}, new boolean[] {true, true, true});
        Atoms a = BuiltInMolecules.load("ethanol");
        double[] r = a.positions();
        Atoms rotated = Atoms.of(a.atomicNumbers(), rotate(r, c, s), turned);
        StringWriter sw = new StringWriter();
        PdbFormat.write(sw, List.of(Frame.of(rotated)));
        Atoms back = PdbFormat.readAll(new StringReader(sw.toString()), "rot.pdb").get(0).atoms();
        assertTrue(back.cellOrNull().isOrthorhombic());
        assertArrayEquals(r, back.positions(), PDB_POS_TOL, "un-rotated into the standard frame");
        for (int i = 0; i < a.size(); i++) {
            for (int j = i + 1; j < a.size(); j++) {
                assertEquals(rotated.distance(i, j), back.distance(i, j), 2e-3);
            }
        }
    }

    private static double[] rotate(double[] r, double c, double s) {
        double[] out = r.clone();
        for (int i = 0; i < r.length / 3; i++) {
            out[3 * i] = c * r[3 * i] - s * r[3 * i + 1];
            out[3 * i + 1] = s * r[3 * i] + c * r[3 * i + 1];
        }
        return out;
    }

    @Test
    void multiModelGzipAndPartialPeriodicity() throws IOException {
        Cell slab = Cell.of(new double[][] {{8, 0, 0}, {0, 9, 0}, {0, 0, 30}}, new boolean[] {true, true, false});
        Frame f1 = Frame.of(BuiltInMolecules.load("benzene").withCell(slab));
        Frame f2 = Frame.of(BuiltInMolecules.load("water").withCell(slab));
        Path p = dir.resolve("models.pdb.gz");
        StructureFiles.write(p, List.of(f1, f2));
        List<Frame> back = StructureFiles.readAll(p);
        assertEquals(2, back.size());
        assertEquals("C6H6", back.get(0).atoms().formula());
        assertEquals("H2O", back.get(1).atoms().formula());
        assertArrayEquals(f2.atoms().positions(), back.get(1).atoms().positions(), PDB_POS_TOL);
        assertArrayEquals(new boolean[] {true, true, false}, back.get(1).atoms().cellOrNull().pbc());
    }

    @Test
    void elementFromColumnsOrFromTheAtomName() throws IOException {
        String text = String.join("\n",
                "HEADER    TEST",
                "CRYST1    1.000    1.000    1.000  90.00  90.00  90.00 P 1           1",
                atomLine("ATOM", " CA ", 0, 0, 0, ""),
                atomLine("HETATM", "CA  ", 3, 0, 0, ""),
                atomLine("ATOM", "1HB ", 0, 3, 0, ""),
                atomLine("ATOM", "HB12", 0, 0, 3, ""),
                atomLine("HETATM", "CL1 ", 3, 3, 0, ""),
                atomLine("HETATM", "FE  ", 3, 0, 3, ""),
                atomLine("ATOM", " N  ", 0, 3, 3, "").substring(0, 54),
                atomLine("ATOM", " X1 ", 3, 3, 3, "S"),
                atomLine("ATOM", "   C", 6, 3, 3, ""),
                atomLine("ATOM", "  CL", 6, 6, 3, ""),
                "TER",
                "CONECT    1    2",
                "END",
                "");
        Frame f = PdbFormat.readAll(new StringReader(text), "names.pdb").get(0);
        Atoms a = f.atoms();
        assertArrayEquals(new int[] {6, 20, 1, 1, 17, 26, 7, 16, 6, 17}, a.atomicNumbers());
        assertNull(a.cellOrNull(), "CRYST1 1 1 1 90 90 90 is the no-cell placeholder");
        assertArrayEquals(new double[] {3, 0, 3}, new double[] {a.positions()[15], a.positions()[16], a.positions()[17]}, 0);
    }

    @Test
    void framesSeparatedByEndWithoutModelRecords() throws IOException {
        String one = atomLine("ATOM", " O  ", 0, 0, 0, "O") + "\n" + atomLine("ATOM", " H  ", 0.96, 0, 0, "H") + "\nEND\n";
        List<Frame> frames = PdbFormat.readAll(new StringReader(one + one + one), "vmd.pdb");
        assertEquals(3, frames.size());
        assertEquals("HO", frames.get(2).atoms().formula());
    }

    @Test
    void writerRefusesWhatPdbColumnsCannotHold() {
        Atoms a = BuiltInMolecules.load("water");
        a.positions()[2] = 12345.0;
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> PdbFormat.write(new StringWriter(), List.of(Frame.of(a))));
        assertTrue(e.getMessage().contains("atom 0 (O): z = 12345.0 Å does not fit"), e.getMessage());
    }
}
