package org.molten.structures.io;

import java.io.IOException;
import java.io.Reader;
import java.util.Locale;

import org.molten.core.Atoms;
import org.molten.core.Cell;
import org.molten.core.Element;

/**
 * Reads PDB frames: the ATOM/HETATM records of each MODEL...ENDMDL block, or of each block ending
 * at END, as one frame; the latest CRYST1 gives the cell. See {@link PdbFormat}.
 */
final class PdbFrameReader implements FrameReader {
    private final LineSource in;
    private Cell cell;                 // from the latest CRYST1, applies to the frames after it
    private double[] cellParameters;   // a, b, c (Å), alpha, beta, gamma (degrees)
    private boolean[] pbc = {true, true, true};
    private boolean ended;

    PdbFrameReader(Reader reader, String source) {
        this.in = new LineSource(reader, source);
    }

    @Override
    public Frame next() throws IOException {
        if (ended) {
            return null;
        }
        IntList z = new IntList();
        DoubleList r = new DoubleList();
        long firstAtomLine = -1;
        boolean inModel = false;
        long modelLine = -1;
        for (String line = in.next(); ; line = in.next()) {
            if (line == null) {
                if (inModel) {
                    throw in.error(modelLine, "truncated: MODEL without ENDMDL (the file ends after "
                            + z.size + " atoms of this model)");
                }
                ended = true;
                break;
            }
            String rec = record(line);
            switch (rec) {
                case "CRYST1" -> readCryst1(line);
                case "REMARK" -> readRemark(line);
                case "MODEL" -> {
                    if (inModel) {
                        throw in.error("MODEL inside a MODEL (missing ENDMDL)");
                    }
                    if (z.size > 0) {
                        in.pushBack(line); // atoms before the MODEL form a frame of their own
                        return frame(z, r, firstAtomLine);
                    }
                    inModel = true;
                    modelLine = in.lineNumber();
                }
                case "ATOM", "HETATM" -> {
                    if (firstAtomLine < 0) {
                        firstAtomLine = in.lineNumber();
                    }
                    readAtom(line, z, r);
                }
                case "ENDMDL" -> {
                    if (!inModel) {
                        throw in.error("ENDMDL without MODEL");
                    }
                    return frame(z, r, modelLine);
                }
                case "END" -> {
                    if (inModel) {
                        throw in.error(modelLine, "truncated: MODEL without ENDMDL before END");
                    }
                    if (z.size > 0) {
                        return frame(z, r, firstAtomLine);
                    }
                }
                default -> {
                    // HEADER, TITLE, TER, CONECT, ANISOU, MASTER, ...: not needed for MD
                }
            }
        }
        return z.size > 0 ? frame(z, r, firstAtomLine) : null;
    }

    private static String record(String line) {
        String head = line.length() >= 6 ? line.substring(0, 6) : line;
        return head.strip().toUpperCase(Locale.ROOT);
    }

    private Frame frame(IntList z, DoubleList r, long line) throws StructureFormatException {
        try {
            return Frame.of(Atoms.of(z.toArray(), r.toArray(), cell));
        } catch (IllegalArgumentException e) {
            throw in.error(line, e.getMessage());
        }
    }

    private void readAtom(String line, IntList z, DoubleList r) throws StructureFormatException {
        long at = in.lineNumber();
        if (line.length() < 54) {
            throw in.error("ATOM/HETATM record too short: coordinates need columns 31-54, the line has "
                    + line.length() + " characters");
        }
        for (int k = 0; k < 3; k++) {
            String token = line.substring(30 + 8 * k, 38 + 8 * k);
            if (token.isBlank()) {
                throw in.error("blank " + "xyz".charAt(k) + " coordinate in columns " + (31 + 8 * k) + "-" + (38 + 8 * k));
            }
            r.add(Fields.parseFinite(token.strip(), "xyz".charAt(k) + " coordinate (columns " + (31 + 8 * k) + "-"
                    + (38 + 8 * k) + ")", in, at));
        }
        String element = line.length() >= 78 ? line.substring(76, 78).strip() : line.length() > 76 ? line.substring(76).strip() : "";
        if (!element.isEmpty()) {
            try {
                z.add(Element.ofSymbol(element).atomicNumber);
            } catch (IllegalArgumentException e) {
                throw in.error("unknown element symbol '" + element + "' in columns 77-78");
            }
            return;
        }
        z.add(elementFromName(line.length() >= 16 ? line.substring(12, 16) : line.length() > 12 ? line.substring(12) : "", at));
    }

