package org.molten.validation.observables;

import static org.junit.jupiter.api.Assertions.*;

import org.junit.jupiter.api.Test;
import org.molten.core.Atoms;
import org.molten.core.Cell;
import org.molten.structures.BuiltInMolecules;

class InternalCoordinatesTest {

    /** a on +x above b, b at the origin, c on +z, d at angle theta (degrees) from +x in the plane z = 1.5. */
    private static double[] chain(double thetaDeg) {
        double t = Math.toRadians(thetaDeg);
        return new double[] {1.0, 0, -0.4, 0, 0, 0, 0, 0, 1.5, 1.2 * Math.cos(t), 1.2 * Math.sin(t), 1.9};
    }

    @Test
    void dihedralOfAConstructedChainFollowsIupac() {
        // Looking along b→c (the +z direction), a rotation from +x towards +y is clockwise for the
        // viewer: IUPAC calls it positive.
        for (double theta : new double[] {-179, -120, -60, -1, 0, 1, 45, 60, 120, 179, 180}) {
            double got = InternalCoordinates.dihedral(chain(theta), null, 0, 1, 2, 3);
            assertEquals(theta == 180 ? 180 : theta, got, 1e-9, "theta " + theta);
        }
        // Reversing the chain (d-c-b-a) keeps the dihedral; a mirror image flips its sign.
        double[] x = chain(60);
        assertEquals(60, InternalCoordinates.dihedral(x, null, 3, 2, 1, 0), 1e-9);
        double[] mirror = x.clone();
        for (int i = 1; i < mirror.length; i += 3) {
            mirror[i] = -mirror[i];
        }
        assertEquals(-60, InternalCoordinates.dihedral(mirror, null, 0, 1, 2, 3), 1e-9);
    }

    @Test
    void dihedralAt180IsReportedAsPlus180() {
        for (double theta : new double[] {-180, 180, 540}) {
            double v = InternalCoordinates.dihedral(chain(theta), null, 0, 1, 2, 3);
            assertTrue(v > -180 && v <= 180, "range (-180, 180]: " + v);
            assertEquals(180.0, Math.abs(v), 1e-9);
        }
        // Exactly antiperiplanar in exact arithmetic: +180, never -180.
        double[] trans = {1, 0, 0, 0, 0, 0, 0, 0, 1.5, -1, 0, 1.5};
        assertEquals(180.0, InternalCoordinates.dihedral(trans, null, 0, 1, 2, 3), 0.0);
    }

    @Test
    void collinearAtomsAreRefused() {
        double[] x = {0, 0, 0, 1, 0, 0, 2, 0, 0, 2, 1, 0};
        var e = assertThrows(IllegalArgumentException.class, () -> InternalCoordinates.dihedral(x, null, 0, 1, 2, 3));
        assertTrue(e.getMessage().contains("collinear"), e.getMessage());
    }

    @Test
    void bondLengthsAndAnglesOfAHandBuiltWaterAndAcrossAPeriodicBoundary() {
        double r = 0.9572;
        double theta = Math.toRadians(104.52);
        double[] w = {0, 0, 0, r, 0, 0, r * Math.cos(theta), r * Math.sin(theta), 0};
        assertEquals(r, InternalCoordinates.distance(w, null, 0, 1), 1e-12);
        assertEquals(r, InternalCoordinates.distance(w, null, 0, 2), 1e-12);
        assertEquals(104.52, InternalCoordinates.angle(w, null, 1, 0, 2), 1e-9);
        assertEquals(180.0, InternalCoordinates.angle(new double[] {-1, 0, 0, 0, 0, 0, 2, 0, 0}, null, 0, 1, 2), 1e-12);
        // The same molecule split by the boundary of a 10 Å box: the minimum image makes it whole.
        Cell box = Cell.orthorhombic(10, 10, 10);
        double[] split = w.clone();
        split[0] += 9.8;
        split[3] += 9.8;
        split[3] -= 10.0;  // H1 wrapped to the other side
        split[6] += 9.8;
        assertEquals(r, InternalCoordinates.distance(split, box, 0, 1), 1e-12);
        assertEquals(104.52, InternalCoordinates.angle(split, box, 1, 0, 2), 1e-9);
    }

