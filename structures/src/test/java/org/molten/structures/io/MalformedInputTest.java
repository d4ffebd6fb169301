package org.molten.structures.io;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.io.StringReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.zip.GZIPOutputStream;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Every refusal names the file, the line and the problem, quoting the offending token. */
class MalformedInputTest {
    @TempDir
    Path dir;

    private static final String GOOD_HEADER = "Lattice=\"10 0 0 0 10 0 0 0 10\" Properties=species:S:1:pos:R:3 pbc=\"T T T\"";

    /** Reads {@code text} as a file named {@code name}; expects a refusal at {@code line} containing every fragment. */
    private StructureFormatException refused(String name, String text, long line, String... fragments) throws IOException {
        Path p = dir.resolve(name);
        Files.writeString(p, text, StandardCharsets.UTF_8);
        StructureFormatException e = assertThrows(StructureFormatException.class, () -> StructureFiles.readAll(p));
        assertEquals(p.toString(), e.file());
        assertEquals(line, e.line(), e.getMessage());
        assertTrue(e.getMessage().startsWith(p + ":" + line + ": "), e.getMessage());
        for (String f : fragments) {
            assertTrue(e.problem().contains(f), "'" + f + "' missing from: " + e.getMessage());
        }
        return e;
    }

    @Test
    void truncatedXyz() throws IOException {
        refused("t1.xyz", "3\n" + GOOD_HEADER + "\nO 0 0 0\nH 1 0 0\n", 1,
                "truncated", "declares 3 atoms", "after 2 atom lines");
        refused("t2.xyz", "2\n", 1, "truncated", "ends after the atom count");
        // second frame cut short
        refused("t3.xyz", "1\nc\nAr 0 0 0\n2\nc\nAr 1 1 1\n", 4, "truncated", "declares 2 atoms", "after 1 atom line");
    }

    /**
     * Found by StructureReadersFuzzTest.xyz: a count of 336,336,333 atoms in a 20-byte file made the
     * reader allocate its arrays for every declared atom first (20 GB): an OutOfMemoryError, not a
     * refusal. The arrays now grow with the atom lines read.
     */
    @Test
    void anAtomCountFarBeyondTheFileIsTruncatedNotAnOutOfMemory() throws IOException {
        refused("huge.xyz", "700000000\nwater\nO 0 0 0\n", 1, "truncated", "declares 700000000 atoms", "after 1 atom line");
        refused("huge.extxyz", "700000000\n" + GOOD_HEADER + "\nO 0 0 0\n", 1, "truncated", "after 1 atom line");
    }

    /**
     * Found by StructureReadersFuzzTest.gzipExtendedXyz: damaged deflate data came out as
     * java.util.zip.ZipException, a damaged header likewise (or EOFException); both are now the
     * format's own error naming the file.
     */
    @Test
    void corruptGzipIsTheFormatsErrorNamingTheFile() throws IOException {
        byte[] damaged;   // the fuzzer's input: a gzip header, then deflate data that ends in an invalid code
        try (java.io.InputStream in = MalformedInputTest.class.getResourceAsStream(
                "StructureReadersFuzzTestInputs/gzipExtendedXyz/damaged-deflate-data")) {
            damaged = in.readAllBytes();
        }
        Path p = dir.resolve("damaged.xyz.gz");
        Files.write(p, damaged);
        StructureFormatException e = assertThrows(StructureFormatException.class, () -> StructureFiles.readAll(p));
        assertEquals(p.toString(), e.file());
        assertTrue(e.problem().contains("corrupt gzip"), e.getMessage());
        Path header = dir.resolve("header.xyz.gz");
        Files.write(header, new byte[] {0x1f, (byte) 0x8b, 8});
        StructureFormatException h = assertThrows(StructureFormatException.class, () -> StructureFiles.readAll(header));
        assertTrue(h.problem().contains("corrupt gzip header"), h.getMessage());
    }

    @Test
    void truncatedGzipFrameIsReported() throws IOException {
        Path p = dir.resolve("cut.xyz.gz");
        String text = "2\nc\nAr 0 0 0\n";
        try (GZIPOutputStream out = new GZIPOutputStream(Files.newOutputStream(p))) {
            out.write(text.getBytes(StandardCharsets.US_ASCII));
        }
        StructureFormatException e = assertThrows(StructureFormatException.class, () -> StructureFiles.readAll(p));
        assertEquals(1, e.line());
        assertTrue(e.problem().contains("truncated"), e.getMessage());
    }

