package org.molten.integrators;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.EOFException;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Optional;
import java.util.zip.CRC32;
import org.molten.core.Atoms;
import org.molten.core.Cell;

/**
 * Everything needed to continue a simulation bit-for-bit: the system (atomic numbers, masses,
 * cell), the force field's name and parameter fingerprint, the integrator's description, the degrees of freedom, the seed,
 * step, time, positions, velocities, forces, potential energy, the random stream's state, every
 * integrator and thermostat state variable, and where each output file stood. Immutable.
 *
 * <p><b>File format</b> (big-endian, {@link DataOutputStream}): the magic {@code MOLTENCK}, a
 * format version, the fields above, and a CRC-32 of everything before it (every readable version
 * has it; a file that fails it is refused with what is wrong: {@link CheckpointDamage}). Files are
 * written by {@link AtomicFileWrite}: a temporary file in the same folder, forced to disk and
 * renamed over the target, so a crash or a full disk while writing leaves the previous checkpoint
 * intact.
 */
public final class Checkpoint {
    private static final long MAGIC = 0x4D4F4C54454E434BL; // "MOLTENCK"
    private static final int VERSION = 3;   // 2: the force field's parameter fingerprint; 3: the platform

    final int[] atomicNumbers;
    final double[] massesAmu;
    final double[][] cellMatrixA;   // null when not periodic
    final boolean[] pbc;            // null when not periodic
    final String forceFieldName;
    final String forceFieldFingerprint;   // "" when the force field has none
    final String integratorDescription;
    final String platform;          // "host" (reference, cpu) or a device platform's name
    final int degreesOfFreedom;
    final Long seed;                // null when the run had no random stream
    final long step;
    final double timeFs;
    final double potentialEnergyEv;
    final double[] positionsA;
    final double[] velocitiesAPerFs;
    final double[] forcesEvPerA;
    final long[] randomState;       // null when the run had no random stream
    final byte[] integratorState;
    final List<OutputMark> outputs;
    private final Path source;      // file it was read from, for messages; null when captured

    Checkpoint(int[] atomicNumbers, double[] massesAmu, Cell cell, String forceFieldName, String forceFieldFingerprint,
               String integratorDescription, String platform,
               int degreesOfFreedom, Long seed, long step, double timeFs, double potentialEnergyEv,
               double[] positionsA, double[] velocitiesAPerFs, double[] forcesEvPerA, long[] randomState,
               byte[] integratorState, List<OutputMark> outputs) {
        this(atomicNumbers, massesAmu, cell == null ? null : cell.matrix(), cell == null ? null : cell.pbc(),
                forceFieldName, forceFieldFingerprint, integratorDescription, platform, degreesOfFreedom, seed, step, timeFs,
                potentialEnergyEv, positionsA, velocitiesAPerFs, forcesEvPerA, randomState, integratorState, outputs, null);
    }

    private Checkpoint(int[] atomicNumbers, double[] massesAmu, double[][] cellMatrixA, boolean[] pbc,
                       String forceFieldName, String forceFieldFingerprint, String integratorDescription,
                       String platform, int degreesOfFreedom, Long seed, long step,
                       double timeFs, double potentialEnergyEv, double[] positionsA, double[] velocitiesAPerFs,
                       double[] forcesEvPerA, long[] randomState, byte[] integratorState, List<OutputMark> outputs,
                       Path source) {
        this.atomicNumbers = atomicNumbers;
        this.massesAmu = massesAmu;
        this.cellMatrixA = cellMatrixA;
        this.pbc = pbc;
        this.forceFieldName = forceFieldName;
        this.forceFieldFingerprint = forceFieldFingerprint;
        this.integratorDescription = integratorDescription;
        this.platform = platform;
        this.degreesOfFreedom = degreesOfFreedom;
        this.seed = seed;
        this.step = step;
        this.timeFs = timeFs;
        this.potentialEnergyEv = potentialEnergyEv;
        this.positionsA = positionsA;
        this.velocitiesAPerFs = velocitiesAPerFs;
        this.forcesEvPerA = forcesEvPerA;
        this.randomState = randomState;
        this.integratorState = integratorState;
        this.outputs = List.copyOf(outputs);
        this.source = source;
    }

    /** The step at which it was written. */
    public long step() {
        return step;
    }

    /** Simulated time in fs. */
    public double timeFs() {
        return timeFs;
    }

    /** Potential energy in eV. */
    public double potentialEnergyEv() {
        return potentialEnergyEv;
    }

    /** The seed the run was started with, if it had one. */
    public Optional<Long> seed() {
        return Optional.ofNullable(seed);
    }

    /** The force field's name at the time of writing. */
    public String forceFieldName() {
        return forceFieldName;
    }

    /** The force field's parameter fingerprint at the time of writing ("" if it had none). */
    public String forceFieldFingerprint() {
        return forceFieldFingerprint;
    }

    /** The integrator's description at the time of writing. */
    public String integratorDescription() {
        return integratorDescription;
    }

