package org.molten.structures.io;

import java.io.IOException;
import java.io.Reader;
import java.io.Writer;
import java.nio.file.Path;
import java.util.List;
import java.util.Locale;

import org.molten.core.Atoms;
import org.molten.core.Cell;
import org.molten.core.Element;

/**
 * Protein Data Bank coordinate files (wwPDB format 3.3), the subset MD needs.
 *
 * <p><b>Reading.</b> ATOM and HETATM records by their fixed columns: x, y, z in columns 31-54
 * (Å), the element from columns 77-78 or, when those are blank, from the atom name (columns
 * 13-16, element right-justified in 13-14). CRYST1 gives the cell from a, b, c (Å) and alpha, beta,
 * gamma (degrees) in the standard PDB orientation (a along x, b in the xy plane); the placeholder
 * cell 1 1 1 90 90 90 means no cell. Each MODEL...ENDMDL block is a frame; without MODEL records,
 * each block ending at END is one. Masses are standard, velocities zero; other records are skipped.
 *
 * <p><b>Writing.</b> One ATOM record per atom (residue MOL 1, chain A, names like " O1 ", "CL2 ",
 * coordinates with 3 decimals), CRYST1 when the cell has a periodic axis (positions are rotated
 * into the standard orientation when the cell is not already in it), MODEL/ENDMDL around each
 * frame when there are several, then END. Partial periodicity, which CRYST1 cannot express, goes
 * into {@code REMARK   1 MOLTEN PBC T T F}, which this reader honours. Energies, forces, velocities
 * and non-standard masses are not stored in PDB; use extended XYZ for those. Serial numbers wrap
 * after 99999; coordinates must lie within -999.999..9999.999 Å.
 */
