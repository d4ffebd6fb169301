package org.molten.integrators;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.function.Consumer;
import org.molten.core.Atoms;
import org.molten.core.ForceField;
import org.molten.core.Observables;
import org.molten.core.RandomStream;
import org.molten.core.Units;
import org.molten.core.dynamics.DeviceDynamics;
import org.molten.integrators.constraints.ConstraintFailureException;
import org.molten.integrators.constraints.ConstraintSolver;
import org.molten.integrators.constraints.Constraints;
import org.molten.integrators.constraints.HydrogenMassRepartitioning;

/**
 * A running simulation, as OpenMM's Context on a Platform: the {@link Atoms} (positions and
 * velocities), a {@link ForceField}, an {@link Integrator}, a {@link RandomStream}, the forces and
 * potential energy of the current positions, a step counter and the time in fs, and the
 * {@link Reporter}s called at their intervals. {@link #step(int)} advances it.
 *
 * <p><b>Platforms.</b> The builder's {@link Builder#platform(String)} chooses where the steps run:
 * <ul>
 *   <li>{@code reference} and {@code cpu}: the host integrators of this module, in double
 *       precision, one force evaluation per step and the {@link BlowUpGuard} after every step.
 *       Both names mean the same host integration; which student implementation evaluates the
 *       forces (reference or optimised) is decided by the {@link ForceField} given, not by the
 *       platform, so a checkpoint may continue from one to the other (the force field is checked
 *       by name and fingerprint) and does so bit for bit.</li>
 *   <li>a device platform ({@code cuda}), found through
 *       {@link org.molten.core.dynamics.DevicePlatform}: the whole step (forces, integrator,
 *       thermostat) runs there, described by {@link Integrator#dynamicsSpec()}. The host copy of
 *       the state is pulled ({@link DeviceDynamics#read}) only when a reporter, a checkpoint or the
 *       guard (every {@link Builder#guardIntervalSteps(int)} steps) needs it; between those points
 *       the device advances in chunks. When the platform is not installed, not available or
 *       cannot run this force field or integrator, one warning names the reason and the host
 *       runs instead.</li>
 *   <li>{@code auto} (default): {@code cuda} when it is available and supports the force field
 *       and integrator, else {@code cpu}, without a warning.</li>
 * </ul>
 *
 * <p><b>Velocities and degrees of freedom.</b> With {@link Builder#temperature(double)} the
 * velocities are drawn from Maxwell–Boltzmann at that temperature from the seed's stream,
 * rescaled to exactly that temperature, with the centre-of-mass motion removed when the
 * integrator keeps the momentum, and the rotation too for an isolated molecule whose integrator
 * conserves angular momentum. Without it the given velocities are kept. The degrees of freedom are
 * derived: 3N minus 3 when the integrator keeps the total momentum and it is zero, minus the
 * rotational constraints (3, 2 for a linear molecule) when the system is isolated, the integrator
 * conserves angular momentum and it is zero.
 *
 * <p><b>Constraints and masses.</b> {@link Builder#constraints(Constraints)} holds bond lengths
 * fixed (RATTLE, and SETTLE for rigid water; lengths from the starting positions), so that 2 fs
 * steps hold; {@link Builder#hydrogenMassAmu(double)} repartitions mass onto the hydrogens (then
 * the simulation runs on a copy of the atoms with the new masses: read them from {@link #atoms()}).
 * Every constrained distance is one degree of freedom less, in the temperature, the thermostats
 * and the energy log's header. A constraint that cannot be met stops the run as a blow-up.
 *
 * <p>Several systems advanced together, on host cores or in one device binding, are a
 * {@link ReplicaSet}; a simulation is one member of it or stands alone.
 *
 * <p>The simulation does not own the force field (close it yourself); {@link #close()} flushes
 * and closes the reporters (and frees a device binding it owns). I/O failures of reporters are
 * thrown as {@link UncheckedIOException}. Not thread-safe.
 */
public final class Simulation implements DynamicsState, AutoCloseable {
    /** Default number of steps between blow-up checks on a device platform (the host checks every step). */
    public static final int DEFAULT_DEVICE_GUARD_INTERVAL_STEPS = 100;
    /** The most any atom may move to put the start onto its constraints, Å; more means the lengths do not fit it. */
    static final double MAX_START_MOVE_A = 0.2;
    /** Marks the constraint lengths at the head of a checkpoint's integrator state ("CONS"). */
    private static final int CONSTRAINT_BLOCK = 0x434F4E53;

