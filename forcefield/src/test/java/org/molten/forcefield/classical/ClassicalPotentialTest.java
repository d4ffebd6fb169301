package org.molten.forcefield.classical;

import static org.junit.jupiter.api.Assertions.*;

import java.util.List;
import org.junit.jupiter.api.Test;
import org.molten.core.Atoms;
import org.molten.core.Cell;
import org.molten.core.Element;
import org.molten.core.ForceField;
import org.molten.core.RandomStream;

class ClassicalPotentialTest {

    /** Ethanol (ASE's g2 geometry), Å. */
    static Atoms ethanol() {
        int[] z = {6, 6, 8, 1, 1, 1, 1, 1, 1};
        double[] r = {
            1.168181, -0.400382, 0.000000,
            0.000000, 0.559462, 0.000000,
            -1.190083, -0.227669, 0.000000,
            -1.946623, 0.381525, 0.000000,
            0.042557, 1.207508, 0.886933,
            0.042557, 1.207508, -0.886933,
            2.115891, 0.125322, 0.000000,
            1.128599, -1.037900, 0.885200,
            1.128599, -1.037900, -0.885200};
        return Atoms.of(z, r, null);
    }

    /** Random displacements of up to ±amplitude Å along each axis. */
    static void jiggle(Atoms atoms, double amplitudeA, long seed) {
        RandomStream rng = new RandomStream(seed);
        double[] r = atoms.positions();
        for (int k = 0; k < r.length; k++) {
            r[k] += amplitudeA * (2 * rng.nextDouble() - 1);
        }
    }

    /** An argon-like cluster of n atoms on a jittered cubic lattice 3.8 Å apart. */
    static Atoms cluster(int n, Element e, long seed) {
        int side = (int) Math.ceil(Math.cbrt(n));
        int[] z = new int[n];
        double[] r = new double[3 * n];
        for (int i = 0; i < n; i++) {
            z[i] = e.atomicNumber;
            r[3 * i] = 3.8 * (i % side);
            r[3 * i + 1] = 3.8 * ((i / side) % side);
            r[3 * i + 2] = 3.8 * (i / (side * side));
        }
        Atoms a = Atoms.of(z, r, null);
        jiggle(a, 0.3, seed);
        return a;
    }

    /** Central finite differences of the energy against the analytic forces. */
    static void assertForcesMatchFiniteDifferences(ForceField ff, Atoms atoms, double relTol) {
        double h = 1e-5;
        double[] f = new double[3 * atoms.size()];
        ff.energyAndForces(atoms, f);
        double[] r = atoms.positions();
        double[] scratch = new double[f.length];
        double maxF = 0;
        for (double x : f) {
            maxF = Math.max(maxF, Math.abs(x));
        }
        assertTrue(maxF > 1e-3, "test geometry should have non-trivial forces, max |F| = " + maxF);
        for (int k = 0; k < r.length; k++) {
            double x0 = r[k];
            r[k] = x0 + h;
            double ep = ff.energyAndForces(atoms, scratch);
            r[k] = x0 - h;
            double em = ff.energyAndForces(atoms, scratch);
            r[k] = x0;
            double fd = -(ep - em) / (2 * h);
            assertEquals(fd, f[k], relTol * maxF, "force component " + k + " (atom " + k / 3 + ")");
        }
    }

    @Test
    void ljForcesMatchFiniteDifferencesIsolatedAndPeriodic() {
        LennardJones lj = LennardJones.of(LennardJonesParameters.uff(), 7.0);
        assertForcesMatchFiniteDifferences(lj, cluster(13, Element.Ar, 1), 1e-6);
        // A triclinic periodic box with atoms near the faces: pairs interact through the boundary.
        Cell cell = Cell.of(new double[][] {{15, 0, 0}, {2, 14.5, 0}, {-1, 1.5, 16}}, new boolean[] {true, true, true});
        Atoms box = cluster(27, Element.Ar, 2).withCell(cell);
        double[] r = box.positions();
        for (int k = 0; k < r.length; k++) {
            r[k] -= 4.0; // push a third of the atoms out through the lower faces
        }
        assertForcesMatchFiniteDifferences(lj, box, 1e-6);
    }

