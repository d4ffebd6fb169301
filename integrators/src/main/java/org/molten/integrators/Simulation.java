package org.molten.integrators;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import org.molten.core.Atoms;
import org.molten.core.ForceField;
import org.molten.core.Observables;
import org.molten.core.RandomStream;

/**
 * A running simulation, as OpenMM's Context: the {@link Atoms} (live positions and velocities),
 * a {@link ForceField}, an {@link Integrator}, a {@link RandomStream}, the forces and potential
 * energy of the current positions, a step counter and the time in fs, and the {@link Reporter}s
 * called at their intervals. {@link #step(int)} advances it, one force evaluation per step,
 * checking a {@link BlowUpGuard} after every step.
 *
 * <p>Degrees of freedom: 3N minus the constraints removed from the velocities (3 for the
 * centre-of-mass momentum, up to 6 with rotation; {@link MaxwellBoltzmann#assign} returns the
 * number). The builder refuses a count the integrator cannot keep: a thermostat that adds
 * momentum (Langevin without drift removal) needs 0, one that thermalises rotation (Langevin)
 * or a periodic cell cannot have rotation removed.
 *
 * <p>The simulation does not own the force field (close it yourself); {@link #close()} flushes
 * and closes the reporters. Not thread-safe.
 */
public final class Simulation implements DynamicsState, AutoCloseable {
    private final Atoms atoms;
    private final ForceField forceField;
    private final Integrator integrator;
    private final RandomStream random;
    private final Long seed;
    private final int degreesOfFreedom;
    private final BlowUpGuard guard;
    private final double[] forces;
    private final List<Reporter> reporters = new ArrayList<>();
    private double potentialEnergyEv;
    private long step;
    private boolean initialStateReported;

    private Simulation(Builder b) {
        this.atoms = b.atoms;
        this.forceField = b.forceField;
        this.integrator = b.integrator;
        this.random = b.random;
        this.seed = b.seed;
        this.guard = b.guard;
        int n = atoms.size();
        if (b.removedConstraints >= 4 && !integrator.conservesAngularMomentum()) {
            throw new IllegalArgumentException(integrator.name() + " does not conserve angular momentum (it thermalises"
                    + " rotation): remove at most the 3 centre-of-mass constraints, not " + b.removedConstraints);
        }
        if (b.removedConstraints >= 4 && atoms.cell().map(c -> c.anyPeriodic()).orElse(false)) {
            throw new IllegalArgumentException("rotation is not a constant of motion under periodic boundaries:"
                    + " remove at most the 3 centre-of-mass constraints, not " + b.removedConstraints);
        }
        if (b.removedConstraints >= 1 && !integrator.conservesLinearMomentum()) {
            throw new IllegalArgumentException(integrator.name() + " does not keep the total momentum at zero:"
                    + " all 3N degrees of freedom are thermalised, so remove 0 constraints, not " + b.removedConstraints);
        }
        this.degreesOfFreedom = Observables.degreesOfFreedom(n, b.removedConstraints);
        this.forces = new double[3 * n];
        this.potentialEnergyEv = forceField.energyAndForces(atoms, forces);
        guard.check(0, 0.0, atoms, forces, potentialEnergyEv);
    }

    /** Starts a builder for {@code atoms} (used live, not copied) with a force field and an integrator. */
    public static Builder builder(Atoms atoms, ForceField forceField, Integrator integrator) {
        return new Builder(atoms, forceField, integrator);
    }

    /** Settings of a simulation; {@link #build()} evaluates the initial forces. */
    public static final class Builder {
        private final Atoms atoms;
        private final ForceField forceField;
        private final Integrator integrator;
        private RandomStream random;
        private Long seed;
        private int removedConstraints;
        private BlowUpGuard guard = BlowUpGuard.defaults();