    /** An independent dihedral: acos of the angle between the two planes' normals, sign of (n1 × n2)·b. */
    private static double dihedralByNormals(double[] x, int a, int b, int c, int d) {
        double[] p = new double[12];
        int[] idx = {a, b, c, d};
        for (int k = 0; k < 4; k++) {
            System.arraycopy(x, 3 * idx[k], p, 3 * k, 3);
        }
        double[] ba = {p[0] - p[3], p[1] - p[4], p[2] - p[5]};
        double[] bc = {p[6] - p[3], p[7] - p[4], p[8] - p[5]};
        double[] cd = {p[9] - p[6], p[10] - p[7], p[11] - p[8]};
        // Project a-b and d-c onto the plane perpendicular to b→c.
        double l2 = bc[0] * bc[0] + bc[1] * bc[1] + bc[2] * bc[2];
        double s1 = (ba[0] * bc[0] + ba[1] * bc[1] + ba[2] * bc[2]) / l2;
        double s2 = (cd[0] * bc[0] + cd[1] * bc[1] + cd[2] * bc[2]) / l2;
        double[] u = {ba[0] - s1 * bc[0], ba[1] - s1 * bc[1], ba[2] - s1 * bc[2]};
        double[] v = {cd[0] - s2 * bc[0], cd[1] - s2 * bc[1], cd[2] - s2 * bc[2]};
        double cos = (u[0] * v[0] + u[1] * v[1] + u[2] * v[2])
                / Math.sqrt((u[0] * u[0] + u[1] * u[1] + u[2] * u[2]) * (v[0] * v[0] + v[1] * v[1] + v[2] * v[2]));
        double angle = Math.toDegrees(Math.acos(Math.max(-1, Math.min(1, cos))));
        // Right-handed turn from u to v about b→c is positive.
        double[] uxv = {u[1] * v[2] - u[2] * v[1], u[2] * v[0] - u[0] * v[2], u[0] * v[1] - u[1] * v[0]};
        double sign = uxv[0] * bc[0] + uxv[1] * bc[1] + uxv[2] * bc[2];
        return sign < 0 ? -angle : angle;
    }

    @Test
    void alanineDipeptidePhiPsiOfTheStoredConformer() {
        Atoms ala = BuiltInMolecules.load("alanine-dipeptide");
        PeptideBackbone bb = PeptideBackbone.detect(BondedTopology.of(ala));
        double[] x = ala.positions();
        PeptideBackbone.Dihedral phi = bb.dihedrals(PeptideBackbone.DihedralKind.PHI).get(0);
        PeptideBackbone.Dihedral psi = bb.dihedrals(PeptideBackbone.DihedralKind.PSI).get(0);
        double phiDeg = InternalCoordinates.dihedral(x, null, phi.a(), phi.b(), phi.c(), phi.d());
        double psiDeg = InternalCoordinates.dihedral(x, null, psi.a(), psi.b(), psi.c(), psi.d());
        // Independent formula, and ASE 3.22 Atoms.get_dihedral on the same file (1,3,4,6) and (3,4,6,8):
        // -143.1967 and 162.9246 degrees (the extended C5/β region of L-Ala).
        assertEquals(dihedralByNormals(x, phi.a(), phi.b(), phi.c(), phi.d()), phiDeg, 1e-9);
        assertEquals(dihedralByNormals(x, psi.a(), psi.b(), psi.c(), psi.d()), psiDeg, 1e-9);
        assertEquals(-143.1967, phiDeg, 1e-3);
        assertEquals(162.9246, psiDeg, 1e-3);
        assertArrayEquals(new int[] {1, 3, 4, 6}, new int[] {phi.a(), phi.b(), phi.c(), phi.d()});
        assertArrayEquals(new int[] {3, 4, 6, 8}, new int[] {psi.a(), psi.b(), psi.c(), psi.d()});
    }
}