public final class PdbFormat {
    private PdbFormat() {}

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
        return new PdbFrameReader(Gzip.openReader(path), path.toString());
    }

    /** A frame-by-frame reader of a text source. */
    public static FrameReader open(Reader reader, String sourceName) {
        return new PdbFrameReader(reader, sourceName);
    }

    /** Writes the frames (gzip-compressed when the name ends in ".gz"), replacing the file. */
    public static void write(Path path, List<Frame> frames) throws IOException {
        try (Writer w = Gzip.openWriter(path, false)) {
            write(w, frames);
        }
    }

    /**
     * Writes the frames, with MODEL/ENDMDL around each when there is more than one, then END.
     *
     * @throws IllegalArgumentException for a non-finite coordinate or one outside PDB's columns
     */
    public static void write(Writer out, List<Frame> frames) throws IOException {
        boolean models = frames.size() > 1;
        for (int f = 0; f < frames.size(); f++) {
            StringBuilder sb = new StringBuilder();
            Atoms a = frames.get(f).atoms();
            if (models) {
                sb.append(String.format(Locale.ROOT, "MODEL     %4d\n", (f + 1) % 10000));
            }
            double[] r = cellAndPositions(a, sb);
            int[] count = new int[Element.values().length + 1];
            for (int i = 0; i < a.size(); i++) {
                Element e = a.element(i);
                String name = atomName(e, ++count[e.atomicNumber]);
                for (int k = 0; k < 3; k++) {
                    double x = r[3 * i + k];
                    if (!(x > -999.9995 && x < 9999.9995)) {
                        throw new IllegalArgumentException("atom " + i + " (" + e + "): " + "xyz".charAt(k) + " = " + x
                                + " Å does not fit PDB's 8.3f columns (-999.999..9999.999 Å)");
                    }
                }
                sb.append(String.format(Locale.ROOT, "ATOM  %5d %-4s MOL A%4d    %8.3f%8.3f%8.3f%6.2f%6.2f          %2s  \n",
                        (i + 1) % 100000, name, 1, r[3 * i], r[3 * i + 1], r[3 * i + 2], 1.0, 0.0,
                        e.symbol().toUpperCase(Locale.ROOT)));
            }
            if (models) {
                sb.append("ENDMDL\n");
            }
            out.write(sb.toString());
        }
        out.write("END\n");
    }

    /** Appends CRYST1 (and the pbc remark) for a periodic cell; returns the positions to write, Å. */
    private static double[] cellAndPositions(Atoms a, StringBuilder sb) {
        double[] r = a.positions().clone();
        Cell cell = a.cellOrNull();
        if (cell == null || !cell.anyPeriodic()) {
            return r;
        }
        boolean[] pbc = cell.pbc();
        if (!(pbc[0] && pbc[1] && pbc[2])) {
            sb.append("REMARK   1 MOLTEN PBC ").append(pbc[0] ? 'T' : 'F').append(' ').append(pbc[1] ? 'T' : 'F')
                    .append(' ').append(pbc[2] ? 'T' : 'F').append('\n');
        }
        double[] p = parametersOf(cell);
        sb.append(String.format(Locale.ROOT, "CRYST1%9.3f%9.3f%9.3f%7.2f%7.2f%7.2f P 1           1\n",
                p[0], p[1], p[2], p[3], p[4], p[5]));
        return inStandardOrientation(r, cell);
    }

    /**
     * Positions (Å, a copy) in the orientation readers give a cell rebuilt from its lengths and angles (a along x,
     * b in the xy plane): the same fractional coordinates in {@link #cellFromParameters} of the cell's parameters.
     * A cell already in that orientation leaves them as they are. PDB's CRYST1 and DCD's unit cell both need it.
     */
    static double[] inStandardOrientation(double[] positionsA, Cell cell) {
        double[] r = positionsA.clone();
        double[][] h = cell.matrix();
        boolean standard = h[0][1] == 0 && h[0][2] == 0 && h[1][2] == 0 && h[0][0] > 0 && h[1][1] > 0 && h[2][2] > 0;
        if (!standard) {
            Cell std = cellFromParameters(parametersOf(cell), cell.pbc());
            double[] f = new double[3];
            double[] out = new double[3];
            for (int i = 0; i < r.length / 3; i++) {
                cell.toFractional(r[3 * i], r[3 * i + 1], r[3 * i + 2], f);
                std.toCartesian(f[0], f[1], f[2], out);
                System.arraycopy(out, 0, r, 3 * i, 3);
            }
        }
        return r;
    }

    private static String atomName(Element e, int serial) {
        String sym = e.symbol().toUpperCase(Locale.ROOT);
        String withNumber = sym + serial;
        if (sym.length() == 1) {
            return withNumber.length() <= 3 ? " " + withNumber : " " + sym;
        }
        return withNumber.length() <= 4 ? withNumber : sym;
    }

    /**
     * Cell parameters a, b, c (Å) and alpha (b^c), beta (a^c), gamma (a^b) in degrees.
     */
    public static double[] parametersOf(Cell cell) {
        double[] a = cell.vector(0), b = cell.vector(1), c = cell.vector(2);
        double la = norm(a), lb = norm(b), lc = norm(c);
        return new double[] {la, lb, lc, angle(b, c, lb, lc), angle(a, c, la, lc), angle(a, b, la, lb)};
    }

    /**
     * The cell of parameters a, b, c (Å), alpha, beta, gamma (degrees) in the standard PDB (and
     * ASE) orientation: a along x, b in the xy plane, c completing a right-handed set.
     *
     * @throws IllegalArgumentException for non-positive lengths or angles that close no cell
     */
    public static Cell cellFromParameters(double[] p, boolean[] pbc) {
        for (int i = 0; i < 3; i++) {
            if (!(p[i] > 0)) {
                throw new IllegalArgumentException("cell length " + "abc".charAt(i) + " = " + p[i] + " Å must be positive");
            }
        }
        String[] names = {"alpha", "beta", "gamma"};
        for (int i = 3; i < 6; i++) {
            if (!(p[i] > 0 && p[i] < 180)) {
                throw new IllegalArgumentException(names[i - 3] + " = " + p[i] + " degrees must lie strictly between 0 and 180");
            }
        }
        double ca = cosDeg(p[3]), cb = cosDeg(p[4]), cg = cosDeg(p[5]);
        double sg = sinDeg(p[5]);
        double cy = (ca - cb * cg) / sg;
        double cz2 = 1 - cb * cb - cy * cy;
        // cz2 * sg^2 is (volume / abc)^2; below 1e-12 the cell is flat to rounding
        if (!(cz2 * sg * sg > 1e-12)) {
            throw new IllegalArgumentException("angles alpha = " + p[3] + ", beta = " + p[4] + ", gamma = " + p[5]
                    + " degrees close no cell");
        }
        double[][] h = {
                {p[0], 0, 0},
                {p[1] * cg, p[1] * sg, 0},
                {p[2] * cb, p[2] * cy, p[2] * Math.sqrt(cz2)}};
        return Cell.of(h, pbc);
    }

    /** cos of an angle in degrees, exactly 0 at 90 (so that right-angled cells stay orthorhombic). */
    private static double cosDeg(double deg) {
        return deg == 90 ? 0.0 : Math.cos(Math.toRadians(deg));
    }

    private static double sinDeg(double deg) {
        return deg == 90 ? 1.0 : Math.sin(Math.toRadians(deg));
    }

    private static double norm(double[] v) {
        return Math.sqrt(v[0] * v[0] + v[1] * v[1] + v[2] * v[2]);
    }

    private static double angle(double[] u, double[] v, double lu, double lv) {
        double c = (u[0] * v[0] + u[1] * v[1] + u[2] * v[2]) / (lu * lv);
        return Math.toDegrees(Math.acos(Math.max(-1, Math.min(1, c))));
    }
}
