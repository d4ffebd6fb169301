package org.molten.structures.io;

import java.io.IOException;
import java.io.Reader;
import java.io.Writer;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;

import org.molten.core.Atoms;
import org.molten.core.Cell;
import org.molten.core.Element;
import org.molten.core.Units;

/**
 * Extended XYZ in the dialect of ASE ({@code ase.io.extxyz}) and OVITO: the plain XYZ layout
 * whose comment line carries {@code key=value} pairs,
 *
 * <pre>
 * 3
 * Lattice="10.0 0.0 0.0 0.0 10.0 0.0 0.0 0.0 10.0" Properties=species:S:1:pos:R:3:forces:R:3 energy=-137.9 step=10 pbc="T T T"
 * O       1.00000000       2.00000000       3.00000000       0.01000000       0.00000000      -0.02000000
 * ...
 * </pre>
 *
 * <p><b>Units</b> (ASE's): positions and Lattice in Å, {@code energy} in eV, {@code forces} in
 * eV/Å, {@code masses} in amu. Velocities are written as ASE's {@code momenta:R:3} column, in
 * ASE's units: mass (amu) × velocity in Å per ASE time unit ({@link Units#ASE_TIME_UNIT_FS}
 * ≈ 10.1805 fs), so that {@code atoms.get_velocities()} of ASE returns them (multiply by
 * {@code ase.units.fs} for Å/fs). Files of older Molten versions hold a {@code velocities:R:3}
 * column in Å/fs instead; both are read. A frame holding both columns is read when they agree
 * within 1e-7 Å/fs (plus that fraction of the speed; the
 * momenta win, as in ASE) and refused, naming the line, when they disagree.
 *
 * <p><b>Reading.</b> Lattice holds the vectors a, b, c in that order; pbc defaults to "T T T"
 * with a Lattice and "F F F" without; Properties defaults to species:S:1:pos:R:3. Recognised
 * columns: species (or Z), pos, forces, momenta, velocities (or velo), masses; other columns are
 * skipped. The energy key becomes the frame's energy; every other key is kept as a string in the
 * frame's info (a key with an empty value is dropped). A comment line without '=' is a plain XYZ
 * comment (info "comment"), so plain XYZ files read too. Frames follow each other; blank lines between frames are skipped.
 *
 * <p><b>Writing.</b> Positions, forces and masses with 8 decimals, momenta with 10, the
 * Lattice and energy with every digit of the double. A masses column is written only when some
 * mass differs from the element's standard mass. pbc is always written, as ASE does.
 */
public final class ExtendedXyzFormat {
    static final int POSITION_DECIMALS = 8;
    static final int FORCE_DECIMALS = 8;
    static final int MOMENTUM_DECIMALS = 10;
    /**
     * How far (Å/fs, absolute and relative) a velocities column may differ from the momenta of
     * the same atom line: far above the 8 decimals writers keep, far below a real disagreement.
     */
    static final double BOTH_VELOCITY_TOLERANCE_A_PER_FS = 1e-7;
    static final int MASS_DECIMALS = 8;
    private static final int WIDTH = 16;

    private ExtendedXyzFormat() {}

    /** Every frame of the file (gzip-compressed or not). */
    public static List<Frame> readAll(Path path) throws IOException {
        try (FrameReader r = open(path)) {
            return r.readRemaining();
        }
    }

    /** Every frame of a text source; {@code sourceName} names it in error messages. */
    public static List<Frame> readAll(Reader reader, String sourceName) throws IOException {
        try (FrameReader r = open(reader, sourceName)) {
            return r.readRemaining();
        }
    }

    /** A frame-by-frame reader of the file (gzip-compressed or not). */
    public static FrameReader open(Path path) throws IOException {
        return new XyzFrameReader(Gzip.openReader(path), path.toString(), true);
    }

    /** A frame-by-frame reader of a text source; {@code sourceName} names it in error messages. */
    public static FrameReader open(Reader reader, String sourceName) {
        return new XyzFrameReader(reader, sourceName, true);
    }

    /** Writes the frames to the file (gzip-compressed when its name ends in ".gz"), replacing it. */
    public static void write(Path path, List<Frame> frames) throws IOException {
        try (ExtendedXyzWriter w = ExtendedXyzWriter.create(path)) {
            for (Frame f : frames) {
                w.write(f);
            }
        }
    }

