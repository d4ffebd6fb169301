package org.molten.structures.io;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.molten.core.Cell;

/**
 * The DCD layout byte by byte (OpenMM's DCDFile: the CORD record, frame count and last step updated after each
 * frame, the unit-cell record, float32 x/y/z blocks) and continuing a file. RunDcdPeerTest reads Molten's DCD
 * with MDAnalysis and mdtraj.
 */
class DcdWriterTest {
    @TempDir
    Path dir;

    private static ByteBuffer bytes(Path p) throws IOException {
        return ByteBuffer.wrap(Files.readAllBytes(p)).order(ByteOrder.LITTLE_ENDIAN);
    }

    @Test
    void headerFramesAndCellFollowTheCharmmLayout() throws IOException {
        Path f = dir.resolve("t.dcd");
        Cell cell = Cell.of(new double[][] {{10, 0, 0}, {0, 11, 0}, {0, 0, 12}}, new boolean[] {true, true, true});
        try (DcdWriter w = DcdWriter.create(f, 2, true, 0, 10, 0.5, "test")) {
            w.write(new double[] {1, 2, 3, 4, 5, 6}, cell);
            w.write(new double[] {1.5, 2, 3, 4, 5, 6.25}, cell);
        }
        ByteBuffer b = bytes(f);
        assertEquals(84, b.getInt(0));
        assertEquals("CORD", new String(b.array(), 4, 4, java.nio.charset.StandardCharsets.US_ASCII));
        assertEquals(2, b.getInt(8), "NSET: frames");
        assertEquals(0, b.getInt(12), "ISTART");
        assertEquals(10, b.getInt(16), "NSAVC");
        assertEquals(10, b.getInt(20), "step of the last frame");
        assertEquals(0.5 / DcdWriter.AKMA_TIME_FS, b.getFloat(44), 1e-9, "timestep, AKMA");
        assertEquals(1, b.getInt(48), "unit-cell flag");
        assertEquals(24, b.getInt(84), "CHARMM version");
        assertEquals(84, b.getInt(88));
        assertEquals(164, b.getInt(92));
        assertEquals(2, b.getInt(268), "atoms");
        long frame = DcdWriter.frameBytes(2, true);
        assertEquals(DcdWriter.HEADER_BYTES + 2 * frame, b.capacity());
        int second = (int) (DcdWriter.HEADER_BYTES + frame);
        assertEquals(48, b.getInt(second));
        assertEquals(10.0, b.getDouble(second + 4), "a");
        assertEquals(0.0, b.getDouble(second + 12), "cos gamma");
        assertEquals(11.0, b.getDouble(second + 20), "b");
        assertEquals(12.0, b.getDouble(second + 44), "c");
        int xs = second + 56;
        assertEquals(8, b.getInt(xs), "x record: 2 float32");
        assertEquals(1.5f, b.getFloat(xs + 4));
        assertEquals(4f, b.getFloat(xs + 8));
        int zs = xs + 2 * 16;
        assertEquals(6.25f, b.getFloat(zs + 8), "z of atom 1");
    }

    @Test
    void appendContinuesFromTheLengthAndRefusesAnotherSystemOrACutFrame() throws IOException {
        Path f = dir.resolve("t.dcd");
        try (DcdWriter w = DcdWriter.create(f, 1, false, 100, 5, 1.0, "t")) {
            for (int k = 0; k < 3; k++) {
                w.write(new double[] {k, 0, 0}, null);
            }
        }
        try (FileChannel ch = FileChannel.open(f, StandardOpenOption.WRITE)) {   // a restart cuts back to 2 frames
            ch.truncate(DcdWriter.HEADER_BYTES + 2 * DcdWriter.frameBytes(1, false));
        }
        try (DcdWriter w = DcdWriter.append(f, 1, false, 5)) {
            assertEquals(2, w.frames());
            w.write(new double[] {9, 0, 0}, null);
        }
        ByteBuffer b = bytes(f);
        assertEquals(3, b.getInt(8));
        assertEquals(110, b.getInt(20), "100 + 2 x 5: the third frame's step");
        assertEquals(9f, b.getFloat((int) (DcdWriter.HEADER_BYTES + 2 * DcdWriter.frameBytes(1, false)) + 4));

        IOException other = assertThrows(IOException.class, () -> DcdWriter.append(f, 2, false, 5));
        assertTrue(other.getMessage().contains("holds 1 atoms") && other.getMessage().contains("the run has 2 atoms"),
                other.getMessage());
        try (FileChannel ch = FileChannel.open(f, StandardOpenOption.WRITE)) {
            ch.truncate(Files.size(f) - 3);
        }
        IOException cut = assertThrows(IOException.class, () -> DcdWriter.append(f, 1, false, 5));
        assertTrue(cut.getMessage().contains("ends inside a frame"), cut.getMessage());
    }

    @Test
    void aCellInAnotherOrientationHasItsPositionsWrittenInTheOneReadersRebuild() throws IOException {
        boolean[] pbc = {true, true, true};
        Cell standard = PdbFormat.cellFromParameters(new double[] {10, 11, 12, 80, 85, 95}, pbc);
        double[] inStandard = {1, 2, 3, 4.5, -0.5, 6, 9, 9.5, 11};
        // the same crystal turned by 30 degrees about z and 20 about x: lattice vectors and positions alike
        double c = Math.cos(Math.toRadians(30)), s = Math.sin(Math.toRadians(30));
        double cx = Math.cos(Math.toRadians(20)), sx = Math.sin(Math.toRadians(20));
        double[][] q = {{c, -s * cx, s * sx}, {s, c * cx, -c * sx}, {0, sx, cx}};
        double[][] h = standard.matrix();
        double[][] turnedH = new double[3][];
        for (int k = 0; k < 3; k++) {
            turnedH[k] = turn(q, h[k][0], h[k][1], h[k][2]);
        }
        double[] turned = new double[9];
        for (int i = 0; i < 3; i++) {
            System.arraycopy(turn(q, inStandard[3 * i], inStandard[3 * i + 1], inStandard[3 * i + 2]), 0, turned, 3 * i, 3);
        }
        Path f = dir.resolve("turned.dcd");
        try (DcdWriter w = DcdWriter.create(f, 3, true, 0, 1, 1.0, "t")) {
            w.write(turned, Cell.of(turnedH, pbc));
        }
        ByteBuffer b = bytes(f);
        int frame = DcdWriter.HEADER_BYTES;
        assertEquals(10.0, b.getDouble(frame + 4), 1e-12, "a");
        assertEquals(Math.cos(Math.toRadians(95)), b.getDouble(frame + 12), 1e-12, "cos gamma");
        for (int axis = 0; axis < 3; axis++) {
            for (int i = 0; i < 3; i++) {
                assertEquals(inStandard[3 * i + axis], b.getFloat(frame + 56 + axis * 20 + 4 + 4 * i), 1e-5,
                        "atom " + i + " along " + "xyz".charAt(axis) + ": the standard orientation's, not the turned one");
            }
        }
    }

    private static double[] turn(double[][] q, double x, double y, double z) {
        return new double[] {q[0][0] * x + q[0][1] * y + q[0][2] * z, q[1][0] * x + q[1][1] * y + q[1][2] * z,
                q[2][0] * x + q[2][1] * y + q[2][2] * z};
    }
}