    @Test
    void aCountTooSmallIsRefusedEvenWhenOnlyTheFirstFrameIsRead() throws IOException {
        // declares 2, has 3 atom lines, then the end of the file: reading the first frame (as
        // `molten run --structure` does) must not return the 2-atom fragment
        String plain = "2\nwater\nO 0 0 0\nH 0.96 0 0\nH -0.24 0.93 0\n";
        String extended = "2\n" + GOOD_HEADER + " energy=-5.0\nO 0 0 0\nH 0.96 0 0\n\nH -0.24 0.93 0\n";
        for (String[] c : new String[][] {{"plain.xyz", plain, "5"}, {"ext.extxyz", extended, "6"},
                {"plain.xyz.gz", plain, "5"}}) {
            Path p = dir.resolve(c[0]);
            if (c[0].endsWith(".gz")) {
                try (var out = new GZIPOutputStream(Files.newOutputStream(p))) {
                    out.write(c[1].getBytes(StandardCharsets.UTF_8));
                }
            } else {
                Files.writeString(p, c[1], StandardCharsets.UTF_8);
            }
            StructureFormatException e = assertThrows(StructureFormatException.class, () -> StructureFiles.read(p));
            assertEquals(p + ":" + c[2] + ": the frame at line 1 declares 2 atoms but another atom line follows: "
                    + "'H -0.24 0.93 0' (is the atom count on line 1 too small?)", e.getMessage());
        }
        // multi-frame: the second frame declares too few, found while reading the file, and the
        // last frame of a file is checked too (its surplus line is at the end of the file)
        refused("multi.xyz", "1\nc\nAr 0 0 0\n1\nc\nAr 1 1 1\nAr 2 2 2\n1\nc\nAr 3 3 3\n", 7,
                "the frame at line 4 declares 1 atom but another atom line follows: 'Ar 2 2 2'");
        refused("last.xyz", "1\nc\nAr 0 0 0\n1\nc\nAr 1 1 1\nAr 2 2 2\n", 7, "the frame at line 4 declares 1 atom");
        // a stray non-atom line after a frame is refused as well
        refused("stray.xyz", "1\nc\nAr 0 0 0\nthe end\n", 4,
                "expected the next frame's atom count or the end of the file after the 1 atom of the frame at line 1, "
                        + "found 'the end'");
        // well-formed multi-frame files, blank lines between frames, still read
        assertEquals(2, XyzFormat.readAll(new StringReader("1\nc\nAr 0 0 0\n\n1\nc\nAr 1 1 1\n\n"), "ok").size());
        assertEquals(18, StructureFiles.read(writeTwoFrames()).atomicNumbers()[0]);
    }

    private Path writeTwoFrames() throws IOException {
        Path p = dir.resolve("two.xyz");
        Files.writeString(p, "1\nc\nAr 0 0 0\n2\nc\nAr 1 1 1\nAr 2 2 2\n", StandardCharsets.UTF_8);
        return p;
    }

    @Test
    void wrongAtomCount() throws IOException {
        // count too small: the surplus atom line stands where the next count should be
        refused("small.xyz", "1\nc\nO 0 0 0\nH 1 0 0\n", 4, "the frame at line 1 declares 1 atom but another atom "
                + "line follows: 'H 1 0 0'", "atom count on line 1 too small");
        // count too large: the next frame's count line is read as an atom
        refused("large.xyz", "3\nc\nO 0 0 0\nH 1 0 0\n3\nc\nO 0 0 0\nH 1 0 0\nH 0 1 0\n", 5,
                "atom 3 of 3", "found 1: '3'", "atom count 3 on line 1 too large");
        refused("count.xyz", "three\nc\n", 1, "expected the atom count", "'three'");
        refused("neg.xyz", "-1\nc\n", 1, "expected the atom count", "'-1'");
    }

    @Test
    void nonNumericField() throws IOException {
        refused("nn.xyz", "2\nc\nO 0 0 0\nH 1.0 0.12.3 0\n", 4, "non-numeric y coordinate '0.12.3'");
        refused("nn2.extxyz", "1\nProperties=species:S:1:pos:R:3:forces:R:3\nO 0 0 0 0.1 abc 0\n", 3,
                "non-numeric force y 'abc'");
        refused("nn3.xyz", "1\nenergy=high\nO 0 0 0\n", 2, "non-numeric energy 'high'");
        refused("nn4.pdb", "ATOM      1  O   HOH A   1       0.000   1.x00   0.000  1.00  0.00           O\n", 1,
                "non-numeric y coordinate (columns 39-46) '1.x00'");
        refused("nn5.xyz", "1\nc\nO 0 0 1.0f\n", 3, "non-numeric z coordinate '1.0f'");
    }

    @Test
    void unknownElement() throws IOException {
        refused("el.xyz", "2\nc\nO 0 0 0\nXx 1 0 0\n", 4, "unknown element symbol 'Xx'");
        refused("el2.xyz", "1\nc\n99 0 0 0\n", 3, "unknown element", "'99'");
        refused("el3.pdb", "REMARK hello\nATOM      1  O   HOH A   1       0.000   0.000   0.000  1.00  0.00           Q\n", 2,
                "unknown element symbol 'Q' in columns 77-78");
        refused("el4.pdb", "HETATM    1 1234 HOH A   1       0.000   0.000   0.000\n", 1, "no element", "'1234'");
    }

