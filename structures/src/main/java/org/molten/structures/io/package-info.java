/**
 * Structure and trajectory files: plain XYZ, extended XYZ as ASE and OVITO write it (cell, pbc,
 * energy in eV, forces in eV/Å, velocities in Å/fs, free-form info) and PDB (ATOM/HETATM, CRYST1,
 * MODEL), each optionally gzip-compressed. {@link org.molten.structures.io.StructureFiles} picks the
 * format from the file name; {@link org.molten.structures.io.Frame} is one frame;
 * {@link org.molten.structures.io.ExtendedXyzWriter} appends frames as a run goes and keeps them if
 * it crashes. Every reader refuses malformed input with a
 * {@link org.molten.structures.io.StructureFormatException} of the form {@code file:line: problem}.
 */
package org.molten.structures.io;