    /**
     * The platform that wrote it: "host" for reference and cpu (one host integration, so either
     * may continue it) or a device platform's name ("cuda"). A run continues only on the same one.
     */
    public String platform() {
        return platform;
    }

    /** The degrees of freedom of the run. */
    public int degreesOfFreedom() {
        return degreesOfFreedom;
    }

    /** Where each output file stood (absolute paths). */
    public List<OutputMark> outputs() {
        return outputs;
    }

    /** The file it was read from, or a placeholder when it was captured in memory. */
    public String sourceName() {
        return source == null ? "(in-memory checkpoint)" : source.toString();
    }

    /** The mark of {@code file} (compared as absolute, normalised paths), if the run wrote it. */
    public Optional<OutputMark> outputMark(Path file) {
        Path p = file.toAbsolutePath().normalize();
        return outputs.stream().filter(m -> m.file().equals(p)).findFirst();
    }

    /** The checkpointed state as new {@link Atoms} (positions and velocities included). */
    public Atoms atoms() {
        Cell cell = cellMatrixA == null ? null : Cell.of(cellMatrixA, pbc);
        return Atoms.of(atomicNumbers, massesAmu, positionsA, velocitiesAPerFs, cell);
    }

    /** Positions in Å, a copy. */
    public double[] positionsA() {
        return positionsA.clone();
    }

    /** Velocities in Å/fs, a copy. */
    public double[] velocitiesAPerFs() {
        return velocitiesAPerFs.clone();
    }

    /** Forces in eV/Å, a copy. */
    public double[] forcesEvPerA() {
        return forcesEvPerA.clone();
    }

    /**
     * Writes the checkpoint atomically: temporary file in the same folder, fsync, rename.
     */
    public void writeAtomically(Path file) throws IOException {
        AtomicFileWrite.write(file, encode());
    }

    private byte[] encode() throws IOException {
        ByteArrayOutputStream bytes = new ByteArrayOutputStream(64 + 80 * atomicNumbers.length + integratorState.length);
        DataOutputStream out = new DataOutputStream(bytes);
        out.writeLong(MAGIC);
        out.writeInt(VERSION);
        int n = atomicNumbers.length;
        out.writeInt(n);
        for (int z : atomicNumbers) {
            out.writeInt(z);
        }
        writeDoubles(out, massesAmu);
        out.writeBoolean(cellMatrixA != null);
        if (cellMatrixA != null) {
            for (double[] row : cellMatrixA) {
                writeDoubles(out, row);
            }
            for (boolean b : pbc) {
                out.writeBoolean(b);
            }
        }
        out.writeUTF(forceFieldName);
        out.writeUTF(forceFieldFingerprint);
        out.writeUTF(integratorDescription);
        out.writeUTF(platform);
        out.writeInt(degreesOfFreedom);
        out.writeBoolean(seed != null);
        out.writeLong(seed == null ? 0 : seed);
        out.writeLong(step);
        out.writeDouble(timeFs);
        out.writeDouble(potentialEnergyEv);
        writeDoubles(out, positionsA);
        writeDoubles(out, velocitiesAPerFs);
        writeDoubles(out, forcesEvPerA);
        out.writeBoolean(randomState != null);
        if (randomState != null) {
            out.writeInt(randomState.length);
            for (long x : randomState) {
                out.writeLong(x);
            }
        }
        out.writeInt(integratorState.length);
        out.write(integratorState);
        out.writeInt(outputs.size());
        for (OutputMark m : outputs) {
            out.writeUTF(m.file().toString());
            out.writeLong(m.bytes());
        }
        out.flush();
        CRC32 crc = new CRC32();
        crc.update(bytes.toByteArray());
        out.writeLong(crc.getValue());
        out.flush();
        return bytes.toByteArray();
    }

    private static void writeDoubles(DataOutputStream out, double[] a) throws IOException {
        for (double x : a) {
            out.writeDouble(x);
        }
    }

