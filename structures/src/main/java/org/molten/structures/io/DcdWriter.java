package org.molten.structures.io;

import java.io.Closeable;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.channels.FileChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import org.molten.core.Cell;

/**
 * A DCD trajectory in the CHARMM/NAMD layout that OpenMM's {@code DCDFile} writes and VMD, MDAnalysis and
 * mdtraj read: little-endian Fortran records (each framed by its byte length), a 'CORD' header (frame count,
 * first step, steps between frames, timestep in AKMA units, the unit-cell flag, CHARMM version 24), two 80-byte
 * title lines and the atom count; then per frame the unit cell when periodic (a, cos γ, b, cos β, cos α, c:
 * lengths in Å, float64) and the x, y and z blocks of float32 positions in Å.
 *
 * <p>Each frame is written, then the header's frame count and last step are updated, so a run that dies keeps
 * a readable file of every frame written. {@link #append} continues a file (after a restart has cut it back to
 * its checkpoint's length), taking the frame count from the file's length.
 *
 * <p>Readers rebuild a triclinic cell from its lengths and angles with a along x and b in the xy plane; a cell in
 * another orientation has its positions written in that one (the same fractional coordinates, as the PDB writer
 * does), so that positions and cell agree in every reader.
 */
public final class DcdWriter implements Closeable {
    /** One AKMA time unit in fs (CHARMM's, as OpenMM converts: 0.04888821 ps). */
    public static final double AKMA_TIME_FS = 48.88821;
    /** Bytes before the first frame: the 84-byte CORD record, the 164-byte title record, the atom-count record. */
    static final int HEADER_BYTES = (4 + 84 + 4) + (4 + 164 + 4) + (4 + 4 + 4);
    private static final long NSET_OFFSET = 8;
    private static final long NSTEP_OFFSET = 20;

    private final Path file;
    private final FileChannel channel;
    private final int atoms;
    private final boolean periodic;
    private final int firstStep;
    private final int intervalSteps;
    private int frames;

    private DcdWriter(Path file, FileChannel channel, int atoms, boolean periodic, int firstStep, int intervalSteps,
                      int frames) {
        this.file = file;
        this.channel = channel;
        this.atoms = atoms;
        this.periodic = periodic;
        this.firstStep = firstStep;
        this.intervalSteps = intervalSteps;
        this.frames = frames;
    }

    /**
     * A new file (an existing one is replaced) holding the header only.
     *
     * @param atoms         atoms per frame
     * @param periodic      whether frames carry a unit cell
     * @param firstStep     the step of the first frame (ISTART)
     * @param intervalSteps steps between frames (NSAVC), at least 1
     * @param timestepFs    the integrator's timestep, fs (stored in AKMA units)
     * @param title         a line of at most 80 ASCII characters (cut beyond)
     */
    public static DcdWriter create(Path file, int atoms, boolean periodic, long firstStep, int intervalSteps,
                                   double timestepFs, String title) throws IOException {
        if (atoms < 1 || intervalSteps < 1) {
            throw new IllegalArgumentException("a DCD needs at least one atom and an interval of at least one step: "
                    + atoms + " atoms, every " + intervalSteps + " steps");
        }
        int istart = toInt(firstStep, "first step");
        FileChannel ch = FileChannel.open(file, StandardOpenOption.CREATE, StandardOpenOption.WRITE,
                StandardOpenOption.TRUNCATE_EXISTING);
        ByteBuffer h = ByteBuffer.allocate(HEADER_BYTES).order(ByteOrder.LITTLE_ENDIAN);
        h.putInt(84).put("CORD".getBytes(StandardCharsets.US_ASCII));
        h.putInt(0).putInt(istart).putInt(intervalSteps).putInt(istart);   // NSET, ISTART, NSAVC, NSTEP (last step)
        for (int k = 0; k < 5; k++) {
            h.putInt(0);
        }
        h.putFloat((float) (timestepFs / AKMA_TIME_FS));
        h.putInt(periodic ? 1 : 0);
        for (int k = 0; k < 8; k++) {
            h.putInt(0);
        }
        h.putInt(24).putInt(84);                                            // CHARMM version; end of record
        h.putInt(164).putInt(2).put(titleLine(title)).put(titleLine("Created by Molten")).putInt(164);
        h.putInt(4).putInt(atoms).putInt(4);
        h.flip();
        writeFully(ch, h, 0);
        return new DcdWriter(file, ch, atoms, periodic, istart, intervalSteps, 0);
    }