    /**
     * The element of a PDB atom name (columns 13-16) when columns 77-78 are blank: the symbol is
     * right-justified in columns 13-14, so " CA " is a carbon (alpha) and "CA  " calcium; a
     * digit or blank in column 13 ("1HB ", " HB2") means a one-letter element in column 14; a name
     * right-justified in 13-16 ("   C", "  CL", as ASE writes) gives its leading letters.
     */
    private int elementFromName(String name, long at) throws StructureFormatException {
        String padded = (name + "    ").substring(0, 4);
        char c13 = padded.charAt(0);
        char c14 = padded.charAt(1);
        if (Character.isLetter(c13)) {
            if (Character.isLetter(c14)) {
                try {
                    return Element.ofSymbol("" + c13 + c14).atomicNumber;
                } catch (IllegalArgumentException e) {
                    // "HB12": not a two-letter element, fall through to the first letter
                }
            }
            try {
                return Element.ofSymbol("" + c13).atomicNumber;
            } catch (IllegalArgumentException e) {
                throw in.error("unknown element symbol '" + c13 + "' from atom name '" + name.strip()
                        + "' (columns 77-78 are blank)");
            }
        }
        if (Character.isLetter(c14)) {
            try {
                return Element.ofSymbol("" + c14).atomicNumber;
            } catch (IllegalArgumentException e) {
                throw in.error("unknown element symbol '" + c14 + "' from atom name '" + name.strip()
                        + "' (columns 77-78 are blank)");
            }
        }
        // Writers that right-justify the whole name ("   C", ASE's style): the letters of the name.
        String letters = padded.strip().replaceAll("[^A-Za-z].*$", "");
        if (letters.length() >= 2) {
            try {
                return Element.ofSymbol(letters.substring(0, 2)).atomicNumber;
            } catch (IllegalArgumentException e) {
                // fall through to one letter
            }
        }
        if (!letters.isEmpty()) {
            try {
                return Element.ofSymbol(letters.substring(0, 1)).atomicNumber;
            } catch (IllegalArgumentException e) {
                throw in.error("unknown element symbol '" + letters.charAt(0) + "' from atom name '" + name.strip()
                        + "' (columns 77-78 are blank)");
            }
        }
        throw in.error(at, "no element: columns 77-78 are blank and atom name '" + name + "' (columns 13-16) holds no letter");
    }

    private void readCryst1(String line) throws StructureFormatException {
        long at = in.lineNumber();
        if (line.length() < 54) {
            throw in.error("CRYST1 record too short: a, b, c, alpha, beta, gamma need columns 7-54, the line has "
                    + line.length() + " characters");
        }
        int[][] cols = {{6, 15}, {15, 24}, {24, 33}, {33, 40}, {40, 47}, {47, 54}};
        String[] names = {"a", "b", "c", "alpha", "beta", "gamma"};
        double[] p = new double[6];
        for (int i = 0; i < 6; i++) {
            String token = line.substring(cols[i][0], cols[i][1]).strip();
            p[i] = Fields.parseFinite(token, "CRYST1 " + names[i] + " (columns " + (cols[i][0] + 1) + "-" + cols[i][1] + ")", in, at);
        }
        if (p[0] == 1 && p[1] == 1 && p[2] == 1 && p[3] == 90 && p[4] == 90 && p[5] == 90) {
            cell = null; // the PDB placeholder for "no unit cell" (NMR, models)
            cellParameters = null;
            return;
        }
        try {
            cellParameters = p;
            cell = PdbFormat.cellFromParameters(p, pbc);
        } catch (IllegalArgumentException e) {
            throw in.error("bad CRYST1 cell: " + e.getMessage());
        }
    }

    /** {@code REMARK   1 MOLTEN PBC T T F}: partial periodicity, which CRYST1 cannot say. */
    private void readRemark(String line) throws StructureFormatException {
        String[] t = Fields.split(line);
        if (t.length == 7 && t[2].equalsIgnoreCase("MOLTEN") && t[3].equalsIgnoreCase("PBC")) {
            boolean[] flags = new boolean[3];
            for (int k = 0; k < 3; k++) {
                String s = t[4 + k].toUpperCase(Locale.ROOT);
                if (!s.equals("T") && !s.equals("F")) {
                    throw in.error("REMARK MOLTEN PBC flag '" + t[4 + k] + "' is not T or F");
                }
                flags[k] = s.equals("T");
            }
            pbc = flags;
            if (cellParameters != null) {
                cell = PdbFormat.cellFromParameters(cellParameters, pbc);
            }
        }
    }

    @Override
    public void close() throws IOException {
        in.close();
    }

    /** Growable primitive lists (a frame can hold 10⁵ atoms). */
    private static final class IntList {
        int[] a = new int[64];
        int size;

        void add(int x) {
            if (size == a.length) {
                a = java.util.Arrays.copyOf(a, 2 * size);
            }
            a[size++] = x;
        }

        int[] toArray() {
            return java.util.Arrays.copyOf(a, size);
        }
    }

    private static final class DoubleList {
        double[] a = new double[192];
        int size;

        void add(double x) {
            if (size == a.length) {
                a = java.util.Arrays.copyOf(a, 2 * size);
            }
            a[size++] = x;
        }

        double[] toArray() {
            return java.util.Arrays.copyOf(a, size);
        }
    }
}