    /**
     * Reads a checkpoint.
     *
     * @throws IOException naming the file when it is missing, not a Molten checkpoint, of another
     *                     format version, truncated or corrupted (CRC mismatch)
     */
    public static Checkpoint read(Path file) throws IOException {
        if (!Files.isRegularFile(file)) {
            throw new IOException("checkpoint " + file + " does not exist or is not a file");
        }
        byte[] all = Files.readAllBytes(file);
        if (all.length < 20) {
            throw new IOException("checkpoint " + file + " is truncated (" + all.length + " bytes)");
        }
        try (DataInputStream in = new DataInputStream(new ByteArrayInputStream(all))) {
            if (in.readLong() != MAGIC) {
                throw new IOException(file + " is not a Molten checkpoint (wrong magic number)");
            }
            int version = in.readInt();
            if (version != VERSION && version != 2) {
                throw new IOException("checkpoint " + file + " has format version " + version
                        + "; this Molten reads versions 2 and " + VERSION);
            }
            CRC32 crc = new CRC32();
            crc.update(all, 0, all.length - 8);
            long stored = new DataInputStream(new ByteArrayInputStream(all, all.length - 8, 8)).readLong();
            if (stored != crc.getValue()) {
                throw new IOException(CheckpointDamage.describe(file, all, stored, crc.getValue()));
            }
            int n = in.readInt();
            if (n <= 0 || n > all.length / 8) {
                throw new IOException("checkpoint " + file + " is corrupted (atom count " + n + ")");
            }
            int[] z = new int[n];
            for (int i = 0; i < n; i++) {
                z[i] = in.readInt();
            }
            double[] masses = readDoubles(in, n);
            double[][] cell = null;
            boolean[] pbc = null;
            if (in.readBoolean()) {
                cell = new double[3][];
                for (int i = 0; i < 3; i++) {
                    cell[i] = readDoubles(in, 3);
                }
                pbc = new boolean[] {in.readBoolean(), in.readBoolean(), in.readBoolean()};
            }
            String ff = in.readUTF();
            String fingerprint = in.readUTF();
            String integrator = in.readUTF();
            String platform = version >= 3 ? in.readUTF() : "host";   // version 2 was written on the host
            int dof = in.readInt();
            boolean hasSeed = in.readBoolean();
            long seedValue = in.readLong();
            long step = in.readLong();
            double time = in.readDouble();
            double energy = in.readDouble();
            double[] r = readDoubles(in, 3 * n);
            double[] v = readDoubles(in, 3 * n);
            double[] f = readDoubles(in, 3 * n);
            long[] rng = null;
            if (in.readBoolean()) {
                rng = new long[count(in, all.length / 8, file, "random-number state")];
                for (int i = 0; i < rng.length; i++) {
                    rng[i] = in.readLong();
                }
            }
            byte[] state = new byte[count(in, all.length, file, "integrator state")];
            in.readFully(state);
            int marks = count(in, all.length, file, "output marks");
            List<OutputMark> outputs = new ArrayList<>(marks);
            for (int i = 0; i < marks; i++) {
                outputs.add(new OutputMark(Paths.get(in.readUTF()), in.readLong()));
            }
            return new Checkpoint(z, masses, cell, pbc, ff, fingerprint, integrator, platform, dof, hasSeed ? seedValue : null, step, time,
                    energy, r, v, f, rng, state, outputs, file);
        } catch (EOFException e) {
            throw new IOException("checkpoint " + file + " is truncated", e);
        } catch (java.io.UTFDataFormatException e) {
            // A name field (force field, integrator, platform, output file) that is not modified UTF-8: damaged bytes.
            throw new IOException("checkpoint " + file + " is corrupted (" + e.getMessage() + ")", e);
        }
    }

    /** A length field, refused unless within [0, max] (max: what the file's size allows), so that a damaged one allocates nothing. */
    private static int count(DataInputStream in, int max, Path file, String what) throws IOException {
        int n = in.readInt();
        if (n < 0 || n > max) {
            throw new IOException("checkpoint " + file + " is corrupted (" + what + " of length " + n + ")");
        }
        return n;
    }

    private static double[] readDoubles(DataInputStream in, int n) throws IOException {
        double[] a = new double[n];
        for (int i = 0; i < n; i++) {
            a[i] = in.readDouble();
        }
        return a;
    }

    /**
     * Refuses a system this checkpoint was not written for.
     *
     * @throws IllegalArgumentException naming the checkpoint and both systems when the atoms,
     *                                  masses or cell differ
     */
    public void requireSameSystem(Atoms atoms) {
        Optional<String> mismatch = mismatchWith(atoms);
        if (mismatch.isPresent()) {
            throw new IllegalArgumentException(mismatch.get());
        }
    }

    /**
     * Describes why this checkpoint cannot continue the given system, or returns empty.
     */
    Optional<String> mismatchWith(Atoms atoms) {
        int n = atoms.size();
        String here = sourceName();
        if (n != atomicNumbers.length || !Arrays.equals(atomicNumbers, atoms.atomicNumbers())) {
            Atoms mine = Atoms.of(atomicNumbers, new double[3 * atomicNumbers.length], null);
            return Optional.of("checkpoint " + here + " is for another system: " + atomicNumbers.length + " atoms "
                    + mine.formula() + ", this run has " + n + " atoms " + atoms.formula());
        }
        if (!Arrays.equals(massesAmu, atoms.massesAmu())) {
            return Optional.of("checkpoint " + here + " is for the same atoms with other masses (isotopes?)");
        }
        Cell cell = atoms.cellOrNull();
        boolean same = cell == null ? cellMatrixA == null
                : cellMatrixA != null && Arrays.deepEquals(cellMatrixA, cell.matrix()) && Arrays.equals(pbc, cell.pbc());
        if (!same) {
            return Optional.of("checkpoint " + here + " is for another cell: " + describeCell(cellMatrixA, pbc)
                    + ", this run has " + describeCell(cell == null ? null : cell.matrix(), cell == null ? null : cell.pbc()));
        }
        return Optional.empty();
    }

    private static String describeCell(double[][] m, boolean[] pbc) {
        return m == null ? "no cell" : Arrays.deepToString(m) + " A, pbc " + Arrays.toString(pbc);
    }
}
