package org.molten.structures.io;

import java.io.IOException;
import java.io.Reader;
import java.util.Arrays;
import java.util.Locale;
import java.util.Map;

import org.molten.core.Atoms;
import org.molten.core.Cell;
import org.molten.core.Element;
import org.molten.core.Units;

/**
 * Reads XYZ frames: the atom count, a comment line, then one line per atom. In extended mode the
 * comment line is read as extended XYZ (Lattice, Properties, pbc, energy, other info as strings);
 * a comment without '=' is a plain comment in either mode and is kept as info {@code comment}.
 */
final class XyzFrameReader implements FrameReader {
    /** ASE keeps momenta in amu·Å/t with t = Å·sqrt(amu/eV); v[Å/fs] = p / (m · t[fs]). */
    private static final double ASE_VELOCITY_TO_A_PER_FS = 1.0 / Units.ASE_TIME_UNIT_FS;
    /** Atoms allocated before the first atom line is read; doubled as lines arrive, up to the declared count. */
    private static final int INITIAL_ATOMS = 1024;

    private final LineSource in;
    private final boolean extended;
    private long previousCountLine = -1;
    private int previousCount = -1;

    XyzFrameReader(Reader reader, String source, boolean extended) {
        this.in = new LineSource(reader, source);
        this.extended = extended;
    }

    @Override
    public Frame next() throws IOException {
        String countLine;
        do {
            countLine = in.next();
        } while (countLine != null && countLine.isBlank());
        if (countLine == null) {
            return null;
        }
        long countAt = in.lineNumber();
        String[] ct = Fields.split(countLine);
        if (ct.length != 1 || !ct[0].chars().allMatch(c -> c >= '0' && c <= '9')) {
            String hint = previousCount >= 0
                    ? " (does the frame at line " + previousCountLine + " declare too few atoms, " + previousCount + "?)"
                    : "";
            throw in.error("expected the atom count (a non-negative integer), found '" + countLine.strip() + "'" + hint);
        }
        int n = Fields.parseCount(ct[0], "the atom count", in, countAt);
        String comment = in.next();
        if (comment == null) {
            throw in.error(countAt, "truncated: the frame declares " + n + " atoms but the file ends after the atom count");
        }
        long commentAt = in.lineNumber();

        Header h = extended ? Header.parse(comment, in, commentAt) : Header.plain(comment);
        PropertiesSpec.Column species = h.props.find("species");
        PropertiesSpec.Column numbers = species == null ? h.props.find("Z") : null;
        PropertiesSpec.Column pos = h.props.find("pos", "positions");
        if (species == null && numbers == null) {
            throw in.error(commentAt, "Properties '" + h.props.text + "' has no species:S:1 (or Z:I:1) column");
        }
        if (pos == null) {
            throw in.error(commentAt, "Properties '" + h.props.text + "' has no pos:R:3 column");
        }
        PropertiesSpec.Column forces = h.props.find("forces", "force");
        PropertiesSpec.Column velocities = h.props.find("velocities", "velo", "vel");
        PropertiesSpec.Column momenta = h.props.find("momenta");
        PropertiesSpec.Column masses = h.props.find("masses", "mass");
        requireShape(species != null ? species : numbers, species != null ? 'S' : 'I', 1, h, commentAt);
        requireShape(pos, 'R', 3, h, commentAt);
        requireShape(forces, 'R', 3, h, commentAt);
        requireShape(velocities, 'R', 3, h, commentAt);
        requireShape(momenta, 'R', 3, h, commentAt);
        requireShape(masses, 'R', 1, h, commentAt);

        // Arrays grow as atom lines arrive, up to the declared count: a count larger than the file (a typo, a
        // corrupted byte) ends in "truncated", not in gigabytes allocated before the first atom is read.
        int cap = Math.min(n, INITIAL_ATOMS);
        int[] z = new int[cap];
        double[] r = new double[3 * cap];
        double[] v = new double[3 * cap];
        double[] m = new double[cap];
        double[] f = forces != null ? new double[3 * cap] : null;
        double[] p = momenta != null ? new double[3 * cap] : null;
        for (int i = 0; i < n; i++) {
            if (i == cap) {
                cap = (int) Math.min(n, 2L * cap);
                z = Arrays.copyOf(z, cap);
                r = Arrays.copyOf(r, 3 * cap);
                v = Arrays.copyOf(v, 3 * cap);
                m = Arrays.copyOf(m, cap);
                f = f == null ? null : Arrays.copyOf(f, 3 * cap);
                p = p == null ? null : Arrays.copyOf(p, 3 * cap);
            }
            String line = in.next();
            if (line == null) {
                throw in.error(countAt, "truncated: the frame declares " + n + " atoms but the file ends after "
                        + i + (i == 1 ? " atom line" : " atom lines"));
            }
            long at = in.lineNumber();
            String[] t = Fields.split(line);
            if (t.length < h.props.totalColumns) {
                String hint = t.length <= 1 ? " (is the atom count " + n + " on line " + countAt + " too large?)" : "";
                throw in.error("atom " + (i + 1) + " of " + n + ": expected " + h.props.totalColumns + " fields ("
                        + h.props.text + "), found " + t.length + ": '" + line.strip() + "'" + hint);
            }
            PropertiesSpec.Column zc = species != null ? species : numbers;
            z[i] = Fields.element(t[zc.first()], in, at);
            for (int k = 0; k < 3; k++) {
                r[3 * i + k] = Fields.parseFinite(t[pos.first() + k], "xyz".charAt(k) + " coordinate", in, at);
            }
            m[i] = masses != null
                    ? Fields.parseFinite(t[masses.first()], "mass", in, at)
                    : Element.ofAtomicNumber(z[i]).massAmu;
            if (!(m[i] > 0)) {
                throw in.error(at, "mass '" + t[masses.first()] + "' amu must be positive");
            }
            for (int k = 0; k < 3; k++) {
                if (forces != null) {
                    f[3 * i + k] = Fields.parseFinite(t[forces.first() + k], "force " + "xyz".charAt(k), in, at);
                }
                if (velocities != null) {
                    v[3 * i + k] = Fields.parseFinite(t[velocities.first() + k], "velocity " + "xyz".charAt(k), in, at);
                }
                if (momenta != null) {
                    p[3 * i + k] = Fields.parseFinite(t[momenta.first() + k], "momentum " + "xyz".charAt(k), in, at);
                }
            }
            if (momenta != null) {
                for (int k = 0; k < 3; k++) {
                    double fromMomentum = p[3 * i + k] / m[i] * ASE_VELOCITY_TO_A_PER_FS;
                    if (velocities != null && !agree(v[3 * i + k], fromMomentum)) {
                        throw in.error(at, "atom " + (i + 1) + ": the velocities column says " + "xyz".charAt(k) + " = "
                                + v[3 * i + k] + " Å/fs but the momenta column gives " + fromMomentum
                                + " Å/fs (ASE units, mass " + m[i] + " amu); the file holds two different velocities");
                    }
                    v[3 * i + k] = fromMomentum; // the momenta win when both agree, as in ASE
                }
            }
        }
        requireFrameEnds(n, countAt, h.props.totalColumns);
        Atoms atoms;
        try {
            atoms = Atoms.of(z, m, r, v, h.cell);
        } catch (IllegalArgumentException e) {
            throw in.error(countAt, e.getMessage());
        }
        Frame frame = Frame.of(atoms);
        if (h.energy != null) {
            frame = frame.withEnergyEv(h.energy);
        }
        if (f != null) {
            frame = frame.withForcesEvPerA(f);
        }
        frame = frame.withInfo(h.info);
        previousCount = n;
        previousCountLine = countAt;
        return frame;
    }

