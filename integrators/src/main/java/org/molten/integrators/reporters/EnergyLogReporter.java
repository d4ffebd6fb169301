package org.molten.integrators.reporters;

import java.io.BufferedWriter;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.Locale;
import java.util.Optional;
import org.molten.core.Checks;
import org.molten.core.dynamics.ConstraintSet;
import org.molten.integrators.OutputMark;
import org.molten.integrators.Reporter;
import org.molten.integrators.Simulation;

/**
 * Energy log as CSV with the columns of ASE's MDLogger: {@value #HEADER}. Time in ps, energies
 * in eV (8 decimals), temperature in K. Buffered; flushed before checkpoints, on blow-up, on
 * close, and at a report once {@link #FLUSH_AFTER_NS} of wall time have passed since the last flush, so that a
 * long run without checkpoints can be followed ({@code tail -f}) without a write per row (R replicas write R
 * logs). Only when the bytes reach the file changes, not what they are.
 *
 * <p>The first line is a comment ({@code #}) stating the temperature convention, written with the
 * first row (when the simulation's degrees of freedom are known): T = 2 Ekin / (dof k_B) with the
 * simulation's dof, 3N − 3 once the centre-of-mass momentum is removed (3N − 6 when rotation is
 * removed too), whereas ASE's MDLogger divides by 3N; T_ASE = T · dof / 3N. Read the file with
 * {@code pandas.read_csv(f, comment='#')} or {@code numpy.loadtxt(f, delimiter=',', skiprows=2)}.
 */
public final class EnergyLogReporter implements Reporter {
    /** The header line. */
    public static final String HEADER = "Time[ps],Etot[eV],Epot[eV],Ekin[eV],T[K]";

    private final Path file;
    private final int intervalSteps;
    /** Wall time (ns) after which a report also flushes: 1 s. */
    public static final long FLUSH_AFTER_NS = 1_000_000_000L;

    private final BufferedWriter out;
    private boolean headerPending;
    private long lastFlushNs = System.nanoTime();

    private EnergyLogReporter(Path file, int intervalSteps, boolean append) throws IOException {
        this.file = file.toAbsolutePath().normalize();
        this.intervalSteps = Checks.requirePositive(intervalSteps, "report interval (steps)");
        Path dir = this.file.getParent();
        if (dir != null) {
            Files.createDirectories(dir);
        }
        boolean hasContent = append && Files.exists(this.file) && Files.size(this.file) > 0;
        this.out = Files.newBufferedWriter(this.file, StandardCharsets.UTF_8, StandardOpenOption.CREATE,
                StandardOpenOption.WRITE, append ? StandardOpenOption.APPEND : StandardOpenOption.TRUNCATE_EXISTING);
        this.headerPending = !hasContent;
    }

    /**
     * The comment line before {@link #HEADER}: how T[K] counts degrees of freedom, for a system of
     * {@code atoms} atoms with {@code degreesOfFreedom} left.
     */
    public static String temperatureConvention(int atoms, int degreesOfFreedom) {
        return temperatureConvention(atoms, degreesOfFreedom, ConstraintSet.none());
    }

    /** The same, with the constraints held (their count is part of what dof removes). */
    public static String temperatureConvention(int atoms, int degreesOfFreedom, ConstraintSet constraints) {
        int removed = 3 * atoms - degreesOfFreedom;
        int motion = removed - constraints.count();
        String what = switch (motion) {
            case 0 -> "nothing removed";
            case 3 -> "centre-of-mass momentum removed";
            case 6 -> "centre-of-mass momentum and rotation removed";
            default -> motion + " constraints removed";
        };
        if (!constraints.isEmpty()) {
            what = (motion == 0 ? "" : what + ", ") + constraints.count() + " distance constraints (" + constraints.rule()
                    + ": " + constraints.pairCount() + " pairs, " + constraints.waterCount()
                    + " rigid waters x 3; lengths from the start structure)";
        }
        return "# T[K] = 2 Ekin / (dof kB) with dof = 3N - " + removed + " = " + degreesOfFreedom + " (N = " + atoms
                + " atoms, " + what + "); ASE's MDLogger uses 3N: T_ASE = T * " + degreesOfFreedom + "/" + 3 * atoms;
    }

    /** A new log (an existing file is replaced) written every {@code intervalSteps} steps; {@link UncheckedIOException} if it cannot be opened. */
    public static EnergyLogReporter create(Path file, int intervalSteps) {
        return open(file, intervalSteps, false);
    }

    /**
     * A log that continues {@code file} (after a restart, once the file was rewound to the
     * checkpoint's mark); a header is written only if the file is empty or missing.
     */
    public static EnergyLogReporter appending(Path file, int intervalSteps) {
        return open(file, intervalSteps, true);
    }

    private static EnergyLogReporter open(Path file, int intervalSteps, boolean append) {
        try {
            return new EnergyLogReporter(file, intervalSteps, append);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot open " + file + ": " + e.getMessage(), e);
        }
    }

    @Override
    public int intervalSteps() {
        return intervalSteps;
    }

    @Override
    public void report(Simulation sim) throws IOException {
        if (headerPending) {
            out.write(temperatureConvention(sim.atoms().size(), sim.degreesOfFreedom(), sim.constraintSet()));
            out.newLine();
            out.write(HEADER);
            out.newLine();
            headerPending = false;
        }
        double epot = sim.potentialEnergyEv();
        double ekin = sim.reportedKineticEnergyEv();
        out.write(String.format(Locale.ROOT, "%.6f,%.8f,%.8f,%.8f,%.3f", sim.timeFs() / 1000.0, epot + ekin, epot, ekin,
                sim.temperatureK()));
        out.newLine();
        if (System.nanoTime() - lastFlushNs >= FLUSH_AFTER_NS) {
            flush();
        }
    }

    @Override
    public void flush() throws IOException {
        out.flush();
        lastFlushNs = System.nanoTime();
    }

    @Override
    public Optional<OutputMark> outputMark() throws IOException {
        flush();
        return Optional.of(OutputMark.of(file));
    }

    @Override
    public void close() throws IOException {
        out.close();
    }

    @Override
    public Optional<Path> outputFile() {
        return Optional.of(file);
    }
}
