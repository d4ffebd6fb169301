package org.molten.validation.observables;

import static org.junit.jupiter.api.Assertions.*;

import java.util.List;
import org.junit.jupiter.api.Test;
import org.molten.core.Atoms;
import org.molten.structures.BuiltInMolecules;

class TopologyAndBackboneTest {

    @Test
    void typeNamesAreCanonical() {
        assertEquals("C-H", BondedTopology.bondType("H", "C"));
        assertEquals("C-H", BondedTopology.bondType("C", "H"));
        assertEquals("C-O-H", BondedTopology.angleType("H", "O", "C"));
        assertEquals("C-O-H", BondedTopology.angleType("C", "O", "H"));
        assertEquals("H-C-H", BondedTopology.angleType("H", "C", "H"));
    }

    @Test
    void ethanolHasTheExpectedBondAndAngleTypes() {
        BondedTopology t = BondedTopology.of(BuiltInMolecules.load("ethanol"));
        assertEquals(List.of("C-C", "C-H", "C-O", "H-O"), t.bondTypes());
        assertEquals(8, t.bonds().size());
        // Angles: at C1 (3 H + C2: 6), at C2 (2 H + C1 + O: 6), at O (C2 + H: 1) = 13.
        assertEquals(13, t.angles().size());
        assertEquals(List.of("C-C-H", "C-C-O", "C-O-H", "H-C-H", "H-C-O"), t.angleTypes());
        ObservableSet set = ObservableSet.of(BuiltInMolecules.load("ethanol"));
        assertTrue(set.find("bond C-H").isPresent());
        assertTrue(set.find("angle C-O-H").isPresent());
        assertTrue(set.observables().stream().noneMatch(o -> o.kind() == ObservableKind.BACKBONE_DIHEDRAL));
    }

    @Test
    void alanineDipeptideHasOnePhiPsiPairAndTwoOmegas() {
        Atoms ala = BuiltInMolecules.load("alanine-dipeptide");
        PeptideBackbone bb = PeptideBackbone.detect(BondedTopology.of(ala));
        assertEquals(1, bb.residues().size());
        assertEquals(1, bb.dihedrals(PeptideBackbone.DihedralKind.PHI).size());
        assertEquals(1, bb.dihedrals(PeptideBackbone.DihedralKind.PSI).size());
        List<PeptideBackbone.Dihedral> omega = bb.dihedrals(PeptideBackbone.DihedralKind.OMEGA);
        assertEquals(2, omega.size());
        // ACE methyl C0 - C1 - N3 - Cα4, then Cα4 - C6 - N8 - NME methyl C9 (file order of the built-in).
        assertArrayEquals(new int[] {0, 1, 3, 4}, atoms(omega.get(0)));
        assertArrayEquals(new int[] {4, 6, 8, 9}, atoms(omega.get(1)));
        double[] x = ala.positions();
        for (PeptideBackbone.Dihedral d : omega) {
            double w = InternalCoordinates.dihedral(x, null, d.a(), d.b(), d.c(), d.d());
            assertTrue(Math.abs(w) > 165, "trans amide expected, " + d.name() + " = " + w);
        }
    }

    @Test
    void aceAla5NmeHasFivePhiPsiPairsInChainOrderAndSixOmegas() {
        Atoms pep = BuiltInMolecules.load("ace-ala5-nme");
        BondedTopology t = BondedTopology.of(pep);
        PeptideBackbone bb = PeptideBackbone.detect(t);
        assertEquals(5, bb.residues().size());
        assertEquals(5, bb.dihedrals(PeptideBackbone.DihedralKind.PHI).size());
        assertEquals(5, bb.dihedrals(PeptideBackbone.DihedralKind.PSI).size());
        assertEquals(6, bb.dihedrals(PeptideBackbone.DihedralKind.OMEGA).size());
        for (int r = 0; r < 5; r++) {
            PeptideBackbone.Residue res = bb.residues().get(r);
            assertEquals("N", t.symbol(res.n()));
            assertEquals("C", t.symbol(res.ca()));
            assertEquals("C", t.symbol(res.c()));
            if (r > 0) {
                assertEquals(bb.residues().get(r - 1).c(), res.previousC(), "residue " + (r + 1) + " follows residue " + r);
                assertEquals(bb.residues().get(r - 1).nextN(), res.n());
            }
        }
        for (PeptideBackbone.Dihedral d : bb.dihedrals()) {
            double v = InternalCoordinates.dihedral(pep.positions(), null, d.a(), d.b(), d.c(), d.d());
            assertTrue(v > -180 && v <= 180, d.name() + " = " + v);
        }
        ObservableSet set = ObservableSet.of(pep);
        assertEquals(5, set.find("dihedral phi").orElseThrow().tupleCount());
        assertEquals(6, set.find("dihedral omega").orElseThrow().tupleCount());
    }

    @Test
    void moleculesWithoutAmidesHaveNoBackbone() {
        for (String m : List.of("water", "ethanol", "benzene")) {
            assertTrue(PeptideBackbone.detect(BondedTopology.of(BuiltInMolecules.load(m))).isEmpty(), m);
        }
    }

    private static int[] atoms(PeptideBackbone.Dihedral d) {
        return new int[] {d.a(), d.b(), d.c(), d.d()};
    }
}