    @Test
    void mixedSpeciesAndBondsMatchFiniteDifferences() {
        Atoms eth = ethanol();
        SumForceField ff = ClassicalReferencePotential.inferredFrom(eth);
        jiggle(eth, 0.08, 3);
        assertForcesMatchFiniteDifferences(ff, eth, 1e-6);
        assertForcesMatchFiniteDifferences(ff.terms().get(0), eth, 1e-6);
    }

    @Test
    void energyAndForceAreContinuousAtTheCutoff() {
        double rc = 6.0;
        LennardJones lj = LennardJones.of(LennardJonesParameters.uff(), rc);
        double[] f = new double[6];
        double[] e = new double[3];
        double[] fx = new double[3];
        double[] gaps = {1e-2, 5e-3, 2.5e-3};
        for (int t = 0; t < 3; t++) {
            Atoms pair = Atoms.of(new int[] {18, 18}, new double[] {0, 0, 0, rc - gaps[t], 0, 0}, null);
            e[t] = lj.energyAndForces(pair, f);
            fx[t] = f[3];
        }
        // Quadratic approach of the energy and linear approach of the force (a plain truncated
        // potential would jump by V(rc) ≈ -1.7e-3 eV here, a shifted-energy one would keep a force jump).
        assertEquals(0.25, e[1] / e[0], 0.01);
        assertEquals(0.25, e[2] / e[1], 0.01);
        assertEquals(0.5, fx[1] / fx[0], 0.01);
        assertEquals(0.5, fx[2] / fx[1], 0.01);
        assertTrue(Math.abs(e[0]) < 1e-6 && Math.abs(fx[0]) < 1e-4, "E=" + e[0] + " F=" + fx[0]);
        Atoms beyond = Atoms.of(new int[] {18, 18}, new double[] {0, 0, 0, rc + 1e-9, 0, 0}, null);
        assertEquals(0.0, lj.energyAndForces(beyond, f));
        assertEquals(0.0, f[3]);
    }

    @Test
    void energyIsInvariantUnderTranslationRotationAndPermutation() {
        Atoms eth = ethanol();
        SumForceField ff = ClassicalReferencePotential.inferredFrom(eth);
        jiggle(eth, 0.05, 4);
        double[] f0 = new double[27];
        double e0 = ff.energyAndForces(eth, f0);
        double[] sum = new double[3];
        for (int i = 0; i < 9; i++) {
            for (int k = 0; k < 3; k++) {
                sum[k] += f0[3 * i + k];
            }
        }
        assertArrayEquals(new double[3], sum, 1e-10, "forces sum to zero (Newton's third law)");

        // Rotation by 0.7 rad about an oblique axis, then a translation.
        double[] axis = {1 / Math.sqrt(3), 1 / Math.sqrt(3), 1 / Math.sqrt(3)};
        double c = Math.cos(0.7), s = Math.sin(0.7);
        double[][] rot = new double[3][3];
        for (int a = 0; a < 3; a++) {
            for (int b = 0; b < 3; b++) {
                rot[a][b] = (a == b ? c : 0) + (1 - c) * axis[a] * axis[b];
            }
        }
        rot[0][1] -= s * axis[2]; rot[0][2] += s * axis[1];
        rot[1][0] += s * axis[2]; rot[1][2] -= s * axis[0];
        rot[2][0] -= s * axis[1]; rot[2][1] += s * axis[0];
        Atoms moved = eth.copy();
        double[] r = moved.positions();
        for (int i = 0; i < 9; i++) {
            double[] p = {r[3 * i], r[3 * i + 1], r[3 * i + 2]};
            for (int a = 0; a < 3; a++) {
                r[3 * i + a] = rot[a][0] * p[0] + rot[a][1] * p[1] + rot[a][2] * p[2] + new double[] {3.1, -7.2, 0.4}[a];
            }
        }
        double[] f1 = new double[27];
        assertEquals(e0, ff.energyAndForces(moved, f1), 1e-10);
        for (int i = 0; i < 9; i++) {
            for (int a = 0; a < 3; a++) {
                double expected = rot[a][0] * f0[3 * i] + rot[a][1] * f0[3 * i + 1] + rot[a][2] * f0[3 * i + 2];
                assertEquals(expected, f1[3 * i + a], 1e-9, "rotated force of atom " + i);
            }
        }

        // Same cluster listed in reverse order: same energy, forces permuted.
        Atoms cl = cluster(10, Element.Ne, 5);
        LennardJones lj = LennardJones.of(LennardJonesParameters.uff(), 9.0);
        double[] fa = new double[30];
        double ea = lj.energyAndForces(cl, fa);
        double[] rev = new double[30];
        for (int i = 0; i < 10; i++) {
            System.arraycopy(cl.positions(), 3 * i, rev, 3 * (9 - i), 3);
        }
        double[] fb = new double[30];
        double eb = lj.energyAndForces(Atoms.of(cl.atomicNumbers(), rev, null), fb);
        assertEquals(ea, eb, 1e-12);
        for (int i = 0; i < 10; i++) {
            for (int k = 0; k < 3; k++) {
                assertEquals(fa[3 * i + k], fb[3 * (9 - i) + k], 1e-12);
            }
        }
    }