        private Builder(Atoms atoms, ForceField forceField, Integrator integrator) {
            this.atoms = Objects.requireNonNull(atoms, "atoms");
            this.forceField = Objects.requireNonNull(forceField, "forceField");
            this.integrator = Objects.requireNonNull(integrator, "integrator");
        }

        /** A fresh random stream from {@code seed} (recorded in checkpoints). */
        public Builder seed(long seed) {
            return random(new RandomStream(seed), seed);
        }

        /**
         * A random stream created from {@code seed} and possibly already used (for the initial
         * velocities, say); the seed is recorded, the stream's state is what continues.
         */
        public Builder random(RandomStream stream, long seed) {
            this.random = Objects.requireNonNull(stream, "stream");
            this.seed = seed;
            return this;
        }

        /**
         * Constraints removed from the velocities: 0 (default, all 3N degrees of freedom),
         * 3 (centre-of-mass momentum) or up to 6 (rotation too); see
         * {@link MaxwellBoltzmann#assign}.
         */
        public Builder removedConstraints(int count) {
            if (count < 0 || count > 6) {
                throw new IllegalArgumentException("removed constraints must be 0 to 6: " + count);
            }
            this.removedConstraints = count;
            return this;
        }

        /** The blow-up bounds (default {@link BlowUpGuard#defaults()}). */
        public Builder guard(BlowUpGuard guard) {
            this.guard = Objects.requireNonNull(guard, "guard");
            return this;
        }

        /**
         * Builds the simulation and evaluates the forces of the initial positions.
         *
         * @throws IllegalArgumentException for an inconsistent degrees-of-freedom count
         * @throws SimulationBlowUpException if the initial state already breaks the guard
         */
        public Simulation build() {
            return new Simulation(this);
        }
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
     * @throws SimulationBlowUpException when the guard trips; reporters are flushed first and the
     *                                   bad state is neither reported nor checkpointed
     * @throws IOException               when a reporter cannot write
     */
    public void step(int steps) throws IOException {
        if (steps < 0) {
            throw new IllegalArgumentException("number of steps must be zero or positive: " + steps);
        }
        try {
            if (!initialStateReported) {
                initialStateReported = true;
                report(true);
            }
            double dt = integrator.timestepFs();
            for (int k = 0; k < steps; k++) {
                potentialEnergyEv = integrator.step(this);
                step++;
                guard.check(step, step * dt, atoms, forces, potentialEnergyEv);
                report(false);
            }
        } catch (RuntimeException | IOException e) {
            flushQuietly(e);
            throw e;
        }
    }

    private void report(boolean all) throws IOException {
        for (int pass = 0; pass < 2; pass++) {
            for (Reporter r : reporters) {
                if (r.runsLast() == (pass == 1) && (all || step % r.intervalSteps() == 0)) {
                    r.report(this);
                }
            }
        }
    }

    /** Flushes every reporter. */
    public void flushReporters() throws IOException {
        for (Reporter r : reporters) {
            r.flush();
        }
    }

    private void flushQuietly(Exception cause) {
        for (Reporter r : reporters) {
            try {
                r.flush();
            } catch (IOException | RuntimeException e) {
                cause.addSuppressed(e);
            }
        }
    }

    /** The flushed output files of the reporters, for a checkpoint. */
    public List<OutputMark> outputMarks() throws IOException {
        List<OutputMark> marks = new ArrayList<>();
        for (Reporter r : reporters) {
            r.flush();
            Optional<OutputMark> m = r.outputMark();
            m.ifPresent(marks::add);
        }
        return marks;
    }

    /** A checkpoint of the current state, recording where the reporters' files stand. */
    public Checkpoint checkpoint() throws IOException {
        ByteArrayOutputStream state = new ByteArrayOutputStream();
        try (DataOutputStream out = new DataOutputStream(state)) {
            integrator.writeState(out);
        }
        return new Checkpoint(atoms.atomicNumbers(), atoms.massesAmu(), atoms.cellOrNull(), forceField.name(),
                forceField.parametersFingerprint(), integrator.description(), degreesOfFreedom, seed, step, timeFs(), potentialEnergyEv,
                atoms.positions().clone(), atoms.velocities().clone(), forces.clone(),
                random == null ? null : random.state(), state.toByteArray(), outputMarks());
    }