    @Test
    void nonFiniteCoordinate() throws IOException {
        refused("nan.xyz", "2\nc\nO 0 0 0\nH NaN 0 0\n", 4, "x coordinate 'NaN' is not a finite number");
        refused("inf.xyz", "1\nc\nO 0 -inf 0\n", 3, "y coordinate '-inf' is not a finite number");
        refused("inf2.xyz", "1\nc\nO 0 0 Infinity\n", 3, "'Infinity' is not a finite number");
        refused("big.xyz", "1\nc\nO 0 0 1e999\n", 3, "'1e999' overflows");
        refused("nan.pdb", "ATOM      1  O   HOH A   1         nan   0.000   0.000  1.00  0.00           O\n", 1,
                "'nan' is not a finite number");
    }

    @Test
    void badLattice() throws IOException {
        refused("l1.extxyz", "1\nLattice=\"10 0 0 0 10 0 0 0\" Properties=species:S:1:pos:R:3\nO 0 0 0\n", 2,
                "Lattice must hold 9 numbers", "found 8", "'10 0 0 0 10 0 0 0'");
        refused("l2.extxyz", "1\nLattice=\"10 0 0 0 ten 0 0 0 10\"\nO 0 0 0\n", 2, "non-numeric Lattice component 'ten'");
        refused("l3.extxyz", "1\nLattice=\"10 0 0 20 0 0 0 0 10\"\nO 0 0 0\n", 2, "bad Lattice", "degenerate");
        refused("l4.extxyz", "1\nLattice=\"10 0 0 0 10 0 0 0 10 Properties=species:S:1:pos:R:3\nO 0 0 0\n", 2,
                "unterminated quote \"");
        refused("l5.extxyz", "1\nProperties=species:S:1:pos:R:3 pbc=\"T T T\"\nO 0 0 0\n", 2,
                "declares periodic axes but there is no Lattice");
        refused("l6.extxyz", "1\nLattice=\"10 0 0 0 10 0 0 0 10\" pbc=\"T X T\"\nO 0 0 0\n", 2, "pbc flag 'X'");
        refused("c1.pdb", "CRYST1   10.000   10.000\nATOM      1  O   HOH A   1       0.000   0.000   0.000  1.00  0.00           O\n", 1,
                "CRYST1 record too short");
        refused("c2.pdb", "CRYST1   10.000   10.000   10.000  90.00  90.00 180.00 P 1           1\n", 1,
                "bad CRYST1 cell", "gamma = 180.0");
    }

    @Test
    void missingPropertiesColumn() throws IOException {
        refused("p1.extxyz", "1\nProperties=species:S:1:forces:R:3\nO 0 0 0\n", 2, "has no pos:R:3 column",
                "'species:S:1:forces:R:3'");
        refused("p2.extxyz", "1\nProperties=pos:R:3\n0 0 0\n", 2, "has no species:S:1 (or Z:I:1) column");
        refused("p3.extxyz", "1\nProperties=species:S:1:pos:R:2\nO 0 0\n", 2, "column pos:R:2 must be pos:R:3");
        refused("p4.extxyz", "1\nProperties=species:S:1:pos:R\nO 0 0 0\n", 2, "not a list of name:type:columns triples");
        refused("p5.extxyz", "1\nProperties=species:S:1:pos:R:3:forces:R:3\nO 0 0 0\n", 3,
                "expected 7 fields (species:S:1:pos:R:3:forces:R:3), found 4");
    }

    @Test
    void malformedPdbStructure() throws IOException {
        refused("m1.pdb", "MODEL        1\nATOM      1  O   HOH A   1       0.000   0.000   0.000  1.00  0.00           O\n", 1,
                "MODEL without ENDMDL");
        refused("m2.pdb", "ATOM      1  O   HOH A   1       0.000   0.000\n", 1, "too short", "columns 31-54");
        refused("m3.pdb", "ENDMDL\n", 1, "ENDMDL without MODEL");
    }

    @Test
    void readerSourceNameIsUsedForStreams() {
        StructureFormatException e = assertThrows(StructureFormatException.class,
                () -> ExtendedXyzFormat.readAll(new StringReader("1\nc\nO 0 0 zero\n"), "stdin"));
        assertEquals("stdin:3: non-numeric z coordinate 'zero'", e.getMessage());
    }

    @Test
    void emptyFileHasNoFrame() throws IOException {
        Path p = dir.resolve("empty.xyz");
        Files.writeString(p, "\n\n");
        assertEquals(0, StructureFiles.readAll(p).size());
        StructureFormatException e = assertThrows(StructureFormatException.class, () -> StructureFiles.read(p));
        assertTrue(e.getMessage().equals(p + ":1: no frame in the file"), e.getMessage());
    }
}