    /**
     * After a frame's last atom line the file must end or hold the next frame's atom count: a
     * further atom line means the count declares too few atoms, and reading on would simulate a
     * fragment (ASE refuses such a file too). The line looked at is handed back for the next frame.
     */
    private void requireFrameEnds(int n, long countAt, int columns) throws IOException {
        String line;
        do {
            line = in.next();
        } while (line != null && line.isBlank());
        if (line == null) {
            return;
        }
        String[] t = Fields.split(line);
        boolean isCount = t.length == 1 && t[0].chars().allMatch(c -> c >= '0' && c <= '9');
        if (!isCount) {
            throw in.error(t.length >= Math.min(columns, 4)
                    ? "the frame at line " + countAt + " declares " + n + (n == 1 ? " atom" : " atoms")
                            + " but another atom line follows: '" + line.strip() + "' (is the atom count on line "
                            + countAt + " too small?)"
                    : "expected the next frame's atom count or the end of the file after the " + n
                            + (n == 1 ? " atom" : " atoms") + " of the frame at line " + countAt + ", found '"
                            + line.strip() + "'");
        }
        in.pushBack(line); // the next frame's count line
    }

    private static boolean agree(double a, double b) {
        double tol = ExtendedXyzFormat.BOTH_VELOCITY_TOLERANCE_A_PER_FS;
        return Math.abs(a - b) <= tol + tol * Math.max(Math.abs(a), Math.abs(b));
    }