    private final Atoms atoms;
    private final ForceField forceField;
    private final Integrator integrator;
    private final RandomStream random;
    private final Long seed;
    private final int degreesOfFreedom;
    private ConstraintSolver constraints;   // replaced on restore by the checkpoint's lengths
    private final BlowUpGuard guard;
    private final int guardIntervalSteps;
    private final double[] forces;
    private final List<Reporter> reporters = new ArrayList<>();
    private final java.util.Set<Reporter> brokenReporters = java.util.Collections.newSetFromMap(new java.util.IdentityHashMap<>());
    private final String platformName;
    private final DeviceDynamics device;   // null on the host
    private final int replicaIndex;        // index in the device binding
    private final boolean ownsDevice;
    private double potentialEnergyEv;
    private long step;
    private boolean initialStateReported;
    private boolean stale;
    private boolean closed;                 // device path: the host copy is behind the device
    private java.util.OptionalDouble finalReportedKineticEnergyEv;   // device path, once its binding is freed
    private double finalBathEnergyEv;

    Simulation(Prepared p, String platformName, DeviceDynamics device, int replicaIndex, boolean ownsDevice) {
        this.atoms = p.atoms;
        this.forceField = p.forceField;
        this.integrator = p.integrator;
        this.random = p.random;
        this.seed = p.seed;
        this.degreesOfFreedom = p.degreesOfFreedom;
        this.constraints = p.constraints;
        this.guard = p.guard;
        this.guardIntervalSteps = p.guardIntervalSteps;
        this.platformName = platformName;
        this.device = device;
        this.replicaIndex = replicaIndex;
        this.ownsDevice = ownsDevice;
        this.forces = new double[3 * atoms.size()];
        if (device == null) {
            this.potentialEnergyEv = forceField.energyAndForces(atoms, forces);
        } else {
            this.stale = true;
            sync();
        }
        guard.check(0, 0.0, atoms, forces, potentialEnergyEv);
    }

    /** Starts a builder for {@code atoms} (used live, not copied) with a force field and an integrator. */
    public static Builder builder(Atoms atoms, ForceField forceField, Integrator integrator) {
        return new Builder(atoms, forceField, integrator);
    }

    /** Settings of a simulation; {@link #build()} draws the velocities and evaluates the initial forces. */
    public static final class Builder {
        final Atoms atoms;
        final ForceField forceField;
        final Integrator integrator;
        private RandomStream random;
        private Long seed;
        private double temperatureK = Double.NaN;
        private BlowUpGuard guard = BlowUpGuard.defaults();
        private int guardIntervalSteps = DEFAULT_DEVICE_GUARD_INTERVAL_STEPS;
        private String platform = PlatformBinding.AUTO;
        private Consumer<String> warnings = w -> System.err.println("molten: " + w);
        private Constraints constraintRule = Constraints.none();
        private double hydrogenMassAmu = Double.NaN;

        private Builder(Atoms atoms, ForceField forceField, Integrator integrator) {
            this.atoms = Objects.requireNonNull(atoms, "atoms");
            this.forceField = Objects.requireNonNull(forceField, "forceField");
            this.integrator = Objects.requireNonNull(integrator, "integrator");
        }

        /**
         * The seed of the simulation's random stream (initial velocities, thermostat noise;
         * recorded in checkpoints). A replica k of a {@link ReplicaSet} is usually given seed + k.
         */
        public Builder seed(long seed) {
            return random(new RandomStream(seed), seed);
        }

        /**
         * Advanced: a random stream created from {@code seed} and possibly already used (by an
         * earlier stage of the same run); the seed is recorded, the stream's state continues.
         */
        public Builder random(RandomStream stream, long seed) {
            this.random = Objects.requireNonNull(stream, "stream");
            this.seed = seed;
            return this;
        }

        /**
         * Draws the initial velocities from Maxwell–Boltzmann at {@code temperatureK} (K) with the
         * seed's stream (see the class comment); without this call the atoms' velocities are kept.
         */
        public Builder temperature(double temperatureK) {
            if (!(temperatureK >= 0) || Double.isInfinite(temperatureK)) {
                throw new IllegalArgumentException("temperature must be finite and >= 0 K: " + temperatureK);
            }
            this.temperatureK = temperatureK;
            return this;
        }

