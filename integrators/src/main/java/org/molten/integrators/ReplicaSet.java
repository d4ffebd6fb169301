package org.molten.integrators;

import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.Collections;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.function.Consumer;
import java.util.function.IntFunction;
import org.molten.core.dynamics.DeviceDynamics;

/**
 * R independent simulations advanced together (replicas): the same or different molecules, sizes,
 * seeds and temperatures. On the host they step in parallel on a fixed pool of threads, each with
 * its own force field, integrator and random stream, so replica k is bit for bit the simulation
 * its builder would give alone, whatever the number of threads. On a device platform all replicas
 * are bound at once ({@link org.molten.core.dynamics.DevicePlatform#bind} with R starts) and
 * advance in one call. Reporters are attached to each replica ({@link #replica(int)}).
 *
 * <p>Typical use, R copies of one molecule with seeds seed … seed+R−1:
 * <pre>{@code
 * try (ReplicaSet set = ReplicaSet.of(r, k -> Simulation.builder(molecule.copy(), newForceField(),
 *         new VelocityVerlet(0.5, LangevinThermostat.of(300, 0.01))).seed(seed + k).temperature(300)).build()) {
 *     set.replica(0).addReporter(EnergyLogReporter.create(Path.of("e.r0.csv"), 100));
 *     set.step(10_000);
 * }
 * }</pre>
 */
public final class ReplicaSet implements AutoCloseable {
    private final List<Simulation> replicas;
    private final DeviceDynamics device;   // null on the host
    private final ExecutorService pool;    // null on a device or with one thread
    private final String platformName;
    private boolean closed;

    private ReplicaSet(List<Simulation> replicas, DeviceDynamics device, ExecutorService pool, String platformName) {
        this.replicas = List.copyOf(replicas);
        this.device = device;
        this.pool = pool;
        this.platformName = platformName;
    }

    /** A set of {@code count} replicas, replica k from {@code replica.apply(k)}. */
    public static Builder of(int count, IntFunction<Simulation.Builder> replica) {
        if (count < 1) {
            throw new IllegalArgumentException("a replica set needs at least one replica: " + count);
        }
        List<Simulation.Builder> builders = new ArrayList<>(count);
        for (int k = 0; k < count; k++) {
            builders.add(Objects.requireNonNull(replica.apply(k), "replica builder " + k));
        }
        return new Builder(builders);
    }

    /** A set of the given replicas, in order. */
    public static Builder of(List<Simulation.Builder> replicas) {
        if (replicas.isEmpty()) {
            throw new IllegalArgumentException("a replica set needs at least one replica");
        }
        return new Builder(new ArrayList<>(replicas));
    }

    /** Settings of the set: platform and host threads. The replicas' own settings are in their builders. */
    public static final class Builder {
        private final List<Simulation.Builder> builders;
        private String platform;
        private int threads = Runtime.getRuntime().availableProcessors();
        private Consumer<String> warnings;

        private Builder(List<Simulation.Builder> builders) {
            this.builders = builders;
        }

        /** The platform of every replica (default: replica 0's, {@code auto} unless set); see {@link Simulation}. */
        public Builder platform(String name) {
            this.platform = PlatformBinding.requireKnown(name);
            return this;
        }

        /** Host threads (default: the available processors, at most one per replica). */
        public Builder threads(int threads) {
            if (threads < 1) {
                throw new IllegalArgumentException("threads must be at least 1: " + threads);
            }
            this.threads = threads;
            return this;
        }

        /** Where the one warning of a platform fallback goes (default: replica 0's). */
        public Builder warnings(Consumer<String> sink) {
            this.warnings = Objects.requireNonNull(sink, "sink");
            return this;
        }