    private void requireShape(PropertiesSpec.Column c, char type, int count, Header h, long line)
            throws StructureFormatException {
        if (c != null && (c.type() != type || c.count() != count)) {
            throw in.error(line, "Properties '" + h.props.text + "': column " + c.declaration() + " must be "
                    + c.name() + ":" + type + ":" + count);
        }
    }

    @Override
    public void close() throws IOException {
        in.close();
    }

    /** What the comment line says about the frame. */
    private static final class Header {
        PropertiesSpec props;
        Cell cell;
        Double energy;
        Map<String, String> info = new java.util.LinkedHashMap<>();

        static Header plain(String comment) {
            Header h = new Header();
            try {
                h.props = PropertiesSpec.parse(PropertiesSpec.DEFAULT);
            } catch (KeyValueLine.ParseException e) {
                throw new AssertionError(e);
            }
            String c = comment.strip();
            if (!c.isEmpty()) {
                h.info.put("comment", c);
            }
            return h;
        }

        static Header parse(String comment, LineSource in, long line) throws StructureFormatException {
            if (comment.indexOf('=') < 0) {
                return plain(comment);
            }
            Map<String, String> kv;
            try {
                kv = KeyValueLine.parse(comment);
            } catch (KeyValueLine.ParseException e) {
                String lower = comment.toLowerCase(Locale.ROOT);
                if (!lower.contains("properties=") && !lower.contains("lattice=")) {
                    return plain(comment); // a plain XYZ comment that happens to hold '='
                }
                throw in.error(line, e.getMessage());
            }
            Header h = new Header();
            String propsText = PropertiesSpec.DEFAULT;
            String lattice = null;
            String pbc = null;
            for (Map.Entry<String, String> e : kv.entrySet()) {
                String key = e.getKey();
                switch (key.toLowerCase(Locale.ROOT)) {
                    case "properties" -> propsText = e.getValue();
                    case "lattice" -> lattice = e.getValue();
                    case "pbc" -> pbc = e.getValue();
                    case "energy" -> h.energy = Fields.parseFinite(e.getValue(), "energy", in, line);
                    default -> {
                        if (!e.getValue().isEmpty()) { // key="" carries nothing (and ASE misreads it)
                            h.info.put(key, e.getValue());
                        }
                    }
                }
            }
            try {
                h.props = PropertiesSpec.parse(propsText);
            } catch (KeyValueLine.ParseException e) {
                throw in.error(line, e.getMessage());
            }
            boolean[] periodic = pbc != null ? parsePbc(pbc, in, line) : new boolean[] {lattice != null, lattice != null, lattice != null};
            if (lattice != null) {
                h.cell = parseLattice(lattice, periodic, in, line);
            } else if (periodic[0] || periodic[1] || periodic[2]) {
                throw in.error(line, "pbc=\"" + pbc + "\" declares periodic axes but there is no Lattice");
            }
            return h;
        }

        private static boolean[] parsePbc(String text, LineSource in, long line) throws StructureFormatException {
            String[] t = text.strip().split("[\\s,]+");
            boolean[] out = new boolean[3];
            if (t.length != 1 && t.length != 3) {
                throw in.error(line, "pbc '" + text + "' must be three flags like \"T T F\"");
            }
            for (int k = 0; k < 3; k++) {
                String s = t[t.length == 1 ? 0 : k].toLowerCase(Locale.ROOT);
                switch (s) {
                    case "t", "true", "1" -> out[k] = true;
                    case "f", "false", "0" -> out[k] = false;
                    default -> throw in.error(line, "pbc flag '" + t[t.length == 1 ? 0 : k] + "' in '" + text
                            + "' is not T or F");
                }
            }
            return out;
        }

        private static Cell parseLattice(String text, boolean[] pbc, LineSource in, long line) throws StructureFormatException {
            String[] t = text.strip().isEmpty() ? new String[0] : text.strip().split("[\\s,]+");
            if (t.length != 9) {
                throw in.error(line, "Lattice must hold 9 numbers (ax ay az bx by bz cx cy cz, Å), found "
                        + t.length + ": '" + text + "'");
            }
            double[][] hm = new double[3][3];
            for (int i = 0; i < 9; i++) {
                hm[i / 3][i % 3] = Fields.parseFinite(t[i], "Lattice component", in, line);
            }
            try {
                return Cell.of(hm, pbc);
            } catch (IllegalArgumentException e) {
                throw in.error(line, "bad Lattice '" + text + "': " + e.getMessage());
            }
        }
    }
}