        /** The blow-up bounds (default {@link BlowUpGuard#defaults()}). */
        public Builder guard(BlowUpGuard guard) {
            this.guard = Objects.requireNonNull(guard, "guard");
            return this;
        }

        /**
         * Steps between blow-up checks on a device platform (default
         * {@value Simulation#DEFAULT_DEVICE_GUARD_INTERVAL_STEPS}; the device itself stops on non-finite
         * values at any step). The host checks every step whatever this is.
         */
        public Builder guardIntervalSteps(int steps) {
            if (steps < 1) {
                throw new IllegalArgumentException("guard interval must be at least 1 step: " + steps);
            }
            this.guardIntervalSteps = steps;
            return this;
        }

        /**
         * Where the steps run: {@code reference}, {@code cpu}, {@code cuda} (or another installed
         * device platform) or {@code auto} (default); see the class comment.
         */
        public Builder platform(String name) {
            this.platform = PlatformBinding.requireKnown(name);
            return this;
        }

        /**
         * Distances held fixed (default none): {@link Constraints#hBonds()}, {@link Constraints#allBonds()}
         * or given pairs, resolved against the starting positions (after the mass repartitioning) when
         * the simulation is built; given velocities are projected onto them.
         *
         * @throws IllegalArgumentException at {@link #build()}, naming the atoms, for pairs that are not
         *                                  bonded or lengths the start cannot meet
         */
        public Builder constraints(Constraints rule) {
            this.constraintRule = Objects.requireNonNull(rule, "constraints");
            return this;
        }

        /**
         * Hydrogen mass repartitioning: every hydrogen bonded to a heavier atom weighs
         * {@code massAmu} (amu), the difference taken from that atom (waters excepted); see
         * {@link HydrogenMassRepartitioning}. The simulation then works on a copy of the atoms.
         */
        public Builder hydrogenMassAmu(double massAmu) {
            if (!(massAmu > 0) || Double.isInfinite(massAmu)) {
                throw new IllegalArgumentException("hydrogen mass must be positive and finite, amu: " + massAmu);
            }
            this.hydrogenMassAmu = massAmu;
            return this;
        }

        /** Where the one warning of a platform fallback goes (default: standard error). */
        public Builder warnings(Consumer<String> sink) {
            this.warnings = Objects.requireNonNull(sink, "sink");
            return this;
        }

        String platform() {
            return platform;
        }

        Consumer<String> warnings() {
            return warnings;
        }

        /** Draws or keeps the velocities and derives the degrees of freedom; no force evaluation. */
        Prepared prepare() {
            boolean draw = !Double.isNaN(temperatureK);
            if (draw && random == null) {
                throw new IllegalArgumentException("drawing velocities at " + temperatureK + " K needs a seed: call seed(...)");
            }
            Atoms state = Double.isNaN(hydrogenMassAmu) ? atoms : HydrogenMassRepartitioning.apply(atoms, hydrogenMassAmu);
            ConstraintSolver solver = ConstraintSolver.of(constraintRule.resolve(state), state);
            solver.projectStart(state, MAX_START_MOVE_A);
            int removed = draw ? DegreesOfFreedom.draw(state, integrator, temperatureK, random, solver)
                    : DegreesOfFreedom.ofGivenVelocities(state, integrator, solver);
            int dof = Observables.degreesOfFreedom(state.size(), removed);
            return new Prepared(state, forceField, integrator, random, seed, dof, guard, guardIntervalSteps, solver);
        }

        /**
         * Builds the simulation: draws or keeps the velocities, binds it to its platform and
         * evaluates the forces of the initial positions.
         *
         * @throws IllegalArgumentException for a stochastic integrator without a seed, or a state the
         *                                  device platform refuses
         * @throws SimulationBlowUpException if the initial state already breaks the guard
         */
        public Simulation build() {
            Prepared p = prepare();
            PlatformBinding.Bound bound = PlatformBinding.bind(platform, List.of(p), warnings);
            try {
                return new Simulation(p, bound.platformName(), bound.device(), 0, bound.device() != null);
            } catch (RuntimeException e) {
                if (bound.device() != null) {
                    bound.device().close();
                }
                throw e;
            }
        }
    }

    /** A builder's settings after the velocities were drawn or kept and the degrees of freedom derived. */
    record Prepared(Atoms atoms, ForceField forceField, Integrator integrator, RandomStream random, Long seed,
                    int degreesOfFreedom, BlowUpGuard guard, int guardIntervalSteps, ConstraintSolver constraints) {
    }

