package org.molten.forcefield.domain;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.molten.core.Atoms;
import org.molten.core.Bonds;
import org.molten.core.Cell;
import org.molten.structures.WaterBox;

/**
 * The cell-list search of {@link AtomEnvironments} finds exactly {@link Bonds#perceive}'s bonds, minimum image
 * included: a periodic water box whose molecules straddle the faces, and a cell too narrow for the bins.
 */
class AtomEnvironmentsTest {
    static List<AtomEnvironment> viaBonds(Atoms atoms) {
        List<List<String>> nb = new ArrayList<>();
        for (int i = 0; i < atoms.size(); i++) {
            nb.add(new ArrayList<>());
        }
        for (Bonds.Bond b : Bonds.perceive(atoms)) {
            nb.get(b.i()).add(atoms.element(b.j()).symbol());
            nb.get(b.j()).add(atoms.element(b.i()).symbol());
        }
        List<AtomEnvironment> out = new ArrayList<>();
        for (int i = 0; i < atoms.size(); i++) {
            out.add(new AtomEnvironment(atoms.element(i).symbol(), nb.get(i)));
        }
        return out;
    }

    @Test
    void aPeriodicWaterBoxHasWhatBondsPerceiveAcrossItsFaces() {
        Atoms box = WaterBox.build(216, 7);
        double[] r = box.positions();
        double l = WaterBox.edgeLengthA(216);
        for (int c = 0; c < r.length; c++) {
            r[c] += 0.37 * l; // molecules now cross the faces: their bonds exist only through the minimum image
        }
        List<AtomEnvironment> envs = AtomEnvironments.of(box);
        assertEquals(viaBonds(box), envs);
        for (int i = 0; i < box.size(); i++) {
            assertEquals(box.atomicNumber(i) == 8 ? "O(H,H)" : "H(O)", envs.get(i).canonical(), "atom " + i);
        }
    }

    @Test
    void aCellTooNarrowForTheBinsFallsBackToBonds() {
        // water in a 3 Å periodic cube: the search reach (1.2 x 2 x 0.66 Å) is more than half the width
        Atoms w = Atoms.of(new int[]{8, 1, 1}, new double[]{0, 0, 0, 0.96, 0, 0, -0.24, 0.93, 0}, Cell.orthorhombic(3.0, 3.0, 3.0));
        List<AtomEnvironment> envs = AtomEnvironments.of(w);
        assertEquals(viaBonds(w), envs);
        assertTrue(envs.get(0).canonical().startsWith("O("), envs.toString());
    }
}