    @Test
    void minimumImagePairAcrossTheBoundaryEqualsTheDirectPair() {
        LennardJones lj = LennardJones.of(LennardJonesParameters.uff(), 6.0);
        double[] f = new double[6];
        double direct = lj.energyAndForces(Atoms.of(new int[] {18, 18}, new double[] {0, 0, 0, 3.9, 0, 0}, null), f);
        double fx = f[3];
        Atoms wrapped = Atoms.of(new int[] {18, 18}, new double[] {0.5, 1, 1, 12.0 - 3.4, 1, 1}, Cell.orthorhombic(12, 12, 12));
        double across = lj.energyAndForces(wrapped, f);
        assertEquals(direct, across, 1e-12);
        assertEquals(-fx, f[3], 1e-12, "atom 1 sees atom 0 from the other side: the force is mirrored");
    }

    @Test
    void inferredPotentialBondsEthanolAndExcludesOneTwoAndOneThreePairs() {
        Atoms eth = ethanol();
        SumForceField ff = ClassicalReferencePotential.inferredFrom(eth);
        HarmonicBonds bonds = (HarmonicBonds) ff.terms().get(0);
        LennardJones lj = (LennardJones) ff.terms().get(1);
        assertEquals(8, bonds.bonds().size(), "C-C, C-O, O-H and 5 C-H");
        for (HarmonicBonds.Bond b : bonds.bonds()) {
            assertEquals(eth.distance(b.i(), b.j()), b.r0A(), 1e-12);
            assertEquals(ClassicalReferencePotential.DEFAULT_BOND_K_EV_PER_A2, b.kEvPerA2());
        }
        ExcludedPairs ex = lj.exclusions();
        assertTrue(ex.excludes(0, 1), "C-C bond is 1-2");
        assertTrue(ex.excludes(0, 2), "C...O is 1-3");
        assertTrue(ex.excludes(6, 7), "two H on the methyl carbon are 1-3");
        assertTrue(ex.excludes(1, 3), "C...H(O) is 1-3");
        assertFalse(ex.excludes(0, 3), "C...H(O) across the C-O bond is 1-4: interacts");
        assertFalse(ex.excludes(3, 6), "H(O)...H(methyl) is 1-5: interacts");
        // 8 bonds + 13 angle pairs: methyl C has 4 neighbours (6), CH2 4 (6), O 2 (1).
        assertEquals(21, ex.pairCount());
        // At the starting geometry the bonds are at rest: only Lennard-Jones contributes.
        double[] f = new double[27];
        assertEquals(0.0, bonds.energyAndForces(eth, f), 1e-15);
        assertEquals(lj.energyAndForces(eth, new double[27]), ff.energyAndForces(eth, f), 1e-15);
    }