    /** Attaches a reporter; it is first called for the initial state if the run has not started. */
    public Simulation addReporter(Reporter reporter) {
        reporters.add(Objects.requireNonNull(reporter, "reporter"));
        return this;
    }

    /** The attached reporters, unmodifiable. */
    public List<Reporter> reporters() {
        return List.copyOf(reporters);
    }

    /**
     * Advances {@code steps} steps, calling the reporters at their intervals. A fresh simulation
     * reports its initial state (step 0) first.
     *
     * @throws SimulationBlowUpException when the guard trips (or the device finds non-finite
     *                                   values); reporters are flushed first and the bad state
     *                                   is neither reported nor checkpointed
     * @throws UncheckedIOException      when a reporter cannot write
     */
    public void step(int steps) {
        if (device != null && !ownsDevice) {
            throw new IllegalStateException("this simulation is replica " + replicaIndex
                    + " of a replica set bound to " + platformName + ": advance the set, not one replica");
        }
        ReplicaStepping.advance(List.of(this), device, null, steps);
    }

    // ---- used by ReplicaStepping ----

    void reportInitialStateOnce() throws IOException {
        if (!initialStateReported) {
            initialStateReported = true;
            report(true);
        }
    }

    /** One host step with the guard after it. */
    void hostStep() {
        try {
            potentialEnergyEv = integrator.step(this);
        } catch (ConstraintFailureException e) {
            throw SimulationBlowUpException.constraintFailed(step + 1, (step + 1) * integrator.timestepFs(), atoms, e);
        }
        step++;
        guard.check(step, step * integrator.timestepFs(), atoms, forces, potentialEnergyEv);
    }

    /** The device advanced {@code steps}: the host copy is now behind. */
    void deviceAdvanced(int steps) {
        step += steps;
        stale = true;
    }

    /** Device path: pulls the state if a reporter or the guard needs it at this step, and checks it. */
    void pullIfDue() {
        boolean due = step % guardIntervalSteps == 0;
        for (Reporter r : reporters) {
            due |= step % r.intervalSteps() == 0;
        }
        if (due) {
            sync();
            guard.check(step, timeFs(), atoms, forces, potentialEnergyEv);
        }
    }

    /** The next step after {@code from} at which a reporter (or, on a device, the guard) acts. */
    long nextStop(long from) {
        long next = Long.MAX_VALUE;
        for (Reporter r : reporters) {
            next = Math.min(next, (from / r.intervalSteps() + 1) * r.intervalSteps());
        }
        if (device != null) {
            next = Math.min(next, (from / guardIntervalSteps + 1) * guardIntervalSteps);
        }
        return next;
    }

    void reportDue() throws IOException {
        report(false);
    }

    int replicaIndex() {
        return replicaIndex;
    }

    private void report(boolean all) throws IOException {
        for (int pass = 0; pass < 2; pass++) {
            for (Reporter r : reporters) {
                if (r.runsLast() == (pass == 1) && (all || step % r.intervalSteps() == 0)) {
                    try {
                        r.report(this);
                    } catch (IOException e) {
                        throw broken(r, e);
                    }
                    requireStillThere(r);
                }
            }
        }
    }

    /** Records {@code r} as unable to write (a rescue checkpoint leaves its file out) and names it. */
    private OutputWriteException broken(Reporter r, IOException e) {
        brokenReporters.add(r);
        return new OutputWriteException(r.outputFile().orElse(null), step, e);
    }

    /**
     * A file removed while a reporter appends to it (its folder deleted mid-run) takes every later write with it
     * without an error on POSIX systems: refused at the report after, so the run stops instead of losing its output.
     * Checkpoint writers (runs last) replace their file whole each time and are exempt.
     */
    private void requireStillThere(Reporter r) {
        if (r.runsLast() || r.outputFile().isEmpty()) {
            return;
        }
        java.nio.file.Path f = r.outputFile().get();
        if (!java.nio.file.Files.exists(f)) {
            throw broken(r, new java.nio.file.FileSystemException(f.toString(), null,
                    "the file (or its folder) was removed while the run wrote it"));
        }
    }