    /**
     * Continues from a checkpoint: positions, velocities, forces, energy, step, random state and
     * the integrator's state variables are replaced by the checkpoint's, so the run continues
     * exactly as the one that wrote it would have. The initial-state report is not repeated.
     *
     * @throws IllegalArgumentException naming the checkpoint and both values when it belongs to
     *                                  another system (atoms, masses, cell), force field (name or
     *                                  parameters, e.g. another weight file),
     *                                  integrator (description) or degrees of freedom
     */
    public void restore(Checkpoint c) throws IOException {
        c.requireSameSystem(atoms);
        requireSame(c, "force field", c.forceFieldName, forceField.name());
        // the same name with other parameters (another weight file) would silently change the physics
        requireSame(c, "force-field parameter set", c.forceFieldFingerprint, forceField.parametersFingerprint());
        requireSame(c, "integrator", c.integratorDescription, integrator.description());
        requireSame(c, "degrees of freedom", Integer.toString(c.degreesOfFreedom), Integer.toString(degreesOfFreedom));
        if ((c.randomState == null) != (random == null)) {
            throw new IllegalArgumentException("checkpoint " + c.sourceName() + (c.randomState == null
                    ? " has no random stream state but this run has a seed" : " has a random stream state but this run has no seed"));
        }
        try (DataInputStream in = new DataInputStream(new ByteArrayInputStream(c.integratorState))) {
            integrator.readState(in);
            if (in.available() != 0) {
                throw new IOException("checkpoint " + c.sourceName() + ": " + in.available()
                        + " bytes of integrator state left unread");
            }
        }
        if (random != null) {
            random.restore(c.randomState);
        }
        System.arraycopy(c.positionsA, 0, atoms.positions(), 0, forces.length);
        System.arraycopy(c.velocitiesAPerFs, 0, atoms.velocities(), 0, forces.length);
        System.arraycopy(c.forcesEvPerA, 0, forces, 0, forces.length);
        potentialEnergyEv = c.potentialEnergyEv;
        step = c.step;
        initialStateReported = true;
    }

    private static void requireSame(Checkpoint c, String what, String theirs, String ours) {
        if (!theirs.equals(ours)) {
            throw new IllegalArgumentException("checkpoint " + c.sourceName() + " was written for another " + what
                    + ": '" + theirs + "', this run uses '" + ours + "'");
        }
    }

    @Override
    public Atoms atoms() {
        return atoms;
    }

    @Override
    public double[] forces() {
        return forces;
    }

    @Override
    public int degreesOfFreedom() {
        return degreesOfFreedom;
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
        return potentialEnergyEv;
    }

    /** Kinetic energy, eV. */
    public double kineticEnergyEv() {
        return Observables.kineticEnergyEv(atoms);
    }

    /** Total energy E_kin + E_pot, eV. */
    public double totalEnergyEv() {
        return kineticEnergyEv() + potentialEnergyEv;
    }

    /** Total energy plus the energy the thermostat took out, eV: constant up to integration error. */
    public double conservedEnergyEv() {
        return totalEnergyEv() + integrator.bathEnergyEv(degreesOfFreedom);
    }

    /** Instantaneous temperature 2 E_kin / (dof k_B), K. */
    public double temperatureK() {
        return Observables.temperatureK(atoms, degreesOfFreedom);
    }

    /** Flushes and closes every reporter. */
    @Override
    public void close() throws IOException {
        IOException first = null;
        for (Reporter r : reporters) {
            try {
                r.close();
            } catch (IOException e) {
                if (first == null) {
                    first = e;
                } else {
                    first.addSuppressed(e);
                }
            }
        }
        if (first != null) {
            throw first;
        }
    }
}
