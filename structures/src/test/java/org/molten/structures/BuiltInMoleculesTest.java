package org.molten.structures;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

import org.junit.jupiter.api.Test;
import org.molten.core.Atoms;
import org.molten.core.Bonds;

class BuiltInMoleculesTest {
    /** name -> {formula, atoms, covalent bonds (acyclic: N-1; benzene: N)}. */
    private static final Map<String, Object[]> EXPECTED = Map.of(
            "water", new Object[] {"H2O", 3, 2},
            "ethanol", new Object[] {"C2H6O", 9, 8},
            "benzene", new Object[] {"C6H6", 12, 12},
            "alanine-dipeptide", new Object[] {"C6H12N2O2", 22, 21},
            "ace-ala5-nme", new Object[] {"C18H32N6O6", 62, 61});

    @Test
    void everyMoleculeHasItsFormulaAndIntactBonds() {
        assertEquals(List.of("water", "ethanol", "benzene", "alanine-dipeptide", "ace-ala5-nme"), BuiltInMolecules.names());
        for (String name : BuiltInMolecules.names()) {
            Atoms a = BuiltInMolecules.load(name);
            Object[] exp = EXPECTED.get(name);
            assertEquals(exp[0], a.formula(), name);
            assertEquals(exp[1], a.size(), name);
            assertTrue(a.cell().isEmpty(), name + " is isolated");
            List<Bonds.Bond> bonds = Bonds.perceive(a);
            assertEquals(exp[2], bonds.size(), name + " covalent bond count: " + bonds);
            assertEquals(1, components(a.size(), bonds), name + " is one molecule");
            for (Bonds.Bond b : bonds) {
                double ref = a.element(b.i()).covalentRadiusA + a.element(b.j()).covalentRadiusA;
                assertTrue(b.lengthA() > 0.85 * ref && b.lengthA() < 1.12 * ref,
                        name + " bond " + a.element(b.i()) + b.i() + "-" + a.element(b.j()) + b.j() + " = " + b.lengthA() + " Å");
            }
            a.requireNoOverlap(0.9); // only bonded X-H pairs come closer than ~1.5 Å
        }
    }

    @Test
    void heavyAtomsOfThePeptideDoNotClash() {
        // Non-bonded heavy atoms (not 1-2 or 1-3 neighbours) stay beyond 2.5 Å; H-bond O...H beyond 1.6 Å.
        for (String name : List.of("alanine-dipeptide", "ace-ala5-nme")) {
            Atoms a = BuiltInMolecules.load(name);
            int n = a.size();
            boolean[][] near = new boolean[n][n];
            List<Bonds.Bond> bonds = Bonds.perceive(a);
            List<List<Integer>> adj = new ArrayList<>();
            for (int i = 0; i < n; i++) {
                adj.add(new ArrayList<>());
            }
            for (Bonds.Bond b : bonds) {
                adj.get(b.i()).add(b.j());
                adj.get(b.j()).add(b.i());
            }
            for (int i = 0; i < n; i++) {
                for (int j : adj.get(i)) {
                    near[i][j] = true;
                    for (int k : adj.get(j)) {
                        near[i][k] = true;
                    }
                }
            }
            for (int i = 0; i < n; i++) {
                for (int j = i + 1; j < n; j++) {
                    if (near[i][j]) {
                        continue;
                    }
                    boolean heavy = a.atomicNumber(i) > 1 && a.atomicNumber(j) > 1;
                    double min = heavy ? 2.5 : 1.6;
                    assertTrue(a.distance(i, j) > min, name + ": atoms " + i + " and " + j + " clash at " + a.distance(i, j) + " Å");
                }
            }
        }
    }

    @Test
    void centreOfMassAtOrigin() {
        for (String name : BuiltInMolecules.names()) {
            Atoms a = BuiltInMolecules.load(name);
            double[] p = a.positions();
            for (int k = 0; k < 3; k++) {
                double s = 0;
                for (int i = 0; i < a.size(); i++) {
                    s += a.massAmu(i) * p[3 * i + k];
                }
                assertEquals(0.0, s / a.totalMassAmu(), 1e-6, name);
            }
        }
    }

    @Test
    void aliasesAndFreshCopies() {
        assertEquals(22, BuiltInMolecules.load("ala2").size());
        assertEquals(22, BuiltInMolecules.load("Alanine_Dipeptide").size());
        assertEquals(62, BuiltInMolecules.load("peptide").size());
        assertEquals(62, BuiltInMolecules.load("ALA5").size());
        Atoms w1 = BuiltInMolecules.load("water");
        w1.positions()[0] = 99;
        Atoms w2 = BuiltInMolecules.load("water");
        assertNotSame(w1.positions(), w2.positions());
        assertTrue(w2.positions()[0] != 99, "load returns an independent copy");
    }

    @Test
    void unknownNameListsTheKnownOnes() {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> BuiltInMolecules.load("methane"));
        assertTrue(e.getMessage().contains("'methane'"), e.getMessage());
        for (String n : BuiltInMolecules.names()) {
            assertTrue(e.getMessage().contains(n), e.getMessage());
        }
    }

    private static int components(int n, List<Bonds.Bond> bonds) {
        List<List<Integer>> adj = new ArrayList<>();
        for (int i = 0; i < n; i++) {
            adj.add(new ArrayList<>());
        }
        for (Bonds.Bond b : bonds) {
            adj.get(b.i()).add(b.j());
            adj.get(b.j()).add(b.i());
        }
        boolean[] seen = new boolean[n];
        int count = 0;
        for (int s = 0; s < n; s++) {
            if (seen[s]) {
                continue;
            }
            count++;
            ArrayDeque<Integer> q = new ArrayDeque<>(List.of(s));
            seen[s] = true;
            while (!q.isEmpty()) {
                for (int j : adj.get(q.poll())) {
                    if (!seen[j]) {
                        seen[j] = true;
                        q.add(j);
                    }
                }
            }
        }
        return count;
    }
}
