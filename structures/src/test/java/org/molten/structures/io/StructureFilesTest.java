package org.molten.structures.io;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.molten.core.Atoms;
import org.molten.structures.BuiltInMolecules;

class StructureFilesTest {
    @TempDir
    Path dir;

    @Test
    void formatFromExtension() {
        assertEquals(StructureFormat.EXTENDED_XYZ, StructureFormat.forPath(Path.of("a.xyz")));
        assertEquals(StructureFormat.EXTENDED_XYZ, StructureFormat.forPath(Path.of("a.EXTXYZ")));
        assertEquals(StructureFormat.EXTENDED_XYZ, StructureFormat.forPath(Path.of("dir/a.xyz.gz")));
        assertEquals(StructureFormat.PDB, StructureFormat.forPath(Path.of("a.pdb.gz")));
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> StructureFormat.forPath(Path.of("a.cif")));
        assertTrue(e.getMessage().contains("'a.cif'") && e.getMessage().contains(".xyz, .extxyz or .pdb"), e.getMessage());
    }

    @Test
    void readFrameByIndexFromEitherEnd() throws IOException {
        List<Frame> frames = new ArrayList<>();
        for (int i = 0; i < 5; i++) {
            frames.add(Frame.of(BuiltInMolecules.load("water")).withEnergyEv(-i));
        }
        Path p = dir.resolve("t.extxyz");
        StructureFiles.write(p, frames);
        assertEquals(0.0, StructureFiles.readFrame(p, 0).energyEv().getAsDouble());
        assertEquals(-3.0, StructureFiles.readFrame(p, 3).energyEv().getAsDouble());
        assertEquals(-4.0, StructureFiles.readFrame(p, -1).energyEv().getAsDouble());
        assertEquals(0.0, StructureFiles.readFrame(p, -5).energyEv().getAsDouble());
        StructureFormatException e = assertThrows(StructureFormatException.class, () -> StructureFiles.readFrame(p, 5));
        assertTrue(e.getMessage().endsWith("frame 5 requested but the file has 5 frames"), e.getMessage());
        assertThrows(StructureFormatException.class, () -> StructureFiles.readFrame(p, -6));
        try (FrameReader r = StructureFiles.open(p)) {
            assertEquals(0.0, r.next().energyEv().getAsDouble());
            assertEquals(4, r.readRemaining().size());
            assertEquals(null, r.next());
        }
    }

    @Test
    void writeAtomsReadAtomsEveryFormat() throws IOException {
        Atoms a = BuiltInMolecules.load("alanine-dipeptide");
        for (String name : List.of("a.xyz", "a.extxyz.gz", "a.pdb", "a.pdb.gz")) {
            Path p = dir.resolve(name);
            StructureFiles.write(p, a);
            Atoms back = StructureFiles.read(p);
            assertEquals("C6H12N2O2", back.formula(), name);
            assertArrayEquals(a.positions(), back.positions(), name.contains("pdb") ? 0.5e-3 + 1e-9 : 0.5e-8 + 1e-12, name);
        }
    }
}