    /** Writes one frame with the default {@link VelocityColumn#WHEN_NONZERO}. */
    public static void write(Writer out, Frame frame) throws IOException {
        StringBuilder sb = new StringBuilder();
        format(sb, frame, VelocityColumn.WHEN_NONZERO);
        out.write(sb.toString());
    }

    /** The text of one frame, ending with a newline. */
    public static String toString(Frame frame, VelocityColumn velocities) {
        StringBuilder sb = new StringBuilder();
        format(sb, frame, velocities);
        return sb.toString();
    }

    /**
     * Appends one frame.
     *
     * @throws IllegalArgumentException for a non-finite position or velocity (naming the atom), so
     *                                  that a file is never left with a frame that cannot be read back
     */
    static void format(StringBuilder sb, Frame frame, VelocityColumn velocityColumn) {
        Atoms a = frame.atoms();
        int n = a.size();
        double[] r = a.positions();
        double[] v = a.velocities();
        requireFinite(a, r, "position", "Å");
        boolean writeVelocities = switch (velocityColumn) {
            case ALWAYS -> true;
            case NEVER -> false;
            case WHEN_NONZERO -> anyNonZero(v);
        };
        if (writeVelocities) {
            requireFinite(a, v, "velocity", "Å/fs");
        }
        boolean writeMasses = false;
        for (int i = 0; i < n && !writeMasses; i++) {
            writeMasses = a.massAmu(i) != a.element(i).massAmu;
        }

        sb.append(n).append('\n');
        Cell cell = a.cellOrNull();
        if (cell != null) {
            sb.append("Lattice=\"");
            for (int i = 0; i < 3; i++) {
                double[] vec = cell.vector(i);
                for (int k = 0; k < 3; k++) {
                    sb.append(FixedDecimal.exact(vec[k])).append(i == 2 && k == 2 ? "\" " : " ");
                }
            }
        }
        sb.append("Properties=species:S:1:pos:R:3");
        if (writeMasses) {
            sb.append(":masses:R:1");
        }
        if (writeVelocities) {
            sb.append(":momenta:R:3");
        }
        if (frame.hasForces()) {
            sb.append(":forces:R:3");
        }
        if (frame.energyEv().isPresent()) {
            sb.append(" energy=").append(FixedDecimal.exact(frame.energyEv().getAsDouble()));
        }
        for (Map.Entry<String, String> e : frame.info().entrySet()) {
            sb.append(' ');
            KeyValueLine.append(sb, e.getKey(), e.getValue());
        }
        boolean[] pbc = cell != null ? cell.pbc() : new boolean[3];
        sb.append(" pbc=\"").append(pbc[0] ? 'T' : 'F').append(' ').append(pbc[1] ? 'T' : 'F').append(' ')
                .append(pbc[2] ? 'T' : 'F').append("\"\n");

        for (int i = 0; i < n; i++) {
            String sym = a.element(i).symbol();
            sb.append(sym);
            if (sym.length() == 1) {
                sb.append(' ');
            }
            for (int k = 0; k < 3; k++) {
                sb.append(' ');
                FixedDecimal.append(sb, r[3 * i + k], WIDTH, POSITION_DECIMALS);
            }
            if (writeMasses) {
                sb.append(' ');
                FixedDecimal.append(sb, a.massAmu(i), WIDTH, MASS_DECIMALS);
            }
            if (writeVelocities) {
                double toMomentum = a.massAmu(i) * Units.ASE_TIME_UNIT_FS; // Å/fs → amu·Å per ASE time unit
                for (int k = 0; k < 3; k++) {
                    sb.append(' ');
                    FixedDecimal.append(sb, v[3 * i + k] * toMomentum, WIDTH, MOMENTUM_DECIMALS);
                }
            }
            if (frame.hasForces()) {
                for (int k = 0; k < 3; k++) {
                    sb.append(' ');
                    FixedDecimal.append(sb, frame.force(i, k), WIDTH, FORCE_DECIMALS);
                }
            }
            sb.append('\n');
        }
    }

    private static boolean anyNonZero(double[] x) {
        for (double d : x) {
            if (d != 0) {
                return true;
            }
        }
        return false;
    }

    static void requireFinite(Atoms a, double[] x, String what, String unit) {
        for (int j = 0; j < x.length; j++) {
            if (!Double.isFinite(x[j])) {
                Element e = a.element(j / 3);
                throw new IllegalArgumentException("atom " + j / 3 + " (" + e + "): " + what + " " + "xyz".charAt(j % 3)
                        + " is " + x[j] + " " + unit + "; refusing to write a frame that cannot be read back");
            }
        }
    }
}
