package org.molten.cli.ipi;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import org.junit.jupiter.api.Test;
import org.molten.core.Atoms;
import org.molten.core.Cell;
import org.molten.core.ForceField;
import org.molten.core.Units;

/**
 * The i-PI client against a scripted driver: the bytes a driver sends are written here by hand in the
 * layout of ASE's {@code IPIProtocol} (12-byte headers, little-endian arrays, cell.T in Bohr), the client's
 * answer is read back the same way. The ASE peer test (ServeAsePeerTest) checks the same against the real driver.
 */
class IpiClientTest {

    /** A pair potential E = k/2 Σ_{i<j} (|r_ij| - d0)², minimum image in a periodic cell: forces and virial known. */
    static final class Springs implements ForceField {
        final double k = 3.0, d0 = 1.1;   // eV/Å², Å

        @Override
        public String name() {
            return "springs";
        }

        @Override
        public double energyAndForces(Atoms atoms, double[] forces) {
            java.util.Arrays.fill(forces, 0);
            double e = 0;
            double[] d = new double[3];
            for (int i = 0; i < atoms.size(); i++) {
                for (int j = i + 1; j < atoms.size(); j++) {
                    atoms.displacement(i, j, d);
                    double r = Math.sqrt(d[0] * d[0] + d[1] * d[1] + d[2] * d[2]);
                    e += 0.5 * k * (r - d0) * (r - d0);
                    for (int c = 0; c < 3; c++) {
                        double f = k * (r - d0) * d[c] / r;   // on i, along r_ij = r_j - r_i
                        forces[3 * i + c] += f;
                        forces[3 * j + c] -= f;
                    }
                }
            }
            return e;
        }

        /** The pair virial W_ab = -Σ_{i<j} d_a F_ij,b with F_ij the force on j: -dE/dε. */
        double[][] virial(Atoms atoms) {
            double[][] w = new double[3][3];
            double[] d = new double[3];
            for (int i = 0; i < atoms.size(); i++) {
                for (int j = i + 1; j < atoms.size(); j++) {
                    atoms.displacement(i, j, d);
                    double r = Math.sqrt(d[0] * d[0] + d[1] * d[1] + d[2] * d[2]);
                    for (int a = 0; a < 3; a++) {
                        for (int b = 0; b < 3; b++) {
                            w[a][b] -= k * (r - d0) * d[a] * d[b] / r;
                        }
                    }
                }
            }
            return w;
        }
    }

    /** What a driver sends, built in the order of ASE's IPIProtocol. */
    static final class DriverScript {
        final ByteArrayOutputStream bytes = new ByteArrayOutputStream();

        DriverScript header(String h) {
            byte[] b = String.format("%-12s", h).getBytes(java.nio.charset.StandardCharsets.US_ASCII);
            bytes.writeBytes(b);
            return this;
        }

        DriverScript ints(int... v) {
            ByteBuffer b = ByteBuffer.allocate(4 * v.length).order(ByteOrder.LITTLE_ENDIAN);
            for (int x : v) {
                b.putInt(x);
            }
            bytes.writeBytes(b.array());
            return this;
        }

        DriverScript raw(byte[] b) {
            bytes.writeBytes(b);
            return this;
        }

        DriverScript doubles(double... v) {
            ByteBuffer b = ByteBuffer.allocate(8 * v.length).order(ByteOrder.LITTLE_ENDIAN);
            for (double x : v) {
                b.putDouble(x);
            }
            bytes.writeBytes(b.array());
            return this;
        }

        /** POSDATA with the cell's lattice vectors as rows (Å), sent as ASE does: cell.T / Bohr. */
        DriverScript posdata(double[][] cellRowsA, double[] positionsA) {
            header("POSDATA");
            double[] h = new double[9];
            for (int i = 0; i < 3; i++) {
                for (int j = 0; j < 3; j++) {
                    h[3 * i + j] = cellRowsA[j][i] / Units.BOHR_IN_A;
                }
            }
            doubles(h);
            doubles(new double[9]);   // h^-1: the client recomputes it
            ints(positionsA.length / 3);
            double[] p = positionsA.clone();
            for (int k = 0; k < p.length; k++) {
                p[k] /= Units.BOHR_IN_A;
            }
            return doubles(p);
        }