    @Test
    void perAtomEnergiesSumToTheTotal() {
        Atoms eth = ethanol();
        SumForceField ff = ClassicalReferencePotential.inferredFrom(eth);
        jiggle(eth, 0.05, 6);
        double[] per = new double[9];
        double e = ff.energyAndForces(eth, new double[27], per);
        double s = 0;
        for (double x : per) {
            s += x;
        }
        assertEquals(e, s, 1e-12);
        assertTrue(ff.providesPerAtomEnergies());
    }

    @Test
    void badSetupsAreRefusedWithClearMessages() {
        LennardJones lj = LennardJones.of(LennardJonesParameters.uff(), 8.0);
        Atoms small = Atoms.of(new int[] {18, 18}, new double[] {0, 0, 0, 4, 0, 0}, Cell.orthorhombic(12, 12, 12));
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> lj.energyAndForces(small, new double[6]));
        assertTrue(e.getMessage().contains("cutoff 8.000 A exceeds half"), e.getMessage());
        // The inferred potential shrinks its cutoff to fit the cell instead.
        SumForceField fitted = ClassicalReferencePotential.inferredFrom(small);
        assertTrue(fitted.name().contains("rc=6.00 A"), fitted.name());
        fitted.energyAndForces(small, new double[6]);

        LennardJonesParameters onlyAr = LennardJonesParameters.none(MixingRule.LORENTZ_BERTHELOT)
                .with(Element.Ar, 0.0104, 3.4);
        Atoms mixed = Atoms.of(new int[] {18, 10}, new double[] {0, 0, 0, 4, 0, 0}, null);
        e = assertThrows(IllegalArgumentException.class,
                () -> LennardJones.of(onlyAr, 8).energyAndForces(mixed, new double[6]));
        assertTrue(e.getMessage().contains("atom 1 (Ne)"), e.getMessage());
        e = assertThrows(IllegalArgumentException.class, () -> onlyAr.with(Element.Kr, 0.01, -1));
        assertTrue(e.getMessage().contains("sigma_A of Kr"), e.getMessage());
        e = assertThrows(IllegalArgumentException.class,
                () -> HarmonicBonds.of(List.of(new HarmonicBonds.Bond(0, 5, 10, 1.0)))
                        .energyAndForces(mixed, new double[6]));
        assertTrue(e.getMessage().contains("atom 5"), e.getMessage());
    }

    @Test
    void uffParametersConvertAsDocumented() {
        LennardJonesParameters p = LennardJonesParameters.uff();
        // Carbon: x = 3.851 Å, D = 0.105 kcal/mol.
        assertEquals(3.851 / Math.pow(2, 1.0 / 6), p.sigmaA(6), 1e-12);
        assertEquals(0.105 * 0.0433641, p.epsilonEv(6), 1e-7);
        assertEquals(Math.sqrt(p.sigmaA(1) * p.sigmaA(8)), p.pairSigmaA(1, 8), 1e-12);
        for (int z = 1; z <= 36; z++) {
            assertTrue(p.has(z), "UFF covers Z=" + z);
        }
        // The minimum of a pair sits at 2^(1/6) σ for an untruncated potential (cutoff far away).
        LennardJones lj = LennardJones.of(p, 1000.0);
        double rmin = 3.868;
        double[] f = new double[6];
        lj.energyAndForces(Atoms.of(new int[] {18, 18}, new double[] {0, 0, 0, rmin, 0, 0}, null), f);
        assertEquals(0.0, f[3], 1e-5);
    }
}