        /**
         * Draws or keeps each replica's velocities, binds them to the platform and evaluates
         * their initial forces.
         *
         * @throws IllegalArgumentException when replicas share atoms, or share a force field or an
         *                                  integrator on the host (neither is thread-safe), naming
         *                                  both replicas
         */
        public ReplicaSet build() {
            Simulation.Builder first = builders.get(0);
            String p = platform != null ? platform : first.platform();
            Consumer<String> w = warnings != null ? warnings : first.warnings();
            requireDistinct("atoms", b -> b.atoms);
            List<Simulation.Prepared> prepared = new ArrayList<>(builders.size());
            for (Simulation.Builder b : builders) {
                prepared.add(b.prepare());
            }
            PlatformBinding.Bound bound = PlatformBinding.bind(p, prepared, w);
            if (bound.device() == null) {
                requireDistinct("force field", b -> b.forceField);
                requireDistinct("integrator", b -> b.integrator);
            }
            List<Simulation> sims = new ArrayList<>(prepared.size());
            ExecutorService pool = null;
            try {
                for (int k = 0; k < prepared.size(); k++) {
                    sims.add(new Simulation(prepared.get(k), bound.platformName(), bound.device(), k, false));
                }
                int n = Math.min(threads, sims.size());
                if (bound.device() == null && n > 1) {
                    pool = Executors.newFixedThreadPool(n, r -> {
                        Thread t = new Thread(r, "molten-replica");
                        t.setDaemon(true);
                        return t;
                    });
                }
            } catch (RuntimeException e) {
                if (bound.device() != null) {
                    bound.device().close();
                }
                throw e;
            }
            return new ReplicaSet(sims, bound.device(), pool, bound.platformName());
        }

        private void requireDistinct(String what, java.util.function.Function<Simulation.Builder, Object> part) {
            Map<Object, Integer> seen = new IdentityHashMap<>();
            for (int k = 0; k < builders.size(); k++) {
                Integer other = seen.putIfAbsent(part.apply(builders.get(k)), k);
                if (other != null) {
                    throw new IllegalArgumentException("replicas " + other + " and " + k + " share one " + what
                            + " instance; give each replica its own (" + what + "s hold per-run state and are not"
                            + " thread-safe)");
                }
            }
        }
    }

    /** Number of replicas. */
    public int size() {
        return replicas.size();
    }

    /** Replica {@code k}: attach its reporters, read its state, checkpoint or restore it. */
    public Simulation replica(int k) {
        return replicas.get(k);
    }

    /** The replicas in index order, unmodifiable. */
    public List<Simulation> replicas() {
        return Collections.unmodifiableList(replicas);
    }

    /** The platform every replica runs on. */
    public String platformName() {
        return platformName;
    }

    /** Steps done (the same for every replica). */
    public long stepCount() {
        return replicas.get(0).stepCount();
    }

    /**
     * Advances every replica {@code steps} steps, calling each replica's reporters at their
     * intervals (replica by replica in index order at each such step). A fresh set reports each
     * replica's initial state first.
     *
     * @throws SimulationBlowUpException for the lowest-index replica that blew up (the others'
     *                                   failures suppressed in it); every reporter is flushed first
     * @throws UncheckedIOException      when a reporter cannot write
     */
    public void step(int steps) {
        long at = replicas.get(0).stepCount();
        for (Simulation s : replicas) {
            if (s.stepCount() != at) {
                throw new IllegalStateException("replica " + s.replicaIndex() + " is at step " + s.stepCount()
                        + ", replica 0 at " + at + ": restore every replica to the same step");
            }
        }
        ReplicaStepping.advance(replicas, device, pool, steps);
    }

    /**
     * Runs {@code replicas} together for {@code steps} steps with each replica's reporters
     * ({@code reporters.apply(k)}), then closes the set (reporters flushed and closed, the final
     * state of every replica pulled before a device is freed). For callers that need only what the
     * reporters collected and the final states, e.g. validation statistics over R seeds.
     *
     * @return the replicas in index order, closed, their final state readable
     */
    public static List<Simulation> run(List<Simulation.Builder> replicas, String platform, int steps,
                                       IntFunction<List<Reporter>> reporters) {
        try (ReplicaSet set = of(replicas).platform(platform).build()) {
            for (int k = 0; k < set.size(); k++) {
                for (Reporter r : reporters.apply(k)) {
                    set.replica(k).addReporter(r);
                }
            }
            set.step(steps);
            return set.replicas();
        }
    }

    /** Closes every replica's reporters, the host threads and the device binding (after pulling the final states). */
    @Override
    public void close() {
        if (closed) {
            return;
        }
        closed = true;
        RuntimeException first = null;
        if (device != null) {
            for (Simulation s : replicas) {
                try {
                    s.pullFinalState();   // the final state (and temperature, bath) stay readable once the device is freed
                } catch (RuntimeException e) {
                    first = e;
                }
            }
        }
        for (Simulation s : replicas) {
            try {
                s.close();
            } catch (RuntimeException e) {
                if (first == null) {
                    first = e;
                } else {
                    first.addSuppressed(e);
                }
            }
        }
        if (pool != null) {
            pool.shutdownNow();
        }
        if (device != null) {
            device.close();
        }
        if (first != null) {
            throw first;
        }
    }
}