        IpiWire wire(ByteArrayOutputStream answer) {
            return new IpiWire(new ByteArrayInputStream(bytes.toByteArray()), answer);
        }
    }

    /** Reads the client's answer back. */
    static final class Answer {
        final ByteBuffer b;

        Answer(ByteArrayOutputStream out) {
            b = ByteBuffer.wrap(out.toByteArray()).order(ByteOrder.LITTLE_ENDIAN);
        }

        String header() {
            byte[] h = new byte[12];
            b.get(h);
            return new String(h, java.nio.charset.StandardCharsets.US_ASCII).trim();
        }

        double[] doubles(int n) {
            double[] v = new double[n];
            for (int i = 0; i < n; i++) {
                v[i] = b.getDouble();
            }
            return v;
        }

        int integer() {
            return b.getInt();
        }
    }

    private static final double[] WATER = {0, 0, 0, 0.96, 0, 0, -0.24, 0.93, 0};
    private static final double[][] NO_CELL = new double[3][3];

    @Test
    void aStepAnswersEnergyForcesAndVirialInHartreeAndBohrThenExits() throws IOException {
        Atoms water = Atoms.of(new int[] {8, 1, 1}, WATER, null);
        Springs ff = new Springs();
        double[] moved = {0.01, -0.02, 0.03, 1.0, 0.05, 0, -0.3, 0.9, 0.1};
        DriverScript d = new DriverScript().header("STATUS").header("INIT").ints(0, 1).raw(new byte[] {0})
                .header("STATUS").posdata(NO_CELL, moved).header("STATUS").header("GETFORCE").header("STATUS")
                .header("EXIT");
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        IpiClient.Result r = new IpiClient(ff, water, VirialMode.AUTO).serve(d.wire(out));
        assertEquals(new IpiClient.Result(1, IpiClient.Ending.EXIT), r);

        Answer a = new Answer(out);
        assertEquals("NEEDINIT", a.header());
        assertEquals("READY", a.header());
        assertEquals("HAVEDATA", a.header());
        assertEquals("FORCEREADY", a.header());
        Atoms at = Atoms.of(new int[] {8, 1, 1}, moved, null);
        double[] f = new double[9];
        double e = ff.energyAndForces(at, f);
        assertEquals(e / Units.HARTREE_IN_EV, a.doubles(1)[0], 1e-15);
        assertEquals(3, a.integer());
        double[] fHaBohr = a.doubles(9);
        for (int k = 0; k < 9; k++) {
            assertEquals(f[k] * Units.BOHR_IN_A / Units.HARTREE_IN_EV, fHaBohr[k], 1e-14, "force component " + k);
        }
        double[] w = a.doubles(9);
        double[][] expected = ff.virial(at);
        for (int i = 0; i < 3; i++) {
            for (int j = 0; j < 3; j++) {
                assertEquals(expected[j][i] / Units.HARTREE_IN_EV, w[3 * i + j], 1e-13, "virial " + i + j);
            }
        }
        int extra = a.integer();
        assertTrue(extra >= 0);
        a.b.position(a.b.position() + extra);
        assertEquals("READY", a.header());
        assertEquals(0, a.b.remaining(), "nothing after the last STATUS answer");
    }