    /** Device path: copies the device state of this replica into the host atoms and forces. */
    /**
     * Before the device binding is freed: the final state, and what only the device knows of it (Langevin's reported
     * kinetic energy, the bath energy), kept on the host so that temperatureK() and conservedEnergyEv() still answer.
     */
    void pullFinalState() {
        if (device == null || finalReportedKineticEnergyEv != null) {
            return;
        }
        sync();
        finalBathEnergyEv = device.bathEnergyEv(replicaIndex);
        finalReportedKineticEnergyEv = device.reportedKineticEnergyEv(replicaIndex);
    }

    private void sync() {
        if (stale) {
            potentialEnergyEv = device.read(replicaIndex, atoms, forces);
            stale = false;
        }
    }

    /**
     * Flushes every reporter.
     *
     * @throws OutputWriteException naming the file when one cannot write
     */
    public void flushReporters() {
        for (Reporter r : reporters) {
            try {
                r.flush();
            } catch (IOException e) {
                throw broken(r, e);
            }
        }
    }

    void flushQuietly(Exception cause) {
        for (Reporter r : reporters) {
            try {
                r.flush();
            } catch (IOException | RuntimeException e) {
                cause.addSuppressed(e);
            }
        }
    }

    /**
     * The flushed output files of the reporters, for a checkpoint.
     *
     * @throws OutputWriteException naming the file that cannot be flushed
     */
    public List<OutputMark> outputMarks() {
        List<OutputMark> marks = new ArrayList<>();
        for (Reporter r : reporters) {
            try {
                r.flush();
                Optional<OutputMark> m = r.outputMark();
                m.ifPresent(marks::add);
            } catch (IOException e) {
                throw broken(r, e);
            }
        }
        return marks;
    }

    /**
     * A checkpoint of the current state for a run that must stop because an output cannot be written (a full disk,
     * a removed folder): as {@link #checkpoint()}, but it records only the outputs that can still be flushed and are
     * still there, so a restart continues those and needs new files (or freed space) for the others.
     */
    public Checkpoint rescueCheckpoint() {
        List<OutputMark> marks = new ArrayList<>();
        for (Reporter r : reporters) {
            if (brokenReporters.contains(r)) {
                continue;
            }
            try {
                r.flush();
                Optional<OutputMark> m = r.outputMark();
                if (m.isPresent() && java.nio.file.Files.exists(m.get().file())) {
                    marks.add(m.get());
                }
            } catch (IOException | RuntimeException e) {
                // this output is the broken one: the checkpoint does not vouch for it
            }
        }
        return checkpoint(marks);
    }

    /**
     * A checkpoint of the current state, recording the platform and where the reporters' files
     * stand. On a device the state is pulled first and the integrator state comes from the device
     * ({@link DeviceDynamics#integratorState}); the format is the same on every platform.
     */
    public Checkpoint checkpoint() {
        return checkpoint(outputMarks());
    }

