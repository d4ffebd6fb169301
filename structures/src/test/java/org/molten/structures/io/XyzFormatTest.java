package org.molten.structures.io;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

import java.io.IOException;
import java.io.StringReader;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.molten.core.Atoms;
import org.molten.structures.BuiltInMolecules;

class XyzFormatTest {
    @TempDir
    Path dir;

    @Test
    void plainRoundTripMultiFrameAndGzip() throws IOException {
        Frame a = Frame.of(BuiltInMolecules.load("ace-ala5-nme")).withInfo("comment", "Ace-(Ala)5-NMe, frame 0");
        Atoms moved = BuiltInMolecules.load("benzene");
        moved.positions()[0] += 1e-7;
        Frame b = Frame.of(moved);
        for (String name : List.of("plain.xyz", "plain.xyz.gz")) {
            Path p = dir.resolve(name);
            XyzFormat.write(p, List.of(a, b));
            List<Frame> back = XyzFormat.readAll(p);
            assertEquals(2, back.size());
            assertArrayEquals(a.atoms().atomicNumbers(), back.get(0).atoms().atomicNumbers());
            assertArrayEquals(a.atoms().positions(), back.get(0).atoms().positions(), 0.5e-8 + 1e-12);
            assertArrayEquals(b.atoms().positions(), back.get(1).atoms().positions(), 0.5e-8 + 1e-12);
            assertEquals(Map.of("comment", "Ace-(Ala)5-NMe, frame 0"), back.get(0).info());
            assertEquals(Map.of(), back.get(1).info(), "empty comment line");
        }
        List<String> lines = Files.readAllLines(dir.resolve("plain.xyz"));
        assertEquals("62", lines.get(0));
        assertEquals(4, Fields.split(lines.get(2)).length);
    }

    @Test
    void plainReaderNeverInterpretsTheComment() throws IOException {
        String text = "1\nLattice=\"5 0 0 0 5 0 0 0 5\" energy=3\nAr 1 2 3\n";
        Frame f = XyzFormat.readAll(new StringReader(text), "x.xyz").get(0);
        assertNull(f.atoms().cellOrNull());
        assertEquals("Lattice=\"5 0 0 0 5 0 0 0 5\" energy=3", f.info().get("comment"));
        assertEquals(false, f.energyEv().isPresent());
    }
}