    /**
     * Continues {@code file}: checks that its header describes {@code atoms} atoms, the same cell flag and
     * interval, and that its length is the header plus whole frames; the frame count is set from that length.
     *
     * @throws IOException naming the file and the mismatch
     */
    public static DcdWriter append(Path file, int atoms, boolean periodic, int intervalSteps) throws IOException {
        FileChannel ch = FileChannel.open(file, StandardOpenOption.READ, StandardOpenOption.WRITE);
        try {
            ByteBuffer h = ByteBuffer.allocate(HEADER_BYTES).order(ByteOrder.LITTLE_ENDIAN);
            while (h.hasRemaining() && ch.read(h, h.position()) > 0) {
                // read the header
            }
            if (h.hasRemaining() || h.getInt(0) != 84 || !"CORD".equals(new String(h.array(), 4, 4, StandardCharsets.US_ASCII))) {
                throw new IOException(file + " is not a DCD file written by Molten (no CORD header)");
            }
            int istart = h.getInt(12), nsavc = h.getInt(16), boxFlag = h.getInt(48), n = h.getInt(HEADER_BYTES - 8);
            if (n != atoms || (boxFlag != 0) != periodic || nsavc != intervalSteps) {
                throw new IOException(file + " holds " + n + " atoms" + (boxFlag != 0 ? " with" : " without")
                        + " a unit cell, a frame every " + nsavc + " steps; the run has " + atoms + " atoms"
                        + (periodic ? " with" : " without") + " a cell, every " + intervalSteps + " steps; cannot continue it");
            }
            long frameBytes = frameBytes(atoms, periodic);
            long body = ch.size() - HEADER_BYTES;
            if (body % frameBytes != 0) {
                throw new IOException(file + " ends inside a frame (" + body + " bytes after the header, frames of "
                        + frameBytes + "); cannot continue it");
            }
            DcdWriter w = new DcdWriter(file, ch, atoms, periodic, istart, intervalSteps, toInt(body / frameBytes, "frames"));
            w.updateHeader();
            return w;
        } catch (IOException | RuntimeException e) {
            ch.close();
            throw e;
        }
    }

    /**
     * Writes one frame and updates the header's frame count.
     *
     * @param positionsA flat x, y, z per atom, Å
     * @param cell       the unit cell (required when the file is periodic, ignored otherwise)
     */
    public void write(double[] positionsA, Cell cell) throws IOException {
        if (positionsA.length != 3 * atoms) {
            throw new IllegalArgumentException("a frame of " + file + " needs 3 x " + atoms + " coordinates, got "
                    + positionsA.length);
        }
        ByteBuffer b = ByteBuffer.allocate((int) frameBytes(atoms, periodic)).order(ByteOrder.LITTLE_ENDIAN);
        double[] r = positionsA;
        if (periodic) {
            if (cell == null) {
                throw new IllegalArgumentException("a frame of the periodic DCD " + file + " needs a cell");
            }
            r = PdbFormat.inStandardOrientation(positionsA, cell);   // as readers rebuild the cell, and as the PDB beside
            double[] p = PdbFormat.parametersOf(cell);   // a, b, c (Å), alpha, beta, gamma (degrees)
            b.putInt(48).putDouble(p[0]).putDouble(cosDeg(p[5])).putDouble(p[1]).putDouble(cosDeg(p[4]))
                    .putDouble(cosDeg(p[3])).putDouble(p[2]).putInt(48);
        }
        for (int axis = 0; axis < 3; axis++) {
            b.putInt(4 * atoms);
            for (int i = 0; i < atoms; i++) {
                b.putFloat((float) r[3 * i + axis]);
            }
            b.putInt(4 * atoms);
        }
        b.flip();
        writeFully(channel, b, HEADER_BYTES + frames * frameBytes(atoms, periodic));
        frames++;
        updateHeader();
    }

    /** Frames in the file. */
    public int frames() {
        return frames;
    }

    @Override
    public void close() throws IOException {
        channel.close();
    }

    /** Bytes of one frame: the optional cell record and three coordinate records. */
    static long frameBytes(int atoms, boolean periodic) {
        return (periodic ? 4 + 48 + 4 : 0) + 3L * (4 + 4L * atoms + 4);
    }

    private void updateHeader() throws IOException {
        ByteBuffer count = ByteBuffer.allocate(4).order(ByteOrder.LITTLE_ENDIAN).putInt(0, frames);
        writeFully(channel, count, NSET_OFFSET);
        long last = (long) firstStep + (long) Math.max(0, frames - 1) * intervalSteps;
        ByteBuffer step = ByteBuffer.allocate(4).order(ByteOrder.LITTLE_ENDIAN).putInt(0, (int) Math.min(last, Integer.MAX_VALUE));
        writeFully(channel, step, NSTEP_OFFSET);
    }

    private static void writeFully(FileChannel ch, ByteBuffer b, long position) throws IOException {
        long p = position;
        while (b.hasRemaining()) {
            p += ch.write(b, p);
        }
    }

    private static byte[] titleLine(String title) {
        byte[] line = new byte[80];
        java.util.Arrays.fill(line, (byte) ' ');
        byte[] t = title.getBytes(StandardCharsets.US_ASCII);
        System.arraycopy(t, 0, line, 0, Math.min(80, t.length));
        return line;
    }

    private static double cosDeg(double degrees) {
        return degrees == 90.0 ? 0.0 : Math.cos(Math.toRadians(degrees));
    }

    private static int toInt(long v, String what) {
        if (v < 0 || v > Integer.MAX_VALUE) {
            throw new IllegalArgumentException("DCD stores the " + what + " as a 32-bit integer: " + v + " does not fit");
        }
        return (int) v;
    }
}