    private Checkpoint checkpoint(List<OutputMark> marks) {
        sync();
        byte[] integratorState;
        ByteArrayOutputStream state = new ByteArrayOutputStream();
        try (DataOutputStream out = new DataOutputStream(state)) {
            writeConstraintLengths(out);
            if (device == null) {
                integrator.writeState(out);
            } else {
                out.write(device.integratorState(replicaIndex));
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        integratorState = state.toByteArray();
        return new Checkpoint(atoms.atomicNumbers(), atoms.massesAmu(), atoms.cellOrNull(), forceField.name(),
                forceField.parametersFingerprint(), dynamicsDescription(), PlatformBinding.checkpointKind(platformName),
                degreesOfFreedom, seed, step, timeFs(), potentialEnergyEv,
                atoms.positions().clone(), atoms.velocities().clone(), forces.clone(),
                random == null || device != null ? null : random.state(), integratorState, marks);
    }

    /**
     * Continues from a checkpoint: positions, velocities, forces, energy, step, random state and
     * the integrator's state variables are replaced by the checkpoint's, so the run continues
     * exactly as the one that wrote it would have. The initial-state report is not repeated.
     *
     * @throws IllegalArgumentException naming the checkpoint and both values when it belongs to
     *                                  another system (atoms, masses, cell), force field (name or
     *                                  parameters, e.g. another weight file), integrator
     *                                  (description), degrees of freedom or platform
     */
    public void restore(Checkpoint c) {
        c.requireSameSystem(atoms);
        requireSame(c, "platform", c.platform, PlatformBinding.checkpointKind(platformName),
                " (a run continues bit for bit only where it ran: restart it with the same platform)");
        requireSame(c, "force field", c.forceFieldName, forceField.name(), "");
        // the same name with other parameters (another weight file) would silently change the physics
        requireSame(c, "force-field parameter set", c.forceFieldFingerprint, forceField.parametersFingerprint(), "");
        requireSame(c, "integrator", c.integratorDescription, dynamicsDescription(),
                constraints.isEmpty() && !c.integratorDescription.contains("constraints(") ? ""
                        : " (a restart needs the same --constraints and tolerance as the run that wrote it)");
        requireSame(c, "degrees of freedom", Integer.toString(c.degreesOfFreedom), Integer.toString(degreesOfFreedom), "");
        byte[] integratorState = readConstraintLengths(c);
        if (device != null) {
            Atoms state = c.atoms();
            device.restore(replicaIndex, state, c.forcesEvPerA, c.potentialEnergyEv, integratorState, c.step);
        } else {
            if ((c.randomState == null) != (random == null)) {
                throw new IllegalArgumentException("checkpoint " + c.sourceName() + (c.randomState == null
                        ? " has no random stream state but this run has a seed" : " has a random stream state but this run has no seed"));
            }
            try (DataInputStream in = new DataInputStream(new ByteArrayInputStream(integratorState))) {
                integrator.readState(in);
                if (in.available() != 0) {
                    throw new IllegalArgumentException("checkpoint " + c.sourceName() + ": " + in.available()
                            + " bytes of integrator state left unread");
                }
            } catch (IOException e) {
                throw new IllegalArgumentException("checkpoint " + c.sourceName() + ": integrator state unreadable: "
                        + e.getMessage(), e);
            }
            if (random != null) {
                random.restore(c.randomState);
            }
        }
        System.arraycopy(c.positionsA, 0, atoms.positions(), 0, forces.length);
        System.arraycopy(c.velocitiesAPerFs, 0, atoms.velocities(), 0, forces.length);
        System.arraycopy(c.forcesEvPerA, 0, forces, 0, forces.length);
        potentialEnergyEv = c.potentialEnergyEv;
        step = c.step;
        stale = false;
        initialStateReported = true;
    }

    /** The integrator's description, with the constraints when there are any: what a restart must match. */
    String dynamicsDescription() {
        return constraints.isEmpty() ? integrator.description()
                : integrator.description() + " + " + constraints.set().description();
    }

    /** With constraints: their lengths (Å) ahead of the integrator state, so a restart holds the same geometry. */
    private void writeConstraintLengths(DataOutputStream out) throws IOException {
        if (constraints.isEmpty()) {
            return;
        }
        org.molten.core.dynamics.ConstraintSet set = constraints.set();
        out.writeInt(CONSTRAINT_BLOCK);
        out.writeInt(set.pairCount());
        out.writeInt(set.waterCount());
        for (double d : set.lengthsA()) {
            out.writeDouble(d);
        }
        for (int w = 0; w < set.waterCount(); w++) {
            out.writeDouble(set.waterOhA(w));
            out.writeDouble(set.waterHhA(w));
        }
    }

    /** Takes the constraint lengths off a checkpoint's integrator state (into this run's solver) and returns the rest. */
    private byte[] readConstraintLengths(Checkpoint c) {
        byte[] all = c.integratorState;
        if (constraints.isEmpty()) {
            return all;
        }
        org.molten.core.dynamics.ConstraintSet set = constraints.set();
        try (DataInputStream in = new DataInputStream(new ByteArrayInputStream(all))) {
            if (in.readInt() != CONSTRAINT_BLOCK || in.readInt() != set.pairCount() || in.readInt() != set.waterCount()) {
                throw new IllegalArgumentException("checkpoint " + c.sourceName() + " does not hold the lengths of "
                        + set.description());
            }
            double[] pairs = new double[set.pairCount()];
            double[] oh = new double[set.waterCount()];
            double[] hh = new double[set.waterCount()];
            for (int k = 0; k < pairs.length; k++) {
                pairs[k] = in.readDouble();
            }
            for (int w = 0; w < oh.length; w++) {
                oh[w] = in.readDouble();
                hh[w] = in.readDouble();
            }
            constraints = ConstraintSolver.of(set.withLengths(pairs, oh, hh), atoms);
            return in.readAllBytes();
        } catch (IOException e) {
            throw new IllegalArgumentException("checkpoint " + c.sourceName() + ": constraint lengths unreadable: "
                    + e.getMessage(), e);
        }
    }

    private static void requireSame(Checkpoint c, String what, String theirs, String ours, String hint) {
        if (!theirs.equals(ours)) {
            throw new IllegalArgumentException("checkpoint " + c.sourceName() + " was written for another " + what
                    + ": '" + theirs + "', this run uses '" + ours + "'" + hint);
        }
    }

    /** The atoms (on a device, pulled from it first). */
    @Override
    public Atoms atoms() {
        sync();
        return atoms;
    }

    /** Forces at the current positions, eV/Å (on a device, pulled from it first). */
    @Override
    public double[] forces() {
        sync();
        return forces;
    }

    @Override
    public int degreesOfFreedom() {
        return degreesOfFreedom;
    }

    @Override
    public ConstraintSolver constraints() {
        return constraints;
    }

    /** The constraints held (empty when none), with their lengths in Å. */
    public org.molten.core.dynamics.ConstraintSet constraintSet() {
        return constraints.set();
    }

    @Override
    public RandomStream random() {
        return random;
    }

    /** Evaluates the force field at the current positions (called by the integrator once per step). */
    @Override
    public double computeForces() {
        potentialEnergyEv = forceField.energyAndForces(atoms, forces);
        return potentialEnergyEv;
    }

    /** The force field. */
    public ForceField forceField() {
        return forceField;
    }

    /** The integrator. */
    public Integrator integrator() {
        return integrator;
    }

    /** The platform the steps run on: "reference", "cpu" or a device platform's name ("cuda"). */
    public String platformName() {
        return platformName;
    }

    /** The seed, if the simulation has a random stream. */
    public Optional<Long> seed() {
        return Optional.ofNullable(seed);
    }

    /** Steps taken since the start of the run (continued across restarts). */
    public long stepCount() {
        return step;
    }

    /** Simulated time in fs: steps × timestep. */
    public double timeFs() {
        return step * integrator.timestepFs();
    }

    /** Potential energy of the current positions, eV. */
    public double potentialEnergyEv() {
        sync();
        return potentialEnergyEv;
    }

    /** Kinetic energy of the current (full-step) velocities, eV; part of {@link #conservedEnergyEv()}. */
    public double kineticEnergyEv() {
        return Observables.kineticEnergyEv(atoms());
    }

    /**
     * The kinetic energy the energy log and {@link #temperatureK()} report, eV: that of the
     * velocities, except where the integrator's full-step velocities carry a known O(dt²) bias
     * (Langevin BAOAB: then the kinetic energy just after the last O step, see
     * {@link Integrator#reportedKineticEnergyEv()}), on the host and on a device alike.
     */
    public double reportedKineticEnergyEv() {
        java.util.OptionalDouble k = device == null ? integrator.reportedKineticEnergyEv()
                : finalReportedKineticEnergyEv != null ? finalReportedKineticEnergyEv
                : device.reportedKineticEnergyEv(replicaIndex);
        return k.isPresent() ? k.getAsDouble() : kineticEnergyEv();
    }

    /** Total energy E_kin + E_pot, eV. */
    public double totalEnergyEv() {
        return kineticEnergyEv() + potentialEnergyEv();
    }

    /** Total energy plus the energy the thermostat took out, eV: constant up to integration error. */
    public double conservedEnergyEv() {
        double bath = device == null ? integrator.bathEnergyEv(degreesOfFreedom)
                : finalReportedKineticEnergyEv != null ? finalBathEnergyEv : device.bathEnergyEv(replicaIndex);
        return totalEnergyEv() + bath;
    }

    /** Instantaneous temperature 2 E_kin / (dof k_B), K, from the {@link #reportedKineticEnergyEv() reported} E_kin. */
    public double temperatureK() {
        return 2 * reportedKineticEnergyEv() / (degreesOfFreedom * Units.BOLTZMANN_EV_PER_K);
    }

    /**
     * Flushes and closes every reporter, and frees the device binding if this simulation owns it.
     *
     * @throws OutputWriteException naming the file when a reporter cannot be flushed or closed
     */
    @Override
    public void close() {
        UncheckedIOException first = null;
        for (Reporter r : reporters) {
            try {
                r.close();
            } catch (IOException e) {
                OutputWriteException named = broken(r, e);
                if (first == null) {
                    first = named;
                } else {
                    first.addSuppressed(named);
                }
            }
        }
        if (ownsDevice && !closed) {
            pullFinalState();   // the final state stays readable once the device is freed
            device.close();
        }
        closed = true;
        if (first != null) {
            throw first;
        }
    }
}
