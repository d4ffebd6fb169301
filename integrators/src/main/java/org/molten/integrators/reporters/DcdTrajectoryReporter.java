package org.molten.integrators.reporters;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import org.molten.core.Atoms;
import org.molten.core.Cell;
import org.molten.core.Checks;
import org.molten.integrators.OutputMark;
import org.molten.integrators.Reporter;
import org.molten.integrators.Simulation;
import org.molten.structures.io.DcdWriter;
import org.molten.structures.io.Frame;
import org.molten.structures.io.PdbFormat;

/**
 * A DCD trajectory (OpenMM's {@code DCDReporter} layout, {@link DcdWriter}) of positions (Å, float32) and, for a
 * periodic system, the unit cell, every {@code intervalSteps} steps; with the topology the DCD lacks written
 * beside it as PDB ({@code traj.dcd} → {@code traj.pdb}: elements, atom order, the starting positions and cell),
 * which MDAnalysis ({@code Universe("traj.pdb", "traj.dcd")}), mdtraj ({@code load_dcd(..., top=...)}) and VMD
 * take as the topology. Velocities, forces and energies are not in DCD; the extended-XYZ trajectory has them.
 *
 * <p>A restarted run continues the same DCD from the checkpoint's mark: the header keeps its first step and
 * interval, its frame count follows the frames kept, so frame times continue.
 */
public final class DcdTrajectoryReporter implements Reporter {
    private final Path file;
    private final int intervalSteps;
    private final DcdWriter writer;

    private DcdTrajectoryReporter(Path file, int intervalSteps, DcdWriter writer) {
        this.file = file;
        this.intervalSteps = intervalSteps;
        this.writer = writer;
    }

    /** True for a file name ending in {@code .dcd} (any case). */
    public static boolean isDcd(Path file) {
        return file.getFileName().toString().toLowerCase(Locale.ROOT).endsWith(".dcd");
    }

    /** The topology PDB written beside {@code dcd}: the same name with {@code .pdb} for {@code .dcd}. */
    public static Path topologyFile(Path dcd) {
        String name = dcd.getFileName().toString();
        return dcd.resolveSibling(name.substring(0, name.length() - ".dcd".length()) + ".pdb");
    }

    /**
     * A new DCD (an existing one is replaced) whose first frame will be step {@code firstStep}, and its topology PDB
     * from {@code start}.
     *
     * @param timestepFs the integrator's timestep in fs (the header's, for frame times)
     * @throws UncheckedIOException naming the file when either cannot be written
     */
    public static DcdTrajectoryReporter create(Path file, int intervalSteps, Atoms start, double timestepFs,
                                               long firstStep) {
        Checks.requirePositive(intervalSteps, "trajectory interval (steps)");
        Path p = file.toAbsolutePath().normalize();
        try {
            Files.createDirectories(p.getParent());
            PdbFormat.write(topologyFile(p), List.of(Frame.of(start)));
            return new DcdTrajectoryReporter(p, intervalSteps, DcdWriter.create(p, start.size(), periodic(start),
                    firstStep, intervalSteps, timestepFs, "Molten trajectory: positions in Angstrom"));
        } catch (IOException e) {
            throw new UncheckedIOException("cannot open " + file + ": " + e.getMessage(), e);
        }
    }

    /**
     * Continues {@code file} after a restart (once rewound to the checkpoint's mark); the topology PDB is written
     * again only if it is missing.
     *
     * @throws UncheckedIOException naming the file when it does not describe the same atoms, cell flag and interval
     */
    public static DcdTrajectoryReporter appending(Path file, int intervalSteps, Atoms start) {
        Checks.requirePositive(intervalSteps, "trajectory interval (steps)");
        Path p = file.toAbsolutePath().normalize();
        try {
            if (!Files.exists(topologyFile(p))) {
                PdbFormat.write(topologyFile(p), List.of(Frame.of(start)));
            }
            return new DcdTrajectoryReporter(p, intervalSteps, DcdWriter.append(p, start.size(), periodic(start),
                    intervalSteps));
        } catch (IOException e) {
            throw new UncheckedIOException("cannot continue " + file + ": " + e.getMessage(), e);
        }
    }

    private static boolean periodic(Atoms atoms) {
        Cell c = atoms.cellOrNull();
        return c != null && c.anyPeriodic();
    }

    @Override
    public int intervalSteps() {
        return intervalSteps;
    }

    @Override
    public void report(Simulation sim) throws IOException {
        writer.write(sim.atoms().positions(), sim.atoms().cellOrNull());
    }

    @Override
    public Optional<OutputMark> outputMark() throws IOException {
        return Optional.of(OutputMark.of(file));   // each frame is on disk once written
    }

    @Override
    public void close() throws IOException {
        writer.close();
    }
}
