package org.molten.forcefield.domain;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.molten.core.Atoms;
import org.molten.forcefield.bundled.BundledModel;
import org.molten.forcefield.student.StudentWeights;
import org.molten.structures.BuiltInMolecules;
import org.molten.structures.io.StructureFiles;

/**
 * The domain check of the bundled v5 student: quiet on the molecules it was distilled on, naming the atoms of a
 * nitrile and a nitro group, whose environments its training data never contained, with their index.
 */
class ModelDomainTest {
    static final Path OUTSIDE = Path.of("src/test/resources/org/molten/forcefield/domain");

    /** v5's domain, by name: the figures below are v5's whichever version is the default. */
    static ModelDomain v5() throws IOException {
        return ModelDomain.of(BundledModel.weights("v5"));
    }

    static Atoms outside(String name) throws IOException {
        return StructureFiles.read(OUTSIDE.resolve(name + ".xyz"));
    }

    @Test
    void theMoleculesV5WasDistilledOnAreInsideItsDomain() throws IOException {
        ModelDomain d = v5();
        for (String m : List.of("water", "ethanol", "benzene", "alanine-dipeptide", "ace-ala5-nme")) {
            DomainReport r = d.check(BuiltInMolecules.load(m));
            assertTrue(r.inside(), m + ": " + r.describe());
        }
        assertEquals(List.of("C", "H", "N", "O"), d.elements());
        assertEquals(6, d.moleculeCount());
        assertEquals(22_677, d.frames());
    }

    @Test
    void aNitrileCarbonIsNamedByItsIndexAndEnvironment() throws IOException {
        DomainReport r = v5().check(outside("acetonitrile"));   // C0 H3-C1#N2
        assertFalse(r.inside());
        // the nitrile N, N(C), occurred only in 17 strained training atom-frames: named too, with that count
        assertEquals(List.of(new DomainReport.UnseenAtom(1, AtomEnvironment.parse("C(C,N)")),
                new DomainReport.UnseenAtom(2, AtomEnvironment.parse("N(C)"), 17)), r.unseen(), r.describe());
        assertEquals("1 of 6 atoms in environments absent from the training data: C(C,N) (atom 1); 1 in environments the "
                + "training data held only in strained frames (typical of none of its molecules): N(C) (atom 2; 17 training "
                + "atom-frames)", r.describe());
    }

    @Test
    void aNitroGroupsNitrogenAndOxygensAreNamed() throws IOException {
        DomainReport r = v5().check(outside("nitromethane"));   // C0 N1 O2 O3 H4-6
        assertEquals(Map.of(AtomEnvironment.parse("N(C,O,O)"), List.of(1), AtomEnvironment.parse("O(N)"), List.of(2, 3)),
                r.byEnvironment());
    }

    @Test
    void environmentsV5SawOnlyInStrainedFramesAreNamedWithTheirCount() throws IOException {
        // ethylamine, C0 C1 N2: v5 saw C(C,H,H,N) and N(C,H,H) only in hot, strained peptide frames (40 and 18
        // atom-frames), typical of none of its molecules; its methyl and hydrogens are everyday environments
        DomainReport r = v5().check(outside("ethylamine"));
        assertEquals(List.of(new DomainReport.UnseenAtom(1, AtomEnvironment.parse("C(C,H,H,N)"), 40),
                new DomainReport.UnseenAtom(2, AtomEnvironment.parse("N(C,H,H)"), 18)), r.unseen(), r.describe());
        assertEquals("2 of 10 atoms in environments the training data held only in strained frames (typical of none of "
                + "its molecules): C(C,H,H,N) (atom 1; 40 training atom-frames), N(C,H,H) (atom 2; 18 training atom-frames)",
                r.describe());
        assertEquals(13, v5().typical().size());
    }

    @Test
    void weightsWithoutADomainEntrySayDomainUnknownAndNameNoAtom() throws IOException {
        StudentWeights w = StudentWeights.random(3);
        assertFalse(ModelDomain.of(w).known());
        DomainReport r = ModelDomain.of(w).check(outside("acetonitrile"));
        assertFalse(r.known());
        assertFalse(r.inside());
        assertTrue(r.unseen().isEmpty());
        assertTrue(r.describe().startsWith("domain unknown"), r.describe());
    }

    @Test
    void environmentsAreWrittenCanonicallyWithTheirNeighboursSorted() {
        AtomEnvironment e = AtomEnvironment.parse("C(O, H,C,H)");
        assertEquals("C(C,H,H,O)", e.canonical());
        assertEquals(e, new AtomEnvironment("C", List.of("H", "O", "H", "C")));
        assertEquals("H()", AtomEnvironment.parse("H()").canonical());
        assertThrows(IllegalArgumentException.class, () -> AtomEnvironment.parse("C"));
        assertThrows(IllegalArgumentException.class, () -> ModelDomain.parse("{\"elements\":[]}", "test"));
    }
}
