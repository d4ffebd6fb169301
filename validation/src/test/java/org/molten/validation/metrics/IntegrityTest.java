package org.molten.validation.metrics;

import static org.junit.jupiter.api.Assertions.*;

import org.junit.jupiter.api.Test;
import org.molten.core.Atoms;
import org.molten.core.Cell;

class IntegrityTest {

    /** Water (O, H, H) plus a second oxygen 3 Å away: 2 O-H bonds, 2 hydrogens with a partner. */
    private static Atoms waterAndOxygen() {
        return Atoms.of(new int[] {8, 1, 1, 8}, new double[] {
                0, 0, 0,
                0.957, 0, 0,
                -0.24, 0.927, 0,
                3.0, 0, 0}, null);
    }

    @Test
    void smallVibrationsStayIntact() {
        Atoms start = waterAndOxygen();
        StructuralIntegrity s = StructuralIntegrity.of(start);
        Atoms a = start.copy();
        a.positions()[3] = 1.1;   // O-H at 1.15 x its length
        assertTrue(s.check(10, 5.0, a));
        IntegrityResult r = s.result();
        assertTrue(r.intact());
        assertEquals(2, r.bonds());
        assertEquals(2, r.hydrogensChecked());
        assertEquals(1.1 / 0.957, r.maxBondStretchRatio(), 1e-9);
        assertEquals("O0-H1", r.worstBond());
        assertNull(r.firstViolation());
    }

    @Test
    void aBondPastOneAndAHalfTimesItsStartIsReportedWithStepAndAtom() {
        Atoms start = waterAndOxygen();
        StructuralIntegrity s = StructuralIntegrity.of(start);
        Atoms a = start.copy();
        a.positions()[3] = 1.45;  // 1.52 x, still nearer its own oxygen than the other one
        assertFalse(s.check(123, 61.5, a));
        IntegrityViolation v = s.result().firstViolation();
        assertEquals(IntegrityViolation.Kind.BOND_STRETCHED, v.kind());
        assertEquals(123, v.step());
        assertEquals(61.5, v.timeFs());
        assertEquals(1, v.atom());
        assertTrue(v.description().contains("O0-H1"), v.description());
        assertFalse(s.result().intact());
    }

    @Test
    void theFirstViolationIsKept() {
        Atoms start = waterAndOxygen();
        StructuralIntegrity s = StructuralIntegrity.of(start);
        Atoms a = start.copy();
        a.positions()[3] = 1.45;
        s.check(5, 2.5, a);
        a.positions()[3] = 2.9;  // later the hydrogen also hops to the other oxygen
        s.check(6, 3.0, a);
        assertEquals(5, s.result().firstViolation().step());
        assertEquals(2, s.result().framesChecked());
    }

    @Test
    void aHydrogenHoppingToAnotherHeavyAtomIsDetached() {
        // Loose stretch limit so that only the hydrogen rule can fire.
        StructuralIntegrity s = StructuralIntegrity.of(waterAndOxygen(), 10, 5, 0.5);
        Atoms a = waterAndOxygen();
        a.positions()[3] = 1.8;   // 1.8 from its own O, 1.2 from the other
        assertFalse(s.check(7, 3.5, a));
        IntegrityViolation v = s.result().firstViolation();
        assertEquals(IntegrityViolation.Kind.HYDROGEN_DETACHED, v.kind());
        assertEquals(1, v.atom());
        assertTrue(v.description().contains("O3"), v.description());
    }

    @Test
    void anEscapingAtomIsCaught() {
        Atoms start = Atoms.of(new int[] {8, 1, 1}, new double[] {0, 0, 0, 0.957, 0, 0, -0.24, 0.927, 0}, null);
        StructuralIntegrity s = StructuralIntegrity.of(start, 1000, 5, 0.5);
        Atoms a = start.copy();
        a.positions()[7] = 40;    // H2 flies away along y
        assertFalse(s.check(3, 1.5, a));
        IntegrityViolation v = s.result().firstViolation();
        assertEquals(IntegrityViolation.Kind.ATOM_ESCAPED, v.kind());
        assertEquals(2, v.atom());
        assertTrue(s.result().maxDistanceFromComA() > s.result().escapeLimitA());
    }

    /** MLIPAudit's rule: a hydrogen more than 2.5 Å from its partner is dissociated, whatever the stretch limit. */
    @Test
    void aHydrogenFartherThanTwoAndAHalfAngstromFromItsPartnerIsDissociated() {
        Atoms start = Atoms.of(new int[] {8, 1, 1}, new double[] {0, 0, 0, 0.957, 0, 0, -0.24, 0.927, 0}, null);
        StructuralIntegrity s = StructuralIntegrity.of(start, 1000, 50, 0.5);
        Atoms a = start.copy();
        a.positions()[3] = 2.4;    // H1 at 2.4 Å: still bonded
        assertTrue(s.check(1, 0.5, a));
        a.positions()[3] = 2.6;    // 2.6 Å
        assertFalse(s.check(2, 1.0, a));
        IntegrityViolation v = s.result().firstViolation();
        assertEquals(IntegrityViolation.Kind.HYDROGEN_FAR, v.kind());
        assertEquals(1, v.atom());
        assertTrue(v.description().contains("2.600 Å from its bonded O0"), v.description());
    }

    @Test
    void nonFiniteCoordinatesAndOverlapsAreCaught() {
        StructuralIntegrity s = StructuralIntegrity.of(waterAndOxygen());
        Atoms a = waterAndOxygen();
        a.positions()[7] = Double.NaN;
        assertFalse(s.check(1, 0.5, a));
        assertEquals(IntegrityViolation.Kind.NON_FINITE, s.result().firstViolation().kind());
        assertEquals(2, s.result().firstViolation().atom());

        StructuralIntegrity o = StructuralIntegrity.of(waterAndOxygen(), 10, 5, 0.5);
        Atoms b = waterAndOxygen();
        b.positions()[9] = -0.3;  // second oxygen onto the first, still farther from the hydrogens
        b.positions()[10] = -0.2;
        assertFalse(o.check(2, 1.0, b));
        assertEquals(IntegrityViolation.Kind.ATOMS_OVERLAP, o.result().firstViolation().kind());
    }

    @Test
    void periodicBondsUseTheMinimumImageAndSkipEscape() {
        // O-H bond across the boundary of a 10 Å box: 0.96 Å through the wall.
        Cell cell = Cell.orthorhombic(10, 10, 10);
        Atoms start = Atoms.of(new int[] {8, 1}, new double[] {9.7, 5, 5, 0.26, 5, 5}, cell);
        StructuralIntegrity s = StructuralIntegrity.of(start);
        assertEquals(1, s.result().bonds());
        Atoms a = start.copy();
        a.positions()[3] = 10.3;   // the hydrogen unwrapped: same minimum-image bond
        assertTrue(s.check(1, 0.5, a));
        assertTrue(Double.isNaN(s.result().escapeLimitA()));
    }
}
