package org.molten.integrators;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import org.molten.core.Atoms;
import org.molten.core.ForceField;
import org.molten.core.RandomStream;
import org.molten.core.dynamics.DeviceBlowUpException;
import org.molten.core.dynamics.DeviceDynamics;
import org.molten.core.dynamics.DevicePlatform;
import org.molten.core.dynamics.DynamicsSpec;
import org.molten.core.dynamics.ReplicaStart;
import org.molten.integrators.thermostats.BerendsenThermostat;
import org.molten.integrators.thermostats.BussiThermostat;
import org.molten.integrators.thermostats.LangevinThermostat;
import org.molten.integrators.thermostats.NoseHooverChain;

/**
 * A test-scope device platform named "fake" that runs the host integrators inside, rebuilt from
 * the {@link DynamicsSpec} alone (so the spec must carry every parameter), and counts what the
 * simulation asks of it: advances with their chunk sizes, reads per replica. Registered in
 * src/test/resources/META-INF/services. Settings are static because the service loader makes it.
 */
public final class FakeDevicePlatform implements DevicePlatform {
    /** When not null, the platform says it cannot run here, with this reason. */
    static volatile String unavailable;
    /** The last binding, for the test to inspect. */
    static volatile Dynamics last;

    @Override
    public String name() {
        return "fake";
    }

    @Override
    public Optional<String> unavailableReason() {
        return Optional.ofNullable(unavailable);
    }

    @Override
    public Optional<String> unsupportedReason(ForceField forceField, DynamicsSpec dynamics) {
        return dynamics instanceof DynamicsSpec.Berendsen ? Optional.of("berendsen is not implemented on fake")
                : Optional.empty();
    }

    @Override
    public Optional<DeviceDynamics> bind(ForceField forceField, List<ReplicaStart> replicas) {
        Dynamics d = new Dynamics(forceField, replicas);
        last = d;
        return Optional.of(d);
    }

    /** The integrator a spec describes, built from its fields only. */
    static Integrator integratorOf(DynamicsSpec spec) {
        if (spec instanceof DynamicsSpec.VelocityVerlet v) {
            return new VelocityVerlet(v.timestepFs());
        } else if (spec instanceof DynamicsSpec.Langevin l) {
            LangevinThermostat t = LangevinThermostat.of(l.temperatureK(), l.frictionPerFs());
            return new VelocityVerlet(l.timestepFs(), l.removeCentreOfMassDrift() ? t : t.keepingCentreOfMassMotion());
        } else if (spec instanceof DynamicsSpec.Bussi b) {
            return new VelocityVerlet(b.timestepFs(), new BussiThermostat(b.temperatureK(), b.tauFs()));
        } else if (spec instanceof DynamicsSpec.NoseHooverChain n) {
            return new VelocityVerlet(n.timestepFs(), new NoseHooverChain(n.temperatureK(), n.tauFs(), n.chainLength(),
                    n.multipleTimeSteps(), n.suzukiYoshidaWeights()));
        } else if (spec instanceof DynamicsSpec.Berendsen b) {
            return new VelocityVerlet(b.timestepFs(), new BerendsenThermostat(b.temperatureK(), b.tauFs()));
        }
        throw new IllegalArgumentException(spec.toString());
    }

    /** One replica's resident state. */
    static final class Replica implements DynamicsState {
        final Atoms atoms;
        final Integrator integrator;
        final RandomStream random;
        final int dof;
        final ForceField forceField;
        final double[] forces;
        double energy;
        int reads;

        Replica(ForceField ff, ReplicaStart s) {
            this.atoms = s.atoms().copy();
            this.integrator = integratorOf(s.dynamics());
            this.random = new RandomStream(s.seed());
            this.dof = s.degreesOfFreedom();
            this.forceField = ff;
            this.forces = new double[3 * atoms.size()];
            this.energy = ff.energyAndForces(atoms, forces);
        }

        @Override public Atoms atoms() { return atoms; }
        @Override public double[] forces() { return forces; }
        @Override public int degreesOfFreedom() { return dof; }
        @Override public RandomStream random() { return random; }
        @Override public double computeForces() {
            energy = forceField.energyAndForces(atoms, forces);
            return energy;
        }
    }

