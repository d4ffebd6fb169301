package org.molten.validation.stability;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Molecules from structure files: every frame one molecule, named by name= or file#index, selected by key=value. */
class StabilityMoleculesTest {
    private static final Path TEST_STARTS = Path.of("..", "forcefield", "training", "organic", "starts.test.xyz.gz");

    @Test
    void theFirstConformersOfTheOrganicTestSetAreItsHundredAndFortyFourMolecules() throws Exception {
        List<StabilityMolecule> all = StabilityMolecules.read(List.of(TEST_STARTS), Map.of());
        List<StabilityMolecule> first = StabilityMolecules.read(List.of(TEST_STARTS), Map.of("conformer", "0"));
        assertEquals(432, all.size(), "three conformers of each");
        assertEquals(144, first.size());
        assertEquals("methanol", first.get(0).name());
        assertEquals(6, first.get(0).atoms().size());
        assertEquals("methanol#2", all.get(1).name(), "a name met again is numbered");
        assertTrue(first.get(0).source().endsWith("starts.test.xyz.gz frame 0"), first.get(0).source());
    }

    @Test
    void framesWithoutANameAreNamedByFileAndIndexAndAnEmptySelectionIsRefused(@TempDir Path dir) throws Exception {
        Path f = dir.resolve("two.xyz");
        Files.writeString(f, "3\nwater\nO 0 0 0\nH 0.96 0 0\nH -0.24 0.93 0\n3\nagain\nO 0 0 0\nH 0.96 0 0\nH -0.24 0.93 0\n");
        List<StabilityMolecule> m = StabilityMolecules.read(List.of(f), Map.of());
        assertEquals(List.of("two.xyz#0", "two.xyz#1"), m.stream().map(StabilityMolecule::name).toList());
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> StabilityMolecules.read(List.of(f), Map.of("conformer", "0")));
        assertTrue(e.getMessage().contains("no molecule in") && e.getMessage().contains("conformer=0"), e.getMessage());
    }
}