    @Test
    void aPeriodicCellIsTakenFromTheDriverAndItsVirialIsTheStrainDerivative() throws IOException {
        // a triclinic cell: a transposed matrix would put the atoms at other minimum images
        double[][] cellA = {{4.0, 0, 0}, {0.9, 4.2, 0}, {0.4, -0.7, 3.9}};
        double[] pos = {0.1, 0.2, 0.1, 1.2, 0.3, 0.2, 3.6, 3.9, 3.5, 2.0, 2.2, 1.9};
        Atoms template = Atoms.of(new int[] {18, 18, 18, 18}, new double[12], Cell.orthorhombic(10, 10, 10));
        Springs ff = new Springs();
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        new IpiClient(ff, template, VirialMode.AUTO).serve(new DriverScript().posdata(cellA, pos).header("GETFORCE")
                .wire(out));
        Answer a = new Answer(out);
        assertEquals("FORCEREADY", a.header());
        Atoms at = Atoms.of(new int[] {18, 18, 18, 18}, pos, Cell.of(cellA, new boolean[] {true, true, true}));
        double[] f = new double[12];
        double e = ff.energyAndForces(at, f);
        assertEquals(e / Units.HARTREE_IN_EV, a.doubles(1)[0], 1e-14, "the energy in the driver's cell");
        a.integer();
        double[] fr = a.doubles(12);
        for (int k = 0; k < 12; k++) {
            assertEquals(f[k] * Units.BOHR_IN_A / Units.HARTREE_IN_EV, fr[k], 1e-14);
        }
        double[] w = a.doubles(9);
        double[][] exact = ff.virial(at);
        for (int i = 0; i < 3; i++) {
            for (int j = 0; j < 3; j++) {
                // central differences at ε = 1e-4: O(ε²) error on a virial of a few eV
                assertEquals(exact[i][j], w[3 * i + j] * Units.HARTREE_IN_EV, 1e-6, "virial " + i + j);
            }
        }
    }

    @Test
    void aDriverThatClosesBetweenStepsEndsTheSessionAndOneThatVanishesInsideAStepIsAnError() throws IOException {
        Atoms water = Atoms.of(new int[] {8, 1, 1}, WATER, null);
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        IpiClient.Result r = new IpiClient(new Springs(), water, VirialMode.NONE).serve(new DriverScript()
                .posdata(NO_CELL, WATER).header("GETFORCE").wire(out));
        assertEquals(new IpiClient.Result(1, IpiClient.Ending.CLOSED), r, "ASE closes without EXIT");

        IpiDriverException lost = assertThrows(IpiDriverException.class, () -> new IpiClient(new Springs(), water,
                VirialMode.NONE).serve(new DriverScript().posdata(NO_CELL, WATER).wire(new ByteArrayOutputStream())));
        assertTrue(lost.getMessage().contains("forces not collected"), lost.getMessage());

        DriverScript cut = new DriverScript().header("POSDATA").doubles(new double[9]);
        IpiDriverException inside = assertThrows(IpiDriverException.class, () -> new IpiClient(new Springs(), water,
                VirialMode.NONE).serve(cut.wire(new ByteArrayOutputStream())));
        assertTrue(inside.getMessage().contains("inside its POSDATA"), inside.getMessage());

        IpiDriverException count = assertThrows(IpiDriverException.class, () -> new IpiClient(new Springs(), water,
                VirialMode.NONE).serve(new DriverScript().posdata(NO_CELL, new double[12]).wire(new ByteArrayOutputStream())));
        assertTrue(count.getMessage().contains("sent 4 atoms") && count.getMessage().contains("has 3"), count.getMessage());

        IpiDriverException unknown = assertThrows(IpiDriverException.class, () -> new IpiClient(new Springs(), water,
                VirialMode.NONE).serve(new DriverScript().header("HELLO").wire(new ByteArrayOutputStream())));
        assertTrue(unknown.getMessage().contains("'HELLO'"), unknown.getMessage());
    }

    @Test
    void addressesParseAsIpiAndAseNameThemAndBadOnesAreNamed() {
        assertEquals(java.net.UnixDomainSocketAddress.of("/tmp/ipi_molten"), IpiAddress.parse("unix:molten").socket());
        assertEquals(java.net.UnixDomainSocketAddress.of("/run/x.sock"), IpiAddress.parse("unix:/run/x.sock").socket());
        java.net.InetSocketAddress inet = (java.net.InetSocketAddress) IpiAddress.parse("localhost:31415").socket();
        assertEquals("localhost", inet.getHostString());
        assertEquals(31415, inet.getPort());
        for (String bad : new String[] {"localhost", "localhost:", "localhost:http", "localhost:70000", "unix:"}) {
            IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> IpiAddress.parse(bad));
            assertTrue(e.getMessage().startsWith("--ipi " + bad), e.getMessage());
        }
    }
}