    /** The binding: host integrators behind the SPI. */
    static final class Dynamics implements DeviceDynamics {
        final List<Replica> replicas = new ArrayList<>();
        final List<Integer> advances = new ArrayList<>();
        long step;
        boolean closed;

        Dynamics(ForceField ff, List<ReplicaStart> starts) {
            for (ReplicaStart s : starts) {
                replicas.add(new Replica(ff, s));
            }
        }

        @Override public String platformName() { return "fake"; }
        @Override public String description() { return "host integrators behind the device SPI (test)"; }
        @Override public int replicas() { return replicas.size(); }
        @Override public long stepCount() { return step; }

        @Override
        public void advance(int steps) {
            advances.add(steps);
            for (int k = 0; k < steps; k++) {
                for (int r = 0; r < replicas.size(); r++) {
                    Replica rep = replicas.get(r);
                    double[] keepR = rep.atoms.positions().clone();
                    double[] keepV = rep.atoms.velocities().clone();
                    double[] keepF = rep.forces.clone();
                    double keepE = rep.energy;
                    rep.integrator.step(rep);
                    for (int i = 0; i < rep.forces.length; i++) {
                        if (!Double.isFinite(rep.forces[i]) || !Double.isFinite(rep.atoms.positions()[i])
                                || Math.abs(rep.forces[i]) > 1e4) {
                            // back to the last good step, as a device keeps it readable
                            System.arraycopy(keepR, 0, rep.atoms.positions(), 0, keepR.length);
                            System.arraycopy(keepV, 0, rep.atoms.velocities(), 0, keepV.length);
                            System.arraycopy(keepF, 0, rep.forces, 0, keepF.length);
                            rep.energy = keepE;
                            throw new DeviceBlowUpException("atom " + i / 3 + " of replica " + r + " non-finite at step "
                                    + (step + 1), r, i / 3, step + 1);
                        }
                    }
                }
                step++;
            }
        }

        @Override
        public double read(int replica, Atoms into, double[] forces) {
            Replica r = replicas.get(replica);
            r.reads++;
            System.arraycopy(r.atoms.positions(), 0, into.positions(), 0, r.forces.length);
            System.arraycopy(r.atoms.velocities(), 0, into.velocities(), 0, r.forces.length);
            if (forces != null) {
                System.arraycopy(r.forces, 0, forces, 0, r.forces.length);
            }
            return r.energy;
        }

        @Override
        public double bathEnergyEv(int replica) {
            requireOpen();
            Replica r = replicas.get(replica);
            return r.integrator.bathEnergyEv(r.dof);
        }

        @Override
        public java.util.OptionalDouble reportedKineticEnergyEv(int replica) {
            requireOpen();
            return replicas.get(replica).integrator.reportedKineticEnergyEv();
        }

        /** As a real device: nothing is read from a freed binding (CudaContext: "already closed"). */
        private void requireOpen() {
            if (closed) {
                throw new IllegalStateException("fake device already closed");
            }
        }

        @Override
        public byte[] integratorState(int replica) {
            Replica r = replicas.get(replica);
            ByteArrayOutputStream b = new ByteArrayOutputStream();
            try (DataOutputStream out = new DataOutputStream(b)) {
                r.integrator.writeState(out);
                for (long x : r.random.state()) {
                    out.writeLong(x);
                }
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
            return b.toByteArray();
        }

        @Override
        public void restore(int replica, Atoms state, double[] forces, double potentialEnergyEv, byte[] integratorState,
                            long step) {
            Replica r = replicas.get(replica);
            System.arraycopy(state.positions(), 0, r.atoms.positions(), 0, r.forces.length);
            System.arraycopy(state.velocities(), 0, r.atoms.velocities(), 0, r.forces.length);
            System.arraycopy(forces, 0, r.forces, 0, r.forces.length);
            r.energy = potentialEnergyEv;
            try (DataInputStream in = new DataInputStream(new ByteArrayInputStream(integratorState))) {
                r.integrator.readState(in);
                long[] rng = new long[r.random.state().length];
                for (int i = 0; i < rng.length; i++) {
                    rng[i] = in.readLong();
                }
                r.random.restore(rng);
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
            this.step = step;
        }

        @Override
        public void close() {
            closed = true;
        }
    }
}
